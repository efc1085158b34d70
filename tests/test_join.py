"""The half-board join counter: totals and orbits against the known sequences, the
symmetric search and brute force; its pieces (the task weights, the bit-sliced pair
count, the half-turn search) each against a plain oracle."""

import itertools
import math
import threading
import time

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st

from queenslab import interrupt
from queenslab.data import known_total, known_unique
from queenslab.errors import QueensError, TooLarge, UnsupportedProblem
from queenslab.native import engine, join, join_kernels as JK
from queenslab.problem import Problem

HALT = np.zeros(1, np.int64)


@pytest.mark.parametrize("n", range(1, 16))
def test_totals_and_unique_against_the_sequences(n):
    assert join.join_total(n) == known_total(n)
    r, classes = join.count_classes(n)
    assert (r.count, r.unique) == (known_total(n), known_unique(n))
    assert sum(classes.values()) == r.unique and sum(s * k for s, k in classes.items()) == r.count
    assert r.method == "join"


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17, 18])
def test_totals_and_unique_against_the_sequences_large(n):
    r, classes = join.count_classes(n, threads=2)
    assert (r.count, r.unique) == (known_total(n), known_unique(n))


@pytest.mark.parametrize("n", range(4, 13))
def test_orbit_sizes_against_the_symmetric_search(n):
    want_r, want = engine.count_classes(Problem(n), method="symmetric")
    got_r, got = join.count_classes(n, threads=2)
    assert got == want and (got_r.count, got_r.unique) == (want_r.count, want_r.unique)


@pytest.mark.parametrize("n", range(1, 9))
def test_fixed_counts_against_brute_force(n):
    sols = naive.all_solutions(Problem(n))
    images = [naive.images(p) for p in sols]
    # naive.images lists rot90^k then its flip, k = 0..3: index 2 is the quarter turn, 4 the half turn
    f90 = sum(im[2] == p for p, im in zip(sols, images))
    f180 = sum(im[4] == p for p, im in zip(sols, images))
    assert join.fixed_counts(n) == (f90, f180)


@pytest.mark.parametrize("n", range(1, 22))
def test_fixed_counts_are_consistent_with_the_sequences(n):
    # where the total is tabulated, Burnside's lemma must give a whole unique count equal to the known one
    f90, f180 = join.fixed_counts(n)
    if n > 1 and known_total(n) is not None:
        assert (known_total(n) + 2 * f90 + f180) == 8 * known_unique(n)


@pytest.mark.parametrize("n", range(4, 14))
def test_task_weights_cover_every_row_split_once(n):
    # every (b, E) of the board is the image of one canonical task: the weights add up to all of them
    tasks = JK.join_tasks(n)
    m = n // 2
    every = math.comb(n, m) if n % 2 == 0 else n * math.comb(n - 1, m)
    assert int(tasks[:, 2].sum()) == every
    assert set(tasks[:, 2].tolist()) <= {1, 2, 4}


@pytest.mark.parametrize("n", range(4, 12))
def test_every_row_split_counted_without_symmetry(n):
    # the weights are not trusted here: every (b, E) is counted once, weight 1
    m = n // 2
    rows = []
    for b in range(n) if n % 2 else [-1]:
        free = [r for r in range(n) if r != b]
        for east in itertools.combinations(free, m):
            rows.append((b, sum(1 << r for r in east), 1))
    tasks = np.array(rows, np.int64)
    total, _, _ = JK.join_count(n, tasks, 0, len(tasks), *JK.quarter_tables(n, HALT), HALT)
    assert total == known_total(n)


