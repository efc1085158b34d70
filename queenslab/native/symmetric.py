"""The symmetry-classifying counter of the standard problem, run on SIMD lanes.

The search is Takaken's method: a corner class (first-row queen in column 0, second-row
queen in column BOUND1, column 1 barred above row BOUND1) and a non-corner class
(first-row queen in column BOUND1 < BOUND2 = n-1-BOUND1, the side columns barred above
row BOUND1, row BOUND2 needing a side column already taken, the last-row queen kept off
LASTMASK), so that essentially only canonical boards are built; each board of the
non-corner class is compared with its 90, 180 and 270 degree rotations and counted as
having 2, 4 or 8 images. The non-corner class also looks ahead to the last row: a node
whose queens leave the last row no column outside LASTMASK gets no candidates.

How it runs. A scalar search spends most of its time on mispredicted branches (which
column next, descend or backtrack), about 6-7 ns per queen placed on the reference
machine, whatever the compiler. Here :data:`LANES` independent depth-first walks run side
by side: every walk's search state is six ``int64`` words, and one step of every walk is
the same branch-free sequence of integer operations (backtrack one row when the node is
exhausted, then place the lowest candidate), written as masks and selects so that LLVM
compiles the loop over the walks into SIMD instructions (AVX2 / AVX-512 on x86). Each
walk starts from a *root*, a placement of the first ``d0`` rows produced by a small
scalar search, and takes the next root when its subtree is done. The tree searched, the
counts and the node count are those of the scalar program, row for row.

The walk state needs no stack:

* the diagonals are kept *wide*: ``ld`` unmasked (bits move up past column n-1) and
  ``rd`` offset by 32 bits (bits move down past column 0 without being lost), so a
  parent's diagonals are the child's shifted back with the queen's bit removed;
* the columns of the queens placed below the root are pushed 5 bits each into one word
  (at most :data:`MAX_BELOW` rows below the root), which gives the queen to remove when
  backtracking and the board to classify at a leaf;
* a parent's remaining candidates are recomputed on backtracking: its allowed columns
  (the same rules; its look-ahead held, since the walk descended from it) above the
  queen just removed.

The kernels are pure functions on integers and arrays, ``cache=True, nogil=True``;
:mod:`queenslab.native.engine` chooses the tasks and threads.
"""

import numpy as np

from .jit import njit, trailing_zeros

#: Walks run side by side (16 int64 lanes: four 256-bit registers per word, as LLVM
#: vectorises the loop on AVX2 / AVX-512 machines; 8 walks were left unvectorised).
LANES = 16
#: Rows a walk may place below its root: 12 columns of 5 bits fill a 60-bit word.
MAX_BELOW = 12
#: Rows the scalar root search places beyond the task's first row(s), the split row
#: included (enough roots to keep the lanes busy to the end of a task: 4 measured best
#: among 2 to 6 at n = 15 and 16, see docs/performance.md).
ROOT_ROWS = 4
#: Largest board: the widest bitboard, ``rd`` offset by 32, must stay below the sign bit.
MAX_N = 31

_RD = 32  # offset of the right-diagonal bits in the wide representation
_COLS = (1 << 60) - 1  # the column stack's bits


@njit(cache=True, nogil=True)
def symmetry_rules(n, corner, bound1):
    """The class's masks: ``(mask, b1, xm, b2, side, lm, lastok, look)``.

    Rows ``y < b1`` exclude ``xm``; row ``b2`` applies the BOUND2 rule on ``side``; the
    last row excludes ``lm``; ``look`` switches the look-ahead to ``lastok`` on.
    """
    mask = (1 << n) - 1
    if corner:
        # column 1 above row bound1 would make the transposed board smaller
        return mask, bound1, 2, -1, 0, 0, mask, 0
    topbit = 1 << (n - 1)
    side = topbit | 1
    lm = side
    for _ in range(bound1 - 1):
        lm |= (lm >> 1) | (lm << 1)
    return mask, bound1, side, n - 1 - bound1, side, lm, mask & ~lm, 1


