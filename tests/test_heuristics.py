"""Large-n heuristics: construction, verifier, min-conflicts, the self-correcting search,
GA and ACO, the n -> n+1 pattern, the solve command and the PNG writer.

Every solution is checked twice: by the O(n) verifier under test and by an independent
pairwise check written here (for small n). The self-correcting search is compared move
for move with a direct transliteration of the self-correcting Queens program's recursive C function.
"""

import itertools
import json
from functools import partial

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st

from queenslab import cli as cli_module
from queenslab.errors import Incomplete, InvalidPlacement, InvalidProblem, QueensError, TooLarge, UnsupportedProblem
from queenslab.heuristics import (
    ant_colony,
    construct,
    extend,
    extension_pattern,
    extension_pattern_works,
    find_conflict,
    genetic,
    kernels as K,
    min_conflicts,
    self_correct,
    solve,
    verify,
)
from queenslab.heuristics.minconflicts import rng_state
from queenslab.problem import Problem

# ----------------------------------------------------------------------------- independent references


def pairwise_ok(p):
    """Brute force: no two queens share a column or a diagonal (rows are distinct by index)."""
    p = [int(c) for c in p]
    for i, j in itertools.combinations(range(len(p)), 2):
        if p[i] == p[j] or abs(p[i] - p[j]) == j - i:
            return False
    return True


def first_pair(p):
    """Brute force: the first attacking pair in row order and its kind."""
    for i, j in itertools.combinations(range(len(p)), 2):
        if p[i] == p[j]:
            return i, j, "column"
        if j - i == p[j] - p[i]:
            return i, j, "diagonal"
        if j - i == p[i] - p[j]:
            return i, j, "anti-diagonal"
    return None


def check(p, n):
    """The solution checks every test applies."""
    assert isinstance(p, np.ndarray) and p.dtype == np.int64 and p.shape == (n,)
    assert sorted(p.tolist()) == list(range(n))
    assert verify(p) is True and find_conflict(p) is None
    if n <= 80:
        assert pairwise_ok(p)


def c002_queen(q, k, n, limit, state):
    """The self-correcting Queens program's ``queen()`` transliterated (recursive, static iteration counter)."""
    t = n
    if k > n - 1:
        return True
    if k == 0:
        state["iteration"] = 0
    while True:
        a = q[k]
        safe = all(q[x] != a and q[x] != a - k + x and q[x] != a + k - x for x in range(k))
        if safe and c002_queen(q, k + 1, n, limit, state):
            return True
        q[k] += 1
        if q[k] == n:
            q[k] = 0
        t -= 1
        if t == 0:
            break
        state["iteration"] += 1
        if not state["iteration"] < limit:
            break
    return False


ALL = ("construct", "minconflicts", "selfcorrect", "ga", "aco")
SMALL_N = list(range(4, 31)) + [36, 37, 38, 39, 40, 41, 50, 64]  # every residue mod 6, several times


# ----------------------------------------------------------------------------- construction


@pytest.mark.parametrize("n", list(range(1, 200)) + [1000, 1001, 1002, 1003, 1004, 1005])
def test_construct_is_a_solution_for_every_n(n):
    p = construct(n)
    if n in (2, 3):
        assert p is None
    else:
        check(p, n)


def test_construct_agrees_with_the_naive_reference_and_is_fast_at_large_n():
    for n in range(4, 11):
        assert naive.is_solution(Problem(n), tuple(construct(n).tolist()))
    for n in (10**6, 10**6 + 2, 10**6 + 3):  # residues 4, 0 (n+2 ≡ 0), 1 ... include 2 and 3 below
        assert verify(construct(n))
    for n in (6 * 100_000 + 2, 6 * 100_000 + 3):
        assert verify(construct(n))


