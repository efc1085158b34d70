"""CPMpy models of a Problem, to edit with CPMpy expressions and then count or solve with
the ``cpmpy`` backend.

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
``Inverse`` global constraint. Counting that model counts orbits; constraints added to
it after :func:`build` make that count refused unless they are declared symmetric
(``assume_symmetric=True``), as for the CP-SAT and CNF models: the model notices the
edit by comparing its constraints with those :func:`build` left
(:attr:`CpmpyModel.edited`).

This module builds; the ``cpmpy`` backend (:mod:`queenslab.backends.cpmpy`) counts,
enumerates and solves, on any solver CPMpy has installed, a model given as ``model=m``
included (``get_backend("cpmpy").counts(problem, model=m)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import limits
from ..compiled import compile_problem
from ..errors import MissingDependency, QueensError, setting
from ..problem import Problem
from . import size
from .breaking import LEX_LEADER, breaking_elements, cell_sources, cells_in_order, check_symmetry, image_terms

__all__ = ["CpmpyModel", "BUILD", "SEARCH", "build"]

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
#: The practical limit of a search for solutions without a time limit (the ``cpmpy``
#: backend's ``solve`` and ``solutions``, which check it).
SEARCH = limits.declare(
    "a CPMpy search for solutions",
    100,
    "n",
    "the model, its translation and the search grow fast with n: n = 100 takes about 3 s, n = 200 ten, "
    "n = 400 over a minute",
)
_BUILD_HINT = (
    f"give the search a time limit, {setting('time_limit=S', '--time-limit S')}, which then covers building the model"
)


def cpmpy_module() -> Any:  # the cpmpy module (untyped)
    try:
        import cpmpy
    except ImportError:
        raise MissingDependency('the cpmpy backend needs CPMpy: pip install "queenslab[cpmpy]"') from None
    return cpmpy


@dataclass
class CpmpyModel:
    """A CPMpy model of a problem, with its variables.

    The ``cpmpy`` backend counts, enumerates and solves it as it is
    (``get_backend("cpmpy").counts(problem, model=m)``). A model built with
    ``symmetry="lex-leader"`` counts orbits (``unique=True``); constraints added to it
    after :func:`build` make that count refused unless they are declared symmetric
    (``assume_symmetric=True``): the model notices the edit (:attr:`edited`).

    Attributes
    ----------
    problem : Problem
    symmetry : str or None
        ``"lex-leader"`` when symmetry-breaking constraints were added.
    model : cpmpy.Model
        Add your own constraints here before solving (``m.model += expression``).
    q : cpmpy NDVarArray of intvar, or None
        Column of each row's queen (None on a board whose rows may stay empty, or a
        rectangle: its model has cell variables ``x`` instead).
    inverse : cpmpy NDVarArray of intvar or None
        Row of each column's queen, when a symmetry element needed it.
    x : cpmpy NDVarArray of boolvar, or None
        ``x[r, c]``: a queen on cell ``(r, c)``, on a board other than n queens on n x n.
    """

    problem: Problem
    symmetry: str | None
    model: Any
    q: Any
    inverse: Any = None
    x: Any = None
    #: The backend that counts, enumerates and solves this model (``count(problem,
    #: model=m)`` picks it).
    backend: ClassVar[str] = "cpmpy"
    #: Every constraint at the end of :func:`build`, flattened (nested lists opened).
    built: list[Any] = field(default_factory=list, repr=False)

    def _constraints(self) -> list[Any]:
        from cpmpy.expressions.utils import flatlist

        return list(flatlist(self.model.constraints))

    def _seal(self) -> None:
        """Record the constraints at the end of :func:`build`."""
        self.built = self._constraints()

    @property
    def edited(self) -> bool:
        """Whether constraints were added, replaced or removed since :func:`build`, or an
        objective set.

        CPMpy keeps a model's constraints as a list of expressions (and nested lists of
        them) that the user may change in any way: they are compared, by identity, with
        those :func:`build` left.
        """
        now = self._constraints()
        changed = len(now) != len(self.built) or any(a is not b for a, b in zip(now, self.built))
        return changed or self.model.objective_ is not None

    def decode(self) -> tuple[int, ...]:
        """The placement of the solution the solver last assigned to ``q`` (or ``x``; -1
        for an empty row)."""
        if self.x is not None:
            rows = self.x.value()
            return tuple(next((c for c, on in enumerate(row) if on), -1) for row in rows)
        return tuple(int(v) for v in self.q.value())


def build(
    problem: Problem, *, symmetry: str | None = None, force: bool = False, clock: size.Clock | None = None
) -> CpmpyModel:
    """Build the CPMpy model of ``problem``.

    Parameters
    ----------
    problem : Problem
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
    CpmpyModel

    Raises
    ------
    MissingDependency
        When CPMpy is not installed.
    TooLarge
        For a model beyond :data:`BUILD` without ``force`` or a time limit, or one that
        cannot fit in the memory available.

    Examples
    --------
    Forbid queens on both long diagonals with CPMpy expressions, then count with the
    ``cpmpy`` backend:

    >>> from queenslab import get_backend
    >>> m = build(Problem(8))
    >>> m.model += [m.q[r] != r for r in range(8)]
    >>> m.model += [m.q[r] != 7 - r for r in range(8)]
    >>> get_backend("cpmpy").count(Problem(8), model=m)
    12
    """
    if clock is None:
        clock = size.Clock()  # no time limit: Ctrl-C between the steps
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    check_symmetry(symmetry)
    cp = cpmpy_module()
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
    if not problem.is_plain_board:
        return _build_cells(problem, symmetry, cp, clock)
    s = compile_problem(problem, ("encode_cpmpy",))
    q = cp.intvar(0, n - 1, shape=(n,), name="q")
    model = cp.Model(cp.AllDifferent(q))
    for line in s.diagonals:
        clock.check()
        model += cp.sum([q[r] == c for r, c in line]) <= 1
    for (r1, c1), (r2, c2) in s.leap_pairs:
        clock.check()
        model += (q[r1] != c1) | (q[r2] != c2)
    model += [q[r] != c for r, c in s.forbidden]
    model += [q[r] == c for r, c in s.fixed]
    for region in s.regions:
        on = cp.sum([q[r] == c for r, c in region.cells])
        if region.at_least > 0:
            model += on >= region.at_least
        if region.upper < len(region.cells):
            model += on <= region.upper
    m = CpmpyModel(problem, symmetry, model, q)
    for constraint in s.own:  # a kind said in no table of the compiled form: its own encoding
        constraint.encode_cpmpy(m)
    if symmetry == LEX_LEADER:
        _add_lex_leader(m, cp)
    m._seal()
    return m


def _build_cells(problem: Problem, symmetry: str | None, cp: Any, clock: size.Clock) -> CpmpyModel:
    """The model of a board whose rows may stay empty, or of a rectangle: a Boolean per
    cell, at most one queen per row and column (exactly one where they are as many as
    the queens), ``queens`` in all; lex-leader on the cell vectors."""
    s = compile_problem(problem, ("encode_cpmpy",), boards=True)
    x = cp.boolvar(shape=(s.n, s.width), name="x")
    model = cp.Model()
    for lines, full in ((s.rows(), s.rows_full), (s.columns(), s.columns_full)):
        for line in lines:
            on = cp.sum([x[r, c] for r, c in line])
            model += (on == 1) if full else (on <= 1)
    if not (s.rows_full or s.columns_full):
        model += cp.sum(x) == s.queens
    for diagonal in s.diagonals:
        clock.check()
        model += cp.sum([x[r, c] for r, c in diagonal]) <= 1
    for (r1, c1), (r2, c2) in s.leap_pairs:
        model += ~x[r1, c1] | ~x[r2, c2]
    model += [~x[r, c] for r, c in s.forbidden]
    model += [x[r, c] for r, c in s.fixed]
    for region in s.regions:
        on = cp.sum([x[r, c] for r, c in region.cells])
        if region.at_least > 0:
            model += on >= region.at_least
        if region.upper < len(region.cells):
            model += on <= region.upper
    m = CpmpyModel(problem, symmetry, model, None, x=x)
    if symmetry == LEX_LEADER:
        cells = cells_in_order(problem)
        for g in breaking_elements(problem):
            sources = cell_sources(problem.n, g, problem.columns)
            keep = [k for k, cell in enumerate(cells) if sources[k] != cell]
            if keep:  # X >=lex g(X) on the cell vectors
                m.model += cp.LexLessEq([x[sources[k]] for k in keep], [x[cells[k]] for k in keep])
    m._seal()
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
