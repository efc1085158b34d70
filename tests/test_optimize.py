"""Optimisation: the domination and independence numbers by two optimisers that must agree.

Expected values come from OEIS A075458 (the domination number of the queens' graph) and
from the brute-force oracle of tests/naive.py on small variants.
"""

from __future__ import annotations

import json

import naive
import pytest
from clirun import run_cli

from queenslab import Problem, Region
from queenslab.errors import QueensError
from queenslab.optimize import optimize

#: OEIS A075458, n = 1..25: the domination number of the n x n queens' graph.
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]


@pytest.mark.parametrize("n", range(1, 9))
def test_domination_number_is_oeis_a075458(n):
    r = optimize(Problem(n), "dominate")
    assert (r.optimum, r.proved, r.agrees) == (A075458[n - 1], True, True)
    assert all(x.proved and x.value == A075458[n - 1] for x in r.runs)
    assert len(r.queens) == r.optimum


@pytest.mark.slow
@pytest.mark.parametrize("n", [9, 10, 11, 12])
def test_domination_number_further(n):
    r = optimize(Problem(n), "dominate", solvers=("cpsat",))
    assert (r.optimum, r.proved) == (A075458[n - 1], True)


PROBLEMS = [
    Problem(4, blocked=[(0, 0), (1, 2)]),
    Problem(4, fixed=[(0, 1)]),
    Problem(5, toroidal=True),
    Problem(4, knight=True),
    Problem(4, regions=[Region.rows([0], 4, at_most=0)]),
    Problem(3, leapers=[(1, 3)], blocked=[(1, 1)]),
]


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.describe())
@pytest.mark.parametrize("objective", ["dominate", "independence"])
def test_variants_against_brute_force(problem, objective):
    oracle = naive.domination_number if objective == "dominate" else naive.independence_number
    r = optimize(problem, objective)
    assert (r.optimum, r.proved, r.agrees) == (oracle(problem), True, True)


def test_independence_of_the_standard_board():
    # n non-attacking queens fit from n = 4 on (A000170 > 0); the oracle below that
    for n in range(1, 9):
        want = n if n >= 4 else naive.independence_number(Problem(n))
        assert optimize(Problem(n), "independence").optimum == want


def test_a_stopped_optimiser_reports_its_bound_not_a_proof():
    r = optimize(Problem(13), "dominate", solvers=("cpsat",), time_limit=0.05)
    run = r.runs[0]
    assert not run.proved and not r.proved
    if run.value is not None:
        assert run.bound is not None and run.bound <= A075458[12] <= run.value


def test_the_mip_runs_by_default_where_highspy_is_installed(monkeypatch):
    import importlib.util

    pytest.importorskip("highspy")
    r = optimize(Problem(6), "independence")
    assert [x.solver for x in r.runs] == ["maxsat", "cpsat", "mip"] and r.agrees
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "highspy" else real(name, *a))
    assert [x.solver for x in optimize(Problem(6), "dominate").runs] == ["search", "maxsat", "cpsat"]


def test_a_stopped_mip_reports_its_bound_not_a_proof():
    pytest.importorskip("highspy")
    r = optimize(Problem(14), "dominate", solvers=("mip",), time_limit=0.5)
    run = r.runs[0]
    assert not run.proved and not r.proved
    if run.value is not None:
        assert run.bound is not None and run.bound <= A075458[13] <= run.value


def test_bad_requests_are_refused():
    with pytest.raises(QueensError, match="objective"):
        optimize(Problem(4), "dominance")
    with pytest.raises(QueensError, match="solver"):
        optimize(Problem(4), solvers=("gurobi",))
    with pytest.raises(QueensError, match="solvers"):
        optimize(Problem(4), solvers="cpsat")
    with pytest.raises(QueensError):
        optimize(Problem(65))


