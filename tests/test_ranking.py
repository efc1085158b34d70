"""Rank / unrank, the persistent index, permutation ranks and sampling."""

import json
import os
import random
import sqlite3

import naive
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from strategies import problems

from queenslab.cli import main
from queenslab.data import known_total
from queenslab.errors import InvalidIndex, InvalidPlacement, QueensError, TooLarge
from queenslab.native import engine
from queenslab.problem import Problem, Region
from queenslab.ranking import index as ix, index_format
from queenslab.ranking.lex import batches_from, rank, unrank
from queenslab.ranking.permutations import (
    MAX_RANK_N,
    MAX_UNRANK_N,
    from_lehmer_code,
    lehmer_code,
    permutation_rank,
    permutation_unrank,
)
from queenslab.ranking.sampling import sample

VARIANTS = [
    Problem(7, toroidal=True),
    Problem(8, blocked=[(0, 0), (3, 4)]),
    Problem(8, fixed=[(2, 5)]),
    Problem(10, knight=True),
    Problem(9, blocked=[(4, 4)]),  # keeps the mirror symmetry, not standard
    # edited variants: bounds on regions, a camel leaper
    Problem(9, regions=[Region([(r, c) for r in range(4) for c in range(4)], at_least=1, at_most=2)]),
    Problem(10, leapers=[(1, 3)], regions=[Region([(0, c) for c in range(1, 10, 2)], at_least=1)]),
]


@pytest.fixture(autouse=True)
def _isolated_index_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(ix.ENV_VAR, str(tmp_path / "index"))


@pytest.mark.parametrize("n", range(1, 10))
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_rank_unrank_every_solution_standard(n):
    p = Problem(n)
    for i, s in enumerate(naive.all_solutions(p)):  # brute-force order, not the engine's
        assert rank(p, s, index=None) == i
        assert unrank(p, i, index=None) == s


@pytest.mark.parametrize("n", [6, 8])
def test_the_engines_walk_ranks_small_boards_as_the_plain_python_list(n):
    """rank and unrank answer small standard boards from the plain-Python list of their
    solutions; the walk over the engine's subtree counts (larger boards, an index) must
    give the same ranks there."""
    from queenslab.ranking.walk import rank_walk, unrank_walk

    p = Problem(n)
    sols = naive.all_solutions(p)
    for i, s in enumerate(sols):
        assert rank_walk(p, s, 0, 0, 1) == rank(p, s, index=None) == i
        assert unrank_walk(p, i, len(sols), [], 1) == unrank(p, i, index=None) == s


@pytest.mark.parametrize("p", VARIANTS, ids=lambda p: p.describe())
def test_rank_unrank_every_solution_variants(p):
    sols = naive.all_solutions(p) if p.n <= 8 else list(engine.solutions(p))
    for i, s in enumerate(sols):
        assert rank(p, s, index=None) == i
        assert unrank(p, i, index=None) == s


@settings(max_examples=20)
@given(problems(max_n=7))
def test_rank_is_the_position_in_brute_force_order(p):
    sols = naive.all_solutions(p)
    for i, s in enumerate(sols):
        assert rank(p, s, index=None) == i and unrank(p, i, index=None) == s


@settings(max_examples=25)
@given(st.integers(10, 14), st.data())
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_round_trips_on_random_ranks(n, data):
    p = Problem(n)
    r = data.draw(st.integers(0, known_total(n) - 1))
    s = unrank(p, r, index=None)
    assert naive.is_solution(p, s)
    assert rank(p, s, index=None) == r
    # the next solution in lexicographic order is the one of the next rank
    if r + 1 < known_total(n):
        nxt = unrank(p, r + 1, index=None)
        after = next(iter(batches_from(p, r, index=None)))
        assert nxt > s and tuple(after[0]) == s
        following = [tuple(x) for a in batches_from(p, r, index=None) for x in a.tolist()][:2]
        assert following == [s, nxt]


