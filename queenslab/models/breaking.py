"""Lex-leader symmetry breaking, described once for every model.

For every non-identity element ``g`` of ``problem.symmetries()`` the lex-leader
constraint keeps a placement ``q`` only if ``q <=lex g(q)``: exactly one member of every
orbit survives (the lexicographically least one, the same canonical form the native
engine uses), so counting the models of the constrained formulation counts orbits.

The models translate this description (:func:`check_model_count` is the one rule, used by
every backend, for counting a model given as it was built or edited):

* CP-SAT compares the vector ``q`` with the vector of expressions ``g(q)``
  (:func:`image_terms`); an element with ``inv`` needs the inverse permutation, which the
  model gets from ``AddInverse``.
* CNF compares cell variables. For placements as 0/1 vectors ``X`` in row-major order,
  ``q <lex q'`` exactly when ``X >lex X'`` (the earlier queen sets the earlier bit), so the
  constraint becomes ``X >=lex Y`` with ``Y[k] = X[source(k)]`` (:func:`cell_sources`).
  On a board with empty rows or a rectangle every model compares cell vectors so: the
  order is that of placements with an empty row after every column (the native engine's).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..d4 import BoardSymmetry, D4Element
from ..errors import QueensError
from ..problem import Problem

__all__ = [
    "LEX_LEADER",
    "SYMMETRY_OPTIONS",
    "check_symmetry",
    "check_model_count",
    "breaking_elements",
    "image_terms",
    "cell_sources",
    "cells_in_order",
    "Literal",
    "lex_leader_clauses",
    "fixed_point_clauses",
    "check_fixed_by",
]

LEX_LEADER = "lex-leader"
#: Values a model's ``symmetry`` option takes: None (no breaking) or "lex-leader".
SYMMETRY_OPTIONS = (None, LEX_LEADER)


def check_symmetry(symmetry) -> str | None:
    """Validate a ``symmetry`` option value."""
    if symmetry not in SYMMETRY_OPTIONS:
        raise QueensError(f"unknown symmetry breaking {symmetry!r}; use None or {LEX_LEADER!r}")
    return symmetry


def check_model_count(
    problem: Problem, symmetry: str | None, unique: bool, edited: bool, assume_symmetric: bool
) -> None:
    """Refuse a count of a given (possibly edited) model whose number would not mean what
    is asked.

    A model with lex-leader constraints keeps the lexicographically least member of each
    orbit under ``problem.symmetries()``, so its count is a number of orbits -- but only
    while every constraint is mapped onto itself by that group. A constraint added after
    :func:`build` may not be: the count is then the number of lex-leaders of a group that
    is not the edited problem's, neither the total nor the orbit count. Such a count is
    refused unless the caller says the added constraints are symmetric.

    Raises
    ------
    QueensError
        ``unique`` asked of a model without symmetry breaking, a total asked of a
        lex-leader model, or an edited lex-leader model without ``assume_symmetric``.
    """
    if symmetry != LEX_LEADER:
        if unique:
            raise QueensError(
                "unique=True asks for orbits, but this model has no symmetry breaking, so it counts solutions, not "
                "orbits: count it without unique, or build it with symmetry='lex-leader' to count orbits"
            )
        return
    if not unique:
        raise QueensError(
            "this model has lex-leader constraints: it keeps one solution per orbit, so its count is a number of "
            "orbits; count it with unique=True, or build it without symmetry for the total"
        )
    if edited and not assume_symmetric:
        names = ", ".join(g.name for g in problem.symmetries())
        raise QueensError(
            "constraints were added to this lex-leader model after it was built: its count is the number of "
            f"lex-leaders under the problem's symmetry group ({names}), which is the number of orbits only if every "
            "added constraint is mapped onto itself by each of them. Say the edit declaratively instead (Problem "
            "regions, blocked and fixed cells, leapers: the group is then derived from it), or pass "
            "assume_symmetric=True if the added constraints are symmetric"
        )


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


def cell_sources(n: int, g: D4Element, columns: int | None = None) -> list[tuple[int, int]]:
    """For the image ``Y`` of the cell vector under ``g``: the cell ``Y[k]`` copies.

    ``Y[r * m + c] = X[g^{-1}(r, c)]`` on the ``n x m`` board (``m = columns``, default
    ``n``); returned in row-major order of ``(r, c)``. On a board with empty rows or a
    rectangle this comparison of cell vectors is the lex-leader rule of every model.

    Examples
    --------
    >>> from queenslab.d4 import element
    >>> cell_sources(2, element("rotate-180"), 3)[:3]
    [(1, 2), (1, 1), (1, 0)]
    """
    m = n if columns is None else columns
    h = BoardSymmetry(g.inverse(), n, m)
    return [h.cell(r, c) for r in range(n) for c in range(m)]


def cells_in_order(problem: Problem) -> list[tuple[int, int]]:
    """The cells of ``problem``'s board in row-major order (the order of the cell vectors)."""
    return [(r, c) for r in range(problem.n) for c in range(problem.columns)]


