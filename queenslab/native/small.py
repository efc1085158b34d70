"""Counting small standard boards in plain Python, without loading numba.

Loading numba and its cached kernels costs a fresh process about half a second, more
than all the work of a board up to n = 11 (about 50 ms in plain Python). So the native
backend counts the standard problem up to :data:`SMALL_N` here: a bitboard
backtracking search for every solution, and the orbits as the solutions that are the
lexicographically least of their eight images under D4. The numba engine counts every
other problem, and the tests check the two against each other.
"""

from __future__ import annotations

import time

from .. import validate
from ..errors import QueensError
from ..problem import Problem, as_problem
from ..result import CountResult

__all__ = ["SMALL_N", "is_small", "count_small", "solutions_small"]

#: Largest standard board counted here (about 50 ms at n = 11).
SMALL_N = 11


def is_small(problem: Problem) -> bool:
    """Whether :func:`count_small` counts ``problem``: the standard problem, n <= SMALL_N."""
    return problem.is_standard and problem.n <= SMALL_N


def solutions_small(n: int) -> tuple[list[tuple[int, ...]], int]:
    """Every solution of the standard n-queens problem (n <= SMALL_N) in lexicographic
    order, and the queens placed finding them.

    >>> sols, _ = solutions_small(4)
    >>> sols
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """
    n = validate.whole_number(n, "n", maximum=SMALL_N)
    full = (1 << n) - 1
    out: list[tuple[int, ...]] = []
    cols: list[int] = []
    placed = 0

    def place(down: int, left: int, right: int) -> None:
        nonlocal placed
        if len(cols) == n:
            out.append(tuple(cols))
            return
        free = full & ~(down | left | right)
        while free:
            bit = free & -free
            free ^= bit
            placed += 1
            cols.append(bit.bit_length() - 1)
            place(down | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
            cols.pop()

    place(0, 0, 0)
    return out, placed


def _images(p: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The eight images of a solution under the symmetries of the square."""
    n = len(p)
    inverse = [0] * n
    for r, c in enumerate(p):
        inverse[c] = r
    images = []
    for q in (p, tuple(inverse)):  # the identity and the main-diagonal reflection
        rev = q[::-1]
        images += [q, rev, tuple(n - 1 - c for c in q), tuple(n - 1 - c for c in rev)]
    return images


def count_small(problem: Problem, unique: bool = False, threads: int | None = None) -> CountResult:
    """Count the standard problem of n <= SMALL_N in plain Python.

    Returns the same :class:`CountResult` as the engine's symmetric search (the total
    and the orbits), with the method ``"small (plain Python)"``; ``threads`` is checked
    and reported but not used.

    >>> r = count_small(Problem(8), unique=True)
    >>> r.count, r.unique
    (92, 12)
    """
    problem = as_problem(problem)
    if not is_small(problem):
        raise QueensError(f"count_small counts the standard problem with n <= {SMALL_N}")
    threads = validate.threads(threads)
    t0 = time.perf_counter()
    sols, placed = solutions_small(problem.n)
    orbits = sum(1 for p in sols if p == min(_images(p)))
    return CountResult(
        count=len(sols),
        unique=orbits,
        nodes=placed,
        backend="native",
        method="small (plain Python)",
        threads=threads,
        seconds=time.perf_counter() - t0,
    )