# compiled once and inlined by LLVM: numba's own inlining (inline="always") typed it
# anew at each of its ten call sites, half a second of every cold compile for no speed
@njit(cache=True, nogil=True)
def _allowed(y, ld, rd, cols, n, mask, b1, xm, b2, side, lm, lastok, look):
    """Columns a queen may take in row ``y`` (wide diagonals), branch-free."""
    free = mask & ~(ld | (rd >> _RD) | cols)
    free &= ~(xm & -np.int64(y < b1))
    # row BOUND2: no side column taken yet -> nothing; one of the two -> side columns only
    at2 = -np.int64(y == b2)
    sd = cols & side
    keep = -np.int64(sd != 0) & ((side & -np.int64(sd != side)) | (mask & -np.int64(sd == side)))
    free &= (keep & at2) | ~at2
    free &= ~(lm & -np.int64(y == n - 1))
    # look-ahead: the diagonals projected onto the last row must leave it a column
    s = n - 1 - y
    s &= ~(s >> 63)
    alive = np.int64((lastok & ~(cols | (ld << s) | (rd >> (_RD + s)))) != 0)
    return free & -(alive | np.int64(look == 0))


@njit(inline="always")
def _step(a, r, k, c, dd, lo, ac, nd, c8, wt, d0, n, mask, b1, xm, b2, side, lm, lastok, look, cfl):
    """One step of one walk: backtrack one row if the node is exhausted, then place the
    lowest candidate. Every quantity is computed and the results selected by masks.

    The walk's words: ``a`` / ``r`` the wide left / right diagonals, ``k`` the columns,
    ``c`` the candidates left in the current row ``dd``, ``lo`` the column stack, ``ac``
    whether the walk is active, ``nd`` its queens placed, ``c8`` its corner-class
    solutions, ``wt`` whether it waits with a full board; then the task's constants
    (:func:`symmetry_rules`, the root depth ``d0``, ``cfl`` = -1 for the corner class)."""
    ac &= ~wt
    # backtrack: remove the last queen (the low 5 bits of the column stack)
    e = -(np.int64(c == 0) & np.int64(dd > d0) & ac)
    b = np.int64(1) << (lo & 31)
    pa = (a >> 1) ^ b
    pr = (r << 1) ^ (b << _RD)
    pk = k ^ b
    # the parent's candidates above the queen removed: its look-ahead held (the walk came
    # from it), and LASTMASK cannot matter (a parent in the last row had one free column,
    # the queen's own), so both are left out
    pc = _allowed(dd - 1, pa, pr, pk, n, mask, b1, xm, b2, side, 0, lastok, 0) & ~((b << 1) - 1)
    a = (pa & e) | (a & ~e)
    r = (pr & e) | (r & ~e)
    k = (pk & e) | (k & ~e)
    c = (pc & e) | (c & ~e)
    lo = (((lo >> 5) & _COLS) & e) | (lo & ~e)
    dd += e
    # descend into the lowest candidate
    h = -(np.int64(c != 0) & ac)
    bit = c & -c
    ca = (a | bit) << 1
    cr = (r | (bit << _RD)) >> 1
    ck = k | bit
    cc = _allowed(dd + 1, ca, cr, ck, n, mask, b1, xm, b2, side, lm, lastok, look)
    clo = (lo << 5) | trailing_zeros(bit | (1 << 62))  # nonzero input: defined for any intrinsic
    a = (ca & h) | (a & ~h)
    r = (cr & h) | (r & ~h)
    k = (ck & h) | (k & ~h)
    c = (cc & h) | (c & ~h)
    lo = (clo & h) | (lo & ~h)
    dd -= h
    nd -= h
    # a full board: the corner class counts it (8 images); the other waits to be classified
    leaf = -np.int64(ck == mask) & h
    c8 -= leaf & cfl
    wt |= -(leaf & ~cfl)
    return a, r, k, c, dd, lo, ac, nd, c8, wt


@njit(cache=True, nogil=True)
def classify_orbit(board, n, bound1, bound2, topbit, endbit):
    """Images of a canonical-candidate board under D4: 2, 4, 8, or 0 (not canonical).

    ``board`` holds one bit per row. Compares the board with its 90, 180 and 270
    degree rotations as Takaken's check does; only called on boards built by the
    non-corner class of :func:`sym_count`.
    """
    sizee = n - 1
    # 90 degrees
    if board[bound2] == 1:
        own = 1
        ptn = 2
        while own <= sizee:
            bit = 1
            you = sizee
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you -= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn <<= 1
        if own > sizee:
            return 2
    # 180 degrees
    if board[sizee] == endbit:
        own = 1
        you = sizee - 1
        while own <= sizee:
            bit = 1
            ptn = topbit
            while ptn != board[you] and board[own] >= bit:
                bit <<= 1
                ptn >>= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            you -= 1
        if own > sizee:
            return 4
    # 270 degrees
    if board[bound1] == topbit:
        own = 1
        ptn = topbit >> 1
        while own <= sizee:
            bit = 1
            you = 0
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you += 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn >>= 1
    return 8