def test_construct_matches_the_classical_lists():
    assert (construct(8) + 1).tolist() == [2, 4, 6, 8, 3, 1, 7, 5]  # n mod 6 == 2
    assert (construct(9) + 1).tolist() == [4, 6, 8, 2, 5, 7, 9, 1, 3]  # n mod 6 == 3
    assert (construct(6) + 1).tolist() == [2, 4, 6, 1, 3, 5]


# ----------------------------------------------------------------------------- verifier


@given(st.lists(st.integers(0, 9), min_size=1, max_size=10))
def test_find_conflict_names_the_first_pair(values):
    n = len(values)
    p = [v % n for v in values]
    expected = first_pair(p)
    found = find_conflict(p)
    if expected is None:
        assert found is None and verify(p)
    else:
        i, j, kind = expected
        assert found.rule == kind and found.cells == ((i, p[i]), (j, p[j]))
        with pytest.raises(InvalidPlacement, match="not a solution: the queens at"):
            verify(p)


def test_verifier_rejects_broken_huge_placements_naming_the_pair():
    p = construct(10**6)
    q = p.copy()
    q[500_000], q[700_000] = q[700_000], q[500_000]  # a swap keeps columns distinct
    c = find_conflict(q)
    # p is a solution, so every attacking pair of q involves a swapped row: list them all
    # with numpy (independently of the kernel) and expect the least in row order.
    rows = np.arange(q.size)
    pairs = set()
    for r in (500_000, 700_000):
        for kind, key in (("diagonal", rows - q), ("anti-diagonal", rows + q)):
            for s in np.flatnonzero(key == key[r]).tolist():
                if s != r:
                    pairs.add((min(r, s), max(r, s), kind))
    assert pairs, "the swap should create a conflict"
    i, j, kind = min(pairs)
    assert (c.cells[0][0], c.cells[1][0], c.rule) == (i, j, kind)
    q = p.copy()
    q[999_999] = q[0]  # a repeated column: the pair (row 1, row 1000000)
    with pytest.raises(InvalidPlacement) as e:
        verify(q)
    assert "(1," in str(e.value) and "(1000000," in str(e.value)
    q = p.copy()
    q[3] = q[2] + 1  # rows 3 and 4 (1-based) on one diagonal; earlier rows untouched
    c = find_conflict(q)
    assert c.cells[1][0] == 3 and c.cells[0][0] <= 2


def test_verifier_pair_matches_solution_conflicts():
    from queenslab.solution import conflicts

    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        p = rng.permutation(n)
        found = find_conflict(p)
        listed = conflicts(Problem(n), p)
        assert (found is None) == (not listed)
        if listed:
            assert found == listed[0]


@pytest.mark.parametrize("bad", [[], [[0, 1], [1, 0]], [0, 3, 1], [-1, 0], "2 4 1 3", [0.5, 1.0], [True, False]])
def test_verifier_rejects_malformed_placements(bad):
    with pytest.raises(InvalidPlacement):
        verify(bad)


# ----------------------------------------------------------------------------- sizes every method handles alike


@pytest.mark.parametrize("method", ALL)
def test_n1_n2_n3_and_bad_n(method):
    assert solve(1, method).tolist() == [0]
    assert solve(2, method) is None and solve(3, method) is None
    for bad in (0, -5, 2.5, "8", True):
        with pytest.raises(InvalidProblem):
            solve(bad, method)
    with pytest.raises(UnsupportedProblem, match="standard"):
        solve(Problem(8, toroidal=True), method)
    assert solve(Problem(5), method) is not None


def test_solve_dispatcher_refuses_what_it_does_not_know():
    naive.raises_each(
        QueensError,
        {
            "unknown method": partial(solve, 8, "simulated-annealing"),
            "deterministic": partial(solve, 8, "construct", seed=1),
            "does not take": partial(solve, 8, "minconflicts", temperature=3),
            "seed": partial(solve, 8, "minconflicts", seed=-1),
        },
    )


# ----------------------------------------------------------------------------- min-conflicts


