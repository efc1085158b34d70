"""Numba kernels of the native engine: pure functions on integers and arrays.

Nothing here validates input or imports from queenslab; :mod:`queenslab.native.engine`
checks arguments, builds the arrays, splits work into tasks and runs these kernels on
threads. Every kernel is ``cache=True, nogil=True`` and serial.

Bitboards: bit ``c`` of a row mask stands for column ``c``, so taking the lowest set bit
first visits columns in increasing order and the search runs in lexicographic order.

Two kernels live here:

* :func:`walk` -- the general row-by-row backtracker for every variant on ``uint64``
  masks (n <= 64): lines that wrap on a torus, leaper moves given as a table, allowed
  cells per row (blocked cells, fixed queens), per-region queen counters with their
  bounds -- the problem's compiled form. It counts,
  counts canonical solutions under a given subgroup of D4, or emits solutions in
  batches and can be resumed (the state lives in caller-owned arrays); given an event
  buffer it also records its steps for :mod:`queenslab.trace`.
* :func:`prefix_count` -- the prefix counts of the ranking index.

The symmetry-classifying counter of the standard problem lives in
:mod:`queenslab.native.symmetric`.

The searches take a stop flag ``halt`` (an ``int64[1]`` array, set from another thread
on Ctrl-C) and poll it at each backtrack, so a search of any size returns within
microseconds of a stop request; its partial result is then discarded by the caller.
"""

import numpy as np

from .jit import njit, trailing_zeros

# walk() modes
COUNT = 0  # count solutions
CANON = 1  # count solutions and the canonical ones (lexicographically least in orbit)
EMIT = 2  # write solutions into the output buffer, resumable
EMIT_CANON = 3  # write canonical solutions and their stabiliser sizes, resumable
FIXED = 4  # count, per group element, the solutions it maps onto themselves

# meta[1] states of a walk
FRESH = 0
RUNNING = 1
DONE = 2

_U0 = np.uint64(0)
_U1 = np.uint64(1)

# The events of a recorded search (queenslab.trace): rows of an ``int64[cap, 3]`` buffer
# ``ev`` of code, row, column. The searches that record -- walk() here, the local searches
# of queenslab.heuristics.kernels -- take ``ev`` as an optional last argument; without it
# numba prunes every ``ev is not None`` branch, so an un-traced search runs the loop it
# ran before recording existed.
PLACE = 0  # a queen is put on an empty row: (row, column)
REMOVE = 1  # the queen of a row is taken off: (row, -1)
MOVE = 2  # the queen of a row moves to another column: (row, column)
SWAP = 3  # the queens of two rows exchange their columns: (row, other row)
SOLUTION = 4  # the board is a solution: (-1, -1)


@njit(cache=True, nogil=True, inline="always")
def emit(ev, m, code, a, b):
    """Write the event ``(code, a, b)`` at row ``m`` of the buffer ``ev``; returns ``m + 1``."""
    ev[m, 0] = code
    ev[m, 1] = a
    ev[m, 2] = b
    return m + 1


@njit(cache=True, nogil=True)
def popcount(x):
    """Number of set bits of a uint64."""
    c = 0
    while x:
        x &= x - _U1
        c += 1
    return c


@njit(cache=True, nogil=True)
def full_mask(n):
    """uint64 mask of the n low bits (n <= 64)."""
    if n >= 64:
        return ~_U0
    return (_U1 << np.uint64(n)) - _U1


@njit(cache=True, nogil=True)
def shift_up(x, n, full, torus):
    """The mask one column higher (wrapping on a torus of n columns): where the diagonal
    attacks of ``x`` stand one row further down."""
    if torus:
        return ((x << _U1) | (x >> np.uint64(n - 1))) & full
    return (x << _U1) & full


@njit(cache=True, nogil=True)
def shift_down(x, n, full, torus):
    """The mask one column lower (wrapping on a torus of n columns): where the
    anti-diagonal attacks of ``x`` stand one row further down."""
    if torus:
        return ((x >> _U1) | (x << np.uint64(n - 1))) & full
    return x >> _U1


@njit(cache=True, nogil=True)
def leap_block(y, q, leap_rows, leap_masks):
    """Cells of row y attacked by leaper moves (knight, ...) of the queens in rows < y."""
    a = _U0
    for i in range(leap_rows.shape[0]):
        rp = y - leap_rows[i]
        if rp >= 0:
            a |= leap_masks[i, q[rp]]
    return a


