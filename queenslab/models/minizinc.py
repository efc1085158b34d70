"""The MiniZinc model of a Problem: the linear description (:mod:`.linear`) as MiniZinc text.

``x[r, c]`` (1-based) is a 0/1 cell variable; every sum of the linear description is one
``constraint``, and lex-leader symmetry breaking is MiniZinc's ``lex_greatereq`` global
on the cell vectors, so a solver with a lex propagator (Gecode, Chuffed, OR-Tools'
FlatZinc front end) reads it directly. Solve it with ``minizinc --all-solutions`` to
enumerate, or ``--statistics`` for the count; with lex-leader constraints it keeps one
solution per orbit. The output item prints the column of each row's queen (0 for an
empty row).

This module writes text; it needs no MiniZinc installation.

Examples
--------
>>> text = to_minizinc(Problem(4))
>>> [line for line in text.splitlines() if line.startswith("constraint")][0]
'constraint x[1,1] + x[1,2] + x[1,3] + x[1,4] = 1;  % row 1'
"""

from __future__ import annotations

from ..problem import Cell, Problem
from .linear import LinearModel, linear_model

__all__ = ["to_minizinc"]


def to_minizinc(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> str:
    """MiniZinc text of ``problem``'s linear model.

    Parameters
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model beyond :data:`queenslab.models.linear.BUILD` all the same.
    """
    return write(linear_model(problem, symmetry, force=force))


def write(m: LinearModel) -> str:
    """The MiniZinc text of a linear model."""
    problem = m.problem
    n, cols = problem.n, problem.columns
    lines = [
        f"% queenslab MiniZinc model: {problem.describe()}",
        f"% problem {problem.fingerprint()}",
        "% x[r,c] = 1: a queen stands on row r, column c (1-based)",
    ]
    if m.lex:
        lines.append(f"% lex-leader constraints keep one solution per orbit under the group {{{m.group_names()}}}")
        lines.append('include "lex_greatereq.mzn";')
    lines += [
        f"int: rows = {n};",
        f"int: columns = {cols};",
        "array[1..rows, 1..columns] of var 0..1: x;",
    ]
    for s in m.sums:
        lines.append(f"constraint {_bounded(' + '.join(_var(c) for c in s.cells), s.at_least, s.at_most)};  % {s.what}")
    for pair in m.lex:
        left, right = (", ".join(_var(c) for c in side) for side in (pair.left, pair.right))
        lines.append(f"constraint lex_greatereq([{left}], [{right}]);  % {pair.element}")
    lines += [
        "solve satisfy;",
        'output [show([sum(c in 1..columns)(c * fix(x[r, c])) | r in 1..rows]), "\\n"];',
    ]
    return "\n".join(lines) + "\n"


def _var(cell: Cell) -> str:
    return f"x[{cell[0] + 1},{cell[1] + 1}]"


def _bounded(total: str, at_least: int, at_most: int) -> str:
    """``total`` between the bounds, as one MiniZinc comparison."""
    if at_least == at_most:
        return f"{total} = {at_most}"
    if at_least == 0:
        return f"{total} <= {at_most}"
    return f"{total} in {at_least}..{at_most}"
