"""queenslab.estimate: calibrated, not merely plausible.

On problems whose exact count is known independently (OEIS terms via queenslab.data,
brute force via tests/naive.py, the engine's general walk for larger variants and for the
node counts), each estimator is run over many seeds: the nominal 95% interval must contain
the exact count in at least 90% of the runs, and the mean of the estimates must lie within
a few of its own standard errors of the exact count (no bias), for the nodes too.
"""

from __future__ import annotations

import json
import math
import os
import signal
import threading
import time

import numpy as np
import pytest
from clirun import run_cli, wait_until_working
from naive import all_solutions

from queenslab import Problem, interrupt
from queenslab.cli import main
from queenslab.data import known_total
from queenslab.errors import QueensError, TooLarge
from queenslab.estimate import METHODS, estimate
from queenslab.native import engine
from queenslab.problem import Region


def exact(problem: Problem) -> tuple[int, int]:
    """(solutions, nodes) by the engine's general walk on one thread (its node count is
    exact there: no prefix split)."""
    r = engine.count_both(problem, unique=False, threads=1, method="general")
    return r.count, r.nodes


def calibrate(problem: Problem, method: str, samples: int, seeds: int = 200):
    """(coverage of the 95% intervals, z of the mean estimate, z of the mean node estimate)."""
    count, nodes = exact(problem)
    runs = [estimate(problem, method=method, samples=samples, seed=s, threads=1) for s in range(seeds)]
    assert not any(r.exact for r in runs), "the tree was counted exactly: nothing calibrated"
    covered = np.mean([r.low <= count <= r.high for r in runs])
    est = np.array([r.estimate for r in runs])
    nod = np.array([r.nodes_estimate for r in runs])
    z = (est.mean() - count) / (est.std(ddof=1) / math.sqrt(seeds))
    zn = (nod.mean() - nodes) / (nod.std(ddof=1) / math.sqrt(seeds))
    return covered, z, zn


CASES = [
    # (problem, method, samples); the exact counts come from the engine, checked below
    (Problem(10), "knuth", 4000),
    (Problem(10), "partial", 1000),
    (Problem(12), "stratified", 3000),
    (Problem(11, toroidal=True), "knuth", 4000),
    (Problem(12, knight=True), "stratified", 3000),
    (Problem(10, blocked=[(0, 0), (3, 4), (5, 5)], fixed=[(2, 7)]), "knuth", 4000),
    (Problem(11, regions=[Region.rectangle((0, 0), (4, 4), exactly=2)]), "knuth", 4000),
    (Problem(12, regions=[Region.rectangle((0, 0), (5, 5), at_least=3)]), "stratified", 3000),
    (Problem(10, leapers=[(1, 4)]), "partial", 1000),
]


@pytest.mark.parametrize(("problem", "method", "samples"), CASES, ids=lambda x: str(x)[:40])
def test_the_95_percent_interval_covers_the_exact_count(problem, method, samples):
    covered, z, zn = calibrate(problem, method, samples)
    assert covered >= 0.90, covered
    assert abs(z) < 3.5, z
    assert abs(zn) < 3.5, zn


def test_the_engines_counts_are_the_independent_ones():
    # the oracle of the calibration, itself checked against OEIS and brute force
    assert exact(Problem(12))[0] == known_total(12)
    for p in [Problem(7, toroidal=True), Problem(8, blocked=[(0, 0), (3, 4)], fixed=[(2, 7)])]:
        assert exact(p)[0] == len(all_solutions(p))
    p = Problem(7, regions=[Region.rectangle((0, 0), (3, 3), exactly=2)], leapers=[(1, 3)])
    assert exact(p)[0] == len(all_solutions(p))


@pytest.mark.parametrize("n", range(1, 11))
def test_a_small_tree_is_counted_exactly(n):
    e = estimate(Problem(n))
    assert e.exact and e.count == known_total(n) and e.estimate == e.low == e.high == known_total(n)
    assert e.nodes == exact(Problem(n))[1] and e.stderr == 0


def test_stratified_probes_that_see_whole_subtrees_are_exact():
    p = Problem(8, knight=True, blocked=[(1, 1)])
    e = estimate(p, method="stratified", samples=100)
    assert e.exact and (e.count, e.nodes) == exact(p)


def test_contradicting_constraints_give_zero_with_the_reason():
    p = Problem(6, fixed=[(0, 0), (2, 2)])
    e = estimate(p, method="knuth", samples=100)
    assert e.estimate == 0 and e.exact and e.count == 0 and e.note == p.contradiction and e.note


