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

import hashlib
import json
import operator
from dataclasses import dataclass, field
from typing import Iterable

from .errors import InvalidProblem
from .symmetry.group import D4, D4Element

__all__ = ["Problem", "Cell", "attacks"]

Cell = tuple[int, int]

_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1))


def _as_int(value, what: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidProblem(f"{what} must be an integer, got {value!r}") from None


def _cells(cells: Iterable, n: int, what: str) -> tuple[Cell, ...]:
    if cells is None:
        return ()
    if isinstance(cells, (str, bytes)):
        raise InvalidProblem(f"{what} must be a collection of (row, column) pairs, got {cells!r}")
    out = set()
    for cell in cells:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise InvalidProblem(
                f"{what} must hold (row, column) pairs, got {cell!r}"
            ) from None
        r, c = _as_int(r, f"a row in {what}"), _as_int(c, f"a column in {what}")
        if not (0 <= r < n and 0 <= c < n):
            raise InvalidProblem(
                f"{what} cell ({r}, {c}) is outside the {n}x{n} board: rows and columns "
                f"are 0..{n - 1} in the Python API (1..{n} on the command line)"
            )
        out.add((r, c))
    return tuple(sorted(out))


def attacks(n: int, a: Cell, b: Cell, *, toroidal: bool = False, knight: bool = False) -> str | None:
    """Say how a queen on cell ``a`` attacks cell ``b``, or return None.

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
    """
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
    if knight:
        for kr, kc in _KNIGHT:
            if toroidal:
                if (dr - kr) % n == 0 and (dc - kc) % n == 0:
                    return "knight"
            elif (dr, dc) == (kr, kc):
                return "knight"
    return None


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

    def __post_init__(self) -> None:
        if isinstance(self.n, bool):
            raise InvalidProblem(f"n must be an integer >= 1, got {self.n!r}")
        n = _as_int(self.n, "n")
        if n < 1:
            raise InvalidProblem(f"n must be at least 1, got {n}")
        for flag in ("toroidal", "knight"):
            if not isinstance(getattr(self, flag), (bool, int)) or getattr(self, flag) not in (0, 1):
                raise InvalidProblem(f"{flag} must be True or False, got {getattr(self, flag)!r}")
            object.__setattr__(self, flag, bool(getattr(self, flag)))
        object.__setattr__(self, "n", n)
        blocked = _cells(self.blocked, n, "blocked")
        fixed = _cells(self.fixed, n, "fixed")
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "fixed", fixed)
        both = set(blocked) & set(fixed)
        if both:
            r, c = min(both)
            raise InvalidProblem(
                f"cell ({r}, {c}) is both blocked and holds a fixed queen; "
                "a fixed queen must stand on a free cell"
            )
        for i, a in enumerate(fixed):
            for b in fixed[i + 1:]:
                how = attacks(n, a, b, toroidal=self.toroidal, knight=self.knight)
                if how:
                    raise InvalidProblem(
                        f"fixed queens at {a} and {b} attack each other ({how}); "
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
            if {g.cell(n, *x) for x in blocked} == blocked and {
                g.cell(n, *x) for x in fixed
            } == fixed:
                out.append(g)
        return tuple(out)

    def to_dict(self, *, one_based: bool = False) -> dict:
        """A JSON-ready description (cells 1-based when ``one_based``)."""
        k = 1 if one_based else 0
        return {
            "n": self.n,
            "toroidal": self.toroidal,
            "knight": self.knight,
            "blocked": [[r + k, c + k] for r, c in self.blocked],
            "fixed": [[r + k, c + k] for r, c in self.fixed],
        }

    def fingerprint(self) -> str:
        """A stable identifier of the problem (hex SHA-256 of its canonical JSON).

        Equal problems have equal fingerprints across processes, platforms and
        versions: the hash covers a versioned, sorted JSON form, not Python's ``hash``.

        Examples
        --------
        >>> Problem(8).fingerprint() == Problem(8, blocked=[]).fingerprint()
        True
        >>> Problem(8).fingerprint()[:12]
        '8d27241a7be7'
        """
        text = json.dumps({"v": 1, **self.to_dict()}, sort_keys=True, separators=(",", ":"))
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
