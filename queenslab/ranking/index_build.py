"""Building an index: :func:`build_index`, resumable, one builder at a time, completed
atomically.

A build happens in a working file ``X.sqlite.partial`` (WAL mode) to which each finished
task is committed (:mod:`~queenslab.ranking.index_tasks`), so an interrupted build
(Ctrl-C, or a killed process) resumes where it stopped. A resumed build first verifies
the tasks it did not compute itself and recomputes any that fail. In the final phase the
counts must add up to the problem's total (the OEIS value for the standard problem, else
a separate native count); then the ``lex`` table is written to ``X.sqlite.tmp``, synced
to disk and renamed onto ``X.sqlite`` (an atomic replacement), and the partial file is
deleted. So ``X.sqlite`` only ever exists complete, and is never modified once in place;
a build killed before the rename redoes only the final phase. The build lock
(:mod:`~queenslab.ranking.index_lock`) keeps a second builder of the same file waiting.
"""

from __future__ import annotations

import os
import sqlite3
import time
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import interrupt, store, validate
from ..errors import InvalidIndex, QueensError, setting
from ..problem import Problem
from .index_file import PrefixIndex
from .index_format import (
    CHUNK,
    FINAL_SCHEMA,
    PARTIAL_SCHEMA,
    SCHEMA_VERSION,
    IndexChecks,
    Note,
    check_depth,
    problem_json,
    rebuild_hint,
    sql_errors,
    update_row,
)
from .index_lock import BuildLock
from .index_paths import REPLACEABLE, check_partial, index_target, partial_path, tmp_path
from .index_tasks import Plan, run_build_tasks
from .walk import check_problem, check_size, total


def _warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def _reuse(target: Path, problem: Problem, d: int) -> PrefixIndex:
    idx = PrefixIndex.open(target)
    if idx.problem.fingerprint() != problem.fingerprint() or idx.depth != d:
        idx.close()
        raise InvalidIndex(
            f"{target} holds the index of {idx.problem.describe()} at depth {idx.depth}, not of "
            f"{problem.describe()} at depth {d}; pass {setting('rebuild=True', '--rebuild')} to replace it"
        )
    return idx


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def _open_partial(part: Path, meta0: dict, note: Note, rebuild_hint: str) -> sqlite3.Connection:
    """The working file, created (complete with its schema, atomically) or reopened."""
    if part.exists():
        meta: dict = {}
        try:
            con = store.connect(part)
            try:
                if store.schema(con) == set(PARTIAL_SCHEMA):
                    meta = store.read_meta(con)
            finally:
                con.close()
        except (sqlite3.Error, UnicodeDecodeError):
            meta = {}
        if meta and meta.get("meta_digest") == store.meta_digest(meta) and meta.get("version") == meta0["version"]:
            if any(meta.get(k) != meta0[k] for k in ("fingerprint", "depth", "tdepth", "n")):
                raise InvalidIndex(
                    f"the partial build {part} is for another problem or depth; {rebuild_hint} (this discards it)"
                )
            with sql_errors(part, "reopening the partial build"):
                return _connect_wal(part)
        note(f"the partial build {part} is damaged or from another version; starting it afresh")
        store.unlink(*store.db_files(part))
    new = part.with_name(part.name + ".new")
    store.unlink(*store.db_files(new))
    with sql_errors(new, "creating the partial build"):
        con = store.connect(new)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            with store.transaction(con):
                store.create(con, PARTIAL_SCHEMA, meta0)
        finally:
            con.close()
        store.publish(new, part)
        return _connect_wal(part)


def _connect_wal(part: Path) -> sqlite3.Connection:
    """The partial build opened for the build: in WAL mode, so that listing it meanwhile
    reads a consistent snapshot, with ``synchronous=NORMAL`` (a committed task survives the
    process being killed; a power cut may lose the last ones, never a part of one)."""
    con = store.connect(part)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    return con


