"""The half-board join on problems whose only constraints are blocked cells and fixed
queens: totals and orbits against brute force and the general search, the row splits
reduced by the reflections that keep the allowed cells, and the routing (auto, method
"join", crosscheck's rows, the split of a distributed count)."""

import random

import naive
import numpy as np
import pytest

from queenslab.backends import get_backend
from queenslab.compiled import compile_problem
from queenslab.errors import QueensError, TooLarge, UnsupportedProblem
from queenslab.native import engine, join, join_kernels as JK
from queenslab.problem import Problem, Region

HALT = np.zeros(1, np.int64)


def random_problem(rng: random.Random, n: int) -> Problem:
    """Blocked cells (none to 2n) and fixed queens (none to 2), often consistent."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    blocked = rng.sample(cells, rng.randint(0, 2 * n))
    fixed = rng.sample(cells, rng.choice([0, 0, 1, 1, 2]))
    return Problem(n, blocked=blocked, fixed=fixed)


def symmetric_problems(n: int) -> list[Problem]:
    """Patterns kept by some of the reflections and rotations (reduced row splits,
    orbits under larger subgroups)."""
    last = n - 1
    return [
        Problem(n, blocked=[(0, 0), (0, last), (last, 0), (last, last)]),  # all of D4
        Problem(n, blocked=[(0, 1), (last, 1)]),  # north-south only
        Problem(n, blocked=[(1, 0), (1, last)]),  # east-west only
        Problem(n, blocked=[(0, 1), (last, last - 1)]),  # the half turn only
        Problem(n, blocked=[(0, 1), (1, last), (last, last - 1), (last - 1, 0)]),  # the quarter turns
        Problem(n, blocked=[(n // 2, n // 2)]),  # the centre
    ]


def general_total(p: Problem) -> int:
    return engine.count_both(p, unique=False, method="general", threads=1).count


@pytest.mark.parametrize("n", range(4, 9))
def test_random_patterns_against_brute_force(n):
    rng = random.Random(1000 + n)
    for _ in range(12):
        p = random_problem(rng, n)
        sols = naive.all_solutions(p)
        assert join.problem_total(p, threads=1) == len(sols) == general_total(p), p
        r, classes = join.problem_classes(p, threads=1)
        assert r.unique == naive.orbit_count(p, sols) and r.count == len(sols), p
        assert sum(size * k for size, k in classes.items()) == len(sols)


@pytest.mark.parametrize("n", range(4, 12))
def test_random_patterns_against_the_general_search(n):
    rng = random.Random(n)
    for _ in range(15):
        p = random_problem(rng, n)
        assert join.problem_total(p, threads=1) == general_total(p), p


@pytest.mark.parametrize("n", range(4, 12))
def test_symmetric_patterns_orbits_against_the_general_search(n):
    for p in symmetric_problems(n):
        r, classes = join.problem_classes(p, threads=1)
        g, g_classes = engine.count_classes(p, method="general", threads=1)
        assert (r.count, r.unique, classes) == (g.count, g.unique, g_classes), p
        assert r.method == "join" and r.nodes is None


@pytest.mark.parametrize("n", [5, 6, 7])
def test_symmetric_patterns_against_brute_force(n):
    for p in symmetric_problems(n):
        sols = naive.all_solutions(p)
        r, _ = join.problem_classes(p, threads=1)
        assert (r.count, r.unique) == (len(sols), naive.orbit_count(p, sols)), p


@pytest.mark.parametrize("n", [12, 13, 14])
def test_larger_boards_against_the_general_search(n):
    rng = random.Random(7 * n)
    cells = [(r, c) for r in range(n) for c in range(n)]
    solution = engine.solve(Problem(n))
    problems = [
        Problem(n, blocked=rng.sample(cells, n)),
        Problem(n, fixed=[(2, solution[2])], blocked=rng.sample(cells, 3)),
        symmetric_problems(n)[0],
    ]
    for p in problems:
        r = engine.count_both(p, method="join", threads=2)
        g = engine.count_both(p, method="general", threads=2)
        assert (r.count, r.unique) == (g.count, g.unique), p


def test_the_row_splits_reduced_by_the_kept_reflections_weigh_as_all_of_them():
    for n in (7, 8, 9):
        for p in symmetric_problems(n):
            allowed = compile_problem(p).allowed.astype(np.int64)
            flags = join._reflections(allowed, n)
            every = JK.masked_join_tasks(n, allowed, False, False, False)
            reduced = JK.masked_join_tasks(n, allowed, *flags)
            assert set(every[:, 2]) == {1}
            assert reduced[:, 2].sum() == len(every)
            if any(flags):
                assert len(reduced) < len(every)


def test_the_standard_masks_give_the_standard_tables_and_splits():
    for n in (8, 9, 12, 13):
        every = np.full(n, (1 << n) - 1, np.int64)
        for a, b in zip(JK.quarter_tables(n, HALT), JK.masked_quarter_tables(n, every, HALT)):
            assert np.array_equal(a, b)
        assert JK.fixed_counts(n, HALT) == JK.masked_fixed_counts(n, every, HALT)


def test_contradictory_constraints_count_nothing():
    problems = [
        Problem(8, fixed=[(0, 0), (1, 1)]),  # attacking fixed queens
        Problem(8, fixed=[(0, 0), (0, 3)]),  # two in one row
        Problem(8, fixed=[(2, 3)], blocked=[(2, 3)]),  # a fixed queen on a blocked cell
        Problem(14, fixed=[(0, 0), (5, 5)]),
        Problem(9, blocked=[(4, c) for c in range(9)]),  # a row without an allowed cell
    ]
    for p in problems:
        assert join.problem_total(p) == 0 == general_total(p)
        r, classes = join.problem_classes(p)
        assert (r.count, r.unique) == (0, 0) and set(classes.values()) == {0}


def test_small_boards():
    assert join.problem_total(Problem(1, blocked=[(0, 0)])) == 0
    assert join.problem_total(Problem(1, fixed=[(0, 0)])) == 1
    assert join.problem_classes(Problem(1, fixed=[(0, 0)]))[1] == engine.count_classes(Problem(1, fixed=[(0, 0)]))[1]
    for n in (2, 3):
        assert join.problem_total(Problem(n, blocked=[(0, 0)])) == 0


def test_threads_do_not_change_the_total():
    p = Problem(12, blocked=[(0, 3), (4, 4), (7, 1), (11, 10)])
    assert join.problem_total(p, threads=1) == join.problem_total(p, threads=2) == general_total(p)


def test_auto_picks_the_join_from_the_measured_free_rows():
    k = engine.JOIN_VARIANTS_FROM
    assert engine.chosen_method(Problem(k, blocked=[(0, 1)])) == "join"
    assert engine.chosen_method(Problem(k - 1, blocked=[(0, 1)])) == "general"
    solution = engine.solve(Problem(k + 1))
    one_fixed = Problem(k + 1, fixed=[(3, solution[3])])
    two_fixed = Problem(k + 1, fixed=[(3, solution[3]), (5, solution[5])])
    assert engine.chosen_method(one_fixed) == "join" and engine.chosen_method(two_fixed) == "general"
    r = engine.count_both(Problem(k, blocked=[(0, 1), (5, 5)]), unique=False)
    assert r.method == "join" and r.count == general_total(Problem(k, blocked=[(0, 1), (5, 5)]))
    # the standard problem's choice is unchanged
    assert engine.chosen_method(Problem(engine.JOIN_FROM - 1)) == "symmetric"
    assert engine.chosen_method(Problem(engine.JOIN_FROM)) == "join"


def test_other_variants_are_not_joined():
    region = Region([(0, 0), (1, 1)], at_most=1)
    for p in (
        Problem(14, blocked=[(0, 1)], toroidal=True),
        Problem(14, blocked=[(0, 1)], knight=True),
        Problem(14, fixed=[(0, 1)], leapers=[(1, 3)]),
        Problem(14, blocked=[(0, 1)], regions=[region]),
    ):
        assert not join.counts(p)
        assert engine.chosen_method(p) == "general"
        with pytest.raises(UnsupportedProblem, match="blocked cells and fixed queens"):
            engine.count_both(p, method="join")
        with pytest.raises(UnsupportedProblem):
            join.problem_total(p)


def test_memory_checks():
    big = Problem(21, blocked=[(0, 1)])
    # the standard problem's estimate is unchanged, a variant's holds every row split
    assert join.check_problem(Problem(21), threads=1, force=True).n == 21
    with pytest.raises(TooLarge, match="memory"):
        join.check_problem(big, threads=128, force=True)
    with pytest.raises(TooLarge, match="memory"):
        engine.count_both(big, method="join", threads=128, force=True)
    assert engine.chosen_method(big, threads=128) == "general"  # auto: beyond the budget
    with pytest.raises(TooLarge, match="practical limit"):
        join.problem_total(Problem(19, blocked=[(0, 1)]), threads=1)
    with pytest.raises(TooLarge, match="beyond the join"):
        join.problem_total(Problem(26, blocked=[(0, 1)]))
    with pytest.raises(QueensError, match="Problem"):
        join.problem_total(8)


def test_crosscheck_keeps_an_independent_second_row():
    be = get_backend("native")
    p = Problem(9, blocked=[(0, 0)], fixed=[(4, 2)])
    assert be.independent_counts(p) == [{"method": "join"}, {"method": "general"}]
    assert be.independent_counts(Problem(9, toroidal=True)) == [{}]
    rows = [be.counts(p, unique=True, **opts) for opts in be.independent_counts(p)]
    assert [r.method for r in rows] == ["join", "general"]
    assert rows[0].count == rows[1].count and rows[0].unique == rows[1].unique


def test_a_variant_is_never_split_into_join_tasks(tmp_path):
    from queenslab import distributed

    k = engine.JOIN_VARIANTS_FROM
    p = Problem(k, blocked=[(0, 1), (3, 3)])
    assert engine.chosen_method(p, threads=1) == "join"  # what the distributed count consults
    with pytest.raises(UnsupportedProblem, match="the join splits the standard problem only"):
        engine.split_tasks(p, method="join")  # refused, never re-decided
    method, _depth, tasks = engine.split_tasks(p, method="auto")
    assert method == "general" and all(len(t) >= 1 for t in tasks)
    with pytest.raises(UnsupportedProblem):
        engine.count_task(p, "join", (0, 1))
    ledger = tmp_path / "variant.ledger"
    r = distributed.count(p, ledger=str(ledger), threads=2, unique=True)
    g = engine.count_both(p, method="general")
    assert r.method.startswith("general@") and (r.count, r.unique) == (g.count, g.unique)


def test_a_split_count_of_a_join_variant_can_be_verified_by_the_general_search():
    # the split is by prefixes, so the general search may recount its tasks
    from queenslab import distributed

    p = Problem(engine.JOIN_VARIANTS_FROM, blocked=[(0, 1), (3, 3)])
    r = distributed.count(p, verify=2, verify_method="general", threads=2, unique=True)
    g = engine.count_both(p, method="general", unique=True)
    assert r.split.startswith("general") and r.verified == 2 and not r.disagreements
    assert (r.count, r.unique) == (g.count, g.unique)
