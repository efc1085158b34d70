"""The constraint structure of a Problem in solver-neutral terms.

Both the CP-SAT and the CNF model are built from the same lists, so a variant rule is
written once: the lines a queen attacks along (rows, columns, both diagonal families,
broken diagonals on a torus), the knight pairs, and the blocked and fixed cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..problem import Cell, Problem

__all__ = ["Structure", "structure", "KNIGHT_MOVES"]

KNIGHT_MOVES = ((1, 2), (2, 1), (1, -2), (2, -1))  # the other four are their reverses


@dataclass(frozen=True)
class Structure:
    """Cells grouped by constraint.

    Attributes
    ----------
    rows, columns : list of list of cell
        Exactly one queen each.
    diagonals : list of list of cell
        At most one queen each (both families; on a torus, the broken diagonals);
        only lines of two or more cells are listed.
    knight_pairs : list of (cell, cell)
        Pairs of distinct cells a knight move apart (with wrap-around on a torus).
    blocked, fixed : tuple of cell
        Cells that must be empty / must hold a queen.
    """

    rows: list[list[Cell]]
    columns: list[list[Cell]]
    diagonals: list[list[Cell]]
    knight_pairs: list[tuple[Cell, Cell]]
    blocked: tuple[Cell, ...]
    fixed: tuple[Cell, ...]


def structure(problem: Problem) -> Structure:
    """Group the cells of ``problem`` by the constraints on them.

    Examples
    --------
    >>> s = structure(Problem(4))
    >>> len(s.diagonals), len(s.knight_pairs)
    (10, 0)
    >>> len(structure(Problem(5, toroidal=True)).diagonals)
    10
    """
    n = problem.n
    rows = [[(r, c) for c in range(n)] for r in range(n)]
    cols = [[(r, c) for r in range(n)] for c in range(n)]
    down: dict[int, list[Cell]] = {}
    up: dict[int, list[Cell]] = {}
    for r in range(n):
        for c in range(n):
            if problem.toroidal:
                down.setdefault((c - r) % n, []).append((r, c))
                up.setdefault((c + r) % n, []).append((r, c))
            else:
                down.setdefault(c - r, []).append((r, c))
                up.setdefault(c + r, []).append((r, c))
    diagonals = [line for family in (down, up) for _, line in sorted(family.items()) if len(line) >= 2]
    pairs: set[tuple[Cell, Cell]] = set()
    if problem.knight:
        for r in range(n):
            for c in range(n):
                for dr, dc in KNIGHT_MOVES + tuple((-a, -b) for a, b in KNIGHT_MOVES):
                    r2, c2 = r + dr, c + dc
                    if problem.toroidal:
                        r2, c2 = r2 % n, c2 % n
                    elif not (0 <= r2 < n and 0 <= c2 < n):
                        continue
                    if (r2, c2) != (r, c):
                        pairs.add(tuple(sorted(((r, c), (r2, c2)))))
    return Structure(rows, cols, diagonals, sorted(pairs), problem.blocked, problem.fixed)
