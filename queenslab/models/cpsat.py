"""CP-SAT (OR-Tools) models of a Problem, to edit and then count or solve with the
``cpsat`` backend.

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
so constraints can be added; :func:`export_text` writes it out. ``symmetry="lex-leader"``
adds ``q <=lex g(q)`` for every non-identity ``g`` of ``problem.symmetries()`` (see
:mod:`queenslab.models.breaking`), so that counting counts orbits.

This module builds; the ``cpsat`` backend (:mod:`queenslab.backends.cpsat`) counts,
enumerates and solves, a model given as ``model=m`` included::

    get_backend("cpsat").counts(problem, model=m)   # or queenslab.counts(problem, model=m)

The practical limits :data:`BUILD` (checked here) and :data:`SEARCH` (checked by the
backend before a search) are declared here, next to the model they measure.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import limits, validate
from ..compiled import compile_problem
from ..errors import MissingDependency, QueensError, UnsupportedProblem, setting
from ..problem import Problem
from . import given_model, size
from .breaking import LEX_LEADER, breaking_elements, cell_sources, cells_in_order, check_symmetry, image_terms

__all__ = [
    "Formulation",
    "CpsatModel",
    "BUILD",
    "SEARCH",
    "build",
    "export_text",
]


class Formulation(enum.Enum):
    """How a placement is represented in the CP-SAT model."""

    INTEGER = "integer"
    BOOLEAN = "boolean"


def cp_model_module() -> Any:  # the module ortools.sat.python.cp_model
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

    The ``cpsat`` backend counts, enumerates and solves it as it is
    (``get_backend("cpsat").counts(problem, model=m)``); :meth:`count` and :meth:`counts`
    are shorthands for that count. A model built with ``symmetry="lex-leader"`` counts
    orbits; constraints added to it after :func:`build` make that count refused unless
    they are declared symmetric (``assume_symmetric=True``): the model notices the edit
    from its own size (:attr:`edited`).

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
    #: The backend that counts, enumerates and solves this model (``count(problem,
    #: model=m)`` picks it).
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

    def decision_variables(self) -> list:
        """The variables that determine a placement (``q``, or every ``x``)."""
        if self.formulation is Formulation.INTEGER:
            return list(self._q())
        return [v for row in self._x() for v in row]

    def decode(self, value: Callable) -> tuple[int, ...]:
        """The placement of the current solution; ``value`` is ``solver.Value`` (or a
        callback's ``Value``)."""
        n, m = self.problem.n, self.problem.columns
        if self.formulation is Formulation.INTEGER:
            return tuple(int(value(v)) for v in self._q())
        x = self._x()
        return tuple(next((c for c in range(m) if value(x[r][c])), -1) for r in range(n))

    def column_expressions(self) -> list:
        """Expressions for the column of each row's queen, in either formulation."""
        if self.q is not None:
            return list(self.q)
        n, m = self.problem.n, self.problem.columns
        x = self._x()
        return [sum(c * x[r][c] for c in range(m)) for r in range(n)]

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
#: The practical limit of a search for solutions without a time limit (the ``cpsat``
#: backend's ``solve`` and ``solutions``, which check it). Measured on 2 cores: n = 100 in about a second; n = 200 in 4 s
#: (Boolean model) and 24 s (integer model); n = 1000 ran for over a minute.
SEARCH = limits.declare(
    "a CP-SAT search for solutions",
    100,
    "n",
    "CP-SAT's time to a first solution grows fast and erratically with n: n = 100 takes about a second, "
    "n = 200 from 4 to 24 s, n = 1000 minutes",
)
_BUILD_HINT = (
    f"give the search a time limit, {setting('time_limit=S', '--time-limit S')}, which then covers building the model"
)


def default_formulation(problem: Problem) -> str:
    """The formulation a model of ``problem`` takes unless told: ``"integer"`` for n queens
    on n x n, ``"boolean"`` for a board whose rows may stay empty or a rectangle (the
    integer one gives every row a queen)."""
    return "integer" if problem.is_plain_board else "boolean"


def build(
    problem: Problem,
    *,
    formulation=None,
    symmetry: str | None = None,
    force: bool = False,
    clock: size.Clock | None = None,
) -> CpsatModel:
    """Build the CP-SAT model of ``problem``.

    Parameters
    ----------
    problem : Problem
    formulation : {"integer", "boolean"} or Formulation
    symmetry : {None, "lex-leader"}
        Add lex-leader constraints for ``problem.symmetries()``.
    force : bool, default False
        Build a model larger than :data:`BUILD` (MB, estimated) all the same.
    clock : size.Clock, optional
        The time limit of the search this model is built for, checked between the steps
        (:class:`~queenslab.models.size.OutOfTime` when it runs out); with a time limit a
        model beyond :data:`BUILD` is built without ``force``. The backend passes it.

    Returns
    -------
    CpsatModel

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` without ``force`` or a time limit, or one that
        cannot fit in the memory available.

    Examples
    --------
    Forbid queens on both long diagonals, then count with the ``cpsat`` backend:

    >>> from queenslab import get_backend
    >>> m = build(Problem(8))
    >>> for r in range(8):
    ...     _ = m.model.Add(m.q[r] != r)
    ...     _ = m.model.Add(m.q[r] != 7 - r)
    >>> get_backend("cpsat").count(Problem(8), model=m)
    12
    """
    if clock is None:
        clock = size.Clock()  # no time limit: Ctrl-C between the steps
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    if formulation is None and isinstance(problem, Problem):
        formulation = default_formulation(problem)
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
    if form is Formulation.INTEGER and not problem.is_plain_board:
        raise UnsupportedProblem(
            f"{problem.describe()}: the integer formulation gives every row a queen; build formulation='boolean' "
            "(the cpsat backend takes it for such a board by default)"
        )
    cp_model = cp_model_module()
    n = problem.n
    model = cp_model.CpModel()
    m = CpsatModel(problem, form, symmetry, model)
    s = compile_problem(problem, ("encode_cpsat",), boards=True)
    if form is Formulation.INTEGER:
        q = [model.NewIntVar(0, n - 1, f"q[{r}]") for r in range(n)]
        m.q = q
        model.AddAllDifferent(q)
        if s.toroidal:
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
        for r, c in s.forbidden:
            model.Add(q[r] != c)
        for r, c in s.fixed:
            model.Add(q[r] == c)
    else:
        x = []
        for r in range(n):
            clock.check()
            x.append([model.NewBoolVar(f"x[{r},{c}]") for c in range(s.width)])
        m.x = x
        # each row and column: exactly one queen, or at most one where rows or columns
        # outnumber the queens (then the queens are counted in all)
        for lines, full in ((s.rows(), s.rows_full), (s.columns(), s.columns_full)):
            for line in lines:
                clock.check()
                (model.AddExactlyOne if full else model.AddAtMostOne)(x[r][c] for r, c in line)
        if not (s.rows_full or s.columns_full):
            model.Add(sum(x[r][c] for r, c in cells_in_order(problem)) == s.queens)
        for diagonal in s.diagonals:
            clock.check()
            model.AddAtMostOne(x[r][c] for r, c in diagonal)
        for (r1, c1), (r2, c2) in s.leap_pairs:
            clock.check()
            model.AddBoolOr([x[r1][c1].Not(), x[r2][c2].Not()])
        for r, c in s.forbidden:
            model.Add(x[r][c] == 0)
        for r, c in s.fixed:
            model.Add(x[r][c] == 1)
    for region in s.regions:
        # the number of queens on the region's cells, between its bounds
        clock.check()
        on = sum(m.cell(r, c) for r, c in region.cells)
        model.Add(on >= region.at_least)
        model.Add(on <= region.upper)
    for constraint in s.own:  # a kind said in no table of the compiled form: its own encoding
        constraint.encode_cpsat(m)
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
    if not m.problem.is_plain_board:
        _add_cell_lex_leader(m, elements, clock)
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


def _add_cell_lex_leader(m: CpsatModel, elements, clock: size.Clock) -> None:
    """``X >=lex g(X)`` on the cell vectors (:func:`~queenslab.models.breaking.cell_sources`),
    for a board whose rows may stay empty or a rectangle, as the chain of "equal so far"
    literals the CNF model posts as clauses."""
    model, x = m.model, m._x()
    cells = cells_in_order(m.problem)
    for gi, g in enumerate(elements):
        sources = cell_sources(m.problem.n, g, m.problem.columns)
        positions = [k for k, cell in enumerate(cells) if sources[k] != cell]
        eq = None  # "X and Y agree so far"; None: true
        for j, k in enumerate(positions):
            clock.check()
            (r, c), (sr, sc) = cells[k], sources[k]
            xk, yk = x[r][c], x[sr][sc]
            ct = model.AddImplication(yk, xk)  # agreeing so far, Y_k = 1 forces X_k = 1
            if eq is not None:
                ct.OnlyEnforceIf(eq)
            if j == len(positions) - 1:
                break
            # nxt <-> eq and X_k == Y_k, fully reified: an enumeration counts each
            # placement once (X_k = 1 and Y_k = 0 ends the comparison)
            nxt = model.NewBoolVar(f"lex[{gi},{k}]")
            for a, b in ((xk, yk), (xk.Not(), yk.Not())):
                model.AddBoolOr([a.Not(), b.Not(), nxt] + ([] if eq is None else [eq.Not()]))
            model.AddBoolOr([nxt.Not(), xk.Not(), yk])
            model.AddBoolOr([nxt.Not(), xk, yk.Not()])
            if eq is not None:
                model.AddImplication(nxt, eq)
            eq = nxt


def _model_for(problem, model, formulation, symmetry, force=False) -> CpsatModel:
    if model is None:
        return build(problem, formulation=formulation, symmetry=symmetry, force=force)
    return given_model(model, CpsatModel, problem)


def export_text(problem: Problem, *, formulation=None, symmetry=None, model=None, force: bool = False) -> str:
    """The model as CP-SAT's text protocol buffer (``CpModelProto`` text format).

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` (MB, estimated) without ``force``.
    """
    m = _model_for(problem, model, formulation, symmetry, validate.flag(force, "force"))
    return str(m.model.Proto())