def _verified_tasks(con: sqlite3.Connection, plan: Plan, checks: IndexChecks, part: Path, note: Note) -> set[int]:
    """The finished tasks of a resumed build whose rows pass every check; the rows and
    records of every other task are deleted, so they are computed again."""
    # a damaged cell may read as NULL, text or a float: such a value fails like a bad check
    records = {c: (r, t, k) for c, r, t, k in con.execute("SELECT code, rows, total, chk FROM tasks")}
    if not records:
        with con:
            con.execute("DELETE FROM prefixes")
        return set()
    stats: dict[int, list[int]] = {}
    bad: set[int] = set()
    orphans: list[int] = []
    for i, (code, cnt, chk) in enumerate(con.execute("SELECT code, cnt, chk FROM prefixes")):
        if i % CHUNK == 0:
            interrupt.check()
        if type(code) is not int:  # pragma: no cover - the schema check makes code the rowid
            raise InvalidIndex(
                f"the partial build {part} is damaged; start it afresh with {setting('rebuild=True', '--rebuild')}"
            )
        owner = plan.owner(code)
        if owner not in records:
            orphans.append(code)
            continue
        if type(cnt) is not int or chk != checks.prefix(code, cnt):
            bad.add(owner)
            continue
        s = stats.setdefault(owner, [0, 0])
        s[0] += 1
        s[1] += cnt
    good: set[int] = set()
    for tc, (rows, tot, chk) in records.items():
        ok = (
            tc in plan.codes
            and type(rows) is int
            and type(tot) is int
            and chk == checks.task(tc, rows, tot)
            and tc not in bad
            and stats.get(tc, [0, 0]) == [rows, tot]
        )
        if ok:
            good.add(tc)
    redo = [tc for tc in records if tc not in good]
    with con:
        for tc in redo:
            con.execute("DELETE FROM tasks WHERE code = ?", (tc,))
            if tc in plan.codes:
                for lo, hi in plan.ranges(tc):
                    con.execute("DELETE FROM prefixes WHERE code BETWEEN ? AND ?", (lo, hi))
        for k in range(0, len(orphans), CHUNK):
            con.executemany("DELETE FROM prefixes WHERE code = ?", [(c,) for c in orphans[k : k + CHUNK]])
    if redo:
        note(
            f"{len(redo)} finished task(s) of the interrupted build {part.name} failed their checks "
            "(stored counts edited or damaged); computing them again"
        )
    if orphans:
        note(f"{len(orphans)} stored count(s) in {part.name} belong to no finished task; dropped")
    return good


def _finish(
    problem: Problem,
    plan: Plan,
    con: sqlite3.Connection,
    checks: IndexChecks,
    part: Path,
    target: Path,
    threads: int,
    seconds: float,
    hint: str,
) -> None:
    """The final phase: check the counts, write ``X.sqlite.tmp``, sync it, rename it onto
    ``X.sqlite``."""
    want = total(problem, threads=threads)
    interrupt.check()
    ntasks, task_rows, task_sum = con.execute(
        "SELECT COUNT(*), COALESCE(SUM(rows), 0), COALESCE(SUM(total), 0) FROM tasks"
    ).fetchone()
    if ntasks != len(plan.tasks):
        raise InvalidIndex(f"the partial build {part} lacks {len(plan.tasks) - ntasks} task(s); run the build again")
    tmp = tmp_path(target)
    store.unlink(*store.db_files(tmp))
    t0 = time.perf_counter()
    out = store.connect(tmp)
    try:
        out.execute("PRAGMA journal_mode=OFF")  # a fresh file, renamed into place only when complete
        out.execute("PRAGMA synchronous=OFF")
        with store.transaction(out):
            store.create(out, FINAL_SCHEMA[:2])
            acc, rows, digest = _write_rows(out, con, checks, part, task_rows, task_sum)
            if acc != want:
                raise InvalidIndex(
                    f"the index counts add up to {acc}, but {problem.describe()} has {want} solutions; "
                    f"the build stays incomplete: {hint}"
                )
            interrupt.check()
            meta = {
                "version": str(SCHEMA_VERSION),
                "fingerprint": problem.fingerprint(),
                "problem": problem_json(problem),
                "n": str(problem.n),
                "depth": str(plan.d),
                "total": str(want),
                "rows": str(rows),
                "table_digest": digest,
                "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "seconds": f"{seconds + time.perf_counter() - t0:.3f}",
                "complete": "1",
            }
            store.create(out, FINAL_SCHEMA[2:], meta)
        out.execute("PRAGMA journal_mode=DELETE")
        out.close()
        store.publish(tmp, target)  # the complete index appears at once, or not at all
    finally:
        out.close()
        store.unlink(*store.db_files(tmp))


def _write_rows(
    out: sqlite3.Connection, con: sqlite3.Connection, checks: IndexChecks, part: Path, task_rows: int, task_sum: int
) -> tuple[int, int, str]:
    """Write the ``lex`` rows of the stored counts of the partial build (``con``) to
    ``out``, each count's check verified again and the sums held to the task records;
    return the total, the number of rows and the table digest."""
    digest = checks.table()
    acc = stored = rows = 0
    buf: list[tuple[int, int, int, int]] = []
    for code, cnt, chk in con.execute("SELECT code, cnt, chk FROM prefixes ORDER BY code"):
        if type(cnt) is not int or chk != checks.prefix(code, cnt):
            raise InvalidIndex(
                f"a stored count in {part} changed during the build; run the build again "
                "(it recomputes what fails its checks)"
            )
        stored += 1
        if cnt <= 0:
            continue
        buf.append((code, acc, cnt, checks.row(code, acc, cnt)))
        update_row(digest, code, acc, cnt)
        acc += cnt
        rows += 1
        if len(buf) >= CHUNK:
            out.executemany("INSERT INTO lex VALUES (?, ?, ?, ?)", buf)
            buf.clear()
            interrupt.check()
    out.executemany("INSERT INTO lex VALUES (?, ?, ?, ?)", buf)
    if stored != task_rows or acc != task_sum:
        raise InvalidIndex(
            f"the partial build {part} holds {stored} counts summing to {acc}, its tasks record "
            f"{task_rows} summing to {task_sum}; run the build again (it recomputes what fails its checks)"
        )
    return acc, rows, digest.hexdigest()


