"""Board pictures (SVG, colour PNG), notebook representations, ``show --svg/--png``,
``solutions --format board``, ``progress=True`` and provenance.

Every expected cell set is re-derived here (naive.attacked for the attacked cells, the
problem's own fields for marks), not taken from the drawing code."""

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from clirun import run_cli
from hypothesis import given, settings
from naive import all_solutions, attacked
from strategies import problems

from queenslab import Problem, QueensError, Region, count, counts, crosscheck, solve
from queenslab.errors import InvalidPlacement, TooLarge
from queenslab.viz import Board, board_image, board_svg, scene, write_board_png

SVG = "{http://www.w3.org/2000/svg}"


def _classes(svg: str, cls: str) -> list:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in (e.get("class") or "").split() and e.tag != f"{SVG}g"]


VARIANT = Problem(
    8,
    blocked=[(3, 3), (6, 1)],
    fixed=[(0, 0)],
    regions=[Region([(r, c) for r in range(4, 8) for c in range(4, 8)], at_least=1, at_most=2)],
)


def test_an_svg_board_has_one_element_per_queen_blocked_fixed_and_region_cell():
    p = solve(VARIANT)
    svg = board_svg(VARIANT, p)
    assert len(_classes(svg, "queen")) == 8
    assert {(int(e.get("y")), int(e.get("x"))) for e in _classes(svg, "queen")} == set(enumerate(p))
    assert len(_classes(svg, "blocked")) == 2 and len(_classes(svg, "fixed")) == 1
    assert len(_classes(svg, "region")) == 16
    assert not _classes(svg, "attacked")


@settings(max_examples=40, deadline=None)
@given(problems(max_n=7))
def test_the_attacked_cells_are_exactly_those_the_naive_oracle_finds(problem):
    n = problem.n
    placement = [(3 * r + 1) % n for r in range(n)]  # any placement: attacks do not need a solution
    row = n // 2
    svg = board_svg(problem, placement, attacks_of=row)
    got = {(int(e.get("y")), int(e.get("x"))) for e in _classes(svg, "attacked")}
    at = (row, placement[row])
    want = {
        (r, c)
        for r in range(n)
        for c in range(n)
        if (r, c) != at
        and attacked(n, at, (r, c), toroidal=problem.toroidal, knight=problem.knight, leapers=problem.leapers)
    }
    assert got == want


def test_a_region_that_allows_no_queen_is_drawn_as_blocked():
    p = Problem(5, regions=[Region([(0, 0), (0, 1)], at_most=0)])
    svg = board_svg(p)
    assert len(_classes(svg, "blocked")) == 2 and not _classes(svg, "region") and not _classes(svg, "queen")


@pytest.mark.parametrize("n", [4, 8, 60, 300])
def test_boards_stay_legible_and_small_from_4_to_hundreds(n):
    from queenslab import construct

    p = construct(n) if n > 8 else solve(Problem(n))
    svg = board_svg(Problem(n), p)
    root = ET.fromstring(svg)
    width = int(root.get("width"))
    assert 150 <= width <= 1200 and width / n >= 3  # every cell at least 3 pixels
    assert len(_classes(svg, "queen")) == n and len(svg) < 2500 + 250 * n  # no n² squares


def test_svg_ids_differ_between_boards_so_a_page_can_hold_several():
    a, b = board_svg(Problem(4), (1, 3, 0, 2)), board_svg(Problem(5), (0, 2, 4, 1, 3))
    ids = lambda s: {e.get("id") for e in ET.fromstring(s).iter() if e.get("id")}
    assert ids(a) and not ids(a) & ids(b)


def test_bad_pictures_are_refused():
    with pytest.raises(QueensError):
        board_svg()
    with pytest.raises(InvalidPlacement):
        board_svg(Problem(5), (0, 1, 2))
    with pytest.raises(QueensError):
        board_svg(Problem(4), (1, 3, 0, 2), attacks_of=4)
    with pytest.raises(QueensError):
        board_svg(Problem(4), attacks_of=0)
    with pytest.raises(TooLarge):
        board_svg(Problem(5000))
    with pytest.raises(TooLarge):
        board_image(Problem(2000), cell=5)


