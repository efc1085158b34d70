"""The symmetry-classifying counter as a scalar search, for CPUs without wide SIMD.

:func:`sym_count_scalar` searches the same tree as the lanes of
:mod:`queenslab.native.symmetric` (Takaken's method, with the last-row look-ahead of the
non-corner class and the last two rows checked branch-free) one node at a time, and
returns the same counts and node count. The lanes are 1.6x faster where LLVM can
vectorise them over 256-bit or wider registers (AVX2, AVX-512); with 128-bit vectors
or none they are 2-2.4x slower than this search, so the engine uses this one there
(see ``docs/performance.md``). The tests also run the two against each other, task by
task.
"""

import numpy as np
from numba import njit

from .symmetric import _classify


@njit(cache=True, nogil=True)
def _sym_corner(n, bound1, split, halt):
    """Corner case of :func:`sym_count_scalar`: queens at (0, 0) and (1, bound1)."""
    sizee = n - 1
    mask = (1 << n) - 1
    bm = np.zeros(n, np.int64)
    lft = np.zeros(n, np.int64)
    dwn = np.zeros(n, np.int64)
    rgt = np.zeros(n, np.int64)
    c8 = 0
    nodes = 0
    b = 1 << bound1
    y0 = 2
    lft[2] = (2 | b) << 1
    dwn[2] = 1 | b
    rgt[2] = b >> 1
    cand = mask & ~(lft[2] | dwn[2] | rgt[2])
    if y0 < bound1:
        cand &= ~2  # column 1 above row bound1 would make the transpose smaller
    if split >= 0:
        cand &= 1 << split
    if y0 == sizee:
        return 0, 0, 1 if cand else 0, 1 if cand else 0
    bm[y0] = cand
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
        lf = (lft[y] | bit) << 1
        dw = dwn[y] | bit
        rg = (rgt[y] | bit) >> 1
        cand = mask & ~(lf | dw | rg)
        if ny == sizee:
            if cand:  # at most one free column is left
                nodes += 1
                c8 += 1
            continue
        if ny < bound1:
            cand &= ~2
        if ny == sizee - 1:
            # the last two rows inline and branch-free: two free columns are left, so the
            # two orders are checked outright (no loop over the candidates)
            free = mask & ~dw
            a1 = free & -free
            a2 = free ^ a1
            oa = 1 if cand & a1 else 0
            ob = 1 if cand & a2 else 0
            la = oa & (1 if a2 & ~(((lf | a1) << 1) | ((rg | a1) >> 1)) else 0)
            lb = ob & (1 if a1 & ~(((lf | a2) << 1) | ((rg | a2) >> 1)) else 0)
            nodes += oa + ob + la + lb
            c8 += la + lb
            continue
        lft[ny] = lf
        dwn[ny] = dw
        rgt[ny] = rg
        bm[ny] = cand
        y = ny
    return 0, 0, c8, nodes


@njit(cache=True, nogil=True)
def _sym_inner(n, bound1, split, halt):
    """Non-corner case of :func:`sym_count_scalar`: first-row queen in column bound1."""
    sizee = n - 1
    mask = (1 << n) - 1
    topbit = 1 << sizee
    board = np.zeros(n, np.int64)
    bm = np.zeros(n, np.int64)
    lft = np.zeros(n, np.int64)
    dwn = np.zeros(n, np.int64)
    rgt = np.zeros(n, np.int64)
    c2 = 0
    c4 = 0
    c8 = 0
    nodes = 0
    bound2 = sizee - bound1
    b = 1 << bound1
    board[0] = b
    y0 = 1
    lft[1] = b << 1
    dwn[1] = b
    rgt[1] = b >> 1
    sidemask = topbit | 1
    lastmask = topbit | 1
    for _ in range(bound1 - 1):
        lastmask |= (lastmask >> 1) | (lastmask << 1)
    endbit = topbit >> bound1
    lastok = mask & ~lastmask  # the columns the last-row queen may take
    cand = mask & ~(lft[1] | dwn[1] | rgt[1])
    if y0 < bound1:
        cand &= ~sidemask
    elif y0 == bound2:
        sd = dwn[1] & sidemask
        if sd == 0:
            cand = 0
        elif sd != sidemask:
            cand &= sidemask
    if split >= 0:
        cand &= 1 << split
    bm[y0] = cand
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
        board[y] = bit
        nodes += 1
        ny = y + 1
        lf = (lft[y] | bit) << 1
        dw = dwn[y] | bit
        rg = (rgt[y] | bit) >> 1
        cand = mask & ~(lf | dw | rg)
        if ny == sizee:
            # last row: at most one free column is left
            if cand and not (cand & lastmask):
                nodes += 1
                board[sizee] = cand
                k = _classify(board, n, bound1, bound2, topbit, endbit)
                if k == 2:
                    c2 += 1
                elif k == 4:
                    c4 += 1
                elif k == 8:
                    c8 += 1
            continue
        # look ahead to the last row: when the queens so far leave it no column outside
        # lastmask, this node has no solution below it (a select, not a branch: measured
        # faster than skipping the node outright)
        sh = sizee - ny
        cand = cand if (lastok & ~(dw | (lf << sh) | (rg >> sh))) else 0
        if ny < bound1:
            cand &= ~sidemask  # the side columns above row bound1: not canonical
        elif ny == bound2:
            sd = dw & sidemask
            if sd == 0:
                continue
            if sd != sidemask:
                cand &= sidemask
        if ny == sizee - 1:
            # the last two rows inline and branch-free: two free columns are left, so the
            # two orders are checked outright; a board is classified only when one holds
            free = mask & ~dw
            a1 = free & -free
            a2 = free ^ a1
            oa = 1 if cand & a1 else 0
            ob = 1 if cand & a2 else 0
            la = oa & (1 if a2 & lastok & ~(((lf | a1) << 1) | ((rg | a1) >> 1)) else 0)
            lb = ob & (1 if a1 & lastok & ~(((lf | a2) << 1) | ((rg | a2) >> 1)) else 0)
            nodes += oa + ob + la + lb
            if la | lb:
                for t in range(2):
                    if la if t == 0 else lb:
                        board[ny] = a1 if t == 0 else a2
                        board[sizee] = a2 if t == 0 else a1
                        k = _classify(board, n, bound1, bound2, topbit, endbit)
                        if k == 2:
                            c2 += 1
                        elif k == 4:
                            c4 += 1
                        elif k == 8:
                            c8 += 1
            continue
        lft[ny] = lf
        dwn[ny] = dw
        rgt[ny] = rg
        bm[ny] = cand
        y = ny
    return c2, c4, c8, nodes


@njit(cache=True, nogil=True)
def sym_count_scalar(n, corner, bound1, split, halt):
    """:func:`~queenslab.native.symmetric.sym_count` as a scalar search: the same tree,
    counts and node count, one walk at a time; the same parameters and results (the stop
    flag ``halt`` polled at each backtrack).
    """
    if corner:
        return _sym_corner(n, bound1, split, halt)
    return _sym_inner(n, bound1, split, halt)
