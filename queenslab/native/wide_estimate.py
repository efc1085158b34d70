"""Numba kernel of the tree-size estimators on boards wider than 64 columns (n <= 200).

The native engine's rows are 64-bit words, so :mod:`queenslab.native.estimate_kernels`
takes n <= 64. This module holds the same estimators for the standard and the plain
toroidal problem with columns and diagonals held in ``ceil(n / 64)`` words per mask (up
to :data:`MAX_N` = 200 columns: four words): :func:`probe_strata` is the same probe as
:func:`queenslab.native.estimate_kernels.probe_strata` (Knuth's path, Purdom's partial
backtracking, the exact tail), with the same columns of output, the same SplitMix64
random numbers consumed in the same order and the same sums in the same order: on a
board of at most 64 columns it returns the 64-bit kernel's numbers bit for bit, which the
tests check. :class:`Prefixes` enumerates the strata (the placements of the first rows)
as :class:`queenslab.native.engine.Walker` does, in the same lexicographic order.

Only these two problems: their only constraints are the lines (columns and diagonals,
wrapping on a torus), so the kernel needs no compiled tables (blocked cells, leapers,
regions), which are 64-bit rows.

Uniform choice among the ``c`` candidates of a row is the ``j``-th set bit across the
words: the words' popcounts are subtracted from ``j`` until the word holding it, then the
bit is found within that word.

Nothing here validates input beyond :func:`supports`; :mod:`queenslab.estimate` checks
arguments and runs the kernel on seeded tasks.
"""

from __future__ import annotations

import math

import numpy as np

from .estimate_kernels import BIG, COLUMNS, M2, NM2, NSUM, RANDOM, SUM, next_random, record_probe
from .jit import njit, trailing_zeros
from .kernels import popcount

__all__ = [
    "MAX_N",
    "supports",
    "shift",
    "probe_strata",
    "Prefixes",
    "SUM",
    "M2",
    "NSUM",
    "NM2",
    "RANDOM",
    "BIG",
    "COLUMNS",
]

#: The widest board (four 64-bit words per mask): beyond it the number of solutions,
#: about ``(n e**-1.942)**n`` (Simkin), exceeds a double's range (about 1.8e308 = e**709).
MAX_N = 200

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_ALL = ~np.uint64(0)
_S63 = np.uint64(63)


def supports(problem) -> bool:
    """Whether the wide kernel can estimate ``problem``: the standard or the plain
    toroidal problem (no other constraint) with ``n <= MAX_N``."""
    from ..problem import Problem

    return problem.n <= MAX_N and (problem.is_standard or problem == Problem(problem.n, toroidal=True))


def shift(n: int, toroidal: bool) -> int:
    """The power of two in which :func:`probe_strata` counts: about the expected number of
    solutions, ``n * (ln n - alpha)`` nats (alpha 1.942 on the standard board, 3 on the
    torus), so that the estimates and their squares stay far from overflow; 0 up to
    n = 64, where the output is then the 64-bit kernel's, bit for bit."""
    if n <= 64:
        return 0
    return max(0, round(n * (math.log(n) - (3.0 if toroidal else 1.942)) / math.log(2)))


@njit(cache=True, nogil=True)
def _full(n, words):
    """The words of the n low bits."""
    nw = len(words)
    full = np.empty(nw, np.uint64)
    for w in range(nw):
        full[w] = _ALL
    r = n & 63
    if r:
        full[nw - 1] = (_U1 << np.uint64(r)) - _U1
    return full


# ``words`` is a tuple of ceil(n / 64) zeros: its length is a compile-time constant, so
# numba compiles the kernel once per word count and LLVM unrolls the loops over the words
# (the state is three 2-d arrays rather than one 3-d: 1.6 against 2.3 times the 64-bit
# kernel's CPU time at n = 60)


@njit(cache=True, nogil=True)
def _candidates(y, sc, su, sd, full, cand, words):
    """Fill ``cand`` with the free cells of row y; return how many there are."""
    c = 0
    for w in range(len(words)):
        v = full[w] & ~(sc[y, w] | su[y, w] | sd[y, w])
        cand[w] = v
        c += popcount(v)
    return c