@pytest.mark.parametrize("start", ["greedy", "random"])
def test_min_conflicts_solves_small_boards(start):
    for n in SMALL_N:
        for seed in range(3):
            check(min_conflicts(n, seed=seed, start=start), n)


def test_min_conflicts_is_deterministic_and_seed_dependent():
    a = min_conflicts(500, seed=11)
    assert np.array_equal(a, min_conflicts(500, seed=11))
    assert not np.array_equal(a, min_conflicts(500, seed=12))
    p, stats = min_conflicts(500, seed=11, return_stats=True)
    assert np.array_equal(p, a) and stats["tries"] >= 1


def test_min_conflicts_large_n_and_limits():
    p, stats = min_conflicts(200_000, seed=3, return_stats=True)
    check(p, 200_000)
    assert stats["tries"] == 1 and stats["start_conflicts"] < 2000  # the greedy start is nearly a solution
    with pytest.raises(Incomplete, match="no solution"):
        min_conflicts(2000, seed=0, start="random", max_steps=1, restarts=0)
    for kw in ({"start": "best"}, {"max_steps": 0}, {"restarts": -1}, {"candidates": 0}, {"seed": 1.5}):
        with pytest.raises(QueensError):
            min_conflicts(10, **kw)
    calls = []
    min_conflicts(50, seed=0, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] <= calls[-1][1]


# ----------------------------------------------------------------------------- self-correcting search


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_self_correct_solves_small_boards_and_is_deterministic():
    for n in SMALL_N:
        check(self_correct(n, seed=n), n)
    assert np.array_equal(self_correct(300, seed=4), self_correct(300, seed=4))
    check(self_correct(60, seed=1, limit=None), 60)


def test_self_correct_moves_exactly_like_the_self_correcting_queens_program():
    rng = np.random.default_rng(2)
    for trial in range(120):
        n = int(rng.integers(4, 14))
        limit = n * n if trial % 2 else int(rng.integers(1, 4 * n * n))
        start = rng.integers(0, n - 1, n)  # the self-correcting Queens program: random() % (n - 1)
        ref = [int(v) for v in start]
        state = {}
        ok_ref = c002_queen(ref, 0, n, limit, state)
        for counted in (True, False):
            q = start.astype(np.int64)
            out = np.zeros(1, np.int64)
            ok = K.self_correct(n, limit, counted, q, np.empty(n, np.int64), np.empty(5 * n, np.int32), out)
            assert (ok == K.SOLVED) == ok_ref and q.tolist() == ref and out[0] == state["iteration"]
            if ok == K.SOLVED:
                assert pairwise_ok(q)


def test_the_local_searches_record_themselves_without_changing_a_move():
    """Given a trace buffer, self_correct and min-conflicts' repair make the same moves and
    draws as without one; replaying the events from the start gives the final board, and
    a full buffer cuts the search before the move that does not fit."""
    for n in (8, 11, 30):
        for seed in range(6):
            start = rng_state(seed)
            q = np.empty(n, np.int64)
            K.self_correct_start(n, start, q)
            first = q.copy()
            runs = []
            for ev in (None, np.empty((10**6, 3), np.int64), np.empty((5, 3), np.int64)):
                q = first.copy()
                out = np.zeros(2, np.int64)
                t, lines = np.empty(n, np.int64), np.empty(5 * n, np.int32)
                status = K.self_correct(n, n * n, True, q, t, lines, out, ev)
                runs.append((status, q.tolist(), int(out[0])))
                if ev is not None:
                    board = first.copy()
                    for code, row, col in ev[: out[1]].tolist():
                        assert code == K.MOVE
                        board[row] = col
                    assert board.tolist() == q.tolist()
            assert runs[0] == runs[1] and (runs[2][0] == K.FULL or runs[2] == runs[0])
            finals = []
            for ev in (None, np.empty((10**6, 3), np.int64)):
                rng = rng_state(seed)
                p, d1, d2 = np.empty(n, np.int64), np.empty(2 * n - 1, np.int32), np.empty(2 * n - 1, np.int32)
                work, out = np.empty(n, np.int64), np.zeros(4, np.int64)
                K.min_conflicts_start(n, 32, rng, p, d1, d2, work)
                board = p.copy()
                status = K.min_conflicts_repair(n, 50 * n, 16, rng, p, d1, d2, work, out, ev)
                finals.append((status, p.tolist(), out[:3].tolist(), rng.tolist()))
                if ev is not None:
                    for code, i, j in ev[: out[3]].tolist():
                        assert code == K.SWAP
                        board[i], board[j] = board[j], board[i]
                    assert board.tolist() == p.tolist()
            assert finals[0] == finals[1]


