"""Solver-verified subtotals: the native engine's split, recounted task by task by a solver.

The native engine splits a count into prefix tasks (the valid placements of the first
rows, :func:`queenslab.native.engine.split_tasks`); each task is a sub-problem a solver
can count: the problem's CNF model with the prefix's queens as unit clauses.
:func:`recount` has an independent solver (``sat``: CaDiCaL enumerating, or ``d4``:
knowledge compilation) count every task and compares it with the native engine's count of
the same task, subtotal by subtotal; a disagreement names the task.

**What a task's solver count is.** A solver pays for every solution it enumerates, so it
counts the least of what settles the total:

* on a problem with symmetries, the *lex-leaders* of each task (the lex-leader model of
  the whole problem with the prefix fixed): the orbits whose least member begins with the
  prefix, which the native engine's general search counts as the task's canonical
  solutions. The total then follows by Burnside's lemma from the summed orbits and the
  solutions each symmetry fixes, counted by the same solver on models of their own
  (:mod:`queenslab.symmetry.decompose`): ``8 x orbits - 2 F90 - F180`` for the standard
  problem. Most tasks hold no lex-leader at all, and the solver proves so at once;
* on a problem without symmetries (``totals=True`` on any), the solutions of each task.

The tasks run in processes of their own (a SAT solver does not release the GIL), and
each finished task is recorded in a ledger when one is given
(:mod:`queenslab.distributed.ledger`, the split method ``recount-orbits`` or
``recount-solutions``): a run stopped by Ctrl-C and started again with the same file
counts only the tasks still missing. The native counts are recomputed on every run (they
take seconds); only the solver's are kept.

Examples
--------
>>> r = recount(Problem(8), "sat", threads=1)
>>> r.agrees, r.tasks_agreeing == len(r.tasks), r.total, r.unique
(True, True, 92, 12)
>>> r.derivation
"total = 8 x 12 orbits - 4 (rotate-180) = 92 (Burnside's lemma)"
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import interrupt, validate
from ..problem import Problem, as_problem

__all__ = [
    "recount",
    "SplitRecount",
    "TaskCheck",
    "RECOUNT_BACKENDS",
    "DEFAULT_RECOUNT_BACKEND",
    "count_prefix",
    "count_batch",
]

#: The solvers that recount tasks; the first is the default (measured faster per task:
#: docs/benchmarks.md, "Recounting the native split").
RECOUNT_BACKENDS = ("sat", "d4")
DEFAULT_RECOUNT_BACKEND = RECOUNT_BACKENDS[0]
#: What a task's solver count counts: ``orbits`` (lex-leaders) or ``solutions``.
ORBITS, SOLUTIONS = "orbits", "solutions"


@dataclass(frozen=True)
class TaskCheck:
    """One task of a :func:`recount`: its prefix (0-based columns of the first rows), the
    native engine's count and the solver's (orbits or solutions, :attr:`SplitRecount.counted`)."""

    task_id: int
    task: tuple[int, ...]
    native: int
    solver: int
    seconds: float

    @property
    def agrees(self) -> bool:
        return self.native == self.solver


@dataclass(frozen=True)
class SplitRecount:
    """The native split recounted by a solver (see the module docstring).

    Attributes
    ----------
    problem : Problem
    backend : str
        The solver that recounted (``sat`` or ``d4``).
    counted : str
        What each task's counts are: ``"orbits"`` (lex-leaders) or ``"solutions"``.
    depth : int
        The prefix depth of the tasks.
    tasks : tuple of TaskCheck
        Every task, in the split's order.
    native_total, native_unique : int
        The native engine's sums over the tasks.
    total, unique : int
        The solver's: the sums of its task counts, and the total by Burnside's lemma
        when it counted orbits (``unique`` None when it counted solutions on a problem
        with symmetries).
    derivation : str or None
        How the solver's total was obtained when it was not summed (Burnside's equation).
    from_ledger : int
        Tasks whose solver count was read from the ledger, not counted this run.
    seconds : float
    workers : int
        Processes that counted.
    """

    problem: Problem
    backend: str
    counted: str
    depth: int
    tasks: tuple[TaskCheck, ...]
    native_total: int
    native_unique: int | None
    total: int
    unique: int | None
    derivation: str | None
    from_ledger: int
    seconds: float
    workers: int

    @property
    def disagreements(self) -> tuple[TaskCheck, ...]:
        """The tasks whose counts differ."""
        return tuple(t for t in self.tasks if not t.agrees)

    @property
    def tasks_agreeing(self) -> int:
        return sum(t.agrees for t in self.tasks)

    @property
    def agrees(self) -> bool:
        """Every task's counts equal, and the totals (and orbits) equal."""
        return (
            not self.disagreements
            and self.total == self.native_total
            and (self.unique is None or self.unique == self.native_unique)
        )

    @property
    def verdict(self) -> str:
        """``"agree"`` or ``"disagree"``."""
        return "agree" if self.agrees else "disagree"


