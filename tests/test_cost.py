"""The predicted cost of an exact count (queenslab.cost, count --estimate-cost, the
refusal beyond the practical limit): checked against the engine's own exact node counts,
never against a time."""

from __future__ import annotations

import json

import pytest
from clirun import run_cli

from queenslab import Problem, cost, get_backend, limits
from queenslab.errors import QueensError, TooLarge
from queenslab.native import engine, pool

#: A short calibration: these tests check the model's structure and its nodes, not speed.
QUICK = 0.3


def within(predicted: float, exact: float, rel: float) -> bool:
    """Whether ``predicted`` is within four stated relative errors of ``exact``."""
    return abs(predicted / exact - 1) <= 4 * rel


def test_general_nodes_match_the_engines_exact_count():
    p = Problem(15, toroidal=True)  # a tree of millions of nodes: estimated, not counted
    c = cost.estimate_cost(p, cores=[1], seconds=QUICK)
    exact = engine.count_both(p, method="general", unique=False).nodes
    assert c.method == "general" and c.relative_error is not None
    assert c.predicted_nodes is not None and within(c.predicted_nodes, exact, c.relative_error)


def test_symmetric_nodes_match_the_engines_exact_count():
    p = Problem(14)
    c = cost.estimate_cost(p, cores=[1], method="symmetric", seconds=QUICK)
    exact = engine.count_both(p, method="symmetric").nodes
    assert c.method == "symmetric" and c.relative_error is not None
    assert c.predicted_nodes is not None and within(c.predicted_nodes, exact, c.relative_error)


def test_the_prediction_is_for_the_method_the_count_uses():
    for p, method in [(Problem(16), "auto"), (Problem(9), "auto"), (Problem(9, toroidal=True), "auto")]:
        c = cost.estimate_cost(p, cores=[1], method=method, seconds=QUICK)
        assert c.method == engine.chosen_method(p, method)
        assert (c.predicted_nodes is None) == (c.method == "join")


def test_a_join_variant_is_predicted_from_its_own_row_splits():
    # blocked cells cost the join its reflections (more row splits, more work than the
    # standard board's); a fixed queen removes most row splits (less work)
    standard = cost.estimate_cost(Problem(14), seconds=0.2)
    blocked = cost.estimate_cost(Problem(14, blocked=[(0, 0), (3, 5), (7, 2)]), seconds=0.2)
    fixed = cost.estimate_cost(Problem(14, fixed=[(2, 3)]), seconds=0.2)
    assert standard.method == blocked.method == fixed.method == "join"
    assert fixed.work < standard.work < blocked.work


def test_time_grows_with_n():
    times = [cost.estimate_cost(Problem(n), cores=[1], seconds=QUICK).core_seconds for n in range(14, 18)]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_k_cores_never_beat_the_largest_task_nor_the_even_share():
    ks = [1, 2, 3, 64, 1000, 10**6]
    for p in [Problem(17), Problem(13), Problem(12, toroidal=True)]:
        c = cost.estimate_cost(p, cores=ks, seconds=QUICK)
        assert [t.cores for t in c.per_cores] == ks
        times = [t.predicted_seconds for t in c.per_cores]
        assert times == sorted(times, reverse=True)
        for t in c.per_cores:
            assert t.predicted_seconds >= c.largest_task_seconds
            assert t.predicted_seconds >= c.core_seconds / t.cores
        # far more cores than tasks: the largest task sets the time
        assert c.per_cores[-1].limited_by == "largest task"
        assert c.largest_task_seconds <= c.core_seconds


@pytest.fixture
def small_limit(monkeypatch):
    """The practical limit of a count lowered to n <= 10, and no prediction kept."""
    monkeypatch.setattr(pool, "COUNT", limits.Limit("counting every solution", 10, "n", "THE FIXED SENTENCE"))
    cost.refusal_cost.cache_clear()
    yield
    cost.refusal_cost.cache_clear()


def test_a_refusal_quotes_the_prediction(small_limit):
    with pytest.raises(TooLarge) as info:
        get_backend("native").count(Problem(11, toroidal=True))
    msg = str(info.value)
    assert "beyond its practical limit n <= 10 (predicted " in msg
    assert "nodes" in msg and "by the general search" in msg and "here); pass force=True" in msg
    assert "THE FIXED SENTENCE" not in msg
    with pytest.raises(TooLarge, match=r"\(predicted .* by the symmetric search, about .* here\)"):
        get_backend("native").count(Problem(12), method="symmetric")
    # the engine below the cost model refuses the same count with the limit's own sentence
    with pytest.raises(TooLarge, match="THE FIXED SENTENCE"):
        engine.count(Problem(11))


def test_a_failing_prediction_leaves_the_plain_refusal(small_limit, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no prediction")

    monkeypatch.setattr(cost, "estimate_cost", broken)
    with pytest.raises(TooLarge, match=r"n <= 10 \(THE FIXED SENTENCE\); pass force=True"):
        get_backend("native").count(Problem(11), method="symmetric")


def test_a_refusal_beyond_the_priced_sizes_points_to_the_prediction_without_calibrating(monkeypatch):
    """From n = 22 a calibration would first build gigabytes of join tables: the refusal
    names the way to predict the count instead of running it."""
    calls = []
    monkeypatch.setattr(cost, "estimate_cost", lambda *a, **k: calls.append(a))
    n = cost.PRICED_TO + 1
    with pytest.raises(TooLarge, match=r"--estimate-cost.*\); pass force=True") as info:
        get_backend("native").count(Problem(n))
    assert f"count {n} --estimate-cost" in str(info.value) and pool.COUNT.cost in str(info.value)
    assert calls == []


def test_within_the_limit_nothing_is_predicted(monkeypatch):
    def broken(*args, **kwargs):
        raise AssertionError("a count within its limit must not be predicted")

    monkeypatch.setattr(cost, "refusal_cost", broken)
    assert get_backend("native").count(Problem(8)) == 92  # OEIS A000170


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cores": [0]},
        {"cores": [-2]},
        {"cores": [2, 1.5]},
        {"cores": "64"},
        {"cores": [True]},
        {"cores": [10**8]},
        {"seconds": 0},
        {"seconds": float("nan")},
        {"seed": -1},
        {"method": "fastest"},
    ],
)
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(QueensError):
        cost.estimate_cost(Problem(8), **kwargs)


def test_cli_json(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", 9, "--estimate-cost", "--cores", 1, "--cores", 500, "--json")
    assert code == 0
    report = json.loads(out)
    assert report["n"] == 9 and report["method"] == engine.chosen_method(Problem(9))
    assert [t["cores"] for t in report["per_cores"]] == [1, 500]
    assert "count" not in report  # nothing was counted


@pytest.mark.parametrize(
    "args",
    [
        ["count", 8, "--estimate-cost", "--cores", 0],
        ["count", 8, "--estimate-cost", "--cores", -3],
        ["count", 8, "--estimate-cost", "--cores", "many"],
        ["count", 8, "--cores", 4],
        ["count", "4..6", "--estimate-cost"],
        ["count", 8, "--estimate-cost", "--backend", "sat"],
    ],
)
def test_cli_bad_input_exits_2(capsys, monkeypatch, args):
    code, _, err = run_cli(capsys, monkeypatch, *args)
    assert code == 2 and "Traceback" not in err