def test_unrank_agrees_with_the_enumeration_order_n11():
    p = Problem(11)
    sols = list(engine.solutions(p))
    for r in list(range(0, len(sols), 97)) + [len(sols) // 2 - 1, len(sols) // 2, len(sols) - 1]:
        assert unrank(p, r, index=None) == sols[r]
        assert rank(p, sols[r], index=None) == r


def test_document_examples():
    # N. Gupta's ranking paper: "2 8 10 4 1 5 9 6 3 7" is the 100th solution of 10 queens
    assert rank(Problem(10), "2 8 10 4 1 5 9 6 3 7", index=None) == 99
    assert unrank(Problem(4), 1, index=None) == (2, 0, 3, 1)  # (3,1,4,2): the 2nd solution
    # the same paper, section 4.2: the 100th solution of 15 queens
    doc15 = "1 3 5 12 9 11 14 7 15 13 2 8 6 4 10"
    assert unrank(Problem(15), 99, index=None) == tuple(int(x) - 1 for x in doc15.split())
    assert rank(Problem(15), doc15, index=None) == 99


def test_rank_errors_say_why():
    with pytest.raises(InvalidPlacement, match="attack"):
        rank(Problem(8), (0, 1, 2, 3, 4, 5, 6, 7), index=None)
    with pytest.raises(InvalidPlacement, match="blocked"):
        rank(Problem(4, blocked=[(0, 1)]), (1, 3, 0, 2), index=None)
    with pytest.raises(QueensError, match=r"0\.\.91"):
        unrank(Problem(8), 92, index=None)
    with pytest.raises(QueensError, match="out of range"):
        unrank(Problem(8), -1, index=None)
    with pytest.raises(QueensError, match="no solutions"):
        unrank(Problem(3), 0, index=None)
    with pytest.raises(QueensError, match="integer"):
        unrank(Problem(8), 1.5, index=None)


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_batches_from_continue_the_order():
    p = Problem(9, blocked=[(0, 4)])
    sols = naive.all_solutions(p)
    for r in (0, 5, len(sols) - 1):
        got = [tuple(x) for a in batches_from(p, r, index=None) for x in a.tolist()]
        assert got == sols[r:]


# ------------------------------------------------------------------------ the index


@pytest.mark.parametrize("p", [Problem(9), Problem(10), *VARIANTS], ids=lambda p: p.describe())
def test_index_answers_like_the_walk(p, tmp_path):
    idx = ix.build_index(p, directory=tmp_path)
    sols = list(engine.solutions(p))
    assert idx.total == len(sols)
    for i, s in enumerate(sols):
        assert idx.rank(s) == i and idx.unrank(i) == s
    assert ix.find_index(p, tmp_path).path == idx.path
    # rank/unrank find it automatically in the index directory
    os.environ[ix.ENV_VAR] = str(tmp_path)
    assert rank(p, sols[-1]) == len(sols) - 1 and unrank(p, 0) == sols[0]


def test_index_stores_the_prefix_counts(tmp_path):
    p = Problem(10)
    idx = ix.build_index(p, depth=3, directory=tmp_path)
    rows = idx._con.execute("SELECT code, cum, cnt FROM lex ORDER BY code").fetchall()
    acc = 0
    for code, cum, cnt in rows:
        prefix = index_format.decode_prefix(code, 10, 3)
        assert cnt == engine.count_prefix(p, prefix) > 0 and cum == acc
        acc += cnt
    assert acc == known_total(10)


def test_interrupted_build_resumes_to_the_same_table(tmp_path):
    p = Problem(11)
    fresh = ix.build_index(p, depth=3, directory=tmp_path / "a")
    want = fresh._con.execute("SELECT code, cum, cnt FROM lex ORDER BY code").fetchall()

    class Stop(Exception):
        pass

    calls = []

    def interrupt(done, total):
        calls.append(done)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop):
        ix.build_index(p, depth=3, directory=tmp_path / "b", threads=1, progress=interrupt)
    path = ix.index_path(p, 3, tmp_path / "b")
    with pytest.raises(InvalidIndex, match="incomplete"):
        ix.PrefixIndex.open(path, p)
    assert ix.find_index(p, tmp_path / "b") is None  # never served
    assert not path.exists()  # the index file only ever exists complete
    probe = sqlite3.connect(ix.partial_path(path))
    done_before = probe.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    probe.close()
    assert done_before == 3
    seen = []
    resumed = ix.build_index(p, depth=3, directory=tmp_path / "b", threads=1, progress=lambda d, t: seen.append(d))
    assert seen[0] == 4  # it went on from the three committed tasks
    assert resumed._con.execute("SELECT code, cum, cnt FROM lex ORDER BY code").fetchall() == want


