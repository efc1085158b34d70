"""Numba kernels of the large-n heuristics: pure functions on integers and arrays.

Nothing here validates input or imports from queenslab but the event format of a
recorded search (:mod:`queenslab.native.kernels`): the modules of
:mod:`queenslab.heuristics` check arguments, allocate the arrays and call these kernels.
Every kernel is ``@njit(cache=True, nogil=True)`` and serial; integers are int64 (the
per-line counters are int32 arrays to halve the memory of huge boards, always read into
int64 arithmetic).

Randomness comes from a splitmix64 generator whose state is a caller-owned ``uint64[1]``
array, so a run depends only on its seed (not on numba's or numpy's global generators)
and can be continued across kernel calls.

A placement ``p`` gives the column ``p[r]`` of the queen of row ``r``. Diagonals are
indexed ``r + c`` (anti-diagonals, ``0 .. 2n-2``) and ``r - c + n - 1`` (diagonals).

The two local searches (:func:`min_conflicts_repair`, :func:`self_correct`) also record
themselves for :mod:`queenslab.trace`: given a trace buffer ``ev`` (``int64[cap, 3]``:
code, row, column) they write every change of the board into it, as MOVE or SWAP
events. ``ev`` defaults to None, and numba then prunes every ``ev is not None`` branch
when it compiles that specialisation, so the un-traced search runs the loop it would run
without recording and a trace is the search itself, not a copy of it.

A try of the self-correcting search on a large board runs for seconds, so it is also
resumable (:func:`self_correct_piece`): a budget of loop turns per call and a state array
that the next call goes on from. The kernels read no stop flag; their callers cut the work
into short calls and look at :mod:`queenslab.interrupt`'s flag between them.
"""

import numpy as np

from ..native.jit import njit
from ..native.kernels import MOVE, SWAP, emit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53

# how a try of a local search ends (what min_conflicts_repair and self_correct return)
FAILED = 0  # no solution within the try's budget
SOLVED = 1  # the board holds a solution
FULL = 2  # the trace buffer is full: the search was cut there (only when recording)
RUNNING = 3  # the step budget of a resumable kernel ran out: call it again to go on


# ----------------------------------------------------------------------------- random


@njit(cache=True, nogil=True)
def next64(rng):
    """The next 64-bit output of the splitmix64 generator with state ``rng[0]``."""
    z = rng[0] + _GOLDEN
    rng[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True)
def below(rng, n):
    """A random int64 in ``0 .. n-1`` (n >= 1); modulo bias below 2**-22 for n < 2**31."""
    return np.int64((next64(rng) >> _S11) % np.uint64(n))


@njit(cache=True, nogil=True, inline="always")
def _running_min(value, index, best, pick, ties, rng):
    """One step of a running minimum that breaks ties uniformly at random (reservoir
    sampling: the k-th equal value replaces the pick with probability 1/k).

    Returns the new ``(best, pick, ties)``.
    """
    if value < best:
        return value, index, 1
    if value == best:
        ties += 1
        if below(rng, ties) == 0:
            return best, index, ties
    return best, pick, ties


@njit(cache=True, nogil=True)
def unit(rng):
    """A random float64 in [0, 1)."""
    return np.float64(next64(rng) >> _S11) * _INV53


@njit(cache=True, nogil=True)
def shuffle(rng, a, m):
    """Fisher-Yates shuffle of ``a[:m]`` in place."""
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# ----------------------------------------------------------------------------- verifier


@njit(cache=True, nogil=True)
def first_conflict(p, n, col, d1, d2):
    """The lexicographically first attacking pair ``(i, j, kind)`` of a placement.

    ``col`` (n), ``d1`` and ``d2`` (2n-1) are int32 work arrays (any content on entry;
    left dirty). ``kind`` is 0 column, 1 diagonal (``r - c``), 2 anti-diagonal (``r + c``);
    ``(-1, -1, -1)`` when no two queens attack each other. O(n).
    """
    # first and second row on every line, -1 when absent
    for k in range(n):
        col[k] = -1
    for k in range(2 * n - 1):
        d1[k] = -1
        d2[k] = -1
    i = -1
    for r in range(n):
        c = p[r]
        a = r - c + n - 1
        b = r + c
        # the smallest row in conflict with an earlier one is found at its partner's
        # row; the smallest row having any partner is the minimum of the earlier ends
        for kind in range(3):
            if kind == 0:
                f = col[c]
            elif kind == 1:
                f = d1[a]
            else:
                f = d2[b]
            if f >= 0 and (i < 0 or f < i):
                i = f
        if col[c] < 0:
            col[c] = r
        if d1[a] < 0:
            d1[a] = r
        if d2[b] < 0:
            d2[b] = r
    if i < 0:
        return -1, -1, -1
    # the smallest partner of row i: the first later row on one of i's lines
    ci = p[i]
    for r in range(i + 1, n):
        c = p[r]
        if c == ci:
            return i, r, 0
        if r - c == i - ci:
            return i, r, 1
        if r + c == i + ci:
            return i, r, 2
    return -1, -1, -1  # not reached


