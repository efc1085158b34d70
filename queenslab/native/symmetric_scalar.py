"""The symmetry-classifying counter as a scalar search, for CPUs without wide SIMD.

:func:`sym_count_scalar` searches the same tree as the lanes of
:mod:`queenslab.native.symmetric` (Takaken's method under the same rules,
:func:`~queenslab.native.symmetric.symmetry_rules`, with the last-row look-ahead of the
non-corner class and the last two rows checked branch-free) one node at a time, and
returns the same counts and node count. The lanes are 1.6x faster where LLVM can
vectorise them over 256-bit or wider registers (AVX2, AVX-512); with 128-bit vectors
or none they are 2-2.4x slower than this search, so the engine uses this one there
(see ``docs/performance.md``). The tests also run the two against each other, task by
task.
"""

import numpy as np

from .jit import njit
from .symmetric import classify_orbit, symmetry_rules, tally


@njit(inline="always")
def _search(n, corner, bound1, split, split2, halt):
    """:func:`sym_count_scalar` for one class; ``corner`` is a constant where this is
    inlined, so that each class compiles to its own loop, without the other's branches."""
    mask, b1, xm, b2, side, lm, lastok, _ = symmetry_rules(n, corner, bound1)
    sizee = n - 1
    bound2 = sizee - bound1
    topbit = 1 << sizee
    endbit = topbit >> bound1
    board = np.zeros(n, np.int64)
    bm = np.zeros(n, np.int64)
    lft = np.zeros(n, np.int64)
    dwn = np.zeros(n, np.int64)
    rgt = np.zeros(n, np.int64)
    c2 = 0
    c4 = 0
    c8 = 0
    nodes = 0
    b = 1 << bound1
    # the fixed first row(s): (0, 0) and (1, bound1) in the corner class, else (0, bound1)
    if corner:
        y0 = 2
        lft[2] = (2 | b) << 1
        dwn[2] = 1 | b
        rgt[2] = b >> 1
    else:
        y0 = 1
        board[0] = b
        lft[1] = b << 1
        dwn[1] = b
        rgt[1] = b >> 1
    cand = mask & ~(lft[y0] | dwn[y0] | rgt[y0])
    if y0 < b1:
        cand &= ~xm
    elif y0 == b2:
        sd = dwn[y0] & side
        if sd == 0:
            cand = 0
        elif sd != side:
            cand &= side
    if split >= 0:
        cand &= 1 << split
    # the row whose queen split2 fixes (none: -1, a row never reached)
    y2 = y0 + 1 if split >= 0 and split2 >= 0 else -1
    if corner and y0 == sizee:  # n = 3: the last row is the first free one
        return 0, 0, 1 if cand else 0, 1 if cand else 0
    bm[y0] = cand
    y = y0
    if y2 >= 0 and split2 > 0 and cand:
        nodes = -1  # the split row's queen is placed in every split2 part: counted in part 0 only
    while y >= y0:
        m = bm[y]
        if m == 0:
            y -= 1
            if halt[0]:  # stop requested: the partial counts are discarded by the caller
                break
            continue
        bit = m & -m
        bm[y] = m ^ bit
        if not corner:
            board[y] = bit  # the non-corner class classifies its boards
        nodes += 1
        ny = y + 1
        lf = (lft[y] | bit) << 1
        dw = dwn[y] | bit
        rg = (rgt[y] | bit) >> 1
        cand = mask & ~(lf | dw | rg)
        if ny == y2:
            cand &= 1 << split2
        if ny == sizee:
            # last row: at most one free column is left
            if cand and not (cand & lm):
                nodes += 1
                if corner:
                    c8 += 1
                else:
                    board[sizee] = cand
                    c2, c4, c8 = tally(classify_orbit(board, n, bound1, bound2, topbit, endbit), c2, c4, c8)
            continue
        if not corner:
            # look ahead to the last row: when the queens so far leave it no column outside
            # lastmask, this node has no solution below it (a select, not a branch: measured
            # faster than skipping the node outright)
            sh = sizee - ny
            cand = cand if (lastok & ~(dw | (lf << sh) | (rg >> sh))) else 0
        if ny < b1:
            cand &= ~xm  # above row bound1: not canonical
        elif ny == b2:
            sd = dw & side
            if sd == 0:
                continue
            if sd != side:
                cand &= side
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
            if corner:
                c8 += la + lb
            elif la | lb:
                for t in range(2):
                    if la if t == 0 else lb:
                        board[ny] = a1 if t == 0 else a2
                        board[sizee] = a2 if t == 0 else a1
                        c2, c4, c8 = tally(classify_orbit(board, n, bound1, bound2, topbit, endbit), c2, c4, c8)
            continue
        lft[ny] = lf
        dwn[ny] = dw
        rgt[ny] = rg
        bm[ny] = cand
        y = ny
    return c2, c4, c8, nodes


@njit(cache=True, nogil=True)
def sym_count_scalar(n, corner, bound1, split, split2, halt):
    """:func:`~queenslab.native.symmetric.sym_count` as a scalar search: the same tree,
    counts and node count, one walk at a time; the same parameters and results (the stop
    flag ``halt`` polled at each backtrack).
    """
    if corner:
        return _search(n, 1, bound1, split, split2, halt)
    return _search(n, 0, bound1, split, split2, halt)
