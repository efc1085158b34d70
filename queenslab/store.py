"""A checked SQLite file: what the ranking index and the ledger of a distributed count share.

Both :mod:`queenslab.ranking.index` and :mod:`queenslab.distributed.ledger` keep their
data in an SQLite file that queenslab made and checks on every use. This module holds
what the two have in common; each of them declares only its own tables, meta keys, rows
and messages.

* **The header.** :func:`header_problem` holds the SQLite header against the file's size
  before SQLite reads the file, so a truncated or extended file is refused by name rather
  than read in part.
* **The meta table.** Text keys and values (:data:`META_TABLE`), sealed by a digest of
  themselves (:func:`meta_digest`, :func:`seal`): a value edited by hand is found on
  opening.
* **Row checks.** :class:`Checks`: 63 bits of a BLAKE2b keyed by what the file is for
  (the problem's fingerprint and the index's depth, or the ledger's split), so a row
  edited by hand or copied from another file fails its check.
* **What a file is.** :func:`identify` tells, without writing anything, whether a file is
  a queenslab index, the working file of an index build, a ledger, an empty file, an
  SQLite database of another application (naming its tables), or not SQLite at all: a
  file of one kind is never taken for, overwritten or deleted as another.
* **Errors.** :func:`sql_errors` turns ``sqlite3`` and OS errors into
  :class:`~queenslab.errors.QueensError` subclasses that name the file and say what to do.
* **Commits.** :func:`transaction` (one ``BEGIN IMMEDIATE`` transaction: SQLite's write
  lock, committed whole or rolled back), :func:`create` (tables and sealed meta in one
  go), :func:`publish` (a file completed aside, synced and renamed into place).
* **Names.** :func:`too_long`: a file name must leave room for the files SQLite (or a
  build) writes next to it.

Examples
--------
>>> meta = seal({"format": "x", "version": "1"})
>>> meta["meta_digest"] == meta_digest(meta), meta_digest(meta) == meta_digest({**meta, "version": "2"})
(True, False)
>>> Checks("a", "b").of("row") == Checks("a", "b").of("row") != Checks("a", "c").of("row")
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import QueensError

__all__ = [
    "SQLITE_MAGIC",
    "BUSY_SECONDS",
    "META_TABLE",
    "NOT_SQLITE",
    "LEDGER_FORMAT",
    "Checks",
    "Found",
    "meta_digest",
    "seal",
    "read_meta",
    "schema",
    "create",
    "header_problem",
    "in_wal_mode",
    "identify",
    "sql_errors",
    "connect",
    "transaction",
    "db_files",
    "unlink",
    "publish",
    "too_long",
    "short",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
#: How long a connection waits for another process's lock before it fails.
BUSY_SECONDS = 30.0
#: The meta table of every checked file, as SQLite stores its statement.
META_TABLE = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
#: What :func:`header_problem` says of a file that is not SQLite.
NOT_SQLITE = "is not an SQLite database"

# How queenslab's files are recognised -- by the start of the statements of the tables
# only they have, and by their meta keys -- for every version they were ever written in,
# damaged or not. These are not the current schemas (each module declares its own): a
# file of an older version must still be recognised as what it is, never as foreign.
#: The tables only an index has: ``lex`` when complete, ``prefixes`` while it is built.
_INDEX_MARKS = {
    "lex": "CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL",
    "prefixes": "CREATE TABLE prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL",
}
_INDEX_TABLES = frozenset({"meta", "lex", "prefixes", "tasks"})
#: The keys of an index's meta table (complete or partial, every schema version).
_INDEX_KEYS = frozenset({"version", "fingerprint", "problem", "n", "depth", "complete"})
#: The ``format`` entry of a ledger's meta table.
LEDGER_FORMAT = "queenslab-ledger"
#: The start of the statement of a ledger's table of tasks.
_LEDGER_TASKS = "CREATE TABLE tasks (id INTEGER PRIMARY KEY, count INTEGER NOT NULL"
#: How much of a file is searched for these statements when its schema cannot be read.
_SCAN_BYTES = 1 << 16


# ------------------------------------------------------------ checks and meta


class Checks:
    """The keyed checks of one file's rows.

    Parameters
    ----------
    *purpose : str
        What the file is for (its kind, the problem's fingerprint, ...): the key of every
        check, so that a row copied from a file made for something else fails.
    """

    def __init__(self, *purpose: str):
        self.key = hashlib.sha256("\0".join(purpose).encode()).digest()
        self._h = hashlib.blake2b(digest_size=8, key=self.key)

    def of(self, text: str) -> int:
        """The check of a row written as ``text``: 63 bits, a non-negative SQLite integer."""
        h = self._h.copy()
        h.update(text.encode())
        return int.from_bytes(h.digest(), "big") >> 1

    def running(self) -> Any:
        """A keyed digest to feed a whole table to, row by row."""
        return hashlib.blake2b(digest_size=32, key=self.key)


def meta_digest(meta: Mapping[str, str]) -> str:
    """The digest of a meta table: every key and value but ``meta_digest`` itself."""
    body = json.dumps(sorted((k, v) for k, v in meta.items() if k != "meta_digest"))
    return hashlib.sha256(body.encode()).hexdigest()


def seal(meta: Mapping[str, str]) -> dict[str, str]:
    """``meta`` with its digest added (``meta_digest``)."""
    out = dict(meta)
    out["meta_digest"] = meta_digest(out)
    return out


def read_meta(con: sqlite3.Connection) -> dict[str, str]:
    """The meta table, as text."""
    return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta")}


def schema(con: sqlite3.Connection) -> set[str]:
    """The statements of every table and index, as SQLite stores them."""
    return {str(sql) for (sql,) in con.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}


def create(con: sqlite3.Connection, statements: Iterable[str], meta: Mapping[str, str] | None = None) -> None:
    """Run ``statements`` and fill the meta table with ``meta`` sealed (inside the caller's
    transaction: a file has its tables and its meta together, or neither)."""
    for statement in statements:
        con.execute(statement)
    if meta is not None:
        con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", seal(meta).items())


# ------------------------------------------------------------- what a file is


def _header(path: Path) -> tuple[bytes, int]:
    with open(path, "rb") as fh:
        return fh.read(100), os.fstat(fh.fileno()).st_size


def header_problem(path: Path, *, log_may_lag: bool = False) -> str | None:
    """What is wrong with the SQLite header of ``path`` given the file's size: None if
    nothing, else the rest of the sentence "``path`` ..." (:data:`NOT_SQLITE`, or a size
    the header does not account for).

    With ``log_may_lag``, a file with a write-ahead log next to it passes the size check:
    its pages may still be in the log, which SQLite reads too. Raises OSError if the file
    cannot be read.
    """
    head, size = _header(path)
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return NOT_SQLITE
    if log_may_lag and _wal(path).exists():
        return None
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    # the page count is valid only while the change counter matches the one it was written with
    if head[24:28] == head[92:96] and pages and size != pages * page:
        return (
            f"has {size} bytes, but its SQLite header says {pages} pages of {page} bytes "
            f"({pages * page} bytes): it was truncated or extended"
        )
    return None


def in_wal_mode(path: Path) -> bool:
    """Whether the SQLite file at ``path`` is in write-ahead-log mode (from its header)."""
    return _header(path)[0][18:20] == b"\x02\x02"


@dataclass(frozen=True)
class Found:
    """What :func:`identify` found a file to be.

    Attributes
    ----------
    kind : str
        ``"index"`` (a queenslab index of any problem, depth or schema version, damaged or
        not), ``"partial"`` (the working file of an index build), ``"ledger"``, ``"empty"``
        (an empty file, an SQLite database without tables), ``"foreign"`` (an SQLite
        database of another application), ``"not-sqlite"`` or ``"unreadable"``.
    what : str
        The rest of the sentence "``path`` ...".
    names : tuple of str
        The names of its tables, when they could be read.
    """

    kind: str
    what: str
    names: tuple[str, ...] = ()

    @property
    def tables(self) -> str:
        """``"its tables: a, b"`` (the first six)."""
        more = f" and {len(self.names) - 6} more" if len(self.names) > 6 else ""
        return "its tables: " + (", ".join(self.names[:6]) + more or "none")

    def is_not(self, path: object, thing: str) -> str:
        """The sentence saying that the file at ``path`` is this, not ``thing`` (naming the
        tables of a foreign database)."""
        if self.kind == "not-sqlite":
            return f"{path} is not an SQLite file, so not {thing}"
        if self.kind == "unreadable":
            return f"{path} {self.what}, so it cannot be recognised as {thing} (if it is a damaged one, delete it yourself)"
        return f"{path} {self.what}, not {thing}" + (f" ({self.tables})" if self.kind == "foreign" else "")


def identify(path: Path) -> Found:
    """What the existing file at ``path`` is (see :class:`Found`).

    Nothing is written: the file is read as an immutable database (no journal or lock
    files are created next to it), with its write-ahead log when it has one.

    Raises
    ------
    QueensError
        If the file cannot be read at all.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SCAN_BYTES)
    except OSError as e:
        raise QueensError(f"cannot read {path}: {e.strerror or e}") from None
    if not head:
        return Found("empty", "is an empty file")
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        return Found("not-sqlite", "is not an SQLite file")
    tables: dict[str, str] = {}
    keys: set[str] = set()
    entries = 0
    try:
        # with a write-ahead log present the tables may be in it: read it too (the log
        # and its index exist already); else read the file alone, as it is on disk
        con = connect(path, readonly=True, immutable=not _wal(path).exists())
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
        if LEDGER_FORMAT.encode() in head or _LEDGER_TASKS.encode() in head:
            return Found("ledger", f"is a damaged queenslab ledger (the record of a resumable count; {e})")
        if any(mark.encode() in head for mark in _INDEX_MARKS.values()):
            return Found("index", "is a damaged queenslab index")
        return Found("unreadable", f"is an SQLite file whose tables cannot be read ({e})")
    names = tuple(sorted(tables))
    # a damaged index may have lost the start of a table's statement, or its meta table: one suffices
    marked = [t for t, mark in _INDEX_MARKS.items() if tables.get(t, "").startswith(mark)]
    if keys >= _INDEX_KEYS:
        marked += [t for t in ("lex", "prefixes") if t in tables and t not in marked] or ["meta"]
    if f"format={LEDGER_FORMAT}" in keys:
        return Found(
            "ledger",
            f"is a queenslab ledger (the record of a resumable count: its meta table has format {LEDGER_FORMAT!r})",
            names,
        )
    if tables.get("tasks", "").startswith(_LEDGER_TASKS):
        return Found(
            "ledger", "is a queenslab ledger (the record of a resumable count: it has a ledger's tasks table)", names
        )
    if not entries:
        return Found("empty", "is an SQLite database without tables")
    if marked and set(names) <= _INDEX_TABLES:
        if "prefixes" in marked:
            return Found("partial", "is the working file of a queenslab index build", names)
        return Found(
            "index", "is a queenslab index (prefix counts for ranking, made by `queenslab index build`)", names
        )
    if marked:
        return Found("foreign", "is an SQLite database with the tables of a queenslab index and others", names)
    return Found("foreign", "is an SQLite database of another application", names)


