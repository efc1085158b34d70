"""``count A..B`` (a range of sizes), ``count --classes`` (orbits by size) and the
crosscheck's time limit. Every expected number comes from OEIS terms in
queenslab.data, the brute-force oracle (tests/naive.py), Burnside's fixed-point counts
(the general search, an independent code path) or another backend."""

from __future__ import annotations

import json
import math
import time
from collections import Counter

import numpy as np
import pytest
from clirun import run_cli
from naive import _board, _invariant_transforms, all_solutions
from test_json_contract import COUNT

from queenslab import Problem, QueensError, warm
from queenslab.backends import crosscheck
from queenslab.data import A000170, A002562
from queenslab.native import engine
from queenslab.symmetry.orbits import burnside


def _json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------- count A..B
def test_a_range_prints_one_json_line_per_size_with_the_single_count_keys(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "4..10", "--unique", "--json")
    rows = _json_lines(out)
    assert code == 0 and [r["n"] for r in rows] == list(range(4, 11))
    for r in rows:
        assert set(r) == COUNT
        assert (r["count"], r["unique"], r["agrees"]) == (A000170[r["n"]], A002562[r["n"]], True)


def test_a_range_table_on_a_terminal(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "6..8", "--unique")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["n", "solutions", "unique"]
    assert [line.split()[:3] for line in lines[1:]] == [[str(n), str(A000170[n]), str(A002562[n])] for n in range(6, 9)]
    assert all("agrees" in line for line in lines[1:])


def test_variant_flags_apply_to_every_size_of_a_range(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "4..7", "--toroidal", "--block", "1,2", "--json")
    rows = _json_lines(out)
    assert code == 0 and len(rows) == 4
    for r in rows:
        p = Problem(r["n"], toroidal=True, blocked=[(0, 1)])
        assert r["count"] == len(all_solutions(p)) and r["agrees"] is None


def test_a_range_exits_1_when_a_row_is_a_lower_bound(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "5..6", "--backend", "sat", "--limit", "1", "--json")
    rows = _json_lines(out)
    assert code == 1 and [r["complete"] for r in rows] == [False, False]


@pytest.mark.parametrize(
    "arg, extra, says",
    [
        ("8..4", [], "empty"),
        ("4..x", [], "range"),
        ("..5", [], "range"),
        ("4...5", [], "range"),
        ("-2..5", [], "-2"),
        ("1" * 30 + "..5", [], "digits"),
        ("17..19", [], "force"),
        ("17..19", ["--backend", "cpsat"], "force"),
        ("4..5", ["--ledger", "x.sqlite"], "--ledger"),
        ("4..5", ["--dask", "local:1"], "--ledger"),
        ("0..5", [], "n"),
    ],
)
def test_bad_ranges_are_refused_before_any_row(arg, extra, says, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, monkeypatch, "count", arg, *extra)
    assert code == 2 and out == "" and err.startswith("error: ") and says in err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_range_with_a_problem_file_is_refused(capsys, monkeypatch, tmp_path):
    f = tmp_path / "p.toml"
    f.write_text("n = 6\ntoroidal = true\n")
    code, out, err = run_cli(capsys, monkeypatch, "count", "4..6", "--problem", str(f))
    assert code == 2 and out == "" and "problem file" in err


# ---------------------------------------------------------------- --classes
def _naive_sizes(problem: Problem) -> dict[int, int]:
    """Orbits by size, by brute force: images of each solution under the invariant symmetries."""
    n = problem.n
    group = _invariant_transforms(problem)
    orbits = set()
    for p in all_solutions(problem):
        b = _board(n, enumerate(p))
        orbits.add(frozenset(tuple(int(np.argmax(t(b)[r])) for r in range(n)) for t in group))
    return dict(Counter(len(o) for o in orbits))


def _rotations_fixed(problem: Problem) -> tuple[int, int]:
    """Solutions fixed by a quarter turn and by a half turn, by brute force (A033148 and its half-turn kin)."""
    n = problem.n
    quarter = half = 0
    for p in all_solutions(problem):
        b = _board(n, enumerate(p))
        quarter += np.array_equal(np.rot90(b), b)
        half += np.array_equal(np.rot90(b, 2), b)
    return quarter, half


