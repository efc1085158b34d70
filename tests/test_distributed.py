"""Split counts on threads and on Dask clusters (a real LocalCluster, and a scheduler with
workers started as separate processes by Dask's own command-line tools), with a ledger:
exact numbers, resumption, faults."""

import contextlib
import http.server
import json
import os
import random
import re
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
from faults import wrong_ledger

from queenslab import Problem, Region, interrupt
from queenslab.data import known_total, known_unique
from queenslab.errors import MissingDependency, QueensError
from queenslab.native import engine

distributed_pkg = pytest.importorskip("distributed")

from queenslab import distributed  # noqa: E402
from queenslab.distributed import noise, runner  # noqa: E402
from queenslab.distributed.ledger import InvalidLedger  # noqa: E402
from queenslab.distributed.runner import DaskSpec, cluster_client  # noqa: E402

VARIANT = Problem(10, regions=[Region([(r, c) for r in range(5) for c in range(5)], at_least=2, at_most=3)])
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOST = re.compile(r"worker lost, [0-9]+ tasks? sent again \(tcp://127\.0\.0\.1:[0-9]+\)")


@pytest.fixture(scope="module", autouse=True)
def logs(cluster_logs):
    """This module's clusters write their logs to a directory of its own."""
    return cluster_logs


@pytest.fixture(scope="module")
def cluster(logs):
    """One LocalCluster of two worker processes for the module, started as ``--dask
    local:2`` starts one (loopback only, its log output in a file of ``logs``)."""
    engine.count_task(Problem(6), "symmetric", engine.split_tasks(Problem(6))[2][0])  # kernels cached first
    with cluster_client(DaskSpec.parse("local:2")) as client:
        yield logs, client


def _log_text(folder) -> str:
    return "".join(p.read_text(errors="replace") for p in sorted(folder.glob("dask-*.log")))


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
def test_an_interrupted_count_resumes_from_its_ledger_and_recomputes_only_the_rest(where, cluster, tmp_path, capfd):
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
    err = capfd.readouterr().err
    assert "Traceback" not in err and "distributed." not in err, err


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_a_killed_worker_does_not_change_the_count(cluster, tmp_path, capfd):
    logs, client = cluster
    box = {}

    def run():
        # the symmetric split: about 7 s on 2 workers (the join's, the default, about 1.5 s:
        # too short to kill a worker in the middle)
        box["r"] = distributed.count(Problem(17), client, ledger=tmp_path / "k.ledger", method="symmetric")

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
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
    # one line for the user, nothing else: the cluster's own words are in its log file
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and LOST.fullmatch(lines[0]) and victim in lines[0], err
    assert "Restarting worker" in _log_text(logs)


def test_the_workers_of_a_local_cluster_write_to_its_log_and_leave_ctrl_c_to_the_count(cluster, capfd):
    logs, client = cluster

    def speak():
        print("a worker's own words", file=sys.stderr, flush=True)
        os.write(2, b"and its C library's\n")
        return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.SIGINT in signal.pthread_sigmask(
            signal.SIG_BLOCK, []
        )

    answers = client.run(speak)
    assert len(answers) == 2 and all(ignored and blocked for ignored, blocked in answers.values()), answers
    err = capfd.readouterr().err
    assert "own words" not in err and "C library" not in err
    deadline = time.monotonic() + 30
    while _log_text(logs).count("a worker's own words") < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    text = _log_text(logs)
    assert text.count("a worker's own words") == 2 and text.count("and its C library's") == 2


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
    assert code == 0 and obj["from_ledger"] == obj["tasks"] and obj["recounted"] == 3 and obj["disagreements"] == []
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--ledger", ledger, "--backend", "sat")
    assert code == 2 and "native" in err
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--verify", 3)
    assert code == 2 and "--ledger" in err
    code, _, err = run_cli(capsys, monkeypatch, "count", 11, "--dask", "local")
    assert code == 2 and "local:K" in err


