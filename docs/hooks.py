"""MkDocs hooks: the generated pictures of the documentation site.

Nothing generated is committed. ``on_files`` adds, as in-memory files of the build
(``File.generated``, MkDocs >= 1.6):

* every figure of ``docs/figures.py``'s ``build()`` (a dict ``{"figures/NAME.svg": bytes}``);
* the board pictures of :func:`boards`, drawn by ``queenslab.viz.board_svg``;
* the favicon, Material's chess-queen icon;
* the pictures of the notebook pages (the tutorial) and the stylesheet of their outputs.

The notebook pages (``docs/executed.py``'s ``NOTEBOOK_PAGES``) are executed while the site
is built, and ``on_page_markdown`` gives each its Markdown with the outputs under every
code cell; a cell that raises fails the build. ``on_page_content`` shows each figure of
``docs/figures.py`` that has a dark variant (``figures/NAME-dark.svg``) in the colour scheme
it is drawn for: the two become Material's ``#only-light`` and ``#only-dark`` images.

It also holds :class:`SphinxRoles`, the Griffe extension (registered in mkdocs.yml) that shows
the package's Sphinx cross-reference roles as code in the API reference.

The pages link them with relative paths (``figures/counts.svg``, ``boards/eight-queens.svg``),
so MkDocs' link validation sees them like any other file.

A missing ``docs/figures.py`` or ``queenslab.viz.board_svg`` is an error in a strict build
(``mkdocs build --strict``, as in CI) and a warning otherwise: the site is never published
with a picture silently left out.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import posixpath
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
FIGURES = DOCS / "figures.py"
EXECUTED = DOCS / "executed.py"
EXAMPLES = ROOT / "examples"

#: The example problem file drawn on the variants page (a region constraint).
REGION_EXAMPLE = "two-in-the-top-left-quadrant.toml"

log = logging.getLogger("mkdocs.hooks.queenslab")


def _missing(what: str, config: MkDocsConfig) -> None:
    """Fail a strict build, warn in any other, about a generator that is not there."""
    message = f"{what}; the pages that show its pictures will have broken images"
    if config.strict:
        raise PluginError(f"queenslab docs hook: {message}")
    log.warning(message)


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _load(path: Path, name: str) -> ModuleType | None:
    """The file at ``path`` as the module ``name``, or None when the file does not exist."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _load_figures() -> ModuleType | None:
    """``docs/figures.py`` as a module, or None when the file does not exist."""
    return _load(FIGURES, "queenslab_docs_figures")


def figures(config: MkDocsConfig) -> dict[str, bytes]:
    """The figures of ``docs/figures.py``: ``build()`` as ``{path: SVG bytes}``."""
    os.environ.setdefault("MPLBACKEND", "Agg")  # no display on CI
    module = _load_figures()
    if module is None:
        _missing(f"{_shown(FIGURES)} does not exist (it generates the figures)", config)
        return {}
    built = module.build()
    if not isinstance(built, dict):
        raise PluginError(f"figures.build() must return a dict of path -> bytes, got {type(built).__name__}")
    return {path: data.encode() if isinstance(data, str) else data for path, data in built.items()}


def _board_svg() -> Callable[..., str] | None:
    from queenslab import viz

    return getattr(viz, "board_svg", None)


def boards(config: MkDocsConfig) -> dict[str, bytes]:
    """The board pictures: ``{path: SVG bytes}``.

    * ``boards/eight-queens.svg`` -- the lexicographically first solution of 8 queens;
    * ``boards/attacks.svg`` -- the same board with the cells one queen attacks;
    * ``boards/variant-region.svg`` -- the first solution of the example problem file
      ``examples/two-in-the-top-left-quadrant.toml`` (exactly two queens in a region),
      with the region drawn.
    """
    board_svg = _board_svg()
    if board_svg is None:
        _missing("queenslab.viz has no board_svg (it draws the boards)", config)
        return {}
    from queenslab import Problem, solve
    from queenslab.problem_file import read_problem

    eight = Problem(8)
    first = solve(eight, backend="native")
    region = read_problem(EXAMPLES / REGION_EXAMPLE)
    out = {
        "boards/eight-queens.svg": board_svg(eight, first),
        "boards/attacks.svg": board_svg(eight, first, attacks_of=3),
        "boards/variant-region.svg": board_svg(region, solve(region, backend="native")),
    }
    return {path: svg.encode() for path, svg in out.items()}


def favicon() -> dict[str, bytes]:
    """Material's chess-queen icon as the favicon (a local file: nothing is fetched)."""
    import material

    icon = Path(material.__file__).parent / "templates" / ".icons" / "material" / "chess-queen.svg"
    svg = icon.read_text().replace("<path ", '<path fill="#3f51b5" ', 1)
    return {"assets/favicon.svg": svg.encode()}


#: The Markdown of each notebook page with its outputs, by its path in docs/ (``on_files``
#: fills it, ``on_page_markdown`` reads it).
_NOTEBOOK_MARKDOWN: dict[str, str] = {}


