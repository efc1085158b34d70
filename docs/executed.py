"""Pages of the site that are notebooks: executed when the site is built, shown with their outputs.

A page listed in :data:`NOTEBOOK_PAGES` (the tutorial) is a jupytext Markdown notebook. The
mkdocs hook (``docs/hooks.py``) calls :func:`render` for it while the site is built: the page
is read with jupytext, executed in a fresh ``python3`` Jupyter kernel by nbclient, and
written back as Markdown in which every code cell is followed by its outputs, as Jupyter
shows them -- printed text, rich HTML reprs (tables), pictures. Nothing is pasted: what the
page shows is what its code printed during this build (or a build of the same page and
package, see the cache below).

* **A cell that raises fails the build** (:class:`NotebookError`, which the hook turns into
  a ``PluginError``), naming the cell and the error.
* **Pictures** (``image/svg+xml``, ``image/png`` outputs) become files of the site next to
  the page (``tutorial/out-<cell>-<k>.svg``), linked by ``<img>``: no inline ``data:`` blob,
  and nothing loaded from outside (``docs/check_offline.py`` checks the built page).
* **Two colour schemes**: the notebook is executed twice, the second time with
  ``QUEENSLAB_PLOT_STYLE=dark`` in the kernel's environment, which :mod:`queenslab.plot`
  reads as its default style. A picture that differs between the runs (a plot) is shown as
  a pair, Material's ``#only-light`` / ``#only-dark`` images, each shown in its own scheme;
  the text and every other output come from the first run. The two kernels run at the
  same time.
* **Cache**: an execution takes about ten seconds, so the executed notebooks are kept in
  ``$QUEENSLAB_DOCS_CACHE`` (default ``~/.cache/queenslab-docs``; ``off`` disables it),
  keyed by a hash of the page's text and of every source file of the package: a change to
  either executes the page again.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: The pages executed as notebooks, relative to the docs directory.
NOTEBOOK_PAGES = ("tutorial.md",)
#: The environment of each execution: the first is the page's text, the others add pictures.
SCHEMES = {"light": {}, "dark": {"QUEENSLAB_PLOT_STYLE": "dark"}}
#: Seconds one cell may run.
CELL_TIMEOUT_S = 600
#: The output kinds shown, richest first (nbconvert's order, without PDF and LaTeX).
PRIORITY = ("text/html", "image/svg+xml", "image/png", "text/markdown", "text/plain")
IMAGES = {"image/svg+xml": "svg", "image/png": "png"}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "queenslab"

#: Styles of the outputs (a generated stylesheet of the site): an output sits under its
#: cell, set off by a rule in the accent colour, in the page's own colours.
CSS = """\
.md-typeset .nb-output { margin: -0.6em 0 1.2em; padding: 0.2em 0 0.2em 0.8em;
  border-left: 0.2rem solid var(--md-accent-fg-color--transparent, #ffc10766); overflow-x: auto; }
.md-typeset .nb-output pre { margin: 0.2em 0; }
.md-typeset .nb-output pre > code { background: none; padding: 0; box-shadow: none; }
.md-typeset .nb-output--stderr pre > code { color: var(--md-code-hl-keyword-color, #c44e52); }
/* no display here: Material hides an #only-light or #only-dark image with display: none */
.md-typeset .nb-output img { margin: 0.4em 0; max-width: 100%; }
.md-typeset .nb-output table { font-size: 0.8rem; }
"""
#: Where the stylesheet is, relative to the site.
CSS_PATH = "assets/stylesheets/notebook-outputs.css"


class NotebookError(RuntimeError):
    """A notebook page could not be executed: a cell raised, or Jupyter is missing."""


@dataclass
class Rendered:
    """A notebook page with its outputs.

    Attributes
    ----------
    markdown : str
        The page's Markdown, each code cell followed by its outputs.
    files : dict of str to bytes
        The pictures, ``{path relative to the site: content}``.
    cached : bool
        Whether the executions came from the cache.
    """

    markdown: str
    files: dict[str, bytes] = field(default_factory=dict)
    cached: bool = False


def source_hash(text: str) -> str:
    """The cache key of a page: its text, the package's sources, the Python version."""
    digest = hashlib.sha256(text.encode())
    digest.update(sys.version.encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(json.dumps(SCHEMES, sort_keys=True).encode())
    return digest.hexdigest()[:24]


def cache_dir() -> Path | None:
    """The cache's directory, or None when ``QUEENSLAB_DOCS_CACHE=off``."""
    given = os.environ.get("QUEENSLAB_DOCS_CACHE", "")
    if given.lower() in ("off", "0", "no", "false"):
        return None
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "queenslab-docs"


def _jupyter():
    try:
        import jupytext
        import nbclient
        import nbformat
        from jupyter_client.kernelspec import NoSuchKernel, get_kernel_spec
    except ImportError as exc:
        raise NotebookError(
            f"executing the notebook pages needs jupytext, nbclient and ipykernel ({exc.name} is missing): "
            'pip install -e ".[docs]"'
        ) from None
    try:
        get_kernel_spec("python3")
    except NoSuchKernel:
        raise NotebookError('no python3 Jupyter kernel: pip install ipykernel (in the "docs" extra)') from None
    return jupytext, nbclient, nbformat


def _error_text(nb, name: str) -> str | None:
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                first = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
                return f"{name}: code cell {i + 1} ({first!r}) raised {out.ename}: {out.evalue}"
    return None


async def _execute_all(notebooks: dict[str, object], nbclient, cwd: Path) -> None:
    async def one(scheme: str, nb) -> None:
        client = nbclient.NotebookClient(
            nb,
            timeout=CELL_TIMEOUT_S,
            kernel_name="python3",
            allow_errors=True,  # the error is read from the outputs, with the cell that raised it
            extra_arguments=["--IPKernelApp.log_level=ERROR"],  # not its warning about TCP on every build
            resources={"metadata": {"path": str(cwd)}},
        )
        env = dict(os.environ, **SCHEMES[scheme])
        env.pop("MPLBACKEND", None)  # the kernel's own inline backend, as in Jupyter
        await client.async_execute(env=env)

    await asyncio.gather(*(one(scheme, nb) for scheme, nb in notebooks.items()))


def execute(path: Path, text: str) -> tuple[dict[str, object], bool]:
    """The page executed once per scheme of :data:`SCHEMES`: ``{scheme: notebook}``, cached.

    Raises
    ------
    NotebookError
        When a cell raises (in any scheme), or Jupyter is not installed.
    """
    jupytext, nbclient, nbformat = _jupyter()
    cache = cache_dir()
    key = source_hash(text)
    stored = {scheme: cache / f"{path.stem}-{key}-{scheme}.ipynb" for scheme in SCHEMES} if cache else {}
    if stored and all(p.is_file() for p in stored.values()):
        return {scheme: nbformat.read(p, as_version=4) for scheme, p in stored.items()}, True
    notebooks = {scheme: jupytext.reads(text, fmt="md") for scheme in SCHEMES}
    asyncio.run(_execute_all(notebooks, nbclient, path.parent))
    for scheme, nb in notebooks.items():
        error = _error_text(nb, f"{path.name} ({scheme})")
        if error:
            raise NotebookError(error)
    if stored:
        cache.mkdir(parents=True, exist_ok=True)
        for scheme, nb in notebooks.items():
            tmp = stored[scheme].with_suffix(".tmp")
            nbformat.write(nb, tmp)
            tmp.replace(stored[scheme])  # whole or not at all: a reader never sees half a file
    return notebooks, False


def _mime(out) -> str | None:
    data = out.get("data", {})
    return next((m for m in PRIORITY if m in data), None)


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def _pre(text: str, kind: str) -> str:
    return f'<div class="nb-output nb-output--{kind}"><pre><code>{html.escape(ANSI.sub("", text))}</code></pre></div>'


def _image_bytes(mime: str, value) -> bytes:
    text = _text(value)
    return text.encode() if mime == "image/svg+xml" else base64.b64decode(text)


def _outputs(cell, dark_cell, page: str, number: int, files: dict[str, bytes]) -> list[str]:
    """The HTML of one code cell's outputs (``page`` is the page's stem, for file names)."""
    parts = []
    dark_images = [o for o in dark_cell.get("outputs", []) if _mime(o) in IMAGES] if dark_cell else []
    image_index = 0
    stream: list[str] = []  # consecutive prints of one stream: one block, as Jupyter shows them
    for i, out in enumerate(outputs := cell.get("outputs", [])):
        if out.output_type == "stream":
            stream.append(_text(out.text))
            after = outputs[i + 1] if i + 1 < len(outputs) else None
            if after is None or after.output_type != "stream" or after.name != out.name:
                parts.append(_pre("".join(stream), "stderr" if out.name == "stderr" else "stream"))
                stream = []
            continue
        mime = _mime(out)
        if mime is None:
            continue
        value = out["data"][mime]
        if mime in IMAGES:
            image_index += 1
            name = f"{page}/out-{number:02d}-{image_index}"
            plain = _text(out["data"].get("text/plain", "")).strip()
            alt = html.escape(plain if plain and not plain.startswith("<") else "a picture the cell drew", quote=True)
            light = _image_bytes(mime, value)
            files[f"{name}.{IMAGES[mime]}"] = light
            dark = dark_images[image_index - 1] if image_index <= len(dark_images) else None
            dark_mime = _mime(dark) if dark is not None else None
            dark_bytes = _image_bytes(dark_mime, dark["data"][dark_mime]) if dark is not None and dark_mime else None
            if dark_bytes is None or dark_bytes == light:
                parts.append(f'<div class="nb-output"><img src="{name}.{IMAGES[mime]}" alt="{alt}"></div>')
            else:
                files[f"{name}-dark.{IMAGES[dark_mime]}"] = dark_bytes
                parts.append(
                    f'<div class="nb-output"><img src="{name}.{IMAGES[mime]}#only-light" alt="{alt}">'
                    f'<img src="{name}-dark.{IMAGES[dark_mime]}#only-dark" alt="{alt}"></div>'
                )
        elif mime == "text/html":
            parts.append(f'<div class="nb-output nb-output--html">{_text(value)}</div>')
        elif mime == "text/markdown":
            parts.append(f'<div class="nb-output" markdown="1">\n\n{_text(value)}\n\n</div>')
        else:
            parts.append(_pre(_text(value), "result"))
    return parts


def render(path: Path) -> Rendered:
    """The notebook page at ``path`` as Markdown with its outputs, and its pictures.

    Parameters
    ----------
    path : Path
        A jupytext Markdown notebook (its front matter names the kernel).

    Returns
    -------
    Rendered

    Raises
    ------
    NotebookError
        When a cell raises, or Jupyter is not installed.
    """
    text = path.read_text(encoding="utf-8")
    notebooks, cached = execute(path, text)
    light, *others = notebooks.values()
    dark = others[0] if others else None
    files: dict[str, bytes] = {}
    blocks: list[str] = []
    for index, cell in enumerate(light.cells):
        if cell.cell_type == "markdown":
            blocks.append(cell.source)
        elif cell.cell_type == "code":
            blocks.append(f"```python\n{cell.source}\n```")
            dark_cell = dark.cells[index] if dark is not None else None
            blocks.extend(_outputs(cell, dark_cell, path.stem, index, files))
    return Rendered("\n\n".join(blocks) + "\n", files, cached)
