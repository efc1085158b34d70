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

The half placements come from quarter tables built once (:func:`quarter_tables`): every
placement of queens, at most one per row and column, in the rows of the upper part
(``[0, n-m)``, odd n's middle row included) or of the lower part and the columns of one
half, grouped by its rows and columns, as a word of the half's diagonals (only those on
which it can still meet another queen: :func:`_window`, ``2 (n - 1)`` bits). The placements
of a half on the rows ``E`` are then the pairs of an upper placement on ``E``'s upper
rows and columns ``C`` and a lower one on ``E``'s lower rows and the other columns whose
words are disjoint (:func:`_half_join`): a loop of ORs and tests instead of a search.

The pairs are counted bit-sliced: the keys of one side are stored transposed, 64 to a
word, one word per key bit holding which keys *lack* that bit (a 64 x 64 bit
transposition per word, :func:`_transpose`); the bits are cut into chunks
(:func:`chunk_layout`: five or six of 6 to 8 bits, wider as n grows) and, for every chunk
value, the AND of the words of its bits is tabulated. A query (a key of the other side)
then ANDs one table row per chunk and popcounts, 64 keys per word. The table is laid out
by blocks of 512 keys, every row of a block one cache line, and counted block by block:
all queries pass over a block while its rows (40 KB with five chunks of 7 bits) stay in
a first-level data cache of 48 KB (Intel's since Ice Lake; AMD's Zen 4 has 32 KB), their
popcounts summed as 512-bit vectors
(:func:`queenslab.native.jit.block_counter`). A long table is sorted into buckets by a
few key bits (the sieve), and each bucket's blocks are counted against the queries that
lack its bits there; so a query never meets a visited bucket's keys on those bits, and
they are left out of the chunks (at n = 22, five chunks instead of six).

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

from . import join_layout
from .jit import BLOCK, block_counter, njit, popcount, trailing_zeros
from .join_layout import (  # the layout's constants, read here by the kernels and by tests
    MAX_CHUNK,
    MAX_CHUNKS,  # noqa: F401
    MAX_N,  # noqa: F401
    MIN_CHUNK,  # noqa: F401
    MIN_CHUNKS,  # noqa: F401
    PAD,
    SIEVE_CUTS,
    SIEVE_MAX_CUTS,
    SIEVE_MIN_KEYS,
)

#: Below this product of the two sides' sizes the pairs are tested one by one.
DIRECT_PAIRS = 4096

if PAD % BLOCK:  # a bucket's words must be whole blocks (:func:`_build`, :func:`_pairs`)
    raise ImportError(f"join_layout.PAD ({PAD}) must be a multiple of jit.BLOCK ({BLOCK})")


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
def join_tasks(n):
    """The canonical ``(b, E, weight)`` rows of n: ``b`` the middle column's row (-1 for
    even n), ``E`` the bit set of rows with an east queen, ``weight`` its orbit's size
    under the north-south and east-west reflections. Every ``(b, E)`` of the board is the
    image of exactly one row, and ``weight`` of them share its count: the rows of
    :func:`masked_join_tasks` with every cell allowed and every reflection kept."""
    return masked_join_tasks(n, np.full(n, (1 << n) - 1, np.int64), True, True, True)


