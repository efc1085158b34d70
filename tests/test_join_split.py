"""The half-board join's split in a ledger and on Dask: slices of its row splits, totals
summed, orbits derived by Burnside's lemma at the end; a ledger of another split resumes
by its own split. Oracles: the known sequence terms (OEIS A000170 / A002562) and the
symmetric search."""

import json
import sqlite3

import pytest
from clirun import run_cli
from faults import wrong_ledger

from queenslab import Problem, interrupt
from queenslab.data import known_total, known_unique
from queenslab.errors import QueensError, UnsupportedProblem
from queenslab.native import engine, join

pytest.importorskip("distributed")

from queenslab import distributed
from queenslab.distributed.ledger import InvalidLedger, Split, recorded_split
from queenslab.distributed.runner import DaskSpec, cluster_client


@pytest.fixture(scope="module", autouse=True)
def logs(cluster_logs):
    """This module's clusters write their logs to a directory of its own."""
    return cluster_logs


@pytest.fixture(scope="module")
def client(logs):
    """A LocalCluster of two worker processes, as ``--dask local:2`` starts one."""
    with cluster_client(DaskSpec.parse("local:2")) as c:
        yield c


def _rows(ledger) -> int:
    return sqlite3.connect(ledger).execute("SELECT COUNT(*) FROM tasks").fetchone()[0]


def _interrupted(problem, ledger, client=None, after=10, **kw):
    """A count stopped by Ctrl-C (as the interrupt flag raises it) once ``after`` tasks are done."""

    def stop(done, total):
        if done >= after:
            interrupt.request()

    try:
        with pytest.raises(KeyboardInterrupt):
            distributed.count(problem, client, ledger=ledger, threads=1, progress=stop, **kw)
    finally:
        interrupt.clear()
    return _rows(ledger)


@pytest.mark.parametrize("n", [14, 15, 16])
def test_the_slices_of_a_join_split_sum_to_the_symmetric_count(n):
    p = Problem(n)
    method, depth, tasks = engine.split_tasks(p, method="join")
    assert (method, depth) == ("join", 0) and len(tasks) >= 256
    parts = [engine.count_task(p, "join", t) for t in tasks]
    assert all(u is None for _, u, _ in parts)
    total = sum(c for c, _, _ in parts)
    symmetric = engine.count_both(p, unique=True, method="symmetric", threads=2)
    assert total == symmetric.count == known_total(n)
    assert sum(join.classes_from_total(n, total).values()) == symmetric.unique == known_unique(n)


@pytest.mark.parametrize("n", [14, 15, 16])
def test_a_join_split_ledger_count_gives_the_known_total_and_orbits(n, tmp_path):
    ledger = tmp_path / f"q{n}.ledger"
    r = distributed.count(Problem(n), unique=True, ledger=ledger, threads=2)
    assert engine.chosen_method(Problem(n)) == "join"
    assert r.split == "join" and r.method.startswith("join (")
    assert (r.count, r.unique) == (known_total(n), known_unique(n))
    assert r.nodes is None and r.tasks == _rows(ledger) and recorded_split(ledger, Problem(n)) == ("join", 0, False)
    # the join's tasks count totals only: the ledger of a count without orbits is the same one
    again = distributed.count(Problem(n), ledger=ledger)
    assert again.from_ledger == again.tasks and (again.count, again.unique) == (known_total(n), None)


def test_an_interrupted_join_split_resumes_and_gives_the_same_answer(tmp_path, capfd):
    ledger = tmp_path / "q16.ledger"
    kept = _interrupted(Problem(16), ledger, unique=True)
    assert 10 <= kept
    r = distributed.count(Problem(16), unique=True, ledger=ledger, threads=2)
    assert r.split == "join" and r.from_ledger == kept < r.tasks
    assert (r.count, r.unique) == (known_total(16), known_unique(16))
    again = distributed.count(Problem(16), unique=True, ledger=ledger, verify=5)
    assert again.from_ledger == again.tasks and again.verified == 5 and not again.disagreements
    assert (again.count, again.unique) == (r.count, r.unique)
    assert "Traceback" not in capfd.readouterr().err


def test_a_join_split_on_a_local_cluster_is_exact_and_resumes(client, tmp_path, capfd):
    ledger = tmp_path / "q15.ledger"
    kept = _interrupted(Problem(15), ledger, client, unique=True)
    assert 10 <= kept
    r = distributed.count(Problem(15), unique=True, ledger=ledger, dask="local:2")
    assert r.split == "join" and r.from_ledger == kept < r.tasks
    assert (r.count, r.unique) == (known_total(15), known_unique(15))
    assert r.workers and all(w.startswith("tcp://127.0.0.1:") for w in r.workers)
    for n in (14, 16):
        r = distributed.count(Problem(n), client, unique=True)
        assert r.split == "join" and (r.count, r.unique) == (known_total(n), known_unique(n))
    err = capfd.readouterr().err
    assert "Traceback" not in err and "distributed." not in err, err


