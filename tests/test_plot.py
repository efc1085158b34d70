"""queenslab.plot: every figure drawn headless, the files it writes, its input checks, the
figures of the documentation site and ``--plot`` on the experiment commands.

Expected values: OEIS A051906 / A051223 (tests/test_engine.py) for the counted kinds,
Zhang and Zhang's case study for the orbit search at n = 8 (step 1 finds three orbits,
step 2 the other nine), and the numbers recorded on the documentation pages for the
site's figures (each checked against its page, and the orbit search's against a run).
"""

import importlib.util
import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from clirun import run_cli
from test_engine import A051223, A051906

from queenslab import plot
from queenslab.errors import MissingDependency, QueensError, TooLarge

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}svg"
FIGURE_KEYS = {
    "figures/counts.svg",
    "figures/orbit-coverage.svg",
    "figures/benchmark-ratios.svg",
    "figures/minconflicts-steps.svg",
    "figures/rank-times.svg",
    "figures/growth.svg",
}
#: Every figure is drawn twice, for the site's light and dark schemes (NAME-dark.svg).
DARK_KEYS = {key.replace(".svg", "-dark.svg") for key in FIGURE_KEYS}
#: The animated boards of the page "Watching a search" (SMIL, no script).
ANIMATION_KEYS = {"figures/watch-backtrack.svg", "figures/watch-selfcorrect.svg"}


def svg_root(data: bytes) -> ET.Element:
    root = ET.fromstring(data)
    assert root.tag == SVG
    return root


def lines(fig):
    return fig.axes[0].get_lines()


# ----------------------------------------------------------------------------- the module


def test_importing_the_module_does_not_import_matplotlib():
    code = "import queenslab.plot, sys; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_without_matplotlib_every_figure_names_the_extra(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    calls = [
        lambda: plot.counts([8], kinds=["total"]),
        lambda: plot.ratios([("a", 2.0)]),
        lambda: plot.orbit_coverage({8: 100.0}),
        lambda: plot.orbit_generations([0], 1),
        lambda: plot.signatures([(8, 12, 12)]),
        lambda: plot.rank_times([(8, 0.1, 0.2)]),
        lambda: plot.minconflicts_steps([(8, 3)]),
        lambda: plot.check_path("out.svg"),
    ]
    for call in calls:
        with pytest.raises(MissingDependency, match=re.escape('pip install "queenslab[plot]"')):
            call()


# ----------------------------------------------------------------------------- the figures


def test_counts_draws_every_kind_on_a_log_scale():
    fig = plot.counts(range(1, 14))
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_xlabel() and ax.get_ylabel()
    assert [line.get_label() for line in lines(fig)] == list(plot.COUNT_KINDS.values())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(plot.COUNT_KINDS.values())
    by_label = {line.get_label(): line for line in lines(fig)}
    for kind, known in (("toroidal", A051906), ("superqueens", A051223)):
        line = by_label[plot.COUNT_KINDS[kind]]
        assert list(line.get_xdata()) == list(range(1, 14))
        for n, y in zip(line.get_xdata(), line.get_ydata()):  # a 0 is a gap (NaN) on the log scale
            assert (math.isnan(y) and known[n] == 0) or y == known[n]
    assert any("left out" in t.get_text() for t in ax.texts)


def test_counts_takes_a_choice_of_kinds_and_an_iterator_of_sizes():
    fig = plot.counts(iter([12, 10, 11]), kinds=("unique", "toroidal", "unique"))
    first, second = lines(fig)
    assert list(first.get_xdata()) == [10, 11, 12] and list(first.get_ydata()) == [92, 341, 1787]  # A002562
    assert list(second.get_xdata()) == [10, 11, 12] and second.get_ydata()[1] == A051906[11]


def test_ratios_bars_line_at_one_and_targets():
    rows = [("engine", 2.26, 2.2), ("threads", 1.79), ("lex-leader", 6.6, None)]
    fig = plot.ratios(rows, target=1.7, title="Ratios")
    ax = fig.axes[0]
    assert [p.get_width() for p in ax.patches] == [2.26, 1.79, 6.6]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["engine", "threads", "lex-leader"]
    assert ax.get_xscale() == "linear" and fig.get_suptitle() == "Ratios"
    assert any(list(line.get_xdata()) == [1, 1] for line in lines(fig))  # the line at 1
    (targets,) = ax.collections
    assert targets.get_offsets()[:, 0].tolist() == [2.2, 1.7]  # the row's own, then the common one
    assert "2.26×" in [t.get_text() for t in ax.texts]


def test_ratios_use_a_log_axis_for_a_wide_span():
    ax = plot.ratios([("a", 0.3), ("b", 473.0)]).axes[0]
    assert ax.get_xscale() == "log" and not ax.collections  # no targets, no markers


