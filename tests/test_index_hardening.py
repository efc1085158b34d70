"""The persistent index under attack: hand edits, damaged partial builds, builds killed
at any point, concurrent builders and readers, sizes no machine can do, bad arguments,
interrupts. Expected answers come from the index-free ranking (subtree counts by the
engine) or a brute-force enumeration, never from the index under test."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import naive
import pytest
from clirun import run_cli

from queenslab import interrupt, store
from queenslab.cli import main
from queenslab.errors import InvalidIndex, InvalidPlacement, QueensError, TooLarge
from queenslab.native import engine
from queenslab.problem import Problem
from queenslab.ranking import index as ix, index_lock
from queenslab.ranking.lex import rank, solution_batches, unrank
from queenslab.ranking.permutations import from_lehmer_code, permutation_rank, permutation_unrank
from queenslab.ranking.sampling import iter_samples, sample, sample_ranks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_index_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(ix.ENV_VAR, str(tmp_path / "auto"))


def _lex(idx):
    return idx._con.execute("SELECT code, cum, cnt FROM lex ORDER BY code").fetchall()


def _edit(path: Path, sql: str, args=()) -> None:
    """Change the file by hand and put its modification time back."""
    st = path.stat()
    con = sqlite3.connect(path)
    with con:
        con.execute(sql, args)
    con.close()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _answers_like_the_walk(idx, problem, ranks):
    """The index's unrank/rank agree with the index-free ranking on these ranks."""
    for r in ranks:
        s = unrank(problem, r, index=None)
        assert idx.unrank(r) == s, r
        assert idx.rank(s) == r, r


# ------------------------------------------------------------------ 1. hand edits


