"""Numba kernel of the tree-size estimators: random probes of the general search tree.

Nothing here validates input or imports from queenslab; :mod:`queenslab.estimate`
checks arguments, picks the method, splits the probes into seeded tasks and runs this
kernel on threads. The kernel is ``cache=True, nogil=True`` and serial, and reads the
same compiled tables as :func:`queenslab.native.kernels.walk` (allowed cells per row,
leaper table, region counters), through the same helpers, so that it samples exactly
the tree the walk enumerates: the same candidates at every row, the same cut when a
region can no longer reach its bounds, the same leaves.

One kernel, :func:`probe_strata`, serves every estimator. A probe starts below a
prefix (a stratum; the empty prefix for the whole tree) and at each row explores
``width[y]`` of the row's ``c`` candidates chosen uniformly without replacement (all of
them when ``width[y] >= c``), each child weighted by the parent's weight times
``c / chosen``. The weighted sum of the leaves reached is an unbiased estimate of the
number of solutions below the prefix, and the weighted sum of the nodes reached an
unbiased one of the number of nodes (queens placed, as the walk counts them):

* ``width = 1`` everywhere is Knuth's estimator (D. E. Knuth, "Estimating the efficiency
  of backtrack programs", 1975): one random root-to-leaf path, the product of the
  branching factors;
* ``width = w > 1`` is Purdom's partial backtracking (P. W. Purdom, "Tree size by partial
  backtracking", 1978);
* ``width >= n`` on the last rows counts those rows exactly below each path (the
  conditional expectation of the probe: same mean, less variance).

Random numbers come from SplitMix64 (Steele, Lea and Flood, "Fast splittable
pseudorandom number generators", 2014) seeded per task by the caller, so a task's
result depends on its seed only, never on the thread that runs it.
"""

import numpy as np

from .jit import njit, trailing_zeros
from .kernels import full_mask, leap_block, place, popcount, region_block, region_step, row_candidates

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

# columns of the per-stratum output
SUM = 0  # sum of the solution estimates
M2 = 1  # sum of squared deviations from their mean (Welford)
NSUM = 2  # sum of the node estimates
NM2 = 3  # their sum of squared deviations
RANDOM = 4  # probes that made at least one random choice (0: the stratum was counted exactly)
BIG = 5  # probes stopped by the node cap (exhaustive counts only)
COLUMNS = 6