def test_the_png_board_shows_the_same_scene(tmp_path):
    from PIL import Image

    p = solve(VARIANT)
    size = write_board_png(tmp_path / "b.png", VARIANT, p, cell=10)
    img = np.asarray(Image.open(tmp_path / "b.png").convert("RGB"))
    assert size == (80, 80) and img.shape == (80, 80, 3)
    # a blocked cell is the blocked grey at its corner; an empty light cell off every mark is light
    assert tuple(img[3 * 10 + 1, 3 * 10 + 1]) == (0x4A, 0x4A, 0x4A)
    s = scene(VARIANT, p)
    free = next(
        (r, c)
        for r in range(8)
        for c in range(8)
        if (r + c) % 2 == 0
        and (r, c) not in set(s.attacked) | set(s.blocked) | set(s.queens) | set(s.fixed)
        and all((r, c) not in cells for cells, *_ in s.regions)
    )
    assert tuple(img[free[0] * 10 + 1, free[1] * 10 + 1]) == (0xF0, 0xD9, 0xB5)


@pytest.fixture
def shell():
    """An IPython shell, with queenslab's pictures registered as ``import queenslab`` does in one."""
    from IPython.core.interactiveshell import InteractiveShell

    from queenslab.viz.notebook import register

    ip = InteractiveShell.instance()
    assert register(ip)
    yield ip
    InteractiveShell.clear_instance()


def _shown(shell, obj) -> dict:
    data, _ = shell.display_formatter.format(obj)
    return data


def test_problems_and_boards_show_as_pictures_in_a_notebook(shell):
    for svg in (
        _shown(shell, VARIANT)["image/svg+xml"],
        _shown(shell, Board(Problem(8), solve(Problem(8))))["image/svg+xml"],
    ):
        ET.fromstring(svg)
    html = _shown(shell, Board(Problem(8), solve(Problem(8))))["text/html"]
    assert "<svg" in html and "a solution" in html
    assert "region 1" in _shown(shell, VARIANT)["text/html"]
    assert set(_shown(shell, Problem(1000))) == {"text/plain"}  # too large to draw inline: the text repr is shown
    assert Board(placement=(0, 1, 2, 3)).is_solution is False and Board(Problem(4)).is_solution is None


def test_results_show_as_tables_in_a_notebook(shell):
    r = counts(Problem(8), unique=True)
    html = _shown(shell, r)["text/html"]
    assert "<table" in html and "92" in html and "12" in html
    cc = crosscheck(Problem(6), ["native", "cpsat"])
    html = _shown(shell, cc)["text/html"]
    assert html.count("<tr>") == 4 and "agree" in html  # a header, two native rows and cpsat


def test_outside_ipython_nothing_is_registered_and_ipython_is_not_imported():
    code = "import sys, queenslab; from queenslab.viz.notebook import register; print(register(), 'IPython' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "False"], done.stderr[-1000:]


def test_a_board_saves_as_svg_or_png(tmp_path):
    b = Board(Problem(6), solve(Problem(6)), attacks_of=0)
    ET.parse(b.save(tmp_path / "b.svg"))
    assert (tmp_path / "b.png").write_bytes is not None and b.save(tmp_path / "b.png").endswith(".png")
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(QueensError, match=".svg or .png"):
        b.save(tmp_path / "b.gif")


def test_show_writes_svg_and_png_pictures(tmp_path, capsys, monkeypatch):
    svg, png = tmp_path / "q.svg", tmp_path / "q.png"
    code, out, _ = run_cli(
        capsys, monkeypatch, "show", "1 5 8 6 3 7 2 4", "--svg", svg, "--png", png, "--attacks", 4, "--json"
    )
    obj = json.loads(out)
    assert code == 0 and obj["svg"] == str(svg) and obj["pixels"] == [384, 384] and obj["board"] is None
    assert len(_classes(svg.read_text(), "queen")) == 8 and _classes(svg.read_text(), "attacked")
    bits = tmp_path / "bits.png"
    code, out, _ = run_cli(capsys, monkeypatch, "show", "2413", "--png", bits, "--bits", "--scale", 5)
    assert code == 0 and "20 x 20 pixels" in out
    code, _, err = run_cli(capsys, monkeypatch, "show", "2413", "--attacks", 1)
    assert code == 2 and err.startswith("error: ")
    code, _, err = run_cli(capsys, monkeypatch, "show", "2413", "--png", bits, "--bits", "--attacks", 1)
    assert code == 2 and "--bits" in err