@njit(cache=True, nogil=True)
def _masked_tasks_pass(n, allowed, ns, ew, rot, out, fill):
    """Count (and with ``fill`` write) the ``(b, E, weight)`` of n whose queens can stand
    on allowed cells (the middle column's at ``(b, m)``, every row of E on an east cell,
    every other row on a west one), canonical under the reflections flagged (``ns``
    north-south, ``ew`` east-west, ``rot`` the half turn: a group, and each must map the
    allowed cells onto themselves)."""
    m = n // 2
    odd = n % 2
    free = n - odd
    east = (1 << m) - 1
    west = east << (n - m)
    east_ok = 0
    west_ok = 0
    for r in range(n):
        if allowed[r] & east:
            east_ok |= 1 << r
        if allowed[r] & west:
            west_ok |= 1 << r
    found = 0
    b_last = n - 1 if odd else -1
    b = 0 if odd else -1
    while b <= b_last:
        if b >= 0 and not (allowed[b] >> m) & 1:
            b += 1
            continue
        rows = ((1 << n) - 1) ^ ((1 << b) if b >= 0 else 0)
        x = (1 << m) - 1
        end = 1 << free
        while x < end:
            e = _spread(x, b)
            w = rows ^ e
            if (e & ~east_ok) == 0 and (w & ~west_ok) == 0:
                b2 = n - 1 - b if b >= 0 else -1
                k0 = ((b + 1) << n) | e
                k1 = ((b2 + 1) << n) | _reverse(e, n)  # north-south
                k2 = ((b + 1) << n) | w  # east-west
                k3 = ((b2 + 1) << n) | _reverse(w, n)  # the half turn
                if (not ns or k0 <= k1) and (not ew or k0 <= k2) and (not rot or k0 <= k3):
                    weight = 1
                    if ns and k1 != k0:
                        weight += 1
                    if ew and k2 != k0 and not (ns and k2 == k1):
                        weight += 1
                    if rot and k3 != k0 and not (ns and k3 == k1) and not (ew and k3 == k2):
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
def masked_join_tasks(n, allowed, ns, ew, rot):
    """The ``(b, E, weight)`` rows of a problem whose queens stand on allowed cells only
    (row r in the columns ``allowed[r]``), as :func:`join_tasks`: every ``(b, E)`` that
    can hold a solution is the image of exactly one row under the group of the flagged
    reflections (see :func:`_masked_tasks_pass`), and ``weight`` of them share its
    count. No flag: every such ``(b, E)``, weight 1."""
    k = _masked_tasks_pass(n, allowed, ns, ew, rot, np.zeros((1, 3), np.int64), False)
    out = np.zeros((k, 3), np.int64)
    _masked_tasks_pass(n, allowed, ns, ew, rot, out, True)
    return out


@njit(cache=True, nogil=True)
def _layout(n):
    """``(m, upper rows, lower rows)``: the half width, the rows of the upper part (odd
    n: the middle row too) and of the lower part."""
    m = n // 2
    return m, n - m, m