def test_local_clusters_listen_on_loopback_only():
    with cluster_client(DaskSpec.parse("local:1")) as client:
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


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_a_real_cluster_started_with_dasks_own_tools(tmp_path):
    """A scheduler and two workers as separate processes (``dask scheduler`` / ``dask
    worker``) on 127.0.0.1, counted through ``--dask tcp://127.0.0.1:PORT``."""
    dask_cli = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask_cli is None:
        pytest.skip("the dask command-line tool is not installed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=ROOT)
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
        assert [line.split(": ")[0] for line in done.stderr.splitlines()] == ["the cluster's log"], done.stderr
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


def _count_17_on_local_2(tmp_path):
    """``queenslab count 17 --method symmetric --dask local:2 --ledger ...`` as a process
    group of its own, as a terminal runs it; and its ledger. The symmetric split, which
    takes several seconds: the join's, the default, ends too soon to be interrupted."""
    ledger = tmp_path / "q17.ledger"
    env = dict(os.environ, PYTHONPATH=ROOT, **{noise.LOG_DIR_VAR: str(tmp_path / "logs")})
    command = [sys.executable, "-m", "queenslab", "count", "17", "--method", "symmetric", "--dask", "local:2"]
    command += ["--ledger", str(ledger)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        # a terminal's foreground job takes Ctrl-C; a shell's background job (CI started
        # from a script) ignores SIGINT, and the count would ignore it too
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    return proc, ledger


def _wait_for_recorded_tasks(proc, ledger, k, seconds=240):
    """Wait until the ledger holds ``k`` tasks: the cluster is counting."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(ledger, timeout=5)) as con:
            if con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0] >= k:
                return
        time.sleep(0.2)
    pytest.fail(f"no {k} tasks recorded within {seconds} s")


def _end_group(proc):
    """Whatever is left of the process group started by :func:`_count_17_on_local_2`."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.communicate(timeout=30)


def _log_line(err: str, tmp_path, *, written: bool = True) -> str:
    """The line that names the log file; the file is in the log directory and (``written``)
    holds more than its header.

    A count stopped by Ctrl-C soon after it started may end before the cluster's
    processes have logged anything on a busy machine, so that test checks the name and
    the place only; a count that runs to its end checks the content too."""
    line = next(line for line in err.splitlines() if line.startswith("the cluster's log: "))
    path = line.removeprefix("the cluster's log: ")
    assert os.path.dirname(path) == str(tmp_path / "logs")
    assert os.path.isfile(path)
    if written:
        assert len(open(path).read().splitlines()) > 1
    return line


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_ctrl_c_on_a_local_cluster_says_one_line_stops_it_and_exits_130(tmp_path):
    """Ctrl-C in a terminal signals the whole process group, the worker processes
    included: only the command sees it, says so, stops the cluster and exits 130."""
    psutil = pytest.importorskip("psutil")
    proc, ledger = _count_17_on_local_2(tmp_path)
    try:
        _wait_for_recorded_tasks(proc, ledger, 3)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert sum("spawn_main" in " ".join(p.cmdline()) for p in family) == 2  # the two worker processes
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert "Traceback" not in err and "leaked" not in err, err
        lines = [line for line in err.splitlines() if line.strip()]
        with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True, timeout=5)) as con:
            kept = con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
            tasks = int(con.execute("SELECT value FROM meta WHERE key = 'tasks'").fetchone()[0])
        assert lines[:3] == [
            _log_line(err, tmp_path, written=False),
            "interrupted: stopping the cluster",
            "interrupted",
        ], err
        # and what the ledger keeps, read back from it
        assert len(lines) == 4 and lines[3].startswith(f"the ledger {ledger} keeps {kept:,} of {tasks:,} tasks"), err
        _, alive = psutil.wait_procs(family, timeout=60)
        assert not alive, alive  # no worker process left behind
    finally:
        _end_group(proc)


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_a_killed_worker_on_the_command_line_is_one_line_and_the_count_is_exact(tmp_path):
    psutil = pytest.importorskip("psutil")
    proc, ledger = _count_17_on_local_2(tmp_path)
    try:
        _wait_for_recorded_tasks(proc, ledger, 3)
        workers = [p for p in psutil.Process(proc.pid).children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2
        workers[0].kill()  # SIGKILL mid-count; its nanny starts another
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert out.startswith(f"{known_total(17)} solutions of 17-queens") and "agrees" in out
        assert "Traceback" not in err, err
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 2 and lines[0] == _log_line(err, tmp_path) and LOST.fullmatch(lines[1]), err
    finally:
        _end_group(proc)


@contextlib.contextmanager
def _not_a_scheduler(kind, seconds=120):
    """A server on 127.0.0.1 that is not a Dask scheduler, for at most ``seconds``: an
    HTTP server, one that answers random bytes, or one that accepts and stays silent.
    Yields its address."""
    stop = threading.Event()
    threads = []
    if kind == "http":

        class Hello(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"hello")

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
        server.daemon_threads, server.block_on_close = True, False
        threads.append(threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True))
        threads[0].start()
        try:
            yield f"tcp://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.1)
    ends = time.monotonic() + seconds
    garbage = random.Random(17)

    def answer(conn):
        conn.settimeout(1)  # a send to a peer that stopped reading ends too
        with conn:
            while not stop.is_set() and time.monotonic() < ends:
                if kind == "garbage":
                    try:
                        conn.sendall(garbage.randbytes(4096))
                    except OSError:
                        return
                stop.wait(0.01)

    def serve():
        while not stop.is_set() and time.monotonic() < ends:
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            t = threading.Thread(target=answer, args=(conn,), daemon=True)
            threads.append(t)
            t.start()

    threads.append(threading.Thread(target=serve, daemon=True))
    threads[0].start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        for t in list(threads):
            t.join(10)
        listener.close()