@njit(cache=True, nogil=True)
def next_random(state):
    """SplitMix64: (new state, 64 random bits)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _choose(cand, c, w, state):
    """(state, a uniformly random subset of ``min(w, c)`` of the ``c`` bits of ``cand``)."""
    if w >= c:
        return state, cand
    if w == 1:
        state, r = next_random(state)
        j = r % np.uint64(c)
        m = cand
        while j:
            m &= m - _U1
            j -= _U1
        return state, m & (_U0 - m)
    # selection sampling (Knuth, TAOCP vol. 2, Algorithm S): each bit in turn with
    # probability needed / remaining
    sel = _U0
    need = np.uint64(w)
    left = np.uint64(c)
    m = cand
    while need:
        bit = m & (_U0 - m)
        m ^= bit
        state, r = next_random(state)
        if r % left < need:
            sel |= bit
            need -= _U1
        left -= _U1
    return state, sel


@njit(cache=True, nogil=True)
def welford(out, h, k, x, col):
    # running mean and squared deviations of the k-th value x of stratum h
    mean_old = out[h, col] / (k - 1) if k > 1 else 0.0
    out[h, col] += x
    mean_new = out[h, col] / k
    out[h, col + 1] += (x - mean_old) * (x - mean_new)


@njit(cache=True, nogil=True)
def record_probe(out, h, k, sols, nodes, chose):
    # the k-th probe of stratum h: its solutions and nodes into the running sums, and
    # whether it chose at random (the narrow and the wide kernels record alike)
    welford(out, h, k, sols, SUM)
    welford(out, h, k, nodes, NSUM)
    if chose:
        out[h, RANDOM] += 1


@njit(cache=True, nogil=True)
def probe_strata(
    allowed, leap_rows, leap_masks, regions, region_bounds, region_rest, opts, width, prefixes, counts, seed, out, halt
):
    """Run ``counts[h]`` probes below each prefix ``prefixes[h]``, accumulating into ``out[h]``.

    Parameters
    ----------
    allowed, leap_rows, leap_masks, regions, region_bounds, region_rest
        The compiled tables, as :func:`queenslab.native.kernels.walk` reads them.
    opts : int64[3]
        ``n, torus, cap``: board size, wrap-around lines, and the most nodes one probe may
        visit (0: no cap); a probe beyond the cap is abandoned and counted in ``BIG``.
    width : int64[n]
        Children explored per node at each row (1: Knuth; ``>= n``: all of them).
    prefixes : int64[h, d]
        The strata: valid placements of the first ``d`` rows.
    counts : int64[h]
        Probes per stratum.
    seed : uint64
        Seed of this call's random numbers.
    out : float64[h, COLUMNS]
        Zeroed by the caller; receives, per stratum, the sums of the solution and node
        estimates, their sums of squared deviations from the mean (Welford), the number
        of probes that made a random choice and the number stopped by the cap.
    halt : int64[1]
        The stop flag, polled at each backtrack: the call then returns early and its
        sums are partial (the caller discards them).

    Returns
    -------
    int
        Probes completed (fewer than ``counts.sum()`` when stopped).
    """
    n = opts[0]
    torus = opts[1] != 0
    cap = opts[2]
    d = prefixes.shape[1]
    leaps = leap_rows.shape[0] > 0
    counted = regions.shape[0] > 0
    full = full_mask(n)
    s = np.zeros((4, n + 1), np.uint64)
    rc = np.zeros((n + 1, max(1, regions.shape[0])), np.int64)
    q = np.zeros(n, np.int64)
    sel = np.zeros(n + 1, np.uint64)
    cw = np.zeros(n + 1, np.float64)
    state = np.uint64(seed)
    done = 0
    for h in range(prefixes.shape[0]):
        # the prefix, placed once per stratum as the walk places it (a broken prefix has
        # an empty subtree)
        for k in range(regions.shape[0]):
            rc[0, k] = 0
        ok = True
        for r in range(d):
            q[r] = prefixes[h, r]
            bit = _U1 << np.uint64(q[r])
            free = row_candidates(r, allowed, s)
            if leaps and free:
                free &= ~leap_block(r, q, leap_rows, leap_masks)
            if not (free & bit) or (counted and not region_step(r, bit, rc, regions, region_bounds, region_rest)):
                ok = False
                break
            place(r, bit, s, n, full, torus)
        for j in range(counts[h]):
            sols = 0.0
            nodes = 0.0
            chose = False
            visited = 0
            if ok and d == n:
                sols = 1.0
            elif ok:
                # one loop enters every row, the stratum's first (weight 1) as the rest:
                # ny is the row to enter next (-1: none), w its parent's weight
                y = d - 1
                ny = d
                w = 1.0
                while True:
                    if ny >= 0:
                        cand = row_candidates(ny, allowed, s)
                        if leaps and cand:
                            cand &= ~leap_block(ny, q, leap_rows, leap_masks)
                        if counted and cand:
                            cand &= ~region_block(ny, rc, regions, region_bounds)
                        c = popcount(cand)
                        if c and ny == n - 1 and not counted:
                            # last row: every candidate is a leaf (the walk counts them so)
                            sols += w * c
                            nodes += w * c
                            visited += c
                        elif c:
                            state, pick = _choose(cand, c, width[ny], state)
                            sel[ny] = pick
                            k = popcount(pick)
                            chose = chose or k < c
                            cw[ny] = w * c / k
                            y = ny
                        ny = -1
                    if y < d:
                        break
                    bm = sel[y]
                    if bm == _U0:
                        y -= 1
                        if halt[0]:
                            return done
                        continue
                    bit = bm & (_U0 - bm)
                    sel[y] = bm ^ bit
                    q[y] = trailing_zeros(bit)
                    w = cw[y]
                    nodes += w
                    visited += 1
                    if cap and visited > cap:
                        break
                    if counted and not region_step(y, bit, rc, regions, region_bounds, region_rest):
                        continue
                    if y + 1 == n:
                        sols += w
                        continue
                    place(y, bit, s, n, full, torus)
                    ny = y + 1
                if cap and visited > cap:
                    out[h, BIG] += 1
                    for yy in range(d, n + 1):
                        sel[yy] = _U0
            record_probe(out, h, j + 1, sols, nodes, chose)
            done += 1
            if halt[0]:
                return done
        # the next stratum starts from an empty board
        for r in range(d + 1):
            s[1, r] = _U0
            s[2, r] = _U0
            s[3, r] = _U0
    return done