def build_index(
    problem: Problem,
    depth: int | None = None,
    *,
    directory=None,
    path=None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    rebuild: bool = False,
    force: bool = False,
    note: Note | None = None,
    client: Any = None,
) -> PrefixIndex:
    """Build (or resume, or reuse) the prefix-count index of ``problem``.

    Parameters
    ----------
    problem : Problem
    depth : int, optional
        Prefix length (default :func:`default_depth`).
    directory, path : optional
        Index directory, or an explicit file path.
    threads : int, optional
        Threads for counting (default: all cores).
    progress : callable, optional
        ``progress(done_tasks, total_tasks)`` after each committed task.
    rebuild : bool
        Delete an existing index (complete, partial or corrupt) and start afresh. A file
        that is not a queenslab index is refused all the same.
    force : bool
        Allow ``n > engine.PRACTICAL_LIMIT`` (a build counts every solution).
    client : distributed.Client, optional
        Count the build's tasks on this Dask cluster instead of local threads (each
        finished task is committed here, as on threads, so a build stays resumable).
    note : callable, optional
        ``note(message)`` for what the build wants to say on the way: waiting for
        another builder, tasks recomputed after failing their checks. Default: a
        ``RuntimeWarning``.

    Returns
    -------
    PrefixIndex
        The complete index (an existing complete index is returned as it is).

    Raises
    ------
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without ``force``.
    InvalidIndex
        If an existing file is damaged or for another problem (without ``rebuild``), is
        not a queenslab index (with or without ``rebuild``: a ledger, another
        application's database, not SQLite), or the counts do not add up to the
        problem's total (the build stays partial).
    QueensError
        If the index cannot be written where asked (the message names the path): a
        dangling symbolic link, a read-only file to replace, a name too long.
    KeyboardInterrupt
        On Ctrl-C (:class:`~queenslab.interrupt.Interrupted`); finished tasks stay in the
        partial file and the next build resumes from them.
    """
    check_problem(problem)
    if client is not None and not callable(getattr(client, "submit", None)):
        raise QueensError(f"client must be a distributed.Client, got {type(client).__name__}")
    threads = validate.threads(threads)
    rebuild = validate.flag(rebuild, "rebuild")
    d = check_depth(problem, depth)
    n = problem.n
    if n > 63:
        raise QueensError(f"an index is for exact ranking, n <= 63; got n = {n}")
    check_size(problem, force, "building an index")
    say: Note = note if note is not None else _warn
    target = index_target(problem, d, directory, path, rebuild)
    part = partial_path(target)
    hint = rebuild_hint(problem, d, target)
    if not rebuild and target.exists():
        idx = _reuse(target, problem, d)
        # a partial build left over from a build killed after its rename (never a file of another kind)
        if os.path.isfile(part) and store.identify(part).kind in REPLACEABLE:
            with BuildLock(target, say, wait=False) as lock:
                if lock.locked:
                    store.unlink(*store.db_files(part))
        return idx
    before = _file_id(target)
    t_start = time.perf_counter()
    with BuildLock(target, say) as lock:
        check_partial(part)
        if target.exists() and (not rebuild or (lock.waited and _file_id(target) != before)):
            # another builder finished it while we waited
            idx = _reuse(target, problem, d)
            store.unlink(*store.db_files(part))
            return idx
        if rebuild:
            store.unlink(*store.db_files(target), *store.db_files(part), *store.db_files(tmp_path(target)))
        checks = IndexChecks(problem.fingerprint(), d)
        plan = Plan(problem, d)
        meta0 = {
            "version": str(SCHEMA_VERSION),
            "fingerprint": problem.fingerprint(),
            "problem": problem_json(problem),
            "n": str(n),
            "depth": str(d),
            "tdepth": str(plan.tdepth),
            "tasks": str(len(plan.tasks)),
            "complete": "0",
        }
        con = _open_partial(part, meta0, say, hint)
        try:
            with sql_errors(part, "the partial build", hint):
                done = _verified_tasks(con, plan, checks, part, say)
                run_build_tasks(problem, plan, con, checks, done, threads, progress, client)
                _finish(problem, plan, con, checks, part, target, threads, time.perf_counter() - t_start, hint)
        finally:
            con.close()
        store.unlink(*store.db_files(part))
    return PrefixIndex.open(target, problem)