def test_self_correct_never_loops_without_a_solution_and_limits():
    for n in (2, 3):  # the kernel itself, no limit: a complete search that ends "in trouble"
        q = np.zeros(n, np.int64)
        assert (
            K.self_correct(n, 0, True, q, np.empty(n, np.int64), np.empty(5 * n, np.int32), np.zeros(1, np.int64))
            == K.FAILED
        )
    with pytest.raises(Incomplete):
        self_correct(40, seed=0, limit=5, restarts=2)
    p, stats = self_correct(100, seed=9, return_stats=True)
    check(p, 100)
    assert stats["tries"] >= 1 and stats["iterations"] > 0
    assert np.array_equal(p, self_correct(100, seed=9, check="scan"))
    for kw in ({"check": "fast"}, {"limit": 0}, {"restarts": -1}):
        with pytest.raises(QueensError):
            self_correct(10, **kw)


# ----------------------------------------------------------------------------- metaheuristics


def test_genetic_algorithm():
    for n in (4, 5, 6, 7, 8):
        check(genetic(n, seed=n, generations=5000), n)
    for n in (10, 16, 25, 40):
        check(genetic(n, seed=1, improve=True), n)
    a = genetic(8, seed=5)
    assert np.array_equal(a, genetic(8, seed=5))
    with pytest.raises(Incomplete):
        genetic(30, seed=0, generations=3)
    with pytest.raises(TooLarge):
        genetic(5000)
    for kw in ({"pc": 1.5}, {"pm": -0.1}, {"population": 1}):
        with pytest.raises(QueensError):
            genetic(8, **kw)


def test_ant_colony():
    for n, seed in ((4, 0), (5, 0), (6, 3)):
        check(ant_colony(n, seed=seed), n)
    p, stats = ant_colony(5, seed=3, return_stats=True)
    assert np.array_equal(p, ant_colony(5, seed=3)) and 0 <= stats["alpha"] < 2 and 0 <= stats["beta"] < 2
    with pytest.raises(Incomplete):
        ant_colony(12, seed=0, iterations=1, ants=2)
    with pytest.raises(TooLarge):
        ant_colony(25)
    with pytest.raises(QueensError):
        ant_colony(8, tau_min=0)


# ----------------------------------------------------------------------------- N. Gupta's ranking paper: the n -> n+1 pattern


def test_extension_pattern_reproduces_the_figures_and_works_iff_n_mod_6_in_0145():
    p = np.array([2, 0, 3, 1])  # Fig. 4
    assert pairwise_ok(p)
    figures = {5: [5, 3, 1, 4, 2], 6: [5, 3, 1, 6, 4, 2], 7: [7, 5, 3, 1, 6, 4, 2]}
    for n in range(5, 120):
        p = extend(p)
        assert np.array_equal(p, extension_pattern(n))
        if n in figures:
            assert (p + 1).tolist() == figures[n]
        assert pairwise_ok(p) == extension_pattern_works(n) == (n % 6 in (0, 1, 4, 5))
    for n in range(120, 3000, 7):
        assert (find_conflict(extension_pattern(n)) is None) == extension_pattern_works(n)
    with pytest.raises(InvalidProblem):
        extension_pattern(3)


