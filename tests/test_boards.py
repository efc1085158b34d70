"""k queens on an r x c board: fewer queens than rows, rectangles.

Every count is held to an independent source: the terms of Kotesovec's OEIS families
(A036464 by its formula, A047659, A061989, A061990 and Tarry's formula, A061991, A061992,
A176186, A269133, as published) or
the brute-force oracle of tests/naive.py, which tries every placement of k queens in
distinct rows and columns and walks each pair's rays.
"""

from __future__ import annotations

import json

import naive
import pytest
from clirun import run_cli as _run_cli

from queenslab import Problem, Region, get_backend
from queenslab.compiled import compile_problem
from queenslab.errors import InvalidPlacement, InvalidProblem, QueensError, UnsupportedProblem
from queenslab.native import engine
from queenslab.native.methods import REGISTRY
from queenslab.problem_file import problem_from_toml, problem_text
from queenslab.solution import board_placement, conflicts, format_placement, is_solution

#: OEIS A047659, 3 nonattacking queens on an n x n board, n = 0..31 (as published).
A047659 = [0, 0, 0, 0, 24, 204, 1024, 3628, 10320, 25096, 54400, 107880, 199400, 348020, 579264, 926324,
           1431584, 2148048, 3141120, 4490256, 6291000, 8656860, 11721600, 15641340, 20597104, 26797144,
           34479744, 43915768, 55411720, 69312516, 86004800, 105919940]  # fmt: skip
#: OEIS A061989 / A061991 / A061992: 3, 5, 6 queens on a 3 x n, 5 x n, 6 x n board (from n = 0).
A061989 = [0, 0, 0, 0, 4, 14, 36, 76, 140, 234, 364, 536, 756, 1030, 1364, 1764]
A061991 = [0, 0, 0, 0, 0, 10, 40, 164, 568, 1614, 3916, 8492, 16852, 31100, 54068]
A061992 = [0, 0, 0, 0, 0, 0, 4, 94, 550, 2292, 7552, 21362, 52856, 117694]
#: OEIS A269133, m nonattacking queens on an m x n board, rows n = 1..12, m = 1..n.
A269133 = [1, 2, 0, 3, 2, 0, 4, 6, 4, 2, 5, 12, 14, 12, 10, 6, 20, 36, 46, 40, 4, 7, 30, 76, 140, 164, 94, 40,
           8, 42, 140, 344, 568, 550, 312, 92, 9, 56, 234, 732, 1614, 2292, 2038, 1066, 352, 10, 72, 364, 1400,
           3916, 7552, 9632, 7828, 4040, 724]  # fmt: skip

#: OEIS A061990, 4 queens on a 4 x n board (n = 0..11, as published); from n = 7 on
#: Tarry's formula n^4 - 18n^3 + 139n^2 - 534n + 840 (1890).
A061990 = [0, 0, 0, 0, 2, 12, 46, 140, 344, 732, 1400, 2468]
#: OEIS A176186, 6 queens on an n x n board, n = 6..10 (as published).
A176186 = {6: 4, 7: 832, 8: 22708, 9: 312956, 10: 2716096}

EXACT = ("native", "cpsat", "sat", "ganak", "cpmpy")


def a036464(n: int) -> int:
    """2 nonattacking queens on n x n: OEIS A036464's formula n(n-1)(n-2)(3n-1)/6."""
    return n * (n - 1) * (n - 2) * (3 * n - 1) // 6


