"""Lexicographic rank and unrank of solutions, without enumerating them.

The solutions of a problem, in lexicographic order, form the leaves of the prefix tree
(row 0's column first). The rank of a solution is the number of solutions to its left:
the sum, over its rows, of the sizes of the subtrees of the smaller siblings; unranking
walks down choosing the child whose subtree holds the wanted rank. Subtree sizes are
counted by the native engine (:func:`~queenslab.native.engine.count_prefixes`), or looked
up in a persistent prefix-count index (:mod:`queenslab.ranking.index`) when one exists.

Two facts keep the first row cheap when the problem has the vertical-axis reflection
(``cmpl``, ``c -> n-1-c``) among its symmetries and its total is known (the standard
problem, from OEIS A000170): ``cmpl`` reverses the lexicographic order, so
``rank(cmpl(p)) == total - 1 - rank(p)`` and only first-row columns in the left half
are ever ranked; and the left half holds exactly half of the solutions (plus half of the
middle column's for odd n), so the first-row sum is taken from whichever end needs fewer
subtrees.

Ranks are 0-based in this API; the command line shows them 1-based.

:func:`rank` and :func:`unrank` are inverse to each other::

    unrank(problem, rank(problem, p)) == p
    rank(problem, unrank(problem, r)) == r
"""

from __future__ import annotations

from typing import Sequence

from ..data import known_total
from ..errors import InvalidPlacement, QueensError
from ..native import engine
from ..problem import Problem
from ..solution import conflicts
from ..symmetry.group import D4Element

__all__ = ["rank", "unrank", "total"]

_CMPL = D4Element(cmpl=True)


def total(problem: Problem, *, threads: int | None = None) -> int:
    """Number of solutions: the known value for the standard problem, else counted."""
    if problem.is_standard and known_total(problem.n) is not None:
        return known_total(problem.n)
    return engine.count(problem, threads=threads, force=True)


def _mirror_ok(problem: Problem) -> bool:
    return problem.is_standard and known_total(problem.n) is not None and problem.n >= 2


def _as_solution(problem: Problem, placement) -> tuple[int, ...]:
    if isinstance(placement, str):
        from ..solution import parse_placement

        p = parse_placement(placement, problem.n)
    else:
        try:
            p = tuple(int(c) for c in placement)
        except (TypeError, ValueError):
            raise InvalidPlacement(f"a placement is a sequence of 0-based columns, got {placement!r}") from None
    found = conflicts(problem, p)
    if found:
        raise InvalidPlacement(
            f"not a solution of {problem.describe()}, so it has no rank: {found[0].message()}"
        )
    return p


def _check_rank(problem: Problem, r, size: int) -> int:
    if isinstance(r, bool) or not isinstance(r, int):
        try:
            import numpy as np

            if isinstance(r, np.integer):
                r = int(r)
            else:
                raise TypeError
        except TypeError:
            raise QueensError(f"a rank is an integer, got {r!r}") from None
    if size == 0:
        raise QueensError(f"{problem.describe()} has no solutions, so no rank is valid")
    if not 0 <= r < size:
        raise QueensError(
            f"rank {r} (0-based; {r + 1} counted from 1) is out of range: {problem.describe()} "
            f"has {size} solutions, so ranks are 0..{size - 1} (1..{size} on the command line)"
        )
    return r


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


def rank(problem: Problem, placement, *, index="auto", threads: int | None = None) -> int:
    """The 0-based lexicographic rank of a solution.

    Parameters
    ----------
    problem : Problem
    placement : sequence of int or str
        A solution of ``problem`` (0-based columns, or 1-based text).
    index : "auto", None/False, path or PrefixIndex
        ``"auto"`` uses a complete persistent index for this problem when one exists in
        the index directory; None or False never does; a path or an opened index uses it.
    threads : int, optional
        Threads for subtree counting (default: all cores).

    Returns
    -------
    int
        The number of solutions lexicographically smaller than ``placement``.

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a solution of ``problem`` (the message says why).

    See Also
    --------
    unrank : the inverse.

    Examples
    --------
    >>> rank(Problem(10), "2 8 10 4 1 5 9 6 3 7", index=None)  # document 000's example
    99
    >>> unrank(Problem(10), 99, index=None)
    (1, 7, 9, 3, 0, 4, 8, 5, 2, 6)
    """
    engine._check_problem(problem)
    p = _as_solution(problem, placement)
    idx = _open_index(problem, index)
    if idx is not None:
        return idx.rank(p, threads=threads)
    return _rank_walk(problem, p, 0, 0, threads)


