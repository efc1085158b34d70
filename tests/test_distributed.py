"""Split counts on threads and on Dask clusters (a real LocalCluster, and a scheduler with
workers started as separate processes by Dask's own command-line tools), with a ledger:
exact numbers, resumption, faults."""

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from clirun import run_cli

from queenslab import Problem, Region, interrupt
from queenslab.data import known_total, known_unique
from queenslab.errors import MissingDependency, QueensError
from queenslab.native import engine

distributed_pkg = pytest.importorskip("distributed")

from queenslab import distributed  # noqa: E402
from queenslab.distributed.ledger import InvalidLedger  # noqa: E402
from queenslab.distributed.runner import DaskSpec, _client  # noqa: E402

VARIANT = Problem(10, regions=[Region([(r, c) for r in range(5) for c in range(5)], at_least=2, at_most=3)])


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster of two worker processes for the module (loopback only)."""
    from distributed import Client, LocalCluster

    engine.count_task(Problem(6), "symmetric", engine.split_tasks(Problem(6))[2][0])  # kernels cached first
    lc = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    client = Client(lc)
    yield lc, client
    client.close()
    lc.close()


@pytest.mark.parametrize(
    "p", [Problem(10), Problem(9, toroidal=False, blocked=[(0, 0)]), VARIANT, Problem(11, leapers=[(1, 3)])]
)
def test_a_split_count_on_threads_is_the_single_machine_count(p):
    want = engine.count_both(p, unique=True)
    r = distributed.count(p, unique=True, threads=2)
    assert (r.count, r.unique) == (want.count, want.unique) and r.tasks > 1 and r.workers == ("thread",)


def test_a_split_count_on_a_local_cluster_is_exact(cluster):
    _, client = cluster
    r = distributed.count(Problem(11), client, unique=True)
    assert (r.count, r.unique) == (known_total(11), known_unique(11))
    assert r.workers and all(w.startswith("tcp://127.0.0.1:") for w in r.workers)
    want = engine.count_both(VARIANT, unique=True)
    r = distributed.count(VARIANT, client, unique=True)
    assert (r.count, r.unique) == (want.count, want.unique)


@pytest.mark.parametrize("where", ["threads", "dask"])
def test_an_interrupted_count_resumes_from_its_ledger_and_recomputes_only_the_rest(where, cluster, tmp_path):
    ledger = tmp_path / "q15.ledger"
    client = cluster[1] if where == "dask" else None

    def stop_after_ten(done, total):
        if done >= 10:
            interrupt.request()

    try:
        with pytest.raises(KeyboardInterrupt):
            distributed.count(Problem(15), client, unique=True, ledger=ledger, threads=1, progress=stop_after_ten)
    finally:
        interrupt.clear()
    kept = sqlite3.connect(ledger).execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    assert 10 <= kept
    r = distributed.count(Problem(15), client, unique=True, ledger=ledger, threads=2)
    assert (r.count, r.unique) == (known_total(15), known_unique(15))
    assert r.from_ledger == kept and r.from_ledger < r.tasks
    again = distributed.count(Problem(15), unique=True, ledger=ledger, verify=5)
    assert again.from_ledger == again.tasks and again.verified == 5 and not again.disagreements
    assert (again.count, again.unique) == (known_total(15), known_unique(15))


def test_a_killed_worker_does_not_change_the_count(cluster, tmp_path):
    _, client = cluster
    box = {}

    def run():
        box["r"] = distributed.count(Problem(17), client, ledger=tmp_path / "k.ledger")  # about 7 s on 2 workers

    t = threading.Thread(target=run)
    t.start()
    time.sleep(1.0)
    assert "r" not in box, "the count finished before a worker could be killed"
    pids = client.run(os.getpid)
    victim = sorted(pids)[0]
    os.kill(pids[victim], signal.SIGKILL)  # the worker process dies mid-run; its nanny starts another
    t.join(300)
    assert not t.is_alive() and box["r"].count == known_total(17)
    client.wait_for_workers(2, timeout=60)


@pytest.mark.parametrize("where", ["threads", "dask"])
def test_two_runs_on_one_ledger_at_once_both_finish_right(where, cluster, tmp_path):
    ledger = tmp_path / "shared.ledger"
    client = cluster[1] if where == "dask" else None
    out = {}

    def run(key):
        out[key] = distributed.count(VARIANT, client, unique=True, ledger=ledger, threads=1)

    threads = [threading.Thread(target=run, args=(k,)) for k in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    want = engine.count_both(VARIANT, unique=True)
    assert all((r.count, r.unique) == (want.count, want.unique) for r in out.values()) and len(out) == 2
    rows = sqlite3.connect(ledger).execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM tasks").fetchone()
    assert rows[0] == rows[1] == out["a"].tasks  # every task exactly once


def test_a_ledger_of_another_problem_or_edited_by_hand_is_refused(tmp_path, capsys, monkeypatch):
    ledger = tmp_path / "q10.ledger"
    distributed.count(Problem(10), ledger=ledger)
    with pytest.raises(InvalidLedger):
        distributed.count(Problem(11), ledger=ledger)
    with pytest.raises(InvalidLedger):
        distributed.count(Problem(10), ledger=ledger, depth=2)  # another split
    con = sqlite3.connect(ledger)
    with con:
        con.execute("UPDATE tasks SET count = count + 1 WHERE id = (SELECT MIN(id) FROM tasks)")
    con.close()
    with pytest.raises(InvalidLedger):
        distributed.count(Problem(10), ledger=ledger)
    code, _, err = run_cli(capsys, monkeypatch, "count", 10, "--ledger", ledger)
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    whole, half = tmp_path / "whole.ledger", tmp_path / "half.ledger"
    distributed.count(Problem(10), ledger=whole)
    raw = whole.read_bytes()
    half.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(QueensError):
        distributed.count(Problem(10), ledger=half)


def test_the_command_line_counts_with_a_ledger_and_says_what_it_did(tmp_path, capsys, monkeypatch):
    ledger = tmp_path / "c.ledger"
    code, out, _ = run_cli(capsys, monkeypatch, "count", 11, "--unique", "--ledger", ledger, "--json")
    obj = json.loads(out)
    assert code == 0 and (obj["count"], obj["unique"]) == (known_total(11), known_unique(11))
    assert obj["tasks"] > 1 and obj["from_ledger"] == 0 and obj["workers"] == ["thread"]
    code, out, _ = run_cli(capsys, monkeypatch, "count", 11, "--ledger", ledger, "--verify", 3, "--json")
    obj = json.loads(out)
    assert code == 0 and obj["from_ledger"] == obj["tasks"] and obj["verified"] == 3 and obj["disagreements"] == []
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--ledger", ledger, "--backend", "sat")
    assert code == 2 and "native" in err
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--verify", 3)
    assert code == 2 and "--ledger" in err
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--dask", "local")
    assert code == 2 and "local:K" in err


def test_local_clusters_listen_on_loopback_only():
    with _client(DaskSpec.parse("local:1")) as client:
        info = client.scheduler_info()
        assert info["address"].startswith("tcp://127.0.0.1:")
        assert all(w.startswith("tcp://127.0.0.1:") for w in info["workers"])


def test_a_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingDependency, match=r"queenslab\[dask\]"):
        distributed.count(Problem(8), dask="local:1")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_cluster_started_with_dasks_own_tools(tmp_path):
    """A scheduler and two workers as separate processes (``dask scheduler`` / ``dask
    worker``) on 127.0.0.1, counted through ``--dask tcp://127.0.0.1:PORT``."""
    dask_cli = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask_cli is None:
        pytest.skip("the dask command-line tool is not installed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "cwd": tmp_path}
    procs = [
        subprocess.Popen([dask_cli, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet)
    ]
    try:
        time.sleep(2)
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask_cli, "worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"], **quiet
                )
            )
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        done = subprocess.run(
            [sys.executable, "-m", "queenslab", "count", "12", "--unique", "--dask", address, "--json"],
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )
        obj = json.loads(done.stdout)
        assert done.returncode == 0, done.stderr
        assert (obj["count"], obj["unique"]) == (known_total(12), known_unique(12))
        assert len(obj["workers"]) == 2 and all(w.startswith("tcp://127.0.0.1:") for w in obj["workers"])
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_an_index_built_on_a_cluster_is_the_index_built_on_threads(cluster, tmp_path):
    from queenslab.ranking import index as ix

    _, client = cluster
    for p in (Problem(12), VARIANT):
        on_dask = ix.build_index(p, path=tmp_path / f"d{p.n}.sqlite", client=client)
        on_threads = ix.build_index(p, path=tmp_path / f"t{p.n}.sqlite", threads=2)
        rows = [sorted(sqlite3.connect(i.path).execute("SELECT * FROM lex")) for i in (on_dask, on_threads)]
        assert rows[0] == rows[1] and on_dask.total == on_threads.total == engine.count(p)
        sols = list(engine.solutions(p))
        assert on_dask.unrank(len(sols) // 2) == sols[len(sols) // 2]
        on_dask.close()
        on_threads.close()


@pytest.mark.parametrize("n", range(4, 12))
def test_a_symmetric_task_counted_by_the_general_search_agrees_task_by_task(n):
    p = Problem(n)
    method, _, tasks = engine.split_tasks(p)
    assert method == "symmetric"
    own = [engine.count_task(p, method, t)[:2] for t in tasks]
    general = [engine.count_task(p, method, t, general=True)[:2] for t in tasks]
    assert own == general
    assert (sum(c for c, _ in general), sum(u for _, u in general)) == (known_total(n), known_unique(n))


def _wrong_worker(monkeypatch, bad_task):
    """Make the runner's workers record one wrong result (a faulty machine), with a valid check."""
    from queenslab.distributed import runner

    honest = runner.run_task

    def faulty(problem, method, task, unique, force=False):
        out = honest(problem, method, task, unique, force)
        return (out[0] + 8, *out[1:]) if tuple(task) == bad_task else out

    monkeypatch.setattr(runner, "run_task", faulty)


@pytest.mark.parametrize("verify_method", ["task", "general"])
def test_verify_finds_a_wrong_recorded_task_by_either_method(verify_method, tmp_path, monkeypatch, capsys):
    p = Problem(10)
    _, _, tasks = engine.split_tasks(p)
    bad = next(t for t in tasks if engine.count_task(p, "symmetric", t)[0] > 0)
    ledger = tmp_path / "bad.ledger"
    with monkeypatch.context() as m:
        _wrong_worker(m, bad)
        wrong = distributed.count(p, ledger=ledger, threads=2)
    assert wrong.count == known_total(10) + 8  # the faulty worker's number went into the ledger
    r = distributed.count(p, ledger=ledger, verify=len(tasks), verify_method=verify_method)
    assert r.verified == len(tasks) and [d.task for d in r.disagreements] == [bad]
    (d,) = r.disagreements
    assert d.recorded[0] == d.recomputed[0] + 8 and d.method == verify_method
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        "count",
        10,
        "--ledger",
        ledger,
        "--verify",
        len(tasks),
        "--verify-method",
        verify_method,
        "--json",
    )
    obj = json.loads(out)
    assert code == 1 and "disagree" in err and obj["verify_method"] == verify_method
    assert [x["task"] for x in obj["disagreements"]] == [list(bad)]