@pytest.mark.parametrize("n", range(1, 9))
def test_classes_of_the_standard_problem_match_the_oracle(n):
    p = Problem(n)
    res, classes = engine.count_classes(p)
    assert {k: v for k, v in classes.items() if v} == _naive_sizes(p)
    assert sum(classes.values()) == A002562[n] == res.unique
    assert sum(size * k for size, k in classes.items()) == A000170[n] == res.count
    # an orbit of size 2 is one with a quarter-turn symmetry: A033148(n) = 2 * (orbits of size 2)
    quarter, half = _rotations_fixed(p)
    assert quarter == 2 * classes[2] + classes[1]  # n = 1: the lone queen is fixed by everything
    assert half == 2 * classes[2] + 4 * classes[4] + classes[1]


@pytest.mark.parametrize("n", [9, 10, 12, 13])
def test_symmetric_classes_agree_with_the_general_walk_and_burnside(n):
    p = Problem(n)
    sym, classes = engine.count_classes(p, method="symmetric")
    gen, general = engine.count_classes(p, method="general")
    assert classes == general and sym.count == gen.count == A000170[n]
    fixed = dict(zip((e.name for e in burnside(p).elements), burnside(p).fixed, strict=True))
    assert fixed["rotate-90"] == fixed["rotate-270"] == 2 * classes[2]
    assert fixed["rotate-180"] == 2 * classes[2] + 4 * classes[4]


@pytest.mark.parametrize(
    "problem",
    [
        Problem(6, toroidal=True, blocked=[(0, 0)]),
        Problem(7, toroidal=True),
        Problem(7, knight=True, blocked=[(0, 0), (6, 6)]),
        Problem(6, blocked=[(0, 0), (0, 5), (5, 0), (5, 5)]),
        Problem(6, fixed=[(0, 1)]),
    ],
    ids=str,
)
def test_classes_of_variants_match_the_oracle(problem):
    res, classes = engine.count_classes(problem)
    order = len(problem.symmetries())
    assert list(classes) == [d for d in range(1, order + 1) if order % d == 0]
    assert {k: v for k, v in classes.items() if v} == _naive_sizes(problem)
    assert res.count == len(all_solutions(problem))