# ------------------------------------------------------- connections, errors


@contextmanager
def sql_errors(
    label: str,
    what: str,
    invalid: type[QueensError],
    hint: str | Callable[[Exception], str] = "",
    unreachable: type[QueensError] = QueensError,
) -> Iterator[None]:
    """Turn ``sqlite3`` errors into ``invalid`` and OS errors into ``unreachable``, each
    saying "``label``: ``what`` failed (the reason)", then ``hint`` (or ``hint(error)``)."""
    try:
        yield
    except (sqlite3.Error, UnicodeDecodeError) as e:  # a damaged text cell may not decode
        todo = hint(e) if callable(hint) else hint
        raise invalid(f"{label}: {what} failed ({e}){'; ' + todo if todo else ''}") from None
    except OSError as e:
        raise unreachable(f"{label}: {what} failed ({e.strerror or e})") from None


def connect(
    path: Path, *, readonly: bool = False, immutable: bool = False, autocommit: bool = False
) -> sqlite3.Connection:
    """A connection to ``path`` usable from any thread, waiting up to
    :data:`BUSY_SECONDS` for another process's lock.

    ``readonly`` never writes (nor creates) the file; ``immutable`` also reads it without
    looking for a journal or taking locks. ``autocommit`` leaves every transaction to the
    caller (:func:`transaction`)."""
    if readonly:
        uri = path.resolve().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")
        return sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=BUSY_SECONDS)
    if autocommit:
        return sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_SECONDS, isolation_level=None)
    return sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_SECONDS)


