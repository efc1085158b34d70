"""Regions: bounds on the number of queens on a set of cells.

"No queen on the main diagonal", "exactly two queens in this quadrant", Kotesovec's
queens confined to a part of the board: a region is a set of cells with ``at_least`` and
``at_most`` queens on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import InitVar, dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from .. import validate
from ..d4 import BoardSymmetry
from ..errors import InvalidProblem
from .base import Cell, Conflict, Constraint, Tables, cell_pair, items_of, off_board

__all__ = ["Region", "regions_of", "region_conflicts"]


@dataclass(frozen=True)
class Region(Constraint):
    """A bound on the number of queens on a set of cells.

    Parameters
    ----------
    cells : iterable of (row, column)
        0-based cells (checked against the board by :class:`Problem`); stored sorted,
        without repeats.
    at_least : int, default 0
        The least number of queens on these cells.
    at_most : int, optional
        The most (None: no upper bound; a bound of at least the number of cells is
        stored as None, as it bounds nothing).
    exactly : int, optional
        Shorthand for ``at_least = at_most = exactly`` (not stored: the region keeps the
        two bounds).

    Raises
    ------
    InvalidProblem
        If a cell is not a pair of integers, there are no cells, a bound is negative or
        not an integer, ``at_least > at_most``, ``at_least`` exceeds the number of cells,
        or ``exactly`` is given with ``at_least`` or ``at_most``.

    See Also
    --------
    Region.rows, Region.columns, Region.rectangle, Region.diagonal, Region.anti_diagonal :
        Regions of a shape a person would name, instead of a list of cells.

    Examples
    --------
    Blocked cells, "no queen on the main diagonal", "exactly two queens in the top-left
    quadrant" are regions:

    >>> Region([(0, 0), (1, 1), (2, 2), (3, 3)], at_most=0).at_most
    0
    >>> quadrant = Region([(r, c) for r in range(4) for c in range(4)], at_least=2, at_most=2)
    >>> len(quadrant.cells), quadrant.at_least
    (16, 2)
    >>> Region.rectangle((0, 0), (3, 3), exactly=2) == quadrant
    True
    """

    cells: tuple[Cell, ...]
    at_least: int = 0
    at_most: int | None = None
    exactly: InitVar[int | None] = None

    if TYPE_CHECKING:

        def __init__(
            self, cells: Iterable[Cell], at_least: int = 0, at_most: int | None = None, exactly: int | None = None
        ) -> None: ...

    def __post_init__(self, exactly: int | None) -> None:
        if exactly is not None:
            if self.at_least != 0 or self.at_most is not None:
                raise InvalidProblem("give a region exactly K, or its at_least / at_most, not both")
            k = validate.whole_number(exactly, "a region's exactly", minimum=0, error=InvalidProblem)
            object.__setattr__(self, "at_least", k)
            object.__setattr__(self, "at_most", k)
        items = items_of(self.cells, "a region's cells are a collection of (row, column) pairs")
        cells = tuple(sorted({cell_pair(x, "a region's cell") for x in items}))
        if not cells:
            raise InvalidProblem("a region needs at least one cell")
        lo = validate.whole_number(self.at_least, "a region's at_least", minimum=0, error=InvalidProblem)
        hi = None
        if self.at_most is not None:
            hi = validate.whole_number(self.at_most, "a region's at_most", minimum=0, error=InvalidProblem)
            if lo > hi:
                raise InvalidProblem(f"a region's at_least ({lo}) is larger than its at_most ({hi})")
            if hi >= len(cells):
                hi = None
        if lo > len(cells):
            raise InvalidProblem(f"a region of {len(cells)} cells cannot hold at_least {lo} queens")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "at_least", lo)
        object.__setattr__(self, "at_most", hi)

    # ------------------------------------------------------------------ shapes
    # Each takes the bounds of the constructor (at_least, at_most or exactly) as keywords.

    @classmethod
    def rows(cls, rows: Iterable[int], n: int, **bounds: Any) -> Region:
        """Every cell of the given rows (0-based) of an ``n x n`` board.

        >>> Region.rows([0], 4, at_most=1).cells
        ((0, 0), (0, 1), (0, 2), (0, 3))
        """
        size = _shape_n(n)
        return cls([(r, c) for r in _lines(rows, size, "row") for c in range(size)], **bounds)

    @classmethod
    def columns(cls, columns: Iterable[int], n: int, **bounds: Any) -> Region:
        """Every cell of the given columns (0-based) of an ``n x n`` board.

        >>> Region.columns([1], 2, exactly=1).cells
        ((0, 1), (1, 1))
        """
        size = _shape_n(n)
        return cls([(r, c) for c in _lines(columns, size, "column") for r in range(size)], **bounds)

    @classmethod
    def rectangle(cls, corner: Cell, opposite: Cell, **bounds: Any) -> Region:
        """Every cell of the rectangle with two opposite corners (0-based, inclusive).

        >>> Region.rectangle((1, 1), (0, 2), at_least=1).cells
        ((0, 1), (0, 2), (1, 1), (1, 2))
        """
        (r0, c0), (r1, c1) = cell_pair(corner, "a rectangle's corner"), cell_pair(opposite, "a rectangle's corner")
        rows, cols = range(min(r0, r1), max(r0, r1) + 1), range(min(c0, c1), max(c0, c1) + 1)
        if len(rows) * len(cols) > _MAX_SHAPE_CELLS:
            raise InvalidProblem(
                f"a rectangle of {len(rows)} x {len(cols)} cells is larger than any board queenslab draws or counts"
            )
        return cls([(r, c) for r in rows for c in cols], **bounds)

    @classmethod
    def diagonal(cls, cell: Cell, n: int, **bounds: Any) -> Region:
        """The cells of the diagonal (top left to bottom right, ``column - row`` constant)
        through ``cell`` on an ``n x n`` board.

        >>> Region.diagonal((0, 1), 3, at_most=0).cells
        ((0, 1), (1, 2))
        """
        size = _shape_n(n)
        r, c = _on_board(cell, size, "a diagonal's cell")
        d = c - r
        return cls([(i, i + d) for i in range(size) if 0 <= i + d < size], **bounds)

    @classmethod
    def anti_diagonal(cls, cell: Cell, n: int, **bounds: Any) -> Region:
        """The cells of the anti-diagonal (top right to bottom left, ``row + column``
        constant) through ``cell`` on an ``n x n`` board.

        >>> Region.anti_diagonal((0, 2), 3, exactly=1).cells
        ((0, 2), (1, 1), (2, 0))
        """
        size = _shape_n(n)
        r, c = _on_board(cell, size, "an anti-diagonal's cell")
        s = r + c
        return cls([(i, s - i) for i in range(size) if 0 <= s - i < size], **bounds)

    @property
    def bounds_nothing(self) -> bool:
        """True for a region that allows any number of queens (it is dropped by :class:`Problem`)."""
        return self.at_least == 0 and self.at_most is None

    @property
    def upper(self) -> int:
        """``at_most``, or the number of cells when there is no upper bound."""
        return len(self.cells) if self.at_most is None else self.at_most

    kind: ClassVar[str] = "region"
    FIELDS: ClassVar[tuple[str, ...]] = ("regions",)

    def image(self, symmetry: BoardSymmetry) -> Region:
        """The region ``symmetry`` maps this one onto."""
        return Region([symmetry.cell(r, c) for r, c in self.cells], self.at_least, self.at_most)

    def holds(self, columns: Sequence[int]) -> bool:
        return self.at_least <= self.queens(columns) <= self.upper

    def compile(self, tables: Tables) -> None:
        tables.bound(self)

    def check(self, n: int) -> Constraint:
        for r, c in self.cells:
            if not (0 <= r < n and 0 <= c < n):
                raise InvalidProblem(
                    f"a region's cell ({r}, {c}) is outside the {n}x{n} board: rows and columns "
                    f"are 0..{n - 1} in the Python API (1..{n} on the command line)"
                )
        return self

    def queens(self, placement: Iterable[int]) -> int:
        """How many queens of ``placement`` (0-based columns by row) stand on this region."""
        cells = set(self.cells)
        return sum((r, int(c)) in cells for r, c in enumerate(placement))

    def draw(self, marks: dict[str, set[Cell]]) -> None:
        if self.at_most == 0:
            marks["blocked"].update(self.cells)

    @property
    def bound_label(self) -> str:
        """The bound in a few characters, for a label on a drawing: ``'=2'``, ``'≤1'``,
        ``'≥1'`` or ``'1–3'``.

        >>> Region([(0, 0), (0, 1)], exactly=1).bound_label, Region([(0, 0), (0, 1)], at_least=1).bound_label
        ('=1', '≥1')
        """
        return self._bound_text("≥{lo}", "={lo}", "≤{hi}", "{lo}–{hi}")

    def describe(self) -> str:
        """The bound in words, e.g. ``'at most 0 of 8 cells'``."""
        return self._bound_text(
            "at least {lo} of {k} cells",
            "exactly {lo} of {k} cells",
            "at most {hi} of {k} cells",
            "{lo} to {hi} of {k} cells",
        )

    def _bound_text(self, at_least: str, exactly: str, at_most: str, between: str) -> str:
        """The bound written with the template of its kind.

        :attr:`bound_label` and :meth:`describe` tell the same four kinds of bound apart;
        only the words differ.

        Parameters
        ----------
        at_least, exactly, at_most, between : str
            The templates for no upper bound, one number of queens, no lower bound, and a
            range. They may use ``{lo}`` (at_least), ``{hi}`` (at_most) and ``{k}`` (the
            number of cells).
        """
        if self.at_most is None:
            template = at_least
        elif self.at_least == self.at_most:
            template = exactly
        elif self.at_least == 0:
            template = at_most
        else:
            template = between
        return template.format(lo=self.at_least, hi=self.at_most, k=len(self.cells))

    def to_dict(self, base: int = 0) -> dict[str, Any]:
        """``{"cells": [[r, c], ...], "at_least": k, "at_most": k or None}`` (cells ``base``-based)."""
        return {
            "cells": [[r + base, c + base] for r, c in self.cells],
            "at_least": self.at_least,
            "at_most": self.at_most,
        }

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        return {"regions": [c.to_dict(base) for c in constraints if isinstance(c, Region)]}

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        value = data.get("regions")
        if value is None:
            return {}
        if not isinstance(value, (list, tuple)) or not all(isinstance(x, dict) for x in value):
            raise InvalidProblem(
                f"'regions' is a list of {{cells, at_least, at_most}} tables, got {validate.brief(value)}"
            )
        out = []
        for i, item in enumerate(value):
            cells = item.get("cells")
            if not isinstance(cells, (list, tuple)) or not all(
                isinstance(x, (list, tuple)) and len(x) == 2 for x in cells
            ):
                raise InvalidProblem(f"region {i + 1}: 'cells' is a list of [row, column] pairs")
            pairs = [cell_pair(x, f"a cell of region {i + 1}") for x in cells]
            out.append({**item, "cells": [(r - base, c - base) for r, c in pairs]})  # keys checked by Problem
        return {"regions": out}

    def key(self) -> tuple[Any, ...]:
        """A sort key: cells, then bounds."""
        return (self.cells, self.at_least, -1 if self.at_most is None else self.at_most)


#: The most cells a region shape may list (a 2000 x 2000 board; larger boards are counted
#: by no exact method).
_MAX_SHAPE_CELLS = 4 * 10**6


def _shape_n(n: object) -> int:
    size = validate.whole_number(n, "n", minimum=1, error=InvalidProblem)
    if size * size > _MAX_SHAPE_CELLS:
        raise InvalidProblem(f"region shapes are made for boards up to 2000 x 2000, got n = {size}")
    return size


def _lines(values: object, n: int, what: str) -> list[int]:
    """Row or column numbers, each on an ``n x n`` board."""
    items = items_of(values, f"{what}s are a collection of {what} numbers")
    return sorted(
        {validate.whole_number(v, f"a {what}", minimum=0, maximum=n - 1, error=InvalidProblem) for v in items}
    )


def _on_board(cell: object, n: int, what: str) -> Cell:
    r, c = cell_pair(cell, what)
    if not (0 <= r < n and 0 <= c < n):
        raise InvalidProblem(f"{what} ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1}")
    return r, c


def regions_of(value: object, n: int, columns: int | None = None) -> tuple[Region, ...]:
    """Regions normalised: Region objects (or dicts of their fields), on the ``n x n`` board
    (``n x columns`` when given), sorted, without repeats and without regions that bound
    nothing."""
    m = n if columns is None else columns
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Region)):
        raise InvalidProblem(f"regions must be a collection of Region objects, got {validate.brief(value)}")
    try:
        items = list(cast(Iterable[object], value))
    except TypeError:
        raise InvalidProblem(f"regions must be a collection of Region objects, got {validate.brief(value)}") from None
    out = {}
    for i, item in enumerate(items):
        if isinstance(item, dict):
            unknown = sorted(map(str, set(item) - {"cells", "at_least", "at_most"}))
            if unknown or "cells" not in item:
                raise InvalidProblem(
                    f"region {i + 1}: the keys are cells, at_least and at_most"
                    + (f" (unknown: {', '.join(unknown)})" if unknown else " (cells is required)")
                )
            item = Region(item["cells"], item.get("at_least", 0), item.get("at_most"))
        if not isinstance(item, Region):
            raise InvalidProblem(
                f"region {i + 1} must be a Region(cells, at_least, at_most), got {validate.brief(item)}"
            )
        for r, c in item.cells:
            if not (0 <= r < n and 0 <= c < m):
                raise InvalidProblem(f"region {i + 1}: cell ({r}, {c}) is outside the {off_board(n, m)}")
        if not item.bounds_nothing:
            out[item.key()] = item
    return tuple(out[k] for k in sorted(out))


def region_conflicts(regions: Sequence[Region], placement: Sequence[int]) -> list[Conflict]:
    """The ``regions`` (a problem's, in order) whose bounds the 0-based ``placement``
    breaks, each with the queens standing on it."""
    out = []
    for i, region in enumerate(regions):
        inside = tuple((r, c) for r, c in region.cells if placement[r] == c)
        if not region.at_least <= len(inside) <= region.upper:
            k = len(inside)
            out.append(
                Conflict(
                    "region",
                    inside,
                    f"region {i + 1} ({region.describe()}) holds {k} queen{'' if k == 1 else 's'}",
                )
            )
    return out