#: A literal of :func:`lex_leader_clauses`: ``(positive, key)``, ``key = ("x", r, c)`` for a
#: cell variable, ``("lex", element, position)`` for an auxiliary "equal so far" variable.
Literal = tuple[bool, tuple]


def lex_leader_clauses(problem: Problem) -> Iterator[tuple[Literal, ...]]:
    """``X >=lex g(X)`` on the row-major cell vector, for each breaking element, as clauses.

    Only the positions ``g`` moves are compared. The auxiliary ``e_k`` ("X and Y agree
    before position k") is defined by the cell variables, ``e_(k+1) <-> e_k and (X_k <->
    Y_k)``: each lex-leader has exactly one model, so a counter that does not project (or
    projects wrongly) still counts lex-leaders, as long as the other constraints add no
    auxiliary variables of their own.

    Examples
    --------
    >>> from queenslab.problem import Problem
    >>> clauses = list(lex_leader_clauses(Problem(2)))  # first: the reflection in the vertical axis
    >>> clauses[0]
    ((True, ('x', 0, 0)), (False, ('x', 0, 1)))
    """
    cells = cells_in_order(problem)
    for gi, g in enumerate(breaking_elements(problem)):
        sources = cell_sources(problem.n, g, problem.columns)
        positions = [k for k, cell in enumerate(cells) if sources[k] != cell]
        eq: tuple | None = None  # the "equal so far" variable; None = true
        for j, k in enumerate(positions):
            xk, yk = ("x", *cells[k]), ("x", *sources[k])
            guard: tuple[Literal, ...] = () if eq is None else ((False, eq),)
            yield guard + ((True, xk), (False, yk))  # equal so far -> not (X_k = 0 and Y_k = 1)
            if j == len(positions) - 1:
                break
            nxt = ("lex", gi, k)
            yield guard + ((False, xk), (False, yk), (True, nxt))  # agree here -> agree so far
            yield guard + ((True, xk), (True, yk), (True, nxt))
            yield ((False, nxt), (True, xk), (False, yk))  # agree so far -> agree here
            yield ((False, nxt), (False, xk), (True, yk))
            if eq is not None:
                yield ((False, nxt), (True, eq))  # agree so far -> agreed before
            eq = nxt


def check_fixed_by(problem: Problem, g: D4Element | None) -> D4Element | None:
    """Validate a model's ``fixed_by``: None, or an element of ``problem.symmetries()``
    (a placement another element fixes need not be a solution of a symmetric model)."""
    if g is None:
        return None
    group = problem.symmetries()
    if not isinstance(g, D4Element) or g not in group:
        names = ", ".join(h.name for h in group)
        raise QueensError(
            f"fixed_by must be one of the problem's symmetries ({names}), got {getattr(g, 'name', repr(g))}"
        )
    return g


def fixed_point_clauses(problem: Problem, g: D4Element) -> Iterator[tuple[Literal, ...]]:
    """Clauses that keep only the placements ``g`` maps onto themselves: for every cell
    that ``g`` moves, a queen there implies a queen on its image.

    Along each cycle of ``g`` on the cells the implications close into a ring, so the
    cells of a cycle are all occupied or all empty: exactly the placements ``g`` fixes.
    Counting them for every element of the group gives the orbits by Burnside's lemma,
    and the total from the orbits (:func:`queenslab.symmetry.orbits.total_from_orbits`).

    Examples
    --------
    >>> from queenslab.d4 import element
    >>> from queenslab.problem import Problem
    >>> next(fixed_point_clauses(Problem(4), element("rotate-180")))
    ((False, ('x', 0, 0)), (True, ('x', 3, 3)))
    """
    on_board = BoardSymmetry(g, problem.n, problem.columns)
    for cell in cells_in_order(problem):
        image = on_board.cell(*cell)
        if image != cell:
            yield ((False, ("x", *cell)), (True, ("x", *image)))
