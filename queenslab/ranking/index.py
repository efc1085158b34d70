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

**Checks inside the file.** Every row of the ``lex`` table carries its own check ``chk``
(63 bits of a keyed BLAKE2b of the problem's fingerprint, the depth, ``code``, ``cum``
and ``cnt``), recomputed on every look-up; an unrank also requires ``0 <= r - cum <
cnt`` of the row it lands on, so a deleted row cannot send it into a wrong subtree. The
``meta`` table holds a digest of itself, the row count, the total and a digest of the
whole table. Opening checks the SQLite header against the file size, the meta digest,
the row count and the first and last rows (cheap); :meth:`PrefixIndex.verify` checks
everything (every row check, the ``cum`` chain, the total, the table digest, SQLite's
integrity check) and can recount random prefixes with the engine. File metadata (size,
modification time) is never trusted. An index that fails a check is refused with
:class:`~queenslab.errors.InvalidIndex` saying what is wrong and how to rebuild it.

**Files that are not an index.** A file queenslab did not make as an index is never
discarded: a build (with or without ``rebuild``) and a look-up refuse it and say what it is
-- a queenslab ledger, an SQLite database of another application (naming some of its
tables), not SQLite at all. ``rebuild`` replaces only a queenslab index (of any problem,
depth or schema version, damaged or not, recognised by its tables or its meta keys), a
partial build, or a file with nothing in it. The index's path follows the one policy of
:func:`~queenslab.outfile.output_target` (a symbolic link only to an existing file, no
read-only file replaced), and its name must leave room for the files a build writes next
to it (``X.sqlite.partial.new-journal``).

**Building** (:func:`build_index`) happens in a working file ``X.sqlite.partial`` (WAL
mode): the prefixes of each first-rows *task* are counted on threads and each finished
task is committed with its rows, each row with its own check and the task with its row
count and sum (and their check), so an interrupted build (Ctrl-C, or a killed process)
resumes where it stopped. A resumed build first verifies the tasks it did not compute
itself and recomputes any that fail. When the problem is symmetric under
``c -> n-1-c`` only the left half is counted: the mirror of a prefix has the key
``n**d - 1 - key`` and the same count. In the final phase the counts must add up to the
problem's total (the OEIS value for the standard problem, else a separate native count);
then the ``lex`` table is written to ``X.sqlite.tmp``, synced to disk and renamed onto
``X.sqlite`` (an atomic replacement), and the partial file is deleted. So ``X.sqlite``
only ever exists complete, and is never modified once in place; a build killed before
the rename redoes only the final phase.

**Concurrency.** One builder at a time per file: the builder holds an exclusive lock on
``X.sqlite.lock`` (``fcntl.flock``; ``msvcrt.locking`` on Windows) holding its process
id; a second builder reports "being built by PID ..., waiting" and, once the first is
done, returns the finished index. Readers only ever open complete, immutable files;
listing a partial build reads a consistent WAL snapshot.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path
from random import Random
from typing import Any

from .. import interrupt, validate
from ..d4 import D4Element
from ..data import known_total
from ..errors import InvalidIndex, QueensError
from ..native import engine
from ..outfile import output_target
from ..problem import Problem
from .walk import WalkMismatch, as_solution, check_problem, check_rank, check_size, rank_walk, total, unrank_walk

try:  # POSIX
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows
    _fcntl = None  # type: ignore[assignment]

__all__ = [
    "ENV_VAR",
    "SCHEMA_VERSION",
    "index_dir",
    "default_depth",
    "index_path",
    "partial_path",
    "holder_pid",
    "PrefixIndex",
    "build_index",
    "find_index",
    "list_indexes",
    "resolve",
]

ENV_VAR = "QUEENSLAB_INDEX_DIR"
#: Version 2: row checks, meta and table digests inside the file, atomic completion.
SCHEMA_VERSION = 2
_CMPL = D4Element(cmpl=True)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_CHUNK = 8192  # rows per executemany / between interrupt checks
_BUSY_SECONDS = 30.0

Note = Callable[[str], None]

# The schemas, one statement each, as SQLite stores them: a file whose schema differs
# (a table or key changed by hand or by damage) is refused.
_META_TABLE = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_FINAL_SCHEMA = (
    _META_TABLE,
    "CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL, chk INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX lex_cum ON lex (cum)",
)
_PARTIAL_SCHEMA = (
    _META_TABLE,
    "CREATE TABLE prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL, chk INTEGER NOT NULL)",
    "CREATE TABLE tasks (code INTEGER PRIMARY KEY, rows INTEGER NOT NULL, total INTEGER NOT NULL, chk INTEGER NOT NULL)",
)


def _schema(con: sqlite3.Connection) -> set[str]:
    return {str(sql) for (sql,) in con.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}


def index_dir(directory: str | os.PathLike | None = None) -> Path:
    """The index directory: ``directory``, else ``$QUEENSLAB_INDEX_DIR``, else the user
    cache directory of queenslab (``platformdirs.user_cache_dir``) / ``index``."""
    if directory is not None:
        return validate.path(directory, "the index directory")
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    import platformdirs

    return Path(platformdirs.user_cache_dir("queenslab")) / "index"


def _max_key_depth(n: int) -> int:
    """The largest depth whose prefix keys ``< n**d`` fit a signed 64-bit SQLite integer."""
    if n < 2:
        return 1 << 30
    d = 0
    while n ** (d + 1) < 2**63:
        d += 1
    return d