def test_no_solutions_without_a_contradiction_is_an_exact_zero():
    for method in ("auto", *METHODS):
        e = estimate(Problem(3), method=method, samples=50)
        assert e.estimate == 0 and e.high == 0


def test_same_seed_same_answer_on_any_number_of_threads():
    p = Problem(14, toroidal=False, blocked=[(3, 3)])
    for method in METHODS:
        runs = [estimate(p, method=method, samples=60_000, seed=5, threads=t) for t in (1, 2, 3)]
        assert len({(r.estimate, r.stderr, r.nodes_estimate, r.probes) for r in runs}) == 1, method
        other = estimate(p, method=method, samples=60_000, seed=6, threads=1)
        assert other.estimate != runs[0].estimate


def test_a_board_beyond_the_engine_is_refused_by_its_own_check():
    # beyond 64 columns only the standard and the plain toroidal problem (wide kernels)
    with pytest.raises(TooLarge, match="beyond n = 64 only the standard and the plain toroidal"):
        estimate(Problem(65, knight=True))


def test_a_large_board_is_estimated():
    e = estimate(Problem(40), samples=20_000, seed=1)
    assert e.method == "stratified" and not e.exact and 0 < e.low < e.estimate < e.high
    assert e.relative_stderr < 0.2


#: Seconds within which a time limit or a Ctrl-C must have stopped an estimate: it stops
#: within a fraction of a second, but a machine whose cores are busy several times over
#: stretches that, and an estimate that ignored the stop would run for hours.
STOP_WITHIN = 10.0


def test_a_time_limit_is_kept():
    estimate(Problem(22), samples=100, method="knuth")  # the kernel compiled before the clock starts
    # only the time limit ends it: no number of samples is given
    e = estimate(Problem(22), time_limit=0.5, method="knuth")
    assert e.probes > 0 and not e.exact and e.seconds < 0.5 + STOP_WITHIN


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"samples": 0}, "samples must be at least 2"),
        ({"samples": 2.5}, "samples must be an integer"),
        ({"samples": 10**12}, "samples must be at most"),
        ({"time_limit": 0}, "time_limit must be a positive number"),
        ({"time_limit": math.inf}, r"positive number of seconds up to 1e\+09 .*got inf"),
        ({"time_limit": "1"}, "time_limit"),
        ({"method": "magic"}, "unknown method 'magic'; use one of auto, knuth"),
        ({"confidence": 1.0}, r"confidence must be a number in \(0, 1\)"),
        ({"confidence": 0}, "confidence"),
        ({"seed": -1}, "seed must be"),
        ({"threads": 0}, "threads must be"),
        ({"progress": 5}, "progress must be a callable"),
    ],
)
def test_bad_arguments_are_refused_with_what_is_allowed(kwargs, match):
    with pytest.raises(QueensError, match=match):
        estimate(Problem(8), **kwargs)


def test_a_board_size_is_not_a_problem():
    with pytest.raises(QueensError, match="Problem"):
        estimate(8)  # type: ignore[arg-type]


def test_progress_reaches_the_samples():
    seen = []
    estimate(Problem(16), method="knuth", samples=40_000, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (40_000, 40_000)


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_calibration_at_n_13_with_more_probes(method):
    covered, z, zn = calibrate(Problem(13), method, 20_000, seeds=200)
    assert covered >= 0.90 and abs(z) < 3.5 and abs(zn) < 3.5


# ----------------------------------------------------------------------------- command line


def test_the_command_prints_the_estimate_with_its_interval(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "estimate", 12, "--method", "knuth", "--samples", 5000, "--seed", 3)
    assert code == 0
    e = estimate(Problem(12), method="knuth", samples=5000, seed=3)
    assert f"about {e.estimate:.3e} solutions (95% interval {e.low:.3e} .. {e.high:.3e}" in out
    assert "method knuth, 5,000 samples" in out


def test_the_commands_json_is_the_librarys_estimate(capsys, monkeypatch):
    args = ("estimate", 11, "--toroidal", "--method", "stratified", "--samples", 4000, "--seed", 2, "--threads", 2)
    code, out, _ = run_cli(capsys, monkeypatch, *args, "--json")
    assert code == 0
    row = json.loads(out)
    e = estimate(Problem(11, toroidal=True), method="stratified", samples=4000, seed=2, threads=1)
    assert row["estimate"] == round(e.estimate, 6) and row["probes"] == e.probes and row["method"] == "stratified"
    assert row["exact"] is False and row["count"] is None and row["threads"] == 2


def test_the_command_says_when_a_small_tree_was_counted(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "estimate", 8)
    assert code == 0 and f"exactly {known_total(8)} solutions" in out


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("estimate", 65, "--knight"), "only the standard and the plain toroidal"),
        (("estimate", 201), "up to n = 200"),
        (("estimate", 8, "--samples", 1), "--samples"),
        (("estimate", 8, "--confidence", 1), "--confidence"),
        (("estimate", 8, "--time-limit", "inf"), "--time-limit"),
        (("estimate", 8, "--method", "magic"), "--method"),
    ],
)
def test_the_command_refuses_bad_input(capsys, monkeypatch, args, match):
    code, _, err = run_cli(capsys, monkeypatch, *args)
    assert code == 2 and "error:" in err and match in err


