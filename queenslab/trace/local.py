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

from .. import interrupt, limits
from ..heuristics import kernels as HK
from ..heuristics.construct import check_memory, check_n
from ..heuristics.minconflicts import rng_state
from ..heuristics.selfcorrect import SELF_CORRECT, piece_turns
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
#: The most steps one call of the self-correcting kernel records: a try of a large board
#: makes millions of moves, so it is recorded (and handed to the display, and stopped on
#: Ctrl-C) a piece at a time; decoding a piece takes about a tenth of a second.
SELF_CORRECT_PIECE = 1 << 16


def _tries(
    problem, max_steps: int, restarts: int, start, search, board: np.ndarray, piece: int | None = None
) -> Generator[Chunk, None, bool]:
    """Try after try, as the un-traced function runs them: a ``start`` step, then the
    try's events, until a try solves the board, the restarts run out or the steps reach
    ``max_steps``; a chunk per try, or per piece of a try for a resumable search.

    Parameters
    ----------
    problem
        The standard problem (its n).
    max_steps, restarts
        The step cap; the further tries after the first.
    start : callable
        ``start()`` draws a try's random board (and readies the try) and returns it as a
        tuple.
    search : callable
        ``search(ev)`` runs the try from that board, recording into ``ev``, and returns
        its status (:data:`~queenslab.heuristics.kernels.SOLVED`, ``FAILED`` or
        ``FULL``, or ``RUNNING`` for a resumable search whose piece ran out) and the
        number of events recorded. A resumable search called again goes on where it
        stopped, also after ``FULL``.
    board : numpy.ndarray
        The array the kernels move the queens in (the board after a try's events: a
        full buffer stops the kernel before the event that does not fit).
    piece : int, optional
        For a resumable search: the most events one call records. Between the calls the
        stop flag is looked at (:func:`queenslab.interrupt.check`), so that a long try
        stops on Ctrl-C, and each piece is a chunk of its own. None: one call per try.

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
    ev = np.empty((max_steps if piece is None else min(max_steps, piece), 3), np.int64)
    total = 0
    for _ in range(restarts + 1):
        if total == max_steps:
            return False
        first: tuple[Step, ...] = (Step("start", board=start()),)
        total += 1
        while True:
            # the cap leaves room for max_steps - total events; a piece for at most ev's rows
            room = min(max_steps - total, ev.shape[0])
            status, m = search(ev[:room])
            total += m
            steps = (*first, *decode(ev[:m]))
            if steps:  # a piece may end before its first move
                yield Chunk(steps, board.astype(np.int64))
            first = ()
            if status == HK.RUNNING or (status == HK.FULL and total < max_steps and piece is not None):
                interrupt.check()  # between two pieces of a try: Ctrl-C stops here
                continue
            break
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
    """The self-correcting search, a chunk per piece of a try (the board and its limits
    are checked at once, not when the generator first runs).

    A try runs in pieces of at most :data:`SELF_CORRECT_PIECE` steps and
    :func:`~queenslab.heuristics.selfcorrect.piece_turns` loop turns of the resumable
    kernel (:func:`~queenslab.heuristics.kernels.self_correct_piece`), which goes on where
    it stopped: the steps are those of one call per try, and a stop requested (Ctrl-C) is
    seen between two pieces.

    Raises
    ------
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted`, while the generator runs, when a stop
        is requested.
    """
    n = check_n(problem, SELF_CORRECT.name)
    limits.check(SELF_CORRECT, n, force, hint="use construct or minconflicts for large boards")
    check_memory(n, SELF_CORRECT.name)
    rng = rng_state(seed)
    q = np.empty(n, np.int64)
    t = np.empty(n, np.int64)
    lines = np.empty(5 * n, np.int32)
    state = np.zeros(HK.STATE_SIZE, np.int64)
    budget = piece_turns(n, True)

    def start() -> tuple[int, ...]:
        HK.self_correct_start(n, rng, q)
        state[:] = 0  # a new try
        return tuple(q.tolist())

    def search(ev: np.ndarray) -> tuple[int, int]:
        status = HK.self_correct_piece(n, n * n, True, q, t, lines, state, budget, ev)
        return status, int(state[HK.STATE_EVENTS])

    return _tries(problem, max_steps, SELF_CORRECT_RESTARTS, start, search, q, SELF_CORRECT_PIECE)


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
