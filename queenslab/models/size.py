"""Memory estimates of the CNF and CP-SAT models, checked before a model is built.

A pairwise CNF model has about ``n**3`` clauses and a Boolean CP-SAT model ``n**2``
variables, each a Python object: a board of a few thousand rows needs more memory than a
machine has, and building it would end in ``MemoryError`` after minutes. The estimates
here are upper-side figures measured on this package's own models (pysat 1.9, OR-Tools
9.15); :func:`check` refuses a model whose estimate exceeds the available memory.
"""

from __future__ import annotations

import math

from .. import validate
from ..problem import Problem, leap_offsets

__all__ = ["cnf_bytes", "cpsat_bytes", "check"]

#: A clause of a few literals as a Python list inside pysat's CNF (98 B measured, pairwise, n = 200).
BYTES_PER_CLAUSE = 110
#: A cell variable in the IDPool (a tuple key and an int).
BYTES_PER_CNF_CELL = 250
#: A CP-SAT Boolean cell variable with its share of the constraints (740 B measured at n = 1000).
BYTES_PER_BOOL_CELL = 800
#: An integer row variable of the CP-SAT integer formulation with its constraints.
BYTES_PER_INT_ROW = 4000
#: A pair of cells a leap apart: the compiled tuple and its clause or constraint.
BYTES_PER_LEAP_PAIR = 400

_HINT = "for one solution of a large board use a heuristic (queenslab solve N --method minconflicts), or a smaller n"


def _line_lengths(problem: Problem) -> list[int]:
    """Lengths of the rows, columns and diagonals (of two or more cells)."""
    n = problem.n
    lines = [n] * (2 * n)
    if problem.toroidal:
        lines += [n] * (2 * n)
    else:
        diagonal = [k for k in range(2, n + 1)] + [k for k in range(2, n)]
        lines += diagonal * 2
    return lines


def _clauses(k: int, encoding: str) -> int:
    if k < 2:
        return 1
    log = math.ceil(math.log2(k))
    if encoding == "pairwise":
        return k * (k - 1) // 2 + 1
    if encoding in ("seqcounter", "ladder"):
        return 3 * k
    if encoding in ("sortnetwrk", "cardnetwrk"):
        return k * log * log
    return 2 * k * log  # totalizers, bitwise


def _leap_pairs(problem: Problem) -> int:
    return 4 * problem.n * problem.n * len(leap_offsets(problem.leaps)) // 8


def cnf_bytes(problem: Problem, encoding: str) -> int:
    """Estimated peak memory of the CNF model of ``problem`` with ``encoding``."""
    n = problem.n
    if n > 100_000:  # the cells alone need terabytes: a lower bound is enough to refuse, and cheap
        return n * n * BYTES_PER_CNF_CELL
    clauses = sum(_clauses(k, encoding) for k in _line_lengths(problem))
    return clauses * BYTES_PER_CLAUSE + n * n * BYTES_PER_CNF_CELL + _leap_pairs(problem) * BYTES_PER_LEAP_PAIR


def cpsat_bytes(problem: Problem, formulation: str) -> int:
    """Estimated peak memory of the CP-SAT model of ``problem`` in ``formulation``."""
    n = problem.n
    cells = n * BYTES_PER_INT_ROW if formulation == "integer" else n * n * BYTES_PER_BOOL_CELL
    return cells + _leap_pairs(problem) * BYTES_PER_LEAP_PAIR


def check(problem: Problem, nbytes: int, what: str) -> None:
    """Raise :class:`~queenslab.errors.TooLarge` when a model of ``nbytes`` cannot fit.

    Examples
    --------
    >>> check(Problem(8), cnf_bytes(Problem(8), "pairwise"), "the pairwise CNF model")
    >>> check(Problem(10**6), cnf_bytes(Problem(10**6), "pairwise"), "the pairwise CNF model")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    queenslab.errors.TooLarge: the pairwise CNF model of n = 1000000 needs about ...
    """
    validate.memory(nbytes, f"{what} of n = {problem.n}", _HINT)
