"""The pseudo-Boolean model of a Problem in OPB, the format of the Pseudo-Boolean
Competitions (RoundingSat, Exact, Sat4j, Pumpkin read it), from the linear description
(:mod:`.linear`).

The variables ``x1 .. x(n*m)`` are the cell variables in row-major order (``x(r*m + c + 1)``
is the cell of row ``r``, column ``c``, 0-based), then the auxiliary variables of the
lex-leader clauses. Only ``>=`` and ``=`` are written, as the format's first version
allows: an upper bound is a ``>=`` with the signs turned, and a clause with a negated
literal ``~x`` is written with ``1 - x`` moved to the right-hand side. With lex-leader
constraints there is one solution per orbit: the auxiliary variables are determined by the
cell variables, so even a counter that does not project counts orbits.

Examples
--------
>>> print(to_opb(Problem(2)).splitlines()[-1])
-1 x2 -1 x3 >= -1 ;
"""

from __future__ import annotations

from ..problem import Problem
from .linear import LinearModel, linear_model

__all__ = ["to_opb"]


def to_opb(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> str:
    """OPB text of ``problem``'s linear model.

    Parameters
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model beyond :data:`queenslab.models.linear.BUILD` all the same.
    """
    return write(linear_model(problem, symmetry, force=force))


def write(m: LinearModel) -> str:
    """The OPB text of a linear model."""
    problem = m.problem
    number = {("x", *cell): i + 1 for i, cell in enumerate(m.cells)}
    for key in m.auxiliaries:
        number[key] = len(number) + 1
    body: list[str] = []
    for s in m.sums:
        xs = [number[("x", *cell)] for cell in s.cells]
        if s.at_least == s.at_most:
            body.append(f"{_terms(xs, 1)} = {s.at_most} ;")
            continue
        if s.at_least > 0:
            body.append(f"{_terms(xs, 1)} >= {s.at_least} ;")
        if s.at_most < len(xs):
            body.append(f"{_terms(xs, -1)} >= {-s.at_most} ;")
    for clause in m.lex_clauses:  # at least one literal true; ~x is 1 - x
        terms = " ".join(f"{'+1' if positive else '-1'} x{number[key]}" for positive, key in clause)
        negated = sum(not positive for positive, _ in clause)
        body.append(f"{terms} >= {1 - negated} ;")
    cells = len(m.cells)
    head = [
        f"* #variable= {len(number)} #constraint= {len(body)}",
        f"* queenslab OPB model: {problem.describe()}",
        f"* problem {problem.fingerprint()}",
        f"* x((r-1)*{problem.columns} + c) = 1: a queen stands on row r, column c (1-based: x1 is (1,1))",
    ]
    if m.lex:
        head += [
            f"* lex-leader constraints keep one solution per orbit under the group {{{m.group_names()}}}",
            f"* the {len(number) - cells} variables after x{cells} (lex-leader: agreement so far) are determined by"
            " the cells: one assignment per solution",
        ]
    return "\n".join(head + body) + "\n"


def _terms(xs: list[int], coefficient: int) -> str:
    sign = "+1" if coefficient > 0 else "-1"
    return " ".join(f"{sign} x{v}" for v in xs)
