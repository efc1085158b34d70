"""n-queens completion (Gent, Jefferson and Nightingale): the seeded generator of random
partial placements, the experiment that counts them on every exact backend, and its
command ``queenslab experiment completion``.

Every expected number comes from the brute-force oracle of ``naive.py`` (all n!
permutations, attacks by walking the rays), never from queenslab's own counts: the
generator's queens are checked with ``naive.attacked``, the completions of an instance are
the oracle's solutions of the empty board that hold its queens.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import re
import statistics
from pathlib import Path

import naive
import pytest
from clirun import run_cli

from queenslab import Problem
from queenslab.completion import (
    MAX_GENERATOR_N,
    CompletionReport,
    completion_experiment,
    default_backends,
    instance_seed,
    max_queens,
    random_partial,
)
from queenslab.errors import QueensError, TooLarge


@functools.cache
def oracle_solutions(n: int) -> tuple[tuple[int, ...], ...]:
    """Every solution of the standard n x n problem, by trying all n! permutations."""
    return tuple(naive.all_solutions(Problem(n)))


def oracle_completions(n: int, cells) -> int:
    """The solutions of the n x n board that hold every queen of ``cells``."""
    return sum(all(p[r] == c for r, c in cells) for p in oracle_solutions(n))


def non_attacking(n: int, cells) -> bool:
    """No two of the queens attack each other (the oracle's ray walking), all on the board."""
    on_board = all(0 <= r < n and 0 <= c < n for r, c in cells)
    return on_board and not any(naive.attacked(n, a, b) for a, b in itertools.combinations(cells, 2))


# ----------------------------------------------------------------------------- the generator


@pytest.mark.parametrize("n", [1, 4, 5, 8, 11, 16])
def test_the_generator_places_k_non_attacking_queens(n):
    for k in range(max_queens(n) + 1):
        for seed in range(4):
            cells = random_partial(n, k, seed)
            assert len(cells) == k and len(set(cells)) == k
            assert non_attacking(n, cells), (n, k, seed, cells)
            assert list(cells) == sorted(cells)


def test_the_generator_is_seeded():
    for n, k in [(8, 3), (10, 7), (12, 12)]:
        runs = {seed: random_partial(n, k, seed) for seed in range(12)}
        assert all(random_partial(n, k, seed) == cells for seed, cells in runs.items())
        assert len(set(runs.values())) > 1  # the seed matters
    assert random_partial(8, 4) == random_partial(8, 4, 0)


def test_the_generator_reaches_every_cell_with_its_first_queen():
    # k = 1: the first draw is a uniform row and a uniform column, so every cell turns up
    seen = {random_partial(5, 1, seed)[0] for seed in range(400)}
    assert seen == {(r, c) for r in range(5) for c in range(5)}


def test_small_boards_hold_fewer_queens():
    # the oracle: the largest set of cells no two of which attack each other
    for n in (1, 2, 3, 4, 5):
        board = [(r, c) for r in range(n) for c in range(n)]
        largest = max(k for k in range(n + 1) for s in itertools.combinations(board, k) if non_attacking(n, s))
        assert max_queens(n) == largest
        assert len(random_partial(n, largest, 1)) == largest
        if largest < n:
            with pytest.raises(QueensError, match=f"at most {largest}"):
                random_partial(n, largest + 1)


@pytest.mark.parametrize(
    "args, words",
    [
        ((0, 0), "n must be at least 1"),
        ((-3, 0), "n must be at least 1"),
        ((8.0, 2), "n must be an integer"),
        (("8", 2), "n must be an integer"),
        ((True, 0), "n must be an integer"),
        ((8, -1), "k .* must be at least 0"),
        ((8, 2.5), "k .* must be an integer"),
        ((8, 9), "give k = 0 .. 8"),
        ((8, None), "k .* must be an integer"),
        ((8, 2, -1), "seed must be at least 0"),
        ((8, 2, 1.5), "seed must be an integer"),
        ((8, 2, 2**63), "seed must be at most"),
    ],
)
def test_the_generator_refuses_bad_arguments(args, words):
    with pytest.raises(QueensError, match=words):
        random_partial(*args)


def test_the_generator_refuses_a_board_beyond_its_lists():
    with pytest.raises(TooLarge, match=f"at most {MAX_GENERATOR_N}"):
        random_partial(MAX_GENERATOR_N + 1, 1)


def test_the_generator_gives_up_with_a_reason(monkeypatch):
    import queenslab.completion as completion

    # one round of n**2 draws, as the published generator makes: k = n = 10 often fails
    monkeypatch.setattr(completion, "MAX_ATTEMPTS", 1)
    failed = 0
    for seed in range(40):
        try:
            cells = random_partial(10, 10, seed)
        except QueensError as e:
            assert "could not place 10 non-attacking queens" in str(e) and "1 rounds of 100" in str(e)
            failed += 1
        else:
            assert non_attacking(10, cells) and len(cells) == 10
    assert failed > 0


# ----------------------------------------------------------------------------- the experiment


def check_against_the_oracle(report: CompletionReport) -> None:
    """Every instance's queens, every count and every statistic, from the oracle."""
    n = report.n
    assert [row.k for row in report.results] == list(report.ks)
    for row in report.results:
        expected = []
        for i, case in enumerate(row.cases):
            assert (case.k, case.instance) == (row.k, i)
            assert case.cells == random_partial(n, row.k, case.seed)
            assert case.seed == instance_seed(report.seed, n, row.k, i)
            assert non_attacking(n, case.cells) and len(case.cells) == row.k
            truth = oracle_completions(n, case.cells)
            expected.append(truth)
            assert case.count == truth, (row.k, case.cells)
            assert [a.backend for a in case.answers] == list(report.backends)
            assert all(a.count == truth and not a.timed_out and a.error is None for a in case.answers)
            assert case.agrees is (True if len(report.backends) > 1 else None)
        assert row.instances == len(row.cases) == report.instances == row.decided
        assert row.satisfiable == sum(t > 0 for t in expected)
        assert row.satisfiable_fraction == pytest.approx(sum(t > 0 for t in expected) / len(expected))
        assert row.mean_count == pytest.approx(statistics.fmean(expected))
        assert row.median_count == pytest.approx(statistics.median(expected))
        assert [t.backend for t in row.timings] == list(report.backends)
        for t in row.timings:
            assert t.counted == len(row.cases) and t.timeouts == 0 and t.median_seconds >= 0
    assert report.disagreements == () and report.skipped == ()


def test_every_backend_agrees_with_the_oracle_at_n_6():
    report = completion_experiment(6, instances=2, seed=5)  # xcsp3 starts a Java process per count
    assert report.ks == tuple(range(7)) and report.backends == tuple(default_backends(6))
    assert set(report.backends) == {"native", "cpsat", "sat", "ganak", "d4", "cpmpy", "xcsp3", "pumpkin"}
    check_against_the_oracle(report)
    assert report.agrees is True and all(row.agrees for row in report.results)


@pytest.mark.parametrize("n, ks", [(7, [0, 2, 4, 7]), (8, [1, 3, 5, 6])])
def test_counts_agree_with_the_oracle(n, ks):
    report = completion_experiment(n, ks, instances=3, backends=["native", "sat", "cpsat"], seed=n)
    check_against_the_oracle(report)
    assert report.agrees is True


@pytest.mark.slow
@pytest.mark.parametrize("n", [7, 8])
def test_every_backend_agrees_with_the_oracle_at_every_k(n):
    report = completion_experiment(n, instances=4, seed=11)
    assert set(report.backends) == {"native", "cpsat", "sat", "ganak", "d4", "cpmpy", "xcsp3", "pumpkin"}
    check_against_the_oracle(report)
    assert report.agrees is True


def test_the_same_seed_gives_the_same_instances_whatever_else_is_asked():
    a = completion_experiment(7, [1, 3], instances=2, backends=["native"], seed=4)
    b = completion_experiment(7, [3], instances=3, backends=["sat"], seed=4)
    assert [c.cells for c in a.results[1].cases] == [c.cells for c in b.results[0].cases][:2]
    c = completion_experiment(7, [3], instances=2, backends=["native"], seed=9)
    assert [x.cells for x in c.results[0].cases] != [x.cells for x in a.results[1].cases]


def test_one_backend_compares_nothing():
    report = completion_experiment(6, [0, 2], instances=2, backends=["native"])
    check_against_the_oracle(report)
    assert report.agrees is None and all(row.agrees is None and row.compared == 0 for row in report.results)


def test_a_disagreement_is_reported_with_the_instance_backends_and_counts(monkeypatch, capsys):
    import queenslab.completion as completion
    import queenslab.counting as counting

    true_count = counting.counts

    def one_too_many(problem, *, backend="native", **opts):  # a broken backend: sat counts one more
        r = true_count(problem, backend=backend, **opts)
        return r if backend != "sat" else dataclasses.replace(r, count=r.count + 1)

    monkeypatch.setattr(completion, "counts", one_too_many)
    report = completion_experiment(6, [1, 2], instances=2, backends=["native", "sat"], seed=3)
    assert report.agrees is False and all(row.agrees is False for row in report.results)
    assert len(report.disagreements) == 4
    for case in report.disagreements:
        truth = oracle_completions(6, case.cells)
        assert {(a.backend, a.count) for a in case.answers} == {("native", truth), ("sat", truth + 1)}
        assert case.count is None and case.agrees is False
    assert all(row.decided == 0 and row.satisfiable_fraction is None for row in report.results)
    # the command line lists each one and exits 1
    code, out, _ = run_cli(
        capsys, monkeypatch, "experiment", "completion", 6, "--ks", "1", "--instances", 1, "--seed", 3,
        "--backend", "native", "--backend", "sat",
    )  # fmt: skip
    case = report.disagreements[0]
    cells = " ".join(f"{r + 1},{c + 1}" for r, c in case.cells)
    truth = oracle_completions(6, case.cells)
    assert code == 1 and "BACKENDS DISAGREE" in out
    assert (
        f"DISAGREEMENT at k = 1, instance 1 (seed {case.seed}; queens at {cells}): native {truth}, sat {truth + 1}"
        in out
    )


def test_counts_in_processes_under_a_time_limit():
    report = completion_experiment(6, [1, 3], instances=2, backends=["native", "sat"], seed=2, time_limit=60)
    assert report.time_limit == 60
    check_against_the_oracle(report)
    assert report.agrees is True


@pytest.mark.slow
def test_a_count_that_runs_out_of_time_is_no_disagreement():
    from queenslab.data import known_total  # OEIS A000170

    report = completion_experiment(12, [0], instances=1, backends=["native", "ganak"], time_limit=2)
    (case,) = report.results[0].cases
    native, ganak = case.answers
    assert ganak.timed_out and ganak.count is None and "time limit" in ganak.error
    assert native.count == known_total(12) == case.count and not native.timed_out
    assert case.agrees is None and report.agrees is None and report.disagreements == ()
    (row,) = report.results
    assert [(t.backend, t.counted, t.timeouts) for t in row.timings] == [("native", 1, 0), ("ganak", 0, 1)]
    assert row.satisfiable_fraction == 1.0


def test_the_default_backends_are_those_within_their_practical_limits():
    from queenslab.backends.registry import BACKENDS, exact_backends

    for n in (6, 12, 13, 14, 15):
        chosen = default_backends(n)
        for name in exact_backends():
            reach = BACKENDS[name].reach()
            assert (name in chosen) == (reach is None or n <= reach.largest), (n, name)


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"n": 0}, QueensError, "n must be at least 1"),
        ({"n": 65}, TooLarge, "n must be at most 64"),
        ({"n": 8.5}, QueensError, "n must be an integer"),
        ({"n": 8, "ks": [9]}, QueensError, "give k = 0 .. 8"),
        ({"n": 3, "ks": [3]}, QueensError, "at most 2 non-attacking queens"),
        ({"n": 8, "ks": [-1]}, QueensError, "each k must be at least 0"),
        ({"n": 8, "ks": []}, QueensError, "ks is empty"),
        ({"n": 8, "ks": "0..3"}, QueensError, "ks must be a list"),
        ({"n": 8, "instances": 0}, QueensError, "instances must be at least 1"),
        ({"n": 8, "seed": -2}, QueensError, "seed must be at least 0"),
        ({"n": 8, "time_limit": 0}, QueensError, "time_limit"),
        ({"n": 8, "time_limit": float("inf")}, QueensError, "time_limit"),
        ({"n": 8, "backends": ["nope"]}, QueensError, "unknown backend 'nope'"),
        ({"n": 8, "backends": ["approxmc"]}, QueensError, "estimates"),
        ({"n": 8, "backends": []}, QueensError, "backends is empty"),
        ({"n": 8, "backends": "native"}, QueensError, "backends must be a list"),
        ({"n": 13, "backends": ["cpmpy"]}, TooLarge, "or give a time limit"),
        ({"n": 8, "progress": 3}, QueensError, "progress"),
    ],
)
def test_the_experiment_refuses_bad_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        completion_experiment(**kwargs)


