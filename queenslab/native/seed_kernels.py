"""Numba kernels for the counting algorithms of the literature (see ``seeds.py``).

``count_plain(n)`` returns the number of solutions of the standard n-queens problem as
an int64; each other kernel ``search_<name>(n, lo, hi)`` counts the solutions whose
first-row queen stands in a column ``lo <= c < hi`` (``search_bitwise(n, first)``: in a
column of the mask ``first``, with the queens it placed). They exist to compare the data structures
of "The N queens problem - new variants of the Wirth algorithm"
and of the ranking and backtracking papers (plain recursive backtracking) under one compiler, so
every kernel keeps the structure its source describes and nothing more.

Control flow
------------
Numba can compile self-recursive functions, but a lazily typed recursive function
compiled with ``cache=True`` crashed (segmentation fault) when a second process
loaded it from the cache (numba 0.68). So every kernel walks the search tree with
the same explicit stack instead: ``nxt[r]`` is the loop variable of the frame of
row ``r`` (the next candidate to try), ``r += 1`` is the recursive call and
``r -= 1`` is the return. Only the per-row data structures differ between kernels,
which is what "The N queens problem - new variants of the Wirth algorithm" compares.

Mirror halving ("The N queens problem - new variants of the Wirth algorithm", section 3 "Symmetry")
---------------------------------------------------
Every kernel of the Wirth-variants paper and the bitmask one are run on the first-row
queen's left half (``c < n // 2``), and that count doubled; for odd ``n`` the middle
column is searched once more without doubling (:func:`queenslab.native.seeds.count_with`
does this for each). ``count_plain`` does not halve.

Only numpy and numba are imported here; validation lives in ``seeds.py``.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

__all__ = [
    "count_plain",
    "search_basic",
    "search_backtracking_v1",
    "search_backtracking_v2",
    "search_filtering_v1",
    "search_filtering_v2",
    "search_bitwise",
]


# ---------------------------------------------------------------------------
# Plain recursive backtracking (the ranking and backtracking papers): an n x n 0/1 board, a cell is
# safe if no queen is found by scanning its row, its column and both diagonals.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _is_safe_board(board, n, row, col):
    # Scan the row and the column (Gupta, Deept and Dobhal's backtracking report, IsSafe).
    for i in range(n):
        if board[row, i] != 0 or board[i, col] != 0:
            return False
    # Scan the four diagonal directions from (row, col).
    for d in range(1, n):
        r1 = row - d
        r2 = row + d
        c1 = col - d
        c2 = col + d
        if r1 >= 0 and c1 >= 0 and board[r1, c1] != 0:
            return False
        if r1 >= 0 and c2 < n and board[r1, c2] != 0:
            return False
        if r2 < n and c1 >= 0 and board[r2, c1] != 0:
            return False
        if r2 < n and c2 < n and board[r2, c2] != 0:
            return False
    return True


@njit(cache=True, nogil=True)
def count_plain(n):
    """Plain backtracking on a 0/1 board with scanning safety checks, no halving."""
    board = np.zeros((n, n), dtype=np.int8)
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    while r >= 0:
        c = nxt[r]
        if c >= n:
            r -= 1
            if r >= 0:
                board[r, nxt[r] - 1] = 0  # take back the queen of the parent row
            continue
        nxt[r] = c + 1
        if _is_safe_board(board, n, r, c):
            if r == n - 1:
                total += 1
            else:
                board[r, c] = 1
                r += 1
                nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# "The N queens problem - new variants of the Wirth algorithm", section 2: basic backtracking (Wirth) with CheckNode.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _check_node(queens, row, col):
    """CheckNode: compare (row, col) with every pre-set queen (column or diagonal)."""
    for i in range(row):
        q = queens[i]
        d = row - i
        if q == col or q - col == d or col - q == d:
            return False
    return True


@njit(cache=True, nogil=True)
def search_basic(n, lo, hi):
    queens = np.zeros(n, dtype=np.int64)
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    nxt[0] = lo
    while r >= 0:
        c = nxt[r]
        if c >= (hi if r == 0 else n):
            r -= 1
            continue
        nxt[r] = c + 1
        if _check_node(queens, r, c):
            if r == n - 1:
                total += 1
            else:
                queens[r] = c
                r += 1
                nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# CheckNode restricted to the diagonals, for the two "Backtracking ver." kernels
# whose column filter already excludes used columns.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _check_diagonals(queens, row, col):
    for i in range(row):
        q = queens[i]
        d = row - i
        if q - col == d or col - q == d:
            return False
    return True


# ---------------------------------------------------------------------------
# "The N queens problem - new variants of the Wirth algorithm", section 4: backtracking ver. 1. A 2-D boolean array
# columns[row][col] (True = column still free); the line of a row is a copy of
# its parent's line with the parent's column cleared. CheckNode for diagonals.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_backtracking_v1(n, lo, hi):
    queens = np.zeros(n, dtype=np.int64)
    columns = np.ones((n, n), dtype=np.bool_)
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    nxt[0] = lo
    while r >= 0:
        c = nxt[r]
        if c >= (hi if r == 0 else n):
            r -= 1
            continue
        nxt[r] = c + 1
        if columns[r, c]:  # the filter
            if _check_diagonals(queens, r, c):
                if r == n - 1:
                    total += 1
                else:
                    queens[r] = c
                    for i in range(n):  # copy columns[row] to columns[row + 1]
                        columns[r + 1, i] = columns[r, i]
                    columns[r + 1, c] = False
                    r += 1
                    nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# "The N queens problem - new variants of the Wirth algorithm", section 5: backtracking ver. 2. free[row][0:n-row] lists the
# columns still free in that row; the child's list is the parent's list without
# the chosen column (size decremented). The loop runs over free columns only.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_backtracking_v2(n, lo, hi):
    queens = np.zeros(n, dtype=np.int64)
    free = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        free[0, i] = i  # row 0: all columns, in order, so index == column
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    nxt[0] = lo
    while r >= 0:
        k = nxt[r]
        if k >= (hi if r == 0 else n - r):
            r -= 1
            continue
        nxt[r] = k + 1
        c = free[r, k]
        if _check_diagonals(queens, r, c):
            if r == n - 1:
                total += 1
            else:
                queens[r] = c
                m = 0
                for j in range(n - r):  # the parent's list without entry k
                    if j != k:
                        free[r + 1, m] = free[r, j]
                        m += 1
                r += 1
                nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# "The N queens problem - new variants of the Wirth algorithm", section 6: by filtering ver. 1. 2-D boolean arrays for columns
# (n) and both diagonal families (2n - 1 each), one line per row, copied from the
# parent's line with the parent's queen marked. No CheckNode.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_filtering_v1(n, lo, hi):
    m = 2 * n - 1
    cols = np.ones((n, n), dtype=np.bool_)
    diag = np.ones((n, m), dtype=np.bool_)  # index row + col
    anti = np.ones((n, m), dtype=np.bool_)  # index row - col + n - 1
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    nxt[0] = lo
    while r >= 0:
        c = nxt[r]
        if c >= (hi if r == 0 else n):
            r -= 1
            continue
        nxt[r] = c + 1
        if cols[r, c] and diag[r, r + c] and anti[r, r - c + n - 1]:
            if r == n - 1:
                total += 1
            else:
                for i in range(n):
                    cols[r + 1, i] = cols[r, i]
                for i in range(m):
                    diag[r + 1, i] = diag[r, i]
                    anti[r + 1, i] = anti[r, i]
                cols[r + 1, c] = False
                diag[r + 1, r + c] = False
                anti[r + 1, r - c + n - 1] = False
                r += 1
                nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# "The N queens problem - new variants of the Wirth algorithm", section 7: by filtering ver. 2. 1-D boolean arrays for columns
# and both diagonal families, cleared before descending and set back on return.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_filtering_v2(n, lo, hi):
    cols = np.ones(n, dtype=np.bool_)
    diag = np.ones(2 * n - 1, dtype=np.bool_)
    anti = np.ones(2 * n - 1, dtype=np.bool_)
    nxt = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    r = 0
    nxt[0] = lo
    while r >= 0:
        c = nxt[r]
        if c >= (hi if r == 0 else n):
            r -= 1
            if r >= 0:  # returning to the parent: add its queen's lines back
                p = nxt[r] - 1
                cols[p] = True
                diag[r + p] = True
                anti[r - p + n - 1] = True
            continue
        nxt[r] = c + 1
        if cols[c] and diag[r + c] and anti[r - c + n - 1]:
            if r == n - 1:
                total += 1
            else:
                cols[c] = False
                diag[r + c] = False
                anti[r - c + n - 1] = False
                r += 1
                nxt[r] = 0
    return total


# ---------------------------------------------------------------------------
# Bit operations (Jeff Somers, cited in the Wirth-variants paper's conclusions): int64 masks
# of used columns and of the two diagonal families shifted by one per row.
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_bitwise(n, first):
    """``(solutions, queens placed)`` with the first row's queen among the columns of ``first``."""
    full = (np.int64(1) << n) - 1
    cols = np.zeros(n, dtype=np.int64)
    left = np.zeros(n, dtype=np.int64)
    right = np.zeros(n, dtype=np.int64)
    avail = np.zeros(n, dtype=np.int64)
    total = np.int64(0)
    nodes = np.int64(0)
    r = 0
    avail[0] = first
    while r >= 0:
        a = avail[r]
        if a == 0:
            r -= 1
            continue
        bit = a & -a
        avail[r] = a ^ bit
        nodes += 1
        if r == n - 1:
            total += 1
            continue
        c = cols[r] | bit
        lft = ((left[r] | bit) << 1) & full
        rgt = (right[r] | bit) >> 1
        r += 1
        cols[r] = c
        left[r] = lft
        right[r] = rgt
        avail[r] = full & ~(c | lft | rgt)
    return total, nodes
