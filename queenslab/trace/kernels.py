"""Numba recording kernels: the searches of the package, step by step, into an event buffer.

A recorded search writes every change of the board to ``ev`` (``int64[cap, 3]``: code,
row, column) and stops when ``ev`` is full, saying so; the caller then keeps the steps so
far. The local searches record themselves: :func:`queenslab.heuristics.kernels.self_correct`
and :func:`~queenslab.heuristics.kernels.min_conflicts_repair` take the buffer as an
optional argument (numba compiles the recording away when it is not given). The one
kernel here is

* :func:`walk` -- the native engine's row-by-row backtracking over a problem's compiled
  tables (:func:`queenslab.compiled.compile_problem`), columns in increasing order, on
  the engine's own helpers (candidates, leaps, regions, line masks). It is a loop of its
  own rather than a mode of :func:`queenslab.native.kernels.walk` because a trace needs
  what the engine's hot loop keeps implicit (which row's queen moves or is taken off,
  every queen of the last row, which the engine counts at once), and a branch for that
  in the engine's resumable loop would be paid by every count.

Nothing here validates input or allocates for the caller.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..heuristics.kernels import FULL, MOVE, SWAP, emit
from ..native.kernels import _candidates, _leap_block, _place, _region_block, _region_step, full_mask

__all__ = ["PLACE", "REMOVE", "MOVE", "SWAP", "SOLUTION", "FINISHED", "FULL", "walk"]

# event codes (the ``code`` column of ``ev``; MOVE and SWAP are the local searches')
PLACE = 0  # a queen is put on an empty row: (row, column)
REMOVE = 1  # the queen of a row is taken off: (row, -1)
SOLUTION = 4  # the board is a solution: (-1, -1)

# how the walk ended (FULL: the event buffer is full, the search was cut there)
FINISHED = 0  # the search ran to its end (enough solutions, or none left)

_U0 = np.uint64(0)


# ----------------------------------------------------------------------------- backtracking


@njit(cache=True, nogil=True)
def _free(y, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc):
    """The cells of row y that the queens above leave free (lines, leaps, full regions)."""
    return (
        _candidates(y, allowed, s)
        & ~_leap_block(y, q, leap_rows, leap_masks)
        & ~_region_block(y, rc, regions, region_bounds)
    )


@njit(cache=True, nogil=True)
def walk(allowed, leap_rows, leap_masks, regions, region_bounds, region_rest, n, torus, want, q, s, rc, ev):
    """Backtracking in lexicographic order, recorded: the native engine's walk.

    Rows are filled top-down, each row's candidates taken lowest column first, with the
    line masks of the rows above (wrapping on a torus), the leap table and the region
    counters of the compiled problem -- the order in which ``queenslab.solutions`` lists
    the solutions.

    Parameters
    ----------
    allowed, leap_rows, leap_masks, regions, region_bounds, region_rest
        The compiled problem's tables (see :mod:`queenslab.compiled`).
    n : int
    torus : bool
    want : int
        Stop after this many solutions (0: search to the end).
    q : int64[n]
        The board, -1 for an empty row (all -1 on entry).
    s : uint64[4, n + 1]
        Work: candidates left, columns and the two diagonal families of each row.
    rc : int64[n + 1, max(k, 1)]
        Work: queens of each region above each row.
    ev : int64[cap, 3]
        Receives the events (PLACE, MOVE, REMOVE, SOLUTION).

    Returns
    -------
    (events, solutions, status) : tuple of int
    """
    cap = ev.shape[0]
    full = full_mask(n)
    m = 0
    found = 0
    for k in range(regions.shape[0]):
        rc[0, k] = 0
    s[1, 0] = _U0
    s[2, 0] = _U0
    s[3, 0] = _U0
    s[0, 0] = _free(0, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc)
    y = 0
    while y >= 0:
        bm = s[0, y]
        if bm == _U0:
            if q[y] >= 0:
                if m == cap:
                    return m, found, FULL
                m = emit(ev, m, REMOVE, y, -1)
                q[y] = -1
            y -= 1
            continue
        if m == cap:
            return m, found, FULL
        bit = bm & (_U0 - bm)
        s[0, y] = bm ^ bit
        c = trailing_zeros(bit)
        m = emit(ev, m, MOVE if q[y] >= 0 else PLACE, y, c)
        q[y] = c
        if not _region_step(y, bit, rc, regions, region_bounds, region_rest):
            continue
        ny = y + 1
        if ny == n:
            if m == cap:
                return m, found, FULL
            m = emit(ev, m, SOLUTION, -1, -1)
            found += 1
            if found == want:
                return m, found, FINISHED
            continue
        _place(y, bit, s, n, full, torus)
        s[0, ny] = _free(ny, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc)
        y = ny
    return m, found, FINISHED
