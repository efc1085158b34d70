"""Memory estimates of the CNF and CP-SAT models, checked before a model is built, and
the clock that lets a search's time limit cover building its model.

A pairwise CNF model has about ``n**3`` clauses and a Boolean CP-SAT model ``n**2``
variables, each a Python object: a board of a few thousand rows needs more memory than a
machine has, and building it would end in ``MemoryError`` after minutes. The estimates
here are upper-side figures measured on this package's own models (pysat 1.9, OR-Tools
9.15); :func:`check` refuses a model whose estimate exceeds the available memory.

Long before memory runs out, building takes time: Python makes every variable and
constraint one at a time. Each model module declares a practical limit on the size of
the models it builds (``cnf.BUILD``, ``cpsat.BUILD``, ``cpmpy.BUILD``, in MB of the
estimate) and checks it with :func:`check_build`: beyond it a model is built only with
``force``, or under a time limit, which then covers building (:class:`Clock`).
"""

from __future__ import annotations

import math
import time

from .. import interrupt, limits, validate
from ..problem import Problem, leap_offsets

__all__ = ["cnf_bytes", "cpsat_bytes", "linear_bytes", "check", "check_build", "Clock", "OutOfTime", "MB"]

#: The unit of the model-building limits.
MB = 1_000_000

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
    n = max(problem.n, problem.columns)  # a rectangle: bounded by its square
    if n > 100_000:  # the cells alone need terabytes: a lower bound is enough to refuse, and cheap
        return n * n * BYTES_PER_CNF_CELL
    clauses = sum(_clauses(k, encoding) for k in _line_lengths(problem))
    return clauses * BYTES_PER_CLAUSE + n * n * BYTES_PER_CNF_CELL + _leap_pairs(problem) * BYTES_PER_LEAP_PAIR


def cpsat_bytes(problem: Problem, formulation: str) -> int:
    """Estimated peak memory of the CP-SAT model of ``problem`` in ``formulation``."""
    n = max(problem.n, problem.columns)  # a rectangle: bounded by its square
    cells = n * BYTES_PER_INT_ROW if formulation == "integer" else n * n * BYTES_PER_BOOL_CELL
    return cells + _leap_pairs(problem) * BYTES_PER_LEAP_PAIR


#: A cell named in a sum or a lex-leader constraint of the linear model, with its text
#: (a tuple in a tuple, then about 12 characters in a file; the OPB text of n = 200 with
#: lex-leader constraints peaked at 0.56 GB).
BYTES_PER_CELL_MENTION = 160


def linear_bytes(problem: Problem, symmetry: str | None) -> int:
    """Estimated peak memory of the linear model of ``problem`` (:mod:`.linear`) and its text."""
    n = max(problem.n, problem.columns)  # a rectangle: bounded by its square
    if n > 100_000:
        return n * n * BYTES_PER_CELL_MENTION
    mentions = sum(_line_lengths(problem)) + 2 * _leap_pairs(problem)
    if symmetry is not None:  # a vector pair and about 8 literals of clauses per cell, per element
        mentions += 7 * 10 * n * n
    return mentions * BYTES_PER_CELL_MENTION


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


def check_build(
    limit: limits.Limit, problem: Problem, nbytes: int, what: str, force: bool, clock: Clock, hint: str = _HINT
) -> None:
    """Refuse a model that cannot fit in memory in any case (:func:`check`), and building
    one of about ``nbytes`` beyond ``limit`` (in MB) unless ``force`` or a time limit
    (``clock``) bounds the building.

    Raises
    ------
    TooLarge
        Naming the model, its estimated size, the limit and the ways to go ahead.
    """
    force = validate.flag(force, "force")
    check(problem, nbytes, what)
    if clock.end is None:
        mb = -(-nbytes // MB)
        limits.check(
            limit,
            mb,
            force,
            hint=hint,
            request=f"building {what} of n = {problem.n} (about {mb:,} MB)",
        )


class OutOfTime(Exception):
    """The time limit ran out while a model was being built; the model module's search
    functions catch it and report what a search stopped by its time limit reports."""


class Clock:
    """The time limit of one search, started before its model is built: building calls
    :meth:`check` between its steps, and the solver gets the time :meth:`left`.

    Examples
    --------
    >>> Clock(None).left() is None, Clock(10).left() > 9
    (True, True)
    """

    def __init__(self, time_limit: float | None = None):
        self.end = None if time_limit is None else time.perf_counter() + time_limit

    def check(self) -> None:
        """Raise :class:`OutOfTime` past the time limit (and stop on Ctrl-C)."""
        interrupt.check()
        if self.end is not None and time.perf_counter() > self.end:
            raise OutOfTime

    def left(self) -> float | None:
        """Seconds left for the solver (at least a millisecond), or None without a limit."""
        if self.end is None:
            return None
        return max(self.end - time.perf_counter(), 0.001)
