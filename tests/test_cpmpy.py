"""The cpmpy backend and the CPMpy model: against the brute-force oracle, an edited model,
limits, a missing CPMpy and a solver name CPMpy does not have."""

import json
import sys

import naive
import pytest
from clirun import run_cli
from hypothesis import given, settings
from strategies import problems

from queenslab import Problem, Region, counts, get_backend
from queenslab.errors import Incomplete, MissingDependency, QueensError
from queenslab.models import cpmpy as cpmpy_model


@settings(max_examples=15, deadline=None)
@given(problems(max_n=6))
def test_counts_and_solutions_equal_the_oracle(p):
    sols = naive.all_solutions(p)
    be = get_backend("cpmpy")
    r = be.counts(p, unique=True)
    assert (r.count, r.unique, r.complete) == (len(sols), naive.orbit_count(p, sols), True)
    assert (r.backend, r.method) == ("cpmpy", "ortools")
    assert sorted(be.solutions(p)) == sols


def test_an_edited_model_counts_as_edited():
    n = 8
    m = cpmpy_model.build(Problem(n))
    m.model += [m.q[r] != r for r in range(n)]  # no queen on the main diagonal
    m.model += [m.q[r] != n - 1 - r for r in range(n)]  # nor on the anti-diagonal
    diagonals = [(r, r) for r in range(n)] + [(r, n - 1 - r) for r in range(n)]
    expected = counts(Problem(n, regions=[Region(diagonals, at_most=0)])).count  # the native engine
    assert get_backend("cpmpy").count(Problem(n), model=m) == expected == 12
    with pytest.raises(QueensError, match="unique=True"):
        get_backend("cpmpy").counts(Problem(n), unique=True, model=m)
    with pytest.raises(QueensError, match="different problem"):
        get_backend("cpmpy").counts(Problem(7), model=m)


def test_a_limit_gives_an_incomplete_count():
    be = get_backend("cpmpy")
    r = be.counts(Problem(8), limit=5)
    assert (r.count, r.complete) == (5, False)
    with pytest.raises(Incomplete) as info:
        be.count(Problem(8), limit=5)
    assert info.value.found == 5
    assert len(list(be.solutions(Problem(8), limit=5))) == 5
    r = be.counts(Problem(12), time_limit=0.2)  # all 14,200 take seconds
    assert 0 < r.count < 14200 and not r.complete


def test_other_solvers_and_the_command_line_flag(capsys, monkeypatch):
    assert get_backend("cpmpy").count(Problem(7, toroidal=True), cpmpy_solver="pysat") == 28
    code, out, _ = run_cli(capsys, monkeypatch, "count", 6, "--backend", "cpmpy", "--cpmpy-solver", "pysat", "--json")
    assert code == 0 and json.loads(out)["count"] == 4 and json.loads(out)["method"] == "pysat"


def test_a_missing_cpmpy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cpmpy", None)  # import cpmpy now raises ImportError
    with pytest.raises(MissingDependency, match=r'pip install "queenslab\[cpmpy\]"'):
        get_backend("cpmpy").counts(Problem(6))
    with pytest.raises(MissingDependency, match="queenslab"):
        cpmpy_model.build(Problem(6))


def test_an_unknown_solver_is_refused_with_the_installed_ones():
    with pytest.raises(QueensError, match=r"unknown CPMpy solver 'nosuch'.*ortools"):
        get_backend("cpmpy").counts(Problem(6), cpmpy_solver="nosuch")
    with pytest.raises(QueensError, match="unknown CPMpy solver"):
        cpmpy_model.solve(Problem(6), solver="nosuch")
