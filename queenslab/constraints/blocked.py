"""Blocked cells: cells on which no queen may stand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import Cell, CellSet, Conflict, Tables, sorted_cells

__all__ = ["Blocked"]


@dataclass(frozen=True, init=False)
class Blocked(CellSet):
    """No queen stands on these cells (0-based ``(row, column)``).

    Examples
    --------
    >>> b = Blocked([(0, 1), (0, 1), (2, 0)])
    >>> b.cells, b.holds((1, 3, 0, 2)), b.holds((2, 0, 3, 1))
    (((0, 1), (2, 0)), False, True)
    """

    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "blocked"
    FIELDS: ClassVar[tuple[str, ...]] = ("blocked",)

    def __init__(self, cells: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", sorted_cells(cells, "a blocked cell"))

    def holds(self, columns: Sequence[int]) -> bool:
        return not self.occupied(columns)

    def compile(self, tables: Tables) -> None:
        tables.forbid(self.cells)

    def describe(self) -> str:
        return f"{len(self.cells)} blocked"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        return [
            Conflict("blocked", ((r, c),), f"the queen at ({r + 1},{c + 1}) stands on a blocked cell")
            for r, c in self.occupied(columns)
        ]

    def draw(self, marks: dict[str, set[Cell]]) -> None:
        marks["blocked"].update(self.cells)