def recount(
    problem: Problem,
    backend: str = DEFAULT_RECOUNT_BACKEND,
    *,
    threads: int | None = None,
    depth: int | None = None,
    totals: bool = False,
    ledger: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SplitRecount:
    """Recount the native engine's prefix split of ``problem`` with a solver, task by task.

    Parameters
    ----------
    problem : Problem
    backend : {"sat", "d4"}, default "sat"
        The solver of every task.
    threads : int, optional
        Processes counting at once (default: every core).
    depth : int, optional
        The prefix depth (default: the native split's, the least with 256 tasks or more).
    totals : bool, default False
        Count each task's solutions, not its lex-leaders (slower by about the group's
        order; the only way on a problem without symmetries, where the two are one).
    ledger : path, optional
        A ledger file recording each task's solver count; a new run with it counts only
        the tasks missing.
    progress : callable, optional
        ``progress(done, total)`` after each task the solver counted.

    Returns
    -------
    SplitRecount

    Raises
    ------
    QueensError
        For an unknown backend, bad arguments, a ledger of another problem or split.
    """
    from ..distributed.ledger import RECOUNT_METHODS, Ledger, Split, TaskResult
    from ..native import engine

    problem = as_problem(problem)
    backend = validate.choice(backend, RECOUNT_BACKENDS, "the recount's solver")
    threads = validate.threads(threads) if threads is not None else (os.cpu_count() or 1)
    totals = validate.flag(totals, "totals")
    counted = SOLUTIONS if totals or len(problem.symmetries()) == 1 else ORBITS
    _method, d, keys = engine.split_tasks(problem, method="general", depth=depth)
    _check_solver(backend)
    t0 = time.perf_counter()
    split = Split(RECOUNT_METHODS[0] if counted == ORBITS else RECOUNT_METHODS[1], d, False, tuple(keys))
    book = Ledger.open(ledger, problem, split) if ledger is not None else None
    try:
        done = {i: r.count for i, r in book.done().items()} if book is not None else {}
        from_ledger = len(done)
        seconds: dict[int, float] = {i: 0.0 for i in done}
        native: dict[int, tuple[int, int]] = {}
        from .. import __version__

        def finished(i: int, counts: tuple[int, int], found: int | None, took: float) -> None:
            native[i] = counts
            if found is not None:
                done[i], seconds[i] = found, took
                if book is not None:
                    book.record(TaskResult(i, found, None, 0, backend, took, __version__))
            if progress is not None:
                progress(len(native), len(keys))

        workers = _count_tasks(problem, backend, counted, keys, set(done), threads, finished)
        fixed = _fixed_counts(problem, backend) if counted == ORBITS else {}
    finally:
        if book is not None:
            book.close()
    checks = tuple(
        TaskCheck(i, key, native[i][1 if counted == ORBITS else 0], done[i], seconds[i]) for i, key in enumerate(keys)
    )
    summed = sum(t.solver for t in checks)
    native_total = sum(c for c, _ in native.values())
    native_unique = sum(u for _, u in native.values())
    derivation, unique = None, None
    if counted == ORBITS:
        from ..symmetry.decompose import burnside_equation, total_from_orbits

        total, unique = total_from_orbits(summed, fixed), summed
        derivation = f"total = {burnside_equation(summed, fixed, total)}"
    else:
        total = summed
        if len(problem.symmetries()) == 1:
            unique = summed
    return SplitRecount(
        problem,
        backend,
        counted,
        d,
        checks,
        native_total,
        native_unique,
        total,
        unique,
        derivation,
        from_ledger,
        time.perf_counter() - t0,
        workers,
    )


def _check_solver(backend: str) -> None:
    """Raise the solver's MissingDependency before any work."""
    if backend == "d4":
        from .d4 import d4_binary

        d4_binary()
    else:
        from ..models.cnf import build

        build(Problem(1))  # pysat, or the error naming its extra


def _count_tasks(
    problem: Problem,
    backend: str,
    counted: str,
    keys: list[tuple[int, ...]],
    recorded: set[int],
    threads: int,
    finished: Callable[[int, tuple[int, int], int | None, float], None],
) -> int:
    """Count every task natively, and by the solver those not ``recorded``, in
    ``threads`` processes, calling ``finished(i, (solutions, orbits), solver count or None,
    seconds)`` as each ends, in order; returns the number of processes."""
    workers = min(threads, len(keys))
    if workers == 0:
        return 0  # no valid prefix: nothing to count
    if workers == 1:  # here, without a process to start (a solver's loop checks Ctrl-C)
        for i, key in enumerate(keys):
            interrupt.check()
            ((counts, found, took),) = count_batch(problem, backend, counted, [(key, i not in recorded)])
            finished(i, counts, found, took)
        return 1
    from .processes import context

    # batches of tasks in order: a process builds its model once, the scheduling is paid
    # once per batch, and the ledger still records often
    batch = max(1, min(32, len(keys) // (16 * workers)))
    chunks = [list(range(k, min(k + batch, len(keys)))) for k in range(0, len(keys), batch)]
    with cf.ProcessPoolExecutor(workers, mp_context=context()) as pool:
        futures = [
            pool.submit(count_batch, problem, backend, counted, [(keys[i], i not in recorded) for i in chunk])
            for chunk in chunks
        ]
        try:
            for chunk, future in zip(chunks, futures):
                while True:
                    interrupt.check()
                    try:
                        results = future.result(timeout=0.1)
                        break
                    except cf.TimeoutError:
                        continue
                for i, (counts, found, took) in zip(chunk, results):
                    finished(i, counts, found, took)
        except BaseException:
            for future in futures:
                future.cancel()
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.kill()  # a solver does not stop when asked
            raise
    return workers


def count_batch(
    problem: Problem, backend: str, counted: str, tasks: list[tuple[tuple[int, ...], bool]]
) -> list[tuple[tuple[int, int], int | None, float]]:
    """Count each prefix task natively and, when asked, by ``backend``: ``((solutions,
    orbits) natively, the solver's count or None, the solver's seconds)``. Runs in a worker
    process; the solver's model of the whole problem is built once per process."""
    from ..native import engine

    out: list[tuple[tuple[int, int], int | None, float]] = []
    for task, solve in tasks:
        found, orbits, _ = engine.count_task(problem, "general", task, unique=True)
        t0 = time.perf_counter()
        solver = count_prefix(problem, backend, counted, task) if solve else None
        out.append(((found, int(orbits or 0)), solver, time.perf_counter() - t0))
    return out


@functools.lru_cache(maxsize=4)
def _base_model(problem: Problem, counted: str) -> Any:
    """The CNF model of the whole problem: lex-leader for orbits, plain for solutions."""
    from ..models.breaking import LEX_LEADER
    from ..models.cnf import build

    return build(problem, symmetry=LEX_LEADER if counted == ORBITS else None, force=True)


def count_prefix(problem: Problem, backend: str, counted: str, task: tuple[int, ...]) -> int:
    """The models of the whole problem's model with the prefix's queens fixed."""
    m = _base_model(problem, counted)
    units = [[m.var(r, c)] for r, c in enumerate(task)]
    if backend == "d4":
        return _d4_prefix(m, units)
    from .sat import DEFAULT_SOLVER, open_solver

    found = 0
    with open_solver(DEFAULT_SOLVER, m.cnf.clauses + units) as s:
        rows = range(len(task), problem.n)
        while s.solve():
            interrupt.check()
            model = s.get_model()
            found += 1
            # the queens of the free rows: the prefix is the same in every model
            s.add_clause([-v for r in rows for v in _row_queens(m, model, r)])
    return found


def _row_queens(m: Any, model: list[int], r: int) -> list[int]:
    """The true cell variables of row ``r`` in a model (pysat: variable v at index v-1)."""
    return [m.var(r, c) for c in range(m.problem.columns) if model[m.var(r, c) - 1] > 0]


@functools.lru_cache(maxsize=4)
def _dimacs_body(problem: Problem, counted: str) -> tuple[int, int, str]:
    """(variables, clauses, clause lines) of the base model, written once per process."""
    m = _base_model(problem, counted)
    return m.pool.top, len(m.cnf.clauses), "".join(" ".join(map(str, c)) + " 0\n" for c in m.cnf.clauses)


def _d4_prefix(m: Any, units: list[list[int]]) -> int:
    """d4's count of the base model with ``units`` added (every variable determined by
    the cells: a pairwise model's lex-leader variables are defined, never free)."""
    from .d4 import check_determined, count_dimacs, d4_binary

    check_determined(m)
    top, clauses, body = _dimacs_body(m.problem, ORBITS if m.symmetry else SOLUTIONS)
    text = f"p cnf {top} {clauses + len(units)}\n" + body + "".join(f"{u[0]} 0\n" for u in units)
    return count_dimacs(d4_binary(), text)


def _fixed_counts(problem: Problem, backend: str) -> dict[Any, int]:
    """The solutions each non-identity symmetry fixes, counted by ``backend`` on the
    fixed-point models of the whole problem (small: the cells of a cycle move together)."""
    from .registry import get_backend

    be = get_backend(backend)
    from ..models.cnf import build

    return {
        g: be.count(problem, model=build(problem, fixed_by=g, force=True), force=True) for g in problem.symmetries()[1:]
    }
