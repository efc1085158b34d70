"""The native engine against known sequences, brute force and itself."""

import itertools

import naive
import numpy as np
import pytest
from hypothesis import given, settings
from strategies import problems, symmetric_problems

from queenslab.data import known_total, known_unique
from queenslab.errors import InvalidPlacement, QueensError, TooLarge, UnsupportedProblem
from queenslab.native import engine
from queenslab.problem import Problem

# Independent sources for variants (OEIS): toroidal queens A051906, superqueens A051223.
A051906 = {1: 1, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0, 7: 28, 8: 0, 9: 0, 10: 0, 11: 88, 12: 0, 13: 4524}
A051223 = {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0, 10: 4, 11: 44, 12: 156, 13: 1876}


@pytest.mark.parametrize("n", range(1, 14))
@pytest.mark.parametrize("method", ["auto", "general"])
def test_known_counts(n, method):
    r = engine.count_both(Problem(n), method=method)
    assert r.count == known_total(n)
    assert r.unique == known_unique(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [14, 15, 16])
def test_known_counts_slow(n):
    r = engine.count_both(Problem(n))
    assert (r.count, r.unique) == (known_total(n), known_unique(n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [14, 15])
def test_general_method_matches_sequences_slow(n):
    r = engine.count_both(Problem(n), method="general")
    assert (r.count, r.unique) == (known_total(n), known_unique(n))


@pytest.mark.parametrize("n", range(1, 14))
def test_toroidal_and_superqueens_sequences(n):
    assert engine.count(Problem(n, toroidal=True)) == A051906[n]
    assert engine.count(Problem(n, knight=True)) == A051223[n]


def test_symmetric_method_visits_fewer_nodes_than_a_mirror_halved_search():
    n = 12
    sym = engine.count_both(Problem(n)).nodes
    full = engine.count_both(Problem(n), method="general", threads=1).nodes
    # a mirror-halved search visits about half the full tree
    assert sym < full / 2 / 1.8


@pytest.mark.parametrize("n", range(1, 9))
@pytest.mark.parametrize("toroidal,knight", [(False, False), (True, False), (False, True), (True, True)])
def test_every_flag_combination_against_brute_force(n, toroidal, knight):
    p = Problem(n, toroidal=toroidal, knight=knight)
    sols = naive.all_solutions(p)
    assert engine.count(p) == len(sols)
    assert engine.count(p, unique=True) == naive.orbit_count(p, sols)
    assert list(engine.solutions(p)) == sols


@given(problems(max_n=7))
def test_random_variants_against_brute_force(p):
    sols = naive.all_solutions(p)
    r = engine.count_both(p)
    assert r.count == len(sols)
    assert r.unique == naive.orbit_count(p, sols)
    assert list(engine.solutions(p, batch=3)) == sols


@given(symmetric_problems(max_n=7))
def test_unique_counts_under_subgroups(p):
    assert len(p.symmetries()) == naive.symmetry_count(p)
    sols = naive.all_solutions(p)
    assert engine.count(p, unique=True) == naive.orbit_count(p, sols)


@settings(max_examples=10)
@given(problems(min_n=8, max_n=8))
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_random_variants_n8(p):
    assert engine.count(p) == len(naive.all_solutions(p))


def test_fixed_queens_count_completions():
    # completions of a fixed queen = solutions with that cell, by filtering brute force
    p = Problem(8, fixed=[(0, 0)])
    full = naive.all_solutions(Problem(8))
    assert engine.count(p) == sum(1 for s in full if s[0] == 0)
    assert [s for s in full if s[0] == 0] == list(engine.solutions(p))


@pytest.mark.parametrize("n", [1, 4, 6, 8, 9])
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_solutions_lexicographic_and_complete(n):
    got = list(engine.solutions(Problem(n), batch=5))
    assert got == naive.all_solutions(Problem(n))
    assert got == sorted(set(got))


def test_solution_batches_are_arrays_in_order():
    batches = list(engine.solution_batches(Problem(10), batch=100))
    assert all(isinstance(b, np.ndarray) and b.dtype == np.int64 and b.shape[1] == 10 for b in batches)
    assert [len(b) for b in batches][:-1] == [100] * (len(batches) - 1)
    rows = [tuple(r) for b in batches for r in b.tolist()]
    assert len(rows) == known_total(10)
    assert rows == sorted(rows)


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_solutions_limit_and_prefix():
    assert len(list(engine.solutions(Problem(10), limit=7))) == 7
    assert list(engine.solutions(Problem(10), limit=0)) == []
    pre = [tuple(r) for b in engine.solution_batches(Problem(9), prefix=[1, 3]) for r in b.tolist()]
    assert pre == [s for s in naive.all_solutions(Problem(9)) if s[:2] == (1, 3)]


def test_solve_first_solution_or_none():
    assert engine.solve(Problem(8)) == naive.all_solutions(Problem(8))[0]
    assert engine.solve(Problem(2)) is None and engine.solve(Problem(3)) is None


@pytest.mark.parametrize("n", [5, 8, 11])
def test_count_prefix_sums_to_count(n):
    p = Problem(n)
    assert sum(engine.count_prefix(p, [c]) for c in range(n)) == known_total(n)
    assert sum(engine.count_prefix(p, [a, b]) for a in range(n) for b in range(n)) == known_total(n)


def test_count_prefix_against_brute_force_on_a_variant():
    p = Problem(7, toroidal=True, blocked=[(3, 3)])
    sols = naive.all_solutions(p)
    for pre in itertools.product(range(7), repeat=2):
        assert engine.count_prefix(p, pre) == sum(1 for s in sols if s[:2] == pre)
    for s in sols:
        assert engine.count_prefix(p, s) == 1


def test_count_prefix_nodes():
    found, nodes = engine.count_prefix(Problem(8), [], nodes=True)
    assert found == 92 and nodes > 92
    assert engine.count_prefix(Problem(8), [0, 0], nodes=True) == (0, 0)


@pytest.mark.parametrize("threads", [1, 2, 3, 7])
def test_thread_count_does_not_change_results(threads):
    a = engine.count_both(Problem(12), threads=threads)
    b = engine.count_both(Problem(11, toroidal=True, knight=False, blocked=[(0, 5)]), threads=threads)
    ref_b = engine.count_both(Problem(11, toroidal=True, blocked=[(0, 5)]), threads=1)
    assert (a.count, a.unique, a.nodes) == (
        known_total(12),
        known_unique(12),
        engine.count_both(Problem(12), threads=1).nodes,
    )
    assert (b.count, b.unique) == (ref_b.count, ref_b.unique)


def test_progress_callback_reports_every_task():
    seen = []
    engine.count_both(Problem(9), threads=2, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == list(range(1, len(seen) + 1))


def _explicit_solution(n):
    # the classical construction for n % 6 not in (2, 3): even columns, then odd ones
    assert n % 6 not in (2, 3)
    return tuple(list(range(1, n, 2)) + list(range(0, n, 2)))


def test_enumeration_uses_all_64_bits():
    n = 64
    ref = _explicit_solution(n)
    assert naive.is_solution(Problem(n), ref)
    prefix = ref[:48]
    got = next(iter(engine.solution_batches(Problem(n), prefix=prefix, limit=1)))[0].tolist()
    assert tuple(got[:48]) == prefix and naive.is_solution(Problem(n), tuple(got))
    assert tuple(got) <= ref  # lexicographically first completion
    assert engine.count_prefix(Problem(n), ref) == 1
    assert engine.count_prefix(Problem(n), [0, 1]) == 0
    with pytest.raises(TooLarge, match="64"):
        engine.solve(Problem(65))


def test_large_n_is_refused_unless_forced():
    with pytest.raises(TooLarge, match="force"):
        engine.count(Problem(engine.PRACTICAL_LIMIT + 1))
    with pytest.raises(TooLarge):
        engine.count(Problem(65), force=True)


def test_bad_arguments():
    with pytest.raises(QueensError, match="threads"):
        engine.count(Problem(8), threads=0)
    with pytest.raises(QueensError, match="method"):
        engine.count(Problem(8), method="magic")
    with pytest.raises(UnsupportedProblem, match="standard"):
        engine.count(Problem(8, toroidal=True), method="symmetric")
    with pytest.raises(InvalidPlacement, match="off the board"):
        engine.count_prefix(Problem(8), [8])
    with pytest.raises(InvalidPlacement, match="at most"):
        engine.count_prefix(Problem(4), [0, 1, 2, 3, 0])
    with pytest.raises(QueensError, match="Problem"):
        engine.count(8)
    with pytest.raises(QueensError, match="batch"):
        next(engine.solution_batches(Problem(8), batch=0))


@given(symmetric_problems(max_n=7))
def test_fundamental_solutions_are_the_orbit_minima_with_their_sizes(p):
    sols = naive.all_solutions(p)
    got = [
        (tuple(s), int(k)) for a, b in engine.fundamental_batches(p, batch=2) for s, k in zip(a.tolist(), b.tolist())
    ]
    reps = [s for s, _ in got]
    assert reps == sorted(reps) and len(reps) == naive.orbit_count(p, sols)
    assert sum(k for _, k in got) == len(sols)
    assert all(s in sols for s in reps)
    # each representative is the least of its images, and its orbit has the stated size
    for s, k in got:
        images = {g.apply(s) for g in p.symmetries()}
        assert min(images) == s and len(images) == k


@given(symmetric_problems(max_n=7))
def test_fixed_point_counts_and_burnside(p):
    sols = naive.all_solutions(p)
    counts = engine.fixed_point_counts(p)
    assert counts[0] == len(sols)
    for g, k in zip(p.symmetries(), counts):
        assert k == sum(1 for s in sols if g.apply(s) == s)
    assert sum(counts) % len(counts) == 0
    assert sum(counts) // len(counts) == engine.count(p, unique=True)


@pytest.mark.parametrize("n", range(1, 13))
def test_burnside_agrees_with_the_unique_sequence(n):
    counts = engine.fixed_point_counts(Problem(n), threads=2)
    assert counts[0] == known_total(n)
    assert sum(counts) // 8 == known_unique(n)


@pytest.mark.parametrize("problem", [Problem(10), Problem(11, toroidal=True), Problem(9, blocked=[(0, 0)])])
def test_the_general_searchs_node_count_does_not_depend_on_the_threads(problem):
    # the nodes above the split (dead ends included) are counted once, as one walk counts them
    one = engine.count_both(problem, unique=False, threads=1, method="general").nodes
    assert all(
        engine.count_both(problem, unique=u, threads=t, method="general").nodes == one
        for t in (2, 3, 8)
        for u in (False, True)
    )
