"""The ledger of a distributed count: create, record, reopen, refuse what is not its own,
detect hand edits and damage, keep one row per task under concurrent writers."""

from __future__ import annotations

import json
import math
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clirun import run_cli

from queenslab.distributed import ledger as ledger_module
from queenslab.distributed.ledger import InvalidLedger, Ledger, Split, TaskResult
from queenslab.errors import QueensError
from queenslab.problem import Problem

ROOT = Path(__file__).resolve().parents[1]
P8 = Problem(8)
SPLIT = Split("general", 2, True, ((0, 2), (0, 3), (1, 3), (1, 4), (2, 0)))


def result(i: int, count: int | None = None, unique: int | None = -1, nodes: int | None = None, worker="thread"):
    """A made-up result of task ``i`` (values derived from ``i`` unless given)."""
    return TaskResult(
        task_id=i,
        count=3 * i + 1 if count is None else count,
        unique=i if unique == -1 else unique,
        nodes=10 * i + 7 if nodes is None else nodes,
        worker=worker,
        seconds=0.125 * i,
        version="0.1.0",
    )


def record_all(ledger: Ledger, ids=None) -> None:
    for i in range(len(ledger.split.tasks)) if ids is None else ids:
        assert ledger.record(result(i)) is True


@pytest.fixture
def path(tmp_path):
    return tmp_path / "count.ledger"


