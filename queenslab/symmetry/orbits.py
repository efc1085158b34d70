"""Orbits of placements under the symmetry group: orbit, canonical form, stabiliser, Burnside.

The group acts on placements (permutations ``p``, the queen of row ``r`` in column
``p[r]``, 0-based). Following sympy.combinatorics' verbs:

* :func:`orbit` -- the distinct images of a placement, in lexicographic order;
* :func:`stabilizer` -- the elements that fix it;
* :func:`orbit_size` -- ``len(orbit) == |G| / |stabilizer|`` (orbit-stabiliser theorem);
* :func:`canonical` -- its lexicographically least image, the representative of the
  orbit that the native engine, the lex-leader constraints and :func:`fundamental_solutions`
  use;
* :func:`fundamental_solutions` -- every orbit of a problem's solutions, as its canonical
  representative with the orbit size, streamed from the native engine in lexicographic order;
* :func:`burnside` -- the number of orbits from the fixed-point counts (Burnside's lemma:
  the average number of solutions an element fixes), cross-checked against the native
  engine's own orbit count.

The group is the whole of PO (= D4) by default; pass a :class:`~queenslab.problem.Problem`
to use ``problem.symmetries()`` (the subgroup mapping the variant onto itself), or any
subgroup as a sequence of :class:`~queenslab.d4.D4Element`.

Examples
--------
>>> p = (1, 3, 0, 2)                       # 2 4 1 3, the first 4-queens solution
>>> orbit(p)
((1, 3, 0, 2), (2, 0, 3, 1))
>>> [g.po for g in stabilizer(p)]          # the identity and the three rotations
['po1', 'po6', 'po7', 'po8']
>>> canonical((2, 0, 3, 1)), orbit_size(p)
((1, 3, 0, 2), 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Union

from .. import limits, validate
from ..d4 import IDENTITY, PO, D4Element, as_permutation
from ..errors import QueensError, setting
from ..native import engine
from ..problem import Problem, as_problem

__all__ = [
    "orbit",
    "canonical",
    "is_canonical",
    "stabilizer",
    "orbit_size",
    "Fundamental",
    "MAX_BATCH",
    "fundamental_solutions",
    "BurnsideCount",
    "burnside",
]

Group = Union[None, Problem, Sequence[D4Element]]


def _group(group: Group) -> tuple[D4Element, ...]:
    """Resolve the ``group`` argument; check that a given sequence really is a group."""
    if group is None:
        return PO
    if isinstance(group, Problem):
        return group.symmetries()
    if isinstance(group, D4Element):
        raise QueensError("group must be a sequence of D4 elements (a subgroup), not one element; use [g]")
    if isinstance(group, (str, bytes)):
        raise QueensError(
            f"group must be None (all of PO), a Problem, or a sequence of D4Element, got {validate.brief(group)}"
        )
    try:
        elems = tuple(group)
    except TypeError:
        raise QueensError(
            f"group must be None (all of PO), a Problem, or a sequence of D4Element, got {validate.brief(group)}"
        ) from None
    if not elems or not all(isinstance(g, D4Element) for g in elems):
        raise QueensError("group must be a non-empty sequence of D4Element (a subgroup of PO)")
    members = set(elems)
    if IDENTITY not in members or any(g * h not in members for g in members for h in members):
        raise QueensError(
            "the given elements do not form a group (it must contain the identity and be closed "
            "under composition): " + ", ".join(sorted(g.po for g in members))
        )
    return elems


def orbit(placement: Sequence[int], group: Group = None) -> tuple[tuple[int, ...], ...]:
    """The orbit of a placement: its distinct images under the group, sorted.

    Parameters
    ----------
    placement : sequence of int
        A 0-based permutation (it need not be a solution).
    group : None, Problem or sequence of D4Element
        None for all of PO; a Problem for ``problem.symmetries()``; or a subgroup.

    Returns
    -------
    tuple of tuple of int
        The members in lexicographic order; the first is :func:`canonical`.

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a permutation.
    QueensError
        If ``group`` is not a group.

    Examples
    --------
    >>> len(orbit((0, 4, 7, 5, 2, 6, 1, 3)))      # 1 5 8 6 3 7 2 4
    8
    >>> orbit((0, 4, 7, 5, 2, 6, 1, 3), group=Problem(8, fixed=[(0, 0)]))   # {po1, po2}
    ((0, 4, 7, 5, 2, 6, 1, 3), (0, 6, 4, 7, 1, 3, 5, 2))
    """
    p = as_permutation(placement)
    return tuple(sorted({g.apply(p) for g in _group(group)}))


def canonical(placement: Sequence[int], group: Group = None) -> tuple[int, ...]:
    """The lexicographically least member of the placement's orbit.

    Examples
    --------
    >>> canonical((7, 1, 3, 0, 6, 4, 2, 5))     # Zhang and Zhang: 8 2 4 1 7 5 3 6 is on orbit 1
    (0, 4, 7, 5, 2, 6, 1, 3)
    """
    p = as_permutation(placement)
    return min(g.apply(p) for g in _group(group))


def is_canonical(placement: Sequence[int], group: Group = None) -> bool:
    """Whether the placement is the least member of its orbit.

    Examples
    --------
    >>> is_canonical((1, 3, 0, 2)), is_canonical((2, 0, 3, 1))
    (True, False)
    """
    p = as_permutation(placement)
    return p == canonical(p, group)


def stabilizer(placement: Sequence[int], group: Group = None) -> tuple[D4Element, ...]:
    """The elements of the group that map the placement onto itself, in the group's order.

    Examples
    --------
    >>> [g.name for g in stabilizer((0, 4, 7, 5, 2, 6, 1, 3))]
    ['identity']
    >>> [g.po for g in stabilizer((1, 3, 5, 0, 2, 4))]    # 2 4 6 1 3 5: half-turn symmetric
    ['po1', 'po7']
    """
    p = as_permutation(placement)
    return tuple(g for g in _group(group) if g.apply(p) == p)


def orbit_size(placement: Sequence[int], group: Group = None) -> int:
    """The number of distinct images, ``|G| / |stabilizer|``.

    Examples
    --------
    >>> orbit_size((1, 3, 5, 0, 2, 4))       # the single 6-queens orbit
    4
    """
    return len(orbit(placement, group))


class Fundamental(NamedTuple):
    """One orbit of solutions: its canonical (lexicographically least) member and size."""

    solution: tuple[int, ...]
    size: int


#: Largest ``batch`` of :func:`fundamental_solutions` (orbits fetched from the engine at once).
MAX_BATCH = 2**20


def fundamental_solutions(
    problem: Problem, *, limit: int | None = None, batch: int = 4096, force: bool = False
) -> Iterator[Fundamental]:
    """Stream one representative per orbit of solutions, with the orbit's size.

    The orbits are those of ``problem.symmetries()``; the representative is the
    lexicographically least member, and they come in lexicographic order. The sizes sum
    to the number of solutions; their count is the "unique" count. The work is done by
    the native engine (:func:`queenslab.native.engine.fundamental_batches`).

    Parameters
    ----------
    problem : Problem
    limit : int, optional
        Stop after this many orbits.
    batch : int, default 4096
        Orbits per batch fetched from the engine, ``1 .. MAX_BATCH``.
    force : bool, default False
        Search even for n beyond the practical limit of the search for the first
        solution in lexicographic order (``engine.FIRST_SOLUTION``, n <= 33): the first
        orbit's representative is the first solution.

    Yields
    ------
    Fundamental
        ``(solution, size)``: a 0-based tuple and an int.

    Raises
    ------
    QueensError
        For something that is not a Problem, or a bad ``limit``/``batch`` (raised by the
        call, before any iteration).
    TooLarge
        For ``n`` beyond the bitboard engine, or beyond ``engine.FIRST_SOLUTION``
        without ``force``.

    Examples
    --------
    >>> [tuple(f) for f in fundamental_solutions(Problem(6))]
    [((1, 3, 5, 0, 2, 4), 4)]
    >>> next(fundamental_solutions(Problem(8)))
    Fundamental(solution=(0, 4, 7, 5, 2, 6, 1, 3), size=8)
    """
    problem = as_problem(problem)
    engine.check_problem(problem)
    limit = validate.optional_whole_number(limit, "limit")
    batch = validate.whole_number(batch, "batch", maximum=MAX_BATCH)
    engine.check_first_solution(problem, force)
    if limit is None:  # every orbit: the whole tree
        limits.check(
            engine.COUNT,
            problem.n,
            force,
            request=f"listing every orbit for n = {problem.n}",
            hint=f"give a limit, {setting('limit=K', '--limit K')}, for the first orbits",
        )
    return _fundamentals(problem, limit, batch)


def _fundamentals(problem: Problem, limit: int | None, batch: int) -> Iterator[Fundamental]:
    for sols, sizes in engine.fundamental_batches(problem, batch=batch, limit=limit):
        for s, k in zip(sols.tolist(), sizes.tolist()):
            yield Fundamental(tuple(s), int(k))


@dataclass(frozen=True)
class BurnsideCount:
    """Burnside's lemma applied to a problem.

    Attributes
    ----------
    elements : tuple of D4Element
        ``problem.symmetries()``, identity first.
    fixed : tuple of int
        ``fixed[k]`` is the number of solutions ``elements[k]`` maps onto themselves
        (``fixed[0]`` is the number of solutions).
    orbits : int
        ``sum(fixed) / len(elements)``.
    native_unique : int or None
        The native engine's orbit count (canonical forms counted during the search), when
        the cross-check was run.
    """

    elements: tuple[D4Element, ...]
    fixed: tuple[int, ...]
    orbits: int
    native_unique: int | None = None

    @property
    def solutions(self) -> int:
        """The number of solutions (the identity fixes all of them)."""
        return self.fixed[0]

    @property
    def agrees(self) -> bool | None:
        """Whether Burnside's count equals the native orbit count (None if not checked)."""
        return None if self.native_unique is None else self.orbits == self.native_unique

    def by_name(self) -> dict[str, int]:
        """``{'po1': fixed, ...}`` in the order of :attr:`elements`."""
        return {g.po: k for g, k in zip(self.elements, self.fixed)}


