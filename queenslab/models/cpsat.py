"""CP-SAT (OR-Tools) models of a Problem, editable before solving.

Two formulations (:class:`Formulation`):

* ``integer`` -- the CSP of N. Gupta's ranking paper: ``q[r]`` in ``0..n-1`` is the column of row
  ``r``'s queen; ``AllDifferent`` on ``q``, ``q[r] + r`` and ``q[r] - r`` (on a torus the
  sums and differences are taken modulo n through ``AddModuloEquality``); knight moves
  as ``q[r2] - q[r1] != d`` for the forbidden column offsets; blocked cells as
  ``q[r] != c``, fixed queens as ``q[r] == c``.
* ``boolean`` -- a cell variable ``x[r][c]`` per square; exactly one per row and column,
  at most one per diagonal (broken diagonal on a torus), a clause per knight pair, and
  the column ``q[r] = sum_c c * x[r][c]`` as a defined integer for decoding and for
  symmetry breaking.

:func:`build` returns a :class:`CpsatModel` exposing the ``CpModel`` and its variables,
so constraints can be added before solving; :func:`solve`, :func:`count` and
:func:`solutions` accept such a model. ``symmetry="lex-leader"`` adds ``q <=lex g(q)``
for every non-identity ``g`` of ``problem.symmetries()`` (see
:mod:`queenslab.models.breaking`), so that counting counts orbits.

Enumeration is exact only with one worker and without the solver's own symmetry
reasoning; :func:`count` fixes those parameters, and reports a run stopped by a limit as
incomplete (:class:`~queenslab.errors.Incomplete`), never as a final count.
"""

from __future__ import annotations

import contextlib
import enum
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import interrupt, limits, validate
from ..compiled import compile_problem
from ..errors import Incomplete, MissingDependency, QueensError, UnknownOption
from ..problem import Problem
from ..result import CountResult
from . import given_model, size
from .breaking import LEX_LEADER, breaking_elements, check_model_count, check_symmetry, image_terms

__all__ = [
    "Formulation",
    "CpsatModel",
    "BUILD",
    "SEARCH",
    "build",
    "solve",
    "count",
    "counts",
    "solutions",
    "export_text",
]


class Formulation(enum.Enum):
    """How a placement is represented in the CP-SAT model."""

    INTEGER = "integer"
    BOOLEAN = "boolean"


def _cp_model() -> Any:  # the module ortools.sat.python.cp_model
    try:
        from ortools.sat.python import cp_model
    except ImportError as e:  # pragma: no cover - ortools is a core dependency
        raise MissingDependency(
            f"the cpsat backend needs OR-Tools ({e}); install it with: pip install ortools"
        ) from None
    return cp_model