@njit(inline="always")
def tally(images, c2, c4, c8):
    """``(c2, c4, c8)`` with one more board of ``images`` images (none for 0, the
    :func:`classify_orbit` result of a board that is not canonical)."""
    if images == 2:
        c2 += 1
    elif images == 4:
        c4 += 1
    elif images == 8:
        c8 += 1
    return c2, c4, c8


@njit(cache=True, nogil=True)
def sym_count(n, corner, bound1, split, split2, halt):
    """Count one subtree of the symmetry-classifying search of the standard problem.

    Parameters
    ----------
    n : int
        Board size, 4 <= n <= :data:`MAX_N`.
    corner : int
        1: the first-row queen is in the corner and the second-row queen in column
        ``bound1`` (2 <= bound1 <= n-2); 0: the first-row queen is in column ``bound1``
        (1 <= bound1 < n-1-bound1).
    bound1 : int
        The class's BOUND1: the second-row column (corner) or the first-row column.
    split : int
        If >= 0, only the subtree whose queen in the first free row (row 2 for
        corner, row 1 otherwise) stands in column ``split``; -1 for the whole subtree.
    split2 : int
        With ``split`` >= 0 and ``split2`` >= 0, only the part of that subtree whose
        queen in the next row stands in column ``split2`` (the deeper split of a count
        on many cores); -1 for all of it. The queen of the ``split`` row is counted
        among the nodes of the ``split2 = 0`` part only (it is placed in every part), so
        that the parts' node counts add up to the subtree's.
    halt : int64[1]
        The stop flag, polled between passes over the lanes and while the roots are
        searched.

    Returns
    -------
    (c2, c4, c8, nodes) : tuple of int64
        Canonical solutions with 2, 4 and 8 images, and queens placed below the
        first row(s) (the non-corner search looks ahead to the last row and places no
        queens below a node that leaves it no column). Over all tasks, the unique count
        is ``c2 + c4 + c8`` and the total ``2*c2 + 4*c4 + 8*c8``. Partial when the stop
        flag ``halt[0]`` was set.
    """
    return _sym_lanes(n, corner, bound1, split, split2, halt, ROOT_ROWS, MAX_BELOW)


