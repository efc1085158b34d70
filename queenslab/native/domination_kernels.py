"""The numba kernel of the exhaustive domination search: can ``k`` queens on the allowed
cells cover every cell that needs covering?

Cells are numbered ``0..N-1`` and sets of cells are bitsets of ``W`` 64-bit words (one
row of a ``uint64`` array). A node of the search holds the cells still uncovered, ``U``,
the cells a queen may still take, ``A``, the queens left, ``r``, and the symmetries of
the board that map ``U``, ``A`` and the cover relation onto themselves (a bit mask over
the rows of ``sym``). It answers whether at most ``r`` queens on ``A`` cover ``U``:

* ``U`` empty: yes; ``r = 0``: no; ``r = 1``: yes exactly when some allowed cell covers
  every cell of ``U`` (the and of the cells covering each);
* the *gain* of a cell is the number of cells of ``U`` a queen there covers; when the
  ``r`` largest gains add up to less than ``|U|`` no ``r`` queens cover ``U``;
* with ``T`` the sum of the ``r - 1`` largest gains, a cell whose gain plus ``T`` is
  below ``|U|`` is in no answer (the other queens cover at most ``T``): it leaves ``A``
  for the whole subtree;
* otherwise the search branches on the uncovered cell with the fewest allowed cells
  covering it (one of them holds a queen of any answer), those cells taken by decreasing
  gain; when the branch of a cell fails, the cell's whole orbit under the node's
  symmetries leaves ``A`` for the later branches, and a branch keeps the symmetries that
  fix its cell. This is sound: if a set ``S`` answers the node, let branch ``i`` be the
  first whose orbit meets ``S`` and ``g`` a symmetry mapping that queen of ``S`` to the
  branch's cell; ``g(S)`` answers the node too (``g`` maps ``U`` and ``A`` onto
  themselves), holds the cell and avoids the earlier orbits (each maps onto itself), so
  branch ``i`` finds it.

The gains and the orbits are invariant under the node's symmetries, so the cells the
bounds remove keep ``A`` symmetric. The kernel is a pure function on integers and arrays,
called from Python at the root (numba loads a recursive kernel from its cache safely only
so); :mod:`queenslab.native.domination` builds the bitsets, the symmetries and the scratch
space, and checks them.
"""

import numpy as np

from .jit import njit, popcount, trailing_zeros

#: ``stats`` entries: nodes visited, queens of the answer found, whether the search stopped.
NODES, ANSWER_SIZE, WAS_STOPPED = 0, 1, 2

_U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _largest_sum(values, m, r, scratch):
    """The sum of the ``r`` largest of ``values[:m]`` (``r`` small: an insertion into
    ``scratch``)."""
    if r <= 0:
        return 0
    for i in range(r):
        scratch[i] = 0
    for i in range(m):
        v = values[i]
        if v > scratch[r - 1]:
            j = r - 1
            while j > 0 and scratch[j - 1] < v:
                scratch[j] = scratch[j - 1]
                j -= 1
            scratch[j] = v
    total = 0
    for i in range(r):
        total += scratch[i]
    return total


@njit(cache=True, nogil=True)
def _shared(cover, c, cells):
    """How many of the bitset ``cells`` a queen on ``c`` covers."""
    total = 0
    for v in range(cover.shape[1]):
        total += popcount(cover[c, v] & cells[v])
    return total