def test_orbit_coverage_one_bar_per_n():
    ax = plot.orbit_coverage({10: 91.3, 8: 100.0, 9: 97.8}).axes[0]
    assert [p.get_height() for p in ax.patches] == [100.0, 97.8, 91.3]
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == [8, 9, 10]
    assert "%" in ax.get_ylabel() and [t.get_text() for t in ax.texts][:3] == ["100 %", "97.8 %", "91.3 %"]


def test_orbit_generations_of_the_papers_case_study():
    from queenslab.symmetry.operators import search_orbits

    res = search_orbits(8)
    generation = []
    for d in res.discoveries:
        generation.append(0 if d.parent is None else generation[d.parent] + 1)
    fig = plot.orbit_generations(generation, res.total, n=8)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights[0] == 3 and sum(heights) == 12  # step 1: orbits 1, 2, 9; step 2 the rest
    (found, total) = lines(fig)
    assert found.get_ydata()[-1] == 12 and list(total.get_ydata()) == [12, 12]
    assert ax.get_title() == "Orbit-based search, n = 8: 12 of 12 orbits (100 %)"


def test_orbit_generations_of_an_empty_search():
    ax = plot.orbit_generations([], 0, n=3).axes[0]
    assert ax.get_title().endswith("no solutions, so no orbits")


def test_signatures_mark_collisions():
    clean = plot.signatures([(8, 12, 12, "document"), (8, 12, 12, "oriented"), (9, 46, 46, "document")])
    assert clean.axes[0].get_yscale() == "log" and not clean.axes[0].collections
    assert len(lines(clean)) == 3 and "no two orbits" in clean.axes[0].get_title()
    bad = plot.signatures([(8, 12, 11), (9, 46, 46), (10, 92, 90)])
    (marks,) = bad.axes[0].collections
    assert marks.get_offsets().tolist() == [[8, 11], [10, 90]]
    assert bad.axes[0].get_title() == "Orbit signatures: collisions at n = 8, 10"


def test_rank_times_medians_by_n():
    rows = [(8, 0.0002, 0.0004), (10, 0.0004, 0.0007), (10, 0.0002, 0.0005), (10, 0.0009, 0.0001)]
    fig = plot.rank_times(rows)
    rank, unrank = lines(fig)
    assert fig.axes[0].get_yscale() == "log"
    assert list(rank.get_xdata()) == [8, 10] and list(rank.get_ydata()) == [0.0002, 0.0004]
    assert list(unrank.get_ydata()) == [0.0004, 0.0005]
    assert len(fig.axes[0].collections) == 2  # every query, rank and unrank
    by_mapping = plot.rank_times({8: (0.0002, 0.0004)})
    assert list(lines(by_mapping)[1].get_ydata()) == [0.0004]


def test_minconflicts_steps_log_log_with_median_and_spread():
    fig = plot.minconflicts_steps([(100, 22), (100, 14), (100, 70), (1000, 67), (10_000, 81)])
    ax = fig.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    (median,) = lines(fig)
    assert list(median.get_xdata()) == [100, 1000, 10_000] and list(median.get_ydata()) == [22, 67, 81]
    assert "3 seeds" in ax.get_title()
    assert plot.minconflicts_steps([(8, 0), (8, 5)]).axes[0].get_yscale() == "symlog"  # a 0 shows


# ----------------------------------------------------------------------------- files


def test_save_writes_png_and_svg(tmp_path):
    fig = plot.orbit_coverage({8: 100.0, 9: 97.8})
    png = plot.save(fig, tmp_path / "coverage.png")
    assert png == str(tmp_path / "coverage.png") and Path(png).read_bytes().startswith(PNG_MAGIC)
    svg = Path(plot.save(fig, str(tmp_path / "coverage.SVG"))).read_bytes()
    assert len(list(svg_root(svg).iter())) > 100 and b"<!DOCTYPE" not in svg
    assert plot.render(fig) == plot.render(fig) == svg  # the same figure, the same bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coverage.SVG", "coverage.png"]  # no temporary files


def test_svg_refers_to_nothing_outside(tmp_path):
    svg = plot.render(plot.ratios([("a", 2.0, 1.5)]), "svg").decode()
    urls = set(re.findall(r"https?://[^\"'\s)]+", svg))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}  # namespace names only
    assert "<dc:date>" not in svg and "font-family" not in svg  # no date; text drawn as paths