def test_an_edited_count_is_refused_on_the_query_and_by_verify(tmp_path, capsys):
    p = Problem(12)
    idx = ix.build_index(p, 3, directory=tmp_path)
    path = idx.path
    rows = _lex(idx)
    idx.close()
    code, cum, cnt = rows[len(rows) // 2]  # a row in the middle: the cheap open checks pass
    _edit(path, "UPDATE lex SET cum = cum - 5 WHERE code = ?", (code,))
    idx = ix.PrefixIndex.open(path, p)
    inside = unrank(p, cum + 1, index=None)
    with pytest.raises(InvalidIndex, match="fails its check"):
        idx.unrank(cum + 1)
    with pytest.raises(InvalidIndex, match="fails its check"):
        idx.rank(inside)
    with pytest.raises(InvalidIndex, match="rebuild"):
        idx.verify()
    idx.close()
    # the command line says so and exits 2, never a traceback or a wrong answer
    assert main(["unrank", "12", str(cum + 2), "--index", str(path)]) == 2
    assert "fails its check" in capsys.readouterr().err
    assert main(["index", "verify", "12", "--index", str(tmp_path), "--json"]) == 2
    err = json.loads(capsys.readouterr().out)
    assert err["kind"] == "InvalidIndex" and "rebuild" in err["error"]
    # rows the edit did not touch still answer right
    with ix.PrefixIndex.open(path, p) as idx:
        _answers_like_the_walk(idx, p, [0, rows[1][1], rows[-1][1]])


@pytest.mark.parametrize(
    "sql, refused",
    [
        ("UPDATE lex SET cnt = cnt + 1 WHERE code = (SELECT MIN(code) FROM lex)", "fails its check"),
        ("DELETE FROM lex WHERE code = (SELECT code FROM lex ORDER BY code LIMIT 1 OFFSET 7)", "rows"),
        ("UPDATE meta SET value = '14201' WHERE key = 'total'", "meta table was modified"),
        ("UPDATE meta SET value = '1' WHERE key = 'version'", "schema version 1"),
        ("INSERT INTO lex VALUES (1, 99999, 3, 0)", "rows"),
    ],
)
def test_edits_are_refused_on_open(tmp_path, sql, refused):
    p = Problem(12)
    path = ix.build_index(p, directory=tmp_path).path
    _edit(path, sql)
    with pytest.raises(InvalidIndex, match=refused):
        ix.PrefixIndex.open(path, p)
    with pytest.raises(InvalidIndex):
        unrank(p, 5, index=tmp_path)  # found in the directory and refused: never served
    assert ix.list_indexes(tmp_path)[0]["status"].startswith("invalid")


def test_a_deleted_row_with_the_meta_patched_is_still_caught(tmp_path):
    """Delete a row and fix the row count: the meta digest catches it on open; with the
    digest recomputed too, the unrank range check and verify still do."""
    p = Problem(12)
    idx = ix.build_index(p, 3, directory=tmp_path)
    path, rows, meta = idx.path, _lex(idx), dict(idx.meta)
    idx.close()
    code, cum, cnt = rows[40]
    _edit(path, "DELETE FROM lex WHERE code = ?", (code,))
    _edit(path, "UPDATE meta SET value = ? WHERE key = 'rows'", (str(len(rows) - 1),))
    with pytest.raises(InvalidIndex, match="meta table was modified"):
        ix.PrefixIndex.open(path, p)
    meta["rows"] = str(len(rows) - 1)
    _edit(path, "UPDATE meta SET value = ? WHERE key = 'meta_digest'", (store.meta_digest(meta),))
    with ix.PrefixIndex.open(path, p) as idx:
        with pytest.raises(InvalidIndex, match="a row is missing"):
            idx.unrank(cum + cnt // 2)
        with pytest.raises(InvalidIndex, match="no row for the prefix"):
            idx.rank(unrank(p, cum, index=None))
        with pytest.raises(InvalidIndex):
            idx.verify()


def test_verify_recounts_prefixes_with_the_engine(tmp_path, capsys):
    p = Problem(10, blocked=[(2, 3)])
    idx = ix.build_index(p, 3, directory=tmp_path)
    report = idx.verify(recount=30, seed=4)
    assert report["recounted"] == 30 and report["total"] == engine.count(p) and report["rows"] == idx.rows
    assert main(["index", "verify", "10", "--block", "3,4", "--index", str(tmp_path), "--recount", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"path", "n", "depth", "count", "rows", "problem", "checks", "recounted", "seconds", "status"}
    assert out["status"] == "ok" and out["recounted"] == 5 and out["count"] == idx.total


def test_an_old_schema_file_is_refused_with_rebuild(tmp_path):
    p = Problem(8)
    path = ix.index_path(p, 2, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)  # the version-1 layout: a sidecar checksum, no checks inside
    with con:
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL)")
        con.executemany("INSERT INTO meta VALUES (?, ?)", [("version", "1"), ("complete", "1")])
    con.close()
    with pytest.raises(InvalidIndex, match=r"schema version 1.*rebuild"):
        ix.PrefixIndex.open(path, p)
    idx = ix.build_index(p, 2, directory=tmp_path, rebuild=True)
    assert _lex(idx)[-1][1] + _lex(idx)[-1][2] == 92


# --------------------------------------------------------- 2. damaged partial builds


def _interrupted_partial(p, depth, directory, after=3):
    class Stop(Exception):
        pass

    def stop(done, total):
        if done == after:
            raise Stop

    with pytest.raises(Stop):
        ix.build_index(p, depth, directory=directory, threads=1, progress=stop)
    return ix.partial_path(ix.index_path(p, depth, directory))


@pytest.mark.parametrize(
    "sql, redone",
    [
        ("UPDATE prefixes SET cnt = cnt + 1 WHERE code = (SELECT MAX(code) FROM prefixes WHERE cnt > 0)", True),
        ("UPDATE prefixes SET cnt = 0 WHERE code = (SELECT MIN(code) FROM prefixes WHERE cnt > 0)", True),
        ("DELETE FROM prefixes WHERE code = (SELECT MIN(code) FROM prefixes WHERE cnt > 0)", True),
        ("UPDATE tasks SET rows = rows + 1 WHERE code = (SELECT MIN(code) FROM tasks)", True),
        ("UPDATE tasks SET total = total - 1, chk = 0 WHERE code = (SELECT MAX(code) FROM tasks)", True),
        ("INSERT INTO prefixes VALUES (999999, 5, 0)", False),
    ],
)
def test_an_edited_partial_build_is_recomputed_not_certified(tmp_path, sql, redone):
    p = Problem(11)
    clean = _lex(ix.build_index(p, 3, directory=tmp_path / "clean"))
    part = _interrupted_partial(p, 3, tmp_path / "b")
    _edit(part, sql)
    notes: list[str] = []
    idx = ix.build_index(p, 3, directory=tmp_path / "b", threads=1, note=notes.append)
    assert _lex(idx) == clean
    assert any(("failed their checks" if redone else "belong to no finished task") in m for m in notes), notes
    _answers_like_the_walk(idx, p, [0, 1, 1000, 2679])
    assert not part.exists()


def test_a_partial_build_with_edited_meta_starts_afresh(tmp_path):
    p = Problem(10, toroidal=False, knight=True)
    part = _interrupted_partial(p, 3, tmp_path, after=2)
    _edit(part, "UPDATE meta SET value = '3' WHERE key = 'tdepth'")
    with pytest.warns(RuntimeWarning, match="starting it afresh"):
        idx = ix.build_index(p, 3, directory=tmp_path)
    assert idx.total == engine.count(p)
    idx.verify(recount=10)


# ------------------------------------------------- 3 and 8. killed and interrupted builds


def _build_process(directory: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ, **{ix.ENV_VAR: str(directory), "PYTHONPATH": str(ROOT)})
    return subprocess.Popen(
        [sys.executable, "-m", "queenslab", "index", "build", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may ignore SIGINT
    )


def _wait_for(cond, proc, timeout=120.0) -> bool:
    """Poll ``cond()`` every millisecond until it holds (True) or ``proc`` ends (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        if proc.poll() is not None:
            return cond()
        time.sleep(0.001)
    raise AssertionError("the build neither progressed nor ended")


def _kill_and_check(tmp_path, p, depth, sig, when, rng):
    """Start a build, send ``sig`` at the point ``when``, check what is left on disk."""
    final = ix.index_path(p, depth, tmp_path)
    part, tmp = ix.partial_path(final), final.with_name(final.name + ".tmp")
    proc = _build_process(tmp_path, str(p.n), "--depth", str(depth), "--threads", "1")
    try:
        if when == "random":
            _wait_for(part.exists, proc)
            time.sleep(rng.uniform(0, 1.5))
        elif when == "final phase":
            _wait_for(tmp.exists, proc)
        elif when == "renamed":
            _wait_for(final.exists, proc)
        if proc.poll() is None:
            proc.send_signal(sig)
        proc.communicate(timeout=60)  # stops promptly: no hang, finished tasks kept
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if sig == signal.SIGINT and proc.returncode not in (0, 130, -signal.SIGINT, 1):
        raise AssertionError(f"exit status {proc.returncode} after Ctrl-C")
    # the index file only ever exists complete
    if final.exists():
        with ix.PrefixIndex.open(final, p) as idx:
            idx.verify()
    return final


@pytest.mark.parametrize(
    "sig, when",
    [(signal.SIGKILL, "final phase"), (signal.SIGINT, "random"), (signal.SIGKILL, "random")],
)
def test_a_killed_build_resumes_to_a_correct_index(tmp_path, sig, when):
    p = Problem(13)
    final = _kill_and_check(tmp_path, p, 6, sig, when, random.Random(f"{sig}{when}"))
    idx = ix.build_index(p, 6, directory=tmp_path)
    assert idx.path == final and not ix.partial_path(final).exists()
    idx.verify(recount=20)
    rng = random.Random(5)
    _answers_like_the_walk(idx, p, [0, 73711, *rng.sample(range(73712), 8)])


@pytest.mark.slow
def test_builds_killed_again_and_again_end_like_a_clean_one(tmp_path):
    p = Problem(13)
    clean = _lex(ix.build_index(p, 6, directory=tmp_path / "clean"))
    rng = random.Random(2024)
    points = [
        (signal.SIGKILL, "random"),
        (signal.SIGINT, "random"),
        (signal.SIGKILL, "random"),
        (signal.SIGINT, "final phase"),
        (signal.SIGKILL, "final phase"),
        (signal.SIGINT, "random"),
        (signal.SIGKILL, "renamed"),
    ]
    for sig, when in points:  # each kill lands on what the previous ones left
        _kill_and_check(tmp_path / "k", p, 6, sig, when, rng)
    idx = ix.build_index(p, 6, directory=tmp_path / "k")
    assert _lex(idx) == clean
    _answers_like_the_walk(idx, p, rng.sample(range(73712), 12))


def test_a_build_killed_after_the_rename_leaves_a_complete_index(tmp_path):
    """Between the rename and the deletion of the partial file: the index is complete,
    and the next build returns it and drops the leftover."""
    p = Problem(9)
    final = ix.build_index(p, 3, directory=tmp_path).path
    part = _interrupted_partial(p, 3, tmp_path / "other")
    ix.partial_path(final).write_bytes(part.read_bytes())
    assert any(e["status"].startswith("incomplete") for e in ix.list_indexes(tmp_path))
    idx = ix.build_index(p, 3, directory=tmp_path)
    assert idx.path == final and not ix.partial_path(final).exists()
    _answers_like_the_walk(idx, p, [0, 100, 351])


def test_ctrl_c_in_process_keeps_committed_tasks(tmp_path):
    p = Problem(12)
    seen: list[int] = []

    def ctrl_c(done, total):
        seen.append(done)
        if done == 4:
            interrupt.request()  # what Ctrl-C does under interrupt.run

    try:
        with pytest.raises(KeyboardInterrupt):
            ix.build_index(p, 4, directory=tmp_path, threads=2, progress=ctrl_c)
    finally:
        interrupt.clear()
    final = ix.index_path(p, 4, tmp_path)
    assert not final.exists()
    con = sqlite3.connect(ix.partial_path(final))
    (done,) = con.execute("SELECT COUNT(*) FROM tasks").fetchone()
    con.close()
    assert done >= 4
    status = ix.list_indexes(tmp_path)[0]["status"]
    assert status.startswith(f"incomplete: {done} of") and "resume" in status
    resumed: list[int] = []
    idx = ix.build_index(p, 4, directory=tmp_path, progress=lambda d, t: resumed.append(d))
    assert resumed[0] == done + 1
    _answers_like_the_walk(idx, p, [0, 7000, 14199])


# ----------------------------------------------------------------- 4. concurrency


def test_two_builders_and_a_polling_reader(tmp_path):
    p = Problem(14)
    final = ix.index_path(p, 5, tmp_path)
    part = ix.partial_path(final)
    errors: list[BaseException] = []
    stop = threading.Event()

    def inode() -> int | None:
        try:
            return part.stat().st_ino
        except FileNotFoundError:
            return None

    def reader():
        while not stop.is_set():
            opened = None
            try:
                ix.list_indexes(tmp_path)
                if part.exists():
                    opened = inode()
                    con = sqlite3.connect(part.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
                    try:
                        con.execute("SELECT key, value FROM meta").fetchall()
                    finally:
                        con.close()
            except sqlite3.OperationalError as e:
                # the partial file went away meanwhile (before the open, or renamed into the
                # index or removed while it was read): not a broken file
                if "unable to open" not in str(e) and (opened is None or inode() == opened):
                    errors.append(e)
            except Exception as e:  # reported below
                errors.append(e)
            time.sleep(0.01)

    t = threading.Thread(target=reader)
    t.start()
    try:
        # this process holds the build lock first, so both builders must wait for it
        with index_lock.BuildLock(final, print):
            procs = [_build_process(tmp_path, "14", "--depth", "5", "--threads", "1", "--json") for _ in range(2)]
            for proc in procs:
                assert f"being built by PID {os.getpid()}, waiting" in proc.stderr.readline()
            assert ix.holder_pid(final) == os.getpid()
        outs = [proc.communicate(timeout=300) for proc in procs]
    finally:
        stop.set()
        t.join()
    assert [proc.returncode for proc in procs] == [0, 0], outs
    assert [json.loads(out)["path"] for out, _ in outs] == [str(final)] * 2
    # one built it; the other waited for it ("being built by PID ...") and returned it
    assert sum(f"being built by PID {proc.pid}, waiting" in err for proc, (_, err) in zip(procs, outs)) <= 1
    assert not errors, errors
    with ix.PrefixIndex.open(final, p) as idx:
        idx.verify()
        _answers_like_the_walk(idx, p, [0, 200000, 365595])
    assert ix.holder_pid(final) is None


def test_two_builders_started_together(tmp_path):
    procs = [_build_process(tmp_path, "13", "--depth", "5", "--json") for _ in range(2)]
    outs = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outs
    assert len({json.loads(out)["path"] for out, _ in outs}) == 1
    entries = ix.list_indexes(tmp_path)
    assert [e["status"] for e in entries] == ["complete"]


# ------------------------------------------------------------------- 5. sizes


@pytest.mark.parametrize(
    "args",
    [
        ["unrank", "24", "1"],
        ["unrank", "28", "1"],
        ["unrank", "33", "1"],
        ["unrank", "64", "1"],
        # evens then odds: a solution for n = 28 (n mod 6 is neither 2 nor 3)
        ["rank", "28", " ".join(str(c) for c in [*range(2, 29, 2), *range(1, 28, 2)])],
        ["sample", "33", "1"],
        ["index", "build", "40"],
        ["index", "build", "19"],
    ],
)
def test_sizes_no_machine_can_do_are_refused_up_front(args, capsys):
    assert main([*args, "--json"]) == 2
    err = json.loads(capsys.readouterr().out)
    assert err["kind"] == "TooLarge" and "--force" in err["error"] and "practical limit" in err["error"]


def test_a_complete_index_lifts_the_size_limit(tmp_path, monkeypatch):
    from queenslab.ranking import walk

    lowered = replace(engine.COUNT, largest=9)
    monkeypatch.setattr(engine, "COUNT", lowered)
    monkeypatch.setattr(walk, "COUNT", lowered)  # the limit the ranking functions read
    p = Problem(10)
    with pytest.raises(TooLarge, match="force"):
        unrank(p, 3, index=None)
    with pytest.raises(TooLarge, match="force"):
        ix.build_index(p, directory=tmp_path)
    sols = list(engine.solutions(p))  # the enumeration, not the ranking
    assert unrank(p, 3, index=None, force=True) == sols[3]
    idx = ix.build_index(p, directory=tmp_path, force=True)
    assert unrank(p, 99, index=idx) == sols[99] and rank(p, sols[99], index=idx) == 99
    assert sample(p, 2, seed=1, index=idx) == [sols[r] for r in sample_ranks(p, 2, seed=1, index=idx)]
    with pytest.raises(TooLarge):
        next(solution_batches(p, offset=5, index=None))


# ------------------------------------------------------------- 6. streamed samples


def test_sampling_streams_and_checks_k():
    p = Problem(8)
    sols = naive.all_solutions(p)
    draws = iter_samples(p, 10**8, seed=3, index=None, force=True)  # nothing drawn yet, nothing held
    first = [next(draws) for _ in range(5)]
    assert [r for r, _ in first] == sample_ranks(p, 5, seed=3, index=None)
    assert all(sols[r] == s for r, s in first)
    every = sample(p, 92, seed=1, distinct=True, index=None)
    assert sorted(every) == sols  # without replacement, k = total: each solution once
    with pytest.raises(QueensError, match=r"only 92.*k <= 92"):
        iter_samples(p, 93, distinct=True, index=None)
    with pytest.raises(QueensError, match="k must be"):
        iter_samples(p, -1, index=None)


def test_sample_cli_prints_as_it_draws(tmp_path):
    env = dict(os.environ, **{ix.ENV_VAR: str(tmp_path), "PYTHONPATH": str(ROOT)})
    proc = subprocess.Popen(
        [sys.executable, "-m", "queenslab", "sample", "8", "100000000", "--seed", "2", "--force"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
    finally:
        proc.kill()
        proc.wait()
    want = [" ".join(str(c + 1) for c in s) + "\n" for s in sample(Problem(8), 3, seed=2, index=None)]
    assert lines == want


def test_sample_cli_json_is_one_object_with_the_contract_keys(capsys):
    assert main(["sample", "9", "4", "--seed", "5", "--distinct", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"n", "problem", "seed", "samples", "index"}
    ranks = sample_ranks(Problem(9), 4, seed=5, distinct=True, index=None)
    sols = list(engine.solutions(Problem(9)))
    assert len(set(ranks)) == 4
    assert out["samples"] == [{"rank": r + 1, "solution": [c + 1 for c in sols[r]]} for r in ranks]
    assert main(["sample", "8", "93", "--distinct", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["kind"] == "QueensError"


# ------------------------------------------------------------- 7. API robustness


def test_an_int_for_a_problem_is_refused_with_a_hint(tmp_path):
    for call in (
        lambda: sample(8, 1),
        lambda: rank(8, (0, 4, 7, 5, 2, 6, 1, 3)),
        lambda: unrank(8, 0),
        lambda: ix.build_index(8, directory=tmp_path),
        lambda: ix.find_index(8),
        lambda: ix.resolve(8),
        lambda: next(solution_batches(8)),
    ):
        with pytest.raises(QueensError, match=r"expected a queenslab Problem.*Problem\(8\)"):
            call()


def test_floats_are_never_truncated(tmp_path):
    p = Problem(8)
    idx = ix.build_index(p, directory=tmp_path)
    for index in (None, "auto", idx):
        with pytest.raises(QueensError, match="integer"):
            unrank(p, 1.5, index=index)
        with pytest.raises(InvalidPlacement, match="integer"):
            rank(p, (0.0, 4, 7, 5, 2, 6, 1, 3.5), index=index)
    with pytest.raises(QueensError, match="integer"):
        idx.unrank(2.0)
    with pytest.raises(QueensError, match="integer"):
        idx.prefix_count([0.5, 2])
    with pytest.raises(QueensError, match="integer"):
        sample(p, 2.0, index=None)
    with pytest.raises(InvalidPlacement, match="integer"):
        permutation_rank([0, 1.5, 2])
    with pytest.raises(QueensError, match="integer"):
        permutation_unrank(4, 3.0)
    with pytest.raises(QueensError, match="integer"):
        from_lehmer_code([1.0, 0])
    assert unrank(p, 3, index=idx) == idx.unrank(3) == naive.all_solutions(p)[3]


def test_unwritable_or_foreign_index_paths_are_errors(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    cases = [
        ["index", "build", "8", "--index", "/proc/x.sqlite"],
        ["index", "build", "8", "--index", str(notes)],  # a regular file that is no index
        ["index", "build", "8", "--index", str(notes / "sub")],  # a directory that cannot be created
        ["index", "build", "8", "--index", "/proc/self/nope/dir"],
        ["rank", "8", "1 5 8 6 3 7 2 4", "--index", str(notes)],
        ["unrank", "8", "1", "--index", "/proc/x.sqlite"],
        ["index", "verify", "8", "--index", str(notes)],
    ]
    for args in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("error: ") and "Traceback" not in err, (args, err)
    assert notes.read_text() == "my notes\n"  # never overwritten
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"SQLite format 3\x00" + b"\x07" * 200)
    with pytest.raises(InvalidIndex, match=str(junk)):
        ix.PrefixIndex.open(junk, Problem(8))


# ----------------------------------------------- files that are not an index, paths


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def _foreign_database(path: Path) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE people (name TEXT, age INTEGER)")
        con.execute("CREATE TABLE places (name TEXT)")
        con.execute("INSERT INTO people VALUES ('Ada', 36)")
    con.close()


def _ledger(path: Path, capsys, monkeypatch) -> None:
    code, _, err = run_cli(capsys, monkeypatch, "count", "8", "--ledger", path)
    assert code == 0, err


@pytest.mark.parametrize("kind", ["ledger", "foreign", "text"])
@pytest.mark.parametrize("rebuild", [False, True])
def test_a_file_that_is_no_index_is_never_replaced(tmp_path, capsys, monkeypatch, kind, rebuild):
    """--rebuild replaces only an index: a ledger, another application's database or a
    text file at the index's path is refused, byte for byte unchanged, saying what it is."""
    path = tmp_path / "mine.sqlite"
    if kind == "ledger":
        _ledger(path, capsys, monkeypatch)
        said = ["is a queenslab ledger", "format 'queenslab-ledger'"]
    elif kind == "foreign":
        _foreign_database(path)
        said = ["is an SQLite database of another application", "people, places"]
    else:
        path.write_text("my notes\n")
        said = ["is not an SQLite file"]
    before, listing = path.read_bytes(), _tree(tmp_path)
    code, out, err = run_cli(
        capsys, monkeypatch, "index", "build", "8", "--index", path, *(["--rebuild"] if rebuild else [])
    )
    assert code == 2 and out == "" and err.startswith("error: ") and "Traceback" not in err, err
    assert all(s in err for s in said) and "not a queenslab index" in err, err
    assert "rebuild it" not in err and "delete" not in err, err  # never advised for a file of another kind
    with pytest.raises(InvalidIndex, match="not a queenslab index"):
        ix.build_index(Problem(8), path=path, rebuild=rebuild)
    for lookup in (["rank", "8", "1 5 8 6 3 7 2 4"], ["unrank", "8", "3"], ["index", "verify", "8"]):
        code, _, err = run_cli(capsys, monkeypatch, *lookup, "--index", path)
        assert code == 2 and all(s in err for s in said) and "rebuild" not in err, (lookup, err)
    assert path.read_bytes() == before and _tree(tmp_path) == listing  # not even a -wal or lock file


def test_a_file_that_is_no_partial_build_is_never_discarded(tmp_path, capsys, monkeypatch):
    target = tmp_path / "i.sqlite"
    part = ix.partial_path(target)
    _foreign_database(part)
    before = part.read_bytes()
    for extra in ([], ["--rebuild"]):
        code, _, err = run_cli(capsys, monkeypatch, "index", "build", "8", "--index", target, *extra)
        assert code == 2 and "another application" in err and "not the partial build" in err, err
    assert part.read_bytes() == before and not target.exists()


def test_rebuild_replaces_an_index_of_another_problem_or_depth(tmp_path):
    path = tmp_path / "i.sqlite"
    ix.build_index(Problem(9), 3, path=path).close()
    with pytest.raises(InvalidIndex, match="--rebuild"):
        ix.build_index(Problem(8), 2, path=path)
    with ix.build_index(Problem(8), 2, path=path, rebuild=True) as idx:
        assert (idx.problem.n, idx.depth, idx.total) == (8, 2, 92)
    with ix.build_index(Problem(8), 3, path=path, rebuild=True) as idx:
        assert (idx.depth, idx.unrank(5)) == (3, tuple(naive.all_solutions(Problem(8))[5]))


@pytest.mark.parametrize("rebuild", [False, True])
@pytest.mark.parametrize("which", ["index", "lock"])
def test_a_dangling_link_creates_nothing_elsewhere(tmp_path, capsys, monkeypatch, rebuild, which):
    named, elsewhere = tmp_path / "named", tmp_path / "elsewhere"
    named.mkdir()
    elsewhere.mkdir()
    link = named / ("i.sqlite" if which == "index" else "i.sqlite.lock")
    link.symlink_to(elsewhere / "target")
    extra = ["--rebuild"] if rebuild else []
    code, _, err = run_cli(capsys, monkeypatch, "index", "build", "8", "--index", named / "i.sqlite", *extra)
    assert code == 2 and "symbolic link" in err and "does not exist" in err and "Traceback" not in err, err
    assert _tree(elsewhere) == [] and _tree(named) == [link.name]


def test_a_link_to_an_existing_index_is_followed(tmp_path, capsys, monkeypatch):
    real, named = tmp_path / "real", tmp_path / "named"
    real.mkdir()
    named.mkdir()
    p = Problem(8)
    ix.build_index(p, 2, path=real / "i.sqlite").close()
    link = named / "link.sqlite"
    link.symlink_to(real / "i.sqlite")
    before = (real / "i.sqlite").read_bytes()
    sol = naive.all_solutions(p)[17]
    code, out, err = run_cli(capsys, monkeypatch, "rank", "8", " ".join(str(c + 1) for c in sol), "--index", link)
    assert code == 0 and out.split()[0] == "18", (out, err)  # 1-based on the command line
    code, _, err = run_cli(capsys, monkeypatch, "index", "build", "8", "--index", link)  # reused as it is
    assert code == 0 and (real / "i.sqlite").read_bytes() == before, err
    code, _, err = run_cli(capsys, monkeypatch, "index", "build", "8", "--depth", "3", "--index", link, "--rebuild")
    assert code == 0, err
    assert link.is_symlink() and _tree(named) == ["link.sqlite"]  # the link's file was replaced, the link kept
    with ix.PrefixIndex.open(link, p) as idx:
        assert idx.depth == 3 and idx.unrank(17) == tuple(sol)


def test_names_too_long_for_the_file_system_are_errors(tmp_path, capsys, monkeypatch):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    long = tmp_path / ("x" * 300 + ".sqlite")
    cases = [
        ["index", "build", "8", "--index", long],
        ["index", "build", "8", "--index", long, "--rebuild"],
        ["rank", "8", "1 5 8 6 3 7 2 4", "--index", long],
        ["rank", "8", "1 5 8 6 3 7 2 4", "--index", tmp_path / ("x" * 300)],
        ["unrank", "8", "3", "--index", long],
        ["index", "info", "--index", long],
    ]
    for args in cases:
        code, _, err = run_cli(capsys, monkeypatch, *args)
        assert code == 2 and err.startswith("error: ") and "file name has" in err and "Traceback" not in err, (
            args,
            err,
        )
    with pytest.raises(InvalidIndex, match="file name has"):
        ix.PrefixIndex.open(long, Problem(8))  # what `index verify --index FILE` opens
    with pytest.raises(InvalidIndex, match="file name has"):
        ix.find_index(Problem(8), tmp_path / ("x" * 300))  # and `index verify --index DIR`
    with pytest.raises(QueensError, match="cannot create the index directory .* file name has 300 bytes"):
        ix.build_index(Problem(8), directory=tmp_path / ("x" * 300) / "sub")
    # a name that fits, but whose partial build and journal would not: refused before any work
    near = tmp_path / ("y" * (name_max - 10) + ".sqlite")
    code, _, err = run_cli(capsys, monkeypatch, "index", "build", "8", "--index", near)
    assert code == 2 and f"at most {name_max - len('.partial.new-journal')} bytes" in err, err
    assert _tree(tmp_path) == []  # nothing created


@pytest.mark.parametrize("command", [["index", "verify", "8"], ["index", "build", "8"]])
def test_index_commands_refuse_a_name_too_long_without_a_traceback(capsys, monkeypatch, tmp_path, command):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, monkeypatch, *command, "--index", "x" * 300)
    assert code == 2 and err.startswith("error: ") and "300 bytes" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
