"""Exact decompositions of a total into smaller counts, for the solver backends.

A solver that enumerates pays for every solution, so a total it need not enumerate is
reach gained. Two identities give the total from counts a solver makes faster:

* **Burnside's lemma.** For a group ``G`` acting on the solutions, ``|G| x orbits`` is
  the sum over ``g`` in ``G`` of the solutions ``g`` fixes, and the identity fixes all of
  them: ``total = |G| x orbits - sum of Fix(g) for g != identity``
  (:func:`total_from_orbits`). The orbits come from the lex-leader model, the fixed
  counts from models that keep the placements ``g`` maps onto themselves
  (:func:`queenslab.models.breaking.fixed_point_clauses`): for the standard problem
  ``total = 8 x orbits - 2 F90 - F180``, the reflections fixing no solution.
* **Translations of the torus.** On a toroidal board every row holds one queen and the
  shift of all columns by one maps solutions onto solutions, so the solutions with the
  first row's queen in the first column are exactly ``1/n`` of them
  (:func:`translation_invariant`, :func:`total_from_first_column`). Pólya (*Über die
  "doppelt-periodischen" Lösungen des n-Damen-Problems*) used the same shifts.

This module holds the arithmetic and the conditions only; the backends count.

Examples
--------
>>> from queenslab.problem import Problem
>>> from queenslab.d4 import element
>>> total_from_orbits(12, {element("rotate-180"): 4, element("rotate-90"): 0, element("rotate-270"): 0,
...                        element("reflect-vertical-axis"): 0, element("reflect-horizontal-axis"): 0,
...                        element("reflect-main-diagonal"): 0, element("reflect-anti-diagonal"): 0})
92
>>> translation_invariant(Problem(7, toroidal=True)), translation_invariant(Problem(7))
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping

from ..d4 import D4Element
from ..errors import QueensError
from ..problem import Problem

__all__ = [
    "TOTAL_BY",
    "total_from_orbits",
    "burnside_equation",
    "translation_invariant",
    "total_from_first_column",
    "first_column_problem",
]

#: How a solver backend obtains a total: ``direct`` counts the plain model, ``burnside``
#: from the orbits and the fixed counts, ``translations`` from the first column on a torus.
TOTAL_BY = ("direct", "burnside", "translations")


def total_from_orbits(orbits: int, fixed: Mapping[D4Element, int]) -> int:
    """The total by Burnside's lemma from the orbit count and the solutions each
    non-identity element of the group fixes (``fixed``: every one of them; the group's
    order is ``len(fixed) + 1``).

    Raises
    ------
    QueensError
        When the counts cannot come from one set of solutions (a total below the
        orbits, or more fixed solutions than the total): a solver or a model is wrong.
    """
    order = len(fixed) + 1
    total = order * orbits - sum(fixed.values())
    if total < orbits or any(k > total for k in fixed.values()):
        raise QueensError(
            f"Burnside's lemma does not hold for {orbits} orbits under a group of order {order} with the fixed counts "
            f"{ {g.name: k for g, k in fixed.items()} }: the counts are inconsistent"
        )
    return total


def burnside_equation(orbits: int, fixed: Mapping[D4Element, int], total: int) -> str:
    """The identity as a line of text, e.g. ``8 x 12 orbits - 4 (rotate-180) = 92``;
    elements fixing nothing are left out."""
    terms = "".join(f" - {k:,} ({g.name})" for g, k in fixed.items() if k)
    return f"{len(fixed) + 1} x {orbits:,} orbits{terms} = {total:,} (Burnside's lemma)"


def translation_invariant(problem: Problem) -> bool:
    """Whether shifting every column by one maps ``problem``'s solutions onto its
    solutions and every row holds a queen: a square torus of n queens whose only
    constraints are the torus and leapers (which wrap)."""
    from ..constraints import Leaper, Torus

    kinds = [type(c) for c in problem.constraints]
    return problem.is_plain_board and Torus in kinds and all(issubclass(k, (Torus, Leaper)) for k in kinds)


def total_from_first_column(problem: Problem, first_column: int) -> int:
    """The total of a translation-invariant ``problem`` from the number of its solutions
    with the first row's queen in the first column: ``n`` times as many.

    Raises
    ------
    QueensError
        For a problem the column shift does not map onto itself.
    """
    if not translation_invariant(problem):
        raise QueensError(
            f"{problem.describe()}: the shift of the columns does not map its solutions onto its solutions (only "
            "a torus whose constraints are the torus and leapers is), so its total is not n times the solutions "
            "with the first row's queen in the first column"
        )
    return problem.n * first_column


def first_column_problem(problem: Problem) -> Problem:
    """``problem`` with a queen fixed in the first row's first cell."""
    from ..constraints import Fixed

    return Problem(problem.n, constraints=[*problem.constraints, Fixed([(0, 0)])])
