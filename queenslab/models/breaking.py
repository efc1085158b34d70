"""Lex-leader symmetry breaking, described once for every model.

For every non-identity element ``g`` of ``problem.symmetries()`` the lex-leader
constraint keeps a placement ``q`` only if ``q <=lex g(q)``: exactly one member of every
orbit survives (the lexicographically least one, the same canonical form the native
engine uses), so counting the models of the constrained formulation counts orbits.

The models translate this description:

* CP-SAT compares the vector ``q`` with the vector of expressions ``g(q)``
  (:func:`image_terms`); an element with ``inv`` needs the inverse permutation, which the
  model gets from ``AddInverse``.
* CNF compares cell variables. For placements as 0/1 vectors ``X`` in row-major order,
  ``q <lex q'`` exactly when ``X >lex X'`` (the earlier queen sets the earlier bit), so the
  constraint becomes ``X >=lex Y`` with ``Y[k] = X[source(k)]`` (:func:`cell_sources`).
"""

from __future__ import annotations

from ..d4 import D4Element
from ..errors import QueensError
from ..problem import Problem

__all__ = ["LEX_LEADER", "SYMMETRY_OPTIONS", "check_symmetry", "breaking_elements", "image_terms", "cell_sources"]

LEX_LEADER = "lex-leader"
#: Values a model's ``symmetry`` option takes: None (no breaking) or "lex-leader".
SYMMETRY_OPTIONS = (None, LEX_LEADER)


def check_symmetry(symmetry) -> str | None:
    """Validate a ``symmetry`` option value."""
    if symmetry not in SYMMETRY_OPTIONS:
        raise QueensError(f"unknown symmetry breaking {symmetry!r}; use None or {LEX_LEADER!r}")
    return symmetry


def breaking_elements(problem: Problem) -> tuple[D4Element, ...]:
    """The elements that get a lex-leader constraint: the non-identity symmetries."""
    return problem.symmetries()[1:]


def image_terms(n: int, g: D4Element) -> list[tuple[bool, int, bool]]:
    """How ``g(q)[i]`` is built from ``q``, for i = 0..n-1.

    Returns
    -------
    list of (use_inverse, source, complement)
        ``g(q)[i] = w[source]`` or ``n - 1 - w[source]`` when ``complement``, where ``w``
        is ``q`` or, when ``use_inverse``, the inverse permutation of ``q``.

    Examples
    --------
    >>> from queenslab.d4 import D4
    >>> r180 = [g for g in D4 if g.name == "rotate-180"][0]
    >>> image_terms(3, r180)
    [(False, 2, True), (False, 1, True), (False, 0, True)]
    """
    return [(g.inv, n - 1 - i if g.rev else i, g.cmpl) for i in range(n)]


def cell_sources(n: int, g: D4Element) -> list[tuple[int, int]]:
    """For the image ``Y`` of the cell vector under ``g``: the cell ``Y[k]`` copies.

    ``Y[r * n + c] = X[g^{-1}(r, c)]``; returned in row-major order of ``(r, c)``.
    """
    h = g.inverse()
    return [h.cell(n, r, c) for r in range(n) for c in range(n)]
