"""Numba kernel of k queens on an r x c board: rows may stay empty, the board a rectangle.

:func:`board_search` is the row-by-row search of :func:`queenslab.native.kernels.walk`
with one more choice per row: besides each free cell, leaving the row empty, as long as
the rows below can still take the queens not yet placed (and the row holds no fixed
queen). It reads the compiled form's tables of such a board (``allowed`` masks
``columns`` bits wide, the leaper table, the regions' masks and bounds) and

* counts the solutions (``COUNT``): once a single queen is left, the free cells of every
  row below are counted at once instead of visited (what turns the count of q queens on
  n x n from n^(2q) leaves into n^(2q - 2) nodes);
* counts the canonical solutions under a subgroup of the board's symmetries (``CANON``)
  and tallies them by orbit size;
* writes the solutions ``skip .. skip + len(out) - 1`` in lexicographic order
  (``EMIT``).

The order of placements is lexicographic with an empty row after every column, the
order of the models' cell vectors (:mod:`queenslab.models.breaking`), so the canonical
solution of an orbit is the same one everywhere. Pure functions on integers and arrays;
:mod:`queenslab.native.boards` checks the arguments. The search polls ``halt`` at each
backtrack.
"""

import numpy as np

from .jit import njit, trailing_zeros
from .kernels import CANON, COUNT, EMIT, popcount, shift_down, shift_up

__all__ = ["board_search", "COUNT", "CANON", "EMIT"]

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _leaps(y, low, q, leap_rows, leap_masks):
    """Cells of row y attacked by leaps from the queens of rows ``< low`` (-1: empty)."""
    a = _U0
    for i in range(leap_rows.shape[0]):
        rp = y - leap_rows[i]
        if 0 <= rp < low and q[rp] >= 0:
            a |= leap_masks[i, q[rp]]
    return a


@njit(cache=True, nogil=True)
def _regions_hold(q, n, region_masks, region_bounds):
    """Whether the queens of the full placement ``q`` meet every region's bounds."""
    for k in range(region_masks.shape[0]):
        inside = 0
        for r in range(n):
            if q[r] >= 0 and (region_masks[k, r] >> np.uint64(q[r])) & _U1:
                inside += 1
        if inside < region_bounds[k, 0] or inside > region_bounds[k, 1]:
            return False
    return True


@njit(cache=True, nogil=True)
def _image_order(q, img, n, m, inv, rev, cmpl):
    """Compare the image of ``q`` under ``(inv, rev, cmpl)`` with ``q``: -1 when the image
    comes first, 0 when they are equal, 1 after (an empty row after every column)."""
    for r in range(n):
        img[r] = -1
    for r in range(n):
        c = q[r]
        if c < 0:
            continue
        r2, c2 = r, c
        if inv:
            r2, c2 = c2, r2
        if rev:
            r2 = n - 1 - r2
        if cmpl:
            c2 = m - 1 - c2
        img[r2] = c2
    for r in range(n):
        a = q[r] if q[r] >= 0 else m
        b = img[r] if img[r] >= 0 else m
        if b != a:
            return -1 if b < a else 1
    return 0


@njit(cache=True, nogil=True)
def _last_queen(y0, n, m, full, torus, cols, dr, dl, q, allowed, must_after, leap_rows, leap_masks):
    """The cells of rows ``y0 ..`` that can take the one queen left, given the attack masks
    ``cols, dr, dl`` at row ``y0`` and the queens above (every row between stays empty)."""
    if must_after[y0] > 1:
        return 0  # two rows with fixed queens, one queen left
    total = 0
    only_must = must_after[y0] == 1
    for y in range(y0, n):
        if (not only_must or must_after[y] != must_after[y + 1]) and allowed[y]:
            free = allowed[y] & ~(cols | dr | dl)
            if leap_rows.shape[0] and free:
                free &= ~_leaps(y, y0, q, leap_rows, leap_masks)
            total += popcount(free)
        dr = shift_up(dr, n, full, torus)
        dl = shift_down(dl, n, full, torus)
    return total


