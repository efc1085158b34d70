"""A problem with a placement, that a notebook shows as a picture."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..errors import QueensError
from ..problem import Problem, as_problem
from ..solution import as_columns, board_text, why_not_solution
from .png import write_board_png
from .scene import MAX_N, scene
from .svg import board_svg, write_svg

__all__ = ["Board", "NOTEBOOK_MAX_N", "problem_svg", "problem_html"]

#: Largest board a notebook draws by itself (larger ones show their text form).
NOTEBOOK_MAX_N = 400


@dataclass(frozen=True, init=False)
class Board:
    """A problem and a placement (or none: the constraints alone), drawn as a board.

    In Jupyter it shows as an SVG picture with a caption; ``str()`` is the text board.

    Parameters
    ----------
    problem : Problem, optional
        Default: the standard problem of the placement's size.
    placement : sequence of int, optional
        0-based columns by row.
    attacks_of : int, optional
        A 0-based row whose queen's attacked cells are tinted.

    Examples
    --------
    >>> from queenslab import Problem, solve
    >>> b = Board(Problem(8), solve(Problem(8)))
    >>> b.is_solution, b.placement[:3]
    (True, (0, 4, 7))
    >>> b.svg().count('class="queen"')
    8
    >>> print(Board(placement=(1, 3, 0, 2)))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """

    problem: Problem
    placement: tuple[int, ...] | None
    attacks_of: int | None

    def __init__(self, problem: Problem | None = None, placement: Any = None, attacks_of: int | None = None):
        if problem is None and placement is None:
            raise QueensError("a Board needs a problem, a placement, or both")
        cols = tuple(int(c) for c in as_columns(placement).tolist()) if placement is not None else None
        if problem is None:
            assert cols is not None
            problem = Problem(len(cols))
        problem = as_problem(problem)
        if problem.n <= MAX_N:  # drawable: check every argument now, not when first shown
            scene(problem, cols, attacks_of=attacks_of)
        object.__setattr__(self, "problem", problem)
        object.__setattr__(self, "placement", cols)
        object.__setattr__(self, "attacks_of", attacks_of)

    @property
    def is_solution(self) -> bool | None:
        """Whether the placement solves the problem (None without a placement)."""
        if self.placement is None:
            return None
        return why_not_solution(self.problem, self.placement) is None

    def svg(self, **options: Any) -> str:
        """The board as SVG text (options of :func:`~queenslab.viz.svg.board_svg`)."""
        return board_svg(self.problem, self.placement, attacks_of=self.attacks_of, **options)

    def save(self, path: str | Path, **options: Any) -> str:
        """Write the board to ``path``: ``.svg`` or ``.png`` by its suffix."""
        suffix = Path(str(path)).suffix.lower()
        if suffix == ".svg":
            return write_svg(path, self.problem, self.placement, attacks_of=self.attacks_of, **options)
        if suffix == ".png":
            write_board_png(path, self.problem, self.placement, attacks_of=self.attacks_of, **options)
            return str(path)
        raise QueensError(f"a board is saved as .svg or .png, not {suffix or 'a file without a suffix'!r}")

    def __str__(self) -> str:
        return board_text(self.problem, self.placement)

    def _repr_svg_(self) -> str | None:
        return self.svg() if self.problem.n <= NOTEBOOK_MAX_N else None

    def _repr_html_(self) -> str | None:
        picture = self._repr_svg_()
        if picture is None:
            return None
        caption = self.problem.describe()
        if self.is_solution is not None:
            caption += ": a solution" if self.is_solution else ": not a solution"
        return _figure(picture, caption)


def _figure(picture: str, caption: str) -> str:
    return (
        f'<figure style="display:inline-block;margin:0">{picture}'
        f'<figcaption style="font-size:small;color:#555">{escape(caption)}</figcaption></figure>'
    )


def problem_svg(problem: Problem) -> str | None:
    """A notebook's picture of a problem: its board with the constraints marked."""
    if problem.n > NOTEBOOK_MAX_N:
        return None
    return board_svg(problem)


def problem_html(problem: Problem) -> str | None:
    """:func:`problem_svg` with a caption saying what the marks are."""
    picture = problem_svg(problem)
    if picture is None:
        return None
    words = [problem.describe()]
    words += [f"region {i + 1}: {r.describe()}" for i, r in enumerate(problem.regions)]
    return _figure(picture, "; ".join(words))