@contextmanager
def transaction(con: sqlite3.Connection) -> Iterator[None]:
    """One transaction under SQLite's write lock (``BEGIN IMMEDIATE``): what is read in it
    is not changed by another writer before it commits; an error rolls it all back."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):
            con.execute("ROLLBACK")
        raise


# ------------------------------------------------------------------- files


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def db_files(path: Path) -> list[Path]:
    """``path`` and the files SQLite keeps next to it in WAL mode."""
    return [path, _wal(path), path.with_name(path.name + "-shm")]


def unlink(*paths: Path) -> None:
    """Remove each of ``paths`` that exists."""
    for p in paths:
        with suppress(FileNotFoundError):
            p.unlink()


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


def publish(done: Path, target: Path) -> None:
    """Put the complete, closed file ``done`` in place of ``target`` at once: synced to
    disk, renamed (an atomic replacement), the rename synced too. ``target`` is then the
    old file or the complete new one, never a part of it, even after a crash."""
    with open(done, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(done, target)
    _fsync_dir(target.parent)


def short(path: object) -> str:
    """A path for a message: a long one by its start and end.

    >>> short("/a/" + "x" * 100)
    "'/a/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
    """
    text = str(path)
    return repr(text if len(text) <= 80 else f"{text[:40]}...{text[-30:]}")


def too_long(path: Path, extra: str = "", writer: str = "") -> tuple[str, str] | None:
    """Why ``path`` cannot be a file name here, and what to do; None if it can be.

    With ``extra``, the name with ``extra`` appended must be allowed too: ``writer``
    (``"SQLite keeps"``, ``"building an index also writes"``) files of that name next to it.
    """
    parent = path.parent
    try:
        where = parent if os.path.isdir(parent) else Path(".")
        name_max, path_max = os.pathconf(where, "PC_NAME_MAX"), os.pathconf(where, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows)
        name_max, path_max = 255, 4096
    size = len(os.fsencode(path.name))
    if size > name_max:
        return (
            f"the file name has {size} bytes, more than the {name_max} this file system allows",
            f"give a name of at most {name_max - len(extra)} bytes",
        )
    if size + len(extra) > name_max:
        return (
            f"the file name has {size} bytes, and {writer} files named NAME{extra} next to it ({len(extra)} bytes "
            f"more), more than the {name_max} this file system allows",
            f"give a name of at most {name_max - len(extra)} bytes",
        )
    if len(os.fsencode(os.path.abspath(path))) + len(extra) >= path_max:
        return f"the path is longer than the {path_max - len(extra) - 1} bytes allowed", "give a shorter path"
    return None
