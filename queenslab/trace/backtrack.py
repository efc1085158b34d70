"""The trace of backtracking in lexicographic order, over the problem's compiled tables.

:func:`record_backtrack` runs the native engine's search,
:func:`queenslab.native.kernels.walk`, recording, on the tables of
:func:`queenslab.compiled.compile_problem` -- rows top-down, each row's columns in
increasing order -- so every variant the engine solves can be traced, and the
``solution`` steps come in the order ``queenslab.solutions(problem)`` lists the
solutions. :func:`backtrack_chunks` delivers the same steps chunk by chunk while the walk
runs (for ``queenslab watch``): the walk fills an event buffer per call and keeps its
state between calls.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from .. import interrupt, validate
from ..compiled import BITBOARD_MAX_N, compile_problem
from ..errors import TooLarge
from ..native import kernels as NK
from ..problem import Problem
from .events import decode
from .steps import Trace
from .stream import Chunk, Recording

__all__ = ["record_backtrack", "backtrack_chunks", "WALK_STEPS"]

#: The most steps one call of the walk records when no chunk is asked for: the events are
#: turned into steps between calls, where a stop is looked at (turning millions of events
#: at once would hold the interpreter for many seconds), and the event buffer stays small.
WALK_STEPS = 1 << 16


def backtrack_chunks(problem: Problem, max_steps: int, solutions: int = 1, chunk: int | None = None):
    """Backtracking on ``problem``, chunk by chunk (see :func:`record_backtrack`).

    Parameters
    ----------
    problem, max_steps, solutions
        As :func:`record_backtrack`.
    chunk : int, optional
        The most steps per chunk (>= 2); default :data:`WALK_STEPS`.

    Returns
    -------
    generator of Chunk
        Its return value says whether the search ran to its end.

    Raises
    ------
    TooLarge
        For n > 64, at once (not when the generator first runs).
    """
    n = problem.n
    if n > BITBOARD_MAX_N:
        raise TooLarge(f"backtracking is traced on the native engine's 64-bit rows: n <= {BITBOARD_MAX_N}, got {n}")
    solutions = validate.whole_number(solutions, "solutions", minimum=0)
    size = min(WALK_STEPS if chunk is None else validate.whole_number(chunk, "chunk", minimum=2), max_steps)
    return _walk(problem, max_steps, solutions, size)


def _walk(problem: Problem, max_steps: int, solutions: int, size: int) -> Generator[Chunk, None, bool]:
    n = problem.n
    c = compile_problem(problem)
    regions = c.region_masks
    q = np.full(n, -1, np.int64)
    s = np.zeros((4, n + 1), np.uint64)
    rc = np.zeros((n + 1, max(regions.shape[0], 1)), np.int64)
    meta = np.zeros(3, np.int64)
    # EMIT into ``solutions`` rows stops the walk at the last one wanted; COUNT walks to the end
    mode = NK.EMIT if solutions else NK.COUNT
    opts = np.array([n, n, int(c.toroidal), mode, 0], np.int64)
    ev = np.empty((size, 3), np.int64)
    total = found = 0
    while True:
        room = min(size, max_steps - total)
        # the walk counts the rows it writes per call: give it the solutions still wanted, at
        # most one a step of this call (each solution is a step of its own)
        out = np.empty((max(min(solutions - found, room), 1), n), np.int64)
        before = q.copy()
        meta[2] = 0
        _, _, _, emitted = NK.walk(
            c.allowed,
            c.leap_rows,
            c.leap_masks,
            regions,
            c.region_bounds,
            c.region_rest,
            opts,
            np.zeros((0, 3), np.int64),
            s,
            rc,
            q,
            meta,
            out,
            interrupt.FLAG,  # Ctrl-C: the walk returns at its next backtrack
            ev[:room],
        )
        interrupt.check()  # a walk stopped by the flag is never recorded
        m = int(meta[2])
        running = meta[1] != NK.DONE
        if running and m == room and total + m < max_steps:
            m = _take_back(ev, m, meta, s, q, before)
        total += m
        found += int(emitted)
        steps = tuple(decode(ev[:m]))
        if steps:
            yield Chunk(steps, q.copy(), sum(st.op == "solution" for st in steps))
        if not running or (solutions and found == solutions):
            return True
        if total == max_steps:
            return False


def _take_back(ev: np.ndarray, m: int, meta: np.ndarray, s: np.ndarray, q: np.ndarray, before: np.ndarray) -> int:
    """Undo the last event of a full buffer when it put a queen on the walk's current
    row; returns the events kept.

    The walk returns with a full buffer before its next event, keeping its state; but
    when the buffer fills with a queen's step on the last row, the walk returns before
    writing the ``solution`` that follows, and a resumed walk would go on to the next
    column without it. Giving the column back to the row's remaining candidates
    (``s[0, row]``; the walk takes the lowest first) and the row its previous column
    makes the next call take the same step again, now with room for what follows. For a
    queen's step on the current row that is not on the last row (a row below without
    candidates, a region cut) the step is taken again just the same.
    """
    code, row, col = (int(x) for x in ev[m - 1])
    if code not in (NK.PLACE, NK.MOVE) or row != meta[0]:
        return m
    s[0, row] |= np.uint64(1) << np.uint64(col)
    earlier = np.flatnonzero(ev[: m - 1, 1] == row)
    if earlier.size:  # the row's previous state, from this chunk's events
        k = int(earlier[-1])
        q[row] = -1 if ev[k, 0] == NK.REMOVE else ev[k, 2]
    else:
        q[row] = before[row]
    return m - 1


def record_backtrack(problem: Problem, max_steps: int, solutions: int = 1) -> Trace:
    """Record backtracking on ``problem`` until ``solutions`` solutions (0: to the end of
    the tree) or ``max_steps`` steps.

    Parameters
    ----------
    problem : Problem
        Any problem of n <= 64 (the bitboard tables).
    max_steps : int
        The step cap (already checked against memory by the caller).
    solutions : int, default 1
        Stop after this many solutions; 0 searches the whole tree.

    Returns
    -------
    Trace

    Examples
    --------
    >>> t = record_backtrack(Problem(4), 100)
    >>> [s.op for s in t.steps][-1], t.final().tolist()
    ('solution', [1, 3, 0, 2])
    """
    chunks = backtrack_chunks(problem, max_steps, solutions)
    return Recording("backtrack", problem, None, {"solutions": solutions}, chunks).run()
