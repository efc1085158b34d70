"""The traces of the two local searches with a seed: the self-correcting search and min-conflicts.

Both run try after try, as :func:`queenslab.heuristics.self_correct` and
:func:`queenslab.heuristics.min_conflicts` do with their default options: the same
generator (:func:`~queenslab.heuristics.minconflicts.rng_state` of the seed), the same
kernels, which record every change of the board when given a trace buffer
(:mod:`queenslab.heuristics.kernels`). Every try begins with a ``start`` step
(its random board); the self-correcting search then ``move``\\ s one queen at a time,
min-conflicts ``swap``\\ s the columns of two rows. So the last board of a complete trace
is the solution the un-traced function returns for the same seed.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from .. import limits
from ..heuristics import kernels as HK
from ..heuristics.construct import check_memory, check_n
from ..heuristics.minconflicts import rng_state
from ..heuristics.selfcorrect import SELF_CORRECT
from .events import decode
from .steps import Step, Trace
from .stream import Chunk, Recording

__all__ = [
    "record_self_correct",
    "record_min_conflicts",
    "self_correct_chunks",
    "min_conflicts_chunks",
    "SELF_CORRECT_RESTARTS",
    "MIN_CONFLICTS_RESTARTS",
]

#: The default budgets of the un-traced functions (the traces record those searches).
SELF_CORRECT_RESTARTS = 1000
MIN_CONFLICTS_RESTARTS = 100
_CANDIDATES = 16
_GREEDY_TRIES = 32


def _tries(problem, max_steps: int, restarts: int, start, search, board: np.ndarray) -> Generator[Chunk, None, bool]:
    """Try after try, as the un-traced function runs them: a ``start`` step, then the
    try's events, until a try solves the board, the restarts run out or the steps reach
    ``max_steps``; a chunk per try.

    Parameters
    ----------
    problem
        The standard problem (its n).
    max_steps, restarts
        The step cap; the further tries after the first.
    start : callable
        ``start()`` draws a try's random board and returns it as a tuple.
    search : callable
        ``search(ev)`` runs the try from that board, recording into ``ev``, and returns
        its status (:data:`~queenslab.heuristics.kernels.SOLVED`, ``FAILED`` or
        ``FULL``) and the number of events recorded.
    board : numpy.ndarray
        The array the kernels move the queens in (the board after a try's events: a
        full buffer stops the kernel before the event that does not fit).

    Returns
    -------
    generator of Chunk
        Its return value says whether the search ran to its end. n = 1 has one start
        step, n = 2 and 3 (no solution) none.
    """
    if problem.n == 1:
        yield Chunk((Step("start", board=(0,)),), np.zeros(1, np.int64))
        return True
    if problem.n in (2, 3):
        return True
    ev = np.empty((max_steps, 3), np.int64)
    total = 0
    for _ in range(restarts + 1):
        if total == max_steps:
            return False
        first = Step("start", board=start())
        status, m = search(ev[: max_steps - total - 1])
        steps = (first, *decode(ev[:m]))
        total += len(steps)
        yield Chunk(steps, board.astype(np.int64))
        if status == HK.FULL:
            return False
        if status == HK.SOLVED:
            break
    return True


def record_self_correct(problem, seed: int, max_steps: int, *, force: bool = False) -> Trace:
    """Record the self-correcting search (limit ``n * n`` moves per try, 1000 restarts).

    Examples
    --------
    >>> from queenslab import Problem
    >>> from queenslab.heuristics import self_correct
    >>> t = record_self_correct(Problem(8), 3, 10**5)
    >>> t.final().tolist() == self_correct(8, seed=3).tolist()
    True
    """
    chunks = self_correct_chunks(problem, seed, max_steps, force=force)
    return Recording("selfcorrect", problem, seed, {}, chunks).run()


def record_min_conflicts(problem, seed: int, max_steps: int) -> Trace:
    """Record min-conflicts (greedy start, ``50 n + 500`` steps per try, 100 restarts).

    Examples
    --------
    >>> from queenslab import Problem
    >>> from queenslab.heuristics import min_conflicts
    >>> t = record_min_conflicts(Problem(20), 4, 10**5)
    >>> t.final().tolist() == min_conflicts(20, seed=4).tolist()
    True
    """
    return Recording("minconflicts", problem, seed, {}, min_conflicts_chunks(problem, seed, max_steps)).run()


def self_correct_chunks(problem, seed: int, max_steps: int, *, force: bool = False) -> Generator[Chunk, None, bool]:
    """The self-correcting search, a chunk per try (the board and its limits are checked
    at once, not when the generator first runs).
    """
    n = check_n(problem, SELF_CORRECT.name)
    limits.check(SELF_CORRECT, n, force, hint="use construct or minconflicts for large boards")
    check_memory(n, SELF_CORRECT.name)
    rng = rng_state(seed)
    q = np.empty(n, np.int64)
    t = np.empty(n, np.int64)
    lines = np.empty(5 * n, np.int32)
    out = np.zeros(2, np.int64)

    def start() -> tuple[int, ...]:
        HK.self_correct_start(n, rng, q)
        return tuple(q.tolist())

    def search(ev: np.ndarray) -> tuple[int, int]:
        return HK.self_correct(n, n * n, True, q, t, lines, out, ev), int(out[1])

    return _tries(problem, max_steps, SELF_CORRECT_RESTARTS, start, search, q)


def min_conflicts_chunks(problem, seed: int, max_steps: int) -> Generator[Chunk, None, bool]:
    """Min-conflicts, a chunk per try (the board is checked at once)."""
    n = check_n(problem, "min-conflicts")
    check_memory(n, "min-conflicts")
    rng = rng_state(seed)
    p = np.empty(n, np.int64)
    d1 = np.empty(2 * n - 1, np.int32)
    d2 = np.empty(2 * n - 1, np.int32)
    work = np.empty(n, np.int64)
    out = np.zeros(4, np.int64)

    def start() -> tuple[int, ...]:
        HK.min_conflicts_start(n, _GREEDY_TRIES, rng, p, d1, d2, work)
        return tuple(p.tolist())

    def search(ev: np.ndarray) -> tuple[int, int]:
        return HK.min_conflicts_repair(n, 50 * n + 500, _CANDIDATES, rng, p, d1, d2, work, out, ev), int(out[3])

    return _tries(problem, max_steps, MIN_CONFLICTS_RESTARTS, start, search, p)
