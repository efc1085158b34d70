"""CPMpy as a backend (registry name ``cpmpy``, extra ``queenslab[cpmpy]``): it counts,
enumerates and solves the models that :mod:`queenslab.models.cpmpy` builds, or a model you
built and edited (``model=m``), on any solver CPMpy has installed.

Counting enumerates every solution with ``solveAll``. CPMpy reports how it ended in the
solver status (the docstring of ``cpmpy.Model.solveAll``): ``Optimal`` when every
solution was found, ``Unsatisfiable`` when there is none, ``Feasible`` (or ``Unknown``
without a solution) when a solution or time limit stopped it; a stopped count is
returned with ``complete=False``, never as a final count. A time limit covers building
the model and posting it to the solver as well as the search.

Not every solver takes every constraint: CPMpy's pysat interface posts the lex-leader
constraints only with PBLib (``pip install pypblib``). Such a model is refused with an
error naming what is missing; the default solver, OR-Tools, takes them all.

Examples
--------
>>> from queenslab import Problem
>>> r = CpmpyBackend().counts(Problem(8), unique=True)
>>> r.count, r.unique, r.backend, r.method, r.complete
(92, 12, 'cpmpy', 'ortools', True)
>>> CpmpyBackend().count(Problem(8), cpmpy_solver="pysat")
92
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from .. import interrupt, limits
from ..constraints import KINDS
from ..errors import Incomplete, MissingDependency, QueensError
from ..models import model_option, size
from ..models.breaking import LEX_LEADER, check_model_count
from ..models.cpmpy import SEARCH, CpmpyModel, build, cpmpy_module
from ..problem import Problem
from .interface import ASSUME_SYMMETRIC, FORCE, LIMIT, TIME_LIMIT, Backend, CountResult, Option

#: The CPMpy solver used when none is named (OR-Tools comes with queenslab).
DEFAULT_SOLVER = "ortools"

#: CP-SAT parameters of every run through CPMpy: queenslab stops searches itself
#: (:mod:`queenslab.interrupt`); CP-SAT's own SIGINT handler would abort the process when
#: the search runs off the main thread.
_ORTOOLS_PARAMETERS = {"catch_sigint_signal": False}
#: CP-SAT parameters of an enumeration, as in the ``cpsat`` backend: one worker and no
#: symmetry reasoning (it may remove solutions).
_ORTOOLS_ENUMERATION = {**_ORTOOLS_PARAMETERS, "num_workers": 1, "symmetry_level": 0}

_SEARCH_HINT = (
    "give a time limit (time_limit=S), or for one solution of a large board use a heuristic "
    "(queenslab solve N --method minconflicts)"
)

#: The CPMpy solver. Named ``cpmpy_solver`` (``--cpmpy-solver``) because ``solver`` is the
#: sat backend's pysat solver, and one option name means one option in the registry.
SOLVER = Option(
    "cpmpy_solver",
    "str",
    "the CPMpy solver (any installed: ortools, pysat, exact, ...)",
    default=DEFAULT_SOLVER,
    metavar="NAME",
)


class CpmpyBackend(Backend):
    name = "cpmpy"
    kinds = KINDS
    hooks = ("compile", "encode_cpmpy")
    boards = True
    summary = "CPMpy model on any installed CPMpy solver, lex-leader constraints for orbits (extra queenslab[cpmpy])"
    # every solution passes through CPMpy's Python callback, about two thousand a second:
    # n = 11 (2,680) takes 1.5 s, n = 12 (14,200) 8 s, n = 14 (365,596) minutes
    practical_limit = 12
    practical_note = "it enumerates every solution through CPMpy at about two thousand a second; n = 14 takes minutes"
    # solutions and orbits a second on the standard problem of n = 11, measured on this machine
    # with another process holding one of its two cores (a cautious figure)
    enumeration_rate = 380
    rate_n = 11
    start_seconds = 1.0
    options = (
        SOLVER,
        TIME_LIMIT,
        LIMIT,
        FORCE,
        Option("model", "object", "an edited model from queenslab.models.cpmpy.build"),
        ASSUME_SYMMETRIC,
    )

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        name = _solver_name(opts.get("cpmpy_solver"))
        time_limit, limit, force = opts.get("time_limit"), opts.get("limit"), opts.get("force", False)
        m = _given(problem, opts)
        if m is not None:
            # counted as it is: a plain model gives the total, a lex-leader one the orbits
            check_model_count(problem, m.symmetry, unique, m.edited, opts.get("assume_symmetric", False))
            given = m
            found, complete = _count_within(lambda clock: given, name, time_limit, limit)
            if m.symmetry == LEX_LEADER:
                return CountResult(None, found, None, self.name, name + "/lex-leader", complete)
            return CountResult(found, None, None, self.name, name, complete)
        total, complete = _count_within(lambda clock: build(problem, force=force, clock=clock), name, time_limit, limit)
        orbits = None
        if unique:
            orbits, done = _count_within(
                lambda clock: build(problem, symmetry=LEX_LEADER, force=force, clock=clock), name, time_limit, limit
            )
            complete = complete and done
        return CountResult(total, orbits, None, self.name, name, complete)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        name = _solver_name(opts.get("cpmpy_solver"))
        time_limit, force = opts.get("time_limit"), opts.get("force", False)
        _check_search(problem, force, time_limit)
        clock = size.Clock(time_limit)
        try:  # built now; the enumeration runs when the first solution is asked for
            m = _model(problem, opts, force, clock)
        except size.OutOfTime:
            return iter(())
        return _enumerate(m, name, clock, limit)

    def _solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        name = _solver_name(opts.get("cpmpy_solver"))
        time_limit, force = opts.get("time_limit"), opts.get("force", False)
        _check_search(problem, force, time_limit)
        clock = size.Clock(time_limit)
        placement: list[tuple[int, ...]] = []
        try:
            m = _model(problem, opts, force, clock)
            found, complete = _run(
                m, name, enumerate_all=False, clock=clock, on_solution=lambda: placement.append(m.decode())
            )
        except size.OutOfTime:
            raise Incomplete(
                f"the time limit ran out while the model was being built or posted to CPMpy's {name}, before any search"
            ) from None
        if found:
            return placement[0]
        if complete:
            return None
        raise Incomplete(f"CPMpy's {name} stopped before finding a solution or proving there is none")


def _given(problem: Problem, opts: dict[str, Any]) -> CpmpyModel | None:
    """The ``model`` option checked against the problem and the other options, or None."""
    return model_option(problem, opts, CpmpyModel)


def _model(problem: Problem, opts: dict[str, Any], force: bool, clock: size.Clock) -> CpmpyModel:
    """The given model, or the plain model built within ``clock``."""
    m = _given(problem, opts)
    return m if m is not None else build(problem, force=force, clock=clock)


def _check_search(problem: Problem, force: bool, time_limit: float | None) -> None:
    """Refuse a search beyond :data:`~queenslab.models.cpmpy.SEARCH` unless ``force`` or
    a time limit bounds it."""
    if time_limit is None:
        limits.check(SEARCH, problem.n, force, hint=_SEARCH_HINT)


def _solver_name(solver: str | None) -> str:
    """``solver`` (default :data:`DEFAULT_SOLVER`) if CPMpy has it installed."""
    lookup = cpmpy_module().SolverLookup
    name = DEFAULT_SOLVER if solver is None else solver
    # supported() since CPMpy 1.0, which deprecates the older solvernames()
    installed = lookup.supported() if hasattr(lookup, "supported") else lookup.solvernames()
    if not isinstance(name, str) or name not in installed:
        raise QueensError(f"unknown CPMpy solver {name!r}; the installed ones are: {', '.join(installed)}")
    return name


def _post(solver: str, m: CpmpyModel, clock: size.Clock) -> Any:
    """The CPMpy solver object with the model's constraints posted one by one, so that
    the time limit (``clock``) also covers their translation."""
    cp = cpmpy_module()
    from cpmpy.exceptions import NotSupportedError

    try:
        s = cp.SolverLookup.get(solver)
        for constraint in m.model.constraints:
            clock.check()
            s += constraint
        if m.model.objective_ is not None:  # an edited model may have one
            if m.model.objective_is_min:
                s.minimize(m.model.objective_)
            else:
                s.maximize(m.model.objective_)
    except ImportError as e:  # e.g. pysat needs PBLib for linear constraints over integers
        raise MissingDependency(
            f"CPMpy's {solver} solver cannot take this model without another package ({e}); "
            f"install it, or use another solver such as {DEFAULT_SOLVER!r}"
        ) from None
    except NotSupportedError as e:
        raise QueensError(f"CPMpy's {solver} solver does not support this model: {e}; use another solver") from None
    return s


class _Deadline(Exception):
    """Raised from the solution callback of a generic CPMpy solver past the time limit."""


def _run(
    m: CpmpyModel,
    solver: str,
    *,
    enumerate_all: bool,
    clock: size.Clock,
    limit: int | None = None,
    on_solution: Callable[[], None] | None = None,
) -> tuple[int, bool]:
    """Solve (``enumerate_all=False``: one solution) or enumerate ``m`` with ``solver``,
    stoppable by Ctrl-C; returns the number of solutions found and whether the search
    ran to its end (every solution found, or none exists). The time limit (``clock``,
    started before the model was built) covers posting the constraints and the search;
    :class:`size.OutOfTime` when it runs out before the search."""
    from cpmpy.solvers.solver_interface import ExitStatus

    s = interrupt.run(_post, solver, m, clock)  # off the main thread, so that Ctrl-C stops it
    time_limit = clock.left()
    ort_solver = getattr(s, "ort_solver", None)  # OR-Tools: its CpSolver, which stops on request
    params = {} if ort_solver is None else _ORTOOLS_ENUMERATION if enumerate_all else _ORTOOLS_PARAMETERS
    deadline = clock.end
    found = 0
    late = False

    def display() -> None:
        # CPMpy's generic solveAll (every solver but OR-Tools) calls the solver once per
        # solution and counts only the solver's own time against the time limit: the
        # deadline is kept here, on the wall clock
        nonlocal found, late
        if interrupt.requested():
            if ort_solver is None:
                raise interrupt.Interrupted("interrupted")
            ort_solver.stop_search()
            return
        found += 1
        if on_solution is not None:
            on_solution()
        if deadline is not None and time.perf_counter() > deadline:
            late = True
            if ort_solver is None:
                raise _Deadline
            ort_solver.stop_search()

    def search() -> None:
        try:
            if enumerate_all:
                with warnings.catch_warnings():
                    # the generic solveAll warns that it adds blocking constraints to the
                    # solver object; the object is used once, here
                    warnings.simplefilter("ignore", UserWarning)
                    s.solveAll(display=display, time_limit=time_limit, solution_limit=limit, **params)
            elif s.solve(time_limit=time_limit, **params):
                display()
        except _Deadline:
            pass

    interrupt.check()
    with interrupt.stopping(ort_solver.stop_search if ort_solver is not None else lambda: None) as stopper:
        interrupt.run(search)  # off the main thread, so that Ctrl-C stops it
    stopper.check()
    interrupt.check()
    status = s.status().exitstatus
    if not enumerate_all:
        return found, found > 0 or status == ExitStatus.UNSATISFIABLE
    stopped = late or (limit is not None and found >= limit)
    return found, status in (ExitStatus.OPTIMAL, ExitStatus.UNSATISFIABLE) and not stopped


def _count_within(
    make: Callable[[size.Clock], CpmpyModel], solver: str, time_limit: float | None, limit: int | None
) -> tuple[int, bool]:
    """Make a model and enumerate it, the time limit covering both: ``(0, False)`` when
    it runs out before the search."""
    clock = size.Clock(time_limit)
    try:
        return _run(make(clock), solver, enumerate_all=True, clock=clock, limit=limit)
    except size.OutOfTime:
        return 0, False


def _enumerate(m: CpmpyModel, solver: str, clock: size.Clock, limit: int | None) -> Iterator[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    try:
        _run(m, solver, enumerate_all=True, clock=clock, limit=limit, on_solution=lambda: found.append(m.decode()))
    except size.OutOfTime:
        return
    yield from found