@pytest.mark.parametrize(
    "path,match",
    [
        ("figure.pdf", "name a .png or .svg file"),
        ("figure", "name a .png or .svg file"),
        ("", "empty"),
        ("missing/dir/figure.svg", "does not exist"),
    ],
)
def test_save_refuses_bad_paths(tmp_path, monkeypatch, path, match):
    monkeypatch.chdir(tmp_path)
    fig = plot.orbit_coverage({8: 100.0})
    with pytest.raises(QueensError, match=match):
        plot.save(fig, path)
    with pytest.raises(QueensError, match=match):
        plot.check_path(path, "--plot")
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_a_directory_and_other_objects(tmp_path):
    fig = plot.orbit_coverage({8: 100.0})
    (tmp_path / "d.svg").mkdir()
    with pytest.raises(QueensError, match="directory"):
        plot.save(fig, tmp_path / "d.svg")
    with pytest.raises(QueensError, match="matplotlib Figure"):
        plot.save("not a figure", tmp_path / "x.svg")
    with pytest.raises(QueensError, match="file or directory name"):
        plot.save(fig, 5)
    with pytest.raises(QueensError, match="figure format"):
        plot.render(fig, "pdf")
    assert [p.name for p in tmp_path.iterdir()] == ["d.svg"]


# ----------------------------------------------------------------------------- bad input

BAD = [
    (lambda: plot.counts(kinds=["queens"]), "unknown kind of count"),
    (lambda: plot.counts(kinds=[]), "kinds is empty"),
    (lambda: plot.counts(kinds="total"), "must be a list"),
    (lambda: plot.counts(ns=[0], kinds=["total"]), "at least 1"),
    (lambda: plot.counts(ns=[4.5], kinds=["total"]), "float"),
    (lambda: plot.counts(ns=[], kinds=["total"]), "ns is empty"),
    (lambda: plot.counts(ns=8), "must be a list"),
    (lambda: plot.counts(ns=[28], kinds=["total"]), "n <= 27"),
    (lambda: plot.counts(ns=[17], kinds=["toroidal"]), "up to n = 16"),
    (lambda: plot.ratios([]), "empty"),
    (lambda: plot.ratios("ab"), "must be a list"),
    (lambda: plot.ratios([("a",)]), r"rows\[0\] must be"),
    (lambda: plot.ratios([("a", 0)]), "number in"),
    (lambda: plot.ratios([("a", -1.0)]), "number in"),
    (lambda: plot.ratios([("a", math.nan)]), "number in"),
    (lambda: plot.ratios([("a", math.inf)]), "number in"),
    (lambda: plot.ratios([("a", "2")]), "number in"),
    (lambda: plot.ratios([(5, 2.0)]), "text label"),
    (lambda: plot.ratios([("", 2.0)]), "text label"),
    (lambda: plot.ratios([("a", 2.0, 0)]), "target"),
    (lambda: plot.ratios([("a", 2.0)], target=-1), "target"),
    (lambda: plot.ratios([("a", 2.0)], title=3), "title"),
    (lambda: plot.ratios([("a", 2.0)] * (plot.MAX_BARS + 1)), "at most"),
    (lambda: plot.orbit_coverage([(8, 100.0)]), "mapping"),
    (lambda: plot.orbit_coverage({}), "empty"),
    (lambda: plot.orbit_coverage({8: 101}), "number in"),
    (lambda: plot.orbit_coverage({0: 50}), "at least 1"),
    (lambda: plot.orbit_coverage({8: "all"}), "number in"),
    (lambda: plot.orbit_generations([-1], 3), "at least 0"),
    (lambda: plot.orbit_generations([0, 0], 1), "total must be at least 2"),
    (lambda: plot.orbit_generations([0, 5], 10), "at most 1"),
    (lambda: plot.orbit_generations(5, 3), "must be a list"),
    (lambda: plot.orbit_generations([0], 1, n=0), "at least 1"),
    (lambda: plot.signatures([(8, 12, 13)]), "at most 12"),
    (lambda: plot.signatures([(8, 12, 0)]), "at least 1"),
    (lambda: plot.signatures([(8, 12)]), r"rows\[0\] must be"),
    (lambda: plot.signatures([(8, 12, 12, 5)]), "criterion"),
    (lambda: plot.rank_times([(8, 0, 1.0)]), "rank time"),
    (lambda: plot.rank_times({8: 0.1}), r"rows\[0\] must be"),
    (lambda: plot.rank_times([(8, 1e-4)]), r"rows\[0\] must be"),
    (lambda: plot.rank_times(np.array(5)), "must be a list"),
    (lambda: plot.minconflicts_steps([(8, -1)]), "at least 0"),
    (lambda: plot.minconflicts_steps([(0, 3)]), "at least 1"),
    (lambda: plot.minconflicts_steps([(8, 2.5)]), "float"),
    (lambda: plot.minconflicts_steps([(8, 2**70)]), "at most"),
    (lambda: plot.minconflicts_steps([]), "empty"),
]


@pytest.mark.parametrize("call,match", BAD)
def test_bad_input_says_what_is_wrong(call, match):
    with pytest.raises(QueensError, match=match):
        call()


