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
from queenslab.data import known_total
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
    # a time limit gives a lower bound: of the 365,596 solutions of n = 14, 3 s found 182
    # with every core shared by five busy processes, and all of them take minutes on an
    # idle machine (about two thousand a second)
    r = be.counts(Problem(14), time_limit=5)
    assert 0 < r.count < known_total(14) and not r.complete


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
        get_backend("cpmpy").solve(Problem(6), cpmpy_solver="nosuch")


def test_a_lex_leader_model_edited_after_build_is_refused_unless_declared_symmetric():
    """The edit guard of the CP-SAT and CNF models, for CPMpy: lex-leader constraints for
    D4 plus an asymmetric constraint count neither the solutions nor the orbits."""
    be = get_backend("cpmpy")
    p = Problem(8)
    lex = cpmpy_model.build(p, symmetry="lex-leader")
    assert not lex.edited and be.count(p, unique=True, model=lex) == naive.orbit_count(p) == 12
    with pytest.raises(QueensError, match="count it with unique=True"):
        be.counts(p, model=lex)  # a lex-leader model counts orbits, not solutions

    # asymmetric: the first row's queen in an even column (1-based)
    m = cpmpy_model.build(p, symmetry="lex-leader")
    m.model += [m.q[0] != c for c in range(0, 8, 2)]
    assert m.edited
    with pytest.raises(QueensError, match="added to this lex-leader model"):
        be.counts(p, unique=True, model=m)
    # what the refused count would have been: the lex-leaders of D4 that meet the edit
    leaders = [q for q in naive.all_solutions(p) if q[0] % 2 == 1 and q == min(naive.images(q))]
    assert be.count(p, unique=True, model=m, assume_symmetric=True) == len(leaders) == 7

    # symmetric: no queen on either long diagonal, the count is the edited problem's orbits
    diagonals = [(r, r) for r in range(8)] + [(r, 7 - r) for r in range(8)]
    m = cpmpy_model.build(p, symmetry="lex-leader")
    m.model += [m.q[r] != c for r, c in diagonals]
    with pytest.raises(QueensError, match="assume_symmetric=True"):
        counts(p, unique=True, model=m)
    r = counts(p, unique=True, model=m, assume_symmetric=True)
    assert (r.count, r.unique, r.backend, r.method) == (None, 2, "cpmpy", "ortools/lex-leader")
    assert r.unique == naive.orbit_count(Problem(8, regions=[Region(diagonals, at_most=0)]))


def test_a_cpmpy_model_notices_every_kind_of_edit():
    p = Problem(6, blocked=[(0, 1), (2, 3)])  # build keeps the two blocked cells as one nested list

    def nested(m):
        return next(c for c in m.model.constraints if isinstance(c, list))

    for edit in (
        lambda m: m.model.add(m.q[0] != 0),  # a constraint added (m.model += ...)
        lambda m: nested(m).append(m.q[0] != 0),  # one added inside a nested list
        lambda m: m.model.constraints.pop(),  # one removed
        lambda m: m.model.constraints.__setitem__(0, m.q[0] != 0),  # one replaced
        lambda m: m.model.minimize(m.q[0]),  # an objective
    ):
        m = cpmpy_model.build(p, symmetry="lex-leader")
        assert not m.edited
        edit(m)
        assert m.edited
    m = cpmpy_model.build(p)
    m.model += m.q[0] != 0
    assert m.edited and get_backend("cpmpy").count(p, model=m) == sum(1 for s in naive.all_solutions(p) if s[0] != 0)