def test_every_key_fits_its_chunks():
    # each n's keys (2 (2m - 1) diagonal bits), less any number of bucket bits, fit the
    # chunks their table is cut into, within the widths and the chunk count the kernels and
    # the work space are written for
    for n in range(1, JK.MAX_N + 1):
        bits = JK.key_bits(n)
        assert bits == 2 * (2 * (n // 2) - 1) and JK.key_bits.py_func(n) == bits
        most = JK.chunk_layout(bits)[1]
        for ncut in range(JK.SIEVE_MAX_CUTS + 1):
            width, nchunks = JK.chunk_layout(bits - ncut)
            assert JK.chunk_layout.py_func(bits - ncut) == (width, nchunks)  # the memory estimate reads it in Python
            assert JK.MIN_CHUNK <= width <= JK.MAX_CHUNK and JK.MIN_CHUNKS <= nchunks <= min(most, JK.MAX_CHUNKS)
            assert width * nchunks >= bits - ncut
            # the fewest chunks that hold the bits, each as narrow as they allow
            assert nchunks == JK.MIN_CHUNKS or (nchunks - 1) * JK.MAX_CHUNK < bits - ncut
            assert width == JK.MIN_CHUNK or (width - 1) * nchunks < bits - ncut


def test_the_word_transposition_swaps_keys_and_bits():
    rng = np.random.default_rng(7)
    for _ in range(20):
        keys = rng.integers(0, 2**63, 64, dtype=np.uint64) | (rng.integers(0, 2, 64, dtype=np.uint64) << np.uint64(63))
        word = keys.copy()
        JK._transpose(word)
        for j in range(64):
            want = sum(((int(keys[i]) >> j) & 1) << i for i in range(64))
            assert int(word[j]) == want


def test_the_block_counter_against_its_definition():
    from numba import njit

    from queenslab.native.jit import BLOCK, block_counter

    count3 = block_counter(3)

    @njit
    def run(table, base, offsets, start, stop):
        return count3(table, base, offsets, start, stop)

    rng = np.random.default_rng(8)
    table = JK._aligned(40 * BLOCK)
    assert table.ctypes.data % 64 == 0
    table[:] = rng.integers(-(2**63), 2**63, len(table), dtype=np.int64)
    offsets = (rng.integers(0, 30, 3 * 50) * BLOCK).astype(np.int32)
    for base, start, stop in ((0, 0, 50), (5 * BLOCK, 7, 31), (BLOCK, 4, 4)):
        want = 0
        for k in range(start, stop):
            rows = [table[base + offsets[3 * k + i] :][:BLOCK] for i in range(3)]
            want += sum(bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1") for x in rows[0] & rows[1] & rows[2])
        assert run(table, base, offsets, start, stop) == want


def test_a_block_counter_for_every_chunk_count():
    """``_pairs`` counts with ``_count5`` or ``_count6`` (intrinsics of a fixed number of
    rows): a layout of any other number of chunks would be counted with the wrong one."""
    assert (JK.MIN_CHUNKS, JK.MAX_CHUNKS) == (5, 6)
    for bits in range(1, JK.MAX_CHUNKS * JK.MAX_CHUNK + 1):
        assert JK.chunk_layout(bits)[1] in (5, 6)
    # and a bucket's words are whole blocks
    assert JK.PAD % JK.BLOCK == 0


def test_packing_leaves_out_the_bucket_bits():
    rng = np.random.default_rng(5)
    for _ in range(200):
        bits = int(rng.integers(10, 47))
        drop = np.sort(rng.choice(bits, int(rng.integers(0, 9)), replace=False))[::-1].copy()
        key = int(rng.integers(0, 1 << bits))
        kept = [b for b in range(bits) if b not in set(drop.tolist())]
        want = sum(((key >> b) & 1) << i for i, b in enumerate(kept))
        assert JK._pack(key, drop, len(drop)) == want


@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(70, 300), st.integers(2, 12))
def test_bit_sliced_pair_count_against_pairwise(seed, nx, ny, density):
    # keys of about ``density`` random bits, as wide as the chunks hold; the second list is
    # long enough that the tables are used (more than DIRECT_PAIRS pairs) unless the first
    # is very short
    rng = np.random.default_rng(seed)
    cuts = JK._cuts(16)
    for nbits in (30, 34, 38, 42, 46):  # the key widths of n = 16..25 (every chunk layout)
        space = JK.pair_space(nbits, len(cuts), max(nx, ny))
        bits = rng.integers(0, nbits, size=(nx + ny, density))
        keys = np.bitwise_or.reduce(np.left_shift(1, bits), axis=1).astype(np.int64)
        a, b = keys[:nx].copy(), keys[nx:].copy()
        want = int(((a[:, None] & b[None, :]) == 0).sum())  # every pair, one by one
        for ncut in (0, 2, len(cuts)):
            got = JK._pairs(a, nx, b, ny, nbits, cuts, ncut, *space)
            assert got == want, (nbits, ncut)


@given(st.integers(4, 11), st.integers(1, 2))
def test_join_and_symmetric_search_agree(n, threads):
    r, classes = join.count_classes(n, threads=threads)
    s, sym = engine.count_classes(Problem(n), method="symmetric")
    assert (r.count, r.unique, classes) == (s.count, s.unique, sym)


def test_the_result_does_not_depend_on_threads():
    assert join.join_total(13, threads=1) == join.join_total(13, threads=2) == known_total(13)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "8", None, True])
