"""Optimisation models of a problem's board: the fewest queens that dominate it, the most
queens that attack no other.

Two objectives (:data:`OBJECTIVES`), each built for three independent optimisers:

* ``dominate`` -- the domination number: the fewest queens such that every cell holds a
  queen or is attacked by one (queens may attack each other), gamma(Q_n) for the standard
  board (OEIS A075458);
* ``independence`` -- the independence number: the most queens no two of which attack
  each other (n for the standard board from n = 4 on; fewer where cells are blocked).

The queens obey the problem's constraints as the compiled form says them: no queen on a
forbidden cell, a queen on each fixed cell, each region's bounds on its queens; the
lines, the torus and the leapers say which cells a queen attacks. Holes
(:class:`~queenslab.constraints.Holes`) are read here too: no queen stands on one, no
hole needs covering, and every line is cut at its holes into segments, each of which
holds at most one queen of an independent set (leapers jump over holes). :func:`cpsat_model`
builds the CP-SAT model (a Boolean per cell, the objective as a linear sum),
:func:`wcnf_model` the weighted CNF of a MaxSAT solver (the cover or the non-attack
conditions hard, one soft unit clause per cell), :func:`highs_model` the 0/1 integer
program of HiGHS (a binary column per cell, a row per condition). This module builds;
:mod:`queenslab.optimize` solves and compares.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .. import validate
from ..compiled import compile_problem
from ..constraints import KINDS, Holes, unhandled
from ..errors import UnsupportedProblem
from ..problem import Cell, Problem, as_problem

__all__ = ["OBJECTIVES", "Board", "board", "cpsat_model", "wcnf_model", "highs_model"]

#: The objectives, each with its sense.
OBJECTIVES = {"dominate": "min", "independence": "max"}


@dataclass(frozen=True)
class Board:
    """What the optimisation models of one problem read: its cells, and for each cell the
    cells that occupy or attack it.

    Attributes
    ----------
    n : int
    cells : tuple of Cell
        Every cell, row-major (cell ``i`` is variable ``i + 1`` of the weighted CNF).
    covers : tuple of tuple of int
        For each cell, the indices of the cells whose queen occupies or attacks it (empty
        for a hole, which needs no cover).
    lines : tuple of tuple of int
        The rows, columns and diagonals (broken on a torus), cut at the holes, of two or
        more cells: each holds at most one queen of an independent set.
    pairs : tuple of (int, int)
        The cells a leaper's jump apart.
    forbidden, fixed : tuple of int
        Cells that hold no queen, cells that hold one.
    regions : tuple of (tuple of int, int, int)
        Each region's cells with its least and most queens.
    """

    n: int
    cells: tuple[Cell, ...]
    covers: tuple[tuple[int, ...], ...]
    lines: tuple[tuple[int, ...], ...]
    pairs: tuple[tuple[int, int], ...]
    forbidden: tuple[int, ...]
    fixed: tuple[int, ...]
    regions: tuple[tuple[tuple[int, ...], int, int], ...]


#: The largest board the optimisation models are built for (each has n**2 variables and,
#: for domination, a clause of about 4n literals per cell).
MAX_N = 64


def board(problem: Problem) -> Board:
    """The :class:`Board` of ``problem`` (n <= :data:`MAX_N`).

    Raises
    ------
    UnsupportedProblem
        For a constraint of a kind that the compiled form does not say.
    QueensError
        For ``n`` above :data:`MAX_N`.

    Examples
    --------
    >>> b = board(Problem(3))
    >>> len(b.cells), sorted(b.covers[4]) == list(range(9))   # the centre attacks every cell
    (9, True)
    """
    problem = as_problem(problem)
    validate.whole_number(problem.n, "n", maximum=MAX_N, why="the optimisation models' largest board")
    left = unhandled(problem.constraints, (*KINDS, Holes), ("compile",))
    if left:
        raise UnsupportedProblem(
            f"the optimisation models read the compiled form, which the {left[0].kind} constraint does not say"
        )
    holes = {cell for h in problem.constraints if isinstance(h, Holes) for cell in h.cells}
    c = compile_problem(Problem(problem.n, constraints=[x for x in problem.constraints if not isinstance(x, Holes)]))
    n = problem.n
    index = {(r, col): r * n + col for r in range(n) for col in range(n)}
    gaps = {index[x] for x in holes}
    lines = [
        segment
        for line in c.rows() + c.columns() + list(c.diagonals)
        for segment in _segments(tuple(index[x] for x in line), gaps, c.toroidal and line in c.diagonals)
    ]
    pairs = tuple(sorted((index[a], index[b]) for a, b in c.leap_pairs if not {index[a], index[b]} & gaps))
    covers: list[set[int]] = [set() if i in gaps else {i} for i in range(n * n)]
    for line in lines:
        for i in line:
            covers[i].update(line)
    for i, j in pairs:
        covers[i].add(j)
        covers[j].add(i)
    return Board(
        n=n,
        cells=tuple(index),
        covers=tuple(tuple(sorted(s)) for s in covers),
        lines=tuple(line for line in lines if len(line) > 1),
        pairs=pairs,
        forbidden=tuple(sorted({index[x] for x in c.forbidden} | gaps)),
        fixed=tuple(sorted(index[x] for x in c.fixed)),
        regions=tuple((tuple(index[x] for x in r.cells), r.at_least, r.upper) for r in c.regions),
    )


def _segments(line: tuple[int, ...], gaps: set[int], cyclic: bool) -> list[tuple[int, ...]]:
    """The runs of ``line`` (cells in order along it) between its holes; a wrapping line
    (``cyclic``: a broken diagonal of a torus, whose last cell touches its first) is cut
    only where it has holes.

    >>> _segments((0, 1, 2, 3, 4), {2}, False), _segments((0, 1, 2, 3, 4), {2}, True)
    ([(0, 1), (3, 4)], [(3, 4, 0, 1)])
    """
    cut = [k for k, i in enumerate(line) if i in gaps]
    if not cut:
        return [line]
    if cyclic:
        line = line[cut[0] + 1 :] + line[: cut[0] + 1]  # start after a hole: the wrap is inside a run
    runs: list[tuple[int, ...]] = []
    run: list[int] = []
    for i in line:
        if i in gaps:
            runs.append(tuple(run))
            run = []
        else:
            run.append(i)
    runs.append(tuple(run))
    return [r for r in runs if r]


def cpsat_model(b: Board, objective: str) -> tuple[Any, list[Any]]:
    """The CP-SAT model of ``objective`` on ``b``: ``(CpModel, cell variables)``."""
    from .cpsat import cp_model_module

    sense = OBJECTIVES[validate.choice(objective, tuple(OBJECTIVES), "objective")]
    model = cp_model_module().CpModel()
    x = [model.NewBoolVar(f"q[{r},{c}]") for r, c in b.cells]
    if objective == "dominate":
        for cover in b.covers:
            if cover:  # a hole needs no cover
                model.AddBoolOr([x[i] for i in cover])
    else:
        for line in b.lines:
            model.AddAtMostOne(x[i] for i in line)
        for i, j in b.pairs:
            model.AddBoolOr([x[i].Not(), x[j].Not()])
    for i in b.forbidden:
        model.Add(x[i] == 0)
    for i in b.fixed:
        model.Add(x[i] == 1)
    for cells, least, most in b.regions:
        on = sum(x[i] for i in cells)
        model.Add(on >= least)
        model.Add(on <= most)
    total = sum(x)
    model.Minimize(total) if sense == "min" else model.Maximize(total)
    return model, x


def wcnf_model(b: Board, objective: str) -> Any:
    """The weighted CNF of ``objective`` on ``b`` (cell ``i`` is variable ``i + 1``): the
    conditions hard, a soft unit clause of weight 1 per cell (``-x`` to minimise the
    queens, ``x`` to maximise them)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import WCNF, IDPool

    sense = OBJECTIVES[validate.choice(objective, tuple(OBJECTIVES), "objective")]
    cells = len(b.cells)
    pool = IDPool(start_from=cells + 1)
    w = WCNF()
    if objective == "dominate":
        for cover in b.covers:
            if cover:  # a hole needs no cover
                w.append([i + 1 for i in cover])
    else:
        for line in b.lines:
            for i, j in itertools.combinations(line, 2):
                w.append([-(i + 1), -(j + 1)])
        for i, j in b.pairs:
            w.append([-(i + 1), -(j + 1)])
    for i in b.forbidden:
        w.append([-(i + 1)])
    for i in b.fixed:
        w.append([i + 1])
    for region_cells, least, most in b.regions:
        lits = [i + 1 for i in region_cells]
        if most < len(lits):
            w.extend(CardEnc.atmost(lits, bound=most, vpool=pool, encoding=EncType.seqcounter).clauses)
        if least > 0:
            w.extend(CardEnc.atleast(lits, bound=least, vpool=pool, encoding=EncType.seqcounter).clauses)
    for i in range(cells):
        w.append([-(i + 1)] if sense == "min" else [i + 1], weight=1)
    return w