def test_the_command_line(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "optimize", "dominate", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["optimum"] == A075458[5] and data["proved"] and data["agrees"]
    assert len(data["queens"]) == data["optimum"] and all(1 <= r <= 6 and 1 <= c <= 6 for r, c in data["queens"])
    code, out, _ = run_cli(capsys, monkeypatch, "optimize", "independence", "5", "--block", "1,1", "--solver", "maxsat")
    assert code == 0 and "the most queens that attack no other: 5 (proved)" in out
    code, _, err = run_cli(capsys, monkeypatch, "optimize", "dominate", "4", "--solver", "glpk")
    assert code == 2 and "error" in err.lower()
    assert data["time_limit"] == 60 and [r["solver"] for r in data["runs"]] == ["search", "maxsat", "cpsat", "mip"]
    code, out, _ = run_cli(capsys, monkeypatch, "optimize", "dominate", "7", "--solver", "search", "--json")
    data = json.loads(out)
    assert code == 0 and data["optimum"] == A075458[6] and [r["solver"] for r in data["runs"]] == ["search"]
    code, _, err = run_cli(capsys, monkeypatch, "optimize", "independence", "5", "--solver", "search")
    assert code == 2 and "domination only" in err


# ------------------------------------------------------------------ holes: cells that stop the lines

HOLED = [
    (3, [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),  # four corners, cut off from each other
    (4, [(1, 1), (2, 2)]),
    (4, [(0, 1), (2, 2), (3, 0)]),
    (5, [(2, 2)]),
    (5, [(1, 2), (3, 2)]),
]


@pytest.mark.parametrize(("n", "holes"), HOLED)
def test_holes_against_brute_force(n, holes):
    from queenslab.constraints import Holes

    problem = Problem(n, constraints=[Holes(holes)])
    independent = optimize(problem, "independence")
    dominating = optimize(problem, "dominate")
    assert independent.agrees and dominating.agrees and independent.proved and dominating.proved
    assert independent.optimum == naive.independence_with_holes(n, set(holes))
    assert dominating.optimum == naive.domination_with_holes(n, set(holes))


def test_holes_let_more_queens_than_rows_stand():
    from queenslab.constraints import Holes

    holes = [(1, 1), (1, 4), (4, 1), (4, 4), (2, 2), (3, 3), (2, 3), (3, 2)]
    r = optimize(Problem(6, constraints=[Holes(holes)]), "independence")
    assert r.optimum > 6 and r.proved and r.agrees
    assert not any(naive.attacked_around_holes(6, a, b, set(holes)) for a in r.queens for b in r.queens if a < b)


def test_holes_are_written_read_and_refused_by_every_counting_backend(tmp_path, capsys, monkeypatch):
    from queenslab import get_backend
    from queenslab.backends.registry import BACKENDS
    from queenslab.constraints import Holes
    from queenslab.errors import UnsupportedProblem
    from queenslab.problem_file import problem_from_toml, problem_text

    problem = Problem(5, constraints=[Holes([(2, 2)])])
    assert Problem.from_dict(problem.to_dict(one_based=True)) == problem
    assert problem_from_toml(problem_text(problem)) == problem
    assert problem.fingerprint() != Problem(5).fingerprint()
    for name in BACKENDS:
        with pytest.raises(UnsupportedProblem, match="read by queenslab optimize"):
            get_backend(name).counts(problem)
    path = tmp_path / "holes.toml"
    path.write_text(problem_text(problem))
    code, _, err = run_cli(capsys, monkeypatch, "count", "--problem", str(path))
    assert code == 2 and "holes" in err
    code, out, _ = run_cli(capsys, monkeypatch, "optimize", "independence", "3", *HOLE_FLAGS, "--json")
    assert code == 0 and json.loads(out)["optimum"] == 4


HOLE_FLAGS = [x for cell in ("1,2", "2,1", "2,2", "2,3", "3,2") for x in ("--holes", cell)]


# ------------------------------------------------------------------ the exhaustive domination search


@pytest.mark.parametrize("n", range(1, 15))
def test_the_search_proves_the_domination_number(n):
    r = optimize(Problem(n), "dominate", solvers=("search",))
    assert (r.optimum, r.proved, r.agrees) == (A075458[n - 1], True, None)
    assert naive.dominates(Problem(n), r.queens) and len(set(r.queens)) == r.optimum


@pytest.mark.slow
def test_the_search_proves_gamma_of_15():
    r = optimize(Problem(15), "dominate", solvers=("search",))
    assert (r.optimum, r.proved) == (A075458[14], True) and naive.dominates(Problem(15), r.queens)


def test_the_search_with_and_without_symmetries_agrees():
    from queenslab.d4 import D4, cell_permutation
    from queenslab.models.optimization import board
    from queenslab.native.domination import least_cover

    for problem in [Problem(n) for n in range(1, 11)] + [Problem(6, blocked=[(0, 0)]), Problem(7, toroidal=True)]:
        b = board(problem)
        plain = least_cover(b.covers, b.forbidden, b.fixed)
        # every element of D4 offered: those that do not map the blocked cell onto itself are left out
        every = least_cover(b.covers, b.forbidden, b.fixed, symmetries=[cell_permutation(g, problem.n) for g in D4])
        assert plain.value == every.value and plain.proved and every.proved
        if problem.n <= 6:
            assert plain.value == naive.domination_number(problem)
        distinct = {tuple(cell_permutation(g, problem.n)) for g in problem.symmetries()}
        assert plain.symmetries == 1 and every.symmetries == len(distinct)


@pytest.mark.parametrize(
    "problem",
    [
        Problem(5, blocked=[(2, 2), (0, 4)]),
        Problem(5, fixed=[(0, 0)]),
        Problem(5, toroidal=True),
        Problem(5, knight=True),
        Problem(4, leapers=[(1, 3)], blocked=[(1, 1)]),
    ],
    ids=lambda p: p.describe(),
)
def test_the_search_on_variants_against_brute_force(problem):
    r = optimize(problem, "dominate", solvers=("search",))
    assert (r.optimum, r.proved) == (naive.domination_number(problem), True)


def test_a_stopped_search_reports_the_bound_it_proved():
    r = optimize(Problem(16), "dominate", solvers=("search",), time_limit=0.5)
    run = r.runs[0]
    assert not run.proved and run.value is None and not r.proved
    assert run.bound is not None and 1 <= run.bound <= A075458[15]


def test_the_search_proves_domination_only():
    with pytest.raises(QueensError, match="domination only"):
        optimize(Problem(5), "independence", solvers=("search",))
    with pytest.raises(QueensError, match="regions"):
        optimize(Problem(4, regions=[Region.rows([0], 4, at_most=0)]), "dominate", solvers=("search",))
    # by default a board with regions is left to the model-based optimisers
    r = optimize(Problem(4, regions=[Region.rows([0], 4, at_most=0)]), "dominate")
    assert [x.solver for x in r.runs] == ["maxsat", "cpsat", "mip"]


def test_the_search_refuses_a_relation_that_is_not_symmetric():
    from queenslab.native.domination import least_cover

    with pytest.raises(QueensError, match="symmetric"):
        least_cover([[0, 1], [1]], forbidden=(), fixed=())
    with pytest.raises(QueensError, match="permutation"):
        least_cover([[0, 1], [0, 1]], forbidden=(), fixed=(), symmetries=[[0, 0]])
    with pytest.raises(QueensError, match="not one of the cells"):
        least_cover([[0, 1], [0, 1]], forbidden=[2], fixed=())
    with pytest.raises(QueensError, match="integers"):
        least_cover([[0, 1], [0, 1]], forbidden=["a"], fixed=())
    nobody = least_cover([[0, 1], [0, 1]], forbidden=[0, 1], fixed=())
    assert (nobody.value, nobody.proved) == (None, True)  # no queen may stand anywhere
