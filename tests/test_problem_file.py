"""Problem files (TOML, 1-based cells) and --problem FILE on the command line."""

import re
from pathlib import Path

import naive
import pytest
from clirun import run_cli
from hypothesis import given, settings, strategies as st
from strategies import problems
from test_engine import A051223, A051906

from queenslab import Problem, Region, counts
from queenslab.errors import InvalidProblem
from queenslab.problem_file import MAX_BYTES, problem_from_toml, problem_text, read_problem, write_problem

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.toml"))


@settings(max_examples=60, deadline=None)
@given(problems(max_n=8))
def test_a_problem_file_reads_back_as_the_same_problem(p):
    assert problem_from_toml(problem_text(p, "a description")) == p


def test_the_file_is_one_based_like_the_command_line(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text(
        "n = 6\nblocked = [[1, 2]]\nfixed = [[2, 4]]\nleapers = [[3, 1]]\n[[region]]\ncells = [[6, 6]]\nat_least = 1\n"
    )
    p = read_problem(f)
    assert p == Problem(6, blocked=[(0, 1)], fixed=[(1, 3)], leapers=[(1, 3)], regions=[Region([(5, 5)], at_least=1)])
    write_problem(p, tmp_path / "q.toml", "six")
    assert read_problem(tmp_path / "q.toml") == p


@pytest.mark.parametrize(
    "text,message",
    [
        ("n = 8\nblock = [[1, 1]]\n", "unknown key 'block' (line 2)"),
        ("toroidal = true\n", "needs n"),
        ("n = 8\nblocked = [[0, 3]]\n", "blocked (line 2): cell [0, 3] is off the 8x8 board"),
        ("n = 8\nfixed = [[9, 3]]\n", "fixed (line 2): cell [9, 3] is off"),
        ("n = 8\nblocked = [1, 2]\n", "blocked (line 2): a list of [row, column] pairs"),
        ("n = 8\nn = 9\n", "not valid TOML"),
        ("n = [8\n", "not valid TOML"),
        ('n = "8"\n', "n (line 1): the board size is an integer"),
        ("n = 0\n", "n (line 1): n must be at least 1"),
        ("n = 8\ntoroidal = 1\n", "toroidal (line 2): true or false"),
        ("n = 8\nleapers = [[0, 2]]\n", "leapers (line 2): leaper offset"),
        ("n = 8\n\n[[region]]\ncells = [[1, 1], [2, 2]]\nat_least = 2\nat_most = 1\n", "region 1: at_least (line 5)"),
        ("n = 8\n[[region]]\ncells = [[1, 1], [2, 2]]\nat_least = 3\n", "cannot hold at_least 3"),
        ("n = 8\n[[region]]\ncells = [[1, 1]]\nat_least = -1\n", "at_least must be at least 0"),
        ("n = 8\n[[region]]\nat_most = 1\n", "region 1 (line 2) needs cells"),
        (
            "n = 8\n[[region]]\ncells = [[1, 1]]\n\n[[region]]\ncells = [[1, 1]]\nmost = 1\n",
            "region 2: unknown key 'most' (line 7)",
        ),
        ("n = 8\n[[region]]\ncells = [[1, 1]]\nat_most = 1.5\n", "at_most (line 4) is an integer"),
        ("n = 8\n[[region]]\ncells = []\n", "needs at least one cell"),
        ("n = 8\nregion = 5\n", "regions are [[region]] tables"),
    ],
)
def test_every_bad_problem_file_is_an_error_naming_the_key_and_line(tmp_path, capsys, monkeypatch, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(InvalidProblem) as e:
        read_problem(f)
    assert message in str(e.value) and str(f) in str(e.value)
    code, out, err = run_cli(capsys, monkeypatch, "count", "--problem", f)
    assert code == 2 and err.startswith("error: ") and message in err and "Traceback" not in err


@pytest.mark.parametrize("content", [b"\xff\xfe n = 8", b""])
def test_unreadable_problem_files_are_errors(tmp_path, capsys, monkeypatch, content):
    f = tmp_path / "f.toml"
    f.write_bytes(content)
    code, _, err = run_cli(capsys, monkeypatch, "count", "--problem", f)
    assert code == 2 and err.startswith("error: ")
    for path in (tmp_path / "missing.toml", tmp_path, "/dev/zero"):
        code, _, err = run_cli(capsys, monkeypatch, "count", "--problem", path)
        assert code == 2 and err.startswith("error: ")


#: Problem-file bombs: each is refused before parsing, within a second.
BOMBS = {
    "nested arrays": "n = 8\nx = " + "[" * 5000 + "]" * 5000 + "\n",
    "nested inline tables": "n = 8\nx = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n",
    "a long dotted key": "n = 8\n" + "a" + ".a" * 20000 + " = 1\n",
    "a long table name": "n = 8\n[" + "t." * 20000 + "t]\n",
    "too large": "n = 8\n#" + "x" * (MAX_BYTES + 1) + "\n",
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_problem_file_bombs_are_refused_before_parsing(tmp_path, capsys, monkeypatch, name):
    import time

    f = tmp_path / "bomb.toml"
    f.write_text(BOMBS[name])
    t0 = time.perf_counter()
    with pytest.raises(InvalidProblem, match="nest more than|dotted key|at most"):
        problem_from_toml(BOMBS[name])
    with pytest.raises(InvalidProblem):
        read_problem(f)
    assert time.perf_counter() - t0 < 60  # a generous bound: the bombs took minutes or recursed before
    for command in (["count"], ["show"], ["solutions"], ["crosscheck"], ["export", "cnf"]):
        code, _, err = run_cli(capsys, monkeypatch, *command, "--problem", f)
        assert code == 2 and err.startswith("error: ") and "Traceback" not in err, (command, err[-300:])


def test_strings_and_comments_may_hold_brackets_and_dots():
    text = (
        "n = 8  # [[[[[[[[[[[[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s\n"
        'description = "[[[[[[[[[[[[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s \\" ["\n'
        "[[region]]\ncells = [[1, 1], [2, 2]]\nat_most = 0\n"
    )
    assert problem_from_toml(text) == Problem(8, regions=[Region([(0, 0), (1, 1)], at_most=0)])
    literal = "n = 8\ndescription = '''\n[[[[[[[[[[[[[[[[[[[[[[[[[\n'''\n"
    assert problem_from_toml(literal) == Problem(8)


@pytest.mark.parametrize("text", [5, None, b"n = 8", 8.0, ["n = 8"]])
def test_problem_text_that_is_not_a_string_is_a_queens_error(text):
    with pytest.raises(InvalidProblem, match="as a str"):
        problem_from_toml(text)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_counts_alike_on_two_backends(path):
    p = read_problem(path)
    native = counts(p, unique=True)
    sat = counts(p, unique=True, backend="sat")
    assert (native.count, native.unique) == (sat.count, sat.unique)
    if p.n <= 8:
        sols = naive.all_solutions(p)
        assert (native.count, native.unique) == (len(sols), naive.orbit_count(p, sols))
    if p == Problem(p.n, knight=True):
        assert native.count == A051223[p.n]
    if p == Problem(p.n, toroidal=True):
        assert native.count == A051906[p.n]


def test_the_issue_examples_have_the_counts_the_oracle_finds():
    even_first_row = read_problem(Path(EXAMPLES[0]).with_name("first-row-even-column.toml"))
    sols = naive.all_solutions(even_first_row)
    assert len(sols) == 46 == counts(even_first_row, unique=True).unique == naive.orbit_count(even_first_row, sols)


def test_flags_add_to_the_problem_file_and_n_may_be_left_out(tmp_path, capsys, monkeypatch):
    f = tmp_path / "p.toml"
    f.write_text("n = 8\nblocked = [[1, 1]]\n")
    code, out, _ = run_cli(capsys, monkeypatch, "count", "--problem", f, "--block", "8,8", "--knight", "--json")
    want = Problem(8, knight=True, blocked=[(0, 0), (7, 7)])
    assert code == 0 and f'"count": {len(naive.all_solutions(want))}' in out
    code, out, _ = run_cli(capsys, monkeypatch, "count", 8, "--problem", f)
    assert code == 0 and out.startswith(f"{len(naive.all_solutions(Problem(8, blocked=[(0, 0)])))} solutions")
    code, _, err = run_cli(capsys, monkeypatch, "count", 9, "--problem", f)
    assert code == 2 and "N is 9 but the problem file" in err
    code, _, err = run_cli(capsys, monkeypatch, "count")
    assert code == 2 and "give the board size N, or a problem file" in err
    code, out, _ = run_cli(capsys, monkeypatch, "unrank", 8, 1, "--problem", f, "--no-index")
    assert code == 0 and out.split() == [str(c + 1) for c in naive.all_solutions(Problem(8, blocked=[(0, 0)]))[0]]


def test_show_draws_a_problem_file_with_its_constraints(capsys, monkeypatch):
    path = next(p for p in EXAMPLES if p.stem == "two-in-the-top-left-quadrant")
    code, out, _ = run_cli(capsys, monkeypatch, "show", "--problem", path)
    lines = out.splitlines()
    assert code == 0 and "region 1: exactly 2 of 16 cells" in out
    assert lines[-8:][0] == "a a a a . . . ." and lines[-1] == ". . . . . . . ."
    code, out, err = run_cli(capsys, monkeypatch, "show", "1 5 8 6 3 7 2 4", "--problem", path)
    assert code == 1 and "not a solution: region 1 (exactly 2 of 16 cells) holds 1 queen" in out


SHAPES = st.one_of(
    st.tuples(st.just("rows"), st.lists(st.integers(0, 7), min_size=1, max_size=3)),
    st.tuples(st.just("columns"), st.lists(st.integers(0, 7), min_size=1, max_size=3)),
    st.tuples(
        st.just("rectangle"),
        st.tuples(st.tuples(st.integers(0, 7), st.integers(0, 7)), st.tuples(st.integers(0, 7), st.integers(0, 7))),
    ),
    st.tuples(st.just("diagonal"), st.tuples(st.integers(0, 7), st.integers(0, 7))),
    st.tuples(st.just("anti_diagonal"), st.tuples(st.integers(0, 7), st.integers(0, 7))),
)


def _toml_value(kind, arg):
    one = lambda cell: f"[{cell[0] + 1}, {cell[1] + 1}]"
    if kind in ("rows", "columns"):
        return "[" + ", ".join(str(v + 1) for v in arg) + "]"
    if kind == "rectangle":
        return f"[{one(arg[0])}, {one(arg[1])}]"
    return one(arg)


@settings(max_examples=80, deadline=None)
@given(shape=SHAPES, n=st.integers(1, 8), k=st.integers(0, 2))
def test_region_shapes_hold_the_cells_of_their_definition(shape, n, k):
    kind, arg = shape
    cells = (
        [arg]
        if kind in ("diagonal", "anti_diagonal")
        else (list(arg) if kind == "rectangle" else [(v, 0) for v in arg])
    )
    if any(max(cell) >= n for cell in cells) or (kind == "columns" and max(arg) >= n):
        return  # off the board: refused, tested below
    expected = naive.shape_cells(kind, n, arg)
    made = (
        Region.rectangle(*arg, exactly=min(k, len(expected)))
        if kind == "rectangle"
        else getattr(Region, kind)(arg, n, at_most=k)
    )
    assert made.cells == expected
    # the same shape in a problem file (1-based) is the same region, and writes back as itself
    p = problem_from_toml(
        f"n = {n}\n[[region]]\n{kind} = {_toml_value(kind, arg)}\nat_least = {min(k, len(expected))}\n"
    )
    assert p.regions == tuple(r for r in (Region(expected, at_least=min(k, len(expected))),) if not r.bounds_nothing)
    assert problem_from_toml(problem_text(p)) == p


def test_shapes_in_one_region_are_joined_and_count_like_their_cells():
    text = "n = 7\n[[region]]\nrows = [1]\ncolumns = [1]\nexactly = 1\n[[region]]\ndiagonal = [[1, 2], [2, 1]]\nat_most = 1\n"
    p = problem_from_toml(text)
    union = sorted(set(naive.shape_cells("rows", 7, [0])) | set(naive.shape_cells("columns", 7, [0])))
    diagonals = sorted(set(naive.shape_cells("diagonal", 7, (0, 1))) | set(naive.shape_cells("diagonal", 7, (1, 0))))
    same = Problem(7, regions=[Region(union, 1, 1), Region(diagonals, at_most=1)])
    assert p == same
    assert counts(p).count == len(naive.all_solutions(same))


@pytest.mark.parametrize(
    "region,message",
    [
        ("rows = [0]", "row 0 is off the 6x6 board"),
        ("columns = [7]", "column 7 is off"),
        ("rows = [1.5]", "a list of row numbers"),
        ("rectangle = [[1, 1]]", "two opposite corners"),
        ("diagonal = [7, 1]", "cell [7, 1] is off"),
        ("anti_diagonal = 3", "a list of [row, column] pairs"),
        ("rows = [1]\nexactly = 1\nat_most = 1", "exactly (line 4) is both bounds"),
        ("rows = [1]\nexactly = 9", "cannot hold at_least 9"),
    ],
)
def test_bad_region_shapes_name_the_key(region, message):
    with pytest.raises(InvalidProblem, match=re.escape(message)):
        problem_from_toml(f"n = 6\n[[region]]\n{region}\n")


def test_shapes_in_python_check_their_arguments():
    for call in (
        lambda: Region.rows([6], 6),
        lambda: Region.columns("1", 6),
        lambda: Region.diagonal((0, 6), 6),
        lambda: Region.anti_diagonal((0,), 6),
        lambda: Region.rows([0], 0),
        lambda: Region([(0, 0)], at_least=1, exactly=1),
        lambda: Region.rectangle((0, 0), (5000, 5000)),
    ):
        with pytest.raises(InvalidProblem):
            call()


def test_drawings_label_each_region_with_its_bound(tmp_path):
    from queenslab.viz import board_svg

    p = Problem(8, regions=[Region.rows([0], 8, exactly=1), Region.rectangle((4, 4), (7, 7), at_least=2)])
    svg = board_svg(p)
    assert svg.count('class="region-label"') == 2 and ">=1</text>" in svg and ">≥2</text>" in svg


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("n = 8\ntoroidl = true\n", "toroidal"),
        ("n = 8\nblock = [[1, 1]]\n", "blocked"),
        ("n = 8\nknigth = true\n", "knight"),
        ("n = 8\n[[region]]\ncels = [[1, 1]]\nat_most = 1\n", "cells"),
        ("n = 8\n[[region]]\ncells = [[1, 1]]\natmost = 1\n", "at_most"),
    ],
)
def test_a_misspelt_key_gets_the_key_it_resembles(text, meant):
    with pytest.raises(InvalidProblem, match=f"did you mean '{meant}'"):
        problem_from_toml(text)


def test_a_key_like_no_other_gets_no_guess():
    with pytest.raises(InvalidProblem) as refused:
        problem_from_toml("n = 8\ntemperature = 20\n")
    assert "did you mean" not in str(refused.value) and "the keys are" in str(refused.value)
