"""Numba kernels of the half-board join counter of the standard n-queens problem.

The method follows the idea of E. Kluev's N-Queens-Count-Sol (count by joining
partial placements instead of backtracking over whole boards); the design and code
here are queenslab's own.

A solution puts one queen in every row. Split the columns into an east part
``[0, m)`` and a west part ``[n-m, n)``, ``m = n // 2``; for odd n the middle column
``m`` holds one queen, at some row ``b``. Every other row has its queen either east or
west: call ``E`` the rows with an east queen (``m`` of them) and ``W`` the rest. For a
fixed ``(b, E)`` the solutions are exactly the pairs (east placement of rows ``E``,
west placement of rows ``W``) whose diagonals are disjoint, both avoiding the middle
queen's diagonals. East and west queens can only meet on the ``2m - 1`` diagonals of
each direction that cross both parts, so each half placement is reduced to a *key* of
``2 * (2m - 1)`` bits and the count of ``(b, E)`` is the number of (east key, west key)
pairs with ``east & west == 0``.

The pairs are counted bit-sliced: the keys of one side are stored transposed, 64 to a
word, one word per key bit holding which keys *lack* that bit; the bits are cut into
chunks of :data:`CHUNK` and, for every chunk value, the AND of the words of its bits is
tabulated. A query (a key of the other side) then ANDs one table row per chunk and
popcounts, 64 keys per word.

Symmetry: the reflection of the rows (north-south) maps ``(b, E)`` to
``(n-1-b, reversed E)`` and that of the columns (east-west) maps it to ``(b, W)``; both
keep the count, so only one ``(b, E)`` of every orbit of that four-element group is
counted, weighted by the orbit's size (:func:`join_tasks`).

The numbers of solutions fixed by the quarter turn and the half turn (:func:`fixed_counts`)
come from a small search over half-turn-symmetric placements.

All kernels are pure functions on integers and numpy arrays, ``cache=True, nogil=True``;
:mod:`queenslab.native.join` checks the arguments and runs them on threads.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

#: Bits of a key per table chunk: every chunk has ``2 ** CHUNK`` rows (6 measured best at
#: n = 16..18 against 4 and 5).
CHUNK = 6
#: Largest number of chunks (keys of at most ``CHUNK * MAX_CHUNKS`` = 48 bits: n <= 25).
MAX_CHUNKS = 8
#: Largest n whose keys fit :data:`MAX_CHUNKS` chunks.
MAX_N = 25
#: Below this product of the two sides' sizes the pairs are tested one by one.
DIRECT_PAIRS = 4096


@intrinsic
def _popcount(typingctx, x):
    """``llvm.ctpop.i64``: one instruction with POPCNT, vectorisable on AVX-512."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen


@njit(cache=True, nogil=True)
def _reverse(x, n):
    """The n low bits of x in reverse order."""
    r = 0
    for i in range(n):
        if (x >> i) & 1:
            r |= 1 << (n - 1 - i)
    return r


@njit(cache=True, nogil=True)
def _spread(x, b):
    """Insert a zero bit at position b (b < 0: x unchanged)."""
    if b < 0:
        return x
    low = x & ((1 << b) - 1)
    return low | ((x >> b) << (b + 1))