# ----------------------------------------------------------------------------- command line


@pytest.fixture
def run(monkeypatch, capsys):
    def go(*args):
        code = cli_module.main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return go


def test_cli_solve_prints_and_verifies(run):
    code, out, err = run("solve", 8, "--method", "construct")
    assert code == 0 and out.strip() == "2 4 6 8 3 1 7 5" and "verified" in err
    code, out, _ = run("solve", 10, "--backend", "native")
    assert out.strip() == "1 3 6 8 10 5 9 2 4 7"
    for flag, method in [("--method", m) for m in ("minconflicts", "selfcorrect", "ga", "aco", "construct")] + [
        ("--backend", b) for b in ("sat", "cpsat")
    ]:
        code, out, _ = run("solve", 6, flag, method, "--json")
        data = json.loads(out)
        assert code == 0 and set(data) == {
            "n",
            "problem",
            "backend",
            "method",
            "seed",
            "seconds",
            "verified",
            "solution",
            "out",
            "error",
        }
        assert data["error"] is None
        assert data["verified"] is True and data[flag[2:]] == method and data["out"] is None
        assert pairwise_ok([c - 1 for c in data["solution"]]) and sorted(data["solution"]) == list(range(1, 7))
        assert (data["seed"] is None) == (method in ("sat", "construct"))


def test_cli_solve_seeds_files_and_large_n(run, tmp_path):
    a = json.loads(run("solve", 300, "--method", "minconflicts", "--seed", 5, "--json")[1])
    b = json.loads(run("solve", 300, "--method", "minconflicts", "--seed", 5, "--json")[1])
    assert a["solution"] == b["solution"] and a["seed"] == 5
    f = tmp_path / "q.npy"
    code, out, err = run("solve", 5000, "--method", "minconflicts", "--out", f, "--json")
    data = json.loads(out)
    assert code == 0 and data["solution"] is None and data["out"] == str(f)
    arr = np.load(f)
    assert arr.min() == 0 and verify(arr)
    t = tmp_path / "q.txt"
    code, out, err = run("solve", 12, "--method", "construct", "--out", t)
    from queenslab.solution import parse_placement

    assert np.array_equal(np.array(parse_placement(t.read_text())), construct(12))
    assert t.read_text().startswith("2, 4, 6,")
    code, out, err = run("solve", 2000)
    assert code == 0 and out == "" and "--out" in err


def test_cli_solve_no_solution_and_bad_input(run):
    for n in (2, 3):
        code, out, err = run("solve", n)
        assert code == 1 and "no solution" in err and "Traceback" not in err
        code, out, _ = run("solve", n, "--method", "minconflicts", "--json")
        assert code == 1 and json.loads(out)["solution"] is None
    code, out, err = run("solve", 0)
    assert code == 2 and err.startswith("error:")
    code, out, err = run("solve", 8, "--seed", 3)
    assert code == 2 and "takes no seed" in err
    code, out, err = run("solve", 8, "--method", "aco", "--restarts", 3)
    assert code == 2 and "restarts does not apply" in err
    code, out, err = run("solve", 100, "--backend", "native")
    assert code == 2 and err.startswith("error:")
    code, out, err = run("solve", 30, "--method", "ga", "--max-steps", 1)
    assert code == 1 and "no solution" in err
    # what would help is named by its flags, not by the Python function's arguments
    assert "allow more generations (--max-steps G), or try --improve" in err and "=True" not in err


# ----------------------------------------------------------------------------- pictures


