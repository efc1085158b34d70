"""Estimates on a Dask cluster (queenslab.distributed.estimate, ``estimate --dask``): the
same seed gives the threads' estimate bit for bit; bad cluster arguments are refused;
Ctrl-C cancels and reports nothing; a worker leaving mid-run changes nothing.

The clusters are in-process (``processes=False``, on loopback TCP so that the command
line can connect to them by address): a second or so to start, none of the worker
processes the count's tests need."""

import json
import logging
import re
import time

import pytest
from clirun import run_cli
from test_json_glossary import walk

from queenslab import Problem, Region, estimate as estimate_module
from queenslab.estimate import CHUNK, estimate

pytest.importorskip("distributed")

from distributed import Client, LocalCluster

from queenslab import distributed
from queenslab.distributed import probes

#: What must agree between two estimates of the same seed and samples.
FIELDS = ("estimate", "stderr", "low", "high", "nodes_estimate", "nodes_stderr", "probes", "strata", "method", "exact")

VARIANT = Problem(
    13, toroidal=False, blocked=[(3, 3)], regions=[Region([(r, c) for r in range(4) for c in range(4)], 1, 3)]
)


def _cluster(workers: int) -> tuple[LocalCluster, Client]:
    lc = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # no port of its own to take
        silence_logs=logging.CRITICAL,  # a retired worker's last heartbeat errs at its close
    )
    return lc, Client(lc)


@pytest.fixture(scope="module", autouse=True)
def logs(cluster_logs):
    """Clusters started by ``--dask`` write their logs to this module's directory."""
    return cluster_logs


@pytest.fixture(scope="module")
def client():
    """Two one-thread workers in this process, shared by the module's tests."""
    lc, c = _cluster(2)
    with lc, c:
        yield c


def _same(a, b) -> None:
    assert {f: getattr(a, f) for f in FIELDS} == {f: getattr(b, f) for f in FIELDS}


@pytest.mark.parametrize(
    ("problem", "options"),
    [
        (Problem(15), {"samples": 60_000, "seed": 4}),  # auto: stratified, many strata
        (VARIANT, {"method": "partial", "samples": 30_000, "seed": 9}),
        (Problem(13, toroidal=True), {"method": "knuth", "samples": 30_000, "seed": 2}),
    ],
)
def test_the_cluster_gives_the_threads_estimate_bit_for_bit(client, problem, options):
    on_threads = estimate(problem, threads=2, **options)
    on_cluster = distributed.estimate(problem, client, **options)
    assert not on_threads.exact and on_threads.probes > 3 * CHUNK  # several tasks, so several batches
    _same(on_cluster, on_threads)
    assert (
        on_cluster.threads is None
        and on_cluster.workers
        and set(on_cluster.workers) <= set(client.scheduler_info()["workers"])
    )
    assert on_threads.workers is None and on_threads.threads == 2
    other = distributed.estimate(problem, client, **{**options, "seed": options["seed"] + 1})
    assert other.estimate != on_cluster.estimate  # the seed is used, not ignored


def test_several_sweeps_are_seeded_and_added_as_on_threads(client, monkeypatch):
    """Sweeps of three tasks (instead of 1024): the later sweeps' tasks are seeded by
    their sweep, and a last, smaller sweep takes the remainder, on a cluster as on threads."""
    monkeypatch.setattr(estimate_module, "SWEEP", 3 * CHUNK)
    options = {"method": "stratified", "samples": 11 * CHUNK + 777, "seed": 12}
    on_threads = estimate(Problem(14), threads=3, **options)
    on_cluster = distributed.estimate(Problem(14), client, **options)
    _same(on_cluster, on_threads)
    monkeypatch.setattr(estimate_module, "SWEEP", 1024 * CHUNK)
    assert estimate(Problem(14), threads=1, **options).estimate != on_threads.estimate  # other sweeps, other seeds


def test_the_first_sweep_of_a_time_limit_always_counts(client):
    """A time limit that passes before the first sweep ends keeps that sweep: 16 tasks per
    worker thread on the cluster, 8 per thread on threads, so 2 workers and 4 threads
    make the same sweep, and the same estimate."""
    on_threads = estimate(Problem(16), time_limit=1e-3, seed=3, threads=4)
    on_cluster = distributed.estimate(Problem(16), client, time_limit=1e-3, seed=3)
    assert on_cluster.probes >= 2 * probes.TIMED_TASKS * CHUNK - on_cluster.strata  # rounding of the allocation
    _same(on_cluster, on_threads)


def test_a_small_tree_is_counted_here_without_the_cluster(client):
    e = distributed.estimate(Problem(9), client)
    assert e.exact and e.count == estimate(Problem(9)).count and e.workers == ()


