"""The documentation: the Python examples in README.md and docs/*.md run and print what they
say; the tutorial notebook runs, and the built tutorial page shows what its cells print; a
cell that raises fails the build; the built site loads nothing from outside, shows its
generated pictures (each plot in both colour schemes), and cites its sources by name (never
by internal tracking numbers).

The tests of the built site need the ``docs`` extra (mkdocs). They build the site once, or
read the one named by ``QUEENSLAB_DOCS_SITE`` (``.ci/run`` sets it after its own build).
"""

import doctest
import importlib.util
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType, SimpleNamespace

import naive
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TUTORIAL = DOCS / "tutorial.md"

#: Internal names that must not reach a reader: numbered source documents and tracker issues.
FORBIDDEN = re.compile(r"document\s+00\d|\bissues?\b", re.IGNORECASE)


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_offline = _module("queenslab_docs_check_offline", DOCS / "check_offline.py")


# ----------------------------------------------------------------------------- examples


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_docs_examples(page):
    text = (ROOT / "docs" / page).read_text()
    result = doctest.testfile(str(ROOT / "docs" / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert (result.attempted > 0) == (">>> " in text)


def _paragraphs(text: str) -> list[str]:
    """A page's paragraphs outside its fenced blocks (blank-line separated)."""
    paragraphs, current, fenced = [], [], False
    for line in [*text.splitlines(), ""]:
        if line.strip().startswith("```"):
            fenced = not fenced
            line = ""
        if fenced:
            continue
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append("\n".join(current))
            current = []
    return paragraphs


@pytest.mark.parametrize("page", ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))
def test_no_page_says_a_paragraph_twice(page):
    """A section pasted twice (a merge gone wrong) is caught: no paragraph of 200 or more
    characters appears twice on a page."""
    long = [p for p in _paragraphs((ROOT / page).read_text(encoding="utf-8")) if len(p) >= 200]
    assert not [p for p in set(long) if long.count(p) > 1]


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1].splitlines()[1:]
    assert block == [
        "python -m pip install -e . && queenslab count 12 --unique",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]


# ----------------------------------------------------------------------------- the tutorial


def _tutorial():
    jupytext = pytest.importorskip("jupytext")
    return jupytext.read(TUTORIAL)