def test_too_much_data_is_refused_before_drawing():
    with pytest.raises(TooLarge):
        plot.minconflicts_steps((8, s) for s in range(plot.MAX_POINTS + 1))


def test_numpy_rows_are_taken():
    fig = plot.minconflicts_steps(np.array([[100, 22], [100, 14], [1000, 67]]))
    assert list(lines(fig)[0].get_ydata()) == [18, 67]


# ----------------------------------------------------------------------------- the documentation's figures


def docs_figures():
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "docs" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_docs_build_returns_every_figure_as_svg():
    built = docs_figures().build()
    assert set(built) == FIGURE_KEYS | DARK_KEYS | ANIMATION_KEYS
    for name in FIGURE_KEYS:  # the dark drawing is another drawing, not a copy
        assert built[name] != built[name.replace(".svg", "-dark.svg")], name
    for name in ANIMATION_KEYS:
        data = built.pop(name)
        assert b"<animate" in data or b"<set" in data, name
        assert b"<script" not in data and not re.search(rb"(href|src)=\"https?:", data), name
    for name, data in built.items():
        root = svg_root(data)
        assert len(list(root.iter())) > 100, name  # axes, ticks, bars, lines
        assert not re.search(rb"(href|src)=\"https?:", data), name


def test_docs_recorded_numbers_are_the_pages_numbers():
    figures = docs_figures()
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text()
    experiments = (ROOT / "docs" / "experiments.md").read_text()
    for label, ratio, _, shown in figures.BENCHMARK_RATIOS:
        assert shown in benchmarks, label
        assert float(shown.rstrip("x")) == ratio, label
    for n, rank, unrank_s, rank_s in figures.RANK_TIMES:
        assert f"| {n} | {rank} | {unrank_s:.4f} | {rank_s:.4f} |" in benchmarks
    for n, (found, total) in figures.ORBIT_SEARCH.items():
        assert f"| {found:,} | {total:,} | {total - found:,} |" in experiments, n


def test_docs_orbit_search_numbers_agree_with_a_run():
    from queenslab.symmetry.operators import search_orbits

    res = search_orbits(9)
    assert docs_figures().ORBIT_SEARCH[9] == (res.found, res.total) == (45, 46)


def test_docs_minconflicts_runs_are_reproducible():
    figures = docs_figures()
    figures.MINCONFLICTS_NS = (8, 100, 1000)
    runs = figures.minconflicts_runs()
    assert runs == figures.minconflicts_runs()
    assert [n for n, _ in runs] == [n for n in (8, 100, 1000) for _ in figures.MINCONFLICTS_SEEDS]
    assert all(steps >= 0 for _, steps in runs)


# ----------------------------------------------------------------------------- --plot on the experiments


def test_orbit_search_plot(capsys, monkeypatch, tmp_path):
    out_svg = tmp_path / "orbits.svg"
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "8", "--plot", out_svg)
    assert code == 0 and f"figure: {out_svg}" in out
    root = svg_root(out_svg.read_bytes())
    assert len(list(root.iter())) > 100
    out_png = tmp_path / "orbits.png"
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "6", "--plot", out_png, "--json")
    assert code == 0 and json.loads(out)["plot"] == str(out_png)
    assert out_png.read_bytes().startswith(PNG_MAGIC)
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "6", "--json")
    assert json.loads(out)["plot"] is None


def test_signature_plot(capsys, monkeypatch, tmp_path):
    out_svg = tmp_path / "signatures.svg"
    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        "experiment",
        "signature",
        "--max-n",
        "8",
        "--criterion",
        "both",
        "--plot",
        out_svg,
        "--json",
    )
    assert code == 0 and json.loads(out)["plot"] == str(out_svg)
    svg_root(out_svg.read_bytes())


@pytest.mark.parametrize(
    "args,match",
    [
        (("experiment", "orbit-search", "8", "--plot", "orbits.pdf"), "name a .png or .svg file"),
        (("experiment", "orbit-search", "8", "--plot", "missing/orbits.svg"), "does not exist"),
        (("experiment", "signature", "--max-n", "6", "--plot", "x.txt"), "name a .png or .svg file"),
        (("experiment", "signature", "--max-n", "6", "--plot", "."), "directory"),
    ],
)
def test_plot_option_refuses_bad_files(capsys, monkeypatch, tmp_path, args, match):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 2 and err.startswith("error: ") and match in err and "Traceback" not in err
    assert out == "" and list(tmp_path.iterdir()) == []  # refused before the experiment ran


def test_plot_option_without_matplotlib(capsys, monkeypatch, tmp_path):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "6", "--plot", tmp_path / "x.svg")
    assert code == 2 and 'pip install "queenslab[plot]"' in err and out == ""