def rows(path: Path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT id, count, uniq, nodes, worker FROM tasks ORDER BY id").fetchall()
    finally:
        con.close()


def sql(path: Path, statement: str, args: tuple = ()) -> None:
    """Change the file by hand, as a user with the sqlite3 shell would."""
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute(statement, args)
    finally:
        con.close()


# ------------------------------------------------------------------- the split


def test_split_normalises_and_digests():
    s = Split("general", 2, True, [[0, 2], (0, 3)])
    assert s.tasks == ((0, 2), (0, 3)) and all(type(x) is int for t in s.tasks for x in t)
    assert s == Split("general", 2, True, ((0, 2), (0, 3)))
    d = s.digest()
    assert len(d) == 64 and d == Split("general", 2, True, ((0, 2), (0, 3))).digest()
    others = [
        Split("symmetric", 2, True, ((0, 2), (0, 3))),
        Split("general", 3, True, ((0, 2), (0, 3))),
        Split("general", 2, False, ((0, 2), (0, 3))),
        Split("general", 2, True, ((0, 3), (0, 2))),  # the order is the task ids
        Split("general", 2, True, ((0, 2),)),
    ]
    assert len({d, *(o.digest() for o in others)}) == 1 + len(others)


@pytest.mark.parametrize(
    "args, words",
    [
        (("parallel", 2, True, ()), "unknown split method"),
        ((2, 2, True, ()), "split method"),
        (("general", -1, True, ()), "depth"),
        (("general", 2.0, True, ()), "depth"),
        (("general", 2, "yes", ()), "unique"),
        (("general", 2, True, "0,2"), "tasks"),
        (("general", 2, True, (5,)), "task 0"),
        (("general", 2, True, ((0, True),)), "task 0"),
        (("general", 2, True, ((0, 2**63),)), "64 bits"),
        (("general", 2, True, ((0, 2), (1, 2), (0, 2))), "appears twice"),
    ],
)
def test_split_refuses_bad_fields(args, words):
    with pytest.raises(QueensError, match=words):
        Split(*args)


# ------------------------------------------------------------- the normal life


def test_create_record_reopen(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert ledger.path == path and ledger.split == SPLIT
        assert ledger.done() == {} and ledger.missing() == [0, 1, 2, 3, 4]
        record_all(ledger, [3, 0])
        assert ledger.missing() == [1, 2, 4]
        with pytest.raises(InvalidLedger, match=r"not complete: 2 of 5 tasks recorded, 3 missing \(task ids 1, 2, 4\)"):
            ledger.totals()
    assert path.is_file() and not Path(str(path) + "-wal").exists()  # closed: the log is folded in
    with Ledger.open(str(path), P8, SPLIT) as ledger:
        done = ledger.done()
        assert sorted(done) == [0, 3] and done[3] == result(3) and done[0] == result(0)
        assert ledger.meta["package"] and ledger.meta["created"] and ledger.meta["fingerprint"] == P8.fingerprint()
        record_all(ledger, [1, 2, 4])
        assert ledger.missing() == []
        expected = tuple(sum(f(i) for i in range(5)) for f in (lambda i: 3 * i + 1, lambda i: i, lambda i: 10 * i + 7))
        assert ledger.totals() == expected == (35, 10, 135)
    ledger.close()  # twice: nothing happens
    with pytest.raises(QueensError, match="closed"):
        ledger.done()


def test_no_orbits(path):
    split = Split("general", 1, False, ((0,), (1,), (2,)))
    with Ledger.open(path, P8, split) as ledger:
        for i in range(3):
            assert ledger.record(result(i, unique=None))
        assert ledger.totals() == (1 + 4 + 7, None, 7 + 17 + 27)
        with pytest.raises(QueensError, match="does not count orbits"):
            ledger.record(result(0, unique=5))
    with Ledger.open(path.with_name("orbits.ledger"), P8, SPLIT) as ledger:
        with pytest.raises(QueensError, match="counts orbits"):
            ledger.record(result(0, unique=None))


def test_a_join_split_records_totals_only_and_tells_its_split_without_writing(path, tmp_path):
    split = Split("join", 0, False, ((0, 40), (40, 100), (100, 160)))
    assert ledger_module.recorded_split(path, P8) is None and not path.exists()
    with Ledger.open(path, P8, split) as ledger:
        for i in range(3):
            assert ledger.record(result(i, unique=None, nodes=0))
        with pytest.raises(QueensError, match="does not count orbits"):
            ledger.record(result(0, unique=5, nodes=0))
        assert ledger.totals() == (1 + 4 + 7, None, 0)
    files = sorted(p.name for p in tmp_path.iterdir())
    before = path.read_bytes()
    assert ledger_module.recorded_split(path, P8) == ("join", 0, False)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == files
    assert ledger_module.recorded_split(path, Problem(9)) is None  # another problem: Ledger.open says so
    with pytest.raises(InvalidLedger, match="other split"):
        Ledger.open(path, P8, Split("symmetric", 0, True, split.tasks))
    sql(path, "UPDATE meta SET value = 'general' WHERE key = 'method'")
    assert ledger_module.recorded_split(path, P8) is None  # an edited meta table is never trusted
    with pytest.raises(InvalidLedger, match="modified"):
        Ledger.open(path, P8, split)


def test_empty_split(path):
    with Ledger.open(path, P8, Split("general", 2, False, ())) as ledger:
        assert ledger.missing() == [] and ledger.totals() == (0, None, 0) and ledger.verify_sample(3) == []
        with pytest.raises(QueensError, match="no tasks"):
            ledger.record(result(0, unique=None))


def test_repr_and_thread_sharing(path):
    split = Split("general", 2, True, tuple((i // 8, i % 8) for i in range(64)))
    with Ledger.open(path, P8, split) as ledger:
        assert "8-queens" in repr(ledger) and "64 tasks" in repr(ledger)
        inserted = []

        def work(ids):
            inserted.append(sum(ledger.record(result(i)) for i in ids))

        orders = [
            list(range(64)),
            list(range(63, -1, -1)),
            list(range(0, 64, 2)),
            random.Random(1).sample(range(64), 64),
        ]
        threads = [threading.Thread(target=work, args=(ids,)) for ids in orders]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(inserted) == 64 and ledger.missing() == []
    assert [r[0] for r in rows(path)] == list(range(64))


# ------------------------------------------------------------ refused reopenings


def test_other_problem_refused(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [0])
    before = path.read_bytes()
    with pytest.raises(InvalidLedger) as e:
        Ledger.open(path, Problem(9), SPLIT)
    text = str(e.value)
    assert "8-queens" in text and "9-queens" in text and "use another file" in text and "delete" in text
    assert str(path) in text
    assert path.read_bytes() == before
    with pytest.raises(InvalidLedger, match="toroidal"):
        Ledger.open(path, Problem(8, toroidal=True), SPLIT)


@pytest.mark.parametrize(
    "other, words",
    [
        (Split("general", 2, True, ((0, 2), (0, 3), (1, 3), (1, 4), (2, 1))), "other task keys"),
        (Split("general", 2, True, ((0, 2), (0, 3))), "the number of tasks differ"),
        (Split("general", 3, True, SPLIT.tasks), "the depth differ"),
        (Split("general", 2, False, SPLIT.tasks), "orbit counting differ"),
        (Split("symmetric", 2, True, SPLIT.tasks), "the method differ"),
        (Split("symmetric", 0, False, SPLIT.tasks), "the method, the depth and orbit counting differ"),
    ],
)
def test_other_split_refused(path, other, words):
    with Ledger.open(path, P8, SPLIT):
        pass
    with pytest.raises(InvalidLedger, match="another split") as e:
        Ledger.open(path, P8, other)
    assert words in str(e.value) and "delete" in str(e.value)


# --------------------------------------------------------------------- hand edits


def test_hand_edit_detected_on_every_read(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger)
        sql(path, "UPDATE tasks SET count = count + 1 WHERE id = 2")  # while it is open
        for read in (ledger.done, ledger.totals, ledger.missing, lambda: ledger.verify_sample(2)):
            with pytest.raises(InvalidLedger, match="the row of task 2 fails its check") as e:
                read()
            assert "DELETE FROM tasks WHERE id = 2" in str(e.value)
    with Ledger.open(path, P8, SPLIT) as ledger:  # opening is cheap; the reads check
        with pytest.raises(InvalidLedger, match="task 2"):
            ledger.totals()
    sql(path, "DELETE FROM tasks WHERE id = 2")  # the remedy the message gives
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert ledger.missing() == [2]
        assert ledger.record(result(2))
        assert ledger.totals() == (35, 10, 135)


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE tasks SET count = count + 1",
        "UPDATE tasks SET uniq = NULL",
        "UPDATE tasks SET nodes = 0",
        "UPDATE tasks SET worker = 'tcp://elsewhere:1'",
        "UPDATE tasks SET seconds = 0.5",
        "UPDATE tasks SET count = '5'",  # read back as the integer 5: fails the check
        "UPDATE tasks SET count = 'four'",  # stays text: a value of the wrong type
        "UPDATE tasks SET version = 7",
        "UPDATE tasks SET count = 4.5",
        "UPDATE tasks SET chk = chk + 1",
    ],
)
def test_edits_of_any_column_detected(path, edit):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [1])
    sql(path, edit + " WHERE id = 1")
    with Ledger.open(path, P8, SPLIT) as ledger, pytest.raises(InvalidLedger, match="task 1"):
        ledger.done()


def test_row_copied_from_another_ledger_detected(tmp_path):
    a, b = tmp_path / "a.ledger", tmp_path / "b.ledger"
    with Ledger.open(a, P8, SPLIT) as ledger:
        record_all(ledger, [0])
    with Ledger.open(b, Problem(9), SPLIT) as ledger:  # same split, another problem: same values
        record_all(ledger, [0, 1])
    con = sqlite3.connect(a)
    with con:
        con.execute("ATTACH DATABASE ? AS other", (str(b),))
        con.execute("INSERT INTO tasks SELECT * FROM other.tasks WHERE id = 1")
    con.close()
    with Ledger.open(a, P8, SPLIT) as ledger, pytest.raises(InvalidLedger, match="task 1 fails its check"):
        ledger.done()


def test_row_with_foreign_id_detected(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [0])
    sql(path, "UPDATE tasks SET id = 99")
    with Ledger.open(path, P8, SPLIT) as ledger, pytest.raises(InvalidLedger, match="task id 99"):
        ledger.missing()


@pytest.mark.parametrize(
    "edit, words",
    [
        ("UPDATE meta SET value = '3' WHERE key = 'depth'", "meta table was modified"),
        ("UPDATE meta SET value = '2020-01-01' WHERE key = 'created'", "meta table was modified"),
        ("DELETE FROM meta WHERE key = 'split_digest'", "missing split_digest"),
        ("DELETE FROM meta", "not a queenslab ledger"),
        ("UPDATE meta SET value = '7' WHERE key = 'version'", "format version '7'"),
        ("DROP TABLE tasks", "not a queenslab ledger"),
        ("CREATE TABLE extra (x)", "not a queenslab ledger"),
        ("CREATE INDEX tasks_count ON tasks (count)", "tables were changed"),
    ],
)
def test_meta_and_table_edits_refused(path, edit, words):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [0])
    sql(path, edit)
    with pytest.raises(InvalidLedger, match=words):
        Ledger.open(path, P8, SPLIT)


# ---------------------------------------------------------- files that are not ledgers


def test_truncated_file_refused(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger)
    data = path.read_bytes()
    assert len(data) >= 4 * 4096
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidLedger, match="truncated") as e:
        Ledger.open(path, P8, SPLIT)
    assert str(path) in str(e.value) and "delete" in str(e.value)
    assert path.stat().st_size == len(data) // 2


