"""A complete index opened for queries: :class:`PrefixIndex`.

Opening checks the SQLite header against the file size, the schema, the meta digest, the
row count and the first and last rows (cheap); every look-up checks the row it reads,
and an unrank also requires ``0 <= r - cum < cnt`` of the row it lands on, so a deleted
row cannot send it into a wrong subtree; :meth:`PrefixIndex.verify` checks everything
(every row check, the ``cum`` chain, the total, the table digest, SQLite's integrity
check) and can recount random prefixes with the engine. File metadata (size,
modification time) is never trusted. A file that fails a check is refused with
:class:`~queenslab.errors.InvalidIndex` saying what is wrong and how to rebuild it; a
file that is not an index is refused saying what it is.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random

from .. import interrupt, store, validate
from ..data import known_total
from ..errors import InvalidIndex, QueensError
from ..problem import Problem
from .index_format import (
    CHUNK,
    FINAL_SCHEMA,
    SCHEMA_VERSION,
    IndexChecks,
    decode_prefix,
    encode_prefix,
    read_index_meta,
    rebuild_hint,
    sql_errors,
    update_row,
)
from .index_paths import name_too_long, partial_path
from .walk import WalkMismatch, as_solution, check_problem, check_rank, rank_walk, unrank_walk


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
        self._checks = IndexChecks(problem.fingerprint(), self.depth)
        self._hint = rebuild_hint(problem, self.depth, path)

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
        long = name_too_long(path)
        if long:
            raise InvalidIndex(f"the index file {store.short(path)}: {long[0]}, so no index has that name")
        if not os.path.isfile(path):
            if path.name and os.path.exists(partial_path(path)):
                raise InvalidIndex(
                    f"index {path} is incomplete (an interrupted build, {partial_path(path).name}); "
                    "run `queenslab index build` again with the same arguments to resume it"
                )
            raise InvalidIndex(f"no index file at {path}; build one with `queenslab index build`")
        with sql_errors(path, "opening it"):
            bad = store.header_problem(path)
            wal = not bad and store.in_wal_mode(path)  # an index is never in WAL mode: not one
        if bad or wal:
            cls._refuse_other(path)
        if bad == store.NOT_SQLITE:
            raise InvalidIndex(
                f"{path} is not a queenslab index (not an SQLite database); give an index file or directory "
                "made by `queenslab index build`"
            )
        if bad:
            raise InvalidIndex(f"{path} {bad}; {rebuild_hint(None, None, path)}")
        with sql_errors(path, "opening it", rebuild_hint(None, None, path)):
            con = store.connect(path, readonly=True)
        try:
            with sql_errors(path, "reading its schema", rebuild_hint(None, None, path)):
                schema = store.schema(con)
            if schema != set(FINAL_SCHEMA):
                cls._refuse_other(path)
                try:
                    version = read_index_meta(con, path).get("version")
                except InvalidIndex:
                    version = None
                if version is not None and version != str(SCHEMA_VERSION):
                    cls._check_meta(path, {"version": version})  # says which version, and to rebuild
                raise InvalidIndex(
                    f"index {path}: its tables were changed (by hand or by damage); "
                    "rebuild it with `queenslab index build ... --rebuild` (the same problem and depth)"
                )
            meta = read_index_meta(con, path)
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
        found = store.identify(path)
        if found.kind == "partial":
            raise InvalidIndex(
                f"{found.is_not(path, 'a complete index')}; run the `queenslab index build` that made it again "
                "to finish the build"
            )
        if found.kind != "index":
            raise InvalidIndex(
                f"{found.is_not(path, 'a queenslab index')}; give an index file or directory made by "
                "`queenslab index build`"
            )

    @staticmethod
    def _check_meta(path: Path, meta: dict) -> Problem:
        generic = rebuild_hint(None, None, path)
        version = meta.get("version")
        if version != str(SCHEMA_VERSION):
            raise InvalidIndex(
                f"index {path} has schema version {version}, this queenslab reads version {SCHEMA_VERSION} "
                f"(checks stored inside the file); {generic}"
            )
        if meta.get("complete") != "1":
            raise InvalidIndex(f"index {path} is not marked complete; {generic}")
        if meta.get("meta_digest") != store.meta_digest(meta):
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
        with sql_errors(self.path, "a query", self._hint):
            return self._con.execute(sql, args).fetchall()

    def _bad(self, what: str) -> InvalidIndex:
        return InvalidIndex(f"index {self.path} is inconsistent: {what}; {self._hint}")

    def _checked(self, row: tuple) -> tuple[int, int, int]:
        if not all(type(x) is int for x in row):  # a damaged cell may read as NULL, text or a float
            raise self._bad(f"a row holds a value that is not an integer: {row!r}")
        code, cum, cnt, chk = row
        if chk != self._checks.row(code, cum, cnt):
            raise self._bad(f"the row of prefix {decode_prefix(code, self.problem.n, self.depth)} fails its check")
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
        row = self._row(encode_prefix(cols, n))
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
        row = self._row(encode_prefix(p[: self.depth], self.problem.n))
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
        prefix = decode_prefix(code, self.problem.n, self.depth)
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
        if self.meta.get("meta_digest") != store.meta_digest(self.meta):
            raise self._bad("its meta table was modified (digest mismatch)")
        checks.append("meta digest")
        rng = Random(seed)
        picked: list[tuple[int, int]] = []
        digest = self._checks.table()
        acc = count = 0
        top = n**d
        with sql_errors(self.path, "reading the rows", self._hint):
            cur = self._con.execute("SELECT code, cum, cnt, chk FROM lex ORDER BY code")
            for row in cur:
                code, cum, cnt = self._checked(row)
                if cum != acc:
                    raise self._bad(
                        f"the row of prefix {decode_prefix(code, n, d)} has cum {cum}, the rows before sum to {acc}"
                    )
                if cnt <= 0 or not 0 <= code < top:
                    raise self._bad(f"the row with key {code} has count {cnt} (keys are 0..{top - 1}, counts > 0)")
                update_row(digest, code, cum, cnt)
                acc += cnt
                count += 1
                if recount:  # reservoir sample of the rows to recount
                    if len(picked) < recount:
                        picked.append((code, cnt))
                    else:
                        j = rng.randrange(count)
                        if j < recount:
                            picked[j] = (code, cnt)
                if count % CHUNK == 0:
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
            prefixes = [decode_prefix(code, n, d) for code, _ in picked]
            from ..native import engine

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
