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

from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import interrupt, validate
from ..native import small
from ..problem import Problem
from . import walk
from .index_file import PrefixIndex
from .index_find import find_index
from .walk import as_solution, check_problem, check_rank, check_size, rank_walk, unrank_walk

if TYPE_CHECKING:
    import numpy as np

__all__ = ["rank", "unrank", "total", "batches_from", "solution_batches"]

# kept for callers of the former private names
_as_solution = as_solution
_check_rank = check_rank


def rank(problem: Problem, placement, *, index="auto", threads: int | None = None, force: bool = False) -> int:
    """The 0-based lexicographic rank of a solution.

    Parameters
    ----------
    problem : Problem
        An ``int`` is refused (write ``Problem(n)``).
    placement : sequence of int or str
        A solution of ``problem`` (0-based integer columns, or 1-based text).
    index : "auto", None/False, path or PrefixIndex
        ``"auto"`` uses a complete persistent index for this problem when one exists in
        the index directory; None or False never does; a path or an opened index uses it.
    threads : int, optional
        Threads for subtree counting (default: all cores).
    force : bool, default False
        Rank without an index even for ``n > engine.PRACTICAL_LIMIT`` (subtree counts
        of a sizeable fraction of all solutions: days and more).

    Returns
    -------
    int
        The number of solutions lexicographically smaller than ``placement``.

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a solution of ``problem`` (the message says why).
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without an index and without ``force``.
    InvalidIndex
        If the index used fails a check.

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
    check_problem(problem)
    p = as_solution(problem, placement)
    idx = open_index(problem, index)
    if idx is not None:
        return idx.rank(p, threads=threads)
    check_size(problem, force)
    if small.is_small(problem):  # a few thousand solutions at most: listed in plain Python, no numba
        return bisect_left(small.solutions_small(problem.n)[0], p)
    # the whole walk off the main thread at once (Ctrl-C stays responsive; the engine's
    # own calls inside then run in place instead of one thread each)
    return interrupt.run(rank_walk, problem, p, 0, 0, threads)


def unrank(
    problem: Problem, r: int, *, index="auto", threads: int | None = None, force: bool = False
) -> tuple[int, ...]:
    """The solution of 0-based lexicographic rank ``r``.

    Parameters
    ----------
    problem : Problem
    r : int
        ``0 <= r < number of solutions`` (an integer; a float is refused).
    index, threads, force
        As for :func:`rank`.

    Returns
    -------
    tuple of int
        0-based columns.

    Raises
    ------
    QueensError
        If ``r`` is not an integer in range (the message gives the valid range).
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without an index and without ``force``.

    See Also
    --------
    rank : the inverse.

    Examples
    --------
    >>> unrank(Problem(8), 0, index=None), unrank(Problem(8), 91, index=None)
    ((0, 4, 7, 5, 2, 6, 1, 3), (7, 3, 0, 2, 5, 1, 6, 4))
    """
    check_problem(problem)
    validate.whole_number(r, "a rank", minimum=-(2**63))
    idx = open_index(problem, index)
    if idx is not None:
        return idx.unrank(check_rank(problem, r, idx.total), threads=threads)
    check_size(problem, force)
    if small.is_small(problem):  # as in rank
        solutions = small.solutions_small(problem.n)[0]
        return solutions[check_rank(problem, r, len(solutions))]
    size = walk.total(problem, threads=threads)
    r = check_rank(problem, r, size)
    return interrupt.run(unrank_walk, problem, r, size, [], threads)


def total(problem: Problem, *, threads: int | None = None, force: bool = False) -> int:
    """The number of solutions: the known value for the standard problem (OEIS A000170),
    else counted by the native engine.

    Parameters
    ----------
    problem : Problem
    threads : int, optional
        Threads for the count (default: all cores).
    force : bool, default False
        Count even for ``n > engine.PRACTICAL_LIMIT`` when the value is not known.

    Raises
    ------
    TooLarge
        For ``n > engine.MAX_N``, or a count beyond ``engine.PRACTICAL_LIMIT`` without
        ``force`` (as :func:`queenslab.native.engine.count` refuses it).

    Examples
    --------
    >>> total(Problem(8))
    92
    """
    check_problem(problem)
    force = validate.flag(force, "force")
    if walk.known(problem) is None:
        from ..native import engine

        engine.check_size(problem, force)
    return walk.total(problem, threads=threads)


def open_index(problem: Problem, index) -> PrefixIndex | None:
    if index is None or index is False:
        return None
    if isinstance(index, PrefixIndex):
        index.check_problem(problem)
        return index
    if isinstance(index, str) and index == "auto":
        return find_index(problem)
    return PrefixIndex.open(index, problem=problem)


def batches_from(
    problem: Problem, r: int, *, batch: int = 4096, index="auto", threads=None, force: bool = False
) -> Iterator[np.ndarray]:
    """Stream the solutions of rank ``r`` onwards, in lexicographic order, as numpy
    batches -- without enumerating the ``r`` solutions before them.

    The solution ``s`` of rank ``r`` is found by :func:`unrank` (``index``, ``threads``
    and ``force`` as there); what follows it is, for ``i = n-1 .. 0``, every subtree
    ``s[:i] + [c]`` with ``c > s[i]``, in order.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.concatenate(list(batches_from(Problem(6), 2, index=None)))
    >>> (rows + 1).tolist()
    [[4, 1, 5, 2, 6, 3], [5, 3, 1, 6, 4, 2]]
    """
    import numpy as np

    from ..native import engine

    s = unrank(problem, r, index=index, threads=threads, force=force)
    n = problem.n
    yield np.array([s], dtype=np.int64)
    for i in range(n - 1, -1, -1):
        for c in range(s[i] + 1, n):
            interrupt.check()
            yield from engine.solution_batches(problem, batch=batch, prefix=list(s[:i]) + [c])


def solution_batches(
    problem: Problem,
    *,
    offset: int = 0,
    limit: int | None = None,
    batch: int = 4096,
    index="auto",
    threads: int | None = None,
    force: bool = False,
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
    batch, index, threads, force
        As for :func:`batches_from`; an ``offset`` is found by unranking, which for
        ``n > PRACTICAL_LIMIT`` needs an index or ``force``. Without an offset the
        stream starts with the first solution, whose search from the first row is
        refused beyond ``engine.FIRST_SOLUTION`` (n <= 33) unless ``force``.

    Yields
    ------
    numpy.ndarray
        0-based placements of shape (k, n), in lexicographic order.

    Examples
    --------
    >>> [(a + 1).tolist() for a in solution_batches(Problem(6), offset=1, limit=2, index=None)]
    [[[3, 6, 2, 5, 1, 4]], [[4, 1, 5, 2, 6, 3]]]
    """
    check_problem(problem)
    offset = validate.whole_number(offset, "offset", minimum=0)
    left = validate.optional_whole_number(limit, "limit")
    if left == 0:
        return
    if offset:
        idx = open_index(problem, index)
        if idx is None:
            check_size(problem, force)
        if offset >= (idx.total if idx is not None else walk.total(problem, threads=threads)):
            return
        source = batches_from(problem, offset, batch=batch, index=idx, threads=threads, force=True)
    else:
        from ..native import engine

        engine.check_first_solution(problem, force)
        # the limit goes to the engine: a batch is filled before it is handed over
        source = engine.solution_batches(problem, batch=batch, limit=left)
    for arr in source:
        if left is not None:
            arr = arr[:left]
            left -= len(arr)
        if len(arr):
            yield arr
        if left == 0:
            return