def test_progress_counts_the_instances():
    seen = []
    completion_experiment(5, [0, 1, 2], instances=2, backends=["native"], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(d, 6) for d in range(1, 7)]


# ----------------------------------------------------------------------------- the command line


def glossary() -> set[str]:
    """The keys of the glossary of JSON keys in docs/cli.md."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("### Glossary of JSON keys", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9_]+)` \|", section, re.M))


def keys(obj, found: set[str]) -> set[str]:
    """Every key at any depth of a JSON value (not inside ``provenance``)."""
    if isinstance(obj, list):
        for item in obj:
            keys(item, found)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            found.add(key)
            if key != "provenance":
                keys(value, found)
    return found


def test_the_json_report(capsys, monkeypatch):
    code, out, err = run_cli(
        capsys, monkeypatch, "experiment", "completion", 6, "--ks", "0..2,5", "--instances", 2, "--seed", 7,
        "--backend", "native", "--backend", "sat", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == [
        "experiment", "n", "ks", "instances", "backends", "seed", "time_limit", "agrees", "results",
        "disagreements", "skipped", "plot", "seconds", "provenance",
    ]  # fmt: skip
    assert data["experiment"] == "completion" and data["n"] == 6 and data["ks"] == [0, 1, 2, 5]
    assert data["agrees"] is True and data["disagreements"] == [] and data["backends"] == ["native", "sat"]
    row = data["results"][1]
    assert list(row) == [
        "k", "instances", "decided", "satisfiable", "satisfiable_fraction", "mean_count", "median_count",
        "timings", "compared", "agrees", "cases",
    ]  # fmt: skip
    assert list(row["timings"][0]) == ["backend", "median_seconds", "counted", "timeouts"]
    case = row["cases"][1]
    assert list(case) == ["k", "instance", "seed", "cells", "count", "answers", "agrees"]
    assert list(case["answers"][0]) == ["backend", "count", "seconds", "timed_out", "error", "method"]
    # cells and the instance's number are 1-based, as everywhere on the command line
    assert case["instance"] == 2
    assert case["cells"] == [[r + 1, c + 1] for r, c in random_partial(6, 1, case["seed"])]
    truth = [oracle_completions(6, [(r - 1, c - 1) for r, c in x["cells"]]) for x in row["cases"]]
    assert [x["count"] for x in row["cases"]] == truth
    assert row["satisfiable_fraction"] == sum(t > 0 for t in truth) / 2
    missing = keys(data, set()) - glossary()
    assert not missing, f"keys not in the glossary of docs/cli.md: {sorted(missing)}"


def test_the_table_and_the_figure(capsys, monkeypatch, tmp_path):
    figure = tmp_path / "completion.svg"
    code, out, err = run_cli(
        capsys, monkeypatch, "experiment", "completion", 5, "--instances", 2, "--backend", "native",
        "--backend", "cpsat", "--plot", figure,
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| k |"))
    rows = lines[header + 2 : header + 2 + 6]
    assert [int(r.split("|")[1]) for r in rows] == list(range(6))
    assert all(r.rstrip().endswith("| yes |") for r in rows)
    assert f"figure: {figure}" in out
    assert figure.read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize(
    "args, words",
    [
        (["0"], "n must be at least 1"),
        (["65"], "n must be at most 64"),
        (["x"], "'x' is not a valid integer"),
        (["8", "--ks", "0..9"], "give k = 0 .. 8"),
        (["3", "--ks", "3"], "at most 2 non-attacking queens"),
        (["8", "--ks", "x"], "is not a number of queens or a range"),
        (["8", "--ks", "5..3"], "is empty"),
        (["8", "--ks", "-1"], "starts below 0"),
        (["8", "--ks", ""], "is not a number of queens"),
        (["8", "--instances", "0"], "--instances"),
        (["8", "--seed", "-1"], "--seed"),
        (["8", "--time-limit", "0"], "--time-limit"),
        (["8", "--time-limit", "nan"], "--time-limit"),
        (["8", "--backend", "approxmc"], "--backend"),
        (["13", "--backend", "cpmpy"], "or give a time limit"),
        (["8", "--plot", "figure.pdf"], "--plot"),
    ],
)
def test_bad_input_exits_2(args, words, capsys, monkeypatch):
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "completion", *args)
    assert code == 2 and err.startswith("error: ") and words in err, err
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "completion", *args, "--json")
    data = json.loads(out)
    assert code == 2 and set(data) == {"error", "kind"} and words in data["error"]