@dataclass
class CpsatModel:
    """A CP-SAT model of a problem, with its variables.

    Count, enumerate or solve it as it is with :meth:`count`, :meth:`counts`,
    :meth:`solutions` and :meth:`solve`. A model built with ``symmetry="lex-leader"``
    counts orbits; constraints added to it after :func:`build` make that count refused
    unless they are declared symmetric (``assume_symmetric=True``): the model notices
    the edit from its own size.

    Attributes
    ----------
    problem : Problem
    formulation : Formulation
    symmetry : str or None
        ``"lex-leader"`` when symmetry-breaking constraints were added.
    model : ortools.sat.python.cp_model.CpModel
        Add your own constraints here before solving.
    q : list of IntVar or None
        Column of each row's queen (integer formulation; defined from ``x`` in the
        boolean one once symmetry breaking needs it).
    x : list of list of BoolVar or None
        Cell variables (boolean formulation).
    inverse : list of IntVar or None
        Row of each column's queen, when a symmetry element needed it.
    """

    problem: Problem
    formulation: Formulation
    symmetry: str | None
    model: Any
    q: list[Any] | None = None
    x: list[list[Any]] | None = None
    inverse: list[Any] | None = None
    extra: dict = field(default_factory=dict)
    #: The backend that counts this model (``count(problem, model=m)`` picks it).
    backend: ClassVar[str] = "cpsat"
    #: (variables, constraints) that build and the model's own helpers made.
    own: list[int] = field(default_factory=lambda: [0, 0])

    def _size(self) -> tuple[int, int]:
        proto = self.model.Proto()
        return len(proto.variables), len(proto.constraints)

    def _seal(self) -> None:
        """Record the model's size at the end of :func:`build`."""
        self.own = list(self._size())

    @property
    def edited(self) -> bool:
        """Whether variables or constraints were added since :func:`build`."""
        return self._size() != tuple(self.own)

    def counts(self, *, assume_symmetric: bool = False, **search: Any) -> CountResult:
        """Count this model as it is: its solutions, or with lex-leader constraints its
        orbits (``unique``); ``search`` as for :func:`counts`."""
        return counts(
            self.problem,
            unique=self.symmetry == LEX_LEADER,
            model=self,
            assume_symmetric=assume_symmetric,
            **search,
        )

    def count(self, *, assume_symmetric: bool = False, **search: Any) -> int:
        """The number :meth:`counts` finds (raises :class:`Incomplete` if a limit stopped it)."""
        return self.counts(assume_symmetric=assume_symmetric, **search).value(self.symmetry == LEX_LEADER)

    def solutions(
        self, *, limit: int | None = None, time_limit=None, seed: int = 0, force: bool = False
    ) -> Iterator[tuple[int, ...]]:
        """Iterate over this model's solutions (see :func:`solutions`)."""
        return solutions(self.problem, limit=limit, time_limit=time_limit, seed=seed, model=self, force=force)

    def solve(self, *, time_limit=None, seed: int = 0, workers=None, force: bool = False) -> tuple[int, ...] | None:
        """One solution of this model, or None (see :func:`solve`)."""
        return solve(self.problem, time_limit=time_limit, seed=seed, workers=workers, model=self, force=force)

    def decision_variables(self) -> list:
        """The variables that determine a placement (``q``, or every ``x``)."""
        if self.formulation is Formulation.INTEGER:
            return list(self._q())
        return [v for row in self._x() for v in row]

    def decode(self, value: Callable) -> tuple[int, ...]:
        """The placement of the current solution; ``value`` is ``solver.Value`` (or a
        callback's ``Value``)."""
        n = self.problem.n
        if self.formulation is Formulation.INTEGER:
            return tuple(int(value(v)) for v in self._q())
        x = self._x()
        return tuple(next(c for c in range(n) if value(x[r][c])) for r in range(n))

    def column_expressions(self) -> list:
        """Expressions for the column of each row's queen, in either formulation."""
        if self.q is not None:
            return list(self.q)
        n = self.problem.n
        x = self._x()
        return [sum(c * x[r][c] for c in range(n)) for r in range(n)]

    def cell(self, r: int, c: int) -> Any:
        """A Boolean literal that is true exactly when the queen of row ``r`` stands in
        column ``c``: ``x[r][c]``, or in the integer formulation a Boolean tied to
        ``q[r] == c`` (made once, on first use)."""
        if self.formulation is Formulation.BOOLEAN:
            return self._x()[r][c]
        key = ("cell", r, c)
        if key not in self.extra:
            b = self.model.NewBoolVar(f"cell[{r},{c}]")
            self.model.Add(self._q()[r] == c).OnlyEnforceIf(b)
            self.model.Add(self._q()[r] != c).OnlyEnforceIf(b.Not())
            self.extra[key] = b
            if any(self.own):  # made after build: the model's own, not an edit
                self.own[0] += 1
                self.own[1] += 2
        return self.extra[key]

    def _q(self) -> list[Any]:
        assert self.q is not None, "build sets q in the integer formulation"
        return self.q

    def _x(self) -> list[list[Any]]:
        assert self.x is not None, "build sets x in the boolean formulation"
        return self.x