def test_an_old_symmetric_ledger_resumes_by_its_own_split(tmp_path):
    ledger = tmp_path / "old.ledger"
    # what a ledger of n = 14 was before the join: the engine's symmetric split
    kept = _interrupted(Problem(14), ledger, method="symmetric", unique=True)
    assert recorded_split(ledger, Problem(14)) == ("symmetric", 0, True)
    r = distributed.count(Problem(14), ledger=ledger, threads=2)  # the default would be the join's
    assert r.split == "symmetric" and r.from_ledger == kept and r.tasks == len(engine.split_tasks(Problem(14))[2])
    assert (r.count, r.unique) == (known_total(14), known_unique(14))
    with pytest.raises(InvalidLedger, match="another split"):
        distributed.count(Problem(14), ledger=ledger, method="join")
    # the ledger's split also decides for a ledger made by the join below its default size
    small = tmp_path / "small.ledger"
    distributed.count(Problem(10), ledger=small, method="join")
    r = distributed.count(Problem(10), unique=True, ledger=small)
    assert r.split == "join" and r.from_ledger == r.tasks and (r.count, r.unique) == (known_total(10), known_unique(10))


def test_a_file_that_is_not_a_ledger_has_no_recorded_split_and_is_left_to_the_ledger_to_refuse(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    assert recorded_split(other, Problem(14)) is None and recorded_split(tmp_path / "none", Problem(14)) is None
    with pytest.raises(InvalidLedger, match="not a queenslab ledger"):
        distributed.count(Problem(14), ledger=other)
    assert other.read_bytes() == before
    ledger = tmp_path / "q14.ledger"
    distributed.count(Problem(14), ledger=ledger)
    assert recorded_split(ledger, Problem(13)) is None  # another problem: the ledger's own error says so
    with pytest.raises(InvalidLedger, match="not of 13-queens"):
        distributed.count(Problem(13), ledger=ledger)


def test_verify_recounts_join_slices_by_the_join_kernel_and_refuses_the_general_search(tmp_path, monkeypatch, capsys):
    p = Problem(14)
    ledger = tmp_path / "bad.ledger"
    wrong, tasks, bad = wrong_ledger(p, ledger, method="join")
    assert wrong.count == known_total(14) + 8  # the faulty worker's number went into the ledger
    r = distributed.count(p, ledger=ledger, verify=len(tasks))
    assert r.verified == len(tasks) and [d.task for d in r.disagreements] == [bad]
    (d,) = r.disagreements
    assert d.recorded == (d.recomputed[0] + 8, None)
    with pytest.raises(QueensError, match="--verify-method task") as e:
        distributed.count(p, ledger=ledger, verify=3, verify_method="general")
    assert "not a subtree" in str(e.value)
    code, _, err = run_cli(
        capsys, monkeypatch, "count", 14, "--ledger", ledger, "--verify", 3, "--verify-method", "general"
    )
    assert code == 2 and "--verify-method task" in err and "Traceback" not in err


def test_the_command_line_splits_by_the_join_and_takes_another_method(tmp_path, capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", 14, "--unique", "--ledger", tmp_path / "j.ledger", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["method"].startswith("join") and obj["tasks"] >= 256
    assert (obj["count"], obj["unique"]) == (known_total(14), known_unique(14))
    code, out, _ = run_cli(
        capsys, monkeypatch, "count", 14, "--method", "symmetric", "--ledger", tmp_path / "s.ledger", "--json"
    )
    obj = json.loads(out)
    assert code == 0 and obj["method"].startswith("symmetric") and obj["count"] == known_total(14)
    code, _, err = run_cli(
        capsys, monkeypatch, "count", 14, "--method", "join", "--ledger", tmp_path / "s.ledger", "--json"
    )
    assert code == 2 and "another split" in err


def test_a_split_method_that_does_not_apply_is_refused():
    from queenslab.problem import Region

    variant = Problem(8, regions=[Region([(0, 0), (1, 1)], at_most=1)])
    with pytest.raises(UnsupportedProblem):
        distributed.count(variant, method="join")
    with pytest.raises(UnsupportedProblem):
        distributed.count(variant, method="symmetric")
    with pytest.raises(QueensError, match="depth"):
        distributed.count(Problem(14), method="join", depth=2)
    with pytest.raises(QueensError, match="method"):
        distributed.count(Problem(14), method="fast")
    assert distributed.count(Problem(12), method="general", unique=True).split.startswith("general@")


def test_a_ledger_takes_join_splits():
    s = Split("join", 0, False, [[0, 3], (3, 9)])
    assert s.tasks == ((0, 3), (3, 9)) and s.digest() != Split("general", 0, False, s.tasks).digest()