# ----------------------------------------------------------------------------- min-conflicts


@njit(cache=True, nogil=True)
def _leave(d, k):
    c = d[k]
    d[k] = c - 1
    return -1 if c > 1 else 0


@njit(cache=True, nogil=True)
def _enter(d, k):
    c = d[k]
    d[k] = c + 1
    return 1 if c > 0 else 0


@njit(cache=True, nogil=True)
def _swap_move(n, i, j, ci, cj, d1, d2):
    """Move the queens of rows i, j (columns ci, cj) to columns cj, ci in the counters;
    returns the change of the collision count (sum over lines of count - 1)."""
    m = n - 1
    delta = _leave(d1, i - ci + m) + _leave(d2, i + ci)
    delta += _leave(d1, j - cj + m) + _leave(d2, j + cj)
    delta += _enter(d1, i - cj + m) + _enter(d2, i + cj)
    delta += _enter(d1, j - ci + m) + _enter(d2, j + ci)
    return delta


@njit(cache=True, nogil=True)
def _in_conflict(n, r, c, d1, d2):
    return d1[r - c + n - 1] > 1 or d2[r + c] > 1


@njit(cache=True, nogil=True)
def _conflicted_list(n, p, d1, d2, work):
    m = 0
    for r in range(n):
        if _in_conflict(n, r, p[r], d1, d2):
            work[m] = r
            m += 1
    return m


@njit(cache=True, nogil=True)
def min_conflicts_start(n, greedy_tries, rng, p, d1, d2, work):
    """The start of a try of min-conflicts: a permutation in ``p``, counted in ``d1``, ``d2``.

    With ``greedy_tries > 0`` rows are filled in order, each taking the first of up to
    ``greedy_tries`` random unused columns whose two diagonals are free (else the sampled
    one with the fewest diagonal conflicts); with ``greedy_tries == 0`` a uniform random
    permutation. ``work`` (int64[n]) holds the unused columns.
    """
    m2 = 2 * n - 1
    for k in range(m2):
        d1[k] = 0
        d2[k] = 0
    for k in range(n):
        work[k] = k
    if greedy_tries > 0:
        free = n
        for r in range(n):
            best_k = 0
            best_c = 1 << 62
            for _ in range(greedy_tries):
                k = below(rng, free)
                c = work[k]
                conf = d1[r - c + n - 1] + d2[r + c]
                if conf < best_c:
                    best_c = conf
                    best_k = k
                    if conf == 0:
                        break
            c = work[best_k]
            p[r] = c
            work[best_k] = work[free - 1]
            free -= 1
            d1[r - c + n - 1] += 1
            d2[r + c] += 1
    else:
        shuffle(rng, work, n)
        for r in range(n):
            c = work[r]
            p[r] = c
            d1[r - c + n - 1] += 1
            d2[r + c] += 1