def highs_model(b: Board, objective: str) -> Any:
    """The 0/1 integer program of ``objective`` on ``b`` in a fresh HiGHS instance (column
    ``i`` is cell ``i``): a cover row ``>= 1`` per cell for domination, a line or pair row
    ``<= 1`` for independence, the region rows, forbidden and fixed cells as column bounds,
    the number of queens as the objective."""
    import numpy as np

    from .lp import highs

    sense = OBJECTIVES[validate.choice(objective, tuple(OBJECTIVES), "objective")]
    h = highs()
    k = len(b.cells)
    lower, upper = np.zeros(k), np.ones(k)
    upper[list(b.forbidden)] = 0
    lower[list(b.fixed)] = 1
    h.addVars(k, lower, upper)
    h.changeColsIntegrality(k, np.arange(k, dtype=np.int32), np.ones(k, dtype=np.uint8))
    h.changeColsCost(k, np.arange(k, dtype=np.int32), np.ones(k))
    inf = float("inf")

    def row(cells, least: float, most: float) -> None:
        idx = np.array(cells, dtype=np.int32)
        h.addRow(least, most, len(idx), idx, np.ones(len(idx)))

    if objective == "dominate":
        for cover in b.covers:
            if cover:  # a hole needs no cover
                row(cover, 1, inf)
    else:
        for line in b.lines:
            row(line, -inf, 1)
        for pair in b.pairs:
            row(pair, -inf, 1)
    for cells, least, most in b.regions:
        row(cells, least, most)
    import highspy

    h.changeObjectiveSense(highspy.ObjSense.kMinimize if sense == "min" else highspy.ObjSense.kMaximize)
    return h
