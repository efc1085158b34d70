"""Holes: cells that are not part of the board -- no queen stands on one, and the lines of
attack stop at it.

A hole changes the move rules, not only the cells a queen may take: two queens in one row
with a hole between them do not attack each other, so more than n queens can stand on a
board with holes. That is the setting of the maximum-queens and domination problems on
boards with holes, which :mod:`queenslab.optimize` solves (its models split every line at
the holes). The counting backends place one queen per row and read lines that never
break, so none of them reads this kind: each refuses a problem holding it, as every
backend refuses a kind it does not handle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Cell, CellSet, Conflict, Constraint, sorted_cells

__all__ = ["Holes"]


@dataclass(frozen=True, init=False)
class Holes(CellSet):
    """These cells (0-based ``(row, column)``) are holes: no queen stands on one, and a
    line of attack ends at it.

    On a placement of one queen per row (what :meth:`holds` is given) a hole says only
    that no queen stands on it; the broken lines are read by the optimisation models.

    Examples
    --------
    >>> h = Holes([(1, 1)])
    >>> h.holds((1, 3, 0, 2)), h.holds((0, 1, 3, 2)), h.describe()
    (True, False, '1 hole')
    """

    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "holes"
    FIELDS: ClassVar[tuple[str, ...]] = ("holes",)
    #: Who reads the kind (the counting backends do not: see the module docstring).
    READ_BY: ClassVar[str] = "queenslab optimize (queenslab.optimize), whose models split the lines at the holes"

    def __init__(self, cells: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", sorted_cells(cells, "a hole"))

    def holds(self, columns: Sequence[int]) -> bool:
        return not self.occupied(columns)

    def describe(self) -> str:
        k = len(self.cells)
        return f"{k} hole{'' if k == 1 else 's'}"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        return [
            Conflict("holes", ((r, c),), f"the queen at ({r + 1},{c + 1}) stands on a hole")
            for r, c in self.occupied(columns)
        ]

    def draw(self, marks: dict[str, set[Cell]]) -> None:
        marks["blocked"].update(self.cells)

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        found = super().from_fields(data, base)
        cells = found.get(cls.kind)
        return {"constraints": [cls(cells)]} if cells else {}

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        found = super().to_fields(constraints, base)
        return found if found[cls.kind] else {}