@njit(cache=True, nogil=True)
def min_conflicts_repair(n, max_steps, candidates, rng, p, d1, d2, work, out, ev=None):
    """The repair of a try of min-conflicts from the permutation in ``p`` (counted in the
    diagonal counters ``d1`` (``r - c + n - 1``) and ``d2`` (``r + c``), int32[2n-1]).

    Pick a random queen in conflict (from a lazily pruned list in ``work``, int64[n]),
    sample ``candidates`` partner rows, and make the swap of columns that minimises the
    number of collisions -- staying put counts as a candidate with change 0, ties are
    broken uniformly at random (sideways moves are allowed). Columns are distinct
    throughout, so only diagonals conflict, and each swap is evaluated in O(1) on the
    counters. At most ``max_steps`` steps (a step: one such decision).

    ``out`` (int64[4]) receives: steps made, conflicted queens after the start,
    collisions after the start, events recorded. With ``ev`` every swap is a SWAP event
    (the rows of the two queens); the search stops as FULL before a swap that finds the
    buffer full.

    Returns
    -------
    int
        SOLVED, FAILED (out of steps) or FULL.
    """
    m2 = 2 * n - 1
    collisions = 0
    for k in range(m2):
        if d1[k] > 1:
            collisions += d1[k] - 1
        if d2[k] > 1:
            collisions += d2[k] - 1
    size = _conflicted_list(n, p, d1, d2, work)
    out[1] = size
    out[2] = collisions
    out[3] = 0
    m = 0  # events recorded
    steps = 0
    while size > 0:
        idx = below(rng, size)
        i = work[idx]
        ci = p[i]
        if not _in_conflict(n, i, ci, d1, d2):
            size -= 1
            work[idx] = work[size]
            continue
        if steps >= max_steps:
            out[0] = steps
            return FAILED
        steps += 1
        best = 0
        best_j = -1
        ties = 1
        for _ in range(candidates):
            j = below(rng, n - 1)
            if j >= i:
                j += 1
            cj = p[j]
            delta = _swap_move(n, i, j, ci, cj, d1, d2)
            _swap_move(n, i, j, cj, ci, d1, d2)  # undo
            best, best_j, ties = _running_min(delta, j, best, best_j, ties, rng)
        if best_j < 0:
            continue
        if ev is not None:
            if m == ev.shape[0]:
                out[0] = steps
                return FULL
            m = emit(ev, m, SWAP, i, best_j)
            out[3] = m
        j = best_j
        cj = p[j]
        _swap_move(n, i, j, ci, cj, d1, d2)
        p[i] = cj
        p[j] = ci
        collisions += best
        if _in_conflict(n, j, ci, d1, d2):
            if size == n:  # the list is full of stale or repeated rows: rebuild it
                size = _conflicted_list(n, p, d1, d2, work)
            else:
                work[size] = j
                size += 1
    out[0] = steps
    return SOLVED if collisions == 0 else FAILED


# ----------------------------------------------------------------------------- self-correcting search


@njit(cache=True, nogil=True)
def _front_scan(q, k):
    """the self-correcting Queens program's ``check_front``: is queen k attacked by a queen in front (0..k-1)?"""
    a = q[k]
    b = a - k
    c = a + k
    for x in range(k):
        if q[x] == a or q[x] == b or q[x] == c:
            return True
        b += 1
        c -= 1
    return False


@njit(cache=True, nogil=True)
def self_correct_start(n, rng, q):
    """the self-correcting Queens program's random start: every queen on line ``random() % (n - 1)`` (n >= 2)."""
    for k in range(n):
        q[k] = below(rng, n - 1) if n > 1 else 0


@njit(cache=True, nogil=True)
def self_correct(n, limit, counted, q, t, lines, out, ev=None):
    """One try of the self-correcting Queens program's self-correcting search from the start in ``q``,
    iteratively, in one call.

    Queen k, given the play, checks only the queens in front (0..k-1);
    if she is safe she passes the play on to queen k+1, else -- or when queen k+1 returns
    "in trouble" -- she moves one line on (cyclically). After n positions without
    success she returns "in trouble" to queen k-1. Queen n reports success. The search
    stops as "in trouble" once the iteration counter of the original (one per move that
    is not a queen's last) reaches ``limit`` (``limit <= 0``: no limit).

    ``counted`` replaces the O(k) scan of the queens in front by O(1) look-ups in
    counters of the front queens' lines (``lines``: int32[5n]: values, diagonals,
    anti-diagonals), giving exactly the same moves. ``t`` (int64[n]) holds each level's
    remaining moves (the recursion's local ``t``). ``out`` (int64[1], int64[2] with
    ``ev``) receives the iterations, then the events recorded. With ``ev`` every move of
    a queen is a MOVE event (her row and new column); the search stops as FULL before a
    move that finds the buffer full.

    This is :func:`self_correct_piece` without a budget: the whole try at once.

    Returns
    -------
    int
        SOLVED (``q`` then holds the solution), FAILED ("in trouble") or FULL.
    """
    state = np.zeros(STATE_SIZE, np.int64)
    status = self_correct_piece(n, limit, counted, q, t, lines, state, 0, ev)
    out[0] = state[STATE_ITERATIONS]
    if ev is not None:
        out[1] = state[STATE_EVENTS]
    return status