def test_show_draws_a_problem_file_as_a_picture(tmp_path, capsys, monkeypatch):
    svg = tmp_path / "v.svg"
    code, _, _ = run_cli(
        capsys, monkeypatch, "show", "--problem", "examples/two-in-the-top-left-quadrant.toml", "--svg", svg
    )
    assert code == 0 and len(_classes(svg.read_text(), "region")) == 16 and not _classes(svg.read_text(), "queen")


@pytest.mark.parametrize("argv", [["7"], ["6", "--toroidal"], ["8", "--block", "1,1", "--knight"]])
def test_solutions_as_boards_are_every_solution_once(argv, capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "solutions", *argv, "--format", "board")
    blocks = [b for b in out.strip().split("\n\n") if b]
    boards = []
    for k, block in enumerate(blocks, start=1):
        head, *rows = block.splitlines()
        assert head == f"solution {k}:"
        boards.append(tuple(row.split().index("Q") for row in rows))
    problem = Problem(
        int(argv[0]),
        toroidal="--toroidal" in argv,
        knight="--knight" in argv,
        blocked=[(0, 0)] if "--block" in argv else [],
    )
    assert code == 0 and boards == sorted(all_solutions(problem))


def test_solutions_as_boards_refuse_huge_boards(capsys, monkeypatch):
    code, _, err = run_cli(capsys, monkeypatch, "solutions", 101, "--format", "board", "--limit", 1)
    assert code == 2 and "board" in err


def test_progress_true_draws_a_bar_that_closes(capsys):
    assert count(Problem(10), progress=True) == 724
    from queenslab.progress import ProgressBar

    bar = ProgressBar("x", file=io.StringIO())
    bar(1, 2)
    assert not bar.closed
    bar(2, 2)
    assert bar.closed
    with pytest.raises(QueensError, match="True"):
        count(Problem(6), progress="yes")


def test_a_bar_of_many_quick_tasks_is_drawn_a_few_times_not_once_per_task():
    from queenslab.progress import ProgressBar

    out = io.StringIO()
    bar = ProgressBar("count", file=out)
    for k in range(1, 2001):
        bar(k, 2000)
    draws = out.getvalue().count("\r")
    assert bar.closed and 1 <= draws < 100, draws  # tqdm's mininterval, not one draw per task


def test_provenance_records_the_libraries_and_the_commit_without_git(monkeypatch, tmp_path):
    from queenslab import provenance

    env = provenance.environment(threads=1)
    for key in (
        "package",
        "commit",
        "python",
        "numpy",
        "numba",
        "ortools",
        "python_sat",
        "pyganak",
        "dask",
        "cpu",
        "date",
    ):
        assert key in env
    assert env["threads"] == 1 and env["ortools"] and env["python_sat"]
    monkeypatch.setattr(provenance, "_git", lambda *a: None)  # an installed copy: no work tree
    recorded = provenance.files("queenslab").joinpath(provenance.COMMIT_FILE)
    if recorded.is_file():
        assert provenance.commit() == recorded.read_text().strip()
    else:
        assert provenance.commit() == "unknown"


def test_count_json_carries_the_provenance(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", 6, "--json")
    prov = json.loads(out)["provenance"]
    assert code == 0 and prov["threads"] >= 1 and "numba" in prov and "commit" in prov


def test_estimates_show_as_tables_in_a_notebook(shell):
    from queenslab.estimate import estimate

    html = _shown(shell, estimate(Problem(20, knight=True), samples=20000, seed=1))["text/html"]
    assert "<table" in html and "OEIS A051223" in html and "interval" in html and "estimated" in html
    html = _shown(shell, estimate(Problem(8), samples=100))["text/html"]
    assert "exactly" in html and ">92<" in html