def test_verify_by_the_general_search_on_a_variant_split_agrees(tmp_path):
    ledger = tmp_path / "v.ledger"
    distributed.count(VARIANT, unique=True, ledger=ledger)
    r = distributed.count(VARIANT, unique=True, ledger=ledger, verify=10, verify_method="general")
    assert r.verified == 10 and not r.disagreements
    with pytest.raises(QueensError, match="verify_method"):
        distributed.count(VARIANT, ledger=ledger, verify=1, verify_method="fast")


class _CountingClient:
    """A Dask client that counts the Dask tasks submitted through it."""

    def __init__(self, client):
        self.client, self.submitted = client, 0

    def submit(self, *args, **kwargs):
        self.submitted += 1
        return self.client.submit(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.client, name)


def test_tasks_go_to_the_cluster_in_batches_and_each_is_recorded(cluster, tmp_path):
    client = _CountingClient(cluster[1])
    ledger = tmp_path / "b.ledger"
    r = distributed.count(Problem(14), client, unique=True, ledger=ledger)
    assert (r.count, r.unique) == (known_total(14), known_unique(14))
    assert client.submitted < r.tasks  # fewer Dask tasks than tasks of the split
    rows = sqlite3.connect(ledger).execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM tasks").fetchone()
    assert rows == (r.tasks, r.tasks)


def test_batches_hold_every_task_once_and_end_with_single_tasks():
    from queenslab.distributed.runner import _Batcher

    for slots in (1, 2, 5):
        b = _Batcher(list(range(300)), slots)
        out = [b.next()]
        b.learn([0.0001])  # fast tasks: batches as large as the tasks left allow
        while out[-1]:
            left = len(b.left)
            out.append(b.next())
            assert len(out[-1]) <= max(1, -(-left // (2 * slots)))
        out.pop()
        assert sorted(t for batch in out for t in batch) == list(range(300))
        assert len(out[-1]) == len(out[-2]) == 1 and max(map(len, out)) > 1
    slow = _Batcher(list(range(50)), 2)
    slow.learn([1.0])  # tasks of a second: one task per batch
    assert {len(slow.next()) for _ in range(10)} == {1}