# the fields of a self_correct_piece state (int64[STATE_SIZE], zeros for a new try)
STATE_SIZE = 5
_BEGUN = 0  # 1 once the try's counters are set up
_LEVEL = 1  # k: the queen who has the play
_CHECKING = 2  # 1: she looks at the queens in front next; 0: she moves next
STATE_ITERATIONS = 3  # the original's iteration counter, over the whole try
STATE_EVENTS = 4  # the events this call recorded


@njit(cache=True, nogil=True)
def self_correct_piece(n, limit, counted, q, t, lines, state, budget, ev=None):
    """At most ``budget`` loop turns of one try of :func:`self_correct`, resumable.

    The same search as :func:`self_correct`, cut into pieces: the try's position (the
    queen who has the play, whether she checks or moves next, the iteration counter)
    lives in ``state`` (int64[STATE_SIZE], all zeros to begin a try), and ``q``, ``t``
    and ``lines`` carry the board and the counters from one call to the next. Calling
    again with the same arrays goes on exactly where the last call stopped, so a try run
    piece by piece makes the moves one call makes. A caller cuts a long try into short
    calls to look at the stop flag between them; the kernel itself reads no flag.

    Parameters
    ----------
    budget : int
        Loop turns allowed in this call (a turn checks a queen or moves one; in the scan
        mode a check costs up to n); ``<= 0``: no budget.
    ev : int64[cap, 3], optional
        As for :func:`self_correct`; a full buffer stops the call as FULL before the move
        that does not fit, and the try can go on with an emptied buffer.

    Returns
    -------
    int
        SOLVED, FAILED, FULL, or RUNNING when the budget ran out. ``state`` then holds the
        position and the iteration counter, and the events this call recorded.
    """
    dg = n  # lines[n + (k - v + n - 1)]: diagonals
    ad = 3 * n - 1  # lines[3n - 1 + (k + v)]: anti-diagonals
    if state[_BEGUN] == 0:
        if counted:
            for k in range(5 * n):
                lines[k] = 0
        state[_BEGUN] = 1
        state[_LEVEL] = 0
        state[_CHECKING] = 1
        state[STATE_ITERATIONS] = 0
        t[0] = n
    iteration = state[STATE_ITERATIONS]
    k = state[_LEVEL]
    checking = state[_CHECKING] != 0
    m = 0  # events recorded
    turns = 0
    status = FAILED
    while True:
        if budget > 0 and turns == budget:
            status = RUNNING
            break
        turns += 1
        if checking:
            v = q[k]
            if counted:
                attacked = lines[v] > 0 or lines[dg + k - v + n - 1] > 0 or lines[ad + k + v] > 0
            else:
                attacked = _front_scan(q, k)
            if not attacked:
                # pass the play to the queen behind
                if counted:
                    lines[v] += 1
                    lines[dg + k - v + n - 1] += 1
                    lines[ad + k + v] += 1
                k += 1
                if k == n:
                    status = SOLVED
                    break
                t[k] = n
                continue
        # move_vertical, then the loop condition of the original: while (--t && ++iteration < limit)
        if ev is not None and m == ev.shape[0]:
            status = FULL
            checking = False  # she is attacked (or was sent back): she moves first when the try goes on
            break
        v = q[k] + 1
        q[k] = 0 if v == n else v
        if ev is not None:
            m = emit(ev, m, MOVE, k, q[k])
        t[k] -= 1
        if t[k] != 0:
            iteration += 1
            if limit <= 0 or iteration < limit:
                checking = True
                continue
        # in trouble: return the play to the queen in front, who moves on
        if k == 0:
            break
        k -= 1
        if counted:
            v = q[k]
            lines[v] -= 1
            lines[dg + k - v + n - 1] -= 1
            lines[ad + k + v] -= 1
        checking = False
    state[_LEVEL] = k
    state[_CHECKING] = 1 if checking else 0
    state[STATE_ITERATIONS] = iteration
    state[STATE_EVENTS] = m
    return status