def test_the_command_line_prints_the_threads_estimate(client, capsys, monkeypatch):
    address = client.scheduler.address
    args = ["estimate", 15, "--samples", 50_000, "--seed", 5, "--json"]
    code, out, err = run_cli(capsys, monkeypatch, *args, "--dask", address)
    assert code == 0, err
    on_cluster = json.loads(out)
    code, out, _ = run_cli(capsys, monkeypatch, *args, "--threads", 2)
    on_threads = json.loads(out)
    assert code == 0 and {f: on_cluster[f] for f in FIELDS} == {f: on_threads[f] for f in FIELDS}
    assert on_cluster["threads"] is None and on_cluster["workers"] and on_threads["workers"] is None
    assert set(on_cluster) == set(on_threads)
    assert walk(on_cluster, "estimate --dask", {}) == []  # every key in the glossary, of its type
    code, out, _ = run_cli(capsys, monkeypatch, "estimate", 15, "--samples", 50_000, "--seed", 5, "--dask", address)
    assert code == 0 and "probed on 2 Dask workers" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dask", "localhost:2"], "--dask takes local:K"),
        (["--dask", "local:0"], "local workers"),
        (["--dask", "local:2", "--threads", 2], "give threads or a cluster"),
        (["--dask", "local:2", "--samples", 1], "samples"),
    ],
)
def test_bad_cluster_arguments_exit_2_before_any_cluster_starts(args, message, capsys, monkeypatch):
    t0 = time.monotonic()
    code, out, err = run_cli(capsys, monkeypatch, "estimate", 20, *args)
    assert code == 2 and out == "" and err.startswith("error: ") and message in err and "Traceback" not in err
    assert "the cluster's log" not in err  # refused before a cluster was started
    code, out, _ = run_cli(capsys, monkeypatch, "estimate", 20, *args, "--json")
    assert code == 2 and message in json.loads(out)["error"]
    assert time.monotonic() - t0 < 30  # no cluster was started and waited for


def test_a_client_and_an_address_together_are_refused(client):
    with pytest.raises(Exception, match="not both"):
        distributed.estimate(Problem(20), client, dask="local:2")


def test_ctrl_c_cancels_the_batches_and_reports_nothing(client):
    calls = []

    def stop(done, total):
        calls.append(done)
        raise KeyboardInterrupt  # Ctrl-C in the thread waiting for the results

    with pytest.raises(KeyboardInterrupt):
        distributed.estimate(Problem(18), client, samples=2_000_000, seed=1, progress=stop)
    assert calls and calls[0] < 2_000_000
    ends = time.monotonic() + 30
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < ends:
        time.sleep(0.05)
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0  # nothing left running


def test_ctrl_c_on_the_command_line_exits_130_with_nothing_printed(client, capsys, monkeypatch):
    from queenslab.cli import estimate as cli_estimate

    class Interrupting(cli_estimate.Progress):
        def __call__(self, done, total):
            raise KeyboardInterrupt

    monkeypatch.setattr(cli_estimate, "Progress", Interrupting)
    # the scheduler of this test runs in this process: its own log of the client that
    # leaves at Ctrl-C (a closed connection) would land in the command's stderr, where a
    # real scheduler, in another process, never writes
    for name in ["distributed", "tornado", "asyncio", *logging.root.manager.loggerDict]:
        if name.split(".")[0] in ("distributed", "tornado", "asyncio"):  # each one: a child logs on its own
            monkeypatch.setattr(logging.getLogger(name), "disabled", True)
    code, out, err = run_cli(
        capsys, monkeypatch, "estimate", 18, "--samples", 2_000_000, "--dask", client.scheduler.address
    )
    assert code == 130 and out == "" and err.strip().endswith("interrupted") and "Traceback" not in err


def _drop_a_busy_worker(problem, options, capfd):
    """Estimate on 2 workers, removing one from the scheduler (abruptly: its running
    batches are sent again) while it holds batches; returns (estimate, worker, stderr)."""
    lc, c = _cluster(2)
    with lc, c:
        left = []

        def drop(done, total):
            busy = sorted(w for w, keys in c.processing().items() if keys)
            if not left and busy:  # a worker holding batches now
                left.append(busy[0])

                async def remove(dask_scheduler):
                    await dask_scheduler.remove_worker(left[0], stimulus_id="test-drop", close=True)

                c.run_on_scheduler(remove)

        got = distributed.estimate(problem, c, progress=drop, **options)
        err = capfd.readouterr().err
        assert left and left[0] not in c.scheduler_info()["workers"]
    return got, left[0], err


def test_a_worker_leaving_mid_run_changes_nothing(capfd):
    """A worker is removed while it runs batches: they run again on the other, one line
    says so, and the estimate is the threads' one. (A batch may end in the instant
    between seeing the worker busy and removing it: then nothing is sent again, and the
    run is repeated, at most three times, to see batches sent again.)"""
    options = {"samples": 400_000, "seed": 6}
    want = estimate(Problem(15), threads=2, **options)
    for _ in range(3):
        got, worker, err = _drop_a_busy_worker(Problem(15), options, capfd)
        _same(got, want)
        assert "Traceback" not in err
        assert re.search(rf"worker (left|lost), [0-9]+ tasks? sent again \({re.escape(worker)}\)", err), err
        if re.search(rf"worker (left|lost), [1-9][0-9]* tasks? sent again \({re.escape(worker)}\)", err):
            break
    else:
        pytest.fail(f"three runs removed a worker and none had a batch to send again: {err}")
