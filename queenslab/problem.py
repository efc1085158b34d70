"""The :class:`Problem`: one n-queens variant, immutable and validated.

A problem is the board size ``n`` and the variant's constraints:

* ``toroidal`` -- every move wraps around the edges of the board;
* ``knight`` -- superqueens: a queen also attacks like a knight;
* ``blocked`` -- cells on which no queen may stand;
* ``fixed`` -- queens placed in advance (n-queens completion).

Cells are 0-based ``(row, column)`` tuples in the Python API. Every backend accepts
every Problem or raises :class:`~queenslab.errors.UnsupportedProblem`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, SupportsIndex, cast

import numpy as np

from . import validate
from .d4 import D4, D4Element
from .errors import InvalidPlacement, InvalidProblem, QueensError

__all__ = ["Problem", "Cell", "attacks", "leaps", "leap_offsets", "FORMAT_VERSION", "MAX_N"]

#: The largest board of a Problem: the largest any method of queenslab handles (the
#: constructive heuristics index rows with 32-bit counters).
MAX_N = 2**31 - 1

#: Version of the plain form written by :meth:`Problem.to_dict`.
FORMAT_VERSION = 1
#: The fields of that form, in order (besides ``version`` and ``base``).
_FIELDS = ("n", "toroidal", "knight", "blocked", "fixed")

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
    if isinstance(cells, (str, bytes)):
        raise InvalidProblem(f"{what} must be a collection of (row, column) pairs, got {validate.brief(cells)}")
    try:
        items = iter(cells)
    except TypeError:
        raise InvalidProblem(
            f"{what} must be a collection of (row, column) pairs, got {validate.brief(cells)}"
        ) from None
    out = set()
    for cell in items:
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


def leaps(knight: bool) -> tuple[tuple[int, int], ...]:
    """The leaper moves of a variant as base offsets ``(a, b)``.

    Each offset stands for the eight jumps ``(+-a, +-b), (+-b, +-a)``; superqueens
    (``knight``) add the knight's ``(1, 2)``.

    Examples
    --------
    >>> leaps(True), leaps(False)
    (((1, 2),), ())
    """
    return ((1, 2),) if validate.flag(knight, "knight") else ()


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
        if isinstance(base, (str, bytes)):
            raise QueensError(f"leaper offsets must be (a, b) pairs of integers, got {validate.brief(base)}")
        try:
            items = list(base)
        except TypeError:
            raise QueensError(
                f"leaper offsets must be a collection of (a, b) pairs of integers, got {validate.brief(base)}"
            ) from None
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


def attacks(n: int, a: Cell, b: Cell, *, toroidal: bool = False, knight: bool = False) -> str | None:
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

    Returns
    -------
    str or None
        ``"row"``, ``"column"``, ``"diagonal"`` (down-right), ``"anti-diagonal"``
        (down-left), ``"knight"``, or None when ``a`` does not attack ``b``.

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
    return _attacks(n, a, b, validate.flag(toroidal, "toroidal"), validate.flag(knight, "knight"))


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


def _attacks(n: int, a: Cell, b: Cell, toroidal: bool, knight: bool) -> str | None:
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
    for kr, kc in _leap_offsets(((1, 2),) if knight else ()):
        if toroidal:
            if (dr - kr) % n == 0 and (dc - kc) % n == 0:
                return "knight"
        elif (dr, dc) == (kr, kc):
            return "knight"
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
    if problem.knight:
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

    Raises
    ------
    InvalidProblem
        If ``n < 1``, a cell is off the board, a fixed queen stands on a blocked cell,
        or two fixed queens share a row or column or attack each other.

    Examples
    --------
    >>> p = Problem(8, fixed=[(0, 0)])
    >>> p.fixed
    ((0, 0),)
    >>> len(Problem(8).symmetries()), len(p.symmetries())
    (8, 2)
    """

    n: int
    toroidal: bool = False
    knight: bool = False
    blocked: tuple[Cell, ...] = field(default=())
    fixed: tuple[Cell, ...] = field(default=())

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
        both = set(blocked) & set(fixed)
        if both:
            r, c = min(both)
            raise InvalidProblem(
                f"cell ({r}, {c}) is both blocked and holds a fixed queen; a fixed queen must stand on a free cell"
            )
        pair = _first_attacking_pair(self, fixed)
        if pair is not None:
            a, b = pair
            raise InvalidProblem(
                f"fixed queens at {a} and {b} attack each other ({self.attack(a, b)}); "
                "fixed queens must be mutually non-attacking"
            )

    # ------------------------------------------------------------------ views
    @property
    def is_standard(self) -> bool:
        """True for the plain n-queens problem (no variant constraint)."""
        return not (self.toroidal or self.knight or self.blocked or self.fixed)

    def fixed_columns(self) -> dict[int, int]:
        """Map each row holding a fixed queen to that queen's column."""
        return dict(self.fixed)

    def symmetries(self) -> tuple[D4Element, ...]:
        """The subgroup of D4 that maps this problem onto itself, identity first.

        Toroidal and knight moves are invariant under all of D4, so the subgroup is the
        set of elements mapping the blocked cells onto the blocked cells and the fixed
        queens onto the fixed queens.

        Returns
        -------
        tuple of D4Element
        """
        blocked, fixed = set(self.blocked), set(self.fixed)
        n = self.n
        out = []
        for g in D4:
            if {g.cell(n, *x) for x in blocked} == blocked and {g.cell(n, *x) for x in fixed} == fixed:
                out.append(g)
        return tuple(out)

    @property
    def leaps(self) -> tuple[tuple[int, int], ...]:
        """The leaper moves (base offsets ``(a, b)``) every queen has besides its lines."""
        return leaps(self.knight)

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
            return attacks(n, a, b, toroidal=self.toroidal, knight=self.knight)  # checks, or raises
        return _attacks(n, a, b, self.toroidal, self.knight)

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
            ``knight``, ``blocked`` and ``fixed`` (lists of ``[row, column]``).

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
        Problem(n=6, toroidal=True, knight=False, blocked=(), fixed=())
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

        return cls(
            data["n"],
            toroidal=data.get("toroidal", False),
            knight=data.get("knight", False),
            blocked=cells("blocked"),
            fixed=cells("fixed"),
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
        fields = {k: v for k, v in self.to_dict().items() if k in _FIELDS}
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
        return ", ".join(parts)
