"""k queens on an r x c board in the native engine: the wrapper of
:func:`~queenslab.native.board_kernels.board_search`.

It builds the kernel's arrays from the compiled form of a board whose rows may stay empty
or a rectangle (:func:`~queenslab.compiled.compile_problem` with ``boards=True``), counts
(with the orbits under the board's group, tallied by size), and streams the solutions in
lexicographic order (an empty row, ``-1``, after every column). It counts n queens on
n x n too, by the same search, which the tests compare with the other methods.

Examples
--------
>>> from queenslab import Problem
>>> count(Problem(4, queens=2)).count            # OEIS A036464: 2 queens on 4 x 4
44
>>> next(solutions(Problem(2, columns=3, queens=1)))
(0, -1)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import interrupt, limits, validate
from ..compiled import BITBOARD_MAX_N, CompiledProblem, compile_problem
from ..errors import TooLarge
from ..problem import Problem, as_problem
from ..result import CountResult
from . import board_kernels as BK

__all__ = ["BOARD_COUNT", "check_board", "check_reach", "work", "count", "classes", "solutions"]

#: The practical limit of a board count, on :func:`work`.
BOARD_COUNT = limits.declare(
    "counting k queens on an r x c board",
    10**9,
    "placements searched",
    "the bound counts the placements of all queens but the last in distinct rows and columns; the search "
    "visits fewer, one core covers about 15 million of the bound a second: 4 queens on 40 x 40 (590 million) "
    "took 40 s",
)


def check_board(problem: Problem) -> CompiledProblem:
    """The compiled form of ``problem`` for the board search; TooLarge beyond 64 rows or columns."""
    problem = as_problem(problem)
    if max(problem.n, problem.columns) > BITBOARD_MAX_N:
        raise TooLarge(
            f"the native engine holds a row in 64 bits: {problem.n} rows by {problem.columns} columns is too large "
            f"(at most {BITBOARD_MAX_N} of each); the cpsat and sat backends take larger boards"
        )
    return compile_problem(problem, boards=True)


def work(problem: Problem, unique: bool = False) -> int:
    """An upper bound of the placements the search visits: the placements of ``k - 1``
    queens in distinct rows and columns (their last queen is counted row by row), of
    ``k`` for the orbits (each solution is compared with its images), at least 1."""
    problem = as_problem(problem)
    n, m, k = problem.n, problem.columns, problem.queens
    j = k if unique else max(k - 1, 0)
    if j > min(n, m):
        return 1
    return max(1, math.comb(n, j) * math.perm(m, j))


def check_reach(problem: Problem, force: bool = False, unique: bool = False) -> None:
    """Refuse a board count beyond :data:`BOARD_COUNT` (:func:`work`) unless ``force``."""
    size = work(problem, validate.flag(unique, "unique"))
    limits.check(
        BOARD_COUNT,
        size,
        validate.flag(force, "force"),
        request=f"counting {problem.describe()}{' with its orbits' if unique else ''} (up to {size:,} placements)",
        hint="the total alone is counted about n times faster than with the orbits" if unique else "",
    )


def _arrays(c: CompiledProblem) -> tuple[np.ndarray, ...]:
    """``allowed, must_after, leap_rows, leap_masks, region_masks, region_bounds``."""
    n = c.n
    must = np.zeros(n + 1, np.int64)
    for r, _ in c.fixed:
        must[: r + 1] += 1  # rows r' <= r see the fixed queen of row r at or below them
    return (c.allowed, must, c.leap_rows, c.leap_masks, c.region_masks, c.region_bounds)


def _search(c: CompiledProblem, mode: int, skip: int = 0, out: np.ndarray | None = None, sizes=None):
    # the same array types in every mode (the group read-only, as compiled; the
    # buffers writable): numba compiles the kernel once
    opts = np.array([c.n, c.width, c.queens, int(c.toroidal), mode, skip], np.int64)
    out = np.zeros((0, c.n), np.int64) if out is None else out
    sizes = np.zeros(len(c.group) + 1, np.int64) if sizes is None else sizes
    search: Any = BK.board_search  # a numba dispatcher: its arguments are the kernel's
    found = search(opts, *_arrays(c), c.group_flags, sizes, out, interrupt.FLAG)
    interrupt.check()
    return tuple(int(x) for x in found)


def classes(problem: Problem) -> tuple[CountResult, dict[int, int]]:
    """The count, its orbits under ``problem.symmetries()``, and the orbits by size
    (``{size: orbits}`` for every divisor of the group's order)."""
    c = check_board(problem)
    order = len(c.group)
    sizes = np.zeros(order + 1, np.int64)
    total, canon, nodes, _ = _search(c, BK.CANON, sizes=sizes)
    tally = {d: int(sizes[d]) for d in range(1, order + 1) if order % d == 0}
    return CountResult(total, canon, nodes, "native", "board", threads=1), tally


def count(problem: Problem, unique: bool = False) -> CountResult:
    """The number of solutions (one thread), and with ``unique`` the orbits."""
    if validate.flag(unique, "unique"):
        return classes(problem)[0]
    total, _, nodes, _ = _search(check_board(problem), BK.COUNT)
    return CountResult(total, None, nodes, "native", "board", threads=1)


def solutions(problem: Problem, limit: int | None = None, batch: int = 4096) -> Iterator[tuple[int, ...]]:
    """The solutions in lexicographic order (-1: an empty row, after every column), each
    batch found by a search that passes over the ones already given."""
    c = check_board(problem)
    limit = validate.optional_whole_number(limit, "limit")
    batch = validate.whole_number(batch, "batch", minimum=1)
    given = 0
    while limit is None or given < limit:
        size = batch if limit is None else min(batch, limit - given)
        out = np.zeros((size, c.n), np.int64)
        _, _, _, written = _search(c, BK.EMIT, skip=given, out=out)
        for row in out[:written].tolist():
            yield tuple(row)
        given += written
        if written < size:
            return