@njit(cache=True, nogil=True)
def _window(n, half):
    """``(lo, width)``: the diagonals a half-board word keeps, of each direction the
    half's local indices ``[lo, lo + width)``. These are the diagonals on which two queens
    of a solution's half words can still meet: those crossing into the other half (the
    key's ``2m - 1``), those crossing between the half's upper and lower rows (where an
    upper and a lower quarter placement meet) and, for odd n, those through the middle
    column. The rest hold cells of one quarter only, whose conflicts the quarter's own
    search has already excluded. That is ``[m, m + n - 1)`` in the east half and
    ``[0, n - 1)`` in the west for both directions (a test re-derives it cell by cell),
    so a word has ``2 (n - 1)`` bits: 42 at n = 22, 44 at n = 23."""
    return (n // 2 if half == 0 else 0), n - 1


@njit(cache=True, nogil=True)
def _quarter_pass(n, half, part, allow, offs, base, words, fill, halt):
    """Enumerate the placements of queens in the rows of one part (0 upper, 1 lower) and
    the columns of one half (0 east, 1 west): any rows, at most one queen per row and
    column, no shared diagonal, row r's queen only in the columns ``allow[r]`` (bits of
    the whole board; all of them for the standard problem). Without ``fill`` count them
    by (rows, columns) into ``offs[base + key + 1]``; with ``fill`` write each one's word
    at the cursor ``offs[base + key]`` and advance it. ``key = (rows << m) | columns``
    (local bits).

    The search holds each direction's diagonals relative to the half: bit ``r + j`` and
    bit ``j - r + n - 1`` for the queen of row r in the half's column j. The word written
    keeps of them the window of :func:`_window`: the first direction's in its low
    ``n - 1`` bits, the second's above. Returns early (incomplete) when ``halt[0]`` is set."""
    m, nu, nl = _layout(n)
    lo_win, width = _window(n, half)
    keep = (1 << width) - 1
    r0 = 0 if part == 0 else nu
    nr = nu if part == 0 else nl
    lo = 0 if half == 0 else n - m
    skip = 1 << m
    full = skip - 1
    local = np.empty(nr, np.int64)  # each row's allowed columns of the half, local bits
    for i in range(nr):
        local[i] = (allow[r0 + i] >> lo) & full
    avail = np.empty(nr, np.int64)
    d1s = np.empty(nr + 1, np.int64)
    d2s = np.empty(nr + 1, np.int64)
    cols = np.empty(nr + 1, np.int64)
    rws = np.empty(nr + 1, np.int64)
    d1s[0] = 0
    d2s[0] = 0
    cols[0] = 0
    rws[0] = 0
    avail[0] = local[0] | skip
    i = 0
    while i >= 0:
        a = avail[i]
        if a == 0:
            i -= 1
            if i < 3 and halt[0]:  # polled near the root: cheap, and often enough
                return
            continue
        bit = a & -a
        avail[i] = a ^ bit
        d1 = d1s[i]
        d2 = d2s[i]
        c_set = cols[i]
        r_set = rws[i]
        if bit != skip:
            j = trailing_zeros(bit)
            r = r0 + i
            d1 |= 1 << (r + j)
            d2 |= 1 << (j - r + n - 1)
            c_set |= bit
            r_set |= 1 << i
        if i == nr - 1:
            key = base + ((r_set << m) | c_set)
            if fill:
                words[offs[key]] = ((d1 >> lo_win) & keep) | (((d2 >> lo_win) & keep) << width)
                offs[key] += 1
            else:
                offs[key + 1] += 1
            continue
        i += 1
        d1s[i] = d1
        d2s[i] = d2
        cols[i] = c_set
        rws[i] = r_set
        r = r0 + i
        avail[i] = (local[i] & ~c_set & ~(d1 >> r) & ~(d2 >> (n - 1 - r))) | skip


@njit(cache=True, nogil=True)
def _every_cell(n):
    """The allowed columns of the standard problem: every column of every row."""
    return np.full(n, (1 << n) - 1, np.int64)


@njit(cache=True, nogil=True)
def quarter_tables(n, halt):
    """``(words, offs, bases)``: every placement of a quarter, for the four quarters
    (table ``t = 2 * half + part``), grouped by rows and columns. The words of rows R and
    columns C of table t are ``words[offs[bases[t] + key] : offs[bases[t] + key + 1]]``,
    ``key = (R << m) | C``. Incomplete when ``halt[0]`` was set."""
    return _tables(n, _every_cell(n), halt)


@njit(cache=True, nogil=True)
def masked_quarter_tables(n, allowed, halt):
    """:func:`quarter_tables` of the placements whose queens stand on allowed cells only:
    row r's queen in the columns ``allowed[r]`` (an int64 of the whole board's bits)."""
    return _tables(n, allowed, halt)


@njit(cache=True, nogil=True)
def _offsets(n, allow, halt):
    """``(offs, bases)`` of :func:`quarter_tables` by a counting pass: each list's start
    (``offs[bases[4] - 1]`` is the number of words)."""
    m, nu, nl = _layout(n)
    bases = np.zeros(5, np.int64)
    for t in range(4):
        rows = nu if t % 2 == 0 else nl
        bases[t + 1] = bases[t] + (1 << (rows + m)) + 1
    offs = np.zeros(bases[4], np.int64)
    for t in range(4):
        _quarter_pass(n, t // 2, t % 2, allow, offs, bases[t], offs, False, halt)
    running = 0
    for t in range(4):
        b = bases[t]
        offs[b] = running
        for i in range(b + 1, bases[t + 1]):
            offs[i] += offs[i - 1]
        running = offs[bases[t + 1] - 1]
    return offs, bases


@njit(cache=True, nogil=True)
def _tables(n, allow, halt):
    offs, bases = _offsets(n, allow, halt)
    words = np.empty(offs[bases[4] - 1], np.int64)
    cursor = offs.copy()
    for t in range(4):
        _quarter_pass(n, t // 2, t % 2, allow, cursor, bases[t], words, True, halt)
    return words, offs, bases


@njit(cache=True, nogil=True)
def _longest_bound(n, offs, bases):
    """A bound of the longest key list of one half of any task: for the upper rows R, the
    pairs of an upper placement on R and columns C with the most lower placements of any
    rows on the other columns, the largest sum over C. One pass over the offsets, not
    over the tasks: 366,622 keys at n = 20 and 2,868,464 at n = 22, where the largest of
    the tasks' own bounds is 300,950 and 2,300,692, in 1/20 of the time."""
    m, nu, nl = _layout(n)
    full = (1 << m) - 1
    best = 0
    most = np.empty(1 << m, np.int64)
    for half in range(2):
        tu = bases[2 * half]
        tl = bases[2 * half + 1]
        most[:] = 0
        for i in range(1 << (nl + m)):
            c = i & full
            most[c] = max(most[c], offs[tl + i + 1] - offs[tl + i])
        for ru in range(1 << nu):
            s = 0
            for c in range(1 << m):
                i = tu + (ru << m) + c
                s += (offs[i + 1] - offs[i]) * most[full ^ c]
            best = max(best, s)
    return best


@njit(cache=True, nogil=True)
def quarter_size(n):
    """``(words, offsets, longest)``: the lengths of the arrays of :func:`quarter_tables`
    and a bound of the longest half-board key list of a task (:func:`_longest_bound`), by
    a counting pass that builds no table."""
    offs, bases = _offsets(n, _every_cell(n), np.zeros(1, np.int64))
    return offs[bases[4] - 1], len(offs), _longest_bound(n, offs, bases)


@njit(cache=True, nogil=True)
def _middle_word(n, half, b):
    """The middle column's queen (b, m) as a word of the half: its diagonals within the
    half's window (:func:`_window`; every one of them that crosses the half is there)."""
    if b < 0:
        return 0
    m = n // 2
    lo_win, width = _window(n, half)
    off = 0 if half == 0 else n - m
    w = 0
    i1 = b + m - off - lo_win
    i2 = m - b + n - 1 - off - lo_win
    if 0 <= i1 < width:
        w |= 1 << i1
    if 0 <= i2 < width:
        w |= 1 << (width + i2)
    return w


@njit(cache=True, nogil=True)
def _half_join(n, half, rows, mq, words, offs, bases, out, sw, sk):
    """Keys of the placements of one queen in each row of ``rows`` (absolute bits) in the
    columns of ``half``, avoiding the middle queen's word ``mq``: the compatible pairs of
    an upper and a lower quarter placement on complementary columns. ``sw`` and ``sk``
    are work space as long as the longest quarter list.

    Returns ``(number of keys, out)``; ``out`` is replaced by a larger array when full."""
    m, nu, _nl = _layout(n)
    lo_win, width = _window(n, half)
    ru = rows & ((1 << nu) - 1)
    rl = rows >> nu
    k = popcount(ru)
    full = (1 << m) - 1
    w2 = 2 * m - 1
    mask = (1 << w2) - 1
    # the key: the diagonals crossing both halves, local [n - m, n + m - 2] east and
    # [0, 2m - 2] west, of each direction, in the word's window
    a = (n - m if half == 0 else 0) - lo_win
    b = width + a
    tu = bases[2 * half] + (ru << m)
    tl = bases[2 * half + 1] + (rl << m)
    cnt = 0
    c = (1 << k) - 1
    while c <= full:
        ns = offs[tu + c]
        ne = offs[tu + c + 1]
        ss = offs[tl + (full ^ c)]
        se = offs[tl + (full ^ c) + 1]
        if ne > ns and se > ss:
            # the lower words clear of the middle queen, with their keys: the key of a
            # union is the union of the keys, so the inner loop only ORs and tests
            size = 0
            for j in range(ss, se):
                ws = words[j]
                sw[size] = ws
                sk[size] = ((ws >> a) & mask) | (((ws >> b) & mask) << w2)
                size += (ws & mq) == 0
            if size:
                for i in range(ns, ne):
                    wn = words[i]
                    if wn & mq:
                        continue
                    if cnt + size > len(out):
                        bigger = np.empty(2 * len(out) + size, np.int64)
                        bigger[:cnt] = out[:cnt]
                        out = bigger
                    kn = ((wn >> a) & mask) | (((wn >> b) & mask) << w2)
                    for j in range(size):
                        out[cnt] = kn | sk[j]
                        cnt += (sw[j] & wn) == 0
        if c == 0:
            break
        c = _next_combination(c)
    return cnt, out


@njit(cache=True, nogil=True)
def _bucket(key, cuts, ncut):
    """The bits of ``key`` at the positions ``cuts[:ncut]``, packed."""
    v = 0
    for i in range(ncut):
        v |= ((key >> cuts[i]) & 1) << i
    return v


@njit(cache=True, nogil=True)
def _pack(key, drop, ndrop):
    """``key`` without its bits at the positions ``drop[:ndrop]`` (in decreasing order),
    the bits above each closed up."""
    for i in range(ndrop):
        p = drop[i]
        key = (key & ((1 << p) - 1)) | ((key >> (p + 1)) << p)
    return key


@njit(cache=True, nogil=True)
def _transpose(a):
    """Transpose the 64 x 64 bit matrix ``a`` (64 uint64) in place: afterwards bit i of
    ``a[j]`` is what bit j of ``a[i]`` was. Six rounds of swapping blocks of half the size
    (the recursive transposition of H. S. Warren's Hacker's Delight, for 64 bits)."""
    j = 32
    m = np.uint64(0x00000000FFFFFFFF)
    while j:
        k = 0
        shift = np.uint64(j)
        while k < 64:
            t = ((a[k] >> shift) ^ a[k | j]) & m
            a[k] ^= t << shift
            a[k | j] ^= t
            k = ((k | j) + 1) & ~j
        j >>= 1
        m ^= m << np.uint64(j)


@njit(cache=True, nogil=True)
def _build(keys, nk, width, nchunks, cuts, ncut, drop, table, planes, gstart):
    """Tabulate ``keys[:nk]``, sorted into buckets by their bits at ``cuts``, each bucket
    starting on a fresh 64-key word and padded to a multiple of :data:`PAD` words: bucket
    v holds the words ``gstart[v]:gstart[v+1]``. The table is laid out by blocks of
    :data:`BLOCK` words (512 keys): block b holds, for every chunk c of ``width`` bits and
    value u, which of its keys lack every bit of u in chunk c of the key without its
    bucket bits (:func:`_pack` by ``drop``: a query visits only buckets whose bits it
    lacks, so they never meet there), at ``table[b * stride + (c * 2**width + u) *
    BLOCK:][:BLOCK]``, ``stride = nchunks * 2**width * BLOCK``. A block's rows (40 KB with
    five chunks of 7 bits) stay in a first-level cache of 48 KB while the queries pass. An empty
    slot is in no row: chunk 0's row 0 holds the slots in use. Returns the stride."""
    nb = 1 << ncut
    for v in range(nb + 1):
        gstart[v] = 0
    for i in range(nk):
        gstart[_bucket(keys[i], cuts, ncut) + 1] += 1
    for v in range(nb):  # counts to word offsets
        gstart[v + 1] = gstart[v] + ((((gstart[v + 1] + 63) >> 6) + PAD - 1) & -PAD)
    groups = gstart[nb]
    nbits = nchunks * width
    # the keys in their slots (empty ones 0), then each word's 64 keys transposed into
    # the key's bits: a tenth of the work of setting the bits key by key
    slots = np.zeros(groups << 6, np.uint64)
    used = np.zeros(groups, np.int64)
    fill = np.empty(nb, np.int64)
    for v in range(nb):
        fill[v] = gstart[v] << 6
    for i in range(nk):
        v = _bucket(keys[i], cuts, ncut)
        slot = fill[v]
        fill[v] = slot + 1
        slots[slot] = _pack(keys[i], drop, ncut)
        used[slot >> 6] |= 1 << (slot & 63)
    for g in range(groups):
        word = slots[g << 6 : (g + 1) << 6]
        _transpose(word)
        for j in range(nbits):
            planes[j, g] = ~word[j]
    rows = 1 << width
    stride = nchunks * rows * BLOCK
    for b in range(groups // BLOCK):
        g0 = b * BLOCK
        for c in range(nchunks):
            at = b * stride + c * rows * BLOCK
            for w in range(BLOCK):
                table[at + w] = used[g0 + w] if c == 0 else -1
            for u in range(1, rows):
                low = u & -u
                plane = c * width + trailing_zeros(low)
                src = at + (u ^ low) * BLOCK
                dst = at + u * BLOCK
                for w in range(BLOCK):
                    table[dst + w] = table[src + w] & planes[plane, g0 + w]
    return stride


# the queries' count over one block, by the number of chunks (:func:`chunk_layout`)
_count5 = block_counter(5)
_count6 = block_counter(6)


@njit(cache=True, nogil=True)
def sieve_bits(keys, ncut):
    """How many key bits (at most ``ncut``) a table of ``keys`` keys is bucketed by: none
    below :data:`SIEVE_MIN_KEYS`, then :data:`SIEVE_CUTS` and one more per doubling of the
    table, so that a bucket keeps 1,000 to 2,000 keys."""
    if keys < SIEVE_MIN_KEYS:
        return 0
    wanted = SIEVE_CUTS
    while (keys >> (wanted - SIEVE_CUTS + 1)) >= SIEVE_MIN_KEYS:
        wanted += 1
    return min(ncut, wanted)


@njit(cache=True, nogil=True)
def _aligned(size):
    """An int64 array of ``size`` words whose first word starts a cache line (64 bytes):
    a vector load of a block's row that straddles two lines costs two loads, which made the
    pair count a quarter slower."""
    raw = np.empty(size + BLOCK, np.int64)
    skip = ((-raw.ctypes.data) & 63) >> 3
    return raw[skip : skip + size]


@njit(cache=True, nogil=True)
def pair_space(bits, ncut, keys):
    """Work space of :func:`_pairs` for lists of up to ``keys`` keys of ``bits`` bits,
    bucketed by at most ``ncut`` bits: ``(table, planes, gstart, marks, offsets)``. The
    table has room for the most chunks such keys are cut into (those of an unbucketed
    table: :func:`chunk_layout` of ``bits``), each of :data:`MAX_CHUNK` bits."""
    _, nchunks = chunk_layout(bits)
    groups = ((keys + 63) >> 6) + (1 << ncut) * PAD
    table = _aligned(nchunks * (1 << MAX_CHUNK) * groups)
    planes = np.empty((nchunks * MAX_CHUNK, groups), np.int64)
    size = max(keys, 1)
    return (
        table,
        planes,
        np.zeros((1 << ncut) + 1, np.int64),
        np.empty(size, np.int64),
        np.empty(size * nchunks, np.int32),
    )


@njit(cache=True, nogil=True)
def _pairs(xs, nx, ys, ny, bits, cuts, ncut, table, planes, gstart, marks, offsets):
    """Number of pairs (x, y) of the two key lists (``bits`` bits) with ``x & y == 0``,
    the tabulated one bucketed by at most ``ncut`` of the bits at ``cuts`` (by its length:
    :func:`sieve_bits`) and cut, without those bits, into the chunks of
    :func:`chunk_layout`. ``table``, ``planes``, ``gstart``, ``marks`` and ``offsets`` are
    work space for either list (:func:`pair_space`)."""
    total = 0
    if nx * ny <= DIRECT_PAIRS or min(nx, ny) < 8:
        for j in range(ny):
            y = ys[j]
            for i in range(nx):
                if xs[i] & y == 0:
                    total += 1
        return total
    # tabulate the list that makes less work: the table's words times (the queries, plus
    # the rows per chunk built)
    width, nchunks = chunk_layout(bits)
    rows = 1 << width
    if ((nx + 63) >> 6) * (ny + rows) > ((ny + 63) >> 6) * (nx + rows):
        xs, nx, ys, ny = ys, ny, xs, nx
    # a few bits sort a long table into buckets: a query visits only the buckets that
    # lack its own bits there (the sieve of E. Kluev's program, by other means), so those
    # bits never meet and are left out of the chunks (fewer or narrower ones)
    ncut = sieve_bits(nx, ncut)
    width, nchunks = chunk_layout(bits - ncut)
    rows = 1 << width
    drop = np.sort(cuts[:ncut])[::-1].copy()
    stride = _build(xs, nx, width, nchunks, cuts, ncut, drop, table, planes, gstart)
    # the queries sorted by their bucket bits (those of ``u`` at ``first[u]:first[u+1]``),
    # each as the offsets of its rows in a block
    nb = 1 << ncut
    first = np.zeros(nb + 1, np.int64)
    for j in range(ny):
        marks[j] = _bucket(ys[j], cuts, ncut)
        first[marks[j] + 1] += 1
    for u in range(nb):
        first[u + 1] += first[u]
    fill = first[:nb].copy()
    vmask = rows - 1
    for j in range(ny):
        at = fill[marks[j]]
        fill[marks[j]] = at + 1
        k = _pack(ys[j], drop, ncut)
        for c in range(nchunks):
            offsets[at * nchunks + c] = (c * rows + ((k >> (c * width)) & vmask)) * BLOCK
    # block by block, every query that lacks the bucket's bits: the block's rows stay in
    # the first-level cache while the queries stream past
    for v in range(nb):
        for g in range(gstart[v], gstart[v + 1], BLOCK):
            base = (g // BLOCK) * stride
            for u in range(nb):
                if u & v == 0 and first[u + 1] > first[u]:
                    if nchunks == 5:
                        total += _count5(table, base, offsets, first[u], first[u + 1])
                    else:
                        total += _count6(table, base, offsets, first[u], first[u + 1])
    return total


key_bits = njit(cache=True, nogil=True)(join_layout.key_bits)
chunk_layout = njit(cache=True, nogil=True)(join_layout.chunk_layout)


@njit(cache=True, nogil=True)
def _cuts(n):
    """Key bits the table is bucketed by: the longest diagonals first (the most often
    occupied, so the most queries skip their buckets), alternating the two directions."""
    m = n // 2
    w2 = 2 * m - 1
    out = np.empty(10, np.int64)
    k = 0
    for d in (0, -1, 1, -2, 2):
        if 0 <= m - 1 + d < w2:
            out[k] = m - 1 + d
            out[k + 1] = w2 + m - 1 + d
            k += 2
    return out[:k]


@njit(cache=True, nogil=True)
def join_count(n, tasks, start, stop, words, offs, bases, halt):
    """``(sum of weight * count, east keys, west keys)`` over ``tasks[start:stop]`` of
    :func:`join_tasks`, with the quarters of :func:`quarter_tables`; returns early (a
    partial sum) when ``halt[0]`` is set."""
    bits = key_bits(n)
    cuts = _cuts(n)
    ncut = min(SIEVE_MAX_CUTS, len(cuts))
    cap = 1024
    east = np.empty(cap, np.int64)
    west = np.empty(cap, np.int64)
    space = pair_space(bits, ncut, cap)
    longest = 0
    for i in range(len(offs) - 1):
        longest = max(longest, offs[i + 1] - offs[i])
    sw = np.empty(longest, np.int64)
    sk = np.empty(longest, np.int64)
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
        ne, east = _half_join(n, 0, e, _middle_word(n, 0, b), words, offs, bases, east, sw, sk)
        if ne == 0:
            continue
        nw, west = _half_join(n, 1, rows ^ e, _middle_word(n, 1, b), words, offs, bases, west, sw, sk)
        n_east += ne
        n_west += nw
        longer = max(ne, nw)
        if longer > len(space[3]):
            space = pair_space(bits, ncut, longer + longer // 2)
        table, planes, gstart, marks, offsets = space
        total += weight * _pairs(east, ne, west, nw, bits, cuts, ncut, table, planes, gstart, marks, offsets)
    return total, n_east, n_west


@njit(cache=True, nogil=True)
def _pairs_tested(n, b, e, offs, bases, tested):
    """Into ``tested[half]``: the upper and lower quarter placement pairs :func:`_half_join`
    tests for the task ``(b, E)`` (the middle queen ignored), a bound of its key lists."""
    m, nu, _nl = _layout(n)
    full = (1 << m) - 1
    rows = ((1 << n) - 1) ^ ((1 << b) if b >= 0 else 0)
    for half in range(2):
        tested[half] = 0
        r = e if half == 0 else rows ^ e
        ru = r & ((1 << nu) - 1)
        rl = r >> nu
        k = popcount(ru)
        tu = bases[2 * half] + (ru << m)
        tl = bases[2 * half + 1] + (rl << m)
        c = (1 << k) - 1
        while c <= full:
            north = offs[tu + c + 1] - offs[tu + c]
            south = offs[tl + (full ^ c) + 1] - offs[tl + (full ^ c)]
            tested[half] += north * south
            if c == 0:
                break
            c = _next_combination(c)


@njit(cache=True, nogil=True)
def task_costs(n, tasks, offs, bases):
    """An estimate of each task's work, to order tasks largest first: the upper and lower
    quarter pairs its two halves test (:func:`_pairs_tested`), and their product over
    1024 for the pair count."""
    out = np.empty(len(tasks), np.int64)
    tested = np.zeros(2, np.int64)
    for t in range(len(tasks)):
        _pairs_tested(n, tasks[t, 0], tasks[t, 1], offs, bases, tested)
        out[t] = tested[0] + tested[1] + (tested[0] * tested[1]) // 1024
    return out


@njit(cache=True, nogil=True)
def fixed_counts(n, halt):
    """``(F90, F180, nodes)``: the solutions of n fixed by the quarter turn and by the half
    turn, by a search placing queens in half-turn pairs ``(r, c)``, ``(n-1-r, n-1-c)``
    for rows ``r < n // 2`` (odd n: the centre queen first, the only one the half turn
    fixes). ``halt[0]`` set: returns early."""
    return _fixed(n, _every_cell(n), halt)


@njit(cache=True, nogil=True)
def masked_fixed_counts(n, allowed, halt):
    """:func:`fixed_counts` of the solutions whose queens stand on allowed cells only
    (row r in the columns ``allowed[r]``)."""
    return _fixed(n, allowed, halt)


@njit(cache=True, nogil=True)
def _fixed(n, allow, halt):
    f90 = 0
    f180 = 0
    nodes = 0
    if n == 1:
        return (1, 1, 1) if allow[0] & 1 else (0, 0, 0)
    h = n // 2
    full = (1 << n) - 1
    # the columns c of row r whose partner cell (n-1-r, n-1-c) is allowed too
    pair = np.empty(h + 1, np.int64)
    for r in range(h):
        pair[r] = allow[r] & _reverse(allow[n - 1 - r], n)
    pair[h] = full
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
    if h == 0 or (n % 2 and not (allow[h] >> h) & 1):
        return 0, 0, 0

    avail[0] = pair[0] & ~cols0 & ~d10 & ~(d20 >> (n - 1))
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
        avail[i] = pair[i] & ~cols & ~(d1 >> i) & ~(d2 >> (n - 1 - i))
    return f90, f180, nodes
