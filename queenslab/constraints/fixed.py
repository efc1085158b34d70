"""Fixed queens: queens placed in advance, the n-queens completion problem (Gent,
Jefferson and Nightingale, *Complexity of n-Queens Completion*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import Cell, CellSet, Conflict, Tables, sorted_cells

__all__ = ["Fixed"]


@dataclass(frozen=True, init=False)
class Fixed(CellSet):
    """A queen stands on each of these cells (0-based ``(row, column)``).

    Examples
    --------
    >>> Fixed([(0, 1)]).holds((1, 3, 0, 2)), Fixed([(0, 1)]).holds((2, 0, 3, 1))
    (True, False)
    """

    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "fixed"
    FIELDS: ClassVar[tuple[str, ...]] = ("fixed",)

    def __init__(self, cells: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", sorted_cells(cells, "a fixed queen's cell"))

    def holds(self, columns: Sequence[int]) -> bool:
        return all(r < len(columns) and columns[r] == c for r, c in self.cells)

    def compile(self, tables: Tables) -> None:
        tables.fix(self.cells)

    def describe(self) -> str:
        return f"{len(self.cells)} fixed"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        return [
            Conflict(
                "fixed",
                ((r, c),),
                f"the fixed queen at ({r + 1},{c + 1}) is missing (row {r + 1} has its queen elsewhere)",
            )
            for r, c in self.cells
            if r < len(columns) and columns[r] != c
        ]

    def draw(self, marks: dict[str, set[Cell]]) -> None:
        marks["fixed"].update(self.cells)