#: Largest n whose lex constraints are posted as one weighted sum: the weights n**i
#: must keep every expression far inside CP-SAT's 64-bit bounds.
WEIGHTED_LEX_MAX_N = 15


def _lex_leq(model, a: list, b: list, trivial: list[bool], n: int) -> None:
    """Post ``a <=lex b`` for vectors over ``0..n-1``.

    For small n as the single linear constraint ``sum_i n**(k-1-i) * (b[i] - a[i]) >= 0``
    (equivalent for digits in ``0..n-1``; its bound propagation prunes from the first
    positions on and measured about twice as fast as the reified chain at n = 12);
    otherwise as the chain ``eq_i -> a[i] <= b[i]``, ``eq_{i+1} <-> eq_i and a[i] == b[i]``.
    ``trivial[i]`` marks positions where ``a[i]`` is ``b[i]``.
    """
    idx = [i for i in range(len(a)) if not trivial[i]]
    if not idx:
        return
    if n <= WEIGHTED_LEX_MAX_N:
        k = len(idx)
        model.Add(sum(n ** (k - 1 - j) * (b[i] - a[i]) for j, i in enumerate(idx)) >= 0)
        return
    eq = None  # reified "a[:i] == b[:i]"; None means true
    for pos, i in enumerate(idx):
        c = model.Add(a[i] <= b[i])
        if eq is not None:
            c.OnlyEnforceIf(eq)
        if pos == len(idx) - 1:
            break
        e = model.NewBoolVar(f"lex_eq_{i}")
        model.Add(a[i] == b[i]).OnlyEnforceIf(e)
        model.Add(a[i] != b[i]).OnlyEnforceIf(e.Not())
        if eq is None:
            eq = e
        else:
            nxt = model.NewBoolVar(f"lex_prefix_{i}")
            model.AddBoolAnd([eq, e]).OnlyEnforceIf(nxt)
            model.AddBoolOr([eq.Not(), e.Not()]).OnlyEnforceIf(nxt.Not())
            eq = nxt


#: The practical limit of :func:`build`, on the model's estimated size
#: (:func:`~queenslab.models.size.cpsat_bytes`): Python makes the variables and constraints
#: one at a time. Measured: the Boolean model of n = 500 (200 MB) in 2 s, of n = 1000
#: (800 MB) in 8 s; the integer model is small (4 kB a row).
BUILD = limits.declare(
    "building a CP-SAT model",
    250,
    "MB",
    "Python makes every variable and constraint one at a time, about 100 MB of model a second: the Boolean "
    "model of n = 1000 takes 8 s, of n = 3000 over a minute",
)
#: The practical limit of a search for solutions (:func:`solve`, :func:`solutions`)
#: without a time limit. Measured on 2 cores: n = 100 in about a second; n = 200 in 4 s
#: (Boolean model) and 24 s (integer model); n = 1000 ran for over a minute.
SEARCH = limits.declare(
    "a CP-SAT search for solutions",
    100,
    "n",
    "CP-SAT's time to a first solution grows fast and erratically with n: n = 100 takes about a second, "
    "n = 200 from 4 to 24 s, n = 1000 minutes",
)
_SEARCH_HINT = (
    "give a time limit (time_limit=S), or for one solution of a large board use a heuristic "
    "(queenslab solve N --method minconflicts)"
)
_BUILD_HINT = "give the search a time limit (time_limit=S, --time-limit S), which then covers building the model"


def build(problem: Problem, *, formulation="integer", symmetry: str | None = None, force: bool = False) -> CpsatModel:
    """Build the CP-SAT model of ``problem``.

    Parameters
    ----------
    problem : Problem
    formulation : {"integer", "boolean"} or Formulation
    symmetry : {None, "lex-leader"}
        Add lex-leader constraints for ``problem.symmetries()``.
    force : bool, default False
        Build a model larger than :data:`BUILD` (MB, estimated) all the same.

    Returns
    -------
    CpsatModel

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` without ``force``, or one that cannot fit in
        the memory available.

    Examples
    --------
    Forbid queens on both long diagonals, then count:

    >>> m = build(Problem(8))
    >>> for r in range(8):
    ...     _ = m.model.Add(m.q[r] != r)
    ...     _ = m.model.Add(m.q[r] != 7 - r)
    >>> count(Problem(8), model=m)
    12
    """
    return _build(problem, formulation, symmetry, force, size.Clock())