@njit(cache=True, nogil=True)
def cover_search(
    d, k, uncovered, allowed, groups, cover, sym, chosen, stats, gain, candidates, gains, scratch, acc, halt, timeout
):
    """Whether at most ``k - d`` queens on ``allowed[d]`` cover ``uncovered[d]``, the
    node's symmetries being the bit mask ``groups[d]`` over the rows of ``sym``; the
    queens found go to ``chosen[d:]``.

    Parameters
    ----------
    d, k : int
        The node's depth (queens placed) and the most queens.
    uncovered, allowed : uint64 array (k + 2, W)
        Row ``d``: the node's cells to cover and cells a queen may take; the rows below
        are the children's (written here).
    groups : int64 array (k + 2,)
        Entry ``d``: the node's symmetries, a bit mask over the rows of ``sym``.
    cover : uint64 array (N, W)
        Row ``c``: the cells a queen on ``c`` occupies or attacks (a symmetric relation:
        also the cells whose queen covers ``c``).
    sym : int64 array (G, N)
        Cell permutations that map ``cover`` and the root's cells onto themselves (at
        most 8, the identity first).
    chosen : int64 array (k + 1,)
        Receives the queens of an answer.
    stats : int64 array (3,)
        Adds the nodes visited; receives the size of the answer and whether the search
        stopped (:data:`NODES`, :data:`ANSWER_SIZE`, :data:`WAS_STOPPED`).
    gain, gains : int64 array (N,); candidates : int64 array (k + 2, N); scratch : int64
    array (k + 2,); acc : uint64 array (W,)
        Scratch space.
    halt, timeout : int64 array (1,)
        Stop flags, polled at every node: the stop flag of Ctrl-C
        (:data:`queenslab.interrupt.FLAG`) and the caller's time limit.

    Returns
    -------
    bool
        Whether an answer was found (False also when the search stopped: see ``stats``).
    """
    stats[NODES] += 1
    if halt[0] or timeout[0]:
        stats[WAS_STOPPED] = 1
        return False
    words = cover.shape[1]
    r = k - d
    u = uncovered[d]
    a = allowed[d]
    size = 0
    for w in range(words):
        size += popcount(u[w])
    if size == 0:
        stats[ANSWER_SIZE] = d
        return True
    if r == 0:
        return False
    if r == 1:  # one queen covers all of U: a cell covering each of its cells
        for w in range(words):
            acc[w] = a[w]
        for w in range(words):
            x = u[w]
            while x:
                b = trailing_zeros(x)
                x &= x - _U1
                line = cover[w * 64 + b]
                left = np.uint64(0)
                for v in range(words):
                    acc[v] &= line[v]
                    left |= acc[v]
                if left == 0:
                    return False
        for w in range(words):
            if acc[w]:
                chosen[d] = w * 64 + trailing_zeros(acc[w])
                stats[ANSWER_SIZE] = d + 1
                return True
        return False
    # the gains of the allowed cells, and the bound of the r largest
    m = 0
    for w in range(words):
        x = a[w]
        while x:
            b = trailing_zeros(x)
            x &= x - _U1
            c = w * 64 + b
            g = _shared(cover, c, u)
            gain[c] = g
            gains[m] = g
            m += 1
    if _largest_sum(gains, m, r, scratch) < size:
        return False
    rest = _largest_sum(gains, m, r - 1, scratch)
    # the children's allowed cells: the cells that can be in an answer
    child = allowed[d + 1]
    for w in range(words):
        x = a[w]
        keep = np.uint64(0)
        while x:
            b = trailing_zeros(x)
            x &= x - _U1
            if gain[w * 64 + b] + rest >= size:
                keep |= _U1 << np.uint64(b)
        child[w] = keep
    # branch on the uncovered cell with the fewest allowed cells covering it
    best = -1
    fewest = 1 << 30
    for w in range(words):
        x = u[w]
        while x and fewest > 0:
            b = trailing_zeros(x)
            x &= x - _U1
            c = w * 64 + b
            t = _shared(cover, c, child)
            if t < fewest:
                fewest = t
                best = c
    if fewest == 0:
        return False
    # one of best's coverers is used: the largest of their gains, plus the rest, must reach |U|
    most = 0
    order = candidates[d]
    count = 0
    for w in range(words):
        x = cover[best, w] & child[w]
        while x:
            b = trailing_zeros(x)
            x &= x - _U1
            c = w * 64 + b
            g = gain[c]
            most = max(most, g)
            j = count
            while j > 0 and gain[order[j - 1]] < g:
                order[j] = order[j - 1]
                j -= 1
            order[j] = c
            count += 1
    if most + rest < size:
        return False
    group = groups[d]
    left = uncovered[d + 1]
    for i in range(count):
        c = order[i]
        if (child[c >> 6] >> np.uint64(c & 63)) & _U1 == 0:
            continue  # in the orbit of an earlier branch
        for w in range(words):
            left[w] = u[w] & ~cover[c, w]
        fixing = 0
        for g in range(sym.shape[0]):
            if (group >> g) & 1 and sym[g, c] == c:
                fixing |= 1 << g
        groups[d + 1] = fixing
        child[c >> 6] &= ~(_U1 << np.uint64(c & 63))
        chosen[d] = c
        if cover_search(
            d + 1,
            k,
            uncovered,
            allowed,
            groups,
            cover,
            sym,
            chosen,
            stats,
            gain,
            candidates,
            gains,
            scratch,
            acc,
            halt,
            timeout,
        ):
            return True
        if stats[WAS_STOPPED]:
            return False
        for g in range(sym.shape[0]):  # the whole orbit of c leaves the later branches
            if (group >> g) & 1:
                e = sym[g, c]
                child[e >> 6] &= ~(_U1 << np.uint64(e & 63))
    return False