def test_corrupted_or_truncated_index_is_refused(tmp_path):
    p = Problem(10)
    idx = ix.build_index(p, directory=tmp_path)
    path = idx.path
    idx.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidIndex, match="truncated"):
        ix.PrefixIndex.open(path, p)
    with pytest.raises(InvalidIndex):
        rank(p, engine.solve(p), index=path)
    assert any(e["status"].startswith("invalid") for e in ix.list_indexes(tmp_path))
    path.write_bytes(data + b"\0" * 4096)
    with pytest.raises(InvalidIndex, match="extended"):
        ix.PrefixIndex.open(path, p)
    # --rebuild replaces it
    again = ix.build_index(p, directory=tmp_path, rebuild=True)
    assert again.unrank(5) == list(engine.solutions(p))[5]


def test_a_flipped_byte_is_caught_or_harmless(tmp_path):
    """Flip one byte anywhere: the index is refused (on open, on a query or by verify),
    or every answer is still right -- never a wrong answer, never a raw sqlite3 error."""
    p = Problem(8)
    sols = naive.all_solutions(p)  # brute-force order, independent of the index
    path = ix.build_index(p, directory=tmp_path).path
    data = path.read_bytes()
    rng = random.Random(11)
    flipped = harmless = 0
    for pos in rng.sample(range(len(data)), 25):
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(bad))
        try:
            some = rng.sample(range(len(sols)), 20)
            with ix.PrefixIndex.open(path, p) as idx:
                got = [idx.unrank(i) for i in some]
                ranks = [idx.rank(sols[i]) for i in some]
                idx.verify()
        except InvalidIndex:
            flipped += 1
            continue
        harmless += 1
        assert got == [sols[i] for i in some] and ranks == some, pos
    assert flipped and harmless  # both kinds of position were hit


def test_index_for_another_problem_is_refused(tmp_path):
    idx = ix.build_index(Problem(9), directory=tmp_path)
    with pytest.raises(InvalidIndex, match="built for 9-queens"):
        ix.PrefixIndex.open(idx.path, Problem(9, toroidal=True))
    with pytest.raises(QueensError, match="depth"):
        ix.build_index(Problem(9), depth=9, directory=tmp_path)