@pytest.mark.parametrize("size", [5000, 100, 20])
def test_random_bytes_refused_and_unchanged(path, size):
    data = random.Random(size).randbytes(size)
    path.write_bytes(data)
    with pytest.raises(InvalidLedger, match="not an SQLite database"):
        Ledger.open(path, P8, SPLIT)
    assert path.read_bytes() == data and sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_damaged_pages_refused_with_invalid_ledger(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger)
    data = bytearray(path.read_bytes())
    data[100:4096] = random.Random(0).randbytes(4096 - 100)  # the schema page, header kept
    path.write_bytes(bytes(data))
    with pytest.raises(InvalidLedger, match="damaged"):
        Ledger.open(path, P8, SPLIT)


def test_sqlite_file_of_another_kind_left_unchanged(path):
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE people (name TEXT, age INTEGER)")
        con.execute("INSERT INTO people VALUES ('Ada', 36)")
    con.close()
    before = path.read_bytes()
    with pytest.raises(InvalidLedger, match=r"not a queenslab ledger \(its tables: people\); it was left unchanged"):
        Ledger.open(path, P8, SPLIT)
    assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_empty_file_becomes_a_ledger(path):
    path.write_bytes(b"")
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [4])
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert list(ledger.done()) == [4]


def test_bad_paths_and_arguments(tmp_path, path):
    with pytest.raises(QueensError, match="is a directory"):
        Ledger.open(tmp_path, P8, SPLIT)
    with pytest.raises(QueensError, match="does not exist; create it first"):
        Ledger.open(tmp_path / "no" / "such.ledger", P8, SPLIT)
    with pytest.raises(QueensError, match="empty name"):
        Ledger.open("", P8, SPLIT)
    with pytest.raises(QueensError, match=r"write Problem\(8\)"):
        Ledger.open(path, 8, SPLIT)
    with pytest.raises(QueensError, match="must be a queenslab Split"):
        Ledger.open(path, P8, ("general", 2, True, ()))
    assert not path.exists()


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("kind", ["index", "partial", "foreign"])
def test_an_index_or_another_database_is_refused_and_unchanged(tmp_path, capsys, monkeypatch, kind):
    """A ledger never creates its tables in a file that holds other tables, nor writes to it."""
    from queenslab.ranking import index as ix

    path = tmp_path / "mine.sqlite"
    if kind == "index":
        ix.build_index(P8, 2, path=path).close()
        said = "is a queenslab index"
    elif kind == "partial":
        con = sqlite3.connect(path)  # the working file of a build, as an interrupted build leaves it
        with con:
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("CREATE TABLE prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL, chk INTEGER NOT NULL)")
            con.execute(
                "CREATE TABLE tasks (code INTEGER PRIMARY KEY, rows INTEGER NOT NULL, total INTEGER NOT NULL, "
                "chk INTEGER NOT NULL)"
            )
        con.close()
        said = "is the working file of a queenslab index build"
    else:
        con = sqlite3.connect(path)
        with con:
            con.execute("CREATE TABLE people (name TEXT, age INTEGER)")
            con.execute("CREATE TABLE places (name TEXT)")
            con.execute("CREATE VIEW adults AS SELECT name FROM people WHERE age >= 18")
        con.close()
        said = "is an SQLite database of another application, not a queenslab ledger (its tables: people, places)"
    before, listing = path.read_bytes(), _tree(tmp_path)
    with pytest.raises(InvalidLedger, match="not a queenslab ledger") as e:
        Ledger.open(path, P8, SPLIT)
    assert said in str(e.value) and "it was left unchanged" in str(e.value) and "delete" not in str(e.value)
    code, out, err = run_cli(capsys, monkeypatch, "count", "8", "--ledger", path)
    assert code == 2 and err.startswith("error: ") and said in err and "Traceback" not in err, err
    assert path.read_bytes() == before and _tree(tmp_path) == listing


