"""MkDocs hooks: the generated pictures of the documentation site.

Nothing generated is committed. ``on_files`` adds, as in-memory files of the build
(``File.generated``, MkDocs >= 1.6):

* every figure of ``docs/figures.py``'s ``build()`` (a dict ``{"figures/NAME.svg": bytes}``);
* the board pictures of :func:`boards`, drawn by ``queenslab.viz.board_svg``;
* the favicon, Material's chess-queen icon.

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
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
FIGURES = DOCS / "figures.py"
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


def _load_figures() -> ModuleType | None:
    """``docs/figures.py`` as a module, or None when the file does not exist."""
    if not FIGURES.is_file():
        return None
    spec = importlib.util.spec_from_file_location("queenslab_docs_figures", FIGURES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def generated(config: MkDocsConfig) -> dict[str, bytes]:
    """Every generated file of the site, ``{path relative to the site root: content}``."""
    if str(ROOT) not in sys.path:  # the package from this tree, also without an install
        sys.path.insert(0, str(ROOT))
    out: dict[str, bytes] = {}
    for part in (figures(config), boards(config), favicon()):
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