@njit(cache=True, nogil=True)
def region_block(y, rc, region_masks, region_bounds):
    """Cells of row y in regions that already hold their most queens."""
    a = _U0
    for k in range(region_masks.shape[0]):
        if rc[y, k] >= region_bounds[k, 1]:
            a |= region_masks[k, y]
    return a


@njit(cache=True, nogil=True)
def region_step(y, bit, rc, region_masks, region_bounds, region_rest):
    """Count the queen ``bit`` of row y into ``rc[y + 1]``; False when a region can no
    longer reach its least number of queens (or exceeds its most, for a prefix)."""
    ok = True
    for k in range(region_masks.shape[0]):
        v = rc[y, k] + (1 if region_masks[k, y] & bit else 0)
        rc[y + 1, k] = v
        if v > region_bounds[k, 1] or v + region_rest[k, y + 1] < region_bounds[k, 0]:
            ok = False
    return ok


@njit(cache=True, nogil=True)
def row_candidates(y, allowed, s):
    # lines only; the caller removes the leaper attacks (passing the leaper arrays in here
    # keeps LLVM from inlining this hot function: twice the time per node)
    return allowed[y] & ~(s[1, y] | s[2, y] | s[3, y])


@njit(cache=True, nogil=True)
def place(y, bit, s, n, full, torus):
    s[1, y + 1] = s[1, y] | bit
    s[2, y + 1] = shift_up(s[2, y] | bit, n, full, torus)
    s[3, y + 1] = shift_down(s[3, y] | bit, n, full, torus)


@njit(inline="always")
def _image_order(q, n, group, g, inv):
    """How q's image under element ``g`` of ``group`` compares with q, lexicographically:
    -1 (smaller), 0 (the same: ``g`` fixes q) or 1. ``inv`` is q's inverse.

    ``group`` rows are (inv, rev, cmpl) flags of the non-identity elements.
    """
    t = group[g, 0]
    fr = group[g, 1]
    fc = group[g, 2]
    for i in range(n):
        src = n - 1 - i if fr else i
        v = inv[src] if t else q[src]
        if fc:
            v = n - 1 - v
        if v != q[i]:
            return -1 if v < q[i] else 1
    return 0


@njit(cache=True, nogil=True)
def _canonical(q, n, group, inv):
    """(is q lexicographically least in its orbit, how many group elements fix q)."""
    for r in range(n):
        inv[q[r]] = r
    fixers = 0
    for g in range(group.shape[0]):
        cmp = _image_order(q, n, group, g, inv)
        if cmp < 0:
            return False, 0
        if cmp == 0:
            fixers += 1
    return True, fixers


@njit(cache=True, nogil=True)
def _leaf(q, n, stop, mode, group, inv, out, row):
    """Handle one solution found by :func:`walk`: (canonical?, rows written)."""
    if mode == CANON:
        ok, _ = _canonical(q, n, group, inv)
        return (1 if ok else 0), 0
    if mode == EMIT:
        for r in range(stop):
            out[row, r] = q[r]
        return 0, 1
    if mode == EMIT_CANON:
        ok, fixers = _canonical(q, n, group, inv)
        if not ok:
            return 0, 0
        for r in range(n):
            out[row, r] = q[r]
        out[row, n] = fixers + 1  # stabiliser size, identity included
        return 1, 1
    if mode == FIXED:
        for r in range(n):
            inv[q[r]] = r
        for g in range(group.shape[0]):
            if _image_order(q, n, group, g, inv) == 0:
                out[0, g] += 1
    return 0, 0