@njit(cache=True, nogil=True)
def _sym_lanes(n, corner, bound1, split, split2, halt, root_rows, max_below):
    """:func:`sym_count` with the roots cut ``root_rows`` rows below the fixed rows, or
    deeper so that at most ``max_below`` rows remain below them (``root_rows`` at least 1,
    ``max_below`` at most :data:`MAX_BELOW`, the column stack's room: clamped). With
    ``split2`` the roots are at least two rows deep, so that the ``split2`` row is
    placed by the root search (the lanes recompute their root row's candidates from the
    rules when they backtrack, which would lose a mask)."""
    root_rows = max(root_rows, 2 if split >= 0 and split2 >= 0 else 1)
    max_below = min(max(max_below, 1), MAX_BELOW)
    mask, b1, xm, b2, side, lm, lastok, look = symmetry_rules(n, corner, bound1)
    cfl = -np.int64(corner != 0)
    bound2 = n - 1 - bound1
    topbit = 1 << (n - 1)
    endbit = topbit >> bound1
    board = np.zeros(n, np.int64)  # the root search's rows
    full = np.zeros(n, np.int64)  # a board being classified
    # the fixed first row(s)
    if corner:
        y0 = 2
        board[0] = 1
        board[1] = 1 << bound1
        ld0 = (1 << 2) | (1 << (bound1 + 1))
        rd0 = (1 << (_RD - 2)) | (1 << (bound1 + _RD - 1))
        cols0 = 1 | (1 << bound1)
    else:
        y0 = 1
        board[0] = 1 << bound1
        ld0 = 1 << (bound1 + 1)
        rd0 = 1 << (bound1 + _RD - 1)
        cols0 = 1 << bound1
    d0 = min(max(y0 + 1, y0 + root_rows, n - max_below), n - 1)
    # the scalar search for roots (rows y0 .. d0-1), advanced whenever a lane is free
    rbm = np.zeros(n + 1, np.int64)
    rld = np.zeros(n + 1, np.int64)
    rrd = np.zeros(n + 1, np.int64)
    rck = np.zeros(n + 1, np.int64)
    rld[y0] = ld0
    rrd[y0] = rd0
    rck[y0] = cols0
    first = _allowed(y0, ld0, rd0, cols0, n, mask, b1, xm, b2, side, lm, lastok, look)
    rbm[y0] = first & (1 << split) if split >= 0 else first
    y = y0
    # the split row's queen is placed in every split2 part: counted in part 0 only
    nodes = -1 if split >= 0 and split2 > 0 and rbm[y0] != 0 else 0
    # the lanes
    ld = np.zeros(LANES, np.int64)
    rd = np.zeros(LANES, np.int64)
    cols = np.zeros(LANES, np.int64)
    cand = np.zeros(LANES, np.int64)
    depth = np.full(LANES, d0, np.int64)  # an idle walk sits at the root depth
    stack = np.zeros(LANES, np.int64)
    act = np.zeros(LANES, np.int64)
    wait = np.zeros(LANES, np.int64)
    placed = np.zeros(LANES, np.int64)
    c8s = np.zeros(LANES, np.int64)
    prefix = np.zeros((LANES, n), np.int64)
    c2 = 0
    c4 = 0
    c8 = 0
    while True:
        live = 0
        for lane in range(LANES):
            if wait[lane]:
                # classify the full board: the root's rows, then the stacked columns
                lo = stack[lane]
                for row in range(n - 1, d0 - 1, -1):
                    full[row] = 1 << (lo & 31)
                    lo >>= 5
                # element by element: a slice assignment compiles numba's shape checks
                # and their error messages, a third of this kernel's cold compile
                for row in range(d0):
                    full[row] = prefix[lane, row]
                c2, c4, c8 = tally(classify_orbit(full, n, bound1, bound2, topbit, endbit), c2, c4, c8)
                wait[lane] = 0
            while act[lane] == 0 and y >= y0:
                m = rbm[y]
                if m == 0:
                    y -= 1
                    if halt[0]:  # stop requested: no more roots
                        y = y0 - 1
                    continue
                bit = m & -m
                rbm[y] = m ^ bit
                board[y] = bit
                nodes += 1
                a = (rld[y] | bit) << 1
                r = (rrd[y] | (bit << _RD)) >> 1
                k = rck[y] | bit
                c = _allowed(y + 1, a, r, k, n, mask, b1, xm, b2, side, lm, lastok, look)
                if y == y0 and split >= 0 and split2 >= 0:
                    c &= 1 << split2
                if y + 1 < d0:
                    y += 1
                    rld[y] = a
                    rrd[y] = r
                    rck[y] = k
                    rbm[y] = c
                elif c:  # a root with candidates: this lane walks its subtree
                    ld[lane] = a
                    rd[lane] = r
                    cols[lane] = k
                    cand[lane] = c
                    depth[lane] = d0
                    stack[lane] = 0
                    act[lane] = 1
                    for row in range(d0):
                        prefix[lane, row] = board[row]
            live += act[lane]
        if live == 0 or halt[0]:
            break
        # the SIMD loop: four steps of every lane, state in registers between the steps
        for lane in range(LANES):
            a = ld[lane]
            r = rd[lane]
            k = cols[lane]
            c = cand[lane]
            dd = depth[lane]
            lo = stack[lane]
            ac = act[lane]
            nd = placed[lane]
            c8x = c8s[lane]
            wt = wait[lane]
            a, r, k, c, dd, lo, ac, nd, c8x, wt = _step(
                a, r, k, c, dd, lo, ac, nd, c8x, wt, d0, n, mask, b1, xm, b2, side, lm, lastok, look, cfl
            )
            a, r, k, c, dd, lo, ac, nd, c8x, wt = _step(
                a, r, k, c, dd, lo, ac, nd, c8x, wt, d0, n, mask, b1, xm, b2, side, lm, lastok, look, cfl
            )
            a, r, k, c, dd, lo, ac, nd, c8x, wt = _step(
                a, r, k, c, dd, lo, ac, nd, c8x, wt, d0, n, mask, b1, xm, b2, side, lm, lastok, look, cfl
            )
            a, r, k, c, dd, lo, ac, nd, c8x, wt = _step(
                a, r, k, c, dd, lo, ac, nd, c8x, wt, d0, n, mask, b1, xm, b2, side, lm, lastok, look, cfl
            )
            ld[lane] = a
            rd[lane] = r
            cols[lane] = k
            cand[lane] = c
            depth[lane] = dd
            stack[lane] = lo
            # a walk is done when it is back at its root with nothing left
            act[lane] = act[lane] & np.int64((c != 0) | (dd > d0))
            placed[lane] = nd
            c8s[lane] = c8x
            wait[lane] = wt
    return c2, c4, c8 + c8s.sum(), nodes + placed.sum()
