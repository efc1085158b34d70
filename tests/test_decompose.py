"""Totals from smaller counts: Burnside's lemma and the torus's translations, as the
solver backends use them (``total_by``), against the brute-force oracle."""

from __future__ import annotations

import importlib.util

import naive
import pytest

from queenslab import Problem, Region, backends
from queenslab.d4 import element
from queenslab.errors import QueensError
from queenslab.models import cnf
from queenslab.symmetry.decompose import total_from_orbits, translation_invariant

SOLVERS = ["sat", "ganak"] + (["d4"] if importlib.util.find_spec("aspmc") else [])

PROBLEMS = [
    Problem(8),
    Problem(7, toroidal=True),
    Problem(6, blocked=((0, 0),)),  # the main-diagonal reflection only
    Problem(7, leapers=((1, 2),)),
    Problem(6, regions=(Region([(0, 0), (5, 5), (0, 5), (5, 0)], at_most=1),)),
]


@pytest.mark.parametrize("backend", SOLVERS)
@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.describe())
def test_burnside_gives_the_oracles_total(problem, backend):
    if backend == "ganak" and problem.n > 7:
        pytest.skip("Ganak takes seconds per model beyond n = 7")
    r = backends.counts(problem, unique=True, backend=backend, total_by="burnside")
    assert (r.count, r.unique) == naive.counts_and_orbits(problem)
    assert r.method.endswith("/burnside") and r.derivation.startswith("total = ")
    assert f"{len(problem.symmetries())} x {r.unique:,} orbits" in r.derivation


@pytest.mark.parametrize("backend", SOLVERS)
@pytest.mark.parametrize("problem", [Problem(5, toroidal=True), Problem(7, toroidal=True, leapers=((1, 3),))])
def test_translations_give_the_oracles_total(problem, backend):
    r = backends.counts(problem, backend=backend, total_by="translations")
    solutions = naive.all_solutions(problem)
    assert r.count == len(solutions)
    first = sum(1 for s in solutions if s[0] == 0)
    assert r.derivation.startswith(f"total = {problem.n} x {first:,} solutions")


def test_translations_give_the_native_total_of_a_larger_torus():
    p = Problem(13, toroidal=True)
    assert backends.count(p, backend="sat", total_by="translations") == backends.count(p, backend="native")


@pytest.mark.parametrize("n", [6, 8])
def test_the_fixed_point_models_count_what_each_rotation_fixes(n):
    p = Problem(n)
    for name, turns in (("rotate-90", 1), ("rotate-180", 2), ("rotate-270", 3)):
        found = backends.count(p, model=cnf.build(p, fixed_by=element(name)), backend="sat")
        assert found == naive.fixed_by_turn(p, turns), name
    for name in ("reflect-vertical-axis", "reflect-main-diagonal"):
        assert backends.count(p, model=cnf.build(p, fixed_by=element(name)), backend="sat") == 0


@pytest.mark.parametrize("problem", [Problem(12), Problem(11, toroidal=True), Problem(10, blocked=((0, 0),))])
def test_the_fixed_point_models_count_what_the_native_engine_finds_fixed(problem):
    from queenslab.symmetry.orbits import burnside

    native = burnside(problem, check=False).by_name()
    for g in problem.symmetries()[1:]:
        assert backends.count(problem, model=cnf.build(problem, fixed_by=g), backend="sat") == native[g.po], g.name


def test_a_symmetry_the_problem_does_not_have_is_refused():
    p = Problem(6, blocked=((0, 0),))
    with pytest.raises(QueensError, match="fixed_by must be one of the problem's symmetries"):
        cnf.build(p, fixed_by=element("rotate-90"))


def test_translations_only_where_the_column_shift_maps_solutions_onto_solutions():
    assert translation_invariant(Problem(7, toroidal=True, leapers=((1, 2),)))
    assert not translation_invariant(Problem(7, toroidal=True, blocked=((0, 0),)))
    assert not translation_invariant(Problem(7))
    with pytest.raises(QueensError, match="the shift of the columns does not map"):
        backends.count(Problem(8), backend="sat", total_by="translations")


def test_inconsistent_counts_are_an_error_not_a_total():
    fixed = {g: 0 for g in Problem(8).symmetries()[1:]}
    assert total_from_orbits(12, {**fixed, element("rotate-180"): 4}) == 92
    with pytest.raises(QueensError, match="inconsistent"):
        total_from_orbits(1, {**fixed, element("rotate-180"): 9})


def test_a_limit_or_a_given_model_does_not_go_with_a_decomposition():
    with pytest.raises(QueensError, match="limit"):
        backends.counts(Problem(8), backend="sat", total_by="burnside", limit=5)
    with pytest.raises(QueensError, match="given model is counted as it is"):
        backends.counts(Problem(8), backend="sat", total_by="burnside", model=cnf.build(Problem(8)))


def test_a_crosscheck_takes_burnside_when_the_direct_count_would_not_fit():
    """The choice is made from the predicted cost (rates declared by the backend), so it
    does not depend on how busy the machine is."""
    from queenslab.backends.crosscheck import CrosscheckRow, _within_budget
    from queenslab.backends.registry import get_backend

    native = CrosscheckRow("native", 365596, 45752, 0.2)  # the standard n = 14 (OEIS A000170 / A002562)
    opts, reach = _within_budget(get_backend("sat"), Problem(14), True, {}, [native], 60.0)
    assert opts == {"total_by": "burnside"} and "by Burnside's lemma (45,752 orbits" in reach
    opts, reach = _within_budget(get_backend("sat"), Problem(14), True, {}, [native], 1000.0)
    assert opts == {} and reach is None  # the direct count fits: nothing to decide
    torus = CrosscheckRow("native", 4524, 572, 0.1)  # the toroidal n = 13 (OEIS A051906)
    opts, reach = _within_budget(get_backend("sat"), Problem(13, toroidal=True), True, {}, [torus], 3.0)
    assert opts == {"total_by": "translations"} and "translations" in reach


def test_a_crosscheck_row_says_how_its_total_was_obtained():
    from queenslab.backends.crosscheck import crosscheck

    r = crosscheck(Problem(12), ["native", "sat"], time_limit=12.0)
    (sat,) = [row for row in r.rows if row.backend == "sat"]
    assert sat.method.endswith("/burnside") and sat.reach and "Burnside's lemma" in sat.reach
    assert sat.derivation.startswith("total = 8 x 1,787 orbits") and r.verdict == "agree"
