"""The tasks of an index build, counted on threads or on a Dask cluster.

A build is cut into *tasks*, one per prefix of the first rows (:class:`Plan`); a task
counts every prefix of the index's depth below it. When the problem is symmetric under
``c -> n-1-c`` only the left half is counted: the mirror of a prefix has the key
``n**d - 1 - key`` and the same count, and the task that counts a prefix stores its
mirror too. Each finished task is committed to the partial build at once, its rows each
with its own check and its record (row count and sum) with a check of its own, in one
transaction: an interrupted build keeps every finished task.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from .. import interrupt
from ..d4 import D4Element
from ..distributed.runner import finished
from ..native import engine
from ..problem import Problem
from .index_format import IndexChecks, encode_prefix

_CMPL = D4Element(cmpl=True)


class Plan:
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
        self.codes = {encode_prefix(t, n): t for t in tasks}
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


def _rows(
    problem: Problem,
    counter: engine.PrefixCounter,
    depth: int,
    task: Sequence[int],
    mirror_top: int | None,
    stop: threading.Event | None = None,
) -> list[tuple[int, int]] | None:
    """Every prefix of ``depth`` rows below ``task`` as ``(code, count)`` (and, given
    ``mirror_top``, the mirrored codes with the same counts); None once ``stop`` is set."""
    n = problem.n
    rows = []
    for arr in engine.prefix_batches(problem, depth, prefix=task):
        for pre in arr.tolist():
            if stop is not None and stop.is_set():
                return None
            interrupt.check()
            rows.append((encode_prefix(pre, n), counter.count(pre)[0]))
    if mirror_top is not None:
        rows += [(mirror_top - code, cnt) for code, cnt in rows]
    return rows


def task_rows(
    problem: Problem, depth: int, task: tuple[int, ...], mirror_top: int | None
) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """The rows of one build task, ``(task, [(prefix code, count), ...])``: every prefix of
    ``depth`` rows below ``task`` with its count (and, given ``mirror_top``, the mirrored
    codes with the same counts). Module-level, so that a Dask worker can run it."""
    rows = _rows(problem, engine.PrefixCounter(problem), depth, task, mirror_top)
    assert rows is not None  # only a stop event ends it early
    return tuple(task), rows


def _on_dask(client: Any, problem: Problem, plan: Plan, todo: list) -> Iterator[Any]:
    """The build tasks ``todo`` on a Dask cluster, each result as it ends."""
    futures = [
        client.submit(task_rows, problem, plan.d, tuple(t), plan.top if plan.adds_mirror(t) else None, pure=False)
        for t in todo
    ]
    for _, result in finished(client, futures):
        yield result


def run_build_tasks(
    problem: Problem,
    plan: Plan,
    con: sqlite3.Connection,
    checks: IndexChecks,
    done: set[int],
    threads: int,
    progress: Callable[[int, int], None] | None,
    client: Any = None,
) -> None:
    """Count the tasks not ``done`` (on ``threads`` threads, or on the Dask ``client``)
    and commit each as it ends."""
    todo = [t for t in plan.tasks if encode_prefix(t, plan.n) not in done]
    before = len(plan.tasks) - len(todo)
    if client is not None:
        _commit(_on_dask(client, problem, plan, todo), plan, con, checks, before, progress)
        return
    counter = engine.PrefixCounter(problem)
    stop = threading.Event()

    def run_task(t):
        rows = _rows(problem, counter, plan.d, t, plan.top if plan.adds_mirror(t) else None, stop)
        return None if rows is None else (t, rows)

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queenslab-index")
    try:
        futures = [pool.submit(run_task, t) for t in todo]
        results = (res for res in (fut.result() for fut in as_completed(futures)) if res is not None)
        _commit(results, plan, con, checks, before, progress)
    finally:
        # On Ctrl-C or an error: tasks not started are dropped, running ones stop at
        # their next prefix; what was committed stays for the next build.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)


def _commit(
    results: Iterator[Any],
    plan: Plan,
    con: sqlite3.Connection,
    checks: IndexChecks,
    done: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Commit each finished task: its rows and its record in one transaction."""
    n = plan.n
    for t, rows in results:
        tc = encode_prefix(t, n)
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
        done += 1
        if progress:
            progress(done, len(plan.tasks))
        interrupt.check()
