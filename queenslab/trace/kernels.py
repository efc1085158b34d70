"""Numba recording kernels: the searches of the package, step by step, into an event buffer.

Each kernel here is a *recording variant* of a kernel the package runs un-traced: the same
loop, the same tables and the same random draws in the same order, with one difference --
every change of the board is written to ``ev`` (``int64[cap, 3]``: code, row, column).
The un-traced kernels are left as they are (no branch is added to their hot loops); the
tests of :mod:`queenslab.trace` check that each variant ends on the board its un-traced
twin returns, for many seeds, so the two cannot drift apart unnoticed.

* :func:`walk` -- the native engine's row-by-row backtracking over a problem's compiled
  tables (:func:`queenslab.compiled.compile_problem`), columns in increasing order;
* :func:`self_correct` -- one try of the self-correcting Queens program's search
  (:func:`queenslab.heuristics.kernels.self_correct`);
* :func:`min_conflicts` -- one try of min-conflicts
  (:func:`queenslab.heuristics.kernels.min_conflicts`).

A kernel stops when ``ev`` is full and says so; the caller then keeps the steps so far.
Nothing here validates input or allocates for the caller.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..heuristics.kernels import below

# event codes (the ``code`` column of ``ev``)
PLACE = 0  # a queen is put on an empty row: (row, column)
REMOVE = 1  # the queen of a row is taken off: (row, -1)
MOVE = 2  # the queen of a row moves to another column: (row, column)
SWAP = 3  # the queens of two rows exchange their columns: (row, other row)
SOLUTION = 4  # the board is a solution: (-1, -1)

# how a kernel ended
FINISHED = 0  # the search ran to its end (a solution, or none left)
FULL = 1  # the event buffer is full: the search was cut there

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def _emit(ev, m, code, a, b):
    ev[m, 0] = code
    ev[m, 1] = a
    ev[m, 2] = b
    return m + 1


# ----------------------------------------------------------------------------- backtracking


@njit(cache=True, nogil=True)
def _full(n):
    if n >= 64:
        return ~_U0
    return (_U1 << np.uint64(n)) - _U1


@njit(cache=True, nogil=True)
def _up(x, n, full, torus):
    if torus:
        return ((x << _U1) | (x >> np.uint64(n - 1))) & full
    return (x << _U1) & full


@njit(cache=True, nogil=True)
def _down(x, n, full, torus):
    if torus:
        return ((x >> _U1) | (x << np.uint64(n - 1))) & full
    return x >> _U1


@njit(cache=True, nogil=True)
def _candidates(y, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc):
    """The cells of row y that the queens above leave free (lines, leaps, full regions)."""
    cand = allowed[y] & ~(s[1, y] | s[2, y] | s[3, y])
    for i in range(leap_rows.shape[0]):
        rp = y - leap_rows[i]
        if rp >= 0:
            cand &= ~leap_masks[i, q[rp]]
    for k in range(regions.shape[0]):
        if rc[y, k] >= region_bounds[k, 1]:
            cand &= ~regions[k, y]
    return cand


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
    full = _full(n)
    m = 0
    found = 0
    for k in range(regions.shape[0]):
        rc[0, k] = 0
    s[1, 0] = _U0
    s[2, 0] = _U0
    s[3, 0] = _U0
    s[0, 0] = _candidates(0, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc)
    y = 0
    while y >= 0:
        bm = s[0, y]
        if bm == _U0:
            if q[y] >= 0:
                if m == cap:
                    return m, found, FULL
                m = _emit(ev, m, REMOVE, y, -1)
                q[y] = -1
            y -= 1
            continue
        if m == cap:
            return m, found, FULL
        bit = bm & (_U0 - bm)
        s[0, y] = bm ^ bit
        c = trailing_zeros(bit)
        m = _emit(ev, m, MOVE if q[y] >= 0 else PLACE, y, c)
        q[y] = c
        ok = True
        for k in range(regions.shape[0]):
            v = rc[y, k] + (1 if regions[k, y] & bit else 0)
            rc[y + 1, k] = v
            if v > region_bounds[k, 1] or v + region_rest[k, y + 1] < region_bounds[k, 0]:
                ok = False
        if not ok:
            continue
        ny = y + 1
        if ny == n:
            if m == cap:
                return m, found, FULL
            m = _emit(ev, m, SOLUTION, -1, -1)
            found += 1
            if found == want:
                return m, found, FINISHED
            continue
        s[1, ny] = s[1, y] | bit
        s[2, ny] = _up(s[2, y] | bit, n, full, torus)
        s[3, ny] = _down(s[3, y] | bit, n, full, torus)
        s[0, ny] = _candidates(ny, q, allowed, s, leap_rows, leap_masks, regions, region_bounds, rc)
        y = ny
    return m, found, FINISHED


# ----------------------------------------------------------------------------- self-correcting search


@njit(cache=True, nogil=True)
def self_correct(n, limit, q, t, lines, ev):
    """One try of the self-correcting search from the start in ``q``, recorded.

    The loop of :func:`queenslab.heuristics.kernels.self_correct` with the counters of
    the front queens' lines (``lines``: int32[5n]); every move of a queen is a MOVE event.

    Returns
    -------
    (events, solved, status) : tuple of int
        ``solved`` is 1 when ``q`` holds a solution, 0 when the try hit ``limit``.
    """
    cap = ev.shape[0]
    m = 0
    for k in range(5 * n):
        lines[k] = 0
    dg = n
    ad = 3 * n - 1
    iteration = 0
    k = 0
    t[0] = n
    checking = True
    while True:
        if checking:
            v = q[k]
            attacked = lines[v] > 0 or lines[dg + k - v + n - 1] > 0 or lines[ad + k + v] > 0
            if not attacked:
                lines[v] += 1
                lines[dg + k - v + n - 1] += 1
                lines[ad + k + v] += 1
                k += 1
                if k == n:
                    return m, 1, FINISHED
                t[k] = n
                continue
        if m == cap:
            return m, 0, FULL
        v = q[k] + 1
        q[k] = 0 if v == n else v
        m = _emit(ev, m, MOVE, k, q[k])
        t[k] -= 1
        if t[k] != 0:
            iteration += 1
            if limit <= 0 or iteration < limit:
                checking = True
                continue
        if k == 0:
            return m, 0, FINISHED
        k -= 1
        v = q[k]
        lines[v] -= 1
        lines[dg + k - v + n - 1] -= 1
        lines[ad + k + v] -= 1
        checking = False


# ----------------------------------------------------------------------------- min-conflicts


@njit(cache=True, nogil=True)
def _leave(d, k):
    c = d[k]
    d[k] = c - 1
    return -1 if c > 1 else 0


@njit(cache=True, nogil=True)
def _enter(d, k):
    c = d[k]
    d[k] = c + 1
    return 1 if c > 0 else 0


@njit(cache=True, nogil=True)
def _swap_move(n, i, j, ci, cj, d1, d2):
    m = n - 1
    delta = _leave(d1, i - ci + m) + _leave(d2, i + ci)
    delta += _leave(d1, j - cj + m) + _leave(d2, j + cj)
    delta += _enter(d1, i - cj + m) + _enter(d2, i + cj)
    delta += _enter(d1, j - ci + m) + _enter(d2, j + ci)
    return delta


@njit(cache=True, nogil=True)
def _in_conflict(n, r, c, d1, d2):
    return d1[r - c + n - 1] > 1 or d2[r + c] > 1


@njit(cache=True, nogil=True)
def _conflicted_list(n, p, d1, d2, work):
    m = 0
    for r in range(n):
        if _in_conflict(n, r, p[r], d1, d2):
            work[m] = r
            m += 1
    return m


@njit(cache=True, nogil=True)
def min_conflicts(n, greedy_tries, max_steps, candidates, rng, p, d1, d2, work, start, ev):
    """One try of min-conflicts, recorded: the start is copied to ``start``, every swap
    of the repair is a SWAP event.

    The loop of :func:`queenslab.heuristics.kernels.min_conflicts`, draw for draw
    (tie-breaking included), so that the same generator state gives the same board.

    Returns
    -------
    (events, solved, status) : tuple of int
    """
    cap = ev.shape[0]
    m = 0
    m2 = 2 * n - 1
    for k in range(m2):
        d1[k] = 0
        d2[k] = 0
    for k in range(n):
        work[k] = k
    if greedy_tries > 0:
        free = n
        for r in range(n):
            best_k = 0
            best_c = 1 << 62
            for _ in range(greedy_tries):
                k = below(rng, free)
                c = work[k]
                conf = d1[r - c + n - 1] + d2[r + c]
                if conf < best_c:
                    best_c = conf
                    best_k = k
                    if conf == 0:
                        break
            c = work[best_k]
            p[r] = c
            work[best_k] = work[free - 1]
            free -= 1
            d1[r - c + n - 1] += 1
            d2[r + c] += 1
    else:
        for i in range(n - 1, 0, -1):  # the Fisher-Yates shuffle of kernels.shuffle
            j = below(rng, i + 1)
            tmp = work[i]
            work[i] = work[j]
            work[j] = tmp
        for r in range(n):
            c = work[r]
            p[r] = c
            d1[r - c + n - 1] += 1
            d2[r + c] += 1
    for r in range(n):
        start[r] = p[r]
    collisions = 0
    for k in range(m2):
        if d1[k] > 1:
            collisions += d1[k] - 1
        if d2[k] > 1:
            collisions += d2[k] - 1
    size = _conflicted_list(n, p, d1, d2, work)
    steps = 0
    while size > 0:
        idx = below(rng, size)
        i = work[idx]
        ci = p[i]
        if not _in_conflict(n, i, ci, d1, d2):
            size -= 1
            work[idx] = work[size]
            continue
        if steps >= max_steps:
            return m, 0, FINISHED
        steps += 1
        best = 0
        best_j = -1
        ties = 1
        for _ in range(candidates):
            j = below(rng, n - 1)
            if j >= i:
                j += 1
            cj = p[j]
            delta = _swap_move(n, i, j, ci, cj, d1, d2)
            _swap_move(n, i, j, cj, ci, d1, d2)
            # the running minimum with random tie-breaking of kernels._running_min
            if delta < best:
                best = delta
                best_j = j
                ties = 1
            elif delta == best:
                ties += 1
                if below(rng, ties) == 0:
                    best_j = j
        if best_j < 0:
            continue
        if m == cap:
            return m, 0, FULL
        j = best_j
        cj = p[j]
        _swap_move(n, i, j, ci, cj, d1, d2)
        p[i] = cj
        p[j] = ci
        m = _emit(ev, m, SWAP, i, j)
        collisions += best
        if _in_conflict(n, j, ci, d1, d2):
            if size == n:
                size = _conflicted_list(n, p, d1, d2, work)
            else:
                work[size] = j
                size += 1
    return m, 1 if collisions == 0 else 0, FINISHED
