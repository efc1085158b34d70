"""Finding indexes: the complete index of a problem in a directory (:func:`find_index`),
the ranking functions' ``index`` argument from a user's choice (:func:`resolve`), and
every index file and partial build of a directory with its status (:func:`list_indexes`).

Finding only reads: a partial build is listed (a consistent snapshot of its write-ahead
log) but never opened as an index, and what cannot be read of a damaged file is left
unknown.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from .. import store, validate
from ..errors import InvalidIndex, QueensError
from ..problem import Problem
from .index_file import PrefixIndex
from .index_lock import holder_pid
from .index_paths import index_dir, lookup_name
from .walk import check_problem


def _depth_of(path: Path, prefix: str) -> int | None:
    tail = path.name[len(prefix) : -len(".sqlite")]
    return int(tail) if tail.isdigit() else None


def find_index(problem: Problem, directory=None) -> PrefixIndex | None:
    """The complete index of ``problem`` in the index directory (the deepest if several),
    or None. A partial build is skipped; a damaged or outdated index raises
    :class:`InvalidIndex`."""
    check_problem(problem)
    base = lookup_name(index_dir(directory))
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
    p = lookup_name(validate.path(path, "the index"))
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


def _read_partial_meta(path: Path, *, immutable: bool = False) -> dict:
    con = store.connect(path, readonly=True, immutable=immutable)
    try:
        return store.read_meta(con)
    finally:
        con.close()


def list_indexes(directory=None) -> list[dict]:
    """Every index file and partial build in the directory (or the one file named):
    path, bytes, status, and (None when unknown or unreadable) n, depth, total, rows,
    problem (1-based dict form), built.

    ``status`` is ``"complete"``, ``"incomplete: ..."`` for a partial build (with the
    builder's PID while one runs), or ``"invalid: ..."`` with the reason.
    """
    base = lookup_name(index_dir(directory))
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
                con = store.connect(path, readonly=True)
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
                if store.identify(path).kind != "index":
                    raise InvalidIndex("not an index")
                meta = _read_partial_meta(path, immutable=True)
                problem = Problem.from_dict(json.loads(meta["problem"]))
                entry.update({"n": problem.n, "depth": int(meta["depth"]), "problem": problem.to_dict(one_based=True)})
            except Exception:  # a damaged file: leave the fields None
                pass
        out.append(entry)
    return out
