"""Walks down the prefix tree that rank and unrank share, and a problem's total.

The rank of a solution is ``base`` plus the sizes of the subtrees of its rows' smaller
siblings (:func:`rank_walk`); unranking walks down choosing the child whose subtree holds
the wanted rank (:func:`unrank_walk`). Subtree sizes come from the native engine. Both
the index-free functions of :mod:`queenslab.ranking.lex` and the persistent index
(:mod:`queenslab.ranking.index`, which starts the walks below a stored prefix) call
these.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..d4 import D4Element
from ..data import known_total
from ..native import engine
from ..problem import Problem

__all__ = ["total", "rank_walk", "unrank_walk"]

_CMPL = D4Element(cmpl=True)


def total(problem: Problem, *, threads: int | None = None) -> int:
    """Number of solutions: the known value for the standard problem, else counted."""
    known = known_total(problem.n) if problem.is_standard else None
    if known is not None:
        return known
    return engine.count(problem, threads=threads, force=True)


def _mirror_ok(problem: Problem) -> bool:
    return problem.is_standard and known_total(problem.n) is not None and problem.n >= 2


def _children_counts(problem, prefix, upto, threads) -> list[int]:
    prefix = list(prefix)
    return engine.count_prefixes(problem, [prefix + [c] for c in range(upto)], threads=threads)


def _left_sum_row0(problem: Problem, k: int, size: int, threads) -> int:
    """Solutions whose first-row column is < k, for a mirror-symmetric problem, k <= n/2."""
    n = problem.n
    if n % 2 == 0:
        h = n // 2
        if k <= h - k:
            return sum(_children_counts(problem, [], k, threads))
        right = engine.count_prefixes(problem, [[c] for c in range(k, h)], threads=threads)
        return size // 2 - sum(right)
    m = (n - 1) // 2
    if k <= m - k + 1:
        return sum(_children_counts(problem, [], k, threads))
    right = engine.count_prefixes(problem, [[c] for c in range(k, m + 1)], threads=threads)
    middle = right[-1]
    return (size - middle) // 2 - sum(right[:-1])


def rank_walk(problem: Problem, p: Sequence[int], start: int, base: int, threads) -> int:
    """``base`` plus the left-sibling subtrees of rows ``start..n-1`` of ``p``."""
    n = problem.n
    if start == 0 and _mirror_ok(problem):
        size = known_total(n)
        assert size is not None  # _mirror_ok: the standard problem with a known total
        if p[0] > (n - 1) // 2 and not (n % 2 == 1 and p[0] == (n - 1) // 2):
            # cmpl reverses the order: rank from the mirror image
            return base + size - 1 - rank_walk(problem, _CMPL.apply(p), 0, 0, threads)
        r = _left_sum_row0(problem, p[0], size, threads)
        return base + r + rank_walk(problem, p, 1, 0, threads)
    r = base
    for i in range(start, n):
        if p[i]:
            r += sum(_children_counts(problem, p[:i], p[i], threads))
    return r


def unrank_walk(problem: Problem, r: int, size: int, prefix: list[int], threads) -> tuple[int, ...]:
    n = problem.n
    if not prefix and _mirror_ok(problem):
        if r >= (size + 1) // 2 and n >= 2:
            return _CMPL.apply(unrank_walk(problem, size - 1 - r, size, [], threads))
        # first-row column: smallest k with left_sum(k + 1) > r, searched from the
        # end that the rank is nearer to
        half = (n + 1) // 2
        if r < size // 4:
            acc = 0
            for c in range(half):
                f = engine.count_prefixes(problem, [[c]], threads=threads)[0]
                if r < acc + f:
                    return unrank_walk(problem, r - acc, size, [c], threads)
                acc += f
        else:
            # walk left from the middle: S(c) = solutions with first-row column < c
            if n % 2 == 0:
                c, s_next = n // 2, size // 2
            else:
                c = (n - 1) // 2
                middle = engine.count_prefixes(problem, [[c]], threads=threads)[0]
                s_c = (size - middle) // 2
                if s_c <= r:
                    return unrank_walk(problem, r - s_c, size, [c], threads)
                s_next = s_c
            while c > 0:
                c -= 1
                s_c = s_next - engine.count_prefixes(problem, [[c]], threads=threads)[0]
                if s_c <= r:
                    return unrank_walk(problem, r - s_c, size, [c], threads)
                s_next = s_c
        raise AssertionError("rank within range must fall in a first-row subtree")  # pragma: no cover
    prefix = list(prefix)
    while len(prefix) < n:
        counts = _children_counts(problem, prefix, n, threads)
        for c, k in enumerate(counts):
            if r < k:
                prefix.append(c)
                break
            r -= k
        else:  # pragma: no cover - the counts add up to the subtree size
            raise AssertionError("rank exceeds the subtree")
    return tuple(prefix)
