"""Tests of the seed-document counters (queenslab.native.seeds)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from queenslab.data import known_total
from queenslab.errors import QueensError
from queenslab.native.seeds import MAX_N, SeedAlgorithm, count_with

ALGORITHMS = list(SeedAlgorithm)


def brute_force(n: int) -> int:
    """Count permutations of 0..n-1 with no two queens on a common diagonal."""
    total = 0
    for perm in itertools.permutations(range(n)):
        if len({r + c for r, c in enumerate(perm)}) == n and len({r - c for r, c in enumerate(perm)}) == n:
            total += 1
    return total


BRUTE = {n: brute_force(n) for n in range(1, 8)}


def test_brute_force_matches_known_counts():
    assert all(BRUTE[n] == known_total(n) for n in BRUTE)


@pytest.mark.parametrize("algorithm", ALGORITHMS, ids=[a.value for a in ALGORITHMS])
def test_known_counts(algorithm):
    got = {n: count_with(algorithm, n) for n in range(1, 12)}
    assert got == {n: known_total(n) for n in range(1, 12)}
    assert all(type(v) is int for v in got.values())


@pytest.mark.parametrize("algorithm", ALGORITHMS, ids=[a.value for a in ALGORITHMS])
def test_brute_force_counts(algorithm):
    for n, expected in BRUTE.items():
        assert count_with(algorithm.value, n) == expected, (algorithm, n)


def test_members_and_descriptions():
    assert [a.value for a in SeedAlgorithm] == [
        "plain",
        "basic",
        "backtracking-v1",
        "backtracking-v2",
        "filtering-v1",
        "filtering-v2",
        "bitwise",
    ]
    for a in SeedAlgorithm:
        assert a.description and "\n" not in a.description


def test_string_and_numpy_integer_accepted():
    assert count_with("bitwise", np.int64(8)) == 92
    assert count_with(SeedAlgorithm.BITWISE, 12) == count_with("filtering-v2", 12) == 14200


@pytest.mark.parametrize("n", [0, -1, MAX_N + 1, 100, 2.0, 8.5, "8", None, True])
def test_bad_n(n):
    with pytest.raises(QueensError, match="n must be an integer from 1 to 32"):
        count_with("basic", n)


@pytest.mark.parametrize("algorithm", ["Basic", "wirth", "", None, 3, "filtering_v2"])
def test_bad_algorithm(algorithm):
    with pytest.raises(QueensError, match="unknown seed algorithm") as info:
        count_with(algorithm, 8)
    assert "'filtering-v2'" in str(info.value)


def test_boards_beyond_the_practical_limit_need_force():
    from queenslab.errors import TooLarge
    from queenslab.native.seeds import PRACTICAL_LIMIT

    with pytest.raises(TooLarge, match="force=True"):
        count_with("plain", PRACTICAL_LIMIT + 1)
    with pytest.raises(QueensError):
        count_with("bitwise", 8, force="yes")
    with pytest.raises(QueensError, match="unknown seed algorithm"):
        count_with(np.array(["plain", "basic"]), 8)
