"""The ledger of a distributed count: one SQLite file that records every finished task.

A long count is split into independent *tasks* (a :class:`Split`: the method, the prefix
depth, whether orbits are counted, and the task keys in order; a task's id is its index).
Each finished task gives a :class:`TaskResult`. The distributed runner records every
result in a :class:`Ledger` the moment it arrives, each in its own committed transaction,
so a run that stops (Ctrl-C, a lost worker, a killed scheduler) and is started again with
the same file computes only the tasks still :meth:`~Ledger.missing`; the final answer is
:meth:`~Ledger.totals`, the sum over the ledger.

**What the file holds.** Two tables. ``meta``: the format and its version, the problem's
fingerprint and its :meth:`~queenslab.problem.Problem.to_dict` JSON, the split's method,
depth, orbit flag, number of tasks and digest (:meth:`Split.digest`), the queenslab
version that created the file, the creation date, and a digest of the table itself.
``tasks``: one row per finished task -- its id, ``count``, ``uniq`` (the orbit count, NULL
when orbits are not counted), ``nodes``, the worker, the seconds it took, the queenslab
version that computed it, and a check ``chk``.

**Checks.** A row's check is 63 bits of a keyed BLAKE2b over the task id, the task's key
and every stored value of the row; the key is derived from the problem's fingerprint and
the split's digest, so a row copied from the ledger of another problem or split fails
too. Every read (:meth:`~Ledger.done`, :meth:`~Ledger.missing`, :meth:`~Ledger.totals`,
:meth:`~Ledger.verify_sample`) verifies every row: a result edited by hand is never
summed silently, the error names the task. Opening an existing file checks that it is a
queenslab ledger (the SQLite header against the file size, the tables, the meta keys and
the meta digest), of the same problem (fingerprint) and the same split (digest), before
anything is written to it; a file that is not a ledger is refused and never modified,
and the message says what it is (a queenslab index, an SQLite database of another
application with some of its tables, not SQLite at all). An empty file, or an SQLite
database without any table, is taken as a new ledger (nothing in it can be lost). What a
ledger shares with the ranking index -- the header check, the sealed meta table, the
keyed checks, telling what a file is, the error wrapper -- is :mod:`queenslab.store`.
The path follows the one policy of :func:`~queenslab.outfile.output_target`: a symbolic
link is followed only to an existing file (a dangling one is refused, so nothing is
created elsewhere), a read-only file is refused, and the name must leave room for
SQLite's ``-journal`` and ``-wal`` files next to it.

**Concurrency.** Several processes or threads may record into one ledger at once: the
file is in WAL journal mode with a busy timeout of 30 seconds, a new ledger is created
under SQLite's write lock (``BEGIN IMMEDIATE``, the tables re-read under it), and a task
is inserted with ``INSERT OR IGNORE`` on its id (the primary key), so it is never
recorded twice: the first row is kept, and a second computation of the same task that
disagrees with it is an error. Commits are synchronous (``synchronous=FULL``).

**Errors.** A file that is damaged, truncated, not SQLite, not readable, edited, or of
another problem or split raises :class:`InvalidLedger` (a
:class:`~queenslab.errors.QueensError`) naming the file and saying what to do; bad
arguments (a count beyond a signed 64-bit integer, a task id the split does not have)
raise :class:`~queenslab.errors.QueensError`. No ``sqlite3`` exception escapes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version as _dist_version
from pathlib import Path
from random import Random
from typing import Any, SupportsIndex, cast

from .. import store, validate
from ..errors import QueensError
from ..native.methods import REGISTRY
from ..outfile import output_target
from ..problem import Problem, as_problem

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "METHODS",
    "RECOUNT_METHODS",
    "InvalidLedger",
    "Split",
    "TaskResult",
    "Ledger",
    "check_ledger",
    "kept_note",
    "recorded_split",
]

#: The ``format`` entry of a ledger's meta table.
FORMAT = store.LEDGER_FORMAT
#: Version of the file layout this module writes and reads.
FORMAT_VERSION = 1
#: The split methods a ledger knows: the native engine's counting methods
#: (:data:`queenslab.native.methods.REGISTRY`: slices of the half-board join's row splits,
#: the symmetric search's tasks, prefixes of the first rows). A ledger of one method stays
#: a ledger of that method: a run resumes the split its ledger records
#: (:func:`recorded_split`), whatever the default for a new count.
#: The split methods a ledger records: the native engine's, and a solver's recount of the
#: native prefix split (:mod:`queenslab.backends.recount`: each task's lex-leaders or solutions).
RECOUNT_METHODS = ("recount-orbits", "recount-solutions")
METHODS = (*REGISTRY, *RECOUNT_METHODS)

_INT64_MIN = -(2**63)

# The schema, one statement per table, as SQLite stores it: a file whose tables differ
# (changed by hand or by damage) is refused.
_SCHEMA = (
    store.META_TABLE,
    "CREATE TABLE tasks (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, uniq INTEGER, nodes INTEGER NOT NULL, "
    "worker TEXT NOT NULL, seconds REAL NOT NULL, version TEXT NOT NULL, chk INTEGER NOT NULL)",
)
_COLUMNS = "id, count, uniq, nodes, worker, seconds, version, chk"
#: SQLite's files next to a database (``-journal``, ``-wal``, ``-shm``): the longest suffix.
_SIDE_SUFFIX = "-journal"
_META_KEYS = (
    "format",
    "version",
    "fingerprint",
    "problem",
    "method",
    "depth",
    "unique",
    "tasks",
    "split_digest",
    "package",
    "created",
    "meta_digest",
)


class InvalidLedger(QueensError):
    """A ledger file that cannot be used: not a ledger, damaged, truncated, unreadable,
    edited by hand, of another problem or split, or (for :meth:`Ledger.totals`) not
    complete. The message names the file and says what to do."""


@functools.lru_cache(maxsize=1)
def _package_version() -> str:
    try:
        return _dist_version("queenslab")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"


def _key_number(value: object, what: str) -> int:
    """One number of a task key: an integer (not a bool) of signed 64 bits."""
    if not isinstance(value, bool):
        try:
            v = operator.index(cast(SupportsIndex, value))
        except TypeError:
            pass
        else:
            if _INT64_MIN <= v < 2**63:
                return v
    raise QueensError(f"{what} must be an integer of signed 64 bits, got {validate.brief(value)}")


# ------------------------------------------------------------------------ the split


@dataclass(frozen=True)
class Split:
    """How a count is cut into tasks: what a ledger is made for.

    The fields are checked and normalised on construction (``tasks`` becomes a tuple of
    tuples of ints; lists are accepted).

    Parameters
    ----------
    method : str
        ``"symmetric"``, ``"general"`` or ``"join"``.
    depth : int
        The prefix depth (0 for the symmetric and the join method).
    unique : bool
        Whether the tasks count orbits too (then every result carries ``unique``); False
        for a join split, whose tasks count totals only.
    tasks : tuple of tuple of int
        The task keys, in order; a task's id is its index. No key may appear twice.

    Raises
    ------
    QueensError
        For an unknown method, a negative depth, a non-boolean ``unique``, a task key
        that is not a sequence of integers, or a key given twice.

    Examples
    --------
    >>> s = Split("general", 2, False, [[0, 2], (0, 3)])
    >>> s.tasks
    ((0, 2), (0, 3))
    >>> len(s.digest()), s.digest() == Split("general", 2, False, ((0, 2), (0, 3))).digest()
    (64, True)
    >>> Split("general", 2, False, [(0, 2), (0, 2)])
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: task key (0, 2) appears twice in the split (task ids 0 and 1)
    """

    method: str
    depth: int
    unique: bool
    tasks: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.method, str):
            raise QueensError(
                f"the split method must be one of {', '.join(METHODS)}, got {validate.brief(self.method)}"
            )
        method = validate.choice(str(self.method), METHODS, "split method")
        depth = validate.int64(self.depth, "the split depth", minimum=0)
        unique = validate.flag(self.unique, "the split's unique flag")
        if isinstance(self.tasks, (str, bytes)):
            raise QueensError(
                f"the split's tasks must be a sequence of tuples of integers, got {validate.brief(self.tasks)}"
            )
        try:
            items = list(cast(Iterable[object], self.tasks))
        except TypeError:
            raise QueensError(
                f"the split's tasks must be a sequence of tuples of integers, got {validate.brief(self.tasks)}"
            ) from None
        tasks: list[tuple[int, ...]] = []
        first: dict[tuple[int, ...], int] = {}
        for i, item in enumerate(items):
            if isinstance(item, (str, bytes)):
                raise QueensError(f"task {i} of the split must be a tuple of integers, got {validate.brief(item)}")
            try:
                parts = list(cast(Iterable[object], item))
            except TypeError:
                raise QueensError(
                    f"task {i} of the split must be a tuple of integers, got {validate.brief(item)}"
                ) from None
            key = tuple(_key_number(x, f"a number in task {i} of the split") for x in parts)
            if key in first:
                raise QueensError(f"task key {key} appears twice in the split (task ids {first[key]} and {i})")
            first[key] = i
            tasks.append(key)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "unique", unique)
        object.__setattr__(self, "tasks", tuple(tasks))

    @functools.cached_property
    def _digest(self) -> str:
        text = json.dumps(
            {
                "format": "queenslab-split",
                "v": 1,
                "method": self.method,
                "depth": self.depth,
                "unique": self.unique,
                "tasks": [list(t) for t in self.tasks],
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def digest(self) -> str:
        """The split's identity: hex SHA-256 of a canonical JSON of (method, depth, unique, tasks).

        Equal splits have equal digests across processes and platforms.
        """
        return self._digest

    def _describe(self) -> str:
        orbits = "counting orbits" if self.unique else "not counting orbits"
        return f"method {self.method!r}, depth {self.depth}, {orbits}, {len(self.tasks)} tasks"


@dataclass(frozen=True)
class TaskResult:
    """One finished task, as a ledger records it.

    Attributes
    ----------
    task_id : int
        The task's index in :attr:`Split.tasks`.
    count : int
        Solutions found by the task.
    unique : int or None
        Orbits found by the task; None exactly when the split does not count orbits.
    nodes : int
        Search nodes the task visited.
    worker : str
        Where it ran, e.g. ``"tcp://127.0.0.1:40123"`` or ``"thread"``.
    seconds : float
        How long it took.
    version : str
        The queenslab version that computed it.
    """

    task_id: int
    count: int
    unique: int | None
    nodes: int
    worker: str
    seconds: float
    version: str


# ------------------------------------------------------------------------- checks


class _Checks(store.Checks):
    """The row checks of a ledger, keyed by the problem's fingerprint and the split's
    digest, so a row copied from another ledger fails too."""

    def __init__(self, fingerprint: str, split_digest: str):
        super().__init__("queenslab-ledger", fingerprint, split_digest)

    def row(
        self,
        task_id: int,
        key: tuple[int, ...],
        count: int,
        unique: int | None,
        nodes: int,
        worker: str,
        seconds: float,
        version: str,
    ) -> int:
        """Check of a ``tasks`` row (63 bits: a non-negative SQLite integer)."""
        return self.of(
            json.dumps([task_id, list(key), count, unique, nodes, worker, seconds, version], separators=(",", ":"))
        )


def _new_meta(problem: Problem, split: Split) -> dict[str, str]:
    """The meta table of a new ledger, before it is sealed (:func:`queenslab.store.seal`)."""
    return {
        "format": FORMAT,
        "version": str(FORMAT_VERSION),
        "fingerprint": problem.fingerprint(),
        "problem": json.dumps(problem.to_dict(), sort_keys=True, separators=(",", ":")),
        "method": split.method,
        "depth": str(split.depth),
        "unique": "1" if split.unique else "0",
        "tasks": str(len(split.tasks)),
        "split_digest": split.digest(),
        "package": _package_version(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


# -------------------------------------------------------------------- the file


def _afresh(path: Path) -> str:
    """What to do about a damaged or foreign ledger."""
    return f"use another file for the ledger, or delete {path} to start afresh (every task is then computed again)"


def _elsewhere(path: Path, maybe: bool = False) -> str:
    """What to do about a file that is not a ledger (never: delete it)."""
    if maybe:
        return (
            "give another file name for the ledger, or, if it is a damaged ledger, delete "
            f"{path} to start afresh (every task is then computed again)"
        )
    return "give another file name for the ledger (a missing file is created)"


@contextmanager
def _sql(path: Path, what: str) -> Iterator[None]:
    """Turn sqlite3 errors and OSErrors into InvalidLedger naming the file and the reason."""

    def hint(e: Exception) -> str:
        if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
            return f"another process held it locked for over {store.BUSY_SECONDS:.0f} seconds; try again"
        if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
            return f"the file is damaged or not a ledger: {_elsewhere(path, maybe=True)}"
        return "check that the file and its directory are readable and writable"

    with store.sql_errors(f"ledger {path}", what, InvalidLedger, hint, InvalidLedger):
        yield


def _check_file(path: Path) -> None:
    """Refuse what cannot be a ledger before SQLite opens it (nothing is written)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        parent = path.parent
        if not parent.is_dir():
            raise QueensError(
                f"cannot create the ledger {path}: the directory {str(parent)!r} does not exist; create it first"
            ) from None
        return
    except OSError as e:
        raise InvalidLedger(f"cannot read the ledger {path}: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise QueensError(f"the ledger {path} is a directory; give the name of a file (it is created if missing)")
    if not stat.S_ISREG(st.st_mode):
        raise InvalidLedger(
            f"{path} is not a regular file (a device, pipe or socket), so not a ledger; {_elsewhere(path)}"
        )
    if st.st_size == 0:
        return  # a new file (perhaps being created by another process right now)
    try:
        # a write-ahead log in use: the main file may lag behind its header (SQLite reads both)
        bad = store.header_problem(path, log_may_lag=True)
    except OSError as e:
        raise InvalidLedger(f"cannot read the ledger {path}: {e.strerror or e}") from None
    if bad == store.NOT_SQLITE:
        raise InvalidLedger(
            f"{path} is not a queenslab ledger (not an SQLite database); it was left unchanged: {_elsewhere(path)}"
        )
    if bad:
        raise InvalidLedger(f"ledger {path} {bad} (damaged); {_afresh(path)}")


def _not_a_ledger(path: Path) -> InvalidLedger:
    """The error for an SQLite file whose tables are not a ledger's, saying what it is."""
    found = store.identify(path)
    if found.kind == "ledger" and set(found.names) == {"meta", "tasks"}:
        return InvalidLedger(f"ledger {path}: its tables were changed (by hand or by damage); {_afresh(path)}")
    if found.kind == "ledger" and not found.names:  # its tables could not be read this time
        return InvalidLedger(f"{path} {found.what}; {_afresh(path)}")
    if found.kind == "ledger":  # a table dropped or added
        return InvalidLedger(
            f"ledger {path}: its tables were changed (by hand or by damage; {found.tables}), so it is not a "
            f"queenslab ledger any more; {_afresh(path)}"
        )
    return InvalidLedger(f"{found.is_not(path, 'a queenslab ledger')}; it was left unchanged: {_elsewhere(path)}")


def _ensure_tables(con: sqlite3.Connection, path: Path, problem: Problem, split: Split) -> None:
    """Check the tables of an existing ledger, or create them (with the meta) in a new file.

    Creation happens under SQLite's write lock with the tables read again under it, so
    two processes creating one ledger at once make it once; the second then reads (and
    compares) the meta the first wrote.
    """
    with _sql(path, "reading its tables"):
        schema = store.schema(con)
    if schema == set(_SCHEMA):
        return
    if schema:
        raise _not_a_ledger(path)
    with _sql(path, "creating it"), store.transaction(con):
        schema = store.schema(con)
        if not schema:
            store.create(con, _SCHEMA, _new_meta(problem, split))
    if schema and schema != set(_SCHEMA):
        raise _not_a_ledger(path)


def _check_meta(path: Path, meta: dict[str, str], problem: Problem, split: Split | None) -> Problem:
    """The problem a ledger's meta describes, once the meta is checked against ``problem`` and
    ``split`` (None: the split is not known yet, see :func:`check_ledger`)."""
    missing = [k for k in _META_KEYS if k not in meta]
    if meta.get("format") != FORMAT or missing:
        detail = f"missing {', '.join(missing)}" if missing else f"format {validate.brief(meta.get('format'))}"
        raise InvalidLedger(
            f"{path} is not a queenslab ledger, or its meta table was changed ({detail}); {_elsewhere(path, maybe=True)}"
        )
    if meta["version"] != str(FORMAT_VERSION):
        raise InvalidLedger(
            f"ledger {path} has format version {validate.brief(meta['version'])}; this queenslab reads version "
            f"{FORMAT_VERSION}: {_afresh(path)}"
        )
    if meta["meta_digest"] != store.meta_digest(meta):
        raise InvalidLedger(f"ledger {path}: its meta table was modified (digest mismatch); {_afresh(path)}")
    try:
        stored = Problem.from_dict(json.loads(meta["problem"]))
        depth, unique, ntasks = int(meta["depth"]), meta["unique"], int(meta["tasks"])
    except (ValueError, TypeError, KeyError) as e:  # InvalidProblem is a ValueError
        raise InvalidLedger(f"ledger {path}: its meta table is unreadable ({e}); {_afresh(path)}") from None
    if stored.fingerprint() != meta["fingerprint"] or unique not in ("0", "1"):
        raise InvalidLedger(f"ledger {path}: its meta table is inconsistent; {_afresh(path)}")
    if meta["fingerprint"] != problem.fingerprint():
        raise InvalidLedger(
            f"ledger {path} records a count of {stored.describe()}, not of {problem.describe()} "
            f"(the problems' fingerprints differ); {_afresh(path)}"
        )
    if split is not None and meta["split_digest"] != split.digest():
        was = {"method": meta["method"], "depth": depth, "unique": unique == "1", "tasks": ntasks}
        now = {"method": split.method, "depth": split.depth, "unique": split.unique, "tasks": len(split.tasks)}
        differ = [k for k in was if was[k] != now[k]]
        names = {
            "method": "the method",
            "depth": "the depth",
            "unique": "orbit counting",
            "tasks": "the number of tasks",
        }
        if differ:
            listed = [names[k] for k in differ]
            what = (", ".join(listed[:-1]) + " and " if len(listed) > 1 else "") + listed[-1] + " differ"
        else:
            what = "the same method, depth and number of tasks, but other task keys"
        orbits = "counting orbits" if was["unique"] else "not counting orbits"
        raise InvalidLedger(
            f"ledger {path} was made for another split of the count: it has method {was['method']!r}, depth "
            f"{depth}, {orbits}, {ntasks} tasks; this run has {split._describe()} ({what}); {_afresh(path)}"
        )
    return stored


def check_ledger(path: str | os.PathLike[str], problem: Problem) -> None:
    """Refuse, before any work, a file that cannot become or be the ledger of ``problem``.

    The checks of :meth:`Ledger.open` that need no split -- the path policy, a file that
    is not a ledger (not SQLite, another application's tables, a queenslab index), a
    damaged file, a meta table edited by hand, a ledger of another problem -- run here
    on the file as it is, without writing, so that a count that would be refused is
    refused before its kernels compile and its split is made. The split itself is
    compared when :meth:`Ledger.open` opens the ledger.

    Raises
    ------
    InvalidLedger, QueensError
        As :meth:`Ledger.open` does.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "count.ledger")
    ...     check_ledger(path, Problem(4))  # a new ledger: nothing to refuse
    ...     Ledger.open(path, Problem(4), Split("general", 1, False, [(0,), (1,)])).close()
    ...     check_ledger(path, Problem(5))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    queenslab.distributed.ledger.InvalidLedger: ledger ... records a count of 4-queens, not of 5-queens ...
    """
    problem = as_problem(problem)
    path = output_target(validate.path(path, "the ledger file"), "the ledger")
    long = store.too_long(path, _SIDE_SUFFIX, "SQLite keeps")
    if long:
        raise QueensError(f"the ledger {store.short(path)}: {long[0]}; {long[1]}")
    _check_file(path)
    if not path.is_file() or path.stat().st_size == 0:
        return
    with _sql(path, "reading it"):
        con = store.connect(path, readonly=True, immutable=not path.with_name(path.name + "-wal").exists())
        try:
            schema = store.schema(con)
            meta = store.read_meta(con) if schema == set(_SCHEMA) else {}
        finally:
            con.close()
    if schema != set(_SCHEMA):
        if schema:
            raise _not_a_ledger(path)
        return  # an SQLite file without tables: Ledger.open makes it a ledger
    _check_meta(path, meta, problem, None)


def recorded_split(path: str | os.PathLike[str], problem: Problem) -> tuple[str, int, bool] | None:
    """The split an existing ledger of ``problem`` was made for: ``(method, depth, unique)``.

    A run that resumes a ledger takes its split from here, so that a ledger made when
    another split was the default (the symmetric split of the standard problem, before
    the half-board join) resumes as it was made.

    Nothing is written: the file is read as :func:`queenslab.store.identify` reads it.
    None when there is nothing to resume -- no file, an empty one -- and also when the
    file is not a sound ledger of ``problem`` (not SQLite, other tables, a meta table
    edited, another problem): :meth:`Ledger.open` then says what is wrong with it.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "count.ledger")
    ...     before = recorded_split(path, Problem(4))
    ...     Ledger.open(path, Problem(4), Split("general", 1, False, [(0,), (1,)])).close()
    ...     before, recorded_split(path, Problem(4)), recorded_split(path, Problem(5))
    (None, ('general', 1, False), None)
    """
    read = _read_sound(path, problem)
    if read is None:
        return None
    meta = read[0]
    return meta["method"], int(meta["depth"]), meta["unique"] == "1"


def _read_sound(path: str | os.PathLike[str], problem: Problem) -> tuple[dict[str, str], int, int] | None:
    """``(meta, tasks done, solutions in them)`` of a sound ledger of ``problem``, read
    without writing; None where :func:`recorded_split` finds nothing to resume."""
    path = Path(validate.path(path, "the ledger file"))
    problem = as_problem(problem)
    try:
        if not path.is_file() or path.stat().st_size == 0 or store.header_problem(path, log_may_lag=True):
            return None
        con = store.connect(path, readonly=True, immutable=not path.with_name(path.name + "-wal").exists())
        try:
            if store.schema(con) != set(_SCHEMA):
                return None
            meta = store.read_meta(con)
            done, found = con.execute("SELECT count(*), coalesce(sum(count), 0) FROM tasks").fetchone()
        finally:
            con.close()
    except (OSError, sqlite3.Error, UnicodeDecodeError):
        return None
    if (
        any(k not in meta for k in _META_KEYS)
        or meta["format"] != FORMAT
        or meta["version"] != str(FORMAT_VERSION)
        or meta["meta_digest"] != store.meta_digest(meta)
        or meta["fingerprint"] != problem.fingerprint()
        or meta["method"] not in METHODS
        or meta["unique"] not in ("0", "1")
        or not meta["depth"].isdigit()
        or not meta["tasks"].isdigit()
    ):
        return None
    return meta, int(done), int(found)


def kept_note(path: str | os.PathLike[str], problem: Problem) -> str | None:
    """What a stopped count leaves in its ledger, and how to finish it, in one line (for
    :func:`queenslab.interrupt.keeping`); None when the file is no sound ledger of
    ``problem`` (nothing was recorded yet, or it is refused on the next run anyway).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "q4.ledger")
    ...     with Ledger.open(path, Problem(4), Split("general", 1, False, [(0,), (1,)])) as led:
    ...         _ = led.record(TaskResult(0, 0, None, 4, "here", 0.1, "0"))
    ...     print(kept_note(path, Problem(4)).replace(path, "q4.ledger"))
    the ledger q4.ledger keeps 1 of 2 tasks (0 solutions in them); the same command finishes the count
    """
    read = _read_sound(path, problem)
    if read is None:
        return None
    meta, done, found = read
    return (
        f"the ledger {path} keeps {done:,} of {int(meta['tasks']):,} tasks ({found:,} solutions in them); "
        "the same command finishes the count"
    )


def _to_wal(con: sqlite3.Connection) -> None:
    """Switch the file to WAL mode, waiting up to :data:`~queenslab.store.BUSY_SECONDS`
    for the lock it needs.

    Two processes opening a new ledger at once both switch it: SQLite can answer the
    second "database is locked" at once, without its busy handler (the first holds the
    lock the switch needs; seen about once in 60 pairs of threads), so the switch is
    tried again until the first has finished it.
    """
    deadline = time.monotonic() + store.BUSY_SECONDS
    while True:
        try:
            (mode,) = con.execute("PRAGMA journal_mode").fetchone()
            if str(mode).lower() != "wal":
                con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


# --------------------------------------------------------------------- the ledger


class Ledger:
    """The record of a distributed count's finished tasks, in one SQLite file.

    Get one with :meth:`open`; use it as a context manager (or call :meth:`close`). One
    ledger object may be shared by threads, and several processes may open the same
    file at once.

    Attributes
    ----------
    path : Path
        The ledger file.
    problem : Problem
        The problem being counted.
    split : Split
        How the count is cut into tasks.
    meta : dict
        The meta table as stored (``created``, ``package``, ...).

    Examples
    --------
    >>> import os, tempfile
    >>> split = Split("general", 1, False, [(0,), (1,)])
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with Ledger.open(os.path.join(d, "count.ledger"), Problem(4), split) as ledger:
    ...         ledger.record(TaskResult(0, 1, None, 7, "thread", 0.25, "0.1.0"))
    ...         ledger.missing()
    ...         ledger.record(TaskResult(1, 1, None, 7, "thread", 0.25, "0.1.0"))
    ...         ledger.totals()
    True
    [1]
    True
    (2, None, 14)
    """

    path: Path
    split: Split

    def __init__(self, path: Path, con: sqlite3.Connection, problem: Problem, split: Split, meta: dict[str, str]):
        self.path = path
        self.problem = problem
        self.split = split
        self.meta = meta
        self._con: sqlite3.Connection | None = con
        self._lock = threading.Lock()
        self._checks = _Checks(problem.fingerprint(), split.digest())

    @classmethod
    def open(cls, path: str | os.PathLike[str], problem: Problem, split: Split) -> Ledger:
        """Open the ledger at ``path`` for ``problem`` cut as ``split``, creating it if missing.

        Parameters
        ----------
        path : str or path-like
            The ledger file, named by the user. A missing (or empty) file becomes a new
            ledger; its directory must exist. A symbolic link to an existing file is
            followed (:attr:`path` is then that file).
        problem : Problem
            The problem being counted.
        split : Split
            How the count is cut into tasks.

        Returns
        -------
        Ledger

        Raises
        ------
        InvalidLedger
            If the file is not a queenslab ledger (not SQLite, a queenslab index, another
            application's tables), is truncated, damaged or unreadable, its meta table
            was edited, or it was made for another problem or split; the file is left
            unchanged and the message says what it is or what differs, and what to do.
        QueensError
            For bad arguments (``problem`` not a Problem, ``split`` not a Split) and
            paths :func:`~queenslab.outfile.output_target` refuses (a directory, a
            directory that does not exist, a dangling symbolic link, a read-only file, a
            name too long for the file system).
        """
        problem = as_problem(problem)
        if not isinstance(split, Split):
            raise QueensError(f"split must be a queenslab Split, got {type(split).__name__} {validate.brief(split)}")
        # the one path policy: a link only to an existing file, never a read-only one, a
        # name the file system allows -- with room for SQLite's files next to it
        path = output_target(validate.path(path, "the ledger file"), "the ledger")
        long = store.too_long(path, _SIDE_SUFFIX, "SQLite keeps")
        if long:
            raise QueensError(f"the ledger {store.short(path)}: {long[0]}; {long[1]}")
        _check_file(path)
        with _sql(path, "opening it"):
            con = store.connect(path, autocommit=True)
        try:
            _ensure_tables(con, path, problem, split)
            # the meta is checked before anything else is written (WAL mode changes the header)
            with _sql(path, "reading its meta table"):
                meta = store.read_meta(con)
            _check_meta(path, meta, problem, split)
            with _sql(path, "switching it to WAL mode"):
                _to_wal(con)
                con.execute("PRAGMA synchronous=FULL")
        except BaseException:
            with suppress(sqlite3.Error):
                con.close()
            raise
        return cls(path, con, problem, split, meta)

    def __repr__(self) -> str:
        state = "closed" if self._con is None else "open"
        return f"<Ledger {str(self.path)!r}: {self.problem.describe()}, {self.split._describe()}, {state}>"

    # ------------------------------------------------------------------ helpers

    def _connection(self) -> sqlite3.Connection:
        if self._con is None:
            raise QueensError(f"the ledger {self.path} is closed")
        return self._con

    def _bad(self, what: str) -> InvalidLedger:
        return InvalidLedger(f"ledger {self.path}: {what}")

    def _bad_row(self, task_id: int, why: str) -> InvalidLedger:
        return self._bad(
            f"the row of task {task_id} {why}; it is never summed. Delete that row "
            f"(DELETE FROM tasks WHERE id = {task_id}) so that the task is computed again, or {_afresh(self.path)}"
        )

    def _result(self, row: tuple[Any, ...]) -> TaskResult:
        """A stored row as a TaskResult, once its types, id and check are verified."""
        task_id, count, uniq, nodes, worker, seconds, version, chk = row
        ntasks = len(self.split.tasks)
        if type(task_id) is not int or not 0 <= task_id < ntasks:
            raise self._bad(
                f"it records task id {validate.brief(task_id)}, which the split does not have (ids 0..{ntasks - 1}); "
                f"{_afresh(self.path)}"
            )
        # a damaged or edited cell may read as NULL, text or a float
        if not (
            type(count) is int
            and type(nodes) is int
            and (uniq is None or type(uniq) is int)
            and type(worker) is str
            and type(seconds) is float
            and type(version) is str
            and type(chk) is int
        ):
            raise self._bad_row(task_id, "holds a value of the wrong type")
        key = self.split.tasks[task_id]
        if chk != self._checks.row(task_id, key, count, uniq, nodes, worker, seconds, version):
            raise self._bad_row(
                task_id, "fails its check (a result edited by hand, damaged, or copied from another ledger)"
            )
        return TaskResult(task_id, count, uniq, nodes, worker, seconds, version)

    def _checked(self, result: object) -> tuple[int, int, int | None, int, str, float, str]:
        """The values of ``result`` to store, each checked."""
        if not isinstance(result, TaskResult):
            raise QueensError(f"a ledger records a TaskResult, got {type(result).__name__} {validate.brief(result)}")
        ntasks = len(self.split.tasks)
        task_id = validate.whole_number(result.task_id, "task_id", minimum=0)
        if task_id >= ntasks:
            ids = f"ids are 0..{ntasks - 1}" if ntasks else "it has no tasks"
            raise QueensError(f"task_id {task_id} is not a task of this split ({ids})")
        count = validate.int64(result.count, f"the count of task {task_id}", minimum=0)
        nodes = validate.int64(result.nodes, f"the node count of task {task_id}", minimum=0)
        uniq: int | None = None
        if self.split.unique:
            if result.unique is None:
                raise QueensError(f"task {task_id} has no orbit count (unique is None), but this split counts orbits")
            uniq = validate.int64(result.unique, f"the orbit count of task {task_id}", minimum=0)
        elif result.unique is not None:
            raise QueensError(
                f"task {task_id} has an orbit count ({validate.brief(result.unique)}), but this split does not count "
                "orbits: unique must be None"
            )
        for name in ("worker", "version"):
            if not isinstance(getattr(result, name), str):
                raise QueensError(
                    f"the {name} of task {task_id} must be a str, got {validate.brief(getattr(result, name))}"
                )
        seconds = validate.real(result.seconds, f"the seconds of task {task_id}", minimum=0)
        return task_id, count, uniq, nodes, str(result.worker), seconds, str(result.version)

    # ------------------------------------------------------------------ the API

    def done(self) -> dict[int, TaskResult]:
        """Every recorded task result, by task id, each row's check verified.

        Raises
        ------
        InvalidLedger
            If a row fails its check (a result edited by hand, a row copied from another
            ledger) or holds an id the split does not have; the message names the task.
        """
        with self._lock, _sql(self.path, "reading the recorded tasks"):
            rows = self._connection().execute(f"SELECT {_COLUMNS} FROM tasks ORDER BY id").fetchall()
        return {r.task_id: r for r in map(self._result, rows)}

    def record(self, result: TaskResult) -> bool:
        """Record one finished task, committed at once (in its own transaction).

        Parameters
        ----------
        result : TaskResult
            The task's result; ``unique`` is an int exactly when the split counts orbits.

        Returns
        -------
        bool
            True when it was inserted; False when the task was already recorded with the
            same count, orbit count and nodes (the first row is kept).

        Raises
        ------
        QueensError
            If a value is not an integer of signed 64 bits (counts and nodes >= 0), the
            task id is not one of the split, or ``unique`` does not match the split.
        InvalidLedger
            If the task was already recorded with other values (two computations of one
            task disagree), or its recorded row fails its check.
        """
        task_id, count, uniq, nodes, worker, seconds, version = self._checked(result)
        chk = self._checks.row(task_id, self.split.tasks[task_id], count, uniq, nodes, worker, seconds, version)
        with self._lock, _sql(self.path, f"recording task {task_id}"):
            con = self._connection()
            cur = con.execute(
                f"INSERT OR IGNORE INTO tasks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (task_id, count, uniq, nodes, worker, seconds, version, chk),
            )
            if cur.rowcount == 1:
                return True
            row = con.execute(f"SELECT {_COLUMNS} FROM tasks WHERE id = ?", (task_id,)).fetchone()
        if row is None:  # removed by hand between the two statements
            raise self._bad(f"the row of task {task_id} vanished while it was being recorded")
        first = self._result(row)
        if (first.count, first.unique, first.nodes) != (count, uniq, nodes):
            raise self._bad(
                f"two computations of task {task_id} (key {self.split.tasks[task_id]}) disagree: recorded count "
                f"{first.count}, unique {first.unique}, nodes {first.nodes} (worker {first.worker!r}, queenslab "
                f"{first.version}), now count {count}, unique {uniq}, nodes {nodes} (worker {worker!r}, queenslab "
                f"{version}); the first is kept: recompute the task to find which is right"
            )
        return False

    def missing(self) -> list[int]:
        """The ids of the tasks not yet recorded, in order (the recorded rows verified)."""
        done = self.done()
        return [i for i in range(len(self.split.tasks)) if i not in done]

    def totals(self) -> tuple[int, int | None, int]:
        """``(count, unique, nodes)`` summed over every task (``unique`` None when the split
        does not count orbits).

        Raises
        ------
        InvalidLedger
            If a task is not recorded yet, or a row fails its check.
        """
        done = self.done()
        ntasks = len(self.split.tasks)
        if len(done) != ntasks:
            missing = [i for i in range(ntasks) if i not in done]
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            raise InvalidLedger(
                f"ledger {self.path} is not complete: {len(done)} of {ntasks} tasks recorded, {len(missing)} "
                f"missing (task ids {shown}); run the count again with this ledger to compute them"
            )
        results = [done[i] for i in range(ntasks)]
        count = sum(r.count for r in results)
        nodes = sum(r.nodes for r in results)
        unique = sum(cast(int, r.unique) for r in results) if self.split.unique else None
        return count, unique, nodes

    def verify_sample(self, k: int, seed: int = 0) -> list[int]:
        """``k`` distinct recorded task ids chosen at random, in increasing order, for the
        caller to recompute; every recorded task when fewer than ``k`` are.

        The same recorded tasks and the same ``seed`` give the same ids.

        Raises
        ------
        QueensError
            If ``k`` is not an integer >= 0 or ``seed`` not a valid seed.
        InvalidLedger
            If a row fails its check.
        """
        k = validate.whole_number(k, "k", minimum=0)
        seed = validate.seed(seed)
        ids = sorted(self.done())
        return sorted(Random(seed).sample(ids, min(k, len(ids))))

    def close(self) -> None:
        """Close the file (again: nothing happens)."""
        with self._lock:
            con, self._con = self._con, None
            if con is not None:
                with _sql(self.path, "closing it"):
                    con.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