def test_bad_n_is_refused(bad):
    for call in (join.join_total, join.fixed_counts, join.memory_estimate, join.count_classes):
        with pytest.raises(QueensError) as e:
            call(bad)
        assert not isinstance(e.value, TooLarge)  # a bad n is not a large one


def test_limits_are_refused_with_the_number():
    with pytest.raises(TooLarge, match="n = 26 .*n <= 25"):
        join.join_total(26, force=True)  # keys beyond the table's 8 chunks
    with pytest.raises(TooLarge, match="19"):
        join.join_total(19)  # the engine's practical limit, without force
    with pytest.raises(TooLarge, match="n = 22 on 64 thread.*fits on up to"):
        join.check_join(22, threads=64, force=True)  # the memory budget: a key list per thread
    assert join.memory_estimate(21, threads=2) < join.MEMORY_BUDGET
    assert join.check_join(21, threads=2, force=True) == 21


def test_an_interrupted_join_raises_and_work_goes_on():
    box = {}

    def work():
        try:
            box["value"] = join.join_total(18, threads=2)
        except KeyboardInterrupt as e:
            box["error"] = e

    join.join_total(12)  # compiled before the clock starts
    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.3)
    interrupt.request()
    # it stops within a second; ten allowed for a machine whose cores are all busy (a stop
    # not heeded leaves a value: the count ends in seconds)
    t.join(10.0)
    interrupt.clear()
    assert not t.is_alive() and "value" not in box and isinstance(box["error"], interrupt.Interrupted)
    assert join.join_total(10) == known_total(10)


@pytest.mark.parametrize("n", range(1, 13))
def test_the_engine_counts_by_the_join_on_request(n):
    r = engine.count_both(Problem(n), method="join")
    r2, classes = engine.count_classes(Problem(n), method="join")
    assert r.method == r2.method == "join"
    assert (r.count, r.unique) == (r2.count, r2.unique) == (known_total(n), known_unique(n))
    if n >= 4:
        assert classes == engine.count_classes(Problem(n), method="symmetric")[1]
    total = engine.count_both(Problem(n), method="join", unique=False)
    assert (total.count, total.unique) == (known_total(n), None)


def test_auto_picks_the_join_where_it_is_faster():
    below = engine.count_both(Problem(engine.JOIN_FROM - 1))
    at = engine.count_both(Problem(engine.JOIN_FROM))
    assert below.method == "symmetric" and at.method == "join"
    assert at.count == known_total(engine.JOIN_FROM) and at.unique == known_unique(engine.JOIN_FROM)
    assert engine.count(Problem(engine.JOIN_FROM), unique=True) == known_unique(engine.JOIN_FROM)