@pytest.fixture
def _sigint_raises():
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.usefixtures("_sigint_raises")
def test_ctrl_c_stops_the_command_and_prints_nothing(capsys):
    estimate(Problem(40), samples=1000, method="knuth")  # the kernel loaded first
    timer = threading.Timer(0.7, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.perf_counter()
    try:
        code = main(["estimate", "40", "--samples", str(10**10)])
    finally:
        timer.cancel()
    out, err = capsys.readouterr()
    assert code == 130 and "interrupted" in err and out.strip() == ""
    assert time.perf_counter() - t0 < 0.7 + STOP_WITHIN  # 10**10 probes take hours
    while interrupt.abandoned():
        time.sleep(0.05)
    assert not interrupt.requested()
    assert estimate(Problem(10)).count == known_total(10)


@pytest.mark.usefixtures("_sigint_raises")
def test_ctrl_c_stops_the_library_call_from_the_main_thread():
    timer = threading.Timer(0.7, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        estimate(Problem(40), samples=10**10, threads=1)
    timer.cancel()
    assert not interrupt.requested()


@pytest.mark.parametrize(
    "problem",
    [Problem(12), Problem(11, toroidal=True), Problem(12, regions=[Region.rectangle((0, 0), (5, 5), at_least=3)])],
)
def test_probes_that_mix_knuth_purdom_and_exact_rows_are_unbiased(problem):
    """The probe shape of stratified boards from n = 30 on (one path, then two children per
    node on some rows, then the last rows counted), on a board small enough to count."""
    from queenslab.estimate import ProbeRunner, _Strata

    n = problem.n
    width = np.array([1] * 4 + [2] * 3 + [n + 1] * (n - 7), np.int64)
    count, nodes = exact(problem)
    runner = ProbeRunner(problem, width, np.zeros((1, 0), np.int64), seed=11)
    means, node_means = [], []
    for task in range(200):
        acc = _Strata(1)
        acc.add(*runner.run((task,), np.zeros(1, np.int64), np.array([200], np.int64)))
        means.append(acc.s[0] / 200)
        node_means.append(acc.ns[0] / 200)
    for values, truth in ((np.array(means), count), (np.array(node_means), nodes)):
        z = (values.mean() - truth) / (values.std(ddof=1) / math.sqrt(len(values)))
        assert abs(z) < 3.5, (truth, values.mean(), z)


@pytest.mark.slow
@pytest.mark.parametrize(("method", "samples"), [("stratified", 100_000), ("knuth", 200_000), ("partial", 50_000)])
def test_calibration_at_n_27_the_largest_known_count(method, samples):
    """Where counting is out of reach here but the count is published (OEIS A000170): the
    intervals cover it and the reported standard error is the estimates' real spread."""
    truth = known_total(27)
    runs = [estimate(Problem(27), method=method, samples=samples, seed=s) for s in range(60)]
    est = np.array([r.estimate for r in runs])
    assert np.mean([r.low <= truth <= r.high for r in runs]) >= 0.85
    assert abs(est.mean() - truth) < 3.5 * est.std(ddof=1) / math.sqrt(len(runs))
    assert 0.7 < np.mean([r.stderr for r in runs]) / est.std(ddof=1) < 1.3


@pytest.mark.slow
def test_sigint_to_a_real_process_exits_130_with_nothing_printed():
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "queenslab", "estimate", "40", "--samples", str(10**10), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may ignore SIGINT
    )
    wait_until_working(proc)  # past `python -m`'s imports, however busy the machine
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and out.strip() == "" and "interrupted" in err and "Traceback" not in err