@pytest.mark.parametrize("kind", ["http", "garbage", "silent"])
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_an_address_that_is_not_a_dask_scheduler_is_a_clear_error_in_bounded_time(kind, capsys, monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 6.0)
    with _not_a_scheduler(kind) as address:
        t0 = time.monotonic()
        with pytest.raises(QueensError, match="not a Dask scheduler|no Dask answer") as e:
            distributed.count(Problem(8), dask=address)
        assert time.monotonic() - t0 < 6.0 + 20  # the connect timeout, and some slack for a busy machine
        assert address in str(e.value) and "--dask takes local:K" in str(e.value)
        capsys.readouterr()
        t0 = time.monotonic()
        code, out, err = run_cli(capsys, monkeypatch, "count", 8, "--dask", address)
        assert time.monotonic() - t0 < 6.0 + 20
    assert code == 2 and out == "" and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith(f"error: {address} ") and all(
        line.startswith("the cluster's log: ") for line in lines[:-1]
    ), err


def test_the_default_connect_timeout_keeps_a_bad_address_under_half_a_minute():
    assert 5 <= runner.CONNECT_SECONDS <= 25


def test_a_dask_worker_is_not_a_scheduler(cluster):
    _, client = cluster
    worker = sorted(client.scheduler_info()["workers"])[0]
    with pytest.raises(QueensError, match="is a Dask worker, not a scheduler"):
        distributed.count(Problem(8), dask=worker)


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


@pytest.mark.parametrize("verify_method", ["task", "general"])
def test_verify_finds_a_wrong_recorded_task_by_either_method(verify_method, tmp_path, monkeypatch, capsys):
    p = Problem(10)
    ledger = tmp_path / "bad.ledger"
    wrong, tasks, bad = wrong_ledger(p, ledger)
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
    from queenslab.distributed.runner import Batcher

    for slots in (1, 2, 5):
        b = Batcher(list(range(300)), slots)
        out = [b.next()]
        b.learn([0.0001])  # fast tasks: batches as large as the tasks left allow
        while out[-1]:
            left = len(b.left)
            out.append(b.next())
            assert len(out[-1]) <= max(1, -(-left // (2 * slots)))
        out.pop()
        assert sorted(t for batch in out for t in batch) == list(range(300))
        assert len(out[-1]) == len(out[-2]) == 1 and max(map(len, out)) > 1
    slow = Batcher(list(range(50)), 2)
    slow.learn([1.0])  # tasks of a second: one task per batch
    assert {len(slow.next()) for _ in range(10)} == {1}


def test_a_cluster_without_workers_is_an_error_not_a_hang(monkeypatch, tmp_path):
    """Dask keeps tasks waiting for a worker for ever; a run gives up after
    WORKERLESS_SECONDS with a QueensError, and the ledger keeps what finished."""
    from distributed import Client, LocalCluster

    monkeypatch.setattr(runner, "WORKERLESS_SECONDS", 2.0)
    with (
        LocalCluster(
            n_workers=0,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as lc,
        Client(lc) as c,
    ):
        t0 = time.monotonic()
        with pytest.raises(QueensError, match="no worker"):
            distributed.count(Problem(9), client=c, ledger=tmp_path / "l.sqlite")
        assert time.monotonic() - t0 < 60