def test_write_png_round_trip(tmp_path):
    PIL = pytest.importorskip("PIL.Image")
    from queenslab.viz import write_png

    for n, scale in ((4, 1), (9, 5), (13, 3)):
        p = construct(n)
        f = tmp_path / f"q{n}.png"
        assert write_png(p, f, scale=scale) == (n * scale, n * scale)
        img = np.array(PIL.open(f).convert("L")) > 0
        want = np.zeros((n, n), bool)
        want[np.arange(n), p] = True
        assert np.array_equal(img, np.kron(want, np.ones((scale, scale), bool)))
    with pytest.raises(TooLarge):
        write_png(construct(5000), tmp_path / "big.png", scale=5)
    with pytest.raises(InvalidPlacement):
        write_png([0, 4], tmp_path / "bad.png")
    with pytest.raises(QueensError):
        write_png([1, 3, 0, 2], tmp_path / "bad.png", scale=0)


def test_placement_files_round_trip_and_bad_files(tmp_path):
    from queenslab.placement_file import read_placement, write_placement

    p = construct(1001)
    for name in ("q.npy", "q.txt"):
        f = tmp_path / name
        write_placement(p, f)
        assert np.array_equal(read_placement(f), p)
    (tmp_path / "doc.txt").write_text("[906, 898,\n 280 ]")  # document style, 1-based
    with pytest.raises(InvalidPlacement, match="row 1 has column 906"):
        read_placement(tmp_path / "doc.txt")
    (tmp_path / "word.txt").write_text("2 4 x 3")
    with pytest.raises(InvalidPlacement, match="'x' is not a column number"):
        read_placement(tmp_path / "word.txt")
    np.save(tmp_path / "two.npy", np.ones((2, 2), np.int64))
    with pytest.raises(InvalidPlacement, match="1-D"):
        read_placement(tmp_path / "two.npy")
    (tmp_path / "fake.npy").write_text("2 4 1 3")
    with pytest.raises(InvalidPlacement, match="not a .npy"):
        read_placement(tmp_path / "fake.npy")
    with pytest.raises(InvalidPlacement, match="cannot read"):
        read_placement(tmp_path / "missing.txt")


def test_cli_show_png_and_files(tmp_path):
    PIL = pytest.importorskip("PIL.Image")

    p = min_conflicts(3000, seed=2)
    f = tmp_path / "q.npy"
    np.save(f, p)
    png = tmp_path / "q.png"
    code = cli_module.main(["show", "--from", str(f), "--png", str(png), "--json"])
    assert code == 0
    img = np.array(PIL.open(png).convert("L")) > 0
    assert img.shape == (3000, 3000) and np.array_equal(np.flatnonzero(img.reshape(-1)), np.arange(3000) * 3000 + p)
    assert cli_module.main(["show", "--from", str(f)]) == 2  # too large for text
    assert cli_module.main(["show", "2", "4", "1", "3", "--scale", "3"]) == 2  # --scale needs --png
    assert cli_module.main(["show", "2", "4", "1", "3", "--from", str(f)]) == 2