def test_a_ledger_schema_with_foreign_meta_is_refused_before_anything_is_written(path):
    """The meta is checked before the file is switched to WAL mode (which rewrites its header)."""
    con = sqlite3.connect(path)
    with con:
        for statement in ledger_module._SCHEMA:
            con.execute(statement)
        con.execute("INSERT INTO meta VALUES ('format', 'something-else')")
    con.close()
    before = path.read_bytes()
    with pytest.raises(InvalidLedger, match="not a queenslab ledger"):
        Ledger.open(path, P8, SPLIT)
    assert path.read_bytes() == before and _tree(path.parent) == [path.name]


def test_a_dangling_link_creates_nothing_elsewhere(tmp_path, capsys, monkeypatch):
    named, elsewhere = tmp_path / "named", tmp_path / "elsewhere"
    named.mkdir()
    elsewhere.mkdir()
    link = named / "count.ledger"
    link.symlink_to(elsewhere / "target.ledger")
    with pytest.raises(QueensError, match="symbolic link .* which does not exist"):
        Ledger.open(link, P8, SPLIT)
    code, _, err = run_cli(capsys, monkeypatch, "count", "8", "--ledger", link)
    assert code == 2 and "symbolic link" in err and "does not exist" in err and "Traceback" not in err, err
    assert _tree(elsewhere) == [] and _tree(named) == ["count.ledger"]