def test_index_cli(tmp_path, capsys):
    d = str(tmp_path / "cli")
    assert main(["index", "build", "10", "--index", d, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["n"] == 10 and info["count"] == 724 and info["status"] == "complete"
    assert main(["index", "info", "--index", d, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["indexes"]
    assert [e["n"] for e in listed] == [10] and listed[0]["bytes"] > 0
    assert main(["rank", "10", "2 8 10 4 1 5 9 6 3 7", "--index", d]) == 0
    assert capsys.readouterr().out.strip() == "100 (1-based: the first solution in lexicographic order is rank 1)"
    assert main(["unrank", "10", "100", "--index", d, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == [2, 8, 10, 4, 1, 5, 9, 6, 3, 7]
    assert main(["rank", "11", "1 3 5 7 9 11 2 4 6 8 10", "--index", d]) == 2
    assert "no complete index" in capsys.readouterr().err


# ------------------------------------------------------------------ permutations


@given(st.permutations(range(9)))
def test_permutation_ranks_agree_with_sympy(p):
    from sympy.combinatorics import Permutation

    assert permutation_rank(p) == Permutation(list(p)).rank()
    assert permutation_unrank(9, permutation_rank(p)) == tuple(p)
    assert from_lehmer_code(lehmer_code(p)) == list(p)


def test_permutation_ranks_are_exact_for_large_n():
    from math import factorial

    from sympy.combinatorics import Permutation

    rng = random.Random(3)
    p = list(range(40))
    rng.shuffle(p)
    r = permutation_rank(p)
    assert r == Permutation(p).rank() and r < factorial(40)
    assert permutation_unrank(40, r) == tuple(p)
    assert permutation_unrank(4, 13) == (2, 0, 3, 1)  # N. Gupta's Table 2: 14th (1-based)
    with pytest.raises(QueensError, match="0..23"):
        permutation_unrank(4, 24)
    with pytest.raises(InvalidPlacement, match="not a permutation"):
        permutation_rank([0, 0, 1])


#: Sizes around the rank's cut between digit-by-digit and halving (32 digits), and sizes
#: that halve unevenly over several levels.
RANKED_SIZES = st.one_of(st.sampled_from([0, 1, 2, 31, 32, 33, 64, 65, 97, 1000]), st.integers(0, 700))


@settings(max_examples=30)
@given(RANKED_SIZES.flatmap(lambda n: st.permutations(range(n))))
def test_permutation_ranks_of_every_size_agree_with_sympy(p):
    from sympy.combinatorics import Permutation

    r = permutation_rank(p)
    assert r == Permutation(list(p)).rank()
    assert permutation_unrank(len(p), r) == tuple(p)


def _horner(code):
    """The mixed-radix number of a Lehmer code, digit by digit (the plain formula)."""
    n, r = len(code), 0
    for i, k in enumerate(code):
        r = r * (n - i) + k
    return r


def test_permutation_ranks_up_to_the_limit_and_refused_beyond():
    from math import factorial

    assert MAX_RANK_N == MAX_UNRANK_N == 10_000  # every rank given can be unranked
    rng = random.Random(5)
    p = list(range(MAX_RANK_N))
    rng.shuffle(p)
    r = permutation_rank(p)
    assert r == _horner(lehmer_code(p)) and permutation_unrank(MAX_RANK_N, r) == tuple(p)
    assert permutation_rank(np.arange(MAX_RANK_N)) == 0
    assert permutation_rank(range(MAX_RANK_N - 1, -1, -1)) == factorial(MAX_RANK_N) - 1
    # refused before the entries are read: sized sequences by their length
    for too_many, shown in (
        (list(range(MAX_RANK_N + 1)), "10,001"),
        (np.arange(100_000)[::-1].copy(), "100,000"),
        (iter(range(100_000)), "100,000"),
        (range(10**30), f"{10**30:,}"),
    ):
        with pytest.raises(TooLarge, match=f"permutation_rank of a permutation of {shown} elements.* limit of 10,000"):
            permutation_rank(too_many)
    # the Lehmer code, the rank's digits, has no limit
    code = lehmer_code(np.arange(100_000)[::-1].copy())
    assert code[:3] == [99_999, 99_998, 99_997] and code[-1] == 0


# ----------------------------------------------------------------------- sampling


def test_sample_is_reproducible_and_valid():
    p = Problem(12)
    a = sample(p, 10, seed=5, index=None)
    assert a == sample(p, 10, seed=5, index=None) and a != sample(p, 10, seed=6, index=None)
    assert all(naive.is_solution(p, s) for s in a)
    with pytest.raises(QueensError, match="no solutions"):
        sample(Problem(3), 1, index=None)


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_sample_is_uniform_chi_square():
    from scipy.stats import chisquare

    p = Problem(6)
    sols = naive.all_solutions(p)  # 4 solutions
    draws = sample(p, 4000, seed=12345, index=None)
    freq = np.array([draws.count(s) for s in sols])
    assert freq.sum() == 4000  # every draw is a solution
    assert (freq > 0).all()  # covers all solutions
    assert chisquare(freq).pvalue > 0.001
    # a larger case: 10 queens (724 solutions), bucketed by first-row column
    draws = sample(Problem(10), 3000, seed=7, index=None)
    by_col = np.bincount([s[0] for s in draws], minlength=10)
    expected = np.array([engine.count_prefix(Problem(10), [c]) for c in range(10)]) / 724 * 3000
    assert chisquare(by_col, expected).pvalue > 0.001


def test_rank_cli_and_errors(capsys):
    assert main(["rank", "10", "2", "8", "10", "4", "1", "5", "9", "6", "3", "7", "--no-index"]) == 0
    assert capsys.readouterr().out.strip() == "100 (1-based: the first solution in lexicographic order is rank 1)"
    assert main(["unrank", "10", "725", "--no-index"]) == 2
    assert "1..724" in capsys.readouterr().err
    assert main(["rank", "8", "1 2 3 4 5 6 7 8"]) == 2
    assert "not a solution" in capsys.readouterr().err
    assert main(["sample", "8", "3", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["solution"] for s in out["samples"]] == [
        [c + 1 for c in s] for s in sample(Problem(8), 3, seed=4, index=None)
    ]
    assert main(["solutions", "10", "--offset", "99", "--limit", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "2 8 10 4 1 5 9 6 3 7"


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_sampling_an_edited_variant_draws_its_solutions(tmp_path):
    p = VARIANTS[-2]
    sols = set(naive.all_solutions(p))
    drawn = sample(p, 30, seed=4, index=None)
    assert len(drawn) == 30 and set(drawn) <= sols
    idx = ix.build_index(p, directory=tmp_path)
    assert sample(p, 30, seed=4, index=idx) == drawn  # the same ranks, unranked through the index