def _rank_walk(problem: Problem, p: Sequence[int], start: int, base: int, threads) -> int:
    """``base`` plus the left-sibling subtrees of rows ``start..n-1`` of ``p``."""
    n = problem.n
    if start == 0 and _mirror_ok(problem):
        size = known_total(n)
        if p[0] > (n - 1) // 2 and not (n % 2 == 1 and p[0] == (n - 1) // 2):
            # cmpl reverses the order: rank from the mirror image
            return base + size - 1 - _rank_walk(problem, _CMPL.apply(p), 0, 0, threads)
        r = _left_sum_row0(problem, p[0], size, threads)
        return base + r + _rank_walk(problem, p, 1, 0, threads)
    r = base
    for i in range(start, n):
        if p[i]:
            r += sum(_children_counts(problem, p[:i], p[i], threads))
    return r


def unrank(problem: Problem, r: int, *, index="auto", threads: int | None = None) -> tuple[int, ...]:
    """The solution of 0-based lexicographic rank ``r``.

    Parameters
    ----------
    problem : Problem
    r : int
        ``0 <= r < number of solutions``.
    index, threads
        As for :func:`rank`.

    Returns
    -------
    tuple of int
        0-based columns.

    Raises
    ------
    QueensError
        If ``r`` is out of range (the message gives the valid range).

    See Also
    --------
    rank : the inverse.

    Examples
    --------
    >>> unrank(Problem(8), 0, index=None), unrank(Problem(8), 91, index=None)
    ((0, 4, 7, 5, 2, 6, 1, 3), (7, 3, 0, 2, 5, 1, 6, 4))
    """
    engine._check_problem(problem)
    idx = _open_index(problem, index)
    if idx is not None:
        return idx.unrank(_check_rank(problem, r, idx.total), threads=threads)
    size = total(problem, threads=threads)
    r = _check_rank(problem, r, size)
    return _unrank_walk(problem, r, size, [], threads)


def _unrank_walk(problem: Problem, r: int, size: int, prefix: list[int], threads) -> tuple[int, ...]:
    n = problem.n
    if not prefix and _mirror_ok(problem):
        if r >= (size + 1) // 2 and n >= 2:
            return _CMPL.apply(_unrank_walk(problem, size - 1 - r, size, [], threads))
        # first-row column: smallest k with left_sum(k + 1) > r, searched from the
        # end that the rank is nearer to
        half = (n + 1) // 2
        if r < size // 4:
            acc = 0
            for c in range(half):
                f = engine.count_prefixes(problem, [[c]], threads=threads)[0]
                if r < acc + f:
                    return _unrank_walk(problem, r - acc, size, [c], threads)
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
                    return _unrank_walk(problem, r - s_c, size, [c], threads)
                s_next = s_c
            while c > 0:
                c -= 1
                s_c = s_next - engine.count_prefixes(problem, [[c]], threads=threads)[0]
                if s_c <= r:
                    return _unrank_walk(problem, r - s_c, size, [c], threads)
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


def _open_index(problem: Problem, index):
    if index is None or index is False:
        return None
    from .index import PrefixIndex, find_index

    if isinstance(index, PrefixIndex):
        index.check_problem(problem)
        return index
    if index == "auto":
        return find_index(problem)
    return PrefixIndex.open(index, problem=problem)


def batches_from(problem: Problem, r: int, *, batch: int = 4096, index="auto", threads=None):
    """Stream the solutions of rank ``r`` onwards, in lexicographic order, as numpy
    batches -- without enumerating the ``r`` solutions before them.

    The solution ``s`` of rank ``r`` is found by :func:`unrank`; what follows it is, for
    ``i = n-1 .. 0``, every subtree ``s[:i] + [c]`` with ``c > s[i]``, in order.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.concatenate(list(batches_from(Problem(6), 2, index=None)))
    >>> (rows + 1).tolist()
    [[4, 1, 5, 2, 6, 3], [5, 3, 1, 6, 4, 2]]
    """
    import numpy as np

    s = unrank(problem, r, index=index, threads=threads)
    n = problem.n
    yield np.array([s], dtype=np.int64)
    for i in range(n - 1, -1, -1):
        for c in range(s[i] + 1, n):
            yield from engine.solution_batches(problem, batch=batch, prefix=list(s[:i]) + [c])