def notebook_pages(config: MkDocsConfig) -> dict[str, bytes]:
    """Execute the notebook pages: their pictures and the outputs' stylesheet, ``{path: bytes}``.

    The pages' Markdown with their outputs is kept for :func:`on_page_markdown`. A cell that
    raises, or a missing Jupyter, fails a strict build; any other build warns and shows the
    page without outputs.
    """
    _NOTEBOOK_MARKDOWN.clear()
    executed = _load(EXECUTED, "queenslab_docs_executed")
    if executed is None:
        _missing(f"{_shown(EXECUTED)} does not exist (it executes the notebook pages)", config)
        return {}
    out = {executed.CSS_PATH: executed.CSS.encode()}
    docs_dir = Path(config.docs_dir) if getattr(config, "docs_dir", None) else DOCS
    for page in executed.NOTEBOOK_PAGES:
        started = time.perf_counter()
        try:
            rendered = executed.render(docs_dir / page)
        except executed.NotebookError as exc:
            if config.strict:
                raise PluginError(f"queenslab docs hook: {exc}") from None
            log.warning(f"{exc}; the page is shown without its outputs")
            continue
        how = "from the cache" if rendered.cached else f"executed in {time.perf_counter() - started:.1f} s"
        log.info(f"notebook page {page}: outputs {how}")
        _NOTEBOOK_MARKDOWN[page] = rendered.markdown
        out.update(rendered.files)
    return out


def generated(config: MkDocsConfig) -> dict[str, bytes]:
    """Every generated file of the site, ``{path relative to the site root: content}``."""
    if str(ROOT) not in sys.path:  # the package from this tree, also without an install
        sys.path.insert(0, str(ROOT))
    out: dict[str, bytes] = {}
    for part in (figures(config), boards(config), favicon(), notebook_pages(config)):
        for path, content in part.items():
            if path in out:
                raise PluginError(f"queenslab docs hook: {path} is generated twice")
            out[path] = content
    return out


def _check_path(path: str) -> None:
    norm = posixpath.normpath(path)
    if norm != path or path.startswith(("/", "../")) or "\\" in path:
        raise PluginError(f"queenslab docs hook: generated path {path!r} must be relative and normalised")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated files to the build (they are never written into docs/)."""
    for path, content in generated(config).items():
        _check_path(path)
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"queenslab docs hook: {path} is generated but docs/{path} exists too")
        files.append(File.generated(config, path, content=content))
    return files


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Add the stylesheet of the notebook pages' outputs (a generated file) to the site."""
    executed = _load(EXECUTED, "queenslab_docs_executed")
    if executed is not None and executed.CSS_PATH not in config.extra_css:
        config.extra_css.append(executed.CSS_PATH)
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """A notebook page's Markdown with the outputs of its execution under each code cell."""
    return _NOTEBOOK_MARKDOWN.get(page.file.src_uri, markdown)


_IMG = re.compile(r"<img\b[^>]*>")
_SRC = re.compile(r"""\bsrc=(["'])([^"'#?]+\.svg)\1""")


def with_dark_variants(content: str, page_url: str, generated_paths: set[str]) -> str:
    """``content`` (a page's HTML) with each ``<img>`` of a figure that has a dark variant
    as two: the figure ``#only-light`` and ``NAME-dark.svg`` ``#only-dark``.

    Parameters
    ----------
    content : str
        The page's HTML.
    page_url : str
        The page's URL relative to the site (``"symmetry.html"``), which its ``src`` are
        relative to.
    generated_paths : set of str
        The paths of the generated files, relative to the site.
    """
    base = posixpath.dirname(page_url)

    def pair(match: re.Match[str]) -> str:
        tag = match.group(0)
        src = _SRC.search(tag)
        if src is None:
            return tag
        path = posixpath.normpath(posixpath.join(base, src.group(2)))
        dark = path.removesuffix(".svg") + "-dark.svg"
        if not path.startswith("figures/") or dark not in generated_paths:
            return tag
        quote, given = src.group(1), src.group(2)
        light_tag = tag.replace(src.group(0), f"src={quote}{given}#only-light{quote}", 1)
        dark_src = given.removesuffix(".svg") + "-dark.svg"
        dark_tag = tag.replace(src.group(0), f"src={quote}{dark_src}#only-dark{quote}", 1)
        return light_tag + dark_tag

    return _IMG.sub(pair, content)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Each figure with a dark variant shown in the colour scheme it is drawn for."""
    generated_paths = {f.src_uri for f in files if f.generated_by is not None}
    return with_dark_variants(html, page.file.url, generated_paths)


_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|attr|data|exc|obj|const|term):`(~?)\.?([^`<>]+?)`")


def _role(match: re.Match[str]) -> str:
    short, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


_RST_LINK = re.compile(r"`([^`<>]+?)\s*<([^`<>]+)>`__?")
_LITERAL_MARK = re.compile(r"(?<=\S)::$", re.MULTILINE)


def rst_to_markdown(text: str) -> str:
    """The reStructuredText of a docstring that Markdown would show raw, in Markdown.

    Sphinx roles become code (``:func:`~a.b.c``` -> ```c```), hyperlinks become Markdown
    links, and a paragraph's closing ``::`` (a literal block follows) becomes ``:``.
    """
    text = _ROLE.sub(_role, text)
    text = _RST_LINK.sub(lambda m: f"[{m.group(1)}]({m.group(2)})", text)
    return _LITERAL_MARK.sub(":", text)


class SphinxRoles(griffe.Extension):
    """Griffe extension: the package's docstrings, numpydoc with Sphinx markup, read well as Markdown.

    mkdocstrings renders docstrings as Markdown, where a Sphinx role would show as literal
    ``:func:`` text; see :func:`rst_to_markdown`.
    """

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rst_to_markdown(obj.docstring.value)
