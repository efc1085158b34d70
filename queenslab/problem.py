"""The :class:`Problem`: one n-queens variant, immutable and validated.

A problem is the board size ``n`` and the variant's constraints:

* ``toroidal`` -- every move wraps around the edges of the board;
* ``knight`` -- superqueens: a queen also attacks like a knight;
* ``leapers`` -- other jumping moves every queen has, as offsets ``(a, b)`` (a camel
  ``(1, 3)``, a zebra ``(2, 3)``, ...): each means the eight jumps ``(+-a, +-b), (+-b, +-a)``;
* ``blocked`` -- cells on which no queen may stand;
* ``fixed`` -- queens placed in advance (n-queens completion);
* ``regions`` -- :class:`Region` bounds on the number of queens in a set of cells ("no
  queen on the main diagonal", "exactly two queens in this quadrant").

Cells are 0-based ``(row, column)`` tuples in the Python API. Constraints that
contradict each other (two fixed queens attacking each other, a fixed queen on a blocked
cell, bounds no placement meets) make a valid problem with no solutions, as in CP and SAT
tools; :attr:`Problem.contradiction` says why when the reason can be read off the
constraints. Every backend accepts every Problem or raises
:class:`~queenslab.errors.UnsupportedProblem`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any, SupportsIndex, cast

import numpy as np

from . import validate
from .d4 import D4, D4Element
from .errors import InvalidPlacement, InvalidProblem, QueensError

__all__ = ["Problem", "Region", "Cell", "attacks", "leaps", "leap_offsets", "leaper_name", "FORMAT_VERSION", "MAX_N"]

#: The largest board of a Problem: the largest any method of queenslab handles (the
#: constructive heuristics index rows with 32-bit counters).
MAX_N = 2**31 - 1

#: Version of the plain form written by :meth:`Problem.to_dict`.
FORMAT_VERSION = 1
#: The fields of that form, in order (besides ``version`` and ``base``).
_FIELDS = ("n", "toroidal", "knight", "blocked", "fixed", "leapers", "regions")
#: The fields a fingerprint covers even when empty (the later ones only when used, so
#: that the fingerprints of problems without them never change).
_FINGERPRINT_FIELDS = ("n", "toroidal", "knight", "blocked", "fixed")
#: The largest leaper offset (a jump longer than any board is allowed, and harmless).
MAX_LEAP = 2**31 - 1
#: Names of the classic leapers, ``(a, b)`` with ``a < b``.
LEAPER_NAMES = {(1, 2): "knight", (1, 3): "camel", (2, 3): "zebra", (1, 4): "giraffe", (3, 4): "antelope"}

Cell = tuple[int, int]


def _as_int(value: object, what: str, error: type[QueensError] = InvalidProblem) -> int:
    if not isinstance(value, (bool, np.bool_)):
        try:
            return operator.index(cast(SupportsIndex, value))  # anything else raises TypeError
        except TypeError:
            pass
    raise error(f"{what} must be an integer, got {validate.brief(value)}")


def _flag(value: object, what: str) -> bool:
    try:
        return validate.flag(value, what)
    except QueensError as e:
        raise InvalidProblem(str(e)) from None


def _collection(value: object, what: str, error: type[QueensError] = InvalidProblem) -> list[Any]:
    """The items of ``value``, which must be a collection (of cells, lines or offsets).

    Text is refused although it iterates: its characters are never the numbers or pairs
    asked for.

    Parameters
    ----------
    value : object
    what : str
        The message's start, saying what the collection holds
        (``"leapers must be a collection of (a, b) offsets"``); the value given follows.
    error : type of QueensError, default InvalidProblem

    Raises
    ------
    QueensError
        ``error``, for text or a value that does not iterate.
    """
    if not isinstance(value, (str, bytes)):
        try:
            return list(cast(Iterable[Any], value))  # the items, checked by the caller
        except TypeError:
            pass
    raise error(f"{what}, got {validate.brief(value)}")


def _pair(cell: object, what: str, error: type[QueensError] = InvalidProblem) -> tuple[int, int]:
    """A (row, column) pair of integers (not yet checked against a board)."""
    if isinstance(cell, (str, bytes)):
        raise error(f"{what} must be a (row, column) pair of integers, got {validate.brief(cell)}")
    try:
        r, c = cast(Iterable[object], cell)
    except (TypeError, ValueError):
        raise error(f"{what} must be a (row, column) pair of integers, got {validate.brief(cell)}") from None
    return _as_int(r, f"the row of {what}", error), _as_int(c, f"the column of {what}", error)


def _cells(cells: Iterable[Any] | None, n: int, what: str) -> tuple[Cell, ...]:
    if cells is None:
        return ()
    out = set()
    for cell in _collection(cells, f"{what} must be a collection of (row, column) pairs"):
        if isinstance(cell, (str, bytes)):
            raise InvalidProblem(f"{what} must hold (row, column) pairs, got {validate.brief(cell)}")
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise InvalidProblem(f"{what} must hold (row, column) pairs, got {validate.brief(cell)}") from None
        r, c = _as_int(r, f"a row in {what}"), _as_int(c, f"a column in {what}")
        if not (0 <= r < n and 0 <= c < n):
            raise InvalidProblem(
                f"{what} cell ({r}, {c}) is outside the {n}x{n} board: rows and columns "
                f"are 0..{n - 1} in the Python API (1..{n} on the command line)"
            )
        out.add((r, c))
    return tuple(sorted(out))


def leaps(knight: bool, leapers: Iterable[tuple[int, int]] = ()) -> tuple[tuple[int, int], ...]:
    """The leaper moves of a variant as base offsets ``(a, b)``.

    Each offset stands for the eight jumps ``(+-a, +-b), (+-b, +-a)``; superqueens
    (``knight``) add the knight's ``(1, 2)`` to the other ``leapers``.

    Examples
    --------
    >>> leaps(True), leaps(False), leaps(True, [(3, 1)])
    (((1, 2),), (), ((1, 2), (1, 3)))
    """
    own = _leapers(leapers)
    return tuple(sorted({(1, 2), *own})) if validate.flag(knight, "knight") else own


def _leapers(value: object) -> tuple[tuple[int, int], ...]:
    """Leaper offsets normalised: each as ``(a, b)`` with ``0 < a < b``, sorted, no repeats."""
    out = set()
    for item in _collection(value, "leapers must be a collection of (a, b) offsets"):
        a, b = sorted(map(abs, _pair(item, "a leaper offset")))
        if b > MAX_LEAP:
            raise InvalidProblem(f"a leaper offset must be at most {MAX_LEAP}, got {validate.brief(item)}")
        if a == 0 or a == b:
            raise InvalidProblem(
                f"leaper offset {validate.brief(item)} is a move along a row, column or diagonal, which every queen "
                "already has; a leaper jumps (a, b) with 0 < a != b, e.g. (1, 2) for the knight"
            )
        out.add((a, b))
    return tuple(sorted(out))


def leaper_name(offset: tuple[int, int]) -> str:
    """The name of a leaper: ``'knight'``, ``'camel'``, ``'zebra'``, ... or ``'(a,b)-leaper'``.

    Examples
    --------
    >>> leaper_name((1, 2)), leaper_name((3, 1)), leaper_name((2, 5))
    ('knight', 'camel', '(2,5)-leaper')
    """
    a, b = sorted(map(abs, _pair(offset, "a leaper offset", QueensError)))
    return LEAPER_NAMES.get((a, b), f"({a},{b})-leaper")


def leap_offsets(base: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Every jump ``(dr, dc)`` of the leapers ``base``, sorted and without repeats.

    Parameters
    ----------
    base : iterable of (int, int)
        Base offsets ``(a, b)``, as :func:`leaps` returns them.

    Raises
    ------
    QueensError
        If ``base`` is not a collection of pairs of integers.

    Examples
    --------
    >>> leap_offsets(((1, 2),))
    ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
    """
    if type(base) is not tuple or not all(
        type(x) is tuple and len(x) == 2 and type(x[0]) is int and type(x[1]) is int for x in base
    ):
        items = _collection(base, "leaper offsets must be a collection of (a, b) pairs of integers", QueensError)
        base = tuple(_pair(x, "a leaper offset", QueensError) for x in items)
    return _leap_offsets(base)