@njit(cache=True, nogil=True)
def walk(
    allowed, leap_rows, leap_masks, regions, region_bounds, region_rest, opts, group, s, rc, q, meta, out, halt, ev=None
):
    """Row-by-row backtracking from a prefix, in lexicographic order.

    Parameters
    ----------
    allowed : uint64[n]
        Cells of each row a queen may take (blocked cells and cells attacked by fixed
        queens removed; a fixed queen's row allows only its cell).
    leap_rows : int64[m]
        Row distances (1..n-1) at which leaper moves (knight, ...) attack.
    leap_masks : uint64[m, n]
        ``leap_masks[i, c]``: the cells that a queen in column c attacks by a leap,
        ``leap_rows[i]`` rows further down.
    regions : uint64[k, n]
        The cells, row by row, of each region whose queens are counted (k may be 0).
    region_bounds : int64[k, 2]
        ``(at_least, at_most)`` of each region.
    region_rest : int64[k, n + 1]
        ``region_rest[k, y]``: rows ``y .. n-1`` that can still hold a queen of region k;
        a branch where a region can no longer reach ``at_least`` is cut.
    opts : int64[5]
        ``n, stop, torus, mode, y0``: board size, number of rows to fill, wrap-around
        lines, one of COUNT / CANON / EMIT / EMIT_CANON / FIXED, and the length of the
        prefix held in ``q[:y0]``.
    group : int64[k, 3]
        Non-identity symmetries as (inv, rev, cmpl) flags, used in CANON, EMIT_CANON
        and FIXED modes.
    s : uint64[4, n + 1]
        Search state: remaining candidates, columns, two diagonal families per row.
    rc : int64[n + 1, max(k, 1)]
        Search state: ``rc[y, k]`` queens of region k in the rows above y.
    q : int64[n]
        Current placement; its first ``y0`` entries are the prefix.
    meta : int64[2]
        ``(row, status)``; status FRESH on the first call, then RUNNING or DONE.
    out : int64[m, stop] or int64[m, n + 1] or int64[1, k]
        EMIT: receives up to m solutions (their first ``stop`` columns); EMIT_CANON: up
        to m canonical solutions with the stabiliser size in the last column; FIXED:
        ``out[0, g]`` is incremented for each solution fixed by ``group[g]``.
    halt : int64[1]
        The stop flag (:data:`queenslab.interrupt.FLAG`): when ``halt[0]`` is set the
        walk returns at its next backtrack, state kept (``meta[1]`` stays RUNNING), with
        the partial counts so far; the caller discards them and stops.
    ev : int64[cap, 3], optional
        Record the walk (``queenslab.trace``; from a FRESH start on an empty board,
        ``q`` all -1, and ``y0 = 0``): every queen placed, moved on in its row or taken
        off, and every solution, as PLACE, MOVE, REMOVE and SOLUTION events; ``meta``
        is then ``int64[3]`` and ``meta[2]`` receives the number of events. A COUNT walk
        then visits the last row's queens one by one. The walk returns, ``meta[1]``
        still RUNNING, before an event that finds the buffer full.

    Returns
    -------
    (count, canonical, nodes, emitted) : tuple of int64
        Solutions found, canonical ones (CANON), queens placed, rows written (EMIT).
        The walk is finished when ``meta[1] == DONE``.
    """
    n = opts[0]
    stop = opts[1]
    torus = opts[2] != 0
    mode = opts[3]
    y0 = opts[4]
    leaps = leap_rows.shape[0] > 0  # loop-invariant: the compiler can split the loop on it
    counted = regions.shape[0] > 0
    full = full_mask(n)
    inv = np.empty(n, np.int64)
    count = 0
    canon = 0
    nodes = 0
    emitted = 0
    if meta[1] == DONE:
        return count, canon, nodes, emitted
    if meta[1] == FRESH:
        s[1, 0] = _U0
        s[2, 0] = _U0
        s[3, 0] = _U0
        for k in range(regions.shape[0]):
            rc[0, k] = 0
        for r in range(y0):
            bit = _U1 << np.uint64(q[r])
            free = row_candidates(r, allowed, s)
            if leaps and free:
                free &= ~leap_block(r, q, leap_rows, leap_masks)
            if not (free & bit) or (counted and not region_step(r, bit, rc, regions, region_bounds, region_rest)):
                meta[1] = DONE  # the prefix itself breaks a constraint
                return count, canon, nodes, emitted
            place(r, bit, s, n, full, torus)
        if y0 == stop:
            meta[1] = DONE
            canon, emitted = _leaf(q, n, stop, mode, group, inv, out, 0)
            return 1, canon, nodes, emitted
        cand = row_candidates(y0, allowed, s)
        if leaps and cand:
            cand &= ~leap_block(y0, q, leap_rows, leap_masks)
        if counted and cand:
            cand &= ~region_block(y0, rc, regions, region_bounds)
        s[0, y0] = cand
        meta[0] = y0
        meta[1] = RUNNING
    y = meta[0]
    cap = out.shape[0]
    m = 0  # events recorded
    while y >= y0:
        bm = s[0, y]
        if bm == _U0:
            if ev is not None and q[y] >= 0:
                if m == ev.shape[0]:
                    meta[0] = y
                    meta[2] = m
                    return count, canon, nodes, emitted
                m = emit(ev, m, REMOVE, y, -1)
                q[y] = -1
            y -= 1
            if halt[0]:  # polled on backtracks only: off the placement path
                meta[0] = y
                return count, canon, nodes, emitted
            continue
        if ev is not None and m == ev.shape[0]:
            meta[0] = y
            meta[2] = m
            return count, canon, nodes, emitted
        bit = bm & (_U0 - bm)
        s[0, y] = bm ^ bit
        c = trailing_zeros(bit)
        if ev is not None:
            m = emit(ev, m, MOVE if q[y] >= 0 else PLACE, y, c)
        q[y] = c
        nodes += 1
        if counted and not region_step(y, bit, rc, regions, region_bounds, region_rest):
            continue
        ny = y + 1
        if ny == stop:
            if ev is not None:
                if m == ev.shape[0]:
                    meta[0] = y
                    meta[2] = m
                    return count, canon, nodes, emitted
                m = emit(ev, m, SOLUTION, -1, -1)
            count += 1
            c, w = _leaf(q, n, stop, mode, group, inv, out, emitted)
            canon += c
            if w:
                emitted += 1
                if emitted == cap:
                    meta[0] = y
                    if ev is not None:
                        meta[2] = m
                    return count, canon, nodes, emitted
            continue
        place(y, bit, s, n, full, torus)
        cand = row_candidates(ny, allowed, s)
        if leaps and cand:
            cand &= ~leap_block(ny, q, leap_rows, leap_masks)
        if counted and cand:
            cand &= ~region_block(ny, rc, regions, region_bounds)
        if mode == COUNT and ny == stop - 1 and not counted and ev is None:
            # last row: every candidate is a solution, no need to visit them one by one
            k = popcount(cand)
            count += k
            nodes += k
            continue
        s[0, ny] = cand
        y = ny
    meta[1] = DONE
    if ev is not None:
        meta[2] = m
    return count, canon, nodes, emitted