def test_the_join_method_refuses_variants():
    with pytest.raises(UnsupportedProblem, match="standard problem"):
        engine.count_both(Problem(8, toroidal=True), method="join")
    # auto counts a variant by the general search, as before
    assert engine.count_both(Problem(14, toroidal=True), unique=False).method == "general"


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 11, 14])
def test_split_tasks_add_up_largest_first(n):
    p = Problem(n)
    method, depth, tasks = engine.split_tasks(p, method="join")
    assert (method, depth) == ("join", 0)
    found = [engine.count_task(p, "join", t) for t in tasks]
    assert sum(f[0] for f in found) == known_total(n) and all(f[1:] == (None, 0) for f in found)
    classes = join.classes_from_total(n, sum(f[0] for f in found))
    assert sum(classes.values()) == known_unique(n)
    if n >= 4:
        # the slices cover the row splits once, and come largest estimated work first
        spans = sorted(tasks)
        assert spans[0][0] == 0 and all(a[1] == b[0] for a, b in itertools.pairwise(spans))
        tables = JK.quarter_tables(n, HALT)
        rows = JK.join_tasks(n)
        cost = JK.task_costs(n, rows, tables[1], tables[2])
        work = [int(cost[a:b].sum()) for a, b in tasks]
        assert work == sorted(work, reverse=True)


def test_bad_join_tasks_are_refused():
    with pytest.raises(QueensError):
        engine.count_task(Problem(8), "join", (5, 3))
    with pytest.raises(QueensError):
        engine.count_task(Problem(8), "join", "ab")
    with pytest.raises(UnsupportedProblem):
        engine.split_tasks(Problem(8, toroidal=True), method="join")
    with pytest.raises(QueensError):
        join.classes_from_total(8, 93)


@pytest.mark.parametrize("call", [lambda: join.join_total(16, threads=1), lambda: join.fixed_counts(16)])
def test_a_stop_requested_before_a_kernel_raises(call):
    # the flag raised by another thread before the call: every kernel returns at once and
    # the call raises instead of returning a partial count
    join.join_total(10)
    join.fixed_counts(10)
    interrupt.request()
    try:
        with pytest.raises(interrupt.Interrupted):
            call()
    finally:
        interrupt.clear()
    assert join.join_total(10) == known_total(10) and join.fixed_counts(8) == (0, 4)


def test_a_stop_during_a_slice_raises():
    p = Problem(12)
    _, _, tasks = engine.split_tasks(p, method="join")
    interrupt.request()
    try:
        with pytest.raises(interrupt.Interrupted):
            engine.count_task(p, "join", tasks[0])
    finally:
        interrupt.clear()


def test_the_native_backend_offers_every_engine_method():
    from queenslab.backends.registry import get_backend

    assert get_backend("native").option("method").choices == engine.METHODS


@pytest.mark.parametrize("n", [6, 9, 12])
def test_crosscheck_counts_the_standard_problem_by_the_join_and_the_symmetric_search(n):
    from queenslab.backends.crosscheck import crosscheck

    r = crosscheck(Problem(n), ["native"], time_limit=None)
    assert [(row.backend, row.method) for row in r.rows] == [("native", "join"), ("native", "symmetric")]
    assert r.verdict == "native only" and {(row.count, row.unique) for row in r.rows} == {
        (known_total(n), known_unique(n))
    }


def test_crosscheck_of_a_variant_runs_the_native_backend_once():
    from queenslab.backends.crosscheck import crosscheck

    r = crosscheck(Problem(7, toroidal=True), ["native"], time_limit=None)
    assert [row.method for row in r.rows] == ["general"]


