"""CNF (python-sat) models of a Problem, to edit, export as DIMACS, and count or solve with
the ``sat`` (SAT enumeration) and ``ganak`` (exact #SAT) backends.

Variables are cell variables ``x[r][c]``, numbered by a pysat ``IDPool`` under the keys
``("x", r, c)``; auxiliary variables of the cardinality encodings and of symmetry
breaking come from the same pool, and decoding goes through it. Clauses:

* exactly one queen per row and per column, at most one per diagonal (on a torus: per
  broken diagonal), with the cardinality encoding chosen by :class:`Encoding`
  (pysat's ``CardEnc``: pairwise, sequential counter, ladder, totalizer, ...);
* ``(-x1 | -x2)`` for every knight pair, unit clauses for blocked cells and fixed queens;
* with ``symmetry="lex-leader"``, ``X >=lex g(X)`` on the row-major cell vector for every
  non-identity ``g`` of ``problem.symmetries()`` (:mod:`queenslab.models.breaking`).

This module builds (:func:`build`, :func:`to_dimacs`); :mod:`queenslab.backends.sat`
counts, enumerates and solves, a model given as ``model=m`` included
(``get_backend("sat").counts(problem, model=m)``): the ``sat`` backend blocks the cell
variables only (never auxiliary ones, or the count would be wrong) on a fresh solver per
call; ``ganak`` counts models projected on the cell variables with pyganak (the optional
extra ``queenslab[count]``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import limits, validate
from ..compiled import compile_problem
from ..d4 import D4Element
from ..errors import MissingDependency, QueensError
from ..problem import Problem
from . import given_model, size
from .breaking import (
    LEX_LEADER,
    Literal,
    cells_in_order,
    check_fixed_by,
    check_symmetry,
    fixed_point_clauses,
    lex_leader_clauses,
)

__all__ = [
    "Encoding",
    "BUILD",
    "SEARCH",
    "CnfModel",
    "build",
    "to_dimacs",
]


class Encoding(enum.Enum):
    """Cardinality encodings for the at-most-one / exactly-one constraints (pysat names)."""

    PAIRWISE = "pairwise"
    SEQCOUNTER = "seqcounter"
    LADDER = "ladder"
    TOTALIZER = "totalizer"
    MTOTALIZER = "mtotalizer"
    KMTOTALIZER = "kmtotalizer"
    SORTNETWORK = "sortnetwrk"
    CARDNETWORK = "cardnetwrk"
    BITWISE = "bitwise"

    def enc_type(self) -> int:
        from pysat.card import EncType

        return getattr(EncType, self.value)


def _pysat() -> Any:  # the package pysat
    try:
        import pysat.card
        import pysat.formula
        import pysat.solvers
    except ImportError as e:  # pragma: no cover - python-sat is a core dependency
        raise MissingDependency(f"the sat backend needs python-sat ({e}); pip install python-sat") from None
    return pysat


@dataclass
class CnfModel:
    """A CNF model: the formula, its variable pool and how to read a solution.

    The ``sat`` and ``ganak`` backends count it as it is
    (``get_backend("ganak").counts(problem, model=m)``), ``sat`` also enumerates and
    solves it; :meth:`count` and :meth:`counts` are shorthands for the ``sat`` count. A
    model built with ``symmetry="lex-leader"`` counts orbits; clauses added to it after
    :func:`build` make that count refused unless they are declared symmetric
    (``assume_symmetric=True``): the model notices the edit from its own clause and
    variable counts (:attr:`edited`).

    Attributes
    ----------
    problem : Problem
    encoding : Encoding
    symmetry : str or None
    cnf : pysat.formula.CNF
        Append clauses to edit the model.
    pool : pysat.formula.IDPool
        ``pool.id(("x", r, c))`` is the variable of cell (r, c).
    """

    problem: Problem
    encoding: Encoding
    symmetry: str | None
    cnf: Any
    pool: Any
    #: The backend that counts, enumerates and solves this model (``count(problem,
    #: model=m)`` picks it; ``ganak`` counts it too).
    backend: ClassVar[str] = "sat"
    #: (variables, clauses) at the end of :func:`build`.
    built: tuple[int, int] = (0, 0)
    #: The symmetry whose fixed solutions the model keeps (``build(fixed_by=g)``), or None.
    fixed_by: D4Element | None = None

    @property
    def edited(self) -> bool:
        """Whether clauses or variables were added since :func:`build`."""
        return (self.pool.top, len(self.cnf.clauses)) != self.built

    @property
    def undetermined(self) -> int:
        """How many variables the cell variables do not determine: a cardinality
        encoding's auxiliaries (the lex-leader "equal so far" variables are defined by the
        cells). With none, every solution is exactly one model."""
        lex = sum(1 for key in self.pool.obj2id if key[0] == "lex")
        return self.pool.top - len(cells_in_order(self.problem)) - lex

    def var(self, r: int, c: int) -> int:
        """The variable of cell ``(r, c)`` (0-based)."""
        return self.pool.id(("x", r, c))

    def cell_variables(self) -> list[int]:
        """Every cell variable, row-major."""
        return [self.var(r, c) for r, c in cells_in_order(self.problem)]

    def decode(self, assignment) -> tuple[int, ...]:
        """The placement of a model (a list of signed literals, as pysat returns it; -1
        for an empty row)."""
        true = {lit for lit in assignment if lit > 0}
        n, m = self.problem.n, self.problem.columns
        return tuple(next((c for c in range(m) if self.var(r, c) in true), -1) for r in range(n))


#: The practical limit of :func:`build`, on the model's estimated size
#: (:func:`~queenslab.models.size.cnf_bytes`): pysat's encodings make every clause a Python
#: list. Measured: the pairwise model of n = 100 (180 MB) in 2 s, of n = 150 (600 MB) in 11 s.
BUILD = limits.declare(
    "building a CNF model",
    200,
    "MB",
    "every clause is a Python list: the pairwise model (n**3 clauses) of n = 100 (180 MB) takes 2 s, 3 s as "
    "DIMACS text, of n = 150 (600 MB) 11 s",
)
#: The practical limit of a SAT search for solutions (the ``sat`` backend's ``solve`` and
#: ``solutions``, which check it).
SEARCH = limits.declare(
    "a SAT search for solutions",
    80,
    "n",
    "building and solving grow fast with n and depend on the encoding: n = 80 takes 1.5 s (pairwise) to 5 s "
    "(sortnetwrk), n = 100 3 to 8 s, larger boards minutes",
)


def build(
    problem: Problem,
    *,
    encoding="pairwise",
    symmetry: str | None = None,
    force: bool = False,
    clock: size.Clock | None = None,
    fixed_by: D4Element | None = None,
) -> CnfModel:
    """Build the CNF model of ``problem``.

    Parameters
    ----------
    problem : Problem
    encoding : str or Encoding, default "pairwise"
        Cardinality encoding of the row/column/diagonal constraints.
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model larger than :data:`BUILD` (MB, estimated) all the same.
    clock : size.Clock, optional
        The time limit of the search this model is built for, checked between the steps
        (:class:`~queenslab.models.size.OutOfTime` when it runs out).
    fixed_by : D4Element, optional
        An element of ``problem.symmetries()``: keep only the solutions it maps onto
        themselves (:func:`~queenslab.models.breaking.fixed_point_clauses`), whose
        numbers give the total from the orbits by Burnside's lemma.

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` without ``force``, or one that cannot fit in
        the memory available.

    Examples
    --------
    >>> m = build(Problem(4))
    >>> m.var(0, 0), m.var(3, 3)
    (1, 16)
    """
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    enc = validate.member(Encoding, encoding, "cardinality encoding")
    check_symmetry(symmetry)
    fixed_by = check_fixed_by(problem, fixed_by)
    if clock is None:
        clock = size.Clock()  # no time limit: Ctrl-C between the steps
    size.check_build(BUILD, problem, size.cnf_bytes(problem, enc.value), f"the {enc.value} CNF model", force, clock)
    _pysat()
    from pysat.card import CardEnc
    from pysat.formula import CNF, IDPool

    pool = IDPool()
    for cell in cells_in_order(problem):  # cell variables first: 1 .. n*m, row-major
        pool.id(("x", *cell))
    m = CnfModel(problem, enc, symmetry, CNF(), pool)
    s = compile_problem(problem, ("encode_cnf",), boards=True)
    et = enc.enc_type()

    def lits(line):
        return [m.var(r, c) for r, c in line]

    # each row and column: exactly one queen, or at most one where rows or columns
    # outnumber the queens (then the queens are counted in all)
    for lines, full in ((s.rows(), s.rows_full), (s.columns(), s.columns_full)):
        card = CardEnc.equals if full else CardEnc.atmost
        for line in lines:
            clock.check()
            m.cnf.extend(card(lits(line), bound=1, vpool=pool, encoding=et).clauses)
    if not (s.rows_full or s.columns_full):
        _add_bounds(m, m.cell_variables(), s.queens, s.queens, enc)
    for diagonal in s.diagonals:
        clock.check()
        m.cnf.extend(CardEnc.atmost(lits(diagonal), bound=1, vpool=pool, encoding=et).clauses)
    for a, b in s.leap_pairs:
        m.cnf.append([-m.var(*a), -m.var(*b)])
    for r, c in s.forbidden:
        m.cnf.append([-m.var(r, c)])
    for r, c in s.fixed:
        m.cnf.append([m.var(r, c)])
    for region in s.regions:
        _add_bounds(m, lits(region.cells), region.at_least, region.upper, enc)
    for constraint in s.own:  # a kind said in no table of the compiled form: its own encoding
        constraint.encode_cnf(m)
    if symmetry == LEX_LEADER:
        _add_lex_leader(m)
    if fixed_by is not None:
        m.fixed_by = fixed_by
        _add_clauses(m, fixed_point_clauses(problem, fixed_by))
    m.built = (m.pool.top, len(m.cnf.clauses))
    return m


#: The encodings pysat offers for any bound (pairwise, ladder and bitwise encode
#: at-most-one only).
_ANY_BOUND = {
    Encoding.SEQCOUNTER,
    Encoding.TOTALIZER,
    Encoding.MTOTALIZER,
    Encoding.KMTOTALIZER,
    Encoding.SORTNETWORK,
    Encoding.CARDNETWORK,
}


def _add_bounds(m: CnfModel, literals: list[int], at_least: int, at_most: int, enc: Encoding) -> None:
    """``at_least <= sum(literals) <= at_most`` in clauses, with ``enc`` where pysat has
    it for the bound, else the sequential counter (the encodings of at-most-one take no
    other bound)."""
    from pysat.card import CardEnc

    k = len(literals)
    if at_most < k:
        kind = enc if enc in _ANY_BOUND or at_most == 1 else Encoding.SEQCOUNTER
        if at_most == 0:
            m.cnf.extend([[-x] for x in literals])
        else:
            m.cnf.extend(CardEnc.atmost(literals, bound=at_most, vpool=m.pool, encoding=kind.enc_type()).clauses)
    if at_least == 1:
        m.cnf.append(list(literals))
    elif at_least > 1:
        # at least k of them true = at most len - k of them false
        kind = enc if enc in _ANY_BOUND else Encoding.SEQCOUNTER
        negated = [-x for x in literals]
        if at_least == k:
            m.cnf.extend([[x] for x in literals])
        else:
            m.cnf.extend(CardEnc.atmost(negated, bound=k - at_least, vpool=m.pool, encoding=kind.enc_type()).clauses)


def _add_lex_leader(m: CnfModel) -> None:
    """``X >=lex Y`` with ``Y = g(X)`` for each breaking element (:func:`lex_leader_clauses`:
    counting is projected on the cell variables, so the auxiliary freedom never changes a
    count)."""
    _add_clauses(m, lex_leader_clauses(m.problem))


def _add_clauses(m: CnfModel, clauses: Iterable[tuple[Literal, ...]]) -> None:
    """Clauses of (positive, key) literals, as clauses of ``m``'s variables."""
    for clause in clauses:
        m.cnf.append([m.pool.id(key) if positive else -m.pool.id(key) for positive, key in clause])


def _model_for(problem, model, encoding, symmetry, force=False) -> CnfModel:
    if model is None:
        return build(problem, encoding=encoding, symmetry=symmetry, force=force)
    return given_model(model, CnfModel, problem)


def to_dimacs(problem: Problem, *, encoding="pairwise", symmetry=None, model=None, force: bool = False) -> str:
    """DIMACS CNF text with a comment header mapping each cell variable to its cell.

    The header has one ``c x ROW COL VAR`` line per cell (1-based row and column) and a
    ``c p show ... 0`` line naming the cell variables as the projection set, which
    projected model counters read; pysat and every SAT solver skip comment lines. When
    the formula has auxiliary variables (a cardinality encoding's, the lex-leader
    constraints'), the header says that its solutions are the models projected on the
    cell variables: a plain enumerator over every variable would overcount them.

    Raises
    ------
    TooLarge
        For a model beyond :data:`BUILD` (MB, estimated) without ``force``.
    """
    m = _model_for(problem, model, encoding, symmetry, validate.flag(force, "force"))
    cells = cells_in_order(problem)
    lines = [
        f"c queenslab CNF model: {problem.describe()}",
        f"c encoding {m.encoding.value}; symmetry {m.symmetry or 'none'}",
        f"c problem {problem.fingerprint()}",
        "c x ROW COL VAR: the queen of ROW stands in COL (1-based) when VAR is true",
    ]
    if m.symmetry == LEX_LEADER:
        names = ", ".join(g.name for g in problem.symmetries())
        lines.append(f"c lex-leader constraints keep one solution per orbit under the group {{{names}}}")
    lex = m.pool.top - len(cells) - m.undetermined
    if m.undetermined:
        # a cardinality encoding's auxiliary variables may take several values for one
        # placement: counting or enumerating over every variable would overcount
        lines += [
            f"c the solutions are the models projected on the {len(cells)} cell variables (c p show below):",
            "c a model counter must project on them and an enumerator must block them only;",
            f"c the {m.pool.top - len(cells)} other variables are auxiliary",
        ]
    elif lex:
        lines.append(
            f"c the {lex} other variables (lex-leader: agreement so far) are determined by the cells: one model per solution"
        )
    lines += [f"c x {r + 1} {c + 1} {m.var(r, c)}" for r, c in cells]
    lines.append("c p show " + " ".join(map(str, m.cell_variables())) + " 0")
    lines.append(f"p cnf {m.pool.top} {len(m.cnf.clauses)}")
    lines += [" ".join(map(str, cl)) + " 0" for cl in m.cnf.clauses]
    return "\n".join(lines) + "\n"