@njit(cache=True, nogil=True)
def _next_combination(x):
    """The next larger integer with as many set bits (Gosper's hack)."""
    low = x & -x
    ripple = x + low
    return ripple | (((x ^ ripple) >> 2) // low)


@njit(cache=True, nogil=True)
def _tasks_pass(n, out, fill):
    """Count (and with ``fill`` write) the canonical ``(b, E, weight)`` of n."""
    m = n // 2
    odd = n % 2
    free = n - odd  # rows holding an east or west queen
    found = 0
    b_last = m if odd else -1
    b = 0 if odd else -1
    while b <= b_last:
        rows = ((1 << n) - 1) ^ ((1 << b) if b >= 0 else 0)
        x = (1 << m) - 1
        end = 1 << free
        while x < end:
            e = _spread(x, b)
            w = rows ^ e
            b2 = n - 1 - b if b >= 0 else -1
            k0 = ((b + 1) << n) | e
            k1 = ((b2 + 1) << n) | _reverse(e, n)  # north-south
            k2 = ((b + 1) << n) | w  # east-west
            k3 = ((b2 + 1) << n) | _reverse(w, n)  # both: the half turn
            if k0 <= k1 and k0 <= k2 and k0 <= k3:
                weight = 1
                if k1 != k0:
                    weight += 1
                if k2 != k0 and k2 != k1:
                    weight += 1
                if k3 != k0 and k3 != k1 and k3 != k2:
                    weight += 1
                if fill:
                    out[found, 0] = b
                    out[found, 1] = e
                    out[found, 2] = weight
                found += 1
            if x == 0:
                break
            x = _next_combination(x)
        b += 1
    return found


@njit(cache=True, nogil=True)
def join_tasks(n):
    """The canonical ``(b, E, weight)`` rows of n: ``b`` the middle column's row (-1 for
    even n), ``E`` the bit set of rows with an east queen, ``weight`` its orbit's size
    under the north-south and east-west reflections. Every ``(b, E)`` of the board is the
    image of exactly one row, and ``weight`` of them share its count."""
    k = _tasks_pass(n, np.zeros((1, 3), np.int64), False)
    out = np.zeros((k, 3), np.int64)
    _tasks_pass(n, out, True)
    return out


@njit(cache=True, nogil=True)
def _half_keys(n, rows, lo, hi, d1_0, d2_0, key0, out):
    """Keys of the placements of one queen in every row of ``rows`` in the columns
    ``[lo, hi)``, none sharing a column or diagonal, avoiding the diagonals ``d1_0``
    (bit r+c) and ``d2_0`` (bit c-r+n-1). Writes up to ``len(out)`` keys; returns how many
    there are (more than ``len(out)``: call again with a larger ``out``)."""
    m = n // 2
    s = n - m  # the first diagonal crossing both parts
    w = 2 * m - 1
    mask = (1 << w) - 1
    depth = 0
    rowlist = np.empty(n, np.int64)
    for r in range(n):
        if (rows >> r) & 1:
            rowlist[depth] = r
            depth += 1
    if depth == 0:
        if len(out) > 0:
            out[0] = 0
        return 1
    cols_all = ((1 << hi) - 1) ^ ((1 << lo) - 1)
    avail = np.empty(depth, np.int64)
    d1s = np.empty(depth + 1, np.int64)
    d2s = np.empty(depth + 1, np.int64)
    cols = np.empty(depth + 1, np.int64)
    d1s[0] = d1_0
    d2s[0] = d2_0
    cols[0] = 0
    r = rowlist[0]
    avail[0] = cols_all & ~(d1_0 >> r) & ~(d2_0 >> (n - 1 - r))
    cap = len(out)
    found = 0
    i = 0
    while i >= 0:
        a = avail[i]
        if a == 0:
            i -= 1
            continue
        bit = a & -a
        avail[i] = a ^ bit
        c = trailing_zeros(bit)
        r = rowlist[i]
        d1 = d1s[i] | (1 << (r + c))
        d2 = d2s[i] | (1 << (c - r + n - 1))
        if i == depth - 1:
            if found < cap:
                key = ((d1 >> s) & mask) | (((d2 >> s) & mask) << w)
                out[found] = key & ~key0
            found += 1
            continue
        i += 1
        d1s[i] = d1
        d2s[i] = d2
        cols[i] = cols[i - 1] | bit
        r = rowlist[i]
        avail[i] = cols_all & ~cols[i] & ~(d1 >> r) & ~(d2 >> (n - 1 - r))
    return found


@njit(cache=True, nogil=True)
def _build(keys, nk, nchunks, table, planes):
    """Fill ``table[c, v, g]``: which of the 64 keys of word g lack every bit of the value
    v of chunk c (the padding keys of the last word count as present in no row)."""
    groups = (nk + 63) >> 6
    nbits = nchunks * CHUNK
    for j in range(nbits):
        for g in range(groups):
            planes[j, g] = -1
    for i in range(nk):
        k = keys[i]
        g = i >> 6
        clear = ~(1 << (i & 63))
        while k:
            j = trailing_zeros(k)
            planes[j, g] &= clear
            k &= k - 1
    rows = 1 << CHUNK
    for c in range(nchunks):
        for g in range(groups):
            table[c, 0, g] = -1
        if c == 0:
            # padding keys: present in no row (chunk 0 is in every query's AND)
            rest = nk & 63
            if rest:
                table[0, 0, groups - 1] = (1 << rest) - 1
        for v in range(1, rows):
            low = v & -v
            j = trailing_zeros(low)
            prev = v ^ low
            for g in range(groups):
                table[c, v, g] = table[c, prev, g] & planes[c * CHUNK + j, g]


@njit(cache=True, nogil=True)
def _query(table, groups, nchunks, q):
    """How many tabulated keys share no bit with q."""
    vmask = (1 << CHUNK) - 1
    v0 = q & vmask
    v1 = (q >> CHUNK) & vmask
    v2 = (q >> (2 * CHUNK)) & vmask
    v3 = (q >> (3 * CHUNK)) & vmask
    v4 = (q >> (4 * CHUNK)) & vmask
    total = 0
    if nchunks <= 5:
        for g in range(groups):
            total += _popcount(table[0, v0, g] & table[1, v1, g] & table[2, v2, g] & table[3, v3, g] & table[4, v4, g])
        return total
    v5 = (q >> (5 * CHUNK)) & vmask
    if nchunks == 6:
        for g in range(groups):
            total += _popcount(
                table[0, v0, g]
                & table[1, v1, g]
                & table[2, v2, g]
                & table[3, v3, g]
                & table[4, v4, g]
                & table[5, v5, g]
            )
        return total
    v6 = (q >> (6 * CHUNK)) & vmask
    v7 = (q >> (7 * CHUNK)) & vmask
    for g in range(groups):
        total += _popcount(
            table[0, v0, g]
            & table[1, v1, g]
            & table[2, v2, g]
            & table[3, v3, g]
            & table[4, v4, g]
            & table[5, v5, g]
            & table[6, v6, g]
            & table[7, v7, g]
        )
    return total


@njit(cache=True, nogil=True)
def _pairs(xs, nx, ys, ny, nchunks, table, planes):
    """Number of pairs (x, y) of the two key lists with ``x & y == 0``."""
    if nx < ny:  # tabulate the longer list: fewer half-empty words
        xs, nx, ys, ny = ys, ny, xs, nx
    total = 0
    if nx * ny <= DIRECT_PAIRS or ny < 8:
        for j in range(ny):
            y = ys[j]
            for i in range(nx):
                if xs[i] & y == 0:
                    total += 1
        return total
    _build(xs, nx, nchunks, table, planes)
    groups = (nx + 63) >> 6
    for j in range(ny):
        total += _query(table, groups, nchunks, ys[j])
    return total


@njit(cache=True, nogil=True)
def _nchunks(n):
    m = n // 2
    bits = 2 * (2 * m - 1)
    c = (bits + CHUNK - 1) // CHUNK
    return max(c, 5) if c <= 6 else MAX_CHUNKS


@njit(cache=True, nogil=True)
def join_count(n, tasks, start, stop, halt):
    """``(sum of weight * count, east keys, west keys)`` over ``tasks[start:stop]`` of
    :func:`join_tasks`; returns early (a partial sum) when ``halt[0]`` is set."""
    m = n // 2
    nchunks = _nchunks(n)
    cap = 1024
    east = np.empty(cap, np.int64)
    west = np.empty(cap, np.int64)
    groups_cap = (cap + 63) >> 6
    table = np.empty((MAX_CHUNKS, 1 << CHUNK, groups_cap), np.int64)
    planes = np.empty((MAX_CHUNKS * CHUNK, groups_cap), np.int64)
    total = 0
    n_east = 0
    n_west = 0
    for t in range(start, stop):
        if halt[0]:
            break
        b = tasks[t, 0]
        e = tasks[t, 1]
        weight = tasks[t, 2]
        rows = ((1 << n) - 1) ^ ((1 << b) if b >= 0 else 0)
        d1 = 0
        d2 = 0
        key0 = 0
        if b >= 0:  # the middle column's queen (b, m)
            d1 = 1 << (b + m)
            d2 = 1 << (m - b + n - 1)
            s = n - m
            mask = (1 << (2 * m - 1)) - 1
            key0 = ((d1 >> s) & mask) | (((d2 >> s) & mask) << (2 * m - 1))
        ne = _half_keys(n, e, 0, m, d1, d2, key0, east)
        if ne > len(east):
            east = np.empty(ne + ne // 2, np.int64)
            _half_keys(n, e, 0, m, d1, d2, key0, east)
        if ne == 0:
            continue
        nw = _half_keys(n, rows ^ e, n - m, n, d1, d2, key0, west)
        if nw > len(west):
            west = np.empty(nw + nw // 2, np.int64)
            _half_keys(n, rows ^ e, n - m, n, d1, d2, key0, west)
        n_east += ne
        n_west += nw
        need = (max(ne, nw) + 63) >> 6
        if need > table.shape[2]:
            table = np.empty((MAX_CHUNKS, 1 << CHUNK, need + need // 2), np.int64)
            planes = np.empty((MAX_CHUNKS * CHUNK, need + need // 2), np.int64)
        total += weight * _pairs(east, ne, west, nw, nchunks, table, planes)
    return total, n_east, n_west


@njit(cache=True, nogil=True)
def fixed_counts(n, halt):
    """``(F90, F180, nodes)``: the solutions of n fixed by the quarter turn and by the half
    turn, by a search placing queens in half-turn pairs ``(r, c)``, ``(n-1-r, n-1-c)``
    for rows ``r < n // 2`` (odd n: the centre queen first, the only one the half turn
    fixes). ``halt[0]`` set: returns early."""
    f90 = 0
    f180 = 0
    nodes = 0
    if n == 1:
        return 1, 1, 1
    h = n // 2
    full = (1 << n) - 1
    cols0 = 0
    d10 = 0
    d20 = 0
    if n % 2:
        c = h
        cols0 = 1 << c
        d10 = 1 << (h + c)
        d20 = 1 << (c - h + n - 1)
    p = np.zeros(n, np.int64)
    if n % 2:
        p[h] = h
    avail = np.zeros(h + 1, np.int64)
    colss = np.zeros(h + 1, np.int64)
    d1s = np.zeros(h + 1, np.int64)
    d2s = np.zeros(h + 1, np.int64)
    colss[0] = cols0
    d1s[0] = d10
    d2s[0] = d20
    if h == 0:
        return 0, 0, 0

    avail[0] = full & ~cols0 & ~d10 & ~(d20 >> (n - 1))
    i = 0
    while i >= 0:
        if halt[0]:
            break
        a = avail[i]
        if a == 0:
            i -= 1
            continue
        bit = a & -a
        avail[i] = a ^ bit
        c = trailing_zeros(bit)
        r = i
        r2 = n - 1 - r
        c2 = n - 1 - c
        if c2 == c:
            continue  # the partner queen would share the column (odd n: the centre's)
        cols = colss[i] | bit | (1 << c2)
        d1 = d1s[i] | (1 << (r + c))
        d2 = d2s[i] | (1 << (c - r + n - 1))
        # the partner: its diagonals must be free of everything placed, this queen included
        if (d1 >> (r2 + c2)) & 1 or (d2 >> (c2 - r2 + n - 1)) & 1:
            continue
        d1 |= 1 << (r2 + c2)
        d2 |= 1 << (c2 - r2 + n - 1)
        nodes += 1
        p[r] = c
        p[r2] = c2
        if i == h - 1:
            f180 += 1
            fixed = True
            for rr in range(n):
                # the quarter turn (r, c) -> (c, n-1-r) maps the board to itself
                if p[p[rr]] != n - 1 - rr:
                    fixed = False
                    break
            if fixed:
                f90 += 1
            continue
        i += 1
        colss[i] = cols
        d1s[i] = d1
        d2s[i] = d2
        avail[i] = full & ~cols & ~(d1 >> i) & ~(d2 >> (n - 1 - i))
    return f90, f180, nodes