# ----------------------------------------------------------------------------- genetic algorithm


@njit(cache=True, nogil=True)
def _attacking_pairs(x, n, rows, d1, d2):
    """Pairs of attacking queens of a vector x (queen of column k on line x[k]).
    ``rows`` (n), ``d1``, ``d2`` (2n-1) are int64 work arrays, zero on entry and exit."""
    for k in range(n):
        v = x[k]
        rows[v] += 1
        d1[k - v + n - 1] += 1
        d2[k + v] += 1
    pairs = 0
    for k in range(n):
        v = x[k]
        for cnt in (rows[v], d1[k - v + n - 1], d2[k + v]):
            if cnt > 0:
                pairs += cnt * (cnt - 1) // 2
        rows[v] = 0
        d1[k - v + n - 1] = 0
        d2[k + v] = 0
    return pairs


@njit(cache=True, nogil=True)
def _min_conflict_sweep(x, n, rng, rows, d1, d2):
    """Section 2.2's minimal-conflict operator on one candidate: walk along the array and
    move each queen in conflict to a line with the fewest conflicts (random ties)."""
    for k in range(n):
        v = x[k]
        rows[v] += 1
        d1[k - v + n - 1] += 1
        d2[k + v] += 1
    for k in range(n):
        v = x[k]
        if rows[v] + d1[k - v + n - 1] + d2[k + v] == 3:
            continue
        rows[v] -= 1
        d1[k - v + n - 1] -= 1
        d2[k + v] -= 1
        best = 1 << 62
        pick = v
        ties = 0
        for w in range(n):
            c = rows[w] + d1[k - w + n - 1] + d2[k + w]
            best, pick, ties = _running_min(c, w, best, pick, ties, rng)
        x[k] = pick
        rows[pick] += 1
        d1[k - pick + n - 1] += 1
        d2[k + pick] += 1
    for k in range(n):
        v = x[k]
        rows[v] = 0
        d1[k - v + n - 1] = 0
        d2[k + v] = 0


@njit(cache=True, nogil=True)
def ga_init(n, rng, pop):
    """A random initial population: every gene uniform in 0..n-1."""
    for i in range(pop.shape[0]):
        for k in range(n):
            pop[i, k] = below(rng, n)


@njit(cache=True, nogil=True)
def genetic(n, generations, pc, pm, improve, rng, pop, mid, fit, order, rows, d1, d2, out):
    """Run up to ``generations`` generations of N. Gupta's genetic algorithm.

    Fitness is ``n(n-1)/2 - attacking pairs`` (a solution has the maximum). A generation:
    evaluate; stop if a candidate is a solution; roulette-wheel selection of an
    intermediate population (probability ``f_i / sum f``); shuffle it; one-point
    crossover of consecutive pairs with probability ``pc``; mutation of every gene with
    probability ``pm`` to a random line; with ``improve`` the minimal-conflict operator
    on every child. ``pop`` holds the population on entry and on exit.

    Returns the row of ``pop`` holding a solution, or -1; ``out[0]`` += generations run.
    """
    size = pop.shape[0]
    best_f = n * (n - 1) // 2
    for g in range(generations + 1):
        total = 0.0
        for i in range(size):
            f = best_f - _attacking_pairs(pop[i], n, rows, d1, d2)
            if f == best_f:
                return i
            fit[i] = total + f  # cumulative
            total += f
        if g == generations:
            break
        out[0] += 1
        # selection (roulette wheel) into mid
        for i in range(size):
            if total > 0:
                x = unit(rng) * total
                lo = 0
                hi = size - 1
                while lo < hi:
                    mid_i = (lo + hi) // 2
                    if fit[mid_i] > x:
                        hi = mid_i
                    else:
                        lo = mid_i + 1
                s = lo
            else:
                s = below(rng, size)
            for k in range(n):
                mid[i, k] = pop[s, k]
        for i in range(size):
            order[i] = i
        shuffle(rng, order, size)
        # recombination into pop
        i = 0
        while i < size:
            a = order[i]
            if i + 1 < size:
                b = order[i + 1]
                cut = n
                if n > 1 and unit(rng) < pc:
                    cut = 1 + below(rng, n - 1)
                for k in range(n):
                    if k < cut:
                        pop[i, k] = mid[a, k]
                        pop[i + 1, k] = mid[b, k]
                    else:
                        pop[i, k] = mid[b, k]
                        pop[i + 1, k] = mid[a, k]
            else:
                for k in range(n):
                    pop[i, k] = mid[a, k]
            i += 2
        for i in range(size):
            for k in range(n):
                if unit(rng) < pm:
                    pop[i, k] = below(rng, n)
            if improve:
                _min_conflict_sweep(pop[i], n, rng, rows, d1, d2)
    return -1