@njit(cache=True, nogil=True)
def _popcount64(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def prefix_count(allowed, q, y0, halt):
    """Solutions extending the prefix ``q[:y0]``, for boards without wrap or knight moves.

    The fast path of prefix counting (ranking, the index): ``int64`` masks (n <= 63),
    the last two rows counted inline.

    Parameters
    ----------
    allowed : int64[n]
        Cells each row may take (blocked cells and fixed-queen attacks removed).
    q : int64[n]
        The prefix in its first ``y0`` entries.
    y0 : int
        Prefix length.
    halt : int64[1]
        The stop flag, polled at each backtrack (the count is then partial).

    Returns
    -------
    (count, nodes) : tuple of int64
        Solutions below the prefix (0 if the prefix breaks a constraint) and queens
        placed below it.
    """
    n = q.shape[0]
    dn = 0
    lf = 0
    rt = 0
    for y in range(y0):
        bit = 1 << q[y]
        if not (allowed[y] & ~(dn | lf | rt) & bit):
            return 0, 0
        dn |= bit
        lf = (lf | bit) << 1
        rt = (rt | bit) >> 1
    if y0 == n:
        return 1, 0
    cand = allowed[y0] & ~(dn | lf | rt)
    if y0 == n - 1:
        k = _popcount64(cand)
        return k, k
    bm = np.zeros(n, np.int64)
    L = np.zeros(n, np.int64)
    D = np.zeros(n, np.int64)
    R = np.zeros(n, np.int64)
    bm[y0] = cand
    L[y0] = lf
    D[y0] = dn
    R[y0] = rt
    last = allowed[n - 1]
    count = 0
    nodes = 0
    y = y0
    while y >= y0:
        m = bm[y]
        if m == 0:
            y -= 1
            if halt[0]:  # stop requested: the partial counts are discarded by the caller
                break
            continue
        bit = m & -m
        bm[y] = m ^ bit
        nodes += 1
        ny = y + 1
        l2 = (L[y] | bit) << 1
        d2 = D[y] | bit
        r2 = (R[y] | bit) >> 1
        cand = allowed[ny] & ~(l2 | d2 | r2)
        if ny == n - 1:
            k = _popcount64(cand)
            count += k
            nodes += k
            continue
        if ny == n - 2:
            while cand:
                b2 = cand & -cand
                cand ^= b2
                nodes += 1
                k = _popcount64(last & ~(((l2 | b2) << 1) | d2 | b2 | ((r2 | b2) >> 1)))
                count += k
                nodes += k
            continue
        bm[ny] = cand
        L[ny] = l2
        D[ny] = d2
        R[ny] = r2
        y = ny
    return count, nodes
