"""The torus: every line and every leap wraps around the edges of the board.

On a toroidal board the diagonals are broken diagonals: cells with equal ``(c - r) mod n``
or ``(c + r) mod n``. Pólya (*Über die "doppelt-periodischen" Lösungen des
n-Damen-Problems*) showed that solutions exist exactly when gcd(n, 6) = 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..d4 import BoardSymmetry
from .base import Conflict, Constraint, Tables

__all__ = ["Torus"]


@dataclass(frozen=True)
class Torus(Constraint):
    """Every move wraps around the edges: no two queens on one broken diagonal.

    The problem makes its leapers wrap too (:class:`~queenslab.constraints.Leaper`).

    Examples
    --------
    >>> Torus().holds((0, 2, 4, 1, 3)), Torus().holds((1, 3, 0, 2))
    (True, False)
    """

    kind: ClassVar[str] = "torus"
    FIELDS: ClassVar[tuple[str, ...]] = ("toroidal",)

    def holds(self, columns: Sequence[int]) -> bool:
        return not self.conflicts(columns)

    def image(self, symmetry: BoardSymmetry) -> Torus:
        return self  # every symmetry of the square maps broken diagonals onto broken diagonals

    def compile(self, tables: Tables) -> None:
        tables.wrap()

    def describe(self) -> str:
        return "toroidal"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        n = len(columns)
        seen: dict[tuple[str, int], tuple[int, int]] = {}
        out = []
        for r, c in enumerate(columns):
            if c < 0:
                continue  # an empty row (fewer queens than rows)
            for rule, key in (("diagonal", (c - r) % n), ("anti-diagonal", (c + r) % n)):
                other = seen.setdefault((rule, key), (r, int(c)))
                if other != (r, int(c)):
                    out.append(Conflict.attack(rule, other, (r, int(c))))
        return out

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        return {"toroidal": bool(constraints)}

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        return {"toroidal": data.get("toroidal", False)}
