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

from collections.abc import Iterator

import numpy as np

from .. import validate
from ..errors import InvalidPlacement, QueensError
from ..native import engine
from ..problem import Problem
from ..solution import conflicts, parse_placement
from .index import PrefixIndex, find_index
from .walk import rank_walk, total, unrank_walk

__all__ = ["rank", "unrank", "total", "batches_from", "solution_batches"]


def _as_solution(problem: Problem, placement) -> tuple[int, ...]:
    if isinstance(placement, str):
        p = parse_placement(placement, problem.n)
    else:
        try:
            p = tuple(int(c) for c in placement)
        except (TypeError, ValueError):
            raise InvalidPlacement(f"a placement is a sequence of 0-based columns, got {placement!r}") from None
    found = conflicts(problem, p)
    if found:
        raise InvalidPlacement(f"not a solution of {problem.describe()}, so it has no rank: {found[0].message()}")
    return p


def _check_rank(problem: Problem, r, size: int) -> int:
    r = validate.whole_number(r, "a rank", minimum=-(2**63))
    if size == 0:
        raise QueensError(f"{problem.describe()} has no solutions, so no rank is valid")
    if not 0 <= r < size:
        raise QueensError(
            f"rank {r} (0-based; {r + 1} counted from 1) is out of range: {problem.describe()} "
            f"has {size} solutions, so ranks are 0..{size - 1} (1..{size} on the command line)"
        )
    return r


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
    >>> rank(Problem(10), "2 8 10 4 1 5 9 6 3 7", index=None)  # N. Gupta's example
    99
    >>> unrank(Problem(10), 99, index=None)
    (1, 7, 9, 3, 0, 4, 8, 5, 2, 6)
    """
    engine.check_problem(problem)
    p = _as_solution(problem, placement)
    idx = _open_index(problem, index)
    if idx is not None:
        return idx.rank(p, threads=threads)
    return rank_walk(problem, p, 0, 0, threads)


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
    engine.check_problem(problem)
    idx = _open_index(problem, index)
    if idx is not None:
        return idx.unrank(_check_rank(problem, r, idx.total), threads=threads)
    size = total(problem, threads=threads)
    r = _check_rank(problem, r, size)
    return unrank_walk(problem, r, size, [], threads)


def _open_index(problem: Problem, index):
    if index is None or index is False:
        return None
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
    s = unrank(problem, r, index=index, threads=threads)
    n = problem.n
    yield np.array([s], dtype=np.int64)
    for i in range(n - 1, -1, -1):
        for c in range(s[i] + 1, n):
            yield from engine.solution_batches(problem, batch=batch, prefix=list(s[:i]) + [c])


def solution_batches(
    problem: Problem,
    *,
    offset: int = 0,
    limit: int | None = None,
    batch: int = 4096,
    index="auto",
    threads: int | None = None,
) -> Iterator[np.ndarray]:
    """Stream the solutions from 0-based rank ``offset`` on, at most ``limit`` of them.

    The first ``offset`` solutions are skipped by unranking, not enumerated; an offset
    at or past the number of solutions yields nothing.

    Parameters
    ----------
    problem : Problem
    offset : int, default 0
        Rank of the first solution streamed.
    limit : int, optional
        At most this many solutions (default all).
    batch, index, threads
        As for :func:`batches_from`.

    Yields
    ------
    numpy.ndarray
        0-based placements of shape (k, n), in lexicographic order.

    Examples
    --------
    >>> [(a + 1).tolist() for a in solution_batches(Problem(6), offset=1, limit=2, index=None)]
    [[[3, 6, 2, 5, 1, 4]], [[4, 1, 5, 2, 6, 3]]]
    """
    engine.check_problem(problem)
    offset = validate.whole_number(offset, "offset", minimum=0)
    left = validate.optional_whole_number(limit, "limit")
    if left == 0:
        return
    if offset:
        if offset >= total(problem, threads=threads):
            return
        source = batches_from(problem, offset, batch=batch, index=index, threads=threads)
    else:
        source = engine.solution_batches(problem, batch=batch)
    for arr in source:
        if left is not None:
            arr = arr[:left]
            left -= len(arr)
        if len(arr):
            yield arr
        if left == 0:
            return