def _build(problem: Problem, formulation, symmetry: str | None, force: bool, clock: size.Clock) -> CpsatModel:
    """:func:`build`, checking ``clock`` between its steps (:class:`size.OutOfTime` when
    the time limit runs out)."""
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    form = validate.member(Formulation, formulation, "CP-SAT formulation")
    check_symmetry(symmetry)
    size.check_build(
        BUILD,
        problem,
        size.cpsat_bytes(problem, form.value),
        f"the {form.value} CP-SAT model",
        force,
        clock,
        _BUILD_HINT,
    )
    cp_model = _cp_model()
    n = problem.n
    model = cp_model.CpModel()
    m = CpsatModel(problem, form, symmetry, model)
    s = compile_problem(problem)
    if form is Formulation.INTEGER:
        q = [model.NewIntVar(0, n - 1, f"q[{r}]") for r in range(n)]
        m.q = q
        model.AddAllDifferent(q)
        if problem.toroidal:
            for name, sign in (("sum", 1), ("dif", -1)):
                aux = [model.NewIntVar(0, n - 1, f"{name}[{r}]") for r in range(n)]
                for r in range(n):
                    model.AddModuloEquality(aux[r], q[r] + sign * r + n, n)
                model.AddAllDifferent(aux)
        else:
            model.AddAllDifferent([q[r] + r for r in range(n)])
            model.AddAllDifferent([q[r] - r for r in range(n)])
        for (r1, c1), (r2, c2) in s.leap_pairs:
            # a forbidden pair of cells, as "not both": q[r1] == c1 -> q[r2] != c2
            clock.check()
            model.Add(q[r2] != c2).OnlyEnforceIf(m.cell(r1, c1))
        for r, c in problem.blocked:
            model.Add(q[r] != c)
        for r, c in problem.fixed:
            model.Add(q[r] == c)
    else:
        x = []
        for r in range(n):
            clock.check()
            x.append([model.NewBoolVar(f"x[{r},{c}]") for c in range(n)])
        m.x = x
        for line in s.rows() + s.columns():
            clock.check()
            model.AddExactlyOne(x[r][c] for r, c in line)
        for diagonal in s.diagonals:
            clock.check()
            model.AddAtMostOne(x[r][c] for r, c in diagonal)
        for (r1, c1), (r2, c2) in s.leap_pairs:
            clock.check()
            model.AddBoolOr([x[r1][c1].Not(), x[r2][c2].Not()])
        for r, c in problem.blocked:
            model.Add(x[r][c] == 0)
        for r, c in problem.fixed:
            model.Add(x[r][c] == 1)
    for region in s.regions:
        # the number of queens on the region's cells, between its bounds
        clock.check()
        on = sum(m.cell(r, c) for r, c in region.cells)
        model.Add(on >= region.at_least)
        model.Add(on <= region.upper)
    # Branch row by row, smallest column first: the lexicographic order, in which the
    # lex-leader constraints prune as early as possible. Enumeration uses this fixed
    # search; a plain solve lets CP-SAT combine it with its own strategies.
    if form is Formulation.INTEGER:
        model.AddDecisionStrategy(m.q, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    else:
        model.AddDecisionStrategy(m.decision_variables(), cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    if symmetry == LEX_LEADER:
        _add_lex_leader(m, clock)
    m._seal()
    return m


def _add_lex_leader(m: CpsatModel, clock: size.Clock) -> None:
    n = m.problem.n
    model = m.model
    elements = breaking_elements(m.problem)
    if not elements:
        return
    if m.formulation is Formulation.INTEGER:
        q = m._q()
        if any(g.inv for g in elements):
            m.inverse = [model.NewIntVar(0, n - 1, f"inv[{c}]") for c in range(n)]
            model.AddInverse(q, m.inverse)
        inv = m.inverse
    else:
        # defined integers: fully determined by x, so they add no solutions
        x = m._x()
        q = [model.NewIntVar(0, n - 1, f"q[{r}]") for r in range(n)]
        for r in range(n):
            clock.check()
            model.Add(q[r] == sum(c * x[r][c] for c in range(n)))
        m.q = q
        inv = None
        if any(g.inv for g in elements):
            inv = [model.NewIntVar(0, n - 1, f"inv[{c}]") for c in range(n)]
            for c in range(n):
                clock.check()
                model.Add(inv[c] == sum(r * x[r][c] for r in range(n)))
            m.inverse = inv
    for g in elements:
        clock.check()
        image, trivial = [], []
        for i, (use_inv, src, cmpl) in enumerate(image_terms(n, g)):
            if use_inv:
                assert inv is not None, "set above when an element maps through the inverse"
                w = inv[src]
            else:
                w = q[src]
            image.append(n - 1 - w if cmpl else w)
            trivial.append(not use_inv and not cmpl and src == i)
        _lex_leq(model, q, image, trivial, n)


# ----------------------------------------------------------------------------- solving


def _solver(*, time_limit=None, seed=0, workers=None, enumerate_all=False):
    cp_model = _cp_model()
    solver = cp_model.CpSolver()
    p = solver.parameters
    # CP-SAT's own SIGINT handler would end the search as if a limit had stopped it (a
    # partial count) and aborts the process when the search runs off the main thread;
    # queenslab stops it through StopSearch instead (queenslab.interrupt).
    p.catch_sigint_signal = False
    time_limit = validate.positive_seconds(time_limit)
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    p.random_seed = validate.whole_number(seed, "seed", minimum=0)
    if enumerate_all:
        if workers not in (None, 1):
            raise QueensError(
                f"CP-SAT enumerates exactly only with one worker; got workers={workers!r} "
                "(use workers=1 or leave it unset)"
            )
        p.enumerate_all_solutions = True
        p.num_workers = 1
        p.symmetry_level = 0  # no symmetry reasoning: it may remove solutions
        p.keep_all_feasible_solutions_in_presolve = True
        p.search_branching = cp_model.FIXED_SEARCH  # the model's row-by-row strategy
    elif workers is not None:
        p.num_workers = validate.whole_number(workers, "workers")
    return solver


def _run_solver(solver, model, callback=None):
    """``solver.Solve`` that Ctrl-C stops (through StopSearch); raises when it did."""
    interrupt.check()  # StopSearch before Solve starts would be forgotten by Solve
    with interrupt.stopping(solver.stop_search) as stopper:
        status = interrupt.run(solver.Solve, model, callback)
    stopper.check()
    interrupt.check()
    return status


def _model_for(problem, model, formulation, symmetry, force=False, clock=None) -> CpsatModel:
    if model is None:
        return _build(problem, formulation, symmetry, force, clock or size.Clock())
    return given_model(model, CpsatModel, problem)


def _check_search(problem: Problem, force: bool, time_limit: float | None) -> bool:
    """Refuse a search beyond :data:`SEARCH` unless ``force`` or a time limit bounds it;
    returns ``force`` as a bool."""
    force = validate.flag(force, "force")
    if isinstance(problem, Problem) and time_limit is None:
        limits.check(SEARCH, problem.n, force, hint=_SEARCH_HINT)
    return force


def _out_of_time(what: str) -> Incomplete:
    return Incomplete(f"CP-SAT's time limit ran out while the model was being built, before {what}")


def solve(
    problem: Problem,
    *,
    formulation="integer",
    time_limit=None,
    seed: int = 0,
    workers=None,
    model=None,
    force: bool = False,
):
    """One solution, or None when the problem has none.

    Parameters
    ----------
    problem : Problem
    formulation : {"integer", "boolean"}
    time_limit : float, optional
        Seconds, building the model included; if it ends the search before an answer,
        :class:`Incomplete` is raised.
    seed : int
        CP-SAT's random seed.
    workers : int, optional
        Parallel workers (default: OR-Tools' choice).
    model : CpsatModel, optional
        A model from :func:`build` (possibly edited); built when not given.
    force : bool, default False
        Search beyond :data:`SEARCH` without a time limit, and build beyond :data:`BUILD`.

    Raises
    ------
    TooLarge
        For n beyond :data:`SEARCH` without a time limit and without ``force``, or a
        model beyond :data:`BUILD`.

    Examples
    --------
    >>> from queenslab.solution import is_solution
    >>> is_solution(Problem(12), solve(Problem(12), seed=1))
    True
    >>> solve(Problem(3)) is None
    True
    """
    cp_model = _cp_model()
    time_limit = validate.positive_seconds(time_limit)
    force = _check_search(problem, force, time_limit)
    clock = size.Clock(time_limit)
    try:
        m = _model_for(problem, model, formulation, None, force, clock)
    except size.OutOfTime:
        raise _out_of_time("a solution was searched for") from None
    solver = _solver(time_limit=clock.left(), seed=seed, workers=workers)
    status = _run_solver(solver, m.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return m.decode(solver.Value)
    if status == cp_model.INFEASIBLE:
        return None
    if status == cp_model.MODEL_INVALID:
        raise QueensError(f"CP-SAT rejected the model: {m.model.Validate()}")
    raise Incomplete(f"CP-SAT stopped ({solver.StatusName(status)}) before finding a solution or proving there is none")


def counts(
    problem: Problem,
    *,
    unique: bool = False,
    formulation="integer",
    time_limit=None,
    seed: int = 0,
    workers=None,
    limit: int | None = None,
    model=None,
    assume_symmetric: bool = False,
    force: bool = False,
) -> CountResult:
    """Count by enumerating every solution with a callback (one worker).

    With ``unique=True`` the count runs on the lex-leader model and gives the number of
    orbits; ``total`` is then counted on the plain model as well. A run stopped by
    ``limit`` or ``time_limit`` returns ``complete=False`` with the numbers found so far;
    the time limit of each enumeration covers building its model. ``force`` builds a
    model beyond :data:`BUILD` without a time limit.

    A ``model`` (from :func:`build`, possibly edited) is counted as it is: a plain model
    gives ``count`` (``unique`` is refused), a lex-leader model gives ``unique`` only
    (``count`` is None, and ``unique=True`` is required). A lex-leader model to which
    constraints were added after :func:`build` is refused unless ``assume_symmetric``
    (see :func:`~queenslab.models.breaking.check_model_count`).
    """
    search = _search({"time_limit": time_limit, "seed": seed, "workers": workers, "limit": limit})
    force = validate.flag(force, "force")
    if model is not None:
        m = _model_for(problem, model, formulation, None)
        unique = validate.flag(unique, "unique")
        check_model_count(problem, m.symmetry, unique, m.edited, validate.flag(assume_symmetric, "assume_symmetric"))
        found, complete = _enumerate_count(m, **search)
        if m.symmetry == LEX_LEADER:
            return CountResult(None, found, None, "cpsat", m.formulation.value + "/lex-leader", complete)
        return CountResult(found, None, None, "cpsat", m.formulation.value, complete)
    form = validate.member(Formulation, formulation, "CP-SAT formulation")
    unique = validate.flag(unique, "unique")
    total, complete = _build_and_count(problem, form, None, force, search)
    orbits = None
    if unique:
        orbits, done = _build_and_count(problem, form, LEX_LEADER, force, search)
        complete = complete and done
    return CountResult(total, orbits, None, "cpsat", form.value, complete)


def _build_and_count(problem, form, symmetry, force, search) -> tuple[int, bool]:
    """Build a model and enumerate it, the time limit covering both: ``(0, False)``
    when it runs out while the model is built."""
    clock = size.Clock(search["time_limit"])
    try:
        m = _build(problem, form, symmetry, force, clock)
    except size.OutOfTime:
        return 0, False
    return _enumerate_count(m, **{**search, "time_limit": clock.left()})


def _search(options: dict[str, Any]) -> dict[str, Any]:
    """The enumeration's options (time_limit, seed, workers, limit), checked."""
    unknown = sorted(set(options) - {"time_limit", "seed", "workers", "limit"})
    if unknown:
        raise UnknownOption(
            f"unknown CP-SAT count option(s) {', '.join(unknown)}; it takes time_limit, seed, workers, limit"
        )
    out = {"time_limit": None, "seed": 0, "workers": None, "limit": None, **options}
    out["limit"] = validate.optional_whole_number(out["limit"], "limit", minimum=1)
    return out


def _enumerate_count(m: CpsatModel, *, time_limit=None, seed=0, workers=None, limit=None) -> tuple[int, bool]:
    cp_model = _cp_model()
    solver = _solver(time_limit=time_limit, seed=seed, workers=workers, enumerate_all=True)

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
    status = _run_solver(solver, m.model, cb)
    if status == cp_model.MODEL_INVALID:
        raise QueensError(f"CP-SAT rejected the model: {m.model.Validate()}")
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not cb.stopped
    return cb.found, complete


def count(problem: Problem, *, unique: bool = False, formulation="integer", model=None, **search: Any) -> int:
    """Number of solutions (``unique=True``: of orbits, through lex-leader constraints).

    Takes the options of :func:`counts` and counts one model: the plain one, or with
    ``unique`` the lex-leader one. Raises :class:`Incomplete` when a limit stopped
    the enumeration (its ``found`` attribute is the lower bound).

    Examples
    --------
    >>> count(Problem(6)), count(Problem(8), unique=True)
    (4, 12)
    >>> count(Problem(7, toroidal=True), formulation="boolean")
    28
    """
    if model is not None:
        return counts(problem, unique=unique, model=model, **search).value(unique)
    force = validate.flag(search.pop("force", False), "force")
    form = validate.member(Formulation, formulation, "CP-SAT formulation")
    symmetry = LEX_LEADER if validate.flag(unique, "unique") else None
    found, complete = _build_and_count(problem, form, symmetry, force, _search(search))
    return CountResult(found, backend="cpsat", complete=complete).value()


def solutions(
    problem: Problem,
    *,
    limit: int | None = None,
    formulation="integer",
    symmetry=None,
    time_limit=None,
    seed: int = 0,
    model=None,
    force: bool = False,
) -> Iterator[tuple[int, ...]]:
    """Iterate over solutions as CP-SAT finds them (not in lexicographic order).

    The solver runs on a background thread and hands over each solution; it pauses
    while the consumer does not ask for more, and stops when the iterator is closed.
    The model is built when this is called; a ``time_limit`` covers building it (none
    come when it runs out before the search). Beyond :data:`SEARCH` a time limit or
    ``force`` is needed, beyond :data:`BUILD` ``force`` or a time limit.
    """
    limit = validate.optional_whole_number(limit, "limit")
    time_limit = validate.positive_seconds(time_limit)
    force = _check_search(problem, force, time_limit)
    clock = size.Clock(time_limit)
    try:
        m = _model_for(problem, model, formulation, symmetry, force, clock)
    except size.OutOfTime:
        return iter(())
    if limit == 0:
        return iter(())
    return _stream(m, limit, clock.left(), seed)


_DONE = object()


def _stream(m: CpsatModel, limit, time_limit, seed):
    cp_model = _cp_model()
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


def export_text(problem: Problem, *, formulation="integer", symmetry=None, model=None, force: bool = False) -> str:
    """The model as CP-SAT's text protocol buffer (``CpModelProto`` text format).

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` (MB, estimated) without ``force``.
    """
    m = _model_for(problem, model, formulation, symmetry, validate.flag(force, "force"))
    return str(m.model.Proto())