def test_cli_show_json_names_the_conflict(capsys, tmp_path):
    (tmp_path / "b.txt").write_text("2 4 1 5 4")
    assert cli_module.main(["show", "--from", str(tmp_path / "b.txt"), "--json"]) == 1  # not a solution
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and data["placement"] == [2, 4, 1, 5, 4]
    first = first_pair([1, 3, 0, 4, 3])
    assert f"({first[0] + 1}," in data["conflict"] and f"({first[1] + 1}," in data["conflict"]
    assert (
        cli_module.main(["show", "2", "4", "1", "3", "--png", str(tmp_path / "s.png"), "--scale", "5", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["pixels"] == [20, 20]


# ----------------------------------------------------------------------------- hostile input


def _little_memory(monkeypatch, nbytes=10**9):
    from queenslab import validate

    monkeypatch.setattr(validate, "available_memory", lambda: nbytes)


@pytest.mark.parametrize(
    "call,what",
    [
        (lambda: construct(2**31 - 1), "construct for n = 2147483647 needs about 51.5 GB"),
        (lambda: solve(2**31 - 1), "construct for n = 2147483647"),
        (lambda: min_conflicts(10**9), "min-conflicts for n = 1000000000 needs about 40.0 GB"),
        (lambda: solve(10**9, "minconflicts"), "min-conflicts for n = 1000000000"),
        (lambda: extension_pattern(2**31 - 1), "extension pattern"),
        (lambda: genetic(8, population=10**9), "genetic algorithm"),
        (lambda: ant_colony(8, ants=10**9), "ant colony"),
    ],
)
def test_sizes_no_machine_can_do_are_refused_up_front(monkeypatch, call, what):
    """The memory a method needs is estimated before it allocates: a TooLarge naming the
    need and what is available, never a MemoryError (here the machine has 1 GB)."""
    _little_memory(monkeypatch)
    with pytest.raises(TooLarge, match=what) as info:
        call()
    assert "only 1.0 GB is available" in str(info.value)


def test_the_memory_estimate_covers_the_arrays():
    import tracemalloc

    from queenslab.heuristics.construct import BYTES_PER_QUEEN

    n = 300_000
    for method, fn in (("construct", construct), ("min-conflicts", min_conflicts)):
        fn(n)  # compile first
        tracemalloc.start()
        fn(n)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= BYTES_PER_QUEEN[method] * n


@pytest.mark.parametrize(
    "kwargs",
    [
        {"method": "minconflicts", "max_steps": 10**30},
        {"method": "minconflicts", "max_steps": 1e30},
        {"method": "minconflicts", "max_steps": 2**63},
        {"method": "selfcorrect", "max_steps": 2**63},
        {"method": "minconflicts", "restarts": 2**64},
        {"method": "minconflicts", "restarts": -1},
        {"method": "minconflicts", "seed": 2**63},
        {"method": "minconflicts", "seed": -1},
        {"method": "minconflicts", "seed": 1.0},
        {"method": "ga", "max_steps": True},
        {"method": "minconflicts", "candidates": 2**70},
        {"method": "minconflicts", "progress": 5},
        {"method": "ga", "improve": "yes"},
        {"method": "ga", "pc": float("nan")},
        {"method": "ga", "pc": "0.5"},
        {"method": "ga", "pm": 10**400},
        {"method": "aco", "alpha": float("inf")},
        {"method": "aco", "q": 0},
        {"method": "minconflicts", "start": ["greedy"]},
        {"method": "selfcorrect", "limit": "huge"},
        {"method": "selfcorrect", "check": np.array(["scan", "counts"])},
        {"method": "minconflicts", "return_stats": True},
    ],
)
def test_options_outside_their_ranges_are_queens_errors(kwargs):
    """Budgets, restarts and seeds reach numba only as int64 (never a TypingError or an
    OverflowError); reals are finite numbers."""
    with pytest.raises(QueensError):
        solve(8, **kwargs)


def test_largest_int64_budgets_are_accepted():
    assert verify(solve(8, "minconflicts", seed=2**63 - 1, restarts=2**63 - 1))
    assert verify(solve(1000, "minconflicts", max_steps=2**63 - 1))
    assert verify(solve(8, "selfcorrect", max_steps=2**63 - 1))


def test_self_correct_refuses_boards_beyond_its_practical_limit():
    from queenslab.heuristics.selfcorrect import PRACTICAL_LIMIT

    with pytest.raises(TooLarge, match="force=True"):
        self_correct(PRACTICAL_LIMIT + 1)
    with pytest.raises(TooLarge, match="practical limit"):
        solve(10**6, "selfcorrect")


@pytest.mark.parametrize(
    "placement",
    [[1.0, 3.0, 0.0, 2.0], np.array([1.0, 3.0, 0.0, 2.0]), [True, 3, 0, 2], [[1, 3], [0, 2]], "2413", None, 5],
)
def test_float_and_other_placements_are_refused(placement):
    with pytest.raises(InvalidPlacement):
        verify(placement)