@njit(cache=True, nogil=True)
def _place(y, col, sc, su, sd, n, full, torus, words):
    """Row y + 1's lines after a queen on ``col`` of row y: the columns, the diagonal
    moving one column up per row and the one moving one column down (wrapping on a torus),
    as :func:`queenslab.native.kernels.place` on 64-bit rows."""
    nw = len(words)
    cw = col >> 6
    cb = _U1 << np.uint64(col & 63)
    topb = np.uint64((n - 1) & 63)  # bit n - 1 is in the last word
    for w in range(nw):
        b = cb if w == cw else _U0
        sc[y + 1, w] = sc[y, w] | b
        su[y + 1, w] = su[y, w] | b
        sd[y + 1, w] = sd[y, w] | b
    # up: every bit one column higher; on a torus bit n - 1 comes back as bit 0
    wrap = (su[y + 1, nw - 1] >> topb) & _U1 if torus else _U0
    for w in range(nw - 1, 0, -1):
        su[y + 1, w] = ((su[y + 1, w] << _U1) | (su[y + 1, w - 1] >> _S63)) & full[w]
    su[y + 1, 0] = ((su[y + 1, 0] << _U1) & full[0]) | wrap
    # down: every bit one column lower; on a torus bit 0 comes back as bit n - 1
    low = sd[y + 1, 0] & _U1
    for w in range(nw - 1):
        sd[y + 1, w] = (sd[y + 1, w] >> _U1) | (sd[y + 1, w + 1] << _S63)
    sd[y + 1, nw - 1] >>= _U1
    if torus and low:
        sd[y + 1, nw - 1] |= _U1 << topb


@njit(cache=True, nogil=True)
def _choose(cand, c, k, state, sel, y, words):
    """Write into ``sel[y]`` a uniformly random subset of ``min(k, c)`` of the ``c`` bits
    of ``cand`` (all of them when ``k >= c``); return the new random state. Consumes the
    random numbers of :func:`queenslab.native.estimate_kernels._choose`, bit for bit."""
    nw = len(words)
    if k >= c:
        for w in range(nw):
            sel[y, w] = cand[w]
        return state
    for w in range(nw):
        sel[y, w] = _U0
    if k == 1:
        # the j-th set bit: the words' popcounts, then the bit within its word
        state, r = next_random(state)
        j = np.int64(r % np.uint64(c))
        for w in range(nw):
            m = cand[w]
            p = popcount(m)
            if j < p:
                while j:
                    m &= m - _U1
                    j -= 1
                sel[y, w] = m & (_U0 - m)
                break
            j -= p
        return state
    # selection sampling (Knuth, TAOCP vol. 2, Algorithm S), bits in increasing order
    need = np.uint64(k)
    left = np.uint64(c)
    for w in range(nw):
        m = cand[w]
        while need and m:
            bit = m & (_U0 - m)
            m ^= bit
            state, r = next_random(state)
            if r % left < need:
                sel[y, w] |= bit
                need -= _U1
            left -= _U1
    return state


@njit(cache=True, nogil=True)
def _pop(sel, y, words):
    """Remove the lowest set bit of ``sel[y]`` and return its column (-1 when empty)."""
    for w in range(len(words)):
        bm = sel[y, w]
        if bm:
            bit = bm & (_U0 - bm)
            sel[y, w] = bm ^ bit
            return (w << 6) + np.int64(trailing_zeros(bit))
    return -1


def probe_strata(opts, width, prefixes, counts, seed, out, halt):
    """Run ``counts[h]`` probes below each prefix ``prefixes[h]``, accumulating into ``out[h]``.

    The arguments after the compiled tables, and the output, of
    :func:`queenslab.native.estimate_kernels.probe_strata` (which see), on the standard
    board (``torus = 0``) or the plain torus, ``n <= MAX_N``; the kernel (:func:`_probe`,
    compiled once per number of words) releases the GIL.

    Parameters
    ----------
    opts : int64[4]
        ``n, torus, cap, shift``: the output is in units of ``2**shift`` solutions and
        nodes (:func:`shift`).
    width : int64[n]
    prefixes : int64[h, d]
    counts : int64[h]
    seed : uint64
    out : float64[h, COLUMNS]
    halt : int64[1]

    Returns
    -------
    int
        Probes completed (fewer than ``counts.sum()`` when stopped).
    """
    words = (0,) * ((int(opts[0]) + 63) >> 6)
    return _probe(opts, width, prefixes, counts, seed, out, halt, words)