def default_depth(n: int) -> int:
    """Prefix depth used when none is given: ``max(2, n // 2 - 4)``, at most ``n - 1``
    (and small enough for 64-bit keys); subtrees of a few hundred to a few thousand
    solutions for n = 12..20.

    Examples
    --------
    >>> [default_depth(n) for n in (3, 8, 12, 16, 18, 20)]
    [2, 2, 2, 4, 5, 6]
    """
    n = validate.whole_number(n, "n")
    d = max(min(2, n - 1), min(n - 1, n // 2 - 4), 1) if n > 1 else 1
    return min(d, _max_key_depth(n))


def index_path(problem: Problem, depth: int, directory=None) -> Path:
    """Where the index of ``problem`` at ``depth`` lives."""
    check_problem(problem)
    depth = _check_depth(problem, depth)
    return index_dir(directory) / f"{problem.fingerprint()[:20]}-n{problem.n}-d{depth}.sqlite"


def partial_path(path: str | os.PathLike) -> Path:
    """The working file of a build of the index at ``path`` (``X.sqlite.partial``)."""
    p = Path(path)
    return p.with_name(p.name + ".partial")


def _tmp_path(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


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


# ------------------------------------------------------------------------ checks


class _Checks:
    """The checks stored in an index, keyed by the problem's fingerprint and the depth,
    so a row copied from another index fails too."""

    def __init__(self, fingerprint: str, depth: int):
        self.key = hashlib.sha256(f"queenslab-index\0{fingerprint}\0{depth}".encode()).digest()
        self._h = hashlib.blake2b(digest_size=8, key=self.key)

    def _of(self, text: str) -> int:
        h = self._h.copy()
        h.update(text.encode())
        return int.from_bytes(h.digest(), "big") >> 1  # 63 bits: a non-negative SQLite integer

    def row(self, code: int, cum: int, cnt: int) -> int:
        """Check of a ``lex`` row."""
        return self._of(f"L{code},{cum},{cnt}")

    def prefix(self, code: int, cnt: int) -> int:
        """Check of a stored count of a partial build."""
        return self._of(f"P{code},{cnt}")

    def task(self, code: int, rows: int, total: int) -> int:
        """Check of a finished task's record (its row count and sum)."""
        return self._of(f"T{code},{rows},{total}")

    def table(self) -> Any:
        """A running digest of the ``lex`` rows in code order (``update_row``)."""
        return hashlib.blake2b(digest_size=32, key=self.key)


def _update_row(h: Any, code: int, cum: int, cnt: int) -> None:
    h.update(f"{code},{cum},{cnt};".encode())


def _meta_digest(meta: dict) -> str:
    body = json.dumps(sorted((k, v) for k, v in meta.items() if k != "meta_digest"))
    return hashlib.sha256(body.encode()).hexdigest()


def _header_problem(path: Path) -> str | None:
    """What is wrong with the SQLite header of ``path`` given its size (None if nothing)."""
    with open(path, "rb") as fh:
        head = fh.read(100)
    size = path.stat().st_size
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        return "is not an SQLite database"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and pages and size != pages * page:
        return (
            f"has {size} bytes, but its SQLite header says {pages} pages of {page} bytes "
            f"({pages * page} bytes): it was truncated or extended"
        )
    return None


# ------------------------------------------------------------- what a file is

#: The start of the statements that create the tables only an index (complete, of any
#: schema version, or a partial build) has: how an index is recognised, damaged or not.
_INDEX_MARKS = {
    "lex": "CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL",
    "prefixes": "CREATE TABLE prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL",
}
_INDEX_TABLES = frozenset({"meta", "lex", "prefixes", "tasks"})
#: The keys of an index's meta table (complete or partial, every schema version).
_INDEX_KEYS = frozenset({"version", "fingerprint", "problem", "n", "depth", "complete"})
#: What marks a queenslab ledger (:mod:`queenslab.distributed.ledger`): its meta format
#: and its table of tasks.
_LEDGER_FORMAT = "queenslab-ledger"
_LEDGER_MARKS = (b"queenslab-ledger", b"CREATE TABLE tasks (id INTEGER PRIMARY KEY, count INTEGER NOT NULL")
_SCAN_BYTES = 1 << 16
#: The longest suffix of the files a build writes next to the index: ``X.partial.new``
#: with SQLite's ``-journal``.
_SIDE_SUFFIX = ".partial.new-journal"


def _name_max(directory: Path) -> tuple[int, int]:
    """The longest file name and path the file system of ``directory`` allows."""
    try:
        return os.pathconf(directory, "PC_NAME_MAX"), os.pathconf(directory, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or no such directory
        return 255, 4096


def _short(path: object) -> str:
    """A path for a message: a long one by its start and end."""
    text = str(path)
    return repr(text if len(text) <= 80 else f"{text[:40]}...{text[-30:]}")


def _too_long(path: Path, extra: str = "") -> tuple[str, str] | None:
    """Why ``path`` cannot be a file name here, and what to do; None if it can be.

    With ``extra``, the name with ``extra`` appended must be allowed too (the files a
    build writes next to the index)."""
    parent = path.parent
    name_max, path_max = _name_max(parent if os.path.isdir(parent) else Path("."))
    size = len(os.fsencode(path.name))
    if size > name_max:
        return (
            f"the file name has {size} bytes, more than the {name_max} this file system allows",
            f"give a name of at most {name_max - len(extra)} bytes",
        )
    if size + len(extra) > name_max:
        return (
            f"the file name has {size} bytes, and building an index also writes files named NAME{extra} next to "
            f"it ({len(extra)} bytes more), more than the {name_max} this file system allows",
            f"give a name of at most {name_max - len(extra)} bytes",
        )
    if len(os.fsencode(os.path.abspath(path))) + len(extra) >= path_max:
        return f"the path is longer than the {path_max - len(extra) - 1} bytes allowed", "give a shorter path"
    return None


def _identify(path: Path) -> tuple[str, str]:
    """What the existing file at ``path`` is: ``(kind, description)``.

    ``kind`` is ``"index"`` (a queenslab index of any problem, depth or schema version,
    damaged or not), ``"partial"`` (the working file of an index build), ``"empty"``
    (nothing in it: an empty file, an SQLite database without tables), or -- files an
    index build never replaces -- ``"ledger"``, ``"foreign"`` (an SQLite database of
    another application), ``"not-sqlite"`` or ``"unreadable"``. The description completes
    the sentence "``path`` ...". Nothing is written: the file is read as an immutable
    database (no journal or lock files are created next to it).
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SCAN_BYTES)
    except OSError as e:
        raise QueensError(f"cannot read {path}: {e.strerror or e}") from None
    if not head:
        return "empty", "is an empty file"
    if not head.startswith(_SQLITE_MAGIC) or len(head) < 100:
        return "not-sqlite", "is not an SQLite file"
    tables: dict[str, str] = {}
    keys: set[str] = set()
    entries = 0
    try:
        # with a write-ahead log present the tables may be in it: read it too (the log
        # and its index exist already); else read the file alone, as it is on disk
        wal = os.path.exists(path.with_name(path.name + "-wal"))
        uri = path.resolve().as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
        con = sqlite3.connect(uri, uri=True, timeout=_BUSY_SECONDS)
        try:
            for kind, name, sql in con.execute("SELECT type, name, sql FROM sqlite_master"):
                entries += 1
                if kind == "table":
                    tables[str(name)] = str(sql)
            if "meta" in tables:
                with suppress(sqlite3.Error, UnicodeDecodeError):  # a table of another shape
                    keys = {str(k) for (k,) in con.execute("SELECT key FROM meta LIMIT 100")}
                    row = con.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
                    keys.discard("format")
                    if row:
                        keys.add(f"format={row[0]}")
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError, OSError) as e:
        # the schema page is damaged: recognise the file by the text of its schema
        if any(mark in head for mark in _LEDGER_MARKS):
            return "ledger", f"is a damaged queenslab ledger (the record of a resumable count; {e})"
        if any(mark.encode() in head for mark in _INDEX_MARKS.values()):
            return "index", "is a damaged queenslab index"
        return "unreadable", f"is an SQLite file whose tables cannot be read ({e})"
    names = sorted(tables)
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "") or "none"
    # a damaged index may have lost the start of a table's statement, or its meta table: one suffices
    marked = [t for t, mark in _INDEX_MARKS.items() if tables.get(t, "").startswith(mark)]
    if keys >= _INDEX_KEYS:
        marked += [t for t in ("lex", "prefixes") if t in tables and t not in marked] or ["meta"]
    if f"format={_LEDGER_FORMAT}" in keys:
        return "ledger", (
            f"is a queenslab ledger (the record of a resumable count: its meta table has format {_LEDGER_FORMAT!r})"
        )
    if tables.get("tasks", "").encode().startswith(_LEDGER_MARKS[1]):
        return "ledger", "is a queenslab ledger (the record of a resumable count: it has a ledger's tasks table)"
    if not entries:
        return "empty", "is an SQLite database without tables"
    if marked and set(names) <= _INDEX_TABLES:
        if "prefixes" in marked:
            return "partial", "is the working file of an index build"
        return "index", "is a queenslab index"
    if marked:
        return "foreign", f"is an SQLite database with the tables of a queenslab index and others (its tables: {shown})"
    return "foreign", f"is an SQLite database of another application (its tables: {shown})"


#: The kinds of file an index build may replace (with --rebuild) or start over.
_REPLACEABLE = ("index", "partial", "empty")


def _not_an(path: Path, kind: str, what: str, thing: str = "a queenslab index") -> str:
    """The sentence saying that the file at ``path`` (of ``_identify``'s kind and
    description) is not ``thing``."""
    if kind == "not-sqlite":
        return f"{path} is not an SQLite file, so not {thing}"
    if kind == "unreadable":
        return f"{path} {what}, so it cannot be recognised as {thing} (if it is a damaged one, delete it yourself)"
    return f"{path} {what}, not {thing}"


def _rebuild_hint(problem: Problem | None, depth: int | None, path: Path) -> str:
    if problem is None:
        return f"rebuild it with `queenslab index build ... --rebuild` (the same problem and depth) or delete {path}"
    flags = "" if problem.is_standard else f" with the variant flags of {problem.describe()}"
    return (
        f"rebuild it with `queenslab index build {problem.n} --depth {depth} --rebuild`{flags} "
        f"(build_index(..., rebuild=True)) or delete {path}"
    )


# ------------------------------------------------------------------- connections


def _connect_ro(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    uri = path.resolve().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")
    con = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=_BUSY_SECONDS)
    return con


def _connect_rw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path), check_same_thread=False, timeout=_BUSY_SECONDS)


@contextmanager
def _sql(path: Path, what: str, hint: str = "") -> Iterator[None]:
    """Turn sqlite3 errors into InvalidIndex naming the file (and OSError into QueensError)."""
    try:
        yield
    except (sqlite3.Error, UnicodeDecodeError) as e:  # a damaged text cell may not decode
        raise InvalidIndex(f"index {path}: {what} failed ({e}){'; ' + hint if hint else ''}") from None
    except OSError as e:
        raise QueensError(f"index {path}: {what} failed ({e.strerror or e})") from None


def _read_meta(con: sqlite3.Connection, path: Path) -> dict:
    with _sql(path, "reading its meta table", _rebuild_hint(None, None, path)):
        return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta")}


def _unlink(*paths: Path) -> None:
    for p in paths:
        with suppress(FileNotFoundError):
            p.unlink()


def _db_files(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - not supported on every file system
        pass
    finally:
        os.close(fd)


# -------------------------------------------------------------------- the index


class PrefixIndex:
    """A complete prefix-count index opened for queries, its cheap checks passed.

    Use :meth:`open` (or :func:`find_index`, :func:`build_index`) to get one. Every
    look-up checks the row it reads; :meth:`verify` checks the whole file.

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
        self._checks = _Checks(problem.fingerprint(), self.depth)
        self._hint = _rebuild_hint(problem, self.depth, path)

    @classmethod
    def open(cls, path, problem: Problem | None = None) -> PrefixIndex:
        """Open the index at ``path`` and run the cheap checks.

        Checked: the SQLite header against the file size, the schema version, the
        completeness mark, the digest of the meta table, the problem and depth it was
        built for, the row count, and the first and last rows (their checks, ``cum = 0``
        first and ``cum + cnt = total`` last).

        Raises
        ------
        InvalidIndex
            If the file is missing, incomplete, fails a check, has an older schema, was
            built for a different problem than ``problem``, or is not an index (the
            message says what it is: a ledger, another application's database, ...).
        """
        if problem is not None:
            check_problem(problem)
        path = validate.path(path, "the index file")
        long = _too_long(path)
        if long:
            raise InvalidIndex(f"the index file {_short(path)}: {long[0]}, so no index has that name")
        if not os.path.isfile(path):
            if path.name and os.path.exists(partial_path(path)):
                raise InvalidIndex(
                    f"index {path} is incomplete (an interrupted build, {partial_path(path).name}); "
                    "run `queenslab index build` again with the same arguments to resume it"
                )
            raise InvalidIndex(f"no index file at {path}; build one with `queenslab index build`")
        with _sql(path, "opening it"):
            bad = _header_problem(path)
            with open(path, "rb") as fh:
                wal = fh.read(20)[18:20] == b"\x02\x02"  # an index is never in WAL mode: not one
        if bad or wal:
            cls._refuse_other(path)
        if bad == "is not an SQLite database":
            raise InvalidIndex(
                f"{path} is not a queenslab index (not an SQLite database); give an index file or directory "
                "made by `queenslab index build`"
            )
        if bad:
            raise InvalidIndex(f"{path} {bad}; {_rebuild_hint(None, None, path)}")
        with _sql(path, "opening it", _rebuild_hint(None, None, path)):
            con = _connect_ro(path)
        try:
            with _sql(path, "reading its schema", _rebuild_hint(None, None, path)):
                schema = _schema(con)
            if schema != set(_FINAL_SCHEMA):
                cls._refuse_other(path)
                try:
                    version = _read_meta(con, path).get("version")
                except InvalidIndex:
                    version = None
                if version is not None and version != str(SCHEMA_VERSION):
                    cls._check_meta(path, {"version": version})  # says which version, and to rebuild
                raise InvalidIndex(
                    f"index {path}: its tables were changed (by hand or by damage); "
                    "rebuild it with `queenslab index build ... --rebuild` (the same problem and depth)"
                )
            meta = _read_meta(con, path)
            stored = cls._check_meta(path, meta)
            if problem is not None and stored.fingerprint() != problem.fingerprint():
                raise InvalidIndex(f"index {path} was built for {stored.describe()}, not for {problem.describe()}")
            idx = cls(path, con, meta, stored)
            idx._cheap_checks()
        except BaseException:
            con.close()
            raise
        return idx

    @staticmethod
    def _refuse_other(path: Path) -> None:
        """Raise InvalidIndex saying what the file at ``path`` is, unless it is an index."""
        kind, what = _identify(path)
        if kind == "partial":
            raise InvalidIndex(
                f"{path} {what}, not a complete index; run the `queenslab index build` that made it again "
                "to finish the build"
            )
        if kind != "index":
            raise InvalidIndex(
                f"{_not_an(path, kind, what)}; give an index file or directory made by `queenslab index build`"
            )

    @staticmethod
    def _check_meta(path: Path, meta: dict) -> Problem:
        generic = _rebuild_hint(None, None, path)
        version = meta.get("version")
        if version != str(SCHEMA_VERSION):
            raise InvalidIndex(
                f"index {path} has schema version {version}, this queenslab reads version {SCHEMA_VERSION} "
                f"(checks stored inside the file); {generic}"
            )
        if meta.get("complete") != "1":
            raise InvalidIndex(f"index {path} is not marked complete; {generic}")
        if meta.get("meta_digest") != _meta_digest(meta):
            raise InvalidIndex(f"index {path}: its meta table was modified (digest mismatch); {generic}")
        try:
            stored = Problem.from_dict(json.loads(meta["problem"]))
            depth, n = int(meta["depth"]), int(meta["n"])
            int(meta["total"]), int(meta["rows"])
        except (KeyError, ValueError, TypeError) as e:
            raise InvalidIndex(f"index {path}: its meta table is unreadable ({e}); {generic}") from None
        if stored.fingerprint() != meta.get("fingerprint") or stored.n != n or not 1 <= depth <= max(1, n - 1):
            raise InvalidIndex(f"index {path}: its meta table is inconsistent; {generic}")
        return stored

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with _sql(self.path, "a query", self._hint):
            return self._con.execute(sql, args).fetchall()

    def _bad(self, what: str) -> InvalidIndex:
        return InvalidIndex(f"index {self.path} is inconsistent: {what}; {self._hint}")

    def _checked(self, row: tuple) -> tuple[int, int, int]:
        if not all(type(x) is int for x in row):  # a damaged cell may read as NULL, text or a float
            raise self._bad(f"a row holds a value that is not an integer: {row!r}")
        code, cum, cnt, chk = row
        if chk != self._checks.row(code, cum, cnt):
            raise self._bad(f"the row of prefix {_decode(code, self.problem.n, self.depth)} fails its check")
        return code, cum, cnt

    def _cheap_checks(self) -> None:
        (count,) = self._query("SELECT COUNT(*) FROM lex")[0]
        if count != self.rows:
            raise self._bad(f"it has {count} rows, its meta table says {self.rows}")
        if not self.rows:
            if self.total:
                raise self._bad(f"it has no rows but a total of {self.total}")
            return
        first = self._checked(self._query("SELECT code, cum, cnt, chk FROM lex ORDER BY code LIMIT 1")[0])
        last = self._checked(self._query("SELECT code, cum, cnt, chk FROM lex ORDER BY code DESC LIMIT 1")[0])
        if first[1] != 0 or last[1] + last[2] != self.total:
            raise self._bad("its first and last rows do not span the total")

    def close(self) -> None:
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def check_problem(self, problem: Problem) -> None:
        """Raise InvalidIndex unless the index was built for ``problem``."""
        check_problem(problem)
        if problem.fingerprint() != self.problem.fingerprint():
            raise InvalidIndex(
                f"index {self.path} was built for {self.problem.describe()}, not for {problem.describe()}"
            )

    def _row(self, code: int) -> tuple[int, int, int] | None:
        found = self._query("SELECT code, cum, cnt, chk FROM lex WHERE code = ?", (code,))
        return self._checked(found[0]) if found else None

    def prefix_count(self, prefix: Sequence[int]) -> tuple[int | None, int]:
        """``(cum, cnt)`` of a depth-``d`` prefix (``(None, 0)`` when it has no solution).

        Raises
        ------
        QueensError
            If ``prefix`` is not ``depth`` integer columns on the board.
        InvalidIndex
            If the stored row fails its check.
        """
        n, d = self.problem.n, self.depth
        cols = [validate.whole_number(c, "a column", minimum=0) for c in prefix]
        if len(cols) != d or any(c >= n for c in cols):
            raise QueensError(f"a prefix of this index is {d} columns in 0..{n - 1}, got {list(prefix)!r}")
        row = self._row(_encode(cols, n))
        return (None, 0) if row is None else (row[1], row[2])

    def rank(self, placement: Sequence[int] | str, *, threads: int | None = None) -> int:
        """0-based rank of a solution (0-based columns or 1-based text).

        Raises
        ------
        InvalidPlacement
            If ``placement`` is not a solution.
        InvalidIndex
            If the row of its prefix is missing or fails its check.
        """
        p = as_solution(self.problem, placement)
        row = self._row(_encode(p[: self.depth], self.problem.n))
        if row is None:
            raise self._bad(f"no row for the prefix {list(p[: self.depth])} of a solution")
        local = interrupt.run(rank_walk, self.problem, p, self.depth, 0, 1)
        if not local < row[2]:
            raise self._bad(f"the prefix {list(p[: self.depth])} holds more than its stored {row[2]} solutions")
        return row[1] + local

    def unrank(self, r: int, *, threads: int | None = None) -> tuple[int, ...]:
        """The solution of 0-based rank ``r`` (``0 <= r < total``).

        Raises
        ------
        QueensError
            If ``r`` is not an integer in range.
        InvalidIndex
            If the row found fails its check or does not hold rank ``r``.
        """
        r = check_rank(self.problem, r, self.total)
        found = self._query("SELECT code, cum, cnt, chk FROM lex WHERE cum <= ? ORDER BY cum DESC LIMIT 1", (r,))
        if not found:
            raise self._bad(f"no row with cum <= {r}")
        code, cum, cnt = self._checked(found[0])
        if not 0 <= r - cum < cnt:
            raise self._bad(f"no row holds rank {r} (a row is missing: the nearest ends at {cum + cnt - 1})")
        prefix = _decode(code, self.problem.n, self.depth)
        try:
            return interrupt.run(unrank_walk, self.problem, r - cum, self.total, prefix, 1)
        except WalkMismatch:
            raise self._bad(f"the prefix {prefix} holds fewer solutions than its stored {cnt}") from None

    def verify(
        self,
        *,
        recount: int = 0,
        seed: int | None = 0,
        threads: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict:
        """Check the whole index; raise :class:`InvalidIndex` at the first failure.

        Checked: SQLite's integrity check (pages, and the ``cum`` index against the
        table), the meta digest, every row's check, the ``cum`` chain (``cum[i+1] =
        cum[i] + cnt[i]``, starting at 0, every ``cnt > 0``, every key a valid prefix
        code), the row count, the total (against OEIS A000170 for the standard problem)
        and the table digest; with ``recount`` that many random rows are recounted by the
        engine.

        Parameters
        ----------
        recount : int, default 0
            Prefixes to recount with :class:`~queenslab.native.engine.PrefixCounter`.
        seed : int or None, default 0
            Which rows are recounted (the same seed, the same rows).
        threads : int, optional
            Threads for the recount.
        progress : callable, optional
            ``progress(rows_done, rows)`` during the pass over the rows.

        Returns
        -------
        dict
            ``rows``, ``total``, ``recounted`` and ``checks`` (what was checked).
        """
        recount = validate.whole_number(recount, "recount", minimum=0)
        seed = validate.optional_whole_number(seed, "seed", minimum=-(2**63))
        threads = validate.threads(threads)
        n, d = self.problem.n, self.depth
        checks = []
        (status,) = self._query("PRAGMA integrity_check(1)")[0]
        if status != "ok":
            raise self._bad(f"SQLite's integrity check says: {status}")
        checks.append("SQLite integrity check")
        if self.meta.get("meta_digest") != _meta_digest(self.meta):
            raise self._bad("its meta table was modified (digest mismatch)")
        checks.append("meta digest")
        rng = Random(seed)
        picked: list[tuple[int, int]] = []
        digest = self._checks.table()
        acc = count = 0
        top = n**d
        with _sql(self.path, "reading the rows", self._hint):
            cur = self._con.execute("SELECT code, cum, cnt, chk FROM lex ORDER BY code")
            for row in cur:
                code, cum, cnt = self._checked(row)
                if cum != acc:
                    raise self._bad(
                        f"the row of prefix {_decode(code, n, d)} has cum {cum}, the rows before sum to {acc}"
                    )
                if cnt <= 0 or not 0 <= code < top:
                    raise self._bad(f"the row with key {code} has count {cnt} (keys are 0..{top - 1}, counts > 0)")
                _update_row(digest, code, cum, cnt)
                acc += cnt
                count += 1
                if recount:  # reservoir sample of the rows to recount
                    if len(picked) < recount:
                        picked.append((code, cnt))
                    else:
                        j = rng.randrange(count)
                        if j < recount:
                            picked[j] = (code, cnt)
                if count % _CHUNK == 0:
                    interrupt.check()
                    if progress:
                        progress(count, self.rows)
        checks += ["row checks", "cum chain"]
        if count != self.rows:
            raise self._bad(f"it has {count} rows, its meta table says {self.rows}")
        checks.append("row count")
        if acc != self.total:
            raise self._bad(f"the counts add up to {acc}, its meta table says {self.total}")
        known = known_total(n) if self.problem.is_standard else None
        if known is not None and known != self.total:
            raise self._bad(f"its total {self.total} is not the known {known} (OEIS A000170)")
        checks.append("total" + (" (OEIS A000170)" if known is not None else ""))
        if digest.hexdigest() != self.meta.get("table_digest"):
            raise self._bad("the table digest does not match (rows were changed, added or removed)")
        checks.append("table digest")
        if picked:
            prefixes = [_decode(code, n, d) for code, _ in picked]
            got = engine.count_prefixes(self.problem, prefixes, threads=threads, force=True)
            interrupt.check()
            for (_, cnt), c, pre in zip(picked, got, prefixes):
                if c != cnt:
                    raise self._bad(f"prefix {pre} has {c} solutions, the index says {cnt}")
            checks.append(f"{len(picked)} prefixes recounted")
        if progress:
            progress(count, self.rows)
        return {"rows": count, "total": acc, "recounted": len(picked), "checks": checks}

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


# ----------------------------------------------------------------------- locking


class _BuildLock:
    """The exclusive build lock on ``X.sqlite.lock``, holding the builder's PID.

    ``fcntl.flock`` where it exists (the kernel releases it when the process dies, so a
    killed build never leaves a stale lock), ``msvcrt.locking`` on Windows; where neither
    works the build goes ahead unlocked, with a note.
    """

    def __init__(self, target: Path, note: Note, *, wait: bool = True):
        self.target = target
        self.path = _lock_path(target)
        self.note = note
        self.wait = wait
        self.fd: int | None = None
        self.locked = False
        self.waited = False

    def _try(self) -> bool:
        assert self.fd is not None
        if _fcntl is not None:
            try:
                _fcntl.flock(self.fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False
            except OSError as e:  # e.g. a file system without locks
                self.note(f"cannot lock {self.path} ({e.strerror}); building without a lock")
                return True
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            try:
                os.lseek(self.fd, 0, os.SEEK_SET)
                msvcrt.locking(self.fd, msvcrt.LK_NBLCK, 1)
                return True
            except OSError:
                return False
        self.note(f"no file locking on this platform; building {self.target} without a lock")  # pragma: no cover
        return True  # pragma: no cover

    def __enter__(self) -> _BuildLock:
        output_target(self.path, "the index's lock file")  # never through a dangling link
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise QueensError(
                f"cannot write the index at {self.target}: {e.strerror} ({self.path}); choose a writable "
                f"directory with --index DIR or ${ENV_VAR}"
            ) from None
        try:
            t0 = time.monotonic()
            told = False
            while not self._try():
                self.waited = True
                if not self.wait:
                    return self
                if not told and time.monotonic() - t0 > 0.2:
                    self.note(
                        f"{self.target} is being built by PID {holder_pid(self.target)}, waiting for it to finish"
                    )
                    told = True
                interrupt.check()
                time.sleep(0.1)
            self.locked = True
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
            os.write(self.fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(self.fd)
            self.fd = None
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is None:
            return
        try:
            if self.locked:
                os.ftruncate(self.fd, 0)
                if _fcntl is not None:
                    _fcntl.flock(self.fd, _fcntl.LOCK_UN)
                elif sys.platform == "win32":  # pragma: no cover
                    import msvcrt

                    os.lseek(self.fd, 0, os.SEEK_SET)
                    msvcrt.locking(self.fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(self.fd)
            self.fd = None


def holder_pid(target: str | os.PathLike) -> int | None:
    """The PID of the process building the index at ``target``, or None if none is.

    Examples
    --------
    >>> holder_pid("/nonexistent/x.sqlite") is None
    True
    """
    lock = _lock_path(Path(target))
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        if _fcntl is not None:
            try:
                _fcntl.flock(fd, _fcntl.LOCK_SH | _fcntl.LOCK_NB)
                _fcntl.flock(fd, _fcntl.LOCK_UN)
                return None  # nobody holds it
            except BlockingIOError:
                pass
            except OSError:
                return None
        try:
            text = os.read(fd, 64).decode(errors="replace").strip()
        except OSError:  # pragma: no cover - Windows: the locked byte cannot be read
            return None
        return int(text) if text.isdigit() else None
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- building


def _problem_json(problem: Problem) -> str:
    return json.dumps(problem.to_dict(), sort_keys=True)


def _check_depth(problem: Problem, depth) -> int:
    if depth is None:
        return default_depth(problem.n)
    top = min(max(1, problem.n - 1), _max_key_depth(problem.n))
    d = validate.whole_number(depth, "depth")
    if d > top:
        raise QueensError(
            f"depth must be an integer in 1..{top} for n = {problem.n} (at most n - 1, and n**depth must fit "
            f"a 64-bit key), got {depth!r}"
        )
    return d


def _warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def _target(problem: Problem, d: int, directory, path, rebuild: bool) -> Path:
    """The index file a build writes (or reuses), after the path policy of
    :func:`~queenslab.outfile.output_target`: a symbolic link is followed only to an
    existing file; the name, and the names of the files a build writes next to it, must
    fit the file system; an existing file is never replaced unless it is a queenslab index
    (or a partial build, or holds nothing), and then only with ``rebuild``."""
    if path is not None and directory is not None:
        raise QueensError("give the index directory or the index file, not both")
    named = validate.path(path, "the index file") if path is not None else index_path(problem, d, directory)
    long = _too_long(named, _SIDE_SUFFIX)
    if long:
        raise QueensError(f"the index file {_short(named)}: {long[0]}; {long[1]}")
    if os.path.isdir(named):
        raise QueensError(f"the index file {named} is a directory; give a file name or pass it as the directory")
    parent = named.parent
    if os.path.lexists(parent) and not os.path.isdir(parent):
        raise QueensError(f"cannot put the index in {parent}: it is a file, not a directory")
    for missing in (d for d in (parent, *parent.parents) if not os.path.lexists(d)):  # directories to create
        long = _too_long(missing)
        if long:
            raise QueensError(f"cannot create the index directory {_short(missing)}: {long[0]}; give a shorter name")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise QueensError(
            f"cannot create the index directory {_short(parent)}: {e.strerror or e}; choose a writable directory "
            f"with --index DIR or ${ENV_VAR}"
        ) from None
    if not rebuild and os.path.isfile(named):
        # an existing file is only read here (reused, or refused): a read-only index is fine
        target = Path(os.path.realpath(named)) if os.path.islink(named) else named
    else:
        target = output_target(named, "the index file")
    if target.name != named.name:  # a link to a file of another name: check the names next to that
        long = _too_long(target, _SIDE_SUFFIX)
        if long:
            raise QueensError(
                f"the index file {_short(named)} links to {_short(target)}: {long[0]}; link to a file whose name "
                "is shorter"
            )
    if os.path.isfile(target):
        kind, what = _identify(target)
        if kind not in _REPLACEABLE:
            raise InvalidIndex(f"{_not_an(target, kind, what)}; {_KEPT}")
    return target


#: Why a file that is not an index is refused as the target of a build, and what to do.
_KEPT = (
    "queenslab never replaces it, with or without --rebuild (which replaces only an index): "
    "give another file name for the index, or a directory"
)


def _check_partial(part: Path) -> None:
    """Refuse a file at the name of the partial build that is not one (it would be discarded)."""
    output_target(part, "the partial build")
    if os.path.isfile(part):
        kind, what = _identify(part)
        if kind not in _REPLACEABLE:
            raise InvalidIndex(f"{_not_an(part, kind, what, 'the partial build of a queenslab index')}; {_KEPT}")


def _reuse(target: Path, problem: Problem, d: int) -> PrefixIndex:
    idx = PrefixIndex.open(target)
    if idx.problem.fingerprint() != problem.fingerprint() or idx.depth != d:
        idx.close()
        raise InvalidIndex(
            f"{target} holds the index of {idx.problem.describe()} at depth {idx.depth}, not of "
            f"{problem.describe()} at depth {d}; pass rebuild=True (--rebuild) to replace it"
        )
    return idx


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


class _Plan:
    """The tasks of a build and which task owns each stored prefix."""

    def __init__(self, problem: Problem, d: int):
        n = self.n = problem.n
        self.d = d
        self.tdepth = min(d, 2 if n >= 8 else 1)
        self.mirror = n > 1 and any(g == _CMPL for g in problem.symmetries())
        self.half = (n - 1) // 2
        tasks = [tuple(int(x) for x in row) for arr in engine.prefix_batches(problem, self.tdepth) for row in arr]
        if self.mirror:
            tasks = [t for t in tasks if t[0] <= self.half]
        self.tasks = tasks
        self.codes = {_encode(t, n): t for t in tasks}
        self.span = n ** (d - self.tdepth)
        self.top = n**d - 1
        self.lead = n ** (d - 1)

    def adds_mirror(self, t: Sequence[int]) -> bool:
        """Whether task ``t`` also stores the mirror images of its prefixes."""
        return self.mirror and not (self.n % 2 == 1 and t[0] == self.half)

    def owner(self, code: int) -> int:
        """The code of the task that stores the prefix ``code``."""
        if self.mirror and code // self.lead > self.half:
            code = self.top - code
        return code // self.span

    def ranges(self, tc: int) -> list[tuple[int, int]]:
        """Inclusive key ranges of the rows task ``tc`` stores."""
        lo, hi = tc * self.span, (tc + 1) * self.span - 1
        out = [(lo, hi)]
        if self.adds_mirror(self.codes[tc]):
            out.append((self.top - hi, self.top - lo))
        return out


def _open_partial(part: Path, meta0: dict, note: Note, rebuild_hint: str) -> sqlite3.Connection:
    """The working file, created (complete with its schema, atomically) or reopened."""
    if part.exists():
        meta: dict = {}
        try:
            con = _connect_rw(part)
            try:
                if _schema(con) == set(_PARTIAL_SCHEMA):
                    meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta")}
            finally:
                con.close()
        except (sqlite3.Error, UnicodeDecodeError):
            meta = {}
        if meta and meta.get("meta_digest") == _meta_digest(meta) and meta.get("version") == meta0["version"]:
            if any(meta.get(k) != meta0[k] for k in ("fingerprint", "depth", "tdepth", "n")):
                raise InvalidIndex(
                    f"the partial build {part} is for another problem or depth; {rebuild_hint} (this discards it)"
                )
            with _sql(part, "reopening the partial build"):
                con = _connect_rw(part)
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=NORMAL")
            return con
        note(f"the partial build {part} is damaged or from another version; starting it afresh")
        _unlink(*_db_files(part))
    new = part.with_name(part.name + ".new")
    _unlink(*_db_files(new))
    meta = dict(meta0)
    meta["meta_digest"] = _meta_digest(meta)
    with _sql(new, "creating the partial build"):
        con = _connect_rw(new)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            with con:
                for statement in _PARTIAL_SCHEMA:
                    con.execute(statement)
                con.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        finally:
            con.close()
        os.replace(new, part)
        con = _connect_rw(part)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
    return con


def _verified_tasks(con: sqlite3.Connection, plan: _Plan, checks: _Checks, part: Path, note: Note) -> set[int]:
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
        if i % _CHUNK == 0:
            interrupt.check()
        if type(code) is not int:  # pragma: no cover - the schema check makes code the rowid
            raise InvalidIndex(f"the partial build {part} is damaged; start it afresh with rebuild=True (--rebuild)")
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
        for k in range(0, len(orphans), _CHUNK):
            con.executemany("DELETE FROM prefixes WHERE code = ?", [(c,) for c in orphans[k : k + _CHUNK]])
    if redo:
        note(
            f"{len(redo)} finished task(s) of the interrupted build {part.name} failed their checks "
            "(stored counts edited or damaged); computing them again"
        )
    if orphans:
        note(f"{len(orphans)} stored count(s) in {part.name} belong to no finished task; dropped")
    return good


def task_rows(
    problem: Problem, depth: int, task: tuple[int, ...], mirror_top: int | None
) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """The rows of one build task, ``(task, [(prefix code, count), ...])``: every prefix of
    ``depth`` rows below ``task`` with its count (and, given ``mirror_top``, the mirrored
    codes with the same counts). Module-level, so that a Dask worker can run it."""
    n = problem.n
    counter = engine.PrefixCounter(problem)
    rows = []
    for arr in engine.prefix_batches(problem, depth, prefix=task):
        for pre in arr.tolist():
            interrupt.check()
            rows.append((_encode(pre, n), counter.count(pre)[0]))
    if mirror_top is not None:
        rows += [(mirror_top - code, cnt) for code, cnt in rows]
    return tuple(task), rows


def _on_dask(client: Any, problem: Problem, plan: _Plan, todo: list) -> Iterator[Any]:
    """The build tasks ``todo`` on a Dask cluster, each result as it ends."""
    from ..distributed.runner import finished

    futures = [
        client.submit(task_rows, problem, plan.d, tuple(t), plan.top if plan.adds_mirror(t) else None, pure=False)
        for t in todo
    ]
    for _, result in finished(client, futures):
        yield result


def _run_tasks(
    problem: Problem,
    plan: _Plan,
    con: sqlite3.Connection,
    checks: _Checks,
    done: set[int],
    threads: int,
    progress: Callable[[int, int], None] | None,
    client: Any = None,
) -> None:
    n, d = plan.n, plan.d
    todo = [t for t in plan.tasks if _encode(t, n) not in done]
    if client is not None:
        _commit(_on_dask(client, problem, plan, todo), plan, con, checks, len(plan.tasks) - len(todo), progress)
        return
    counter = engine.PrefixCounter(problem)
    stop = threading.Event()

    def run_task(t):
        rows = []
        for arr in engine.prefix_batches(problem, d, prefix=t):
            for pre in arr.tolist():
                if stop.is_set():
                    return None
                interrupt.check()
                rows.append((_encode(pre, n), counter.count(pre)[0]))
        if plan.adds_mirror(t):
            rows += [(plan.top - code, cnt) for code, cnt in rows]
        return t, rows

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queenslab-index")
    try:
        futures = [pool.submit(run_task, t) for t in todo]
        results = (res for res in (fut.result() for fut in as_completed(futures)) if res is not None)
        _commit(results, plan, con, checks, len(plan.tasks) - len(todo), progress)
    finally:
        # On Ctrl-C or an error: tasks not started are dropped, running ones stop at
        # their next prefix; what was committed stays for the next build.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)


def _commit(
    results: Iterator[Any],
    plan: _Plan,
    con: sqlite3.Connection,
    checks: _Checks,
    finished: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Commit each finished task: its rows and its record in one transaction."""
    n = plan.n
    for t, rows in results:
        tc = _encode(t, n)
        s = sum(cnt for _, cnt in rows)
        with con:  # one transaction per finished task: rows and the task record together
            con.executemany(
                "INSERT OR REPLACE INTO prefixes VALUES (?, ?, ?)",
                [(code, cnt, checks.prefix(code, cnt)) for code, cnt in rows],
            )
            con.execute(
                "INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?)",
                (tc, len(rows), s, checks.task(tc, len(rows), s)),
            )
        finished += 1
        if progress:
            progress(finished, len(plan.tasks))
        interrupt.check()


def _finish(
    problem: Problem,
    plan: _Plan,
    con: sqlite3.Connection,
    checks: _Checks,
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
    tmp = _tmp_path(target)
    _unlink(*_db_files(tmp))
    t0 = time.perf_counter()
    out = _connect_rw(tmp)
    try:
        out.execute("PRAGMA journal_mode=OFF")  # a fresh file, renamed into place only when complete
        out.execute("PRAGMA synchronous=OFF")
        for statement in _FINAL_SCHEMA[:2]:
            out.execute(statement)
        digest = checks.table()
        acc = stored = rows = 0
        buf: list[tuple[int, int, int, int]] = []
        out.execute("BEGIN")
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
            _update_row(digest, code, acc, cnt)
            acc += cnt
            rows += 1
            if len(buf) >= _CHUNK:
                out.executemany("INSERT INTO lex VALUES (?, ?, ?, ?)", buf)
                buf.clear()
                interrupt.check()
        out.executemany("INSERT INTO lex VALUES (?, ?, ?, ?)", buf)
        if stored != task_rows or acc != task_sum:
            raise InvalidIndex(
                f"the partial build {part} holds {stored} counts summing to {acc}, its tasks record "
                f"{task_rows} summing to {task_sum}; run the build again (it recomputes what fails its checks)"
            )
        if acc != want:
            raise InvalidIndex(
                f"the index counts add up to {acc}, but {problem.describe()} has {want} solutions; "
                f"the build stays incomplete: {hint}"
            )
        out.execute(_FINAL_SCHEMA[2])
        interrupt.check()
        meta = {
            "version": str(SCHEMA_VERSION),
            "fingerprint": problem.fingerprint(),
            "problem": _problem_json(problem),
            "n": str(problem.n),
            "depth": str(plan.d),
            "total": str(want),
            "rows": str(rows),
            "table_digest": digest.hexdigest(),
            "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "seconds": f"{seconds + time.perf_counter() - t0:.3f}",
            "complete": "1",
        }
        meta["meta_digest"] = _meta_digest(meta)
        out.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        out.execute("COMMIT")
        out.execute("PRAGMA journal_mode=DELETE")
        out.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)  # the complete index appears at once, or not at all
        _fsync_dir(target.parent)
    finally:
        out.close()
        _unlink(*_db_files(tmp))


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
    d = _check_depth(problem, depth)
    n = problem.n
    if n > 63:
        raise QueensError(f"an index is for exact ranking, n <= 63; got n = {n}")
    check_size(problem, force, "building an index")
    say: Note = note if note is not None else _warn
    target = _target(problem, d, directory, path, rebuild)
    part = partial_path(target)
    hint = _rebuild_hint(problem, d, target)
    if not rebuild and target.exists():
        idx = _reuse(target, problem, d)
        # a partial build left over from a build killed after its rename (never a file of another kind)
        if os.path.isfile(part) and _identify(part)[0] in _REPLACEABLE:
            with _BuildLock(target, say, wait=False) as lock:
                if lock.locked:
                    _unlink(*_db_files(part))
        return idx
    before = _file_id(target)
    t_start = time.perf_counter()
    with _BuildLock(target, say) as lock:
        _check_partial(part)
        if target.exists() and (not rebuild or (lock.waited and _file_id(target) != before)):
            # another builder finished it while we waited
            idx = _reuse(target, problem, d)
            _unlink(*_db_files(part))
            return idx
        if rebuild:
            _unlink(*_db_files(target), *_db_files(part), *_db_files(_tmp_path(target)))
        checks = _Checks(problem.fingerprint(), d)
        plan = _Plan(problem, d)
        meta0 = {
            "version": str(SCHEMA_VERSION),
            "fingerprint": problem.fingerprint(),
            "problem": _problem_json(problem),
            "n": str(n),
            "depth": str(d),
            "tdepth": str(plan.tdepth),
            "tasks": str(len(plan.tasks)),
            "complete": "0",
        }
        con = _open_partial(part, meta0, say, hint)
        try:
            with _sql(part, "the partial build", hint):
                done = _verified_tasks(con, plan, checks, part, say)
                _run_tasks(problem, plan, con, checks, done, threads, progress, client)
                _finish(problem, plan, con, checks, part, target, threads, time.perf_counter() - t_start, hint)
        finally:
            con.close()
        _unlink(*_db_files(part))
    return PrefixIndex.open(target, problem)


# ---------------------------------------------------------------------- finding


def _depth_of(path: Path, prefix: str) -> int | None:
    tail = path.name[len(prefix) : -len(".sqlite")]
    return int(tail) if tail.isdigit() else None


def find_index(problem: Problem, directory=None) -> PrefixIndex | None:
    """The complete index of ``problem`` in the index directory (the deepest if several),
    or None. A partial build is skipped; a damaged or outdated index raises
    :class:`InvalidIndex`."""
    check_problem(problem)
    base = _lookup_name(index_dir(directory))
    if not os.path.isdir(base):
        return None
    prefix = f"{problem.fingerprint()[:20]}-n{problem.n}-d"
    found = [(dd, p) for p in base.glob(prefix + "*.sqlite") if (dd := _depth_of(p, prefix)) is not None]
    for _, path in sorted(found, reverse=True):
        return PrefixIndex.open(path, problem)
    return None


def resolve(problem: Problem, path=None, *, no_index: bool = False):
    """The ``index`` argument of the ranking functions from a user's choice.

    Parameters
    ----------
    problem : Problem
    path : str or path, optional
        An index file (opened and checked), or a directory searched for a complete
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
    check_problem(problem)
    if validate.flag(no_index, "no_index"):
        if path is not None:
            raise QueensError("--index and --no-index contradict each other")
        return None
    if path is None:
        return "auto"
    p = _lookup_name(validate.path(path, "the index"))
    if os.path.isfile(p):
        return PrefixIndex.open(p, problem)
    if os.path.isdir(p) or not p.suffix:
        found = find_index(problem, p)
        if found is None:
            raise InvalidIndex(
                f"no complete index for {problem.describe()} in {p}; build one with `queenslab index build`"
            )
        return found
    return PrefixIndex.open(p, problem)


def _lookup_name(path: Path) -> Path:
    """``path`` if a file or directory can have that name (InvalidIndex if not)."""
    long = _too_long(path)
    if long:
        raise InvalidIndex(f"the index {_short(path)}: {long[0]}, so no index has that name")
    return path


def _read_partial_meta(path: Path, *, immutable: bool = False) -> dict:
    con = _connect_ro(path, immutable=immutable)
    try:
        return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta")}
    finally:
        con.close()


def list_indexes(directory=None) -> list[dict]:
    """Every index file and partial build in the directory (or the one file named):
    path, bytes, status, and (None when unknown or unreadable) n, depth, total, rows,
    problem (1-based dict form), built.

    ``status`` is ``"complete"``, ``"incomplete: ..."`` for a partial build (with the
    builder's PID while one runs), or ``"invalid: ..."`` with the reason.
    """
    base = _lookup_name(index_dir(directory))
    if os.path.isfile(base):
        files = [base]
    elif os.path.isdir(base):
        files = sorted([*base.glob("*.sqlite"), *base.glob("*.sqlite.partial")])
    else:
        return []
    out: list[dict] = []
    for path in files:
        # the same keys for every file; what could not be read is None
        entry: dict = dict.fromkeys(("n", "depth", "total", "rows", "problem", "built", "status"))
        try:
            entry.update({"path": str(path), "bytes": path.stat().st_size})
        except OSError:  # gone meanwhile (a build finished)
            continue
        if path.name.endswith(".partial"):
            try:
                meta = _read_partial_meta(path)
                problem = Problem.from_dict(json.loads(meta["problem"]))
                con = _connect_ro(path)
                try:
                    (done,) = con.execute("SELECT COUNT(*) FROM tasks").fetchone()
                finally:
                    con.close()
            except (sqlite3.Error, KeyError, ValueError, TypeError) as e:
                entry["status"] = f"incomplete, unreadable ({e})"
                out.append(entry)
                continue
            target = path.with_name(path.name[: -len(".partial")])
            pid = holder_pid(target)
            entry.update({"n": problem.n, "depth": int(meta["depth"]), "problem": problem.to_dict(one_based=True)})
            state = f"being built by PID {pid}" if pid else "resume it with `queenslab index build`"
            entry["status"] = f"incomplete: {done} of {meta.get('tasks', '?')} tasks done, {state}"
            out.append(entry)
            continue
        try:
            with PrefixIndex.open(path) as idx:
                info = idx.info()
            entry.update({k: info[k] for k in ("n", "depth", "total", "rows", "problem", "built", "status")})
        except InvalidIndex as e:
            entry["status"] = f"invalid: {e}"
            try:  # what can still be read of an index (nothing written, not even next to it)
                if _identify(path)[0] != "index":
                    raise InvalidIndex("not an index")
                meta = _read_partial_meta(path, immutable=True)
                problem = Problem.from_dict(json.loads(meta["problem"]))
                entry.update({"n": problem.n, "depth": int(meta["depth"]), "problem": problem.to_dict(one_based=True)})
            except Exception:  # a damaged file: leave the fields None
                pass
        out.append(entry)
    return out
