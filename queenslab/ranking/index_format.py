"""The format of an index file: its schema, prefix keys and depths, row checks, and the
messages that name an index.

A prefix of ``d`` rows is keyed by the integer ``sum(p[i] * n**(d-1-i))``, whose numeric
order is the lexicographic order; keys must fit a signed 64-bit SQLite integer, which
bounds the depth. A complete index has the tables ``meta`` and ``lex`` (one row per
prefix with solutions: its key, ``cum``, ``cnt`` and its check ``chk``); the working file
of a build has ``meta``, ``prefixes`` (a stored count and its check per prefix) and
``tasks`` (a finished task's row count and sum, and their check). What the two share
with the ledger -- the meta table and its digest, the keyed checks, recognising a file,
turning SQLite errors into messages -- is :mod:`queenslab.store`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import store, validate
from ..errors import InvalidIndex, QueensError
from ..problem import Problem

#: Version 2: row checks, meta and table digests inside the file, atomic completion.
SCHEMA_VERSION = 2
CHUNK = 8192  # rows per executemany / between interrupt checks

#: What a build says on the way (waiting for another builder, tasks recomputed).
Note = Callable[[str], None]

# The schemas, one statement each, as SQLite stores them: a file whose schema differs
# (a table or key changed by hand or by damage) is refused.
FINAL_SCHEMA = (
    store.META_TABLE,
    "CREATE TABLE lex (code INTEGER PRIMARY KEY, cum INTEGER NOT NULL, cnt INTEGER NOT NULL, chk INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX lex_cum ON lex (cum)",
)
PARTIAL_SCHEMA = (
    store.META_TABLE,
    "CREATE TABLE prefixes (code INTEGER PRIMARY KEY, cnt INTEGER NOT NULL, chk INTEGER NOT NULL)",
    "CREATE TABLE tasks (code INTEGER PRIMARY KEY, rows INTEGER NOT NULL, total INTEGER NOT NULL, chk INTEGER NOT NULL)",
)


# ----------------------------------------------------------------- keys, depths


def encode_prefix(prefix: Sequence[int], n: int) -> int:
    code = 0
    for c in prefix:
        code = code * n + int(c)
    return code


def decode_prefix(code: int, n: int, d: int) -> list[int]:
    out = [0] * d
    for i in range(d - 1, -1, -1):
        code, out[i] = divmod(code, n)
    return out


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


def check_depth(problem: Problem, depth) -> int:
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


# ------------------------------------------------------------------------ checks


class IndexChecks(store.Checks):
    """The checks stored in an index, keyed by the problem's fingerprint and the depth,
    so a row copied from another index fails too."""

    def __init__(self, fingerprint: str, depth: int):
        super().__init__("queenslab-index", fingerprint, str(depth))

    def row(self, code: int, cum: int, cnt: int) -> int:
        """Check of a ``lex`` row."""
        return self.of(f"L{code},{cum},{cnt}")

    def prefix(self, code: int, cnt: int) -> int:
        """Check of a stored count of a partial build."""
        return self.of(f"P{code},{cnt}")

    def task(self, code: int, rows: int, total: int) -> int:
        """Check of a finished task's record (its row count and sum)."""
        return self.of(f"T{code},{rows},{total}")

    def table(self) -> Any:
        """A running digest of the ``lex`` rows in code order (:func:`update_row`)."""
        return self.running()


def update_row(h: Any, code: int, cum: int, cnt: int) -> None:
    h.update(f"{code},{cum},{cnt};".encode())


def problem_json(problem: Problem) -> str:
    return json.dumps(problem.to_dict(), sort_keys=True)


# ---------------------------------------------------------------------- messages


def rebuild_hint(problem: Problem | None, depth: int | None, path: Path) -> str:
    if problem is None:
        return f"rebuild it with `queenslab index build ... --rebuild` (the same problem and depth) or delete {path}"
    flags = "" if problem.is_standard else f" with the variant flags of {problem.describe()}"
    return (
        f"rebuild it with `queenslab index build {problem.n} --depth {depth} --rebuild`{flags} "
        f"(build_index(..., rebuild=True)) or delete {path}"
    )


@contextmanager
def sql_errors(path: Path, what: str, hint: str = "") -> Iterator[None]:
    """Turn sqlite3 errors into InvalidIndex naming the file (and OSError into QueensError)."""
    with store.sql_errors(f"index {path}", what, InvalidIndex, hint):
        yield


def read_index_meta(con: sqlite3.Connection, path: Path) -> dict:
    with sql_errors(path, "reading its meta table", rebuild_hint(None, None, path)):
        return store.read_meta(con)