@njit(cache=True, nogil=True)
def _probe(opts, width, prefixes, counts, seed, out, halt, words):
    """:func:`probe_strata` on ``len(words)`` words per mask."""
    n = opts[0]
    torus = opts[1] != 0
    cap = opts[2]
    # every weight times 2**-opts[3] (exact in floating point): the estimates of a
    # board of a hundred columns and more, and their squares, would overflow a double
    scale = math.ldexp(1.0, -opts[3])
    d = prefixes.shape[1]
    nw = len(words)
    full = _full(n, words)
    sc = np.zeros((n + 1, nw), np.uint64)
    su = np.zeros((n + 1, nw), np.uint64)
    sd = np.zeros((n + 1, nw), np.uint64)
    sel = np.zeros((n + 1, nw), np.uint64)
    cand = np.zeros(nw, np.uint64)
    cw = np.zeros(n + 1, np.float64)
    state = np.uint64(seed)
    done = 0
    for h in range(prefixes.shape[0]):
        # the prefix, placed once per stratum (a broken prefix has an empty subtree)
        ok = True
        for r in range(d):
            col = prefixes[h, r]
            _candidates(r, sc, su, sd, full, cand, words)
            if col < 0 or col >= n or not (cand[col >> 6] >> np.uint64(col & 63)) & _U1:
                ok = False
                break
            _place(r, col, sc, su, sd, n, full, torus, words)
        for j in range(counts[h]):
            sols = 0.0
            nodes = 0.0
            chose = False
            visited = 0
            if ok and d == n:
                sols = scale
            elif ok:
                c = _candidates(d, sc, su, sd, full, cand, words)
                if c:
                    kd = min(width[d], c)
                    state = _choose(cand, c, kd, state, sel, d, words)
                    chose = chose or kd < c
                    cw[d] = c / kd * scale
                y = d if c else d - 1
                while y >= d:
                    col = _pop(sel, y, words)
                    if col < 0:
                        y -= 1
                        if halt[0]:
                            return done
                        continue
                    w = cw[y]
                    nodes += w
                    visited += 1
                    if cap and visited > cap:
                        break
                    ny = y + 1
                    if ny == n:
                        sols += w
                        continue
                    _place(y, col, sc, su, sd, n, full, torus, words)
                    c = _candidates(ny, sc, su, sd, full, cand, words)
                    if c == 0:
                        continue
                    if ny == n - 1:
                        # last row: every candidate is a leaf (the walk counts them so)
                        sols += w * c
                        nodes += w * c
                        visited += c
                        continue
                    kd = min(width[ny], c)
                    state = _choose(cand, c, kd, state, sel, ny, words)
                    chose = chose or kd < c
                    cw[ny] = w * c / kd
                    y = ny
                if cap and visited > cap:
                    out[h, BIG] += 1
                    for yy in range(d, n + 1):
                        for ww in range(nw):
                            sel[yy, ww] = _U0
            record_probe(out, h, j + 1, sols, nodes, chose)
            done += 1
            if halt[0]:
                return done
        # the next stratum starts from an empty board
        for r in range(d + 1):
            for ww in range(nw):
                sc[r, ww] = _U0
                su[r, ww] = _U0
                sd[r, ww] = _U0
    return done


class Prefixes:
    """The strata of a wide board: the valid placements of its first rows, in
    lexicographic order, with the two calls of :class:`queenslab.native.engine.Walker`
    that :mod:`queenslab.estimate` makes (``run`` with ``stop`` and ``prefixes``).

    Enumerated with numpy, a row at a time: a column is free below a prefix unless a
    queen of the prefix shares its column or a diagonal (modulo n on a torus).
    """

    def __init__(self, problem):
        self.n = problem.n
        self.torus = bool(problem.toroidal)
        self._levels = [np.zeros((1, 0), np.int64)]

    def prefixes(self, depth: int, limit: int | None = None) -> np.ndarray:
        """The valid placements of the first ``depth`` rows, shape (k, depth)."""
        while len(self._levels) <= depth:
            self._levels.append(self._extend(self._levels[-1]))
        out = self._levels[depth]
        return out if limit is None else out[:limit]

    def run(self, prefix, mode, stop: int | None = None, out=None) -> tuple[int, int, int, int]:
        """``(placements of the first stop rows, 0, queens placed above them, 0)``: the
        count and the nodes of ``Walker.run((), COUNT, stop=stop)``."""
        assert not len(prefix) and stop is not None
        nodes = sum(len(self.prefixes(k)) for k in range(1, stop + 1))
        return len(self.prefixes(stop)), 0, nodes, 0

    def _extend(self, p: np.ndarray) -> np.ndarray:
        n = self.n
        h, d = p.shape
        if d >= n or h == 0:
            return np.zeros((0, d + 1), np.int64)
        cols = np.arange(n)
        free = np.ones((h, n), bool)
        for r in range(d):
            dr = d - r
            q = p[:, r : r + 1]
            if self.torus:
                free &= (cols != q) & (cols != (q + dr) % n) & (cols != (q - dr) % n)
            else:
                free &= (cols != q) & (cols != q + dr) & (cols != q - dr)
        rows, new = np.nonzero(free)  # row-major: lexicographic
        return np.concatenate([p[rows], new[:, None]], axis=1).astype(np.int64)