# ----------------------------------------------------------------------------- ant colony


@njit(cache=True, nogil=True)
def ant_colony(
    n, iterations, ants, alpha, beta, q, evaporation, tau_min, rng, tau_src, tau, eta, weight, tour, used, lines, out
):
    """Run up to ``iterations`` iterations of N. Gupta's ant colony optimisation.

    Search space: n columns of the n*n cells (labels ``r * n + c``); an ant walks from a
    source through the columns left to right, choosing one cell in each, never a label
    it has chosen before. From cell a, cell j is chosen with probability proportional to
    ``tau[a, j]**alpha * eta[j]**beta`` with ``eta[j] = 1 / (1 + contradictions)``, the
    contradictions being the queens already placed that share a row, column or diagonal
    with j (``eta`` holds the table ``(1/(1+k))**beta``). Fitness: the number of queens
    that no other queen attacks (n for a solution). After all ants have walked, each
    deposits ``q / L`` on its edges with ``L = 1 + n - fitness`` (fewer attacked queens,
    more pheromone); then every edge evaporates by subtracting ``evaporation`` (not
    below ``tau_min``).

    ``tau_src`` (n*n) holds the source's edges, ``tau`` (n-1, n*n, n*n) the others;
    ``tour`` (ants, n) int64, ``used`` (n*n) int64, ``lines`` (6n) int64, ``weight``
    (n*n) float64 are work arrays. Returns the ant whose tour (in ``tour``) is a
    solution, or -1; ``out[0]`` += iterations run.
    """
    cells = n * n
    rows = 0
    cols = n
    dg = 2 * n  # 2n .. 4n-2: r - c + n - 1
    ad = 4 * n  # 4n .. 6n-2 (6n-1 with the padding): r + c
    for _ in range(iterations):
        out[0] += 1
        for ant in range(ants):
            for k in range(cells):
                used[k] = 0
            for k in range(6 * n):
                lines[k] = 0
            prev = -1
            for step in range(n):
                total = 0.0
                for j in range(cells):
                    if used[j]:
                        weight[j] = 0.0
                        continue
                    r = j // n
                    c = j - r * n
                    contr = lines[rows + r] + lines[cols + c] + lines[dg + r - c + n - 1] + lines[ad + r + c]
                    t = tau_src[j] if prev < 0 else tau[step - 1, prev, j]
                    w = (t**alpha) * eta[contr]
                    weight[j] = w
                    total += w
                x = unit(rng) * total
                pick = -1
                acc = 0.0
                for j in range(cells):
                    if weight[j] > 0.0:
                        acc += weight[j]
                        pick = j
                        if acc > x:
                            break
                tour[ant, step] = pick
                used[pick] = 1
                r = pick // n
                c = pick - r * n
                lines[rows + r] += 1
                lines[cols + c] += 1
                lines[dg + r - c + n - 1] += 1
                lines[ad + r + c] += 1
                prev = pick
            fitness = 0
            for step in range(n):
                j = tour[ant, step]
                r = j // n
                c = j - r * n
                if (
                    lines[rows + r] == 1
                    and lines[cols + c] == 1
                    and lines[dg + r - c + n - 1] == 1
                    and lines[ad + r + c] == 1
                ):
                    fitness += 1
            if fitness == n:
                return ant
            tour[ant, n] = fitness
        # pheromone: deposit, then evaporation
        for ant in range(ants):
            d = q / (1.0 + n - tour[ant, n])
            tau_src[tour[ant, 0]] += d
            for step in range(1, n):
                tau[step - 1, tour[ant, step - 1], tour[ant, step]] += d
        for j in range(cells):
            tau_src[j] = max(tau_min, tau_src[j] - evaporation)
        for s in range(n - 1):
            for a in range(cells):
                for j in range(cells):
                    tau[s, a, j] = max(tau_min, tau[s, a, j] - evaporation)
    return -1
