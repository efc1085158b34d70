"""What a board picture shows, apart from how it is drawn: the cells of each kind.

:func:`scene` turns a problem, an optional placement and an optional attacking queen
into plain lists of cells; :mod:`~queenslab.viz.svg` and :mod:`~queenslab.viz.png` draw
the same scene, so an SVG and a PNG of one board always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import validate
from ..errors import InvalidPlacement, QueensError, TooLarge
from ..problem import Problem, as_problem, leap_offsets
from ..solution import as_columns, board_placement, why_not_solution

__all__ = ["MAX_N", "Scene", "scene"]

#: Largest board drawn cell by cell (SVG, colour PNG); larger boards use the 1-bit PNG.
MAX_N = 2000

Cell = tuple[int, int]


@dataclass(frozen=True)
class Scene:
    """The cells of one board picture (0-based ``(row, column)``, row 0 on top).

    Attributes
    ----------
    n : int
        The rows.
    title : str
        What the board is (the problem, and whether the placement solves it).
    queens : tuple of Cell
    blocked : tuple of Cell
        Cells no queen may take (blocked cells, and regions that allow none).
    fixed : tuple of Cell
        Cells of pre-placed queens.
    regions : tuple of (tuple of Cell, str, str)
        The cells of each other region, with its bounds in words and as a short label
        (``'≤1'``, drawn in the region's first cell).
    attacked : tuple of Cell
        The cells the queen ``attacker`` attacks.
    attacker : Cell or None
    columns : int
        The columns (0: as many as rows).
    """

    n: int
    title: str
    queens: tuple[Cell, ...] = ()
    blocked: tuple[Cell, ...] = ()
    fixed: tuple[Cell, ...] = ()
    regions: tuple[tuple[tuple[Cell, ...], str, str], ...] = ()
    attacked: tuple[Cell, ...] = ()
    attacker: Cell | None = None
    columns: int = 0

    @property
    def width(self) -> int:
        """The number of columns."""
        return self.columns or self.n


def scene(problem: Problem | None = None, placement: Any = None, *, attacks_of: int | None = None) -> Scene:
    """The scene of ``problem`` (default: the standard problem of the placement's size)
    with ``placement`` (0-based columns by row; None: the constraints alone) and, with
    ``attacks_of`` (a 0-based row holding a queen), the cells that queen attacks.

    Raises
    ------
    QueensError
        Neither a problem nor a placement; a placement of another size; ``attacks_of``
        without a placement or off the board.
    TooLarge
        For n above :data:`MAX_N`.

    Examples
    --------
    >>> s = scene(Problem(4, blocked=[(0, 0)]), (1, 3, 0, 2), attacks_of=0)
    >>> s.queens[:2], s.blocked, len(s.attacked)
    (((0, 1), (1, 3)), ((0, 0),), 9)
    """
    if problem is None and placement is None:
        raise QueensError("draw a problem, a placement, or both")
    if problem is not None and not as_problem(problem).is_plain_board:
        p = np.array(board_placement(problem, placement), dtype=np.int64) if placement is not None else None
    else:
        p = as_columns(placement) if placement is not None else None
    if problem is None:
        assert p is not None
        problem = Problem(int(p.size))
    problem = as_problem(problem)
    n, m = problem.n, problem.columns
    if max(n, m) > MAX_N:
        raise TooLarge(f"a {n} x {m} board is drawn cell by cell up to n = {MAX_N}; write a 1-bit PNG instead")
    if p is not None and p.size != n:
        raise InvalidPlacement(f"the placement has {p.size} queens; the {n}-queens board needs {n}")
    queens = tuple((r, int(c)) for r, c in enumerate(p.tolist()) if c >= 0) if p is not None else ()
    marks: dict[str, set[Cell]] = {"blocked": set(), "fixed": set()}
    for constraint in problem.constraints:  # each kind marks its own cells
        constraint.draw(marks)
    regions = [
        (tuple(sorted(region.cells)), region.describe(), region.bound_label)
        for region in problem.regions
        if region.at_most != 0  # a region that allows no queen is drawn as blocked cells
    ]
    attacked: tuple[Cell, ...] = ()
    attacker = None
    if attacks_of is not None:
        if p is None:
            raise QueensError("attacks_of names a row whose queen attacks: give a placement too")
        row = validate.whole_number(attacks_of, "attacks_of", minimum=0, maximum=n - 1)
        if p[row] < 0:
            raise QueensError(f"attacks_of = {row}: row {row + 1} holds no queen")
        attacker = (row, int(p[row]))
        attacked = _attacked(problem, attacker)
    title = problem.describe()
    if p is not None:
        why = why_not_solution(problem, p)
        title += ": a solution" if why is None else f": not a solution ({why})"
    return Scene(
        n=n,
        title=title,
        queens=queens,
        blocked=tuple(sorted(marks["blocked"])),
        fixed=tuple(sorted(marks["fixed"])),
        regions=tuple(regions),
        attacked=attacked,
        attacker=attacker,
        columns=0 if m == n else m,
    )


def _attacked(problem: Problem, at: Cell) -> tuple[Cell, ...]:
    """Every cell a queen at ``at`` attacks: its row, column and diagonals (wrapping on a
    toroidal board) and the jumps of the problem's leapers."""
    n, m = problem.n, problem.columns
    r0, c0 = at
    rows, cols = np.indices((n, m))
    dr, dc = rows - r0, cols - c0
    if problem.toroidal:
        hit = (dr == 0) | (dc == 0) | ((dr - dc) % n == 0) | ((dr + dc) % n == 0)
    else:
        hit = (dr == 0) | (dc == 0) | (dr == dc) | (dr == -dc)
    for jr, jc in leap_offsets(problem.leaps):
        r, c = r0 + jr, c0 + jc
        if problem.toroidal:
            hit[r % n, c % n] = True
        elif 0 <= r < n and 0 <= c < m:
            hit[r, c] = True
    hit[r0, c0] = False
    return tuple((int(r), int(c)) for r, c in zip(*np.nonzero(hit)))