def a269133(m: int, n: int) -> int:
    row = n - 1
    return A269133[row * (row + 1) // 2 + m - 1]


# ------------------------------------------------------------------ the OEIS families


@pytest.mark.parametrize("n", range(1, 25))
def test_two_and_three_queens_on_a_square_are_kotesovecs_families(n):
    assert engine.count(Problem(n, queens=2)) == a036464(n)
    assert engine.count(Problem(n, queens=3)) == A047659[n]


@pytest.mark.parametrize("n", range(1, 11))
def test_m_queens_on_an_m_by_n_board_are_a269133(n):
    for m in range(1, n + 1):
        assert engine.count(Problem(m, columns=n)) == a269133(m, n), (m, n)
        # the transposed board: n rows, m columns, m queens (rows stay empty)
        assert engine.count(Problem(n, columns=m, queens=m)) == a269133(m, n), (n, m)


@pytest.mark.parametrize(("rows", "family"), [(3, A061989), (5, A061991), (6, A061992)])
def test_k_queens_on_k_rows_are_the_kotesovec_rows(rows, family):
    for n, expected in enumerate(family):
        if n >= 1:
            assert engine.count(Problem(rows, columns=n)) == expected, (rows, n)


def test_four_queens_on_four_rows_follow_tarrys_formula():
    for n, expected in enumerate(A061990):
        assert engine.count(Problem(4, columns=max(n, 1))) == (expected if n else 0), n
    for n in range(7, 41):
        assert engine.count(Problem(4, columns=n)) == n**4 - 18 * n**3 + 139 * n**2 - 534 * n + 840, n


def test_six_queens_on_a_square_are_a176186():
    for n, expected in A176186.items():
        assert engine.count(Problem(n, queens=6)) == expected, n


# ------------------------------------------------------------------ every backend against the oracle

BOARDS = [
    Problem(5, queens=3),
    Problem(4, columns=6, queens=3),
    Problem(4, columns=6),
    Problem(6, columns=4, queens=4),
    Problem(5, columns=4),  # five queens in four columns: none
    Problem(5, queens=2, knight=True),
    Problem(5, queens=3, blocked=[(0, 0)]),
    Problem(5, queens=3, toroidal=True),
    Problem(6, columns=5, queens=4, fixed=[(0, 1)]),
    Problem(6, queens=3, fixed=[(5, 2)]),
    Problem(5, queens=0),
    Problem(6, queens=3, regions=[Region([(0, 0), (1, 1), (2, 2)], at_least=1)]),
    Problem(5, columns=6, queens=3, leapers=[(1, 3)]),
]


@pytest.mark.parametrize("problem", BOARDS, ids=lambda p: p.describe())
def test_every_exact_backend_counts_a_board_and_its_orbits_as_the_oracle(problem):
    sols = naive.board_solutions(problem)
    orbits = naive.board_orbit_count(problem, sols)
    for name in EXACT:
        r = get_backend(name).counts(problem, unique=True)
        assert (r.count, r.unique) == (len(sols), orbits), name
    assert get_backend("native").counts(problem).count == len(sols)


@pytest.mark.parametrize("problem", BOARDS[:6], ids=lambda p: p.describe())
def test_solutions_are_the_oracles_in_lexicographic_order_with_an_empty_row_last(problem):
    want = sorted(naive.board_solutions(problem), key=lambda p: [c if c >= 0 else problem.columns for c in p])
    assert list(get_backend("native").solutions(problem)) == want
    assert sorted(get_backend("sat").solutions(problem)) == sorted(want)
    for p in want[:20]:
        assert is_solution(problem, p) and naive.board_is_solution(problem, p)


def test_orbit_sizes_add_up_to_the_total():
    problem = Problem(7, queens=3)
    result, classes = engine.count_classes(problem)
    assert sum(size * k for size, k in classes.items()) == result.count == A047659[7]
    assert sum(classes.values()) == result.unique == naive.board_orbit_count(problem)


def test_the_board_method_counts_n_queens_on_n_by_n_as_the_others():
    for problem in (Problem(8), Problem(7, knight=True), Problem(8, blocked=[(0, 0)])):
        assert engine.count_both(problem, method="board").count == engine.count_both(problem, method="general").count
        assert engine.count_both(problem, method="board").unique == engine.count_both(problem).unique


# ------------------------------------------------------------------ the group of a board


def test_a_rectangle_keeps_four_symmetries_and_a_square_board_all_eight():
    names = {g.name for g in Problem(4, columns=6, queens=3).symmetries()}
    assert names == {"identity", "rotate-180", "reflect-horizontal-axis", "reflect-vertical-axis"}
    assert len(Problem(6, queens=2).symmetries()) == 8
    assert len(Problem(4, columns=6, blocked=[(0, 0)]).symmetries()) == 1


# ------------------------------------------------------------------ refusals


def test_methods_for_n_queens_on_n_by_n_refuse_a_board():
    problem = Problem(8, queens=3)
    for name in ("join", "symmetric", "general"):
        assert REGISTRY[name].refusal(problem) is not None
        with pytest.raises(UnsupportedProblem, match="n queens on an n x n board"):
            engine.count_both(problem, method=name)
    assert engine.chosen_method(problem) == "board"


def test_readers_of_the_square_tables_refuse_a_board():
    from queenslab import rank
    from queenslab.estimate import estimate

    problem = Problem(8, queens=3)
    with pytest.raises(UnsupportedProblem, match="k queens on an r x c board"):
        _ = compile_problem(problem).allowed
    with pytest.raises(QueensError):
        estimate(problem, samples=100)
    with pytest.raises(QueensError):
        rank(problem, (0, 2, 4, -1, -1, -1, -1, -1))
    with pytest.raises(UnsupportedProblem, match="backends that count k queens"):
        get_backend("approxmc").counts(problem)


def test_bad_boards_are_refused_with_what_is_allowed():
    naive.raises_each(
        InvalidProblem,
        {
            "columns must be at least 1": lambda: Problem(4, columns=0),
            "queens must be at least 0": lambda: Problem(4, queens=-1),
            "cannot be toroidal": lambda: Problem(4, columns=5, toroidal=True),
            "outside the 3x5 board": lambda: Problem(3, columns=5, blocked=[(3, 0)]),
        },
    )
    assert "6 queens need 6 rows" in Problem(4, columns=8, queens=6).contradiction
    assert engine.count(Problem(4, columns=8, queens=6)) == 0


def test_a_board_past_the_practical_limit_is_refused_with_its_size():
    with pytest.raises(QueensError, match="placements"):
        engine.count(Problem(60, queens=6))


# ------------------------------------------------------------------ forms: placements, dict, file, CLI


def test_placements_with_empty_rows_in_text_and_python():
    problem = Problem(3, columns=5, queens=2)
    assert board_placement(problem, "5 - 1") == (4, -1, 0)
    assert format_placement((4, -1, 0)) == "5 - 1"
    assert [c.rule for c in conflicts(problem, "5 - 3")] == ["anti-diagonal"]
    assert [c.rule for c in conflicts(problem, "1 - -")] == ["queens"]
    with pytest.raises(InvalidPlacement, match="0-based columns are 0..4"):
        board_placement(problem, [5, -1, 0])


def test_the_dict_form_file_and_fingerprint_keep_the_board():
    problem = Problem(4, columns=6, queens=3, blocked=[(0, 5)])
    assert Problem.from_dict(problem.to_dict(one_based=True)) == problem
    assert problem_from_toml(problem_text(problem)) == problem
    assert "columns" not in Problem(8).to_dict()  # the fingerprints of n queens on n x n never change
    assert len({Problem(8).fingerprint(), Problem(8, queens=0).fingerprint(), Problem(8, columns=9).fingerprint()}) == 3


def test_cli_counts_a_board_and_says_it(tmp_path, capsys, monkeypatch):
    def run(*args):
        return _run_cli(capsys, monkeypatch, *args)

    code, out, _ = run("count", "8", "--queens", "3", "--json")
    assert code == 0 and json.loads(out)["count"] == A047659[8]
    code, out, _ = run("count", "6", "--columns", "8", "--queens", "6", "--backend", "sat")
    assert code == 0 and f"{a269133(6, 8)} solutions of 6 queens on 6x8" in out
    path = tmp_path / "board.toml"
    path.write_text("n = 3\ncolumns = 7\nqueens = 3\n")
    code, out, _ = run("count", "--problem", str(path), "--json")
    assert code == 0 and json.loads(out)["count"] == A061989[7]
    code, _, err = run("count", "6", "--columns", "0")
    assert code == 2 and err.startswith("error:") and "columns" in err


def test_cli_checks_shows_and_draws_a_board(tmp_path, capsys, monkeypatch):
    def run(*args):
        return _run_cli(capsys, monkeypatch, *args)

    board = ("--columns", "5", "--queens", "2")
    code, out, _ = run("check", "5", "-", "1", *board)
    assert code == 0 and "a solution of 2 queens on 3x5" in out
    code, out, _ = run("check", "5", "-", "3", *board, "--json")
    assert code == 1 and [c["rule"] for c in json.loads(out)["conflicts"]] == ["anti-diagonal"]
    code, out, _ = run("show", "5", "-", "1", *board)
    assert out.splitlines() == [". . . . Q", ". . . . .", "Q . . . ."]
    svg = tmp_path / "b.svg"
    code, _, _ = run("show", "5", "-", "1", *board, "--svg", str(svg))
    text = svg.read_text()
    assert code == 0 and text.count('class="queen"') == 2 and 'viewBox="-0.6 -0.6 5.6 3.6"' in text
    code, out, _ = run("solve", "8", "--queens", "3", "--json")
    solution = json.loads(out)["solution"]
    assert code == 0 and solution.count(None) == 5  # an empty row is null in 1-based JSON
    assert naive.board_is_solution(Problem(8, queens=3), [c - 1 if c else -1 for c in solution])
    code, out, _ = run("count", "4..7", "--queens", "2")
    assert code == 0 and [int(line.split()[1]) for line in out.splitlines()[1:]] == [a036464(n) for n in range(4, 8)]
    code, _, err = run("check", "2", "-1", "3")
    assert code == 2 and err.startswith("error:")