@pytest.mark.parametrize("nbits, nx, ny", [(42, 2000, 2300), (46, 1900, 2100), (46, 8500, 8700)])
def test_six_chunks_over_several_blocks_and_buckets(nbits, nx, ny):
    """The keys of n = 22..25 are cut into six chunks; the tables below hold several
    blocks of 512 keys, and the last pair is long enough to be bucketed."""
    rng = np.random.default_rng(nbits + nx)

    def keys(k):
        bits = rng.random((k, nbits)) < 0.15
        return (bits.astype(np.int64) << np.arange(nbits, dtype=np.int64)).sum(axis=1)

    xs, ys = keys(nx), keys(ny)
    direct = sum(int(np.count_nonzero((xs[i : i + 500, None] & ys[None, :]) == 0)) for i in range(0, nx, 500))
    n = (nbits // 2 + 1) // 2 * 2  # the even n whose keys have nbits bits
    assert JK.key_bits(n) == nbits
    cuts = JK._cuts(n)
    ncut = min(JK.SIEVE_MAX_CUTS, len(cuts))
    used = JK.sieve_bits(min(nx, ny), ncut)  # bits of the table, whichever list it is
    assert (used > 0) == (nx > JK.SIEVE_MIN_KEYS)
    assert JK.chunk_layout(nbits - used)[1] == 6
    space = JK.pair_space(nbits, ncut, max(nx, ny))
    assert JK._pairs(xs, nx, ys, ny, nbits, cuts, ncut, *space) == direct


def test_the_bucketed_pair_count_agrees_with_a_direct_count():
    """Long tables (from 8,192 keys, n = 18 on) are bucketed by a few key bits (the sieve);
    the count of disjoint key pairs must be the direct count, with and without the buckets."""
    from queenslab.native import join_kernels as JK

    rng = np.random.default_rng(20)
    width = 2 * (2 * 10 - 1)  # n = 20: 38 diagonal bits

    def keys(k):
        bits = rng.random((k, width)) < 0.2
        return (bits.astype(np.int64) << np.arange(width, dtype=np.int64)).sum(axis=1)

    xs, ys = keys(JK.SIEVE_MIN_KEYS + 5000), keys(JK.SIEVE_MIN_KEYS + 1000)
    direct = sum(int(np.count_nonzero((xs[i : i + 500, None] & ys[None, :]) == 0)) for i in range(0, len(xs), 500))
    assert direct > 0
    for ncut in (0, JK.SIEVE_CUTS):
        space = JK.pair_space(width, ncut, max(len(xs), len(ys)))
        found = JK._pairs(xs, len(xs), ys, len(ys), width, JK._cuts(20), ncut, *space)
        assert found == direct, ncut


def _window_oracle(n, half):
    """The local diagonal indices (both directions alike) a half-board word must keep,
    cell by cell: those crossing between the half's upper and lower rows, those crossing
    into the other half and, for odd n, those through the middle column."""
    m = n // 2
    nu = n - m
    cols = range(m) if half == 0 else range(n - m, n)
    off = cols[0]
    other = range(n - m, n) if half == 0 else range(m)
    needed = set()
    for index in (lambda r, c: r + c, lambda r, c: c - r + n - 1):
        mine = {index(r, c) for r in range(n) for c in cols}
        upper = {index(r, c) for r in range(nu) for c in cols}
        lower = {index(r, c) for r in range(nu, n) for c in cols}
        crossing = {index(r, c) for r in range(n) for c in other}
        middle = {index(b, m) for b in range(n)} if n % 2 else set()
        needed |= {i - off for i in (upper & lower) | (mine & crossing) | (mine & middle)}
    return needed


@pytest.mark.parametrize("n", range(4, JK.MAX_N + 1))
def test_a_half_board_word_keeps_every_diagonal_where_queens_can_meet(n):
    """A word keeps a window of each direction's diagonals; one outside it would let a
    conflict between the quarters, the halves or with the middle queen go unseen."""
    for half in (0, 1):
        lo, width = JK._window(n, half)
        needed = _window_oracle(n, half)
        assert needed <= set(range(lo, lo + width)), (half, sorted(needed))
        assert 2 * width <= 63  # both directions in one int64, clear of the sign bit


def _task_problem(n, b, e):
    """The problem whose solutions are the join task (b, E)'s: row r's queen in the east
    columns for r in E, in the west ones for the other rows, the middle column's at row b."""
    m = n // 2
    blocked = []
    for r in range(n):
        for c in range(n):
            east, west, middle = c < m, c >= n - m, not (c < m or c >= n - m)
            ok = (east and (e >> r) & 1) or (west and not (e >> r) & 1 and r != b) or (middle and r == b)
            if not ok:
                blocked.append((r, c))
    return Problem(n, blocked=blocked)


@pytest.mark.parametrize(
    ("n", "fixed"), [(22, 3), pytest.param(22, 2, marks=pytest.mark.slow), pytest.param(23, 2, marks=pytest.mark.slow)]
)
def test_the_join_beyond_the_int64_half_board_counts_as_the_general_search(n, fixed):
    """Beyond n = 21 a half's diagonals no longer fit an int64 (the words keep a window of
    them) and the keys take 7 chunks. A join task of n = 22 and 23 (alternate rows east),
    as blocked cells, with the queens of its first rows fixed where one of its solutions
    has them (so it has solutions), is counted by the join and by the general search."""
    from queenslab import solve

    m = n // 2
    b = n // 2 if n % 2 else -1
    rows = [r for r in range(n) if r != b]
    task = _task_problem(n, b, sum(1 << r for r in rows[::2][:m]))
    one = solve(task)
    problem = Problem(n, blocked=task.blocked, fixed=[(r, one[r]) for r in range(fixed)])
    joined = join.problem_total(problem, threads=1, force=True)
    assert joined == engine.count(problem, method="general", threads=2, force=True) > 0


@pytest.mark.slow
def test_the_largest_n_whose_tables_fit_the_budget():
    """The method choice trusts ``TABLES_FIT_TO`` instead of a counting pass of 37 s."""
    n = join.TABLES_FIT_TO
    assert join.memory_estimate(n) <= join.MEMORY_BUDGET < join.memory_estimate(n + 1)
    assert join.fits(n) and not join.fits(n + 1)


def test_a_long_table_bucketed_by_many_bits_counts_every_disjoint_pair():
    """Tables of more than twice ``SIEVE_MIN_KEYS`` keys are bucketed by more bits (one
    more per doubling). Keys drawn on 16 bit positions (every cut among them) let the
    disjoint pairs be counted independently: for each x, the y's that are subsets of its
    complement, by a sum over subsets of a 16-bit histogram."""
    from queenslab.native import join_kernels as JK

    n = 22
    cuts = JK._cuts(n)
    rng = np.random.default_rng(22)
    others = [b for b in range(2 * (2 * (n // 2) - 1)) if b not in set(cuts.tolist())]
    positions = np.array(sorted(cuts.tolist() + rng.choice(others, 16 - len(cuts), replace=False).tolist()))

    def keys(k):
        small = rng.integers(0, 1 << 16, size=k) & rng.integers(0, 1 << 16, size=k)  # a quarter of the bits
        bits = (small[:, None] >> np.arange(16)) & 1
        return small, (bits << positions[None, :]).sum(axis=1).astype(np.int64)

    sx, xs = keys(5 * JK.SIEVE_MIN_KEYS)  # five times the least: bucketed by 5 bits
    sy, ys = keys(3 * JK.SIEVE_MIN_KEYS)
    subsets = np.bincount(sy, minlength=1 << 16).astype(np.int64)
    for bit in range(16):  # subsets[m] = the y's whose bits lie within m
        with_bit = (np.arange(1 << 16) >> bit) & 1 == 1
        subsets[with_bit] += subsets[~with_bit]
    expected = int(subsets[(~sx) & 0xFFFF].sum())
    ncut = min(JK.SIEVE_MAX_CUTS, len(cuts))
    bits = JK.key_bits(n)
    space = JK.pair_space(bits, ncut, max(len(xs), len(ys)))
    for a, b in ((xs, ys), (ys, xs)):
        assert JK._pairs(a, len(a), b, len(b), bits, cuts, ncut, *space) == expected
