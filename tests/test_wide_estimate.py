"""The wide estimator (queenslab.native.wide_estimate): boards beyond the 64-bit rows.

At n <= 64 the wide kernels are forced through ``queenslab.estimate._FORCE_WIDE`` and
held to what the 64-bit kernels give (the same numbers, bit for bit: the same random
numbers, choices and sums) and to exact counts written out here (OEIS A000170 and
A051906) and the engine's node counts: the nominal 95% interval covers the count in at
least 90% of 200 seeds, the mean of the estimates lies within its standard error band.
Beyond 64 columns there is no exact count: an estimate at n = 100 is finite with a
relative standard error, the same for a seed on any number of threads, and the scaling
that keeps its squares from overflowing changes no digit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import all_solutions

import queenslab.estimate as E
from queenslab import Problem
from queenslab.errors import TooLarge
from queenslab.estimate import METHODS, estimate
from queenslab.native import engine, kernels as K, wide_estimate as W

#: OEIS A000170 (solutions of the standard board), typed in.
A000170 = {8: 92, 10: 724, 11: 2680, 12: 14200}
#: OEIS A051906 (solutions of the toroidal board), typed in.
A051906 = {5: 10, 7: 28, 11: 88, 13: 4524}


@pytest.fixture
def wide(monkeypatch):
    """Force the wide kernels at n <= 64."""
    monkeypatch.setattr(E, "_FORCE_WIDE", True)


def both(problem: Problem, monkeypatch, **kwargs):
    """(the 64-bit estimate, the wide estimate) with the same arguments."""
    monkeypatch.setattr(E, "_FORCE_WIDE", False)
    narrow = estimate(problem, **kwargs)
    monkeypatch.setattr(E, "_FORCE_WIDE", True)
    return narrow, estimate(problem, **kwargs)


def numbers(e):
    return (e.estimate, e.stderr, e.low, e.high, e.nodes_estimate, e.nodes_stderr, e.probes, e.strata, e.method)


@pytest.mark.parametrize(
    "problem", [Problem(12), Problem(13, toroidal=True), Problem(20), Problem(19, toroidal=True), Problem(60)], ids=str
)
@pytest.mark.parametrize("method", METHODS)
def test_the_wide_kernels_give_the_64_bit_numbers_bit_for_bit(problem, method, monkeypatch):
    narrow, wide_ = both(problem, monkeypatch, method=method, samples=20_000, seed=3, threads=1)
    assert not narrow.exact and numbers(wide_) == numbers(narrow)


@pytest.mark.parametrize(("n", "toroidal"), [(8, False), (10, False), (5, True), (7, True), (11, True)])
def test_a_small_tree_is_counted_exactly_through_the_wide_kernels(n, toroidal, wide):
    p = Problem(n, toroidal=toroidal)
    e = estimate(p, threads=1)
    assert e.exact and e.method == "exhaustive"
    assert e.count == (A051906 if toroidal else A000170)[n]
    assert e.nodes == engine.count_both(p, unique=False, threads=1, method="general").nodes


def calibrate(problem: Problem, count: int, method: str, samples: int, seeds: int = 200):
    """(coverage of the 95% intervals, z of the mean estimate, z of the mean node estimate)."""
    nodes = engine.count_both(problem, unique=False, threads=1, method="general").nodes
    runs = [estimate(problem, method=method, samples=samples, seed=s, threads=1) for s in range(seeds)]
    assert not any(r.exact for r in runs), "the tree was counted exactly: nothing calibrated"
    covered = np.mean([r.low <= count <= r.high for r in runs])
    est = np.array([r.estimate for r in runs])
    nod = np.array([r.nodes_estimate for r in runs])
    z = (est.mean() - count) / (est.std(ddof=1) / math.sqrt(seeds))
    zn = (nod.mean() - nodes) / (nod.std(ddof=1) / math.sqrt(seeds))
    return covered, z, zn


@pytest.mark.parametrize(
    ("n", "toroidal", "method", "samples"),
    [(10, False, "knuth", 4000), (12, False, "knuth", 4000), (11, True, "knuth", 4000)],
)
def test_the_95_percent_interval_covers_the_published_count(n, toroidal, method, samples, wide):
    count = (A051906 if toroidal else A000170)[n]
    covered, z, zn = calibrate(Problem(n, toroidal=toroidal), count, method, samples)
    assert covered >= 0.90, covered
    assert abs(z) < 3.5, z
    assert abs(zn) < 3.5, zn


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "toroidal", "method", "samples"),
    [(11, False, "partial", 1000), (13, True, "stratified", 3000), (12, False, "stratified", 3000)],
)
def test_the_95_percent_interval_covers_the_published_count_more_cases(n, toroidal, method, samples, wide):
    count = (A051906 if toroidal else A000170)[n]
    covered, z, zn = calibrate(Problem(n, toroidal=toroidal), count, method, samples)
    assert covered >= 0.90, covered
    assert abs(z) < 3.5, z
    assert abs(zn) < 3.5, zn


def test_the_published_counts_typed_in_agree_with_brute_force():
    # brute force at n = 8 (n = 10 takes minutes); the engine's general walk beyond
    assert len(all_solutions(Problem(8))) == A000170[8]
    for n in (10, 11, 12):
        assert engine.count_both(Problem(n), unique=False, threads=1, method="general").count == A000170[n]
    for n in (5, 7):
        assert len(all_solutions(Problem(n, toroidal=True))) == A051906[n]
    for n in (11, 13):
        assert (
            engine.count_both(Problem(n, toroidal=True), unique=False, threads=1, method="general").count == A051906[n]
        )


@pytest.mark.parametrize(("n", "toroidal"), [(8, False), (11, False), (7, True), (13, True)])
def test_the_strata_are_the_walks_prefixes(n, toroidal):
    p = Problem(n, toroidal=toroidal)
    walk, mine = engine.Walker(p), W.Prefixes(p)
    for d in (1, 2, 3):
        assert np.array_equal(mine.prefixes(d), walk.prefixes(d))
        assert mine.run((), K.COUNT, stop=d) == walk.run((), K.COUNT, stop=d)


def test_the_wide_problems():
    assert W.supports(Problem(100)) and W.supports(Problem(101, toroidal=True)) and W.supports(Problem(200))
    for p in (Problem(201), Problem(100, knight=True), Problem(70, blocked=[(0, 0)]), Problem(70, fixed=[(0, 0)])):
        assert not W.supports(p)


def test_a_board_of_a_hundred_columns_is_estimated():
    e = estimate(Problem(100), samples=50_000, seed=1, threads=2)
    assert e.method == "stratified" and not e.exact and e.strata > 1
    assert math.isfinite(e.estimate) and 0 < e.low < e.estimate < e.high and math.isfinite(e.high)
    assert 0 < e.relative_stderr < 0.5 and math.isfinite(e.nodes_estimate) and e.nodes_estimate > e.estimate
    # Simkin's asymptotics, the only reference at this size: ln Q(n) / n = ln n - 1.942 + o(1)
    assert abs(math.log(e.estimate) / 100 - (math.log(100) - 1.942)) < 0.1


def test_a_toroidal_board_beyond_64_columns_runs():
    # no probe may reach a solution (the growth experiment then says "too uncertain")
    e = estimate(Problem(101, toroidal=True), samples=20_000, seed=1, threads=1)
    assert not e.exact and e.estimate >= 0 and math.isfinite(e.stderr) and e.nodes_estimate > 0


def test_same_seed_same_answer_on_any_number_of_threads_at_n_100():
    runs = [estimate(Problem(100), method=m, samples=40_000, seed=5, threads=t) for m in METHODS for t in (1, 2)]
    for a, b in zip(runs[::2], runs[1::2], strict=True):
        assert numbers(a) == numbers(b)
    other = estimate(Problem(100), method="stratified", samples=40_000, seed=6, threads=2)
    assert other.estimate != runs[-1].estimate


def test_counting_in_a_power_of_two_changes_no_digit():
    # the kernel at n = 70 with the shift the estimator uses against no shift: the same
    # sums times 2**shift (exact in floating point while neither overflows)
    n, shift = 70, W.shift(70, False)
    assert shift > 50
    width = E.stratum_widths(n, "stratified")
    prefixes = W.Prefixes(Problem(n)).prefixes(1)
    counts = np.full(len(prefixes), 4, np.int64)
    outs = []
    for k in (0, shift):
        out = np.zeros((len(prefixes), W.COLUMNS))
        W.probe_strata(
            np.array([n, 0, 0, k], np.int64), width, prefixes, counts, np.uint64(9), out, np.zeros(1, np.int64)
        )
        outs.append(out)
    for col, power in ((W.SUM, 1), (W.M2, 2), (W.NSUM, 1), (W.NM2, 2)):
        assert np.array_equal(outs[1][:, col] * 2.0 ** (power * shift), outs[0][:, col])
    assert np.array_equal(outs[1][:, W.RANDOM], outs[0][:, W.RANDOM])


@pytest.mark.parametrize(
    ("problem", "match"),
    [
        (Problem(65, knight=True), "beyond n = 64 only the standard and the plain toroidal problem"),
        (Problem(80, blocked=[(0, 0)]), "other variants hold their constraints in 64-bit rows"),
        (Problem(201), "up to n = 200"),
        (Problem(203, toroidal=True), "exceeds a double"),
    ],
    ids=str,
)
def test_beyond_the_wide_kernels_is_too_large(problem, match):
    with pytest.raises(TooLarge, match=match):
        estimate(problem, samples=100)


def test_the_switch_leaves_variants_on_the_64_bit_kernels(wide):
    # a variant cannot take the wide path; with the switch on it is estimated as before
    p = Problem(12, knight=True)
    runner = E.ProbeRunner(p, E.stratum_widths(12, "knuth"), np.zeros((1, 0), np.int64), 0)
    assert runner.kernels is not W and not E._wide(p) and E._wide(Problem(12))
