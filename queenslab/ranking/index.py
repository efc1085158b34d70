"""The persistent prefix-count index: SQLite tables of subtree sizes for ranking.

For a problem and a depth ``d``, the index stores, for every valid prefix of ``d`` rows
with at least one completion, its number of solutions ``cnt`` and the number ``cum`` of
solutions under lexicographically smaller prefixes. Then

* ``rank(p) = cum(p[:d]) + (rank of p inside its subtree)``: one table look-up plus the
  left-sibling subtrees of rows ``d..n-1``;
* ``unrank(r)``: the prefix with the largest ``cum <= r`` (an index on ``cum``), then a
  walk down its subtree.

A prefix is keyed by the integer ``sum(p[i] * n**(d-1-i))``, whose numeric order is the
lexicographic order. Files live in the index directory -- ``$QUEENSLAB_INDEX_DIR``, else
the user cache directory (platformdirs), overridable per call -- named by the problem's
fingerprint and the depth.

Building (:func:`build_index`) counts the prefixes of each first-rows *task* on threads
and commits each finished task with its rows, so an interrupted build resumes where it
stopped. When the problem is symmetric under ``c -> n-1-c`` only the left half is
counted: the mirror of a prefix has the key ``n**d - 1 - key`` and the same count. At
the end the sum of all counts must equal the problem's total (the OEIS value for the
standard problem, else a separate native count); only then is the index marked complete
and a SHA-256 checksum of the file written beside it (``<file>.sha256``). An index that
is incomplete, fails its checksum (modified or truncated) or belongs to another problem
is refused with :class:`~queenslab.errors.InvalidIndex`, never served.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import datetime, timezone
from pathlib import Path

from .. import validate
from ..d4 import D4Element
from ..errors import InvalidIndex, QueensError
from ..native import engine
from ..problem import Problem
from .walk import rank_walk, total, unrank_walk

__all__ = [
    "ENV_VAR",
    "SCHEMA_VERSION",
    "index_dir",
    "default_depth",
    "index_path",
    "PrefixIndex",
    "build_index",
    "find_index",
    "list_indexes",
    "resolve",
]

ENV_VAR = "QUEENSLAB_INDEX_DIR"
SCHEMA_VERSION = 1
_CMPL = D4Element(cmpl=True)


def index_dir(directory: str | os.PathLike | None = None) -> Path:
    """The index directory: ``directory``, else ``$QUEENSLAB_INDEX_DIR``, else the user
    cache directory of queenslab (``platformdirs.user_cache_dir``) / ``index``."""
    if directory is not None:
        return Path(directory)
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    import platformdirs

    return Path(platformdirs.user_cache_dir("queenslab")) / "index"


def default_depth(n: int) -> int:
    """Prefix depth used when none is given: ``max(2, n // 2 - 4)``, at most ``n - 1``;
    subtrees of a few hundred to a few thousand solutions for n = 12..20.

    Examples
    --------
    >>> [default_depth(n) for n in (3, 8, 12, 16, 18, 20)]
    [2, 2, 2, 4, 5, 6]
    """
    return max(min(2, n - 1), min(n - 1, n // 2 - 4), 1) if n > 1 else 1


def index_path(problem: Problem, depth: int, directory=None) -> Path:
    """Where the index of ``problem`` at ``depth`` lives."""
    return index_dir(directory) / f"{problem.fingerprint()[:20]}-n{problem.n}-d{depth}.sqlite"


def _encode(prefix: Sequence[int], n: int) -> int:
    code = 0
    for c in prefix:
        code = code * n + int(c)
    return code


def _decode(code: int, n: int, d: int) -> list[int]:
    out = [0] * d
    for i in range(d - 1, -1, -1):
        code, out[i] = divmod(code, n)
    return out


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _write_sidecar(path: Path) -> None:
    st = path.stat()
    _sidecar(path).write_text(
        json.dumps({"sha256": _sha256(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}) + "\n"
    )


def _verify_checksum(path: Path) -> None:
    side = _sidecar(path)
    rebuild = f"rebuild it with `queenslab index build` (it is replaced) or delete {path}"
    try:
        rec = json.loads(side.read_text())
    except (OSError, ValueError):
        raise InvalidIndex(f"index {path} has no valid checksum file {side.name}; {rebuild}") from None
    st = path.stat()
    if st.st_size == rec.get("size") and st.st_mtime_ns == rec.get("mtime_ns"):
        return  # unchanged since the checksum was taken
    if st.st_size != rec.get("size"):
        raise InvalidIndex(
            f"index {path} has been truncated or extended ({st.st_size} bytes, {rec.get('size')} when built); {rebuild}"
        )
    if _sha256(path) != rec.get("sha256"):
        raise InvalidIndex(f"index {path} has been modified (checksum mismatch); {rebuild}")


def _connect(path: Path, *, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    else:
        con = sqlite3.connect(str(path), check_same_thread=False)
    return con


def _meta(con: sqlite3.Connection) -> dict:
    try:
        return {k: v for k, v in con.execute("SELECT key, value FROM meta")}
    except sqlite3.DatabaseError as e:
        raise InvalidIndex(f"not a readable queenslab index ({e})") from None


class PrefixIndex:
    """A complete, verified prefix-count index opened for queries.

    Use :meth:`open` (or :func:`find_index`, :func:`build_index`) to get one.

    Attributes
    ----------
    path : Path
    problem : Problem
    depth : int
    total : int
        Number of solutions of the problem.
    rows : int
        Prefixes with at least one solution.
    """

    def __init__(self, path: Path, con: sqlite3.Connection, meta: dict, problem: Problem):
        self.path = path
        self._con = con
        self.meta = meta
        self.problem = problem
        self.depth = int(meta["depth"])
        self.total = int(meta["total"])
        self.rows = int(meta["rows"])

    @classmethod
    def open(cls, path, problem: Problem | None = None) -> PrefixIndex:
        """Open and verify the index at ``path``.

        Raises
        ------
        InvalidIndex
            If the file is missing, incomplete, fails its checksum, or was built for a
            different problem than ``problem``.
        """
        path = Path(path)
        if not path.is_file():
            raise InvalidIndex(f"no index file at {path}; build one with `queenslab index build`")
        if _sidecar(path).exists():
            _verify_checksum(path)  # first: a damaged file may not even open as SQLite
        con = _connect(path, readonly=True)
        meta = _meta(con)
        if meta.get("complete") != "1":
            con.close()
            raise InvalidIndex(
                f"index {path} is incomplete (an interrupted build); run `queenslab index build` "
                "again with the same arguments to resume it"
            )
        if int(meta.get("version", -1)) != SCHEMA_VERSION:
            con.close()
            raise InvalidIndex(
                f"index {path} has schema version {meta.get('version')}, expected {SCHEMA_VERSION}; rebuild it"
            )
        _verify_checksum(path)  # a complete index without its checksum file is refused too
        stored = Problem.from_dict(json.loads(meta["problem"]))
        if problem is not None and stored.fingerprint() != problem.fingerprint():
            con.close()
            raise InvalidIndex(f"index {path} was built for {stored.describe()}, not for {problem.describe()}")
        return cls(path, con, meta, stored)

    def close(self) -> None:
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def check_problem(self, problem: Problem) -> None:
        if problem.fingerprint() != self.problem.fingerprint():
            raise InvalidIndex(
                f"index {self.path} was built for {self.problem.describe()}, not for {problem.describe()}"
            )

    def prefix_count(self, prefix: Sequence[int]) -> tuple[int | None, int]:
        """``(cum, cnt)`` of a depth-``d`` prefix (``(None, 0)`` when it has no solution)."""
        row = self._con.execute(
            "SELECT cum, cnt FROM lex WHERE code = ?", (_encode(prefix, self.problem.n),)
        ).fetchone()
        return (None, 0) if row is None else (int(row[0]), int(row[1]))

    def rank(self, placement: Sequence[int], *, threads: int | None = None) -> int:
        """0-based rank of a solution (validated by :func:`queenslab.ranking.lex.rank`)."""
        d = self.depth
        cum, _ = self.prefix_count(placement[:d])
        if cum is None:
            raise InvalidIndex(
                f"index {self.path} has no entry for a solution's prefix: it is inconsistent; rebuild it"
            )
        return rank_walk(self.problem, placement, d, cum, 1)

    def unrank(self, r: int, *, threads: int | None = None) -> tuple[int, ...]:
        """The solution of 0-based rank ``r`` (``0 <= r < total``)."""
        row = self._con.execute(
            "SELECT code, cum FROM lex WHERE cum <= ? ORDER BY cum DESC LIMIT 1", (int(r),)
        ).fetchone()
        prefix = _decode(int(row[0]), self.problem.n, self.depth)
        return unrank_walk(self.problem, int(r) - int(row[1]), self.total, prefix, 1)

    def info(self) -> dict:
        """n, depth, total, rows, size on disk, path, problem, built date."""
        return {
            "path": str(self.path),
            "n": self.problem.n,
            "depth": self.depth,
            "total": self.total,
            "rows": self.rows,
            "bytes": self.path.stat().st_size,
            "problem": self.problem.to_dict(one_based=True),
            "built": self.meta.get("built"),
            "seconds": float(self.meta.get("seconds", 0)),
            "status": "complete",
        }


def _problem_json(problem: Problem) -> str:
    return json.dumps(problem.to_dict(), sort_keys=True)


def _check_depth(problem: Problem, depth) -> int:
    if depth is None:
        return default_depth(problem.n)
    top = max(1, problem.n - 1)
    d = validate.whole_number(depth, "depth")
    if d > top:
        raise QueensError(f"depth must be an integer in 1..{top} for n = {problem.n}, got {depth!r}")
    return d


def build_index(
    problem: Problem,
    depth: int | None = None,
    *,
    directory=None,
    path=None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    rebuild: bool = False,
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
        Delete an existing file (complete, partial or corrupt) and start afresh.

    Returns
    -------
    PrefixIndex
        The complete, verified index.

    Raises
    ------
    InvalidIndex
        If the counts do not add up to the problem's total (the file stays incomplete).
    """
    engine.check_problem(problem)
    threads = validate.threads(threads)
    d = _check_depth(problem, depth)
    n = problem.n
    if n > 63:
        raise QueensError(f"an index is for exact ranking, n <= 63; got n = {n}")
    path = Path(path) if path is not None else index_path(problem, d, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    if rebuild:
        for p in (path, _sidecar(path), path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if p.exists():
                p.unlink()
    if path.exists():
        con = sqlite3.connect(str(path))
        meta = _meta(con)
        con.close()
        if meta.get("fingerprint") != problem.fingerprint() or int(meta.get("depth", -1)) != d:
            raise InvalidIndex(
                f"{path} holds an index for another problem or depth; pass rebuild=True (--rebuild) to replace it"
            )
        if meta.get("complete") == "1":
            return PrefixIndex.open(path, problem)
    t_start = time.perf_counter()
    con = sqlite3.connect(str(path), check_same_thread=False)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.executescript(
        """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS tasks (code INTEGER PRIMARY KEY);
        """
    )
    meta = {
        "version": str(SCHEMA_VERSION),
        "fingerprint": problem.fingerprint(),
        "problem": _problem_json(problem),
        "n": str(n),
        "depth": str(d),
        "complete": "0",
    }
    with con:
        con.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", meta.items())
    done = {row[0] for row in con.execute("SELECT code FROM tasks")}

    mirror = any(g == _CMPL for g in problem.symmetries()) and n > 1
    tdepth = min(d, 2 if n >= 8 else 1)
    task_prefixes = [tuple(int(x) for x in row) for arr in engine.prefix_batches(problem, tdepth) for row in arr]
    half = (n - 1) // 2
    if mirror:
        task_prefixes = [t for t in task_prefixes if t[0] <= half]
    todo = [t for t in task_prefixes if _encode(t, n) not in done]
    counter = engine.PrefixCounter(problem)
    top = n**d - 1

    def run_task(t):
        rows = []
        for arr in engine.prefix_batches(problem, d, prefix=t):
            for pre in arr.tolist():
                rows.append((_encode(pre, n), counter.count(pre)[0]))
        if mirror and not (n % 2 == 1 and t[0] == half):
            rows += [(top - code, cnt) for code, cnt in rows]
        return t, rows

    finished = len(task_prefixes) - len(todo)
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queenslab-index")
    try:
        futures = [pool.submit(run_task, t) for t in todo]
        for fut in as_completed(futures):
            t, rows = fut.result()
            with con:  # one transaction per finished task: rows and the task mark together
                con.executemany("INSERT OR REPLACE INTO prefixes VALUES (?, ?)", rows)
                con.execute("INSERT INTO tasks VALUES (?)", (_encode(t, n),))
            finished += 1
            if progress:
                progress(finished, len(task_prefixes))
    except BaseException:
        con.close()  # what was committed stays; the next build resumes from it
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    want = total(problem, threads=threads)
    got = con.execute("SELECT COALESCE(SUM(cnt), 0) FROM prefixes").fetchone()[0]
    if got != want:
        con.close()
        raise InvalidIndex(
            f"the index counts add up to {got}, but {problem.describe()} has {want} solutions; "
            f"the file {path} stays incomplete: rebuild it with rebuild=True (--rebuild)"
        )
    with con:
        con.executescript(
            """
            DROP TABLE IF EXISTS lex;
            CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL);
            INSERT INTO lex
                SELECT code, SUM(cnt) OVER (ORDER BY code ROWS UNBOUNDED PRECEDING) - cnt, cnt
                FROM prefixes WHERE cnt > 0 ORDER BY code;
            CREATE UNIQUE INDEX lex_cum ON lex (cum);
            """
        )
        rows = con.execute("SELECT COUNT(*) FROM lex").fetchone()[0]
        final = {
            "total": str(want),
            "rows": str(rows),
            "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "seconds": f"{time.perf_counter() - t_start:.3f}",
            "complete": "1",
        }
        con.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", final.items())
        con.execute("DROP TABLE prefixes")
        con.execute("DROP TABLE tasks")
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("VACUUM")
    con.close()
    _write_sidecar(path)
    return PrefixIndex.open(path, problem)


def find_index(problem: Problem, directory=None) -> PrefixIndex | None:
    """The complete index of ``problem`` in the index directory (the deepest if several),
    or None. An incomplete one is skipped; a corrupt one raises :class:`InvalidIndex`."""
    base = index_dir(directory)
    if not base.is_dir():
        return None
    prefix = f"{problem.fingerprint()[:20]}-n{problem.n}-d"
    candidates = sorted(base.glob(prefix + "*.sqlite"), key=lambda p: -int(p.stem.rsplit("-d", 1)[1]))
    for path in candidates:
        if _sidecar(path).exists():
            _verify_checksum(path)
        con = _connect(path, readonly=True)
        try:
            complete = _meta(con).get("complete") == "1"
        finally:
            con.close()
        if complete:
            return PrefixIndex.open(path, problem)
    return None


def resolve(problem: Problem, path=None, *, no_index: bool = False):
    """The ``index`` argument of the ranking functions from a user's choice.

    Parameters
    ----------
    problem : Problem
    path : str or path, optional
        A ``.sqlite`` file (opened and verified), or a directory searched for a complete
        index of ``problem``; None means ``"auto"`` (the default directory, if any).
    no_index : bool, default False
        Never use an index (returns None).

    Raises
    ------
    QueensError
        When both ``path`` and ``no_index`` are given.
    InvalidIndex
        When a named directory has no complete index of ``problem``, or a named file is
        not a valid index of it.
    """
    if no_index:
        if path is not None:
            raise QueensError("--index and --no-index contradict each other")
        return None
    if path is None:
        return "auto"
    p = Path(path)
    if p.is_dir() or not p.suffix:
        found = find_index(problem, p)
        if found is None:
            raise InvalidIndex(
                f"no complete index for {problem.describe()} in {p}; build one with `queenslab index build`"
            )
        return found
    return PrefixIndex.open(p, problem)


def list_indexes(directory=None) -> list[dict]:
    """Every index file in the directory: path, bytes, status, and (None when the file
    cannot be read) n, depth, total, rows, problem (1-based dict form), built."""
    base = index_dir(directory)
    out: list[dict] = []
    if not base.is_dir():
        return out
    for path in sorted(base.glob("*.sqlite")):
        # the same keys for every file; what could not be read is None
        entry: dict = dict.fromkeys(("n", "depth", "total", "rows", "problem", "built", "status"))
        entry.update({"path": str(path), "bytes": path.stat().st_size})
        if _sidecar(path).exists():
            try:
                _verify_checksum(path)
            except InvalidIndex as e:
                entry["status"] = f"corrupt: {e}"
                out.append(entry)
                continue
        try:
            con = _connect(path, readonly=True)
            meta = _meta(con)
            con.close()
        except (InvalidIndex, sqlite3.DatabaseError) as e:
            entry.update({"status": f"unreadable: {e}"})
            out.append(entry)
            continue
        problem = Problem.from_dict(json.loads(meta["problem"]))
        entry.update(
            {
                "n": int(meta["n"]),
                "depth": int(meta["depth"]),
                "total": int(meta["total"]) if "total" in meta else None,
                "rows": int(meta["rows"]) if "rows" in meta else None,
                "problem": problem.to_dict(one_based=True),
                "built": meta.get("built"),
            }
        )
        if meta.get("complete") != "1":
            entry["status"] = "incomplete (resume with index build)"
        else:
            try:
                _verify_checksum(path)
                entry["status"] = "complete"
            except InvalidIndex as e:
                entry["status"] = f"corrupt: {e}"
        out.append(entry)
    return out