def test_a_link_to_an_existing_ledger_is_followed(tmp_path):
    real, named = tmp_path / "real", tmp_path / "named"
    real.mkdir()
    named.mkdir()
    with Ledger.open(real / "count.ledger", P8, SPLIT) as ledger:
        record_all(ledger, [1, 3])
    (named / "link.ledger").symlink_to(real / "count.ledger")
    with Ledger.open(named / "link.ledger", P8, SPLIT) as ledger:
        assert ledger.path == real / "count.ledger" and ledger.missing() == [0, 2, 4]
        record_all(ledger, [0])
    assert (named / "link.ledger").is_symlink() and _tree(named) == ["link.ledger"]
    assert [r[0] for r in rows(real / "count.ledger")] == [0, 1, 3]


def test_a_read_only_ledger_is_refused(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        record_all(ledger, [0])
    before = path.read_bytes()
    path.chmod(0o444)
    with pytest.raises(QueensError, match="read-only"):
        Ledger.open(path, P8, SPLIT)
    assert path.read_bytes() == before and _tree(path.parent) == [path.name]


def test_names_too_long_for_the_file_system_are_errors(tmp_path, capsys, monkeypatch):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    long = tmp_path / ("x" * 300)
    with pytest.raises(QueensError, match=f"the file name has 300 bytes, more than the {name_max}"):
        Ledger.open(long, P8, SPLIT)
    code, _, err = run_cli(capsys, monkeypatch, "count", "8", "--ledger", long)
    assert code == 2 and "file name has 300 bytes" in err and "Traceback" not in err, err
    # a name that fits, but SQLite's journal next to it would not
    near = tmp_path / ("y" * (name_max - 3))
    with pytest.raises(QueensError, match=f"give a name of at most {name_max - 8} bytes"):
        Ledger.open(near, P8, SPLIT)
    assert _tree(tmp_path) == []
    with Ledger.open(tmp_path / ("z" * (name_max - 8)), P8, SPLIT) as ledger:  # the longest name allowed
        record_all(ledger)
        assert ledger.totals()[0] == sum(3 * i + 1 for i in range(5))


# ------------------------------------------------------------------ recording


def test_duplicate_keeps_first_row(path):
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert ledger.record(result(1, worker="first")) is True
        assert ledger.record(result(1, worker="second")) is False  # same numbers, another worker
        assert ledger.record(result(1)) is False
        assert ledger.done()[1].worker == "first"
        for bad in (result(1, count=99), result(1, unique=0), result(1, nodes=1)):
            with pytest.raises(InvalidLedger, match="two computations of task 1 .* disagree") as e:
                ledger.record(bad)
            assert "'first'" in str(e.value)
    assert rows(path) == [(1, 4, 1, 17, "first")]


@pytest.mark.parametrize(
    "bad, words",
    [
        (result(0, count=2**63), "signed 64-bit"),
        (result(0, nodes=2**64), "signed 64-bit"),
        (result(0, unique=2**63), "signed 64-bit"),
        (result(0, count=-1), "at least 0"),
        (result(0, count=True), "count of task 0"),
        (result(0, count=4.0), "float"),
        (result(5), "not a task of this split"),
        (result(-1), "task_id must be at least 0"),
        (TaskResult(0, 1, 0, 1, None, 0.1, "x"), "worker"),  # type: ignore[arg-type]
        (TaskResult(0, 1, 0, 1, "w", math.nan, "x"), "seconds"),
        (TaskResult(0, 1, 0, 1, "w", -1.0, "x"), "seconds"),
        ((0, 1, 0, 1, "w", 1.0, "x"), "records a TaskResult"),
    ],
)
def test_bad_values_refused_and_nothing_recorded(path, bad, words):
    with Ledger.open(path, P8, SPLIT) as ledger:
        with pytest.raises(QueensError, match=words) as e:
            ledger.record(bad)
        assert not isinstance(e.value, InvalidLedger)
        assert ledger.done() == {}


def test_largest_int64_values_round_trip(path):
    big = 2**63 - 1
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert ledger.record(result(0, count=big, unique=big, nodes=big))
    with Ledger.open(path, P8, SPLIT) as ledger:
        assert ledger.done()[0] == result(0, count=big, unique=big, nodes=big)


def test_verify_sample(path):
    split = Split("general", 2, True, tuple((i // 8, i % 8) for i in range(50)))
    with Ledger.open(path, P8, split) as ledger:
        recorded = random.Random(3).sample(range(50), 30)
        record_all(ledger, recorded)
        a = ledger.verify_sample(10, seed=1)
        assert len(a) == 10 == len(set(a)) and set(a) <= set(recorded) and a == sorted(a)
        assert ledger.verify_sample(10, seed=1) == a
        assert ledger.verify_sample(10, seed=2) != a
        assert ledger.verify_sample(0) == []
        assert ledger.verify_sample(40) == sorted(recorded)
        with pytest.raises(QueensError, match="k must be"):
            ledger.verify_sample(-1)
        with pytest.raises(QueensError, match="seed"):
            ledger.verify_sample(2, seed=-5)
    with Ledger.open(path, P8, split) as ledger:  # another process later: the same ids
        assert ledger.verify_sample(10, seed=1) == a


# ------------------------------------------------------------------ processes

_CHILD = r"""
import json, os, sys, time
from pathlib import Path
from queenslab.distributed.ledger import Ledger, Split, TaskResult
from queenslab.problem import Problem

path, folder, name, ids, tasks = sys.argv[1], Path(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4]), json.loads(sys.argv[5])
split = Split("general", 2, True, tasks)
(folder / ("ready-" + name)).touch()
while not (folder / "go").exists():
    time.sleep(0.002)
inserted = 0
with Ledger.open(path, Problem(8), split) as ledger:
    for i in ids:
        inserted += ledger.record(TaskResult(i, 3 * i + 1, i, 10 * i + 7, name, 0.001, "test"))
print(inserted)
"""


def test_processes_share_a_new_ledger(tmp_path):
    n = 60
    tasks = [[i // 8, i % 8] for i in range(n)]
    plans = {
        "a": list(range(40)),
        "b": list(range(59, 19, -1)),  # overlaps a on 20..39
        "c": list(range(0, n, 2)),
        "d": random.Random(7).sample(range(n), n),  # every task
    }
    path = tmp_path / "shared.ledger"  # does not exist yet: all of them create it at once
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(path), str(tmp_path), name, json.dumps(ids), json.dumps(tasks)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for name, ids in plans.items()
    }
    deadline = time.monotonic() + 300  # four fresh Pythons load at once: seconds, or minutes on a busy machine
    while not all((tmp_path / f"ready-{name}").exists() for name in plans):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs.values())
        time.sleep(0.01)
    (tmp_path / "go").touch()
    inserted = 0
    for name, p in procs.items():
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, f"{name}: {err}"
        assert err == ""
        inserted += int(out)
    assert inserted == n  # every task inserted by exactly one process
    table = rows(path)
    assert [r[0] for r in table] == list(range(n))  # once each
    assert all((c, u, k) == (3 * i + 1, i, 10 * i + 7) for i, c, u, k, _ in table)
    assert {w for *_, w in table} <= set(plans)
    with Ledger.open(path, P8, Split("general", 2, True, tasks)) as ledger:
        assert ledger.missing() == []
        assert ledger.totals() == (sum(3 * i + 1 for i in range(n)), sum(range(n)), sum(10 * i + 7 for i in range(n)))