def test_tutorial_is_a_python_notebook():
    nb = _tutorial()
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) >= 8
    for cell in code:  # a shell block in the prose must not become a %%sh cell that runs pip
        lines = cell.source.splitlines()
        assert not any(line.lstrip().startswith(("%", "!")) for line in lines), cell.source
    titles = [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("#")]
    assert titles[0] == "# Tutorial"


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_tutorial_runs_without_errors(tmp_path):
    nb = _tutorial()
    nbclient = pytest.importorskip("nbclient")
    kernelspec = pytest.importorskip("jupyter_client.kernelspec")
    try:
        kernelspec.get_kernel_spec("python3")
    except kernelspec.NoSuchKernel:
        pytest.skip("no python3 Jupyter kernel: install ipykernel (the test extra has it)")
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    errors = [
        f"cell {i}: {out.ename}: {out.evalue}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    text = "".join(out.get("text", "") for c in nb.cells if c.cell_type == "code" for out in c.outputs)
    assert "native: 76, sat: 76" in text and "agree: True" in text and "92 solutions in 12 orbits" in text
    assert "2 8 10 4 1 5 9 6 3 7" in text
    svgs = [
        out for c in nb.cells if c.cell_type == "code" for out in c.outputs if "image/svg+xml" in out.get("data", {})
    ]
    assert len(svgs) == 3  # two boards and the plot


def _executed() -> ModuleType:
    for module in ("jupytext", "nbclient"):
        pytest.importorskip(module)
    kernelspec = pytest.importorskip("jupyter_client.kernelspec")
    try:
        kernelspec.get_kernel_spec("python3")
    except kernelspec.NoSuchKernel:
        pytest.skip("no python3 Jupyter kernel: install ipykernel (the docs and test extras have it)")
    name = "queenslab_docs_executed"
    if name not in sys.modules:  # registered first: dataclasses look their module up by name
        spec = importlib.util.spec_from_file_location(name, DOCS / "executed.py")
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


NOTEBOOK_HEADER = TUTORIAL.read_text().split("---", 2)[1]


def _notebook_page(tmp_path: Path, *cells: str) -> Path:
    page = tmp_path / "tutorial.md"
    body = "\n\n".join(f"```python\n{cell}\n```" for cell in cells)
    page.write_text(f"---{NOTEBOOK_HEADER}---\n\n# A page\n\nSome text.\n\n{body}\n")
    return page


def test_a_notebook_page_is_rendered_with_what_its_cells_print(tmp_path, monkeypatch):
    executed = _executed()
    monkeypatch.setenv("QUEENSLAB_DOCS_CACHE", str(tmp_path / "cache"))
    page = _notebook_page(
        tmp_path,
        "x = sum(range(10))\nprint('sum', x)",
        "x * 2",
        "print('<b>', end='')",
        "import time\nprint('a', flush=True)\ntime.sleep(0.3)\nprint('b')",  # two messages of the kernel
    )
    first = executed.render(page)
    assert not first.cached
    text = first.markdown
    assert text.startswith("# A page\n\nSome text.") and "jupyter:" not in text
    assert '<div class="nb-output nb-output--stream"><pre><code>sum 45\n</code></pre></div>' in text
    assert '<div class="nb-output nb-output--result"><pre><code>90</code></pre></div>' in text
    assert "<code>&lt;b&gt;</code>" in text  # printed text is escaped, never read as HTML
    assert "<code>a\nb\n</code>" in text  # consecutive prints: one block, as in Jupyter
    assert text.index("print('sum', x)") < text.index("sum 45") < text.index("x * 2") < text.index(">90<")
    again = executed.render(page)
    assert again.cached and again.markdown == text


def test_a_cell_that_raises_fails_a_strict_build(tmp_path, monkeypatch):
    _executed()
    hooks = _hooks()
    from mkdocs.exceptions import PluginError

    monkeypatch.setenv("QUEENSLAB_DOCS_CACHE", "off")
    _notebook_page(tmp_path, "print('fine')", "1 / 0")
    with pytest.raises(PluginError, match=r"code cell 2 \('1 / 0'\) raised ZeroDivisionError"):
        hooks.notebook_pages(SimpleNamespace(strict=True, docs_dir=str(tmp_path)))


def test_figures_with_a_dark_variant_are_shown_in_their_scheme():
    hooks = _hooks()
    html = '<p><img alt="a" src="figures/counts.svg" /><img src="boards/x.svg"><img src="figures/watch.svg"></p>'
    generated = {"figures/counts.svg", "figures/counts-dark.svg", "figures/watch.svg", "boards/x.svg"}
    assert hooks.with_dark_variants(html, "index.html", generated) == (
        '<p><img alt="a" src="figures/counts.svg#only-light" /><img alt="a" src="figures/counts-dark.svg#only-dark" />'
        '<img src="boards/x.svg"><img src="figures/watch.svg"></p>'
    )
    nested = '<img src="../figures/counts.svg">'
    assert (
        hooks.with_dark_variants(nested, "api/viz.html", generated).count("../figures/counts-dark.svg#only-dark") == 1
    )
    assert hooks.with_dark_variants(nested, "index.html", generated) == nested  # ../figures is outside the site


# ----------------------------------------------------------------------------- sources, not internal names


def test_forbidden_pattern_uses_word_boundaries():
    assert FORBIDDEN.search("see issue 6") and FORBIDDEN.search("Issues") and FORBIDDEN.search("document 003")
    assert not FORBIDDEN.search("tissue, reissued, the document's Table 1")


def test_docs_sources_name_no_internal_documents_or_issues():
    found = []
    for path in sorted(DOCS.rglob("*")):
        if path.suffix in (".md", ".py", ".ipynb") and path.is_file():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if FORBIDDEN.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_references_list_every_source():
    text = " ".join((DOCS / "references.md").read_text().split())
    for anchor, needles in {
        "gupta-ranking": ["Nilesh Gupta", "Development of Algorithms for Ranking and Un-Ranking"],
        "gupta-deept-dobhal": ["Akshay Gupta", "Naman Deept", "Snigdha Dobhal", "N Queens Problem Using Backtracking"],
        "ronybc": ["The Eight Queens Puzzle", "ronybc.com"],
        "zhang-zhang": ["Jun Zhang", "Zili Zhang", "Permutation Operation Group"],
        "wirth-variants": ["new variants of the Wirth algorithm", "Annales UMCS Informatica"],
    }.items():
        assert "{#" + anchor + "}" in text
        for needle in needles:
            assert needle in text, (anchor, needle)


# ----------------------------------------------------------------------------- the offline check


def _site(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_check_offline_finds_every_kind_of_external_load(tmp_path):
    site = _site(
        tmp_path,
        {
            "index.html": """<html><head>
                <link rel="stylesheet" href="//fonts.googleapis.com/css?family=Roboto">
                <link rel="canonical" href="https://example.org/queenslab/">
                <link rel="icon" href="assets/favicon.svg">
                <script src="https://cdn.example.org/mathjax.js"></script>
                <style>@import url("https://cdn.example.org/x.css"); body { background: url(img/ok.png) }</style>
                </head><body>
                <img src="figures/counts.svg"><img srcset="a.png 1x, http://cdn.example.org/b.png 2x">
                <a href="https://example.org/a-link-is-not-a-load">x</a>
                <div style="background-image: url('https://cdn.example.org/bg.png')"></div>
                </body></html>""",
            "assets/site.css": """@import "https://fonts.example.org/f.css";
                .a { background: url(data:image/svg+xml;charset=utf-8,<svg xmlns='http://www.w3.org/2000/svg'/>) }
                .b { background: url("../img/local.png") }""",
            "assets/app.js": """/*! licence: https://example.org/licence */
                var mermaid = "https://unpkg.com/mermaid@11/dist/mermaid.min.js";
                fetch("https://api.example.org/track");""",
            "figures/counts.svg": """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
                <image xlink:href="https://cdn.example.org/p.png"/></svg>""",
            "search/search_index.js": 'var __index = {"text": "see https://example.org"}',
        },
    )
    found = sorted(check_offline.check(site))
    assert found == sorted(
        [
            "index.html: <link href> //fonts.googleapis.com/css?family=Roboto",
            "index.html: <script src> https://cdn.example.org/mathjax.js",
            "index.html: <style> url() https://cdn.example.org/x.css",
            "index.html: <img srcset> http://cdn.example.org/b.png",
            "index.html: <div style> url() https://cdn.example.org/bg.png",
            "assets/site.css: url()/@import https://fonts.example.org/f.css",
            "assets/app.js: script URL https://api.example.org/track",
            "figures/counts.svg: <image xlink:href> https://cdn.example.org/p.png",
        ]
    )
    # Mermaid from a CDN is loaded only for a page with a diagram: then it counts.
    (site / "diagram.html").write_text('<pre class="mermaid">graph LR</pre>')
    assert any("mermaid" in line for line in check_offline.check(site))


def test_check_offline_command(tmp_path, capsys):
    ok = _site(tmp_path / "ok", {"index.html": '<link rel="stylesheet" href="a.css"><img src="b.svg">'})
    bad = _site(tmp_path / "bad", {"index.html": '<script src="https://cdn.example.org/x.js"></script>'})
    assert check_offline.main([str(ok)]) == 0
    assert check_offline.main([str(bad)]) == 1
    assert "external: index.html: <script src> https://cdn.example.org/x.js" in capsys.readouterr().out
    assert check_offline.main([str(tmp_path / "missing")]) == 2
    assert check_offline.main([]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_offline.main([str(empty)]) == 1
    assert check_offline.check(empty) == [f"{empty}: no HTML page: is this a built site?"]


# ----------------------------------------------------------------------------- the hook


def _hooks() -> ModuleType:
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    pytest.importorskip("griffe", reason="the docs extra (mkdocstrings-python) is not installed")
    return _module("queenslab_docs_hooks", DOCS / "hooks.py")


def test_hook_reads_sphinx_markup_as_markdown():
    hooks = _hooks()
    text = "See :func:`~queenslab.ranking.lex.rank`, :class:`Problem`, :meth:`.count` and :mod:`queenslab.viz`."
    assert hooks.rst_to_markdown(text) == "See `rank`, `Problem`, `count` and `queenslab.viz`."
    assert (
        hooks.rst_to_markdown("`CPMpy <https://cpmpy.readthedocs.io>`_ is")
        == "[CPMpy](https://cpmpy.readthedocs.io) is"
    )
    assert (
        hooks.rst_to_markdown("inverse to each other::\n\n    x\nA :: B") == "inverse to each other:\n\n    x\nA :: B"
    )


def test_hook_draws_the_boards():
    hooks = _hooks()
    boards = hooks.boards(SimpleNamespace(strict=True))
    assert sorted(boards) == ["boards/attacks.svg", "boards/eight-queens.svg", "boards/variant-region.svg"]
    for path, svg in boards.items():
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg"), path
        assert svg.decode().count('class="queen"') == 8, path
    assert boards["boards/attacks.svg"] != boards["boards/eight-queens.svg"]


def test_hook_refuses_a_missing_figures_module_in_strict_builds(tmp_path, monkeypatch, caplog):
    hooks = _hooks()
    from mkdocs.exceptions import PluginError

    monkeypatch.setattr(hooks, "FIGURES", tmp_path / "figures.py")
    with pytest.raises(PluginError, match="figures.py does not exist"):
        hooks.figures(SimpleNamespace(strict=True))
    assert hooks.figures(SimpleNamespace(strict=False)) == {}
    assert "figures.py does not exist" in caplog.text


def test_hook_checks_generated_paths():
    hooks = _hooks()
    from mkdocs.exceptions import PluginError

    hooks._check_path("figures/counts.svg")
    for bad in ("/etc/passwd", "../outside.svg", "figures/../../x.svg", "figures\\x.svg"):
        with pytest.raises(PluginError):
            hooks._check_path(bad)


# ----------------------------------------------------------------------------- the built site


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    given = os.environ.get("QUEENSLAB_DOCS_SITE")
    if given:
        return Path(given)
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs extra is not installed; .ci/run runs these tests after its build")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def _pages(site: Path) -> list[Path]:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    return pages


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_site_loads_nothing_from_outside(site):
    assert check_offline.check(site) == []


def test_site_names_no_internal_documents_or_issues(site):
    found = [
        f"{page.relative_to(site)}: {m.group(0)!r}"
        for page in _pages(site)
        for m in FORBIDDEN.finditer(page.read_text(encoding="utf-8"))
    ]
    assert found == []


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.sources.append(dict(attrs)["src"])


def _images(page: Path, fragments: bool = False) -> list[str]:
    """The ``src`` of every ``<img>`` of a page, without its ``#fragment`` unless asked."""
    parser = _Images()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.sources if fragments else [src.split("#")[0] for src in parser.sources]


def test_site_shows_the_generated_pictures(site):
    expected = {
        "index.html": ["boards/eight-queens.svg", "figures/counts.svg"],
        "getting-started.html": ["boards/attacks.svg"],
        "variants.html": ["boards/variant-region.svg"],
        "symmetry.html": ["figures/orbit-coverage.svg"],
        "experiments.html": ["figures/orbit-coverage.svg"],
        "large-n.html": ["figures/minconflicts-steps.svg"],
        "ranking.html": ["figures/rank-times.svg"],
        "benchmarks.html": ["figures/benchmark-ratios.svg"],
    }
    for page, images in expected.items():
        assert set(images) <= set(_images(site / page)), page
    for page in _pages(site):
        for src in _images(page):
            target = (page.parent / src).resolve()
            assert target.is_file(), f"{page.relative_to(site)}: {src}"
            if target.suffix == ".svg":
                assert ET.parse(target).getroot().tag.endswith("svg"), target


def test_site_shows_each_plot_in_both_colour_schemes(site):
    """A plot of docs/figures.py is on its page twice: light for Material's default scheme,
    dark (transparent, light text) for the slate scheme; the animations have one variant."""
    plots = ("counts", "orbit-coverage", "minconflicts-steps", "rank-times", "benchmark-ratios")
    for page in ("index.html", "symmetry.html", "large-n.html", "ranking.html", "benchmarks.html"):
        sources = _images(site / page, fragments=True)
        shown = [
            s
            for s in sources
            if s.startswith("figures/") and s.split("#")[0].removesuffix(".svg") in {f"figures/{p}" for p in plots}
        ]
        assert shown, page
        for src in shown:
            assert src.endswith("#only-light"), (page, src)
            assert src.replace(".svg#only-light", "-dark.svg#only-dark") in sources, (page, src)
    for name in plots:
        light = (site / "figures" / f"{name}.svg").read_text()
        dark = (site / "figures" / f"{name}-dark.svg").read_text()
        assert "#ffffff" in light.lower() and "#d0d3dc" not in light.lower()
        assert "#d0d3dc" in dark.lower()  # the dark style's text
    assert "figures/watch-selfcorrect.svg" in _images(site / "watching.html", fragments=True)


class _Outputs(HTMLParser):
    """The text of each ``<div class="nb-output ...">`` of a page, and its images."""

    def __init__(self) -> None:
        super().__init__()
        self.outputs: list[dict] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and "nb-output" in (attrs.get("class") or "").split():
            self.outputs.append({"class": attrs["class"], "text": "", "images": []})
            self._depth = 1
        elif self._depth:
            self._depth += tag == "div"
            if tag == "img":
                self.outputs[-1]["images"].append(attrs["src"])

    def handle_endtag(self, tag):
        if self._depth and tag == "div":
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.outputs[-1]["text"] += data


def test_the_tutorial_page_shows_what_its_cells_printed(site):
    """The outputs on the built tutorial page are those of its code, executed at build time:
    the counts it prints are the brute-force counts of tests/naive.py, its boards are the
    solutions, and its plot has a light and a dark picture."""
    from queenslab import Problem, Region

    parser = _Outputs()
    page = site / "tutorial.html"
    parser.feed(page.read_text(encoding="utf-8"))
    outputs = parser.outputs
    assert len(outputs) >= 10
    text = "\n".join(o["text"] for o in outputs)
    eight = Problem(8)
    variant = Problem(8, regions=[Region([(r, c) for r in range(4) for c in range(4)], at_least=2, at_most=2)])
    every, in_variant = naive.all_solutions(eight), naive.all_solutions(variant)
    assert f"{len(every)} solutions in {naive.orbit_count(eight, every)} orbits" in text
    assert f"{len(in_variant)} solutions in {naive.orbit_count(variant, in_variant)} orbits" in text
    assert f"native: {len(in_variant)}, sat: {len(in_variant)}" in text
    assert f"{len(naive._least_solutions(8))} orbits, {len(every)} solutions" in text
    assert str(every[0]) in text  # solve(eight): the lexicographically first solution
    # Gupta's paper prints the 100th solution of 10 queens (rank 99 from 0)
    assert "\n99\n2 8 10 4 1 5 9 6 3 7\n" in text
    tables = [o for o in outputs if "nb-output--html" in o["class"]]
    assert tables and "agree" in tables[0]["text"] and str(len(in_variant)) in tables[0]["text"]
    images = [src for o in outputs for src in o["images"]]
    boards = [src for src in images if "#" not in src]
    assert len(boards) == 2
    for src in boards:
        svg = (site / src).read_text()
        assert svg.count('class="queen"') == 8, src
    plot = [src for src in images if "#" in src]
    assert [src.split("#")[1] for src in plot] == ["only-light", "only-dark"]
    light, dark = ((site / src.split("#")[0]).read_text() for src in plot)
    assert light != dark and "#d0d3dc" in dark.lower() and "#d0d3dc" not in light.lower()


def test_site_has_the_api_reference_and_the_tutorial(site):
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("queenslab.Problem", "queenslab.Region", "queenslab.count", "queenslab.solve"):
        assert f'id="{name}"' in api, name
    for page in ("backends", "models", "native", "ranking", "symmetry", "heuristics", "distributed", "viz"):
        assert (site / "api" / f"{page}.html").is_file(), page
    assert 'id="queenslab.plot"' in (site / "api" / "viz.html").read_text(encoding="utf-8")
    tutorial = (site / "tutorial.html").read_text(encoding="utf-8")
    assert "board_svg" in tutorial and "jupyter:" not in tutorial  # the jupytext header is metadata, not text


def test_the_reliability_page_lists_every_declared_limit_with_its_number():
    """The practical-limits table of docs/reliability.md has one row per limit the package
    declares (queenslab.limits.every_limit): its name, and the number the code uses."""
    from queenslab.limits import every_limit

    page = (DOCS / "reliability.md").read_text()
    table = page[page.index("| limit | largest |") : page.index("The practical limits are declared once")]
    cells = {}
    for line in table.splitlines()[2:]:
        if line.startswith("| "):
            name, bound = (c.strip() for c in line.strip("|").split("|")[:2])
            cells[name.removesuffix(" (no force)")] = bound
    declared = every_limit()
    assert set(cells) == {lim.name for lim in declared}
    for lim in declared:
        sep = "" if lim.unit == "n" else ","
        assert cells[lim.name] == f"{lim.unit} <= {lim.largest:{sep}}", lim.name


def test_the_architecture_page_names_every_module_that_reads_the_constraint_fields():
    """docs/architecture.md lists the modules a new constraint kind touches: exactly the
    modules whose code reads a problem's constraint fields (problem.regions, .leaps, ...)."""
    import re

    page = (DOCS / "architecture.md").read_text()
    block = page[page.index("<!-- constraint-readers -->") : page.index("<!-- /constraint-readers -->")]
    listed = set(re.findall(r"`(queenslab/[\w/]+\.py)`", block))
    field = re.compile(r"\b(?:self\.)?problem\.(?:regions|leapers|leaps|blocked|fixed|toroidal|knight)\b")
    readers = set()
    for path in sorted((ROOT / "queenslab").rglob("*.py")):
        code = [line for line in path.read_text().splitlines() if not line.lstrip().startswith(">>>")]
        if path.name != "problem.py" and any(field.search(line) for line in code):
            readers.add(path.relative_to(ROOT).as_posix())
    readers.add("queenslab/problem.py")  # the fields' own module
    assert readers <= listed, f"read the constraint fields but not listed: {sorted(readers - listed)}"
    assert all((ROOT / f).is_file() for f in listed), "the page lists a module that does not exist"