@njit(cache=True, nogil=True)
def board_search(
    opts, allowed, must_after, leap_rows, leap_masks, region_masks, region_bounds, group, sizes, out, halt
):
    """Search the k-queens board (see the module docstring).

    Parameters
    ----------
    opts : int64[6]
        ``n, columns, queens, torus, mode, skip``: rows, columns, queens, wrap-around
        lines (square boards only), ``COUNT`` / ``CANON`` / ``EMIT``, and for ``EMIT`` the
        number of solutions to pass over before writing.
    allowed : uint64[n]
        The cells each row may take.
    must_after : int64[n + 1]
        How many rows from each row on hold a fixed queen (such a row cannot stay empty).
    leap_rows, leap_masks, region_masks, region_bounds
        The compiled form's leaper table and counted regions.
    group : int64[g, 3]
        ``(inv, rev, cmpl)`` of the non-identity elements of the group (``CANON``).
    sizes : int64[g + 2]
        ``CANON``: incremented at the orbit size of each canonical solution.
    out : int64[cap, n]
        ``EMIT``: receives the solutions.
    halt : int64[1]
        The stop flag.

    Returns
    -------
    (solutions, canonical, nodes, written) : tuple of int
        Solutions met (all of them for ``COUNT`` and ``CANON``; in ``EMIT`` the ones
        passed over and written), canonical solutions, queens placed, rows of ``out``
        written.
    """
    n, m, k, torus, mode, skip = opts[0], opts[1], opts[2], opts[3] != 0, opts[4], opts[5]
    full = (~_U0) if m >= 64 else ((_U1 << np.uint64(m)) - _U1)
    counted = region_masks.shape[0] > 0
    leaps = leap_rows.shape[0] > 0
    cols = np.zeros(n + 1, np.uint64)
    dr = np.zeros(n + 1, np.uint64)
    dl = np.zeros(n + 1, np.uint64)
    cand = np.zeros(n + 1, np.uint64)
    may_skip = np.zeros(n + 1, np.bool_)
    placed = np.zeros(n + 1, np.int64)
    q = np.full(n, -1, np.int64)
    img = np.zeros(n, np.int64)
    found = 0
    canon = 0
    nodes = 0
    written = 0
    if k == 0:
        # the empty board, when no fixed queen asks for one
        if must_after[0] == 0 and (not counted or _regions_hold(q, n, region_masks, region_bounds)):
            found = 1
            canon = 1
            if mode == CANON:
                sizes[1] += 1
            if mode == EMIT and skip == 0 and out.shape[0] > 0:
                for r in range(n):
                    out[0, r] = -1
                written = 1
        return found, canon, nodes, written
    if n < k:
        return 0, 0, 0, 0
    y = 0
    free = allowed[0]
    if leaps and free:
        free &= ~_leaps(0, 0, q, leap_rows, leap_masks)
    cand[0] = free
    may_skip[0] = must_after[0] == must_after[1] and n - 1 >= k
    while y >= 0:
        if cand[y]:
            bit = cand[y] & (_U0 - cand[y])
            cand[y] ^= bit
            q[y] = trailing_zeros(bit)
            now = placed[y] + 1
            nc = cols[y] | bit
            ndr = shift_up(dr[y] | bit, n, full, torus)
            ndl = shift_down(dl[y] | bit, n, full, torus)
            nodes += 1
        elif may_skip[y]:
            may_skip[y] = False
            q[y] = -1
            now = placed[y]
            nc = cols[y]
            ndr = shift_up(dr[y], n, full, torus)
            ndl = shift_down(dl[y], n, full, torus)
        else:
            q[y] = -1
            y -= 1
            if halt[0]:
                return found, canon, nodes, written
            continue
        if now == k:
            # every row below stays empty: a solution when none of them holds a fixed
            # queen and the regions are met
            if must_after[y + 1] != 0:
                continue
            for r in range(y + 1, n):
                q[r] = -1
            if counted and not _regions_hold(q, n, region_masks, region_bounds):
                continue
            if mode == COUNT:
                found += 1
            elif mode == CANON:
                found += 1
                least = True
                stab = 1
                for g in range(group.shape[0]):
                    o = _image_order(q, img, n, m, group[g, 0], group[g, 1], group[g, 2])
                    if o < 0:
                        least = False
                        break
                    if o == 0:
                        stab += 1
                if least:
                    canon += 1
                    sizes[(group.shape[0] + 1) // stab] += 1
            else:
                if found >= skip:
                    for r in range(n):
                        out[written, r] = q[r]
                    written += 1
                found += 1
                if written == out.shape[0]:
                    return found, canon, nodes, written
            continue
        ny = y + 1
        if n - ny < k - now:
            continue  # too few rows left for the queens left
        if mode == COUNT and now == k - 1 and not counted:
            found += _last_queen(ny, n, m, full, torus, nc, ndr, ndl, q, allowed, must_after, leap_rows, leap_masks)
            continue
        y = ny
        cols[y] = nc
        dr[y] = ndr
        dl[y] = ndl
        placed[y] = now
        free = allowed[y] & ~(nc | ndr | ndl)
        if leaps and free:
            free &= ~_leaps(y, y, q, leap_rows, leap_masks)
        cand[y] = free
        may_skip[y] = must_after[y] == must_after[y + 1] and n - y - 1 >= k - now
    return found, canon, nodes, written