@functools.lru_cache(maxsize=64)
def _leap_offsets(base: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out = set()
    for a, b in base:
        for x, y in ((a, b), (b, a)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.add((sx * x, sy * y))
    return tuple(sorted(out))


def attacks(
    n: int, a: Cell, b: Cell, *, toroidal: bool = False, knight: bool = False, leapers: Iterable[tuple[int, int]] = ()
) -> str | None:
    """Say how a queen on cell ``a`` attacks cell ``b``, or return None.

    This is the one definition of the variants' move rules; the compiled form of a
    problem (:mod:`queenslab.compiled`) derives every backend's tables from it.

    Parameters
    ----------
    n : int
        Board size.
    a, b : tuple of int
        Distinct 0-based cells.
    toroidal, knight : bool
        The variant's move rules.
    leapers : iterable of (int, int), optional
        Other leaper moves, as offsets ``(a, b)``.

    Returns
    -------
    str or None
        ``"row"``, ``"column"``, ``"diagonal"`` (down-right), ``"anti-diagonal"``
        (down-left), the leaper's name (``"knight"``, ``"camel"``, ... see
        :func:`leaper_name`), or None when ``a`` does not attack ``b``.

    Examples
    --------
    >>> attacks(8, (0, 0), (3, 3))
    'diagonal'
    >>> attacks(5, (0, 0), (1, 4)) is None, attacks(5, (0, 0), (1, 4), toroidal=True)
    (True, 'anti-diagonal')

    Raises
    ------
    InvalidPlacement
        If ``n`` is not a board size, ``a`` or ``b`` is not a cell of the board, or they
        are the same cell.
    """
    n = validate.whole_number(n, "n", error=InvalidPlacement)
    a, b = _board_cell(a, n, "a"), _board_cell(b, n, "b")
    if a == b:
        raise InvalidPlacement(f"a and b are the same cell {a}: attacks() compares two distinct cells")
    try:
        moves = leaps(knight, leapers)
    except QueensError as e:
        raise InvalidPlacement(str(e)) from None
    return _attacks(n, a, b, validate.flag(toroidal, "toroidal"), moves)


def _board_cell(cell: object, n: int, what: str) -> Cell:
    r, c = _pair(cell, what, InvalidPlacement)
    if not (0 <= r < n and 0 <= c < n):
        raise InvalidPlacement(
            f"{what} = ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1} (0-based)"
        )
    return r, c


def _is_cell(x: object, n: int) -> bool:
    return (
        type(x) is tuple and len(x) == 2 and type(x[0]) is int and type(x[1]) is int and 0 <= x[0] < n and 0 <= x[1] < n
    )


def _attacks(n: int, a: Cell, b: Cell, toroidal: bool, moves: tuple[tuple[int, int], ...]) -> str | None:
    """:func:`attacks` on checked arguments."""
    (r1, c1), (r2, c2) = a, b
    dr, dc = r2 - r1, c2 - c1
    if dr == 0:
        return "row"
    if dc == 0:
        return "column"
    if toroidal:
        if (dr - dc) % n == 0:
            return "diagonal"
        if (dr + dc) % n == 0:
            return "anti-diagonal"
    else:
        if dr == dc:
            return "diagonal"
        if dr == -dc:
            return "anti-diagonal"
    for base in moves:
        for kr, kc in _leap_offsets((base,)):
            if (dr - kr) % n == 0 and (dc - kc) % n == 0 if toroidal else (dr, dc) == (kr, kc):
                return leaper_name(base)
    return None


def _first_attacking_pair(problem: Problem, cells: tuple[Cell, ...]) -> tuple[Cell, Cell] | None:
    """The first pair ``(cells[i], cells[j])``, ``i < j``, of cells attacking each other under
    ``problem``'s move rules, or None; in O(k log k) for k cells (lines are grouped, leaps
    looked up), so that a problem with many fixed queens is checked quickly."""
    n, torus = problem.n, problem.toroidal
    best: tuple[int, int] | None = None
    lines: dict[tuple[int, int], int] = {}
    for j, (r, c) in enumerate(cells):
        keys = (
            (0, r),
            (1, c),
            (2, (r - c) % n if torus else r - c),
            (3, (r + c) % n if torus else r + c),
        )
        for key in keys:
            i = lines.setdefault(key, j)
            if i != j and (best is None or (i, j) < best):
                best = (i, j)
    if problem.leaps:
        where = {cell: j for j, cell in enumerate(cells)}
        for i, (r, c) in enumerate(cells):
            for dr, dc in _leap_offsets(problem.leaps):
                r2, c2 = r + dr, c + dc
                if torus:
                    r2, c2 = r2 % n, c2 % n
                j = where.get((r2, c2), -1)
                if j > i and (best is None or (i, j) < best):
                    best = (i, j)
    return None if best is None else (cells[best[0]], cells[best[1]])


@dataclass(frozen=True)
class Region:
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
        items = _collection(self.cells, "a region's cells are a collection of (row, column) pairs")
        cells = tuple(sorted({_pair(x, "a region's cell") for x in items}))
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
        (r0, c0), (r1, c1) = _pair(corner, "a rectangle's corner"), _pair(opposite, "a rectangle's corner")
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

    def image(self, g: D4Element, n: int) -> Region:
        """The region ``g`` maps this one onto, on an ``n x n`` board."""
        return Region([g.cell(n, r, c) for r, c in self.cells], self.at_least, self.at_most)

    def queens(self, placement: Iterable[int]) -> int:
        """How many queens of ``placement`` (0-based columns by row) stand on this region."""
        cells = set(self.cells)
        return sum((r, int(c)) in cells for r, c in enumerate(placement))

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

    def _key(self) -> tuple[Any, ...]:
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
    items = _collection(values, f"{what}s are a collection of {what} numbers")
    return sorted(
        {validate.whole_number(v, f"a {what}", minimum=0, maximum=n - 1, error=InvalidProblem) for v in items}
    )


def _on_board(cell: object, n: int, what: str) -> Cell:
    r, c = _pair(cell, what)
    if not (0 <= r < n and 0 <= c < n):
        raise InvalidProblem(f"{what} ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1}")
    return r, c


def _regions(value: object, n: int) -> tuple[Region, ...]:
    """Regions normalised: Region objects (or dicts of their fields), on the board, sorted,
    without repeats and without regions that bound nothing."""
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
            if not (0 <= r < n and 0 <= c < n):
                raise InvalidProblem(
                    f"region {i + 1}: cell ({r}, {c}) is outside the {n}x{n} board: rows and columns "
                    f"are 0..{n - 1} in the Python API (1..{n} on the command line)"
                )
        if not item.bounds_nothing:
            out[item._key()] = item
    return tuple(out[k] for k in sorted(out))


@dataclass(frozen=True)
class Problem:
    """An n-queens problem: board size and variant constraints.

    Parameters
    ----------
    n : int
        Board size, ``n >= 1``.
    toroidal : bool, default False
        Moves wrap around the board edges (diagonals and knight moves).
    knight : bool, default False
        Superqueens: each queen also moves like a knight.
    blocked : iterable of (row, column), default ()
        0-based cells that may hold no queen.
    fixed : iterable of (row, column), default ()
        0-based cells holding a queen in every solution (n-queens completion).
    leapers : iterable of (a, b), default ()
        Other leaper moves every queen has: ``(1, 3)`` a camel, ``(2, 3)`` a zebra, ...
        each meaning the eight jumps ``(+-a, +-b), (+-b, +-a)``, wrapping on a torus.
        The knight ``(1, 2)`` is stored as ``knight=True``, its familiar spelling.
    regions : iterable of Region, default ()
        Bounds on the number of queens on sets of cells (Region objects, or dicts of
        their fields); stored sorted, without repeats and without regions that bound
        nothing.

    Raises
    ------
    InvalidProblem
        If ``n < 1``, a cell is off the board, a leaper offset is not a jump (``(0, b)``
        or ``(a, a)``), or a region is malformed (no cells, ``at_least > at_most``, more
        queens than cells). Constraints that contradict each other make a problem with
        no solutions (see :attr:`contradiction`), not an error.

    Examples
    --------
    >>> p = Problem(8, fixed=[(0, 0)])
    >>> p.fixed
    ((0, 0),)
    >>> len(Problem(8).symmetries()), len(p.symmetries())
    (8, 2)
    >>> Problem(8, leapers=[(2, 1)]) == Problem(8, knight=True)
    True
    """

    n: int
    toroidal: bool = False
    knight: bool = False
    blocked: tuple[Cell, ...] = field(default=())
    fixed: tuple[Cell, ...] = field(default=())
    leapers: tuple[tuple[int, int], ...] = field(default=())
    regions: tuple[Region, ...] = field(default=())

    if TYPE_CHECKING:
        # The constructor takes any iterable of cells; __post_init__ stores them as a
        # sorted tuple without repeats, which is what the fields above declare.
        def __init__(
            self,
            n: int,
            toroidal: bool = False,
            knight: bool = False,
            blocked: Iterable[Cell] | None = (),
            fixed: Iterable[Cell] | None = (),
            leapers: Iterable[tuple[int, int]] | None = (),
            regions: Iterable[Region | dict[str, Any]] | None = (),
        ) -> None: ...

    def __post_init__(self) -> None:
        n = validate.whole_number(
            self.n, "n", maximum=MAX_N, error=InvalidProblem, why="the largest board any method of queenslab handles"
        )
        for flag in ("toroidal", "knight"):
            object.__setattr__(self, flag, _flag(getattr(self, flag), flag))
        object.__setattr__(self, "n", n)
        blocked = _cells(self.blocked, n, "blocked")
        fixed = _cells(self.fixed, n, "fixed")
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "fixed", fixed)
        leapers = _leapers(() if self.leapers is None else self.leapers)
        if (1, 2) in leapers:  # the knight has its own, familiar spelling
            object.__setattr__(self, "knight", True)
            leapers = tuple(x for x in leapers if x != (1, 2))
        object.__setattr__(self, "leapers", leapers)
        object.__setattr__(self, "regions", _regions(self.regions, n))

    @functools.cached_property
    def contradiction(self) -> str | None:
        """Why the constraints contradict each other, or None when no reason can be read
        off them (the problem may still have no solutions).

        A problem with a contradiction has no solutions; every backend counts 0.

        Examples
        --------
        >>> Problem(5, fixed=[(0, 0), (2, 2)]).contradiction
        'the fixed queens at (1,1) and (3,3) attack each other (diagonal)'
        >>> Problem(8).contradiction is None
        True
        """
        both = set(self.blocked) & set(self.fixed)
        if both:
            r, c = min(both)
            return f"the fixed queen at ({r + 1},{c + 1}) stands on a blocked cell"
        pair = _first_attacking_pair(self, self.fixed)
        if pair is not None:
            (r1, c1), (r2, c2) = pair
            return f"the fixed queens at ({r1 + 1},{c1 + 1}) and ({r2 + 1},{c2 + 1}) attack each other ({self.attack(*pair)})"
        fixed = set(self.fixed)
        for i, region in enumerate(self.regions):
            inside = sum(cell in fixed for cell in region.cells)
            if inside > region.upper:
                return f"region {i + 1} allows {region.describe()}, but {inside} fixed queens stand on it"
            # one queen per row and per column: a region holds at most that many
            reach = min(len({r for r, _ in region.cells}), len({c for _, c in region.cells}))
            if region.at_least > reach:
                return (
                    f"region {i + 1} needs {region.describe()}, but its cells lie in only {reach} "
                    "rows or columns, each holding one queen"
                )
        return None

    # ------------------------------------------------------------------ views
    @property
    def is_standard(self) -> bool:
        """True for the plain n-queens problem (no variant constraint)."""
        return not (self.toroidal or self.knight or self.blocked or self.fixed or self.leapers or self.regions)

    def fixed_columns(self) -> dict[int, int]:
        """Map each row holding a fixed queen to that queen's column."""
        return dict(self.fixed)

    def symmetries(self) -> tuple[D4Element, ...]:
        """The subgroup of D4 that maps this problem onto itself, identity first.

        Toroidal and leaper moves are invariant under all of D4, so the subgroup is the
        set of elements mapping the blocked cells onto the blocked cells, the fixed
        queens onto the fixed queens and the regions onto the regions (each region, as a
        set of cells with its bounds, onto a region of the problem).

        Returns
        -------
        tuple of D4Element

        Examples
        --------
        >>> diagonal = Region([(i, i) for i in range(8)], at_most=0)
        >>> [g.name for g in Problem(8, regions=[diagonal]).symmetries()]
        ['identity', 'rotate-180', 'reflect-main-diagonal', 'reflect-anti-diagonal']
        """
        return self._symmetries

    @functools.cached_property
    def _symmetries(self) -> tuple[D4Element, ...]:
        blocked, fixed = set(self.blocked), set(self.fixed)
        regions = {region._key() for region in self.regions}
        n = self.n
        out = []
        for g in D4:
            if (
                {g.cell(n, *x) for x in blocked} == blocked
                and {g.cell(n, *x) for x in fixed} == fixed
                and {region.image(g, n)._key() for region in self.regions} == regions
            ):
                out.append(g)
        return tuple(out)

    @property
    def leaps(self) -> tuple[tuple[int, int], ...]:
        """The leaper moves (base offsets ``(a, b)``) every queen has besides its lines:
        the knight's ``(1, 2)`` when ``knight``, and the ``leapers``."""
        return leaps(self.knight, self.leapers)

    def attack(self, a: Cell, b: Cell) -> str | None:
        """How a queen on ``a`` attacks cell ``b`` under this problem's move rules, or None.

        Examples
        --------
        >>> Problem(8, knight=True).attack((0, 0), (1, 2))
        'knight'

        Raises
        ------
        InvalidPlacement
            If ``a`` or ``b`` is not a cell of the board, or they are the same cell.
        """
        n = self.n
        if not (_is_cell(a, n) and _is_cell(b, n)) or a == b:
            return attacks(n, a, b, toroidal=self.toroidal, leapers=self.leaps)  # checks, or raises
        return _attacks(n, a, b, self.toroidal, self.leaps)

    def to_dict(self, *, one_based: bool = False) -> dict[str, Any]:
        """The problem as a plain, JSON-ready dict that :meth:`from_dict` reads back.

        Parameters
        ----------
        one_based : bool, default False
            Write cells 1-based (as the command line and JSON output show them); the
            dict records it under ``"base"``, so :meth:`from_dict` reads either form.

        Returns
        -------
        dict
            ``version`` (the format's version), ``base`` (0 or 1), ``n``, ``toroidal``,
            ``knight``, ``blocked`` and ``fixed`` (lists of ``[row, column]``),
            ``leapers`` (a list of ``[a, b]``) and ``regions`` (a list of
            ``{"cells": [[row, column], ...], "at_least": k, "at_most": k or null}``).

        Examples
        --------
        >>> d = Problem(8, blocked=[(0, 1)]).to_dict(one_based=True)
        >>> d["blocked"], d["base"]
        ([[1, 2]], 1)
        >>> Problem.from_dict(d) == Problem(8, blocked=[(0, 1)])
        True
        """
        k = 1 if one_based else 0
        return {
            "version": FORMAT_VERSION,
            "base": k,
            "n": self.n,
            "toroidal": self.toroidal,
            "knight": self.knight,
            "blocked": [[r + k, c + k] for r, c in self.blocked],
            "fixed": [[r + k, c + k] for r, c in self.fixed],
            "leapers": [[a, b] for a, b in self.leapers],
            "regions": [region.to_dict(k) for region in self.regions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Problem:
        """Rebuild a problem from :meth:`to_dict`'s form (validated like the constructor).

        Missing fields take their defaults (``n`` is required); ``base`` says whether
        cells are 0- or 1-based (default 0).

        Raises
        ------
        InvalidProblem
            For a newer format version, an unknown key, or any invalid field.

        Examples
        --------
        >>> Problem.from_dict({"n": 6, "toroidal": True})
        Problem(n=6, toroidal=True, knight=False, blocked=(), fixed=(), leapers=(), regions=())
        """
        if not isinstance(data, dict):
            raise InvalidProblem(f"a problem description is a dict, got {type(data).__name__}")
        version = data.get("version", FORMAT_VERSION)
        if type(version) is not int or version != FORMAT_VERSION:
            raise InvalidProblem(
                f"problem format version {validate.brief(version)} is not supported; "
                f"this queenslab reads version {FORMAT_VERSION}"
            )
        unknown = sorted(map(repr, set(data) - set(_FIELDS) - {"version", "base"}))
        if unknown:
            raise InvalidProblem(
                f"unknown problem field(s) {validate.brief(', '.join(unknown), 200)}; the fields are "
                f"{', '.join(_FIELDS)} (and version, base)"
            )
        if "n" not in data:
            raise InvalidProblem("a problem description needs 'n', the board size")
        base = data.get("base", 0)
        if type(base) is not int or base not in (0, 1):
            raise InvalidProblem(f"'base' is 0 or 1 (0- or 1-based cells), got {validate.brief(base)}")

        def cells(key: str) -> list[tuple[int, int]]:
            value = data.get(key)
            if value is None:
                return []
            if not isinstance(value, (list, tuple)) or not all(
                isinstance(x, (list, tuple)) and len(x) == 2 for x in value
            ):
                raise InvalidProblem(f"'{key}' is a list of [row, column] pairs, got {validate.brief(value)}")
            pairs = [_pair(x, f"a cell of '{key}'") for x in value]
            return [(r - base, c - base) for r, c in pairs]

        def regions() -> list[dict[str, Any]]:
            value = data.get("regions")
            if value is None:
                return []
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
                pairs = [_pair(x, f"a cell of region {i + 1}") for x in cells]
                out.append({**item, "cells": [(r - base, c - base) for r, c in pairs]})  # keys checked by Problem
            return out

        leapers = data.get("leapers")
        if leapers is not None and not isinstance(leapers, (list, tuple)):
            raise InvalidProblem(f"'leapers' is a list of [a, b] offsets, got {validate.brief(leapers)}")
        return cls(
            data["n"],
            toroidal=data.get("toroidal", False),
            knight=data.get("knight", False),
            blocked=cells("blocked"),
            fixed=cells("fixed"),
            leapers=leapers or (),
            regions=regions(),
        )

    def fingerprint(self) -> str:  # its inputs must never change: indexes are named by it
        """A stable identifier of the problem (hex SHA-256 of its canonical JSON).

        Equal problems have equal fingerprints across processes, platforms and
        versions: the hash covers a versioned, sorted JSON form of the 0-based fields,
        not Python's ``hash``.

        Examples
        --------
        >>> Problem(8).fingerprint() == Problem(8, blocked=[]).fingerprint()
        True
        >>> Problem(8).fingerprint()[:12]
        '8d27241a7be7'
        """
        fields = {k: v for k, v in self.to_dict().items() if k in _FINGERPRINT_FIELDS or (k in _FIELDS and v)}
        text = json.dumps({"v": 1, **fields}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> str:
        """A short human description, 1-based, e.g. ``'8-queens, toroidal, 2 blocked'``."""
        parts = [f"{self.n}-queens"]
        if self.toroidal:
            parts.append("toroidal")
        if self.knight:
            parts.append("superqueens (knight moves)")
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked")
        if self.fixed:
            parts.append(f"{len(self.fixed)} fixed")
        if self.leapers:
            parts.append("leapers " + " ".join(f"({a},{b})" for a, b in self.leapers))
        if self.regions:
            parts.append(f"{len(self.regions)} region{'s' if len(self.regions) > 1 else ''}")
        return ", ".join(parts)


def as_problem(value: object, what: str = "problem") -> Problem:
    """``value`` if it is a :class:`Problem`, else an error saying how to make one.

    The rule of the Python API: a parameter called ``problem`` takes a Problem, never a
    bare board size (which variant would it be?).

    Examples
    --------
    >>> as_problem(Problem(4)).n
    4
    >>> as_problem(8)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: expected a queenslab Problem, got int 8 (for the standard problem write Problem(8))
    """
    if isinstance(value, Problem):
        return value
    hint = ""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        hint = f" (for the standard problem write Problem({value}))"
    role = "" if what == "problem" else f" as {what}"
    raise QueensError(f"expected a queenslab Problem{role}, got {type(value).__name__} {validate.brief(value)}{hint}")
