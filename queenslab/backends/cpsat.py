"""OR-Tools CP-SAT as a backend (registry name ``cpsat``): it counts, enumerates and solves
the models that :mod:`queenslab.models.cpsat` builds, or a model you built and edited
(``model=m``).

Enumeration is exact only with one worker and without the solver's own symmetry
reasoning: a count fixes those parameters, and reports a run stopped by a limit as
incomplete (``complete=False``; :meth:`~queenslab.backends.interface.Backend.count`
raises :class:`~queenslab.errors.Incomplete`), never as a final count. A time limit
covers building the model as well as the search.

Examples
--------
Count a model edited with CP-SAT constraints (no queen on either long diagonal):

>>> from queenslab import Problem
>>> from queenslab.models import cpsat
>>> m = cpsat.build(Problem(8))
>>> for r in range(8):
...     _ = m.model.Add(m.q[r] != r)
...     _ = m.model.Add(m.q[r] != 7 - r)
>>> CpsatBackend().count(Problem(8), model=m)
12
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from typing import Any

from .. import interrupt, limits
from ..constraints import KINDS
from ..errors import Incomplete, QueensError
from ..models import model_option, size
from ..models.breaking import LEX_LEADER, check_model_count
from ..models.cpsat import SEARCH, CpsatModel, Formulation, build, cp_model_module, default_formulation
from ..problem import Problem
from .interface import ASSUME_SYMMETRIC, FORCE, LIMIT, SEED, SOLVE, TIME_LIMIT, Backend, CountResult, Option

_SEARCH_HINT = (
    "give a time limit (time_limit=S), or for one solution of a large board use a heuristic "
    "(queenslab solve N --method minconflicts)"
)


class CpsatBackend(Backend):
    name = "cpsat"
    kinds = KINDS
    hooks = ("compile", "encode_cpsat")
    boards = True
    summary = "OR-Tools CP-SAT models (integer or Boolean), lex-leader constraints for orbits"
    # a count enumerates every solution, a few thousand a second: n = 14 (365,596) takes
    # minutes, n = 16 (14.8 million) hours
    practical_limit = 14
    practical_note = "it enumerates every solution at a few thousand a second; n = 16 takes hours"
    # solutions and orbits a second on the standard problem of n = 12, measured on this machine
    # with another process holding one of its two cores (a cautious figure)
    enumeration_rate = 1400
    rate_n = 12
    start_seconds = 0.5
    options = (
        Option(
            "formulation",
            "choice",
            "CP-SAT model: integer q[r] or Boolean x[r][c] (default: integer for n queens on n x n, Boolean for "
            "other boards)",
            choices=("integer", "boolean"),
        ),
        TIME_LIMIT,
        SEED,
        Option(
            "workers",
            "int",
            "parallel CP-SAT workers for one solution; a count runs one worker, the only way CP-SAT enumerates exactly",
            minimum=1,
            maximum=1024,
            applies_to=frozenset({SOLVE}),
            metavar="W",
        ),
        LIMIT,
        FORCE,
        Option("model", "object", "an edited model from queenslab.models.cpsat.build"),
        ASSUME_SYMMETRIC,
    )

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        search = {"time_limit": opts.get("time_limit"), "seed": opts.get("seed", 0), "limit": opts.get("limit")}
        m = _given(problem, opts)
        if m is not None:
            # counted as it is: a plain model gives the total, a lex-leader one the orbits
            check_model_count(problem, m.symmetry, unique, m.edited, opts.get("assume_symmetric", False))
            found, complete = _enumerate_count(m, **search)
            if m.symmetry == LEX_LEADER:
                return CountResult(None, found, None, self.name, m.formulation.value + "/lex-leader", complete)
            return CountResult(found, None, None, self.name, m.formulation.value, complete)
        form = Formulation(opts.get("formulation") or default_formulation(problem))
        force = opts.get("force", False)
        total, complete = _build_and_count(problem, form, None, force, search)
        orbits = None
        if unique:
            orbits, done = _build_and_count(problem, form, LEX_LEADER, force, search)
            complete = complete and done
        return CountResult(total, orbits, None, self.name, form.value, complete)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        time_limit = opts.get("time_limit")
        force = opts.get("force", False)
        _check_search(problem, force, time_limit)
        clock = size.Clock(time_limit)
        try:  # built now, not when the first solution is asked for
            m = _model(problem, opts, force, clock)
        except size.OutOfTime:
            return iter(())
        return _stream(m, limit, clock.left(), opts.get("seed", 0))

    def _solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        cp_model = cp_model_module()
        time_limit = opts.get("time_limit")
        force = opts.get("force", False)
        _check_search(problem, force, time_limit)
        clock = size.Clock(time_limit)
        try:
            m = _model(problem, opts, force, clock)
        except size.OutOfTime:
            raise Incomplete(
                "CP-SAT's time limit ran out while the model was being built, before a solution was searched for"
            ) from None
        solver = _solver(time_limit=clock.left(), seed=opts.get("seed", 0), workers=opts.get("workers"))
        status = run_solver(solver, m.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return m.decode(solver.Value)
        if status == cp_model.INFEASIBLE:
            return None
        if status == cp_model.MODEL_INVALID:
            raise QueensError(f"CP-SAT rejected the model: {m.model.Validate()}")
        raise Incomplete(
            f"CP-SAT stopped ({solver.StatusName(status)}) before finding a solution or proving there is none"
        )


def _given(problem: Problem, opts: dict[str, Any]) -> CpsatModel | None:
    """The ``model`` option checked against the problem and the other options, or None."""
    return model_option(problem, opts, CpsatModel, "formulation")


def _model(problem: Problem, opts: dict[str, Any], force: bool, clock: size.Clock) -> CpsatModel:
    """The given model, or the plain model built within ``clock``."""
    m = _given(problem, opts)
    if m is not None:
        return m
    return build(problem, formulation=opts.get("formulation"), force=force, clock=clock)


def _check_search(problem: Problem, force: bool, time_limit: float | None) -> None:
    """Refuse a search beyond :data:`~queenslab.models.cpsat.SEARCH` unless ``force`` or
    a time limit bounds it."""
    if time_limit is None:
        limits.check(SEARCH, problem.n, force, hint=_SEARCH_HINT)


def _solver(*, time_limit: float | None = None, seed: int = 0, workers: int | None = None, enumerate_all=False):
    cp_model = cp_model_module()
    solver = cp_model.CpSolver()
    p = solver.parameters
    # CP-SAT's own SIGINT handler would end the search as if a limit had stopped it (a
    # partial count) and aborts the process when the search runs off the main thread;
    # queenslab stops it through StopSearch instead (queenslab.interrupt).
    p.catch_sigint_signal = False
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    p.random_seed = seed
    if enumerate_all:
        p.enumerate_all_solutions = True
        p.num_workers = 1
        p.symmetry_level = 0  # no symmetry reasoning: it may remove solutions
        p.keep_all_feasible_solutions_in_presolve = True
        p.search_branching = cp_model.FIXED_SEARCH  # the model's row-by-row strategy
    elif workers is not None:
        p.num_workers = workers
    return solver


def run_solver(solver, model, callback=None):
    """``solver.Solve`` that Ctrl-C stops (through StopSearch); raises when it did."""
    interrupt.check()  # StopSearch before Solve starts would be forgotten by Solve
    with interrupt.stopping(solver.stop_search) as stopper:
        status = interrupt.run(solver.Solve, model, callback)
    stopper.check()
    interrupt.check()
    return status


def _build_and_count(problem, form, symmetry, force, search) -> tuple[int, bool]:
    """Build a model and enumerate it, the time limit covering both: ``(0, False)``
    when it runs out while the model is built."""
    clock = size.Clock(search["time_limit"])
    try:
        m = build(problem, formulation=form, symmetry=symmetry, force=force, clock=clock)
    except size.OutOfTime:
        return 0, False
    return _enumerate_count(m, **{**search, "time_limit": clock.left()})


def _enumerate_count(m: CpsatModel, *, time_limit=None, seed=0, limit=None) -> tuple[int, bool]:
    cp_model = cp_model_module()
    solver = _solver(time_limit=time_limit, seed=seed, enumerate_all=True)

    callback_base: Any = cp_model.CpSolverSolutionCallback  # from the lazily imported module

    class _Counter(callback_base):
        def __init__(self):
            super().__init__()
            self.found = 0
            self.stopped = False

        def on_solution_callback(self):
            self.found += 1
            if interrupt.requested():  # a stop requested just as the search started
                self.StopSearch()
            if limit is not None and self.found >= limit:
                self.stopped = True
                self.StopSearch()

    cb = _Counter()
    status = run_solver(solver, m.model, cb)
    if status == cp_model.MODEL_INVALID:
        raise QueensError(f"CP-SAT rejected the model: {m.model.Validate()}")
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not cb.stopped
    return cb.found, complete


_DONE = object()


def _stream(m: CpsatModel, limit, time_limit, seed):
    """The solutions as CP-SAT finds them (not in lexicographic order).

    The solver runs on a background thread and hands over each solution; it pauses
    while the consumer does not ask for more, and stops when the iterator is closed.
    """
    cp_model = cp_model_module()
    solver = _solver(time_limit=time_limit, seed=seed, enumerate_all=True)
    handoff: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()

    callback_base: Any = cp_model.CpSolverSolutionCallback  # from the lazily imported module

    class _Feed(callback_base):
        def __init__(self):
            super().__init__()
            self.found = 0

        def on_solution_callback(self):
            if stop.is_set() or interrupt.requested():
                self.StopSearch()
                return
            handoff.put(m.decode(self.Value))
            self.found += 1
            if limit is not None and self.found >= limit:
                self.StopSearch()

    status_box = {}

    def run():
        try:
            with interrupt.stopping(solver.stop_search) as stopper:
                status_box["status"] = solver.Solve(m.model, _Feed())
            status_box["stopped"] = stopper.fired
        finally:
            handoff.put(_DONE)

    worker = threading.Thread(target=run, name="queenslab-cpsat", daemon=True)
    worker.start()
    try:
        while True:
            item = handoff.get()
            if item is _DONE:
                break
            yield item
    finally:
        stop.set()
        while worker.is_alive():  # unblock a callback waiting on a full queue
            with contextlib.suppress(queue.Empty):
                handoff.get(timeout=0.05)
        worker.join()
    if status_box.get("stopped"):  # a search stopped by Ctrl-C is not the end of the solutions
        raise interrupt.Interrupted("interrupted")
    interrupt.check()
    if status_box.get("status") == cp_model.MODEL_INVALID:
        raise QueensError(f"CP-SAT rejected the model: {m.model.Validate()}")