def test_count_classes_on_the_command_line(capsys, monkeypatch):
    fixed = burnside(Problem(12)).fixed  # identity, ..., rotate-180 (3), ..., rotate-90 (5)
    c2 = fixed[5] // 2
    c4 = (fixed[3] - fixed[5]) // 4
    c8 = (fixed[0] - 2 * c2 - 4 * c4) // 8
    code, out, _ = run_cli(capsys, monkeypatch, "count", "12", "--classes", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == COUNT
    assert data["classes"] == {"1": 0, "2": c2, "4": c4, "8": c8} and c8 + c4 + c2 == A002562[12]
    code, out, _ = run_cli(capsys, monkeypatch, "count", "12", "--json")
    assert json.loads(out)["classes"] is None
    code, out, _ = run_cli(capsys, monkeypatch, "count", "12", "--classes")
    assert code == 0 and f"{c2} of size 2, {c4} of size 4, {c8} of size 8" in out


def test_classes_over_a_range(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "4..6", "--classes", "--json")
    rows = _json_lines(out)
    assert code == 0 and all(set(r) == COUNT for r in rows)
    for r in rows:
        assert {int(k): v for k, v in r["classes"].items() if v} == _naive_sizes(Problem(r["n"]))


@pytest.mark.parametrize(
    "extra", [["--backend", "cpsat"], ["--backend", "sat"], ["--ledger", "x.sqlite"], ["--limit", "3"]]
)
def test_classes_is_refused_off_the_native_single_count(extra, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, monkeypatch, "count", "8", "--classes", *extra)
    assert code == 2 and err.startswith("error: ")


@pytest.mark.parametrize("bad", [{"method": "x"}, {"threads": 0}, {"progress": 3}, {"method": "symmetric", "n": 0}])
def test_count_classes_checks_its_arguments(bad):
    problem = Problem(8, toroidal=bad.pop("n", None) == 0)
    with pytest.raises(QueensError):
        engine.count_classes(problem, **bad)
    with pytest.raises(QueensError, match="force"):
        engine.count_classes(Problem(19))


# ---------------------------------------------------------------- crosscheck time limit

#: The toroidal 13 board: 4,524 solutions (OEIS A051906), which native and sat count in
#: about a second each (under ten seconds with every core busy five times over), and
#: Ganak in minutes (218 s for the count alone, measured): a time limit of
#: :data:`OUT_OF_TIME` seconds lets the first two finish on a busy machine and stops Ganak
#: on a fast one.
TORUS_13 = Problem(13, toroidal=True)
OUT_OF_TIME = 40.0
#: Seconds a crosscheck may take beyond its limit: the other backends' counts and the
#: processes' start-up (a few seconds on an idle machine, a minute on a busy one); one
#: that waited for Ganak to finish would take minutes longer.
BEYOND_THE_LIMIT = 120.0


@pytest.fixture
def _kernels_compiled():
    """The native kernels compiled before the clock starts: each backend's process loads
    them from numba's cache, and compiling them there (a fresh clone) would take tens of
    seconds of the time limit on a busy machine."""
    warm.warm()


@pytest.mark.usefixtures("_kernels_compiled")
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_a_backend_out_of_time_is_stopped_and_the_others_decide():
    t0 = time.perf_counter()
    r = crosscheck(TORUS_13, ["native", "sat", "ganak"], unique=False, time_limit=OUT_OF_TIME)
    assert time.perf_counter() - t0 < OUT_OF_TIME + BEYOND_THE_LIMIT
    rows = {row.backend: row for row in r.rows}
    assert rows["ganak"].timed_out and not rows["ganak"].complete and rows["ganak"].count is None
    assert "time limit" in (rows["ganak"].error or "") and rows["ganak"].seconds >= OUT_OF_TIME
    assert rows["native"].complete and rows["sat"].complete and rows["native"].count == rows["sat"].count == 4524
    assert r.verdict == "agree" and r.agree


@pytest.mark.usefixtures("_kernels_compiled")
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_one_answer_and_a_timeout_is_inconclusive(capsys, monkeypatch):
    t0 = time.perf_counter()
    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        "crosscheck",
        "13",
        "--toroidal",
        "--backends",
        "native,ganak",
        "--time-limit",
        OUT_OF_TIME,
        "--json",
    )
    data = json.loads(out)
    assert time.perf_counter() - t0 < OUT_OF_TIME + BEYOND_THE_LIMIT
    assert code == 3 and data["verdict"] == "inconclusive" and data["time_limit"] == OUT_OF_TIME
    assert [(row["backend"], row["timed_out"], row["complete"]) for row in data["results"]] == [
        ("native", False, True),
        ("ganak", True, False),
    ]


def test_without_a_time_limit_backends_count_here():
    r = crosscheck(Problem(6), ["native", "sat"], time_limit=None)
    # the native backend counts the standard problem by the join and the symmetric search
    assert r.agree and [row.count for row in r.rows] == [A000170[6]] * 3


@pytest.mark.parametrize("bad", [0, -1, -math.inf, math.nan, "60", True])
def test_bad_time_limits_are_refused(bad):
    with pytest.raises(QueensError, match="time_limit"):
        crosscheck(Problem(6), ["native"], time_limit=bad)


@pytest.mark.parametrize("bad", ["0", "-1", "x", "nan", "inf"])
def test_bad_time_limits_are_refused_on_the_command_line(bad, capsys, monkeypatch):
    code, _, err = run_cli(capsys, monkeypatch, "crosscheck", "6", "--time-limit", bad)
    assert code == 2 and err.startswith("error: ") and "seconds" in err
