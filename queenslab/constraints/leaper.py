"""Leapers: jumping moves every queen has besides its lines, the knight among them.

A leaper ``(a, b)`` jumps ``(+-a, +-b)`` and ``(+-b, +-a)``; the knight is ``(1, 2)``
(superqueens, Kotesovec's *Non-attacking chess pieces*), the camel ``(1, 3)``, the zebra
``(2, 3)``. On a torus the jumps wrap around the edges.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import validate
from ..d4 import BoardSymmetry
from ..errors import InvalidProblem, QueensError
from .base import Conflict, Constraint, Tables, cell_pair, items_of

__all__ = ["LEAPER_NAMES", "MAX_LEAP", "Leaper", "leap_offsets", "leaper_name", "leaps"]

#: The largest leaper offset (a jump longer than any board is allowed, and harmless).
MAX_LEAP = 2**31 - 1
#: Names of the classic leapers, ``(a, b)`` with ``a < b``.
LEAPER_NAMES = {(1, 2): "knight", (1, 3): "camel", (2, 3): "zebra", (1, 4): "giraffe", (3, 4): "antelope"}


def offset_of(item: object) -> tuple[int, int]:
    """A leaper offset normalised to ``(a, b)`` with ``0 < a < b``, or InvalidProblem."""
    a, b = sorted(map(abs, cell_pair(item, "a leaper offset")))
    if b > MAX_LEAP:
        raise InvalidProblem(f"a leaper offset must be at most {MAX_LEAP}, got {validate.brief(item)}")
    if a == 0 or a == b:
        raise InvalidProblem(
            f"leaper offset {validate.brief(item)} is a move along a row, column or diagonal, which every queen "
            "already has; a leaper jumps (a, b) with 0 < a != b, e.g. (1, 2) for the knight"
        )
    return a, b


def offsets_of(value: object) -> tuple[tuple[int, int], ...]:
    """Leaper offsets normalised: each as ``(a, b)`` with ``0 < a < b``, sorted, no repeats."""
    return tuple(sorted({offset_of(x) for x in items_of(value, "leapers must be a collection of (a, b) offsets")}))


def leaps(knight: bool, leapers: Iterable[tuple[int, int]] = ()) -> tuple[tuple[int, int], ...]:
    """The leaper moves of a variant as base offsets ``(a, b)``.

    Each offset stands for the eight jumps ``(+-a, +-b), (+-b, +-a)``; superqueens
    (``knight``) add the knight's ``(1, 2)`` to the other ``leapers``.

    Examples
    --------
    >>> leaps(True), leaps(False), leaps(True, [(3, 1)])
    (((1, 2),), (), ((1, 2), (1, 3)))
    """
    own = offsets_of(leapers)
    return tuple(sorted({(1, 2), *own})) if validate.flag(knight, "knight") else own


def leaper_name(offset: tuple[int, int]) -> str:
    """The name of a leaper: ``'knight'``, ``'camel'``, ``'zebra'``, ... or ``'(a,b)-leaper'``.

    Examples
    --------
    >>> leaper_name((1, 2)), leaper_name((3, 1)), leaper_name((2, 5))
    ('knight', 'camel', '(2,5)-leaper')
    """
    a, b = sorted(map(abs, cell_pair(offset, "a leaper offset", QueensError)))
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
        items = items_of(base, "leaper offsets must be a collection of (a, b) pairs of integers", QueensError)
        base = tuple(cell_pair(x, "a leaper offset", QueensError) for x in items)
    return _jumps(base)


@functools.lru_cache(maxsize=64)
def _jumps(base: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out = set()
    for a, b in base:
        for x, y in ((a, b), (b, a)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.add((sx * x, sy * y))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Leaper(Constraint):
    """No two queens a leap ``(a, b)`` apart: every queen also attacks like this leaper.

    Parameters
    ----------
    a, b : int
        The jump, in any order and sign; stored as ``0 < a < b``.
    wrap : bool, default False
        The jumps wrap around the edges (a problem sets it on a torus).

    Examples
    --------
    >>> Leaper(2, 1) == Leaper.knight(), Leaper(1, 3).describe()
    (True, 'camel (1,3)')
    >>> Leaper(2, 3).holds((1, 3, 0, 2)), Leaper(1, 2).holds((1, 3, 0, 2))
    (True, False)
    """

    a: int
    b: int
    wrap: bool = False

    kind: ClassVar[str] = "leaper"
    FIELDS: ClassVar[tuple[str, ...]] = ("knight", "leapers")

    def __post_init__(self) -> None:
        a, b = offset_of((self.a, self.b))
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "wrap", validate.flag(self.wrap, "a leaper's wrap"))

    @classmethod
    def knight(cls, wrap: bool = False) -> Leaper:
        """The knight, ``(1, 2)``: with the queen's lines, the superqueen."""
        return cls(1, 2, wrap)

    @property
    def offset(self) -> tuple[int, int]:
        """``(a, b)``."""
        return self.a, self.b

    @property
    def name(self) -> str:
        """``'knight'``, ``'camel'``, ... or ``'(a,b)-leaper'``."""
        return leaper_name(self.offset)

    def holds(self, columns: Sequence[int]) -> bool:
        return not self.conflicts(columns)

    def image(self, symmetry: BoardSymmetry) -> Leaper:
        return self  # the eight jumps are a D4-invariant set

    def compile(self, tables: Tables) -> None:
        tables.leap(self.offset)

    def describe(self) -> str:
        return f"{self.name} ({self.a},{self.b})"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        n = len(columns)
        where = {(r, int(c)) for r, c in enumerate(columns) if c >= 0}  # -1: an empty row
        out = []
        for r, c in sorted(where):
            for dr, dc in _jumps((self.offset,)):
                r2, c2 = r + dr, int(c) + dc
                if self.wrap:
                    r2, c2 = r2 % n, c2 % n
                if (r2, c2) in where and (r, int(c)) < (r2, c2):
                    out.append(Conflict.attack(self.name, (r, int(c)), (r2, c2)))
        return sorted(set(out), key=lambda x: x.cells)

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        offsets = sorted(c.offset for c in constraints if isinstance(c, Leaper))
        return {"knight": (1, 2) in offsets, "leapers": [[a, b] for a, b in offsets if (a, b) != (1, 2)]}

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        leapers = data.get("leapers")
        if leapers is not None and not isinstance(leapers, (list, tuple)):
            raise InvalidProblem(f"'leapers' is a list of [a, b] offsets, got {validate.brief(leapers)}")
        return {"knight": data.get("knight", False), "leapers": leapers or ()}
