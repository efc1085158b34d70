"""The linear description of a Problem over 0/1 cell variables: what the MiniZinc, XCSP3,
OPB and LP writers translate.

A cell variable ``x[r][c]`` is 1 when a queen stands on ``(r, c)``. Every rule of the
compiled form (:mod:`queenslab.compiled`) becomes a bound on a sum of cell variables
(:class:`Sum`): each row and column holds exactly one queen (at most one where rows or
columns outnumber the queens, which are then counted in all), each diagonal (broken on a
torus) at most one, the two cells of a leaper pair at most one, a blocked cell none, a
fixed queen's cell one, a region between its bounds. Lex-leader symmetry breaking is
given twice, for the two kinds of target language:

* :attr:`LinearModel.lex` -- pairs of cell vectors ``X >=lex Y`` (``Y = g(X)``), for the
  languages with a lexicographic global constraint (MiniZinc, XCSP3);
* :attr:`LinearModel.lex_clauses` -- the same order as clauses over the cell variables
  and auxiliary "equal so far" variables (:func:`queenslab.models.breaking.lex_leader_clauses`,
  the CNF model's), for the languages without one (OPB, LP); each clause is the linear
  constraint "at least one literal true".

This module builds, it does not write or solve. A constraint kind that gives no
``compile`` is not in the compiled form and is refused (its own encodings are those of
the CP-SAT, CNF and CPMpy models).

Examples
--------
>>> m = linear_model(Problem(4))
>>> len(m.cells), len(m.sums)
(16, 18)
>>> m.sums[0]
Sum(what='row 1', cells=((0, 0), (0, 1), (0, 2), (0, 3)), at_least=1, at_most=1)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import limits, validate
from ..compiled import compile_problem
from ..errors import QueensError
from ..problem import Cell, Problem
from .breaking import (
    LEX_LEADER,
    Literal,
    breaking_elements,
    cell_sources,
    cells_in_order,
    check_symmetry,
    lex_leader_clauses,
)
from .size import Clock, check_build, linear_bytes

__all__ = ["BUILD", "Sum", "LexPair", "LinearModel", "linear_model"]

#: The practical limit of building a linear model (in MB of its estimated size).
BUILD = limits.declare(
    "building a linear model (MiniZinc, XCSP3, OPB, LP)",
    200,
    "MB",
    "every cell of every sum is a Python tuple before it is written: with lex-leader constraints n = 100 takes "
    "2 to 5 s, n = 200 5 to 10 s and 0.5 GB (40 MB of OPB text)",
)


@dataclass(frozen=True)
class Sum:
    """``at_least <= sum(x[c] for c in cells) <= at_most``, with what it says."""

    what: str
    cells: tuple[Cell, ...]
    at_least: int
    at_most: int


@dataclass(frozen=True)
class LexPair:
    """``X >=lex Y`` for the cell vectors ``X = left`` and ``Y = right = g(X)``.

    Only the positions where ``g`` moves the cell are kept: elsewhere both sides are the
    same variable, and dropping equal pairs does not change a lexicographic order.
    """

    element: str
    left: tuple[Cell, ...]
    right: tuple[Cell, ...]


@dataclass(frozen=True)
class LinearModel:
    """The linear description of ``problem`` (see the module docstring).

    Attributes
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
    cells : tuple of (row, column)
        Every cell of the board in row-major order: the cell variables.
    sums : tuple of Sum
        The bounds on sums of cell variables.
    lex : tuple of LexPair
        The lex-leader constraints (empty without symmetry breaking).
    lex_clauses : tuple of clauses
        The same lex-leader constraints as clauses; a literal is ``(positive, key)`` with
        ``key = ("x", r, c)`` for a cell variable or ``("lex", element, position)`` for an
        auxiliary one.
    """

    problem: Problem
    symmetry: str | None
    cells: tuple[Cell, ...]
    sums: tuple[Sum, ...]
    lex: tuple[LexPair, ...]
    lex_clauses: tuple[tuple[Literal, ...], ...]

    @property
    def auxiliaries(self) -> tuple[tuple, ...]:
        """The keys of the auxiliary variables of :attr:`lex_clauses`, in order of appearance."""
        seen: dict[tuple, None] = {}
        for clause in self.lex_clauses:
            for _, key in clause:
                if key[0] != "x":
                    seen.setdefault(key)
        return tuple(seen)

    def group_names(self) -> str:
        """The names of the problem's symmetries, for a model's header."""
        return ", ".join(g.name for g in self.problem.symmetries())


def linear_model(problem: Problem, symmetry: str | None = None, *, force: bool = False) -> LinearModel:
    """The linear description of ``problem`` over its cell variables.

    Parameters
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model beyond :data:`BUILD` (MB, estimated) all the same.

    Raises
    ------
    UnsupportedProblem
        For a constraint kind outside the compiled form.
    TooLarge
        For a model beyond :data:`BUILD` without ``force``, or one that cannot fit in memory.
    """
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    check_symmetry(symmetry)
    nbytes = linear_bytes(problem, symmetry)
    check_build(BUILD, problem, nbytes, "the linear model", validate.flag(force, "force"), Clock())
    s = compile_problem(problem, boards=True)
    sums: list[Sum] = []

    def lines(kind: str, cells_of: list[list[Cell]], full: bool) -> None:
        for i, line in enumerate(cells_of):
            sums.append(Sum(f"{kind} {i + 1}", tuple(line), 1 if full else 0, 1))

    lines("row", s.rows(), s.rows_full)
    lines("column", s.columns(), s.columns_full)
    cells = tuple(cells_in_order(problem))
    if not (s.rows_full or s.columns_full):
        sums.append(Sum(f"{s.queens} queens in all", cells, s.queens, s.queens))
    for line in s.diagonals:
        sums.append(Sum("diagonal " + _cell_name(line[0]) + "-" + _cell_name(line[-1]), line, 0, 1))
    for a, b in s.leap_pairs:
        sums.append(Sum(f"{s.attack(a, b)} {_cell_name(a)}-{_cell_name(b)}", (a, b), 0, 1))
    for cell in s.forbidden:
        sums.append(Sum(f"blocked {_cell_name(cell)}", (cell,), 0, 0))
    for cell in s.fixed:
        sums.append(Sum(f"fixed {_cell_name(cell)}", (cell,), 1, 1))
    for region in s.regions:
        sums.append(Sum(region.describe(), tuple(region.cells), region.at_least, region.upper))
    lex: list[LexPair] = []
    clauses: tuple[tuple[Literal, ...], ...] = ()
    if symmetry == LEX_LEADER:
        for g in breaking_elements(problem):
            sources = cell_sources(problem.n, g, problem.columns)
            moved = [k for k, cell in enumerate(cells) if sources[k] != cell]
            if not moved:  # g fixes every cell (a 1 x 1 board): X >=lex X holds
                continue
            lex.append(LexPair(g.name, tuple(cells[k] for k in moved), tuple(sources[k] for k in moved)))
        clauses = tuple(lex_leader_clauses(problem))
    return LinearModel(problem, symmetry, cells, tuple(sums), tuple(lex), clauses)


def _cell_name(cell: Cell) -> str:
    """``(r, c)`` 1-based, as the models' comments name cells."""
    return f"({cell[0] + 1},{cell[1] + 1})"