def burnside(problem: Problem, *, check: bool = True, threads: int | None = None, force: bool = False) -> BurnsideCount:
    """Count the orbits of ``problem``'s solutions by Burnside's lemma.

    The number of orbits is the average, over the group ``problem.symmetries()``, of the
    number of solutions each element fixes. The fixed-point counts come from the native
    engine (:func:`queenslab.native.engine.fixed_point_counts`).

    Parameters
    ----------
    problem : Problem
    check : bool, default True
        Also count the orbits natively (canonical forms, an independent code path) and
        store it in ``native_unique``.
    threads : int, optional
        Threads for the native engine.
    force : bool, default False
        Allow ``n`` above the engine's practical limit.

    Returns
    -------
    BurnsideCount

    Raises
    ------
    QueensError
        For bad arguments; ``TooLarge`` for ``n`` above the practical limit without ``force``.
    RuntimeError
        If the fixed-point counts do not average to an integer (an internal error).

    Examples
    --------
    >>> b = burnside(Problem(8))
    >>> b.by_name()
    {'po1': 92, 'po4': 0, 'po5': 0, 'po7': 4, 'po2': 0, 'po6': 0, 'po8': 0, 'po3': 0}
    >>> b.orbits, b.native_unique, b.agrees
    (12, 12, True)
    """
    problem = as_problem(problem)
    check = validate.flag(check, "check")
    force = validate.flag(force, "force")
    counts = engine.fixed_point_counts(problem, threads=threads, force=force)
    elements = problem.symmetries()
    total = sum(counts)
    if total % len(elements):
        raise RuntimeError(f"fixed-point counts {counts} do not average to an integer over {len(elements)} elements")
    native = None
    if check:
        native = engine.count(problem, unique=True, threads=threads, force=force)
    return BurnsideCount(tuple(elements), tuple(int(k) for k in counts), total // len(elements), native)
