"""Traces are the searches the package runs: each is checked against the un-traced method
(the same seed ends on the same board) or an independent oracle (tests/naive.py), its file
reads back, and bad input is refused with what is allowed."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from clirun import run_cli
from naive import all_solutions, is_solution, raises_each

import queenslab
from queenslab import Problem, interrupt, validate
from queenslab.cli import watch
from queenslab.errors import QueensError, TooLarge, UnsupportedProblem
from queenslab.heuristics import genetic, min_conflicts, self_correct
from queenslab.problem_file import read_problem
from queenslab.symmetry.operators import search_orbits
from queenslab.trace import (
    InvalidTrace,
    attacking_pairs,
    read_trace,
    record,
    trace_gif,
    trace_svg,
    write_trace,
    write_trace_gif,
    write_trace_svg,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

VARIANTS = [
    Problem(6),
    Problem(7),
    Problem(7, toroidal=True),
    Problem(8, blocked=[(0, 0), (3, 4)]),
    Problem(8, fixed=[(2, 5)]),
    Problem(8, knight=True),
    read_problem(EXAMPLES / "two-in-the-top-left-quadrant.toml"),
]


# ----------------------------------------------------------------------------- backtracking


@pytest.mark.parametrize("problem", VARIANTS, ids=lambda p: p.describe())
def test_backtracking_visits_the_solutions_in_lexicographic_order(problem):
    t = record(problem, "backtrack", solutions=0)
    assert t.complete
    expected = [tuple(int(c) for c in s) for s in queenslab.solutions(problem)]
    assert t.solutions() == expected
    if problem.n <= 8:
        assert t.solutions() == all_solutions(problem)  # the brute-force oracle


@pytest.mark.parametrize("problem", VARIANTS, ids=lambda p: p.describe())
def test_a_backtracking_trace_stops_at_the_first_solution_and_its_partial_boards_are_legal(problem):
    t = record(problem, "backtrack")
    first = queenslab.solve(problem)
    if first is None:
        assert t.complete and t.solutions() == []
        return
    assert t.steps[-1].op == "solution" and tuple(t.final()) == tuple(first)
    for board in t.boards():  # every partial board of the walk is conflict-free
        assert attacking_pairs(problem, board) == 0


def test_backtracking_steps_change_one_row_at_a_time():
    t = record(8, "backtrack", solutions=3)
    prev = np.full(8, -1)
    for step, board in zip(t.steps, t.boards()):
        changed = np.flatnonzero(board != prev)
        assert len(changed) == (0 if step.op == "solution" else 1)
        if step.op == "place":
            assert prev[step.row] == -1
        prev = board.copy()


# ----------------------------------------------------------------------------- heuristics


@pytest.mark.parametrize("seed", range(6))
def test_the_self_correcting_trace_ends_on_the_solution_of_the_same_seed(seed):
    for n in (5, 8, 13):
        t = record(n, "selfcorrect", seed=seed)
        assert t.complete and t.solved
        assert t.final().tolist() == self_correct(n, seed=seed).tolist()
        assert all(s.op in ("start", "move") for s in t.steps)


@pytest.mark.parametrize("seed", range(6))
def test_the_min_conflicts_trace_ends_on_the_solution_of_the_same_seed(seed):
    for n in (6, 9, 40, 200):
        t = record(n, "minconflicts", seed=seed)
        assert t.complete and t.solved
        assert t.final().tolist() == min_conflicts(n, seed=seed).tolist()
        assert queenslab.solve_large(n, "minconflicts", seed=seed).tolist() == t.final().tolist()


@pytest.mark.parametrize("seed", range(4))
def test_the_genetic_trace_ends_on_the_solution_of_the_same_seed(seed):
    for n in (5, 6):
        t = record(n, "ga", seed=seed)
        assert t.complete and t.solved
        assert t.final().tolist() == genetic(n, seed=seed).tolist()
        assert [s.col for s in t.steps] == list(range(len(t.steps)))  # one best per generation


def test_the_same_seed_gives_the_same_trace_and_another_seed_another():
    for method in ("selfcorrect", "minconflicts", "ga"):
        a, b, c = (record(8, method, seed=s) for s in (4, 4, 5))
        assert a == b
        assert a.steps != c.steps


def test_the_orbit_search_trace_lists_the_orbits_the_search_reaches():
    for n in (6, 8, 9):
        search = search_orbits(n)
        t = record(n, "orbit-search")
        assert [s.board for s in t.steps] == [d.generator for d in search.discoveries]
        generation = {}
        for s, d in zip(t.steps, search.discoveries):
            generation[d.index] = 1 if d.parent is None else generation[d.parent] + 1
            assert s.col == generation[d.index] and s.operator == d.operation.document()
            assert is_solution(Problem(n), s.board)


def test_trivial_boards():
    assert record(3, "minconflicts").steps == () and not record(3, "selfcorrect").solved
    assert record(1, "selfcorrect").final().tolist() == [0]


# ----------------------------------------------------------------------------- the cap, refusals


def test_the_step_cap_cuts_the_trace():
    t = record(10, "backtrack", solutions=0, max_steps=50)
    assert len(t) == 50 and not t.complete
    t = record(30, "minconflicts", seed=1, max_steps=7)
    assert len(t) == 7 and not t.complete


def test_a_cap_beyond_memory_is_refused_up_front(monkeypatch):
    monkeypatch.setattr(validate, "available_memory", lambda: 10**6)
    with pytest.raises(TooLarge, match="memory.*step cap"):
        record(8, "backtrack", max_steps=10**6)


def test_a_variant_is_refused_for_a_heuristic_naming_the_method_that_traces_it():
    for method in ("selfcorrect", "minconflicts", "ga", "orbit-search"):
        with pytest.raises(UnsupportedProblem, match="trace a variant: backtrack"):
            record(Problem(8, toroidal=True), method)


def test_bad_requests_say_what_is_allowed():
    raises_each(
        QueensError,
        {
            "the methods traced are": partial(record, 8, "aco"),
            "deterministic": partial(record, 8, "backtrack", seed=1),
            "max_steps": partial(record, 8, "backtrack", max_steps=0),
        },
    )


# ----------------------------------------------------------------------------- the file


@pytest.mark.parametrize("method", ["backtrack", "selfcorrect", "minconflicts", "ga", "orbit-search"])
def test_a_trace_file_reads_back(tmp_path, method):
    t = record(Problem(8) if method != "backtrack" else Problem(8, blocked=[(0, 0)]), method)
    path = tmp_path / "t.jsonl"
    write_trace(t, path)
    head = json.loads(path.read_text().splitlines()[0])
    assert (head["format"], head["version"], head["method"], head["n"], head["steps"]) == (
        "queenslab-trace",
        1,
        method,
        8,
        len(t),
    )
    assert read_trace(path) == t


def test_a_truncated_or_other_version_file_is_refused(tmp_path):
    path = tmp_path / "t.jsonl"
    write_trace(record(8, "selfcorrect", seed=2), path)
    lines = path.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-3]))
    with pytest.raises(InvalidTrace, match="cut short"):
        read_trace(cut)
    cut.write_text("".join(lines)[:-5])
    with pytest.raises(InvalidTrace, match="cut short"):
        read_trace(cut)
    head = json.loads(lines[0])
    head["version"] = 2
    other = tmp_path / "v2.jsonl"
    other.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    with pytest.raises(InvalidTrace, match="version 2.*reads version 1"):
        read_trace(other)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + '["move", 9, 0]\n' + "".join(lines[2:]))
    with pytest.raises(InvalidTrace, match="line 2"):
        read_trace(bad)
    (tmp_path / "nt.jsonl").write_text("hello\n")
    with pytest.raises(InvalidTrace, match="not a queenslab trace"):
        read_trace(tmp_path / "nt.jsonl")


def test_an_unwritable_path_is_refused_and_nothing_is_left(tmp_path):
    t = record(6, "backtrack")
    with pytest.raises(QueensError):
        write_trace(t, tmp_path / "missing" / "t.jsonl")
    with pytest.raises(QueensError):
        write_trace_svg(t, tmp_path)
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- the animation


def test_the_animated_svg_is_plain_smil_and_shows_the_last_board_when_still(tmp_path):
    t = record(8, "selfcorrect", seed=3)
    svg = trace_svg(t)
    root = ET.fromstring(svg)  # well-formed XML
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert "<script" not in svg and root.findall(".//s:animate", ns)
    queens = root.findall(".//s:g[@class='trace-queens']/s:use", ns)
    final = {int(float(q.get("y"))): int(q.get("x")) for q in queens if q.get("visibility") == "visible"}
    assert [final[r] for r in range(8)] == t.final().tolist()
    path = write_trace_svg(t, tmp_path / "a.svg", every=5)
    assert Path(path).read_text().startswith("<svg")


def test_a_trace_without_steps_has_nothing_to_draw():
    with pytest.raises(QueensError, match="no steps"):
        trace_svg(record(3, "minconflicts"))


# ----------------------------------------------------------------------------- the commands


def test_watch_without_a_terminal_prints_only_the_final_line(capsys, monkeypatch, tmp_path):
    code, out, err = run_cli(capsys, monkeypatch, "watch", 8, "--method", "selfcorrect", "--seed", 4)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].endswith(" ".join(str(c + 1) for c in self_correct(8, seed=4)))


def test_watch_records_the_trace_replay_reads_it_back(capsys, monkeypatch, tmp_path):
    path = tmp_path / "t.jsonl"
    code, out, _ = run_cli(
        capsys, monkeypatch, "watch", 10, "--method", "minconflicts", "--seed", 3, "--record", path, "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["solution"] == [c + 1 for c in min_conflicts(10, seed=3)]
    assert read_trace(path) == record(10, "minconflicts", seed=3, max_steps=data["max_steps"])
    code, out, _ = run_cli(capsys, monkeypatch, "replay", path, "--json", "--svg", tmp_path / "a.svg")
    replay = json.loads(out)
    assert code == 0 and (replay["method"], replay["seed"], replay["steps"]) == ("minconflicts", 3, data["steps"])
    assert replay["final"] == data["solution"] and (tmp_path / "a.svg").read_text().startswith("<svg")


def test_a_backtracking_replay_ends_at_the_first_solution(capsys, monkeypatch, tmp_path):
    path = tmp_path / "b.jsonl"
    run_cli(capsys, monkeypatch, "watch", 9, "--block", "1,1", "--fix", "2,5", "--record", path)
    code, out, _ = run_cli(capsys, monkeypatch, "replay", path, "--json")
    first = queenslab.solve(Problem(9, blocked=[(0, 0)], fixed=[(1, 4)]))
    assert code == 0 and json.loads(out)["final"] == [c + 1 for c in first]
    assert json.loads(out)["solutions_found"] == 1


def test_the_commands_refuse_bad_input_with_what_is_allowed(capsys, monkeypatch, tmp_path):
    code, _, err = run_cli(capsys, monkeypatch, "watch", 8, "--toroidal", "--method", "ga")
    assert code == 2 and "the methods that trace a variant: backtrack" in err
    code, _, err = run_cli(capsys, monkeypatch, "watch", 8, "--solutions", 2, "--method", "ga")
    assert code == 2 and "--solutions" in err
    path = tmp_path / "t.jsonl"
    write_trace(record(8, "ga", seed=1), path)
    path.write_text(path.read_text()[:-10])
    code, _, err = run_cli(capsys, monkeypatch, "replay", path)
    assert code == 2 and "cut short" in err
    code, _, err = run_cli(capsys, monkeypatch, "replay", path, "--svg", tmp_path / "no" / "a.svg")
    assert code == 2 and not (tmp_path / "no").exists()


def test_watch_on_a_terminal_draws_the_board_and_stops_on_ctrl_c(capsys, monkeypatch):

    monkeypatch.setattr(watch.sys.stdout, "isatty", lambda: True, raising=False)
    code, out, _ = run_cli(capsys, monkeypatch, "watch", 6, "--delay", 0)
    assert code == 0 and "♛" in out and "step " in out and out.rstrip().endswith("2 4 6 1 3 5")
    monkeypatch.setattr(watch.time, "sleep", lambda _s: interrupt.request())
    try:
        code, _, err = run_cli(capsys, monkeypatch, "watch", 6, "--delay", 0.01)
    finally:
        interrupt.clear()
    assert code == 130 and "interrupted" in err


def test_the_animated_gif_plays_the_frames_of_the_svg(tmp_path):
    from PIL import Image

    from queenslab.trace.animate import frames

    t = record(8, "selfcorrect", seed=1)
    image = Image.open(io.BytesIO(trace_gif(t, every=2)))
    assert image.format == "GIF" and image.n_frames == len(frames(t, 2)[0])
    with pytest.raises(QueensError):
        write_trace_gif(t, tmp_path / "no" / "a.gif")
    assert not (tmp_path / "no").exists()


def test_a_trace_shows_as_its_animation_in_a_notebook():
    from IPython.core.interactiveshell import InteractiveShell

    from queenslab.viz.notebook import register, trace_picture

    shell = InteractiveShell.instance()
    try:
        assert register(shell)
        svg = shell.display_formatter.format(record(6, "backtrack"))[0]["image/svg+xml"]
        assert svg.startswith("<svg") and "<animate" in svg
    finally:
        InteractiveShell.clear_instance()
    assert trace_picture(record(3, "minconflicts")) is None


def _screenshot(svg_path: Path, png: Path, milliseconds: int, size: tuple[int, int]) -> None:
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        pytest.skip("no headless browser to play the animation")
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={size[0]},{size[1]}",
         f"--virtual-time-budget={milliseconds}", f"--screenshot={png}", svg_path.as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip


@pytest.mark.slow
def test_a_browser_plays_the_animation_from_the_start_to_the_last_board(tmp_path):
    """A headless browser's pictures of the animated SVG: the queens move, and once the
    trace has played they stand on its last board (held). (The browser's virtual clock
    starts a little after the document, so the first frame is not checked exactly.)"""
    from PIL import Image

    t = record(8, "selfcorrect", seed=1)
    path = tmp_path / "a.svg"
    write_trace_svg(t, path, frame_seconds=0.5, hold=20.0)
    root = ET.parse(path).getroot()
    size = (int(root.get("width")), int(root.get("height")))
    px = size[0] / 8.6  # the board and its 0.6-cell margin of labels

    def queen_rows(png: Path) -> list[int]:
        image = Image.open(png).convert("RGB")
        rows = []
        for r in range(8):
            dark = [
                c for c in range(8) if sum(image.getpixel((int((0.6 + c + 0.5) * px), int((0.6 + r + 0.7) * px)))) < 300
            ]
            rows.append(dark[0] if len(dark) == 1 else -1)
        return rows

    start, end = tmp_path / "start.png", tmp_path / "end.png"
    for _ in range(3):  # a browser on a busy machine now and then takes its pictures late: try again
        _screenshot(path, start, 10, size)
        _screenshot(path, end, int(len(t) * 500 + 10000), size)
        if queen_rows(end) == t.final().tolist() and queen_rows(start) != queen_rows(end):
            break
    assert queen_rows(end) == t.final().tolist()
    assert queen_rows(start) != queen_rows(end)


def test_the_search_tree_has_a_node_per_queen_placed_and_its_solutions_on_the_leaves(tmp_path):
    from queenslab.trace.tree import search_tree, write_tree

    for problem in VARIANTS[:5]:
        t = record(problem, "backtrack", solutions=0)
        nodes = search_tree(t)
        assert len(nodes) == sum(s.op in ("place", "move") for s in t.steps)
        found = []
        for i, v in enumerate(nodes):
            if v.solution:
                path, k = [], i
                while k >= 0:
                    path.append(nodes[k].col)
                    k = nodes[k].parent
                found.append(tuple(reversed(path)))
                assert v.children == 0 and v.row == problem.n - 1
        assert found == t.solutions()
    assert write_tree(tmp_path / "t.svg", t).endswith("t.svg")
    with pytest.raises(QueensError, match="backtracking traces"):
        search_tree(record(8, "minconflicts"))


@pytest.mark.parametrize("every", [1, 2, 3, 5, 7, 51, 52, 60])
def test_the_frames_start_at_the_first_step_and_end_at_the_last(every):
    """A sampled animation or strip shows steps 1, K + 1, 2K + 1, ... and the last, and
    says how many beforehand (the count its limits are checked with)."""
    from queenslab.trace import animate

    t = record(8, "selfcorrect", seed=1)
    total = len(t.steps)
    picked, boards = animate.frames(t, every)
    expected = sorted({*range(0, total, every), total - 1})
    assert picked == expected and len(boards) == len(picked)
    assert animate.sampling(t, every) == (every, len(picked)) == (every, animate.frame_count(total, every))
    assert animate.least_every(total, len(picked)) <= every
