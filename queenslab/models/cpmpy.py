"""CPMpy models of a Problem, editable with CPMpy expressions before solving.

`CPMpy <https://cpmpy.readthedocs.io>`_ is a modelling layer in Python over many
solvers (OR-Tools CP-SAT, pysat, Exact, Choco, ...): the same model runs on any solver
installed (``cpmpy.SolverLookup.solvernames()``). The model here is the integer CSP of
:mod:`queenslab.models.cpsat`, read from :func:`~queenslab.compiled.compile_problem`:

* ``q[r]`` in ``0..n-1`` is the column of row ``r``'s queen, ``AllDifferent(q)``;
* each diagonal line (broken diagonals on a torus) holds at most one queen, as a sum of
  the cell literals ``q[r] == c``;
* a leap pair is "not both", a blocked cell ``q[r] != c``, a fixed queen ``q[r] == c``,
  and a region ``at_least <= sum(q[r] == c for (r, c) in cells) <= upper``.

``symmetry="lex-leader"`` adds ``q <=lex g(q)`` for every non-identity ``g`` of
``problem.symmetries()`` (see :mod:`queenslab.models.breaking`), as CPMpy's
``LexLessEq``; an element that maps through the inverse permutation gets it from the
``Inverse`` global constraint. Counting that model counts orbits.

Counting enumerates every solution with ``solveAll``. CPMpy reports how it ended in the
solver status (the docstring of ``cpmpy.Model.solveAll``): ``Optimal`` when every
solution was found, ``Unsatisfiable`` when there is none, ``Feasible`` (or ``Unknown``
without a solution) when a solution or time limit stopped it; a stopped count is
returned with ``complete=False``, never as a final count.

Not every solver takes every constraint: CPMpy's pysat interface posts the lex-leader
constraints only with PBLib (``pip install pypblib``). Such a model is refused with an
error naming what is missing; the default solver, OR-Tools, takes them all.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import interrupt, limits, validate
from ..compiled import compile_problem
from ..errors import Incomplete, MissingDependency, QueensError
from ..problem import Problem
from ..result import CountResult
from . import given_model, size
from .breaking import LEX_LEADER, breaking_elements, check_symmetry, image_terms

__all__ = ["DEFAULT_SOLVER", "CpmpyModel", "BUILD", "SEARCH", "build", "solve", "count", "counts", "solutions"]

#: The solver used when none is named (OR-Tools comes with queenslab).
DEFAULT_SOLVER = "ortools"

#: CP-SAT parameters of every run through CPMpy: queenslab stops searches itself
#: (:mod:`queenslab.interrupt`); CP-SAT's own SIGINT handler would abort the process when
#: the search runs off the main thread.
_ORTOOLS_PARAMETERS = {"catch_sigint_signal": False}
#: CP-SAT parameters of an enumeration, as in :mod:`queenslab.models.cpsat`: one worker
#: and no symmetry reasoning (it may remove solutions).
_ORTOOLS_ENUMERATION = {**_ORTOOLS_PARAMETERS, "num_workers": 1, "symmetry_level": 0}

#: Memory of CPMpy's expressions and their translation per cell literal, on top of the
#: Boolean CP-SAT estimate of :mod:`.size` (together about 4.5 kB a cell, measured at
#: n = 200 with CPMpy 1.1 and OR-Tools 9.15).
BYTES_PER_CPMPY_CELL = 4000

#: The practical limit of :func:`build`, on the model's estimated size (4.8 kB a cell):
#: CPMpy makes its expressions in Python, and a solver then takes them one by one
#: (OR-Tools: 4 s for n = 200, 40 s for n = 700). A time limit covers both.
BUILD = limits.declare(
    "building a CPMpy model",
    100,
    "MB",
    "CPMpy makes every expression in Python and the solver translates them, about 40 MB of model a second: "
    "n = 200 (190 MB) takes 5 s, n = 700 over 40 s",
)
#: The practical limit of a search for solutions (:func:`solve`, :func:`solutions`)
#: without a time limit.
SEARCH = limits.declare(
    "a CPMpy search for solutions",
    100,
    "n",
    "the model, its translation and the search grow fast with n: n = 100 takes about 3 s, n = 200 ten, "
    "n = 400 over a minute",
)
_SEARCH_HINT = (
    "give a time limit (time_limit=S), or for one solution of a large board use a heuristic "
    "(queenslab solve N --method minconflicts)"
)
_BUILD_HINT = "give the search a time limit (time_limit=S, --time-limit S), which then covers building the model"


def _cpmpy() -> Any:  # the cpmpy module (untyped)
    try:
        import cpmpy
    except ImportError:
        raise MissingDependency('the cpmpy backend needs CPMpy: pip install "queenslab[cpmpy]"') from None
    return cpmpy


@dataclass
class CpmpyModel:
    """A CPMpy model of a problem, with its variables.

    Attributes
    ----------
    problem : Problem
    symmetry : str or None
        ``"lex-leader"`` when symmetry-breaking constraints were added.
    model : cpmpy.Model
        Add your own constraints here before solving (``m.model += expression``).
    q : cpmpy NDVarArray of intvar
        Column of each row's queen.
    inverse : cpmpy NDVarArray of intvar or None
        Row of each column's queen, when a symmetry element needed it.
    """

    problem: Problem
    symmetry: str | None
    model: Any
    q: Any
    inverse: Any = None
    #: The backend that counts this model (``count(problem, model=m)`` picks it).
    backend: ClassVar[str] = "cpmpy"

    def decode(self) -> tuple[int, ...]:
        """The placement of the solution the solver last assigned to ``q``."""
        return tuple(int(v) for v in self.q.value())


def build(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> CpmpyModel:
    """Build the CPMpy model of ``problem``.

    Parameters
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
        Add lex-leader constraints for ``problem.symmetries()``.
    force : bool, default False
        Build a model larger than :data:`BUILD` (MB, estimated) all the same.

    Returns
    -------
    CpmpyModel

    Raises
    ------
    MissingDependency
        When CPMpy is not installed.
    TooLarge
        For a model beyond :data:`BUILD` without ``force``, or one that cannot fit in
        the memory available.

    Examples
    --------
    Forbid queens on both long diagonals with CPMpy expressions, then count:

    >>> m = build(Problem(8))
    >>> m.model += [m.q[r] != r for r in range(8)]
    >>> m.model += [m.q[r] != 7 - r for r in range(8)]
    >>> count(Problem(8), model=m)
    12
    """
    return _build(problem, symmetry, force, size.Clock())


def _build(problem: Problem, symmetry: str | None, force: bool, clock: size.Clock) -> CpmpyModel:
    """:func:`build`, checking ``clock`` between its steps (:class:`size.OutOfTime` when
    the time limit runs out)."""
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    check_symmetry(symmetry)
    cp = _cpmpy()
    n = problem.n
    size.check_build(
        BUILD,
        problem,
        size.cpsat_bytes(problem, "boolean") + n * n * BYTES_PER_CPMPY_CELL,
        "the CPMpy model",
        force,
        clock,
        _BUILD_HINT,
    )
    s = compile_problem(problem)
    q = cp.intvar(0, n - 1, shape=(n,), name="q")
    model = cp.Model(cp.AllDifferent(q))
    for line in s.diagonals:
        clock.check()
        model += cp.sum([q[r] == c for r, c in line]) <= 1
    for (r1, c1), (r2, c2) in s.leap_pairs:
        clock.check()
        model += (q[r1] != c1) | (q[r2] != c2)
    model += [q[r] != c for r, c in problem.blocked]
    model += [q[r] == c for r, c in problem.fixed]
    for region in s.regions:
        on = cp.sum([q[r] == c for r, c in region.cells])
        if region.at_least > 0:
            model += on >= region.at_least
        if region.upper < len(region.cells):
            model += on <= region.upper
    m = CpmpyModel(problem, symmetry, model, q)
    if symmetry == LEX_LEADER:
        _add_lex_leader(m, cp)
    return m


def _add_lex_leader(m: CpmpyModel, cp: Any) -> None:
    n = m.problem.n
    q = m.q
    elements = breaking_elements(m.problem)
    if any(g.inv for g in elements):
        m.inverse = cp.intvar(0, n - 1, shape=(n,), name="inv")
        m.model += cp.Inverse(q, m.inverse)
    for g in elements:
        left, right = [], []
        for i, (use_inv, src, cmpl) in enumerate(image_terms(n, g)):
            if not use_inv and not cmpl and src == i:
                continue  # g(q)[i] is q[i]: the position never decides the comparison
            w = m.inverse[src] if use_inv else q[src]
            left.append(q[i])
            right.append(n - 1 - w if cmpl else w)
        if left:
            m.model += cp.LexLessEq(left, right)


# ----------------------------------------------------------------------------- solving


def _solver_name(solver: str | None) -> str:
    """``solver`` (default :data:`DEFAULT_SOLVER`) if CPMpy has it installed."""
    lookup = _cpmpy().SolverLookup
    name = DEFAULT_SOLVER if solver is None else solver
    # supported() since CPMpy 1.0, which deprecates the older solvernames()
    installed = lookup.supported() if hasattr(lookup, "supported") else lookup.solvernames()
    if not isinstance(name, str) or name not in installed:
        raise QueensError(f"unknown CPMpy solver {name!r}; the installed ones are: {', '.join(installed)}")
    return name


def _model_for(
    problem: Problem, model: Any, symmetry: str | None, force: bool = False, clock: size.Clock | None = None
) -> CpmpyModel:
    if model is None:
        return _build(problem, symmetry, force, clock or size.Clock())
    return given_model(model, CpmpyModel, problem)


def _check_search(problem: Problem, force: bool, time_limit: float | None) -> bool:
    """Refuse a search beyond :data:`SEARCH` unless ``force`` or a time limit bounds it;
    returns ``force`` as a bool."""
    force = validate.flag(force, "force")
    if isinstance(problem, Problem) and time_limit is None:
        limits.check(SEARCH, problem.n, force, hint=_SEARCH_HINT)
    return force


def _post(solver: str, m: CpmpyModel, clock: size.Clock) -> Any:
    """The CPMpy solver object with the model's constraints posted one by one, so that
    the time limit (``clock``) also covers their translation."""
    cp = _cpmpy()
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


def solve(
    problem: Problem, *, solver: str | None = None, time_limit=None, model=None, force: bool = False
) -> tuple[int, ...] | None:
    """One solution, or None when the problem has none.

    Parameters
    ----------
    problem : Problem
    solver : str, optional
        A CPMpy solver name (default ``"ortools"``).
    time_limit : float, optional
        Seconds, building the model and posting it to the solver included; if it ends
        the search before an answer, :class:`Incomplete` is raised.
    model : CpmpyModel, optional
        A model from :func:`build` (possibly edited); built when not given.
    force : bool, default False
        Search beyond :data:`SEARCH` without a time limit, and build beyond :data:`BUILD`.

    Examples
    --------
    >>> from queenslab.solution import is_solution
    >>> is_solution(Problem(10), solve(Problem(10)))
    True
    >>> solve(Problem(3), solver="pysat") is None
    True
    """
    name = _solver_name(solver)
    time_limit = validate.positive_seconds(time_limit)
    force = _check_search(problem, force, time_limit)
    clock = size.Clock(time_limit)
    placement: list[tuple[int, ...]] = []
    try:
        m = _model_for(problem, model, None, force, clock)
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


def counts(
    problem: Problem,
    *,
    unique: bool = False,
    solver: str | None = None,
    time_limit=None,
    limit: int | None = None,
    model=None,
    force: bool = False,
) -> CountResult:
    """Count by enumerating every solution (``solveAll``).

    With ``unique=True`` the lex-leader model is enumerated as well and gives the number
    of orbits. A run stopped by ``limit`` or ``time_limit`` (each applies to each
    enumeration, building and posting its model included) returns ``complete=False``
    with the numbers found so far. A ``model`` (from :func:`build`) is counted as it is,
    ``unique`` is not available for it. ``force`` builds a model beyond :data:`BUILD`
    without a time limit.

    Examples
    --------
    >>> r = counts(Problem(8), unique=True)
    >>> r.count, r.unique, r.backend, r.method, r.complete
    (92, 12, 'cpmpy', 'ortools', True)
    >>> counts(Problem(8), limit=5).complete
    False
    """
    unique = validate.flag(unique, "unique")
    name = _solver_name(solver)
    time_limit = validate.positive_seconds(time_limit)
    limit = validate.optional_whole_number(limit, "limit", minimum=1)
    force = validate.flag(force, "force")
    if model is not None:
        if unique:
            raise QueensError("unique=True builds its own lex-leader model; count the edited model without it")
        m = _model_for(problem, model, None)
        found, complete = _count_within(lambda clock: m, name, time_limit, limit)
        return CountResult(found, None, None, "cpmpy", name, complete)
    total, complete = _count_within(lambda clock: _build(problem, None, force, clock), name, time_limit, limit)
    orbits = None
    if unique:
        orbits, done = _count_within(lambda clock: _build(problem, LEX_LEADER, force, clock), name, time_limit, limit)
        complete = complete and done
    return CountResult(total, orbits, None, "cpmpy", name, complete)


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


def count(problem: Problem, *, unique: bool = False, model=None, **search: Any) -> int:
    """Number of solutions (``unique=True``: of orbits, through lex-leader constraints).

    Takes the options of :func:`counts` (``solver``, ``time_limit``, ``limit``) and
    raises :class:`Incomplete` when a limit stopped the enumeration (its ``found``
    attribute is the lower bound).

    Examples
    --------
    >>> count(Problem(6)), count(Problem(8), unique=True), count(Problem(8), solver="pysat")
    (4, 12, 92)
    """
    return counts(problem, unique=unique, model=model, **search).value(unique)


def solutions(
    problem: Problem,
    *,
    limit: int | None = None,
    solver: str | None = None,
    time_limit=None,
    symmetry: str | None = None,
    model=None,
    force: bool = False,
) -> Iterator[tuple[int, ...]]:
    """Iterate over solutions as 0-based tuples (in the solver's order, not lexicographic).

    The model is built when this is called, the enumeration (of at most ``limit``
    solutions) runs when the first one is asked for; a ``time_limit`` (building the
    model included) ends it early, with the solutions found so far. Beyond
    :data:`SEARCH` a time limit or ``force`` is needed, beyond :data:`BUILD` ``force``
    or a time limit.

    Examples
    --------
    >>> len(list(solutions(Problem(5), limit=3))), len(list(solutions(Problem(5))))
    (3, 10)
    >>> len(list(solutions(Problem(8), symmetry="lex-leader")))
    12
    """
    limit = validate.optional_whole_number(limit, "limit")
    name = _solver_name(solver)
    time_limit = validate.positive_seconds(time_limit)
    force = _check_search(problem, force, time_limit)
    clock = size.Clock(time_limit)
    try:
        m = _model_for(problem, model, symmetry, force, clock)
    except size.OutOfTime:
        return iter(())
    if limit == 0:
        return iter(())
    return _enumerate(m, name, clock, limit)


def _enumerate(m: CpmpyModel, solver: str, clock: size.Clock, limit: int | None) -> Iterator[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    try:
        _run(m, solver, enumerate_all=True, clock=clock, limit=limit, on_solution=lambda: found.append(m.decode()))
    except size.OutOfTime:
        return
    yield from found
