"""Zhang and Zhang's orbit operators Inc, Del and Mov, and its orbit-based search.

Positions
---------
A queen stands on a cell ``(row, col)`` with integer coordinates (0-based here). A *new*
queen is placed between existing lines: its position is a **half-integer**. In 0-based
coordinates the gaps of an ``n``-board are ``-0.5, 0.5, ..., n-0.5``: gap ``k - 0.5`` lies
between lines ``k-1`` and ``k`` (``-0.5`` before the first line, ``n-0.5`` after the last).
Zhang and Zhang's paper is 1-based, so its gaps are ``0.5 .. N+0.5`` (add 1).

* ``Inc(row, col)`` inserts a row at gap ``row`` and a column at gap ``col`` and puts the new
  queen on their crossing: the queen of row ``r`` moves to row ``r+1`` if ``r > row`` and
  each column ``c > col`` becomes ``c+1``. An ``n``-placement becomes an ``(n+1)``-placement
  whose new queen stands on cell ``(row + 0.5, col + 0.5)``.
* ``Del(row, col)`` removes the queen on cell ``(row, col)`` with its row and column; the
  rows and columns after it close up. ``Del(row + 0.5, col + 0.5)`` undoes ``Inc(row, col)``
  and ``Inc(row - 0.5, col - 0.5)`` undoes ``Del(row, col)``.
* ``Mov(old_row, old_col, new_row, new_col)`` moves the queen of cell ``(old_row, old_col)``
  to the gaps ``(new_row, new_col)``; all four numbers are in the coordinates *before* the
  move, as Zhang and Zhang's paper requires. It is ``Del`` followed by ``Inc`` with the gaps shifted
  past the deleted line (a gap ``g > old`` becomes ``g - 1``) -- or, equally, ``Inc`` first
  and then ``Del`` of the shifted old cell.

None of them checks that the result is a solution: they act on permutations; the search
keeps the results that are solutions.

Reading Zhang and Zhang's notation
-------------------------------
Zhang and Zhang's paper writes ``Inc(Row, Col)`` where *Row* is a permutation element (a value
``p_i``) and *Col* a permutation subscript (an index ``i``), because it reads ``p_i`` as the
row of the queen in column ``i``. queenslab reads ``p[r]`` as the column of row ``r``, so the
document's *Row* is queenslab's ``col`` and its *Col* is queenslab's ``row``, both less one::

    document  Inc(Row, Col)                      == Inc(row=Col - 1, col=Row - 1)
    document  Del(Row, Col)                      == Del(row=Col - 1, col=Row - 1)
    document  Mov(OldRow, OldCol, NewRow, NewCol) == Mov(OldCol - 1, OldRow - 1, NewCol - 1, NewRow - 1)

The sequences themselves are the same in both readings: Zhang and Zhang's ``(2, 4, 1, 3)``
is queenslab's ``(1, 3, 0, 2)``. :meth:`Inc.from_document` and friends translate, and
:meth:`Inc.document` prints an operator back in Zhang and Zhang's notation.

The orbit-based search
----------------------
:func:`search_orbits` runs Zhang and Zhang's two steps for order ``n``:

1. apply ``Inc`` at every pair of gaps to every solution of order ``n - 1``; a result that
   is a solution with an orbit signature not seen before is the generator of a new orbit;
2. repeat, breadth-first or depth-first over the orbits found: apply ``Mov`` to every
   queen of every solution on the orbit (all its members under PO) towards every pair of
   gaps, keeping new orbits the same way, until every orbit found has been extended.

It returns every orbit found with the operation that produced it (the trajectory graph of
Zhang and Zhang's Fig. 2) and compares with the true number of orbits.

Examples
--------
>>> p = (1, 3, 0, 2)                               # document: (2, 4, 1, 3)
>>> Inc(row=1.5, col=1.5).apply(p)               # document Inc(2.5, 2.5): (2, 5, 3, 1, 4)
(1, 4, 2, 0, 3)
>>> Inc.from_document(2.5, 2.5)
Inc(row=1.5, col=1.5)
>>> Del(row=2, col=2).apply((1, 4, 2, 0, 3))     # document Del(3, 3)
(1, 3, 0, 2)
>>> op = Mov.from_document(3, 1, 2.5, 8.5)        # document's case study, orbit 6
>>> op, op.document()
(Mov(old_row=0, old_col=2, new_row=7.5, new_col=1.5), 'Mov(3, 1, 2.5, 8.5)')
>>> op.apply((2, 5, 3, 1, 7, 4, 6, 0))            # (3, 6, 4, 2, 8, 5, 7, 1) -> (6, 4, 2, 8, 5, 7, 1, 3)
(5, 3, 1, 7, 4, 6, 0, 2)
"""

from __future__ import annotations

import numbers
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .. import limits, validate
from ..d4 import as_permutation
from ..errors import InvalidPlacement, QueensError, TooLarge
from ..native import engine
from ..problem import MAX_N, Problem
from .orbits import canonical, fundamental_solutions, orbit
from .signature import signature

__all__ = [
    "Inc",
    "Del",
    "Mov",
    "inc",
    "delete",
    "mov",
    "gaps",
    "Discovery",
    "OrbitSearch",
    "search_orbits",
    "SEARCH_LIMIT",
    "STRATEGIES",
    "KEYS",
    "InvalidPosition",
]

#: The practical limit of :func:`search_orbits` (n = 13 takes about a minute).
ORBIT_SEARCH = limits.declare(
    "the orbit search",
    13,
    "n",
    "it tries every move of every queen of every solution: n = 13 takes about a minute and each further n "
    "several times longer",
)
SEARCH_LIMIT = ORBIT_SEARCH.largest
#: Orders in which step 2 visits the orbits.
STRATEGIES = ("bfs", "dfs")
#: How the search recognises an orbit it has seen: Zhang and Zhang's signature, or the canonical form.
KEYS = ("signature", "canonical")


class InvalidPosition(InvalidPlacement):
    """A position given to Inc/Del/Mov is not of the required kind or is off the board."""


# ----------------------------------------------------------------------------- positions


def _number(x, what: str, kind: str) -> Fraction:
    """``x`` as an exact Fraction; refuses text, booleans and non-numbers."""
    if isinstance(x, (bool, np.bool_, str, bytes)) or not (
        isinstance(x, numbers.Real) or hasattr(x, "as_integer_ratio")
    ):
        raise InvalidPosition(f"{what} must be {kind}, got {x!r}")
    try:
        return Fraction(x)
    except (TypeError, ValueError, OverflowError):
        raise InvalidPosition(f"{what} must be {kind}, got {x!r}") from None


def _half(x, what: str, n: int) -> Fraction:
    """Validate a gap: a half-integer in ``-0.5 .. n-0.5``."""
    f = _number(x, what, "a half-integer number such as 2.5")
    if f.denominator != 2:
        raise InvalidPosition(
            f"{what} = {x!r} is not a half-integer: a new queen goes between two lines, at k - 0.5 "
            f"(0-based: -0.5 before the first line, n - 0.5 after the last)"
        )
    if not -Fraction(1, 2) <= f <= n - Fraction(1, 2):
        raise InvalidPosition(
            f"{what} = {float(f):g} is off the board: the gaps of an {n}-board are "
            f"-0.5, 0.5, ..., {n - 0.5:g} (0-based)"
        )
    return f


def _whole(x, what: str, n: int) -> int:
    """Validate a line index: an integer in ``0 .. n-1``."""
    f = _number(x, what, "an integer (0-based)")
    if f.denominator != 1:
        raise InvalidPosition(
            f"{what} = {x!r} is not an integer: Del and Mov take the cell of an existing queen "
            "(integers); only the new position of Inc/Mov is a half-integer"
        )
    k = int(f)
    if not 0 <= k < n:
        raise InvalidPosition(f"{what} = {k} is off the board: rows and columns are 0..{n - 1} (0-based)")
    return k


def _fmt(x) -> str:
    return f"{float(x):g}" if Fraction(x).denominator != 1 else str(int(x))


def gaps(n: int) -> tuple[float, ...]:
    """The gaps of an ``n``-board, 0-based: ``(-0.5, 0.5, ..., n - 0.5)``.

    Examples
    --------
    >>> gaps(3)
    (-0.5, 0.5, 1.5, 2.5)
    """
    n = validate.whole_number(n, "n", minimum=0, maximum=MAX_N, why="the largest board of a Problem")
    validate.memory(40 * (n + 1), f"the gaps of an {n}-board")
    return tuple(k - 0.5 for k in range(n + 1))


# ----------------------------------------------------------------------------- operators


def _check_half_pair(row, col) -> tuple[Fraction, Fraction]:
    big = 10**18  # the range is checked when the operator is applied to a placement
    return _half(row, "row", big), _half(col, "col", big)


_Op = TypeVar("_Op", bound="_CellOperator")


class _CellOperator:
    """What Inc and Del share: an operator named by one (row, col) position, which Zhang
    and Zhang write ``Name(Row, Col)`` 1-based with Row the element and Col the subscript
    (the other way round from queenslab's (row, col))."""

    row: Any
    col: Any

    @classmethod
    def from_document(cls: type[_Op], Row: object, Col: object) -> _Op:
        """Zhang and Zhang's ``Name(Row, Col)`` (1-based; Row = element, Col = subscript)."""
        return cls(row=_number(Col, "Col", "a number") - 1, col=_number(Row, "Row", "a number") - 1)  # type: ignore[call-arg]

    def document(self) -> str:
        """This operator in Zhang and Zhang's notation, e.g. ``'Inc(7.5, 0.5)'``, ``'Del(3, 3)'``."""
        return f"{type(self).__name__}({_fmt(self.col + 1)}, {_fmt(self.row + 1)})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(row={_fmt(self.row)}, col={_fmt(self.col)})"


@dataclass(frozen=True, repr=False)
class Inc(_CellOperator):
    """Insert a queen at the gaps ``(row, col)`` (half-integers, 0-based).

    Parameters
    ----------
    row, col : float or Fraction
        Half-integers ``-0.5 .. n-0.5`` for an ``n``-placement.

    Raises
    ------
    InvalidPosition
        (a QueensError) when a position is not a half-integer, or, in :meth:`apply`, off the board.
    """

    row: float
    col: float

    if TYPE_CHECKING:
        # exact Fractions are accepted too; __post_init__ stores floats
        def __init__(self, row: float | Fraction, col: float | Fraction) -> None: ...

    def __post_init__(self):
        r, c = _check_half_pair(self.row, self.col)
        object.__setattr__(self, "row", float(r))
        object.__setattr__(self, "col", float(c))

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """The ``(n+1)``-placement; its new queen stands on ``(row + 0.5, col + 0.5)``.

        Raises
        ------
        InvalidPlacement
            If ``placement`` is not a 0-based permutation.
        InvalidPosition
            If a gap lies outside ``-0.5 .. n-0.5``.
        """
        p = as_permutation(placement)
        n = len(p)
        r = _half(self.row, "row", n)
        c = _half(self.col, "col", n)
        i, v = int(r + Fraction(1, 2)), int(c + Fraction(1, 2))
        q = [x + 1 if x >= v else x for x in p]
        q.insert(i, v)
        return tuple(q)

    __call__ = apply


@dataclass(frozen=True, repr=False)
class Del(_CellOperator):
    """Delete the queen on cell ``(row, col)`` (integers, 0-based) with its row and column.

    Raises
    ------
    InvalidPosition
        When a coordinate is not an integer, or, in :meth:`apply`, there is no queen on the cell.
    """

    row: int
    col: int

    if TYPE_CHECKING:
        # integral Fractions are accepted too; __post_init__ stores ints
        def __init__(self, row: int | Fraction, col: int | Fraction) -> None: ...

    def __post_init__(self):
        big = 10**18
        object.__setattr__(self, "row", _whole(self.row, "row", big))
        object.__setattr__(self, "col", _whole(self.col, "col", big))

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """The ``(n-1)``-placement without that queen.

        Raises
        ------
        InvalidPlacement
            If ``placement`` is not a 0-based permutation.
        InvalidPosition
            If the cell is off the board or holds no queen.
        """
        p = as_permutation(placement)
        n = len(p)
        r = _whole(self.row, "row", n)
        c = _whole(self.col, "col", n)
        if p[r] != c:
            raise InvalidPosition(
                f"there is no queen on cell ({r}, {c}) (0-based): the queen of row {r} stands in column {p[r]}"
            )
        return tuple(x - 1 if x > c else x for i, x in enumerate(p) if i != r)

    __call__ = apply


def _shift(gap: Fraction, old: int) -> Fraction:
    """A gap of the board before deleting line ``old``, on the board after it."""
    return gap - 1 if gap > old else gap


@dataclass(frozen=True)
class Mov:
    """Move the queen of cell ``(old_row, old_col)`` to the gaps ``(new_row, new_col)``.

    All four coordinates are 0-based and refer to the board *before* the move: the old
    cell is integral, the new position is a pair of half-integers ``-0.5 .. n-0.5``.
    Equivalent to ``Del(old_row, old_col)`` followed by ``Inc`` at the shifted gaps
    (:meth:`steps`).
    """

    old_row: int
    old_col: int
    new_row: float
    new_col: float

    if TYPE_CHECKING:
        # Fractions are accepted too; __post_init__ stores ints and floats
        def __init__(
            self, old_row: int | Fraction, old_col: int | Fraction, new_row: float | Fraction, new_col: float | Fraction
        ) -> None: ...

    def __post_init__(self):
        big = 10**18
        object.__setattr__(self, "old_row", _whole(self.old_row, "old_row", big))
        object.__setattr__(self, "old_col", _whole(self.old_col, "old_col", big))
        object.__setattr__(self, "new_row", float(_half(self.new_row, "new_row", big)))
        object.__setattr__(self, "new_col", float(_half(self.new_col, "new_col", big)))

    def steps(self) -> tuple[Del, Inc]:
        """``(Del, Inc)``: applying them in this order is the move.

        Examples
        --------
        >>> Mov(0, 2, 7.5, 1.5).steps()
        (Del(row=0, col=2), Inc(row=6.5, col=1.5))
        """
        nr = _shift(Fraction(self.new_row), self.old_row)
        nc = _shift(Fraction(self.new_col), self.old_col)
        return Del(self.old_row, self.old_col), Inc(nr, nc)

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """The placement after the move (same size).

        Raises
        ------
        InvalidPlacement
            If ``placement`` is not a 0-based permutation.
        InvalidPosition
            If the old cell holds no queen or a position is off the board.
        """
        p = as_permutation(placement)
        n = len(p)
        _half(self.new_row, "new_row", n)
        _half(self.new_col, "new_col", n)
        d, i = self.steps()
        return i.apply(d.apply(p))

    __call__ = apply

    @classmethod
    def from_document(cls, OldRow, OldCol, NewRow, NewCol) -> Mov:
        """Zhang and Zhang's ``Mov(OldRow, OldCol, NewRow, NewCol)`` (1-based; Row = element)."""
        f = {
            k: _number(v, k, "a number") - 1
            for k, v in (("OldRow", OldRow), ("OldCol", OldCol), ("NewRow", NewRow), ("NewCol", NewCol))
        }
        return cls(f["OldCol"], f["OldRow"], f["NewCol"], f["NewRow"])

    def document(self) -> str:
        """This operator in Zhang and Zhang's notation, e.g. ``'Mov(3, 1, 2.5, 8.5)'``."""
        return f"Mov({self.old_col + 1}, {self.old_row + 1}, {_fmt(self.new_col + 1)}, {_fmt(self.new_row + 1)})"

    def __repr__(self) -> str:
        return (
            f"Mov(old_row={self.old_row}, old_col={self.old_col}, "
            f"new_row={_fmt(self.new_row)}, new_col={_fmt(self.new_col)})"
        )


def inc(placement: Sequence[int], row, col) -> tuple[int, ...]:
    """``Inc(row, col).apply(placement)``: insert a queen at the half-integer gaps (0-based).

    Examples
    --------
    >>> inc((1, 3, 0, 2), -0.5, -0.5)      # document Inc(0.5, 0.5): (1, 3, 5, 2, 4)
    (0, 2, 4, 1, 3)
    """
    return Inc(row, col).apply(placement)


def delete(placement: Sequence[int], row, col) -> tuple[int, ...]:
    """``Del(row, col).apply(placement)``: remove the queen on the integral cell (0-based).

    Examples
    --------
    >>> delete((0, 2, 4, 1, 3), 0, 0)
    (1, 3, 0, 2)
    """
    return Del(row, col).apply(placement)


def mov(placement: Sequence[int], old_row, old_col, new_row, new_col) -> tuple[int, ...]:
    """``Mov(old_row, old_col, new_row, new_col).apply(placement)`` (0-based, before-move coordinates).

    Examples
    --------
    >>> mov((0, 2, 4, 1, 3), 0, 0, 2.5, 2.5)    # document Mov(1, 1, 3.5, 3.5): (2, 5, 3, 1, 4)
    (1, 4, 2, 0, 3)
    """
    return Mov(old_row, old_col, new_row, new_col).apply(placement)


# ----------------------------------------------------------------------------- vectorised candidates

_EYE_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _insert_tables(k: int) -> tuple[np.ndarray, np.ndarray]:
    """For inserting into length-k rows: source index ``src[i, j]`` and mask ``j == i``."""
    if k not in _EYE_CACHE:
        i = np.arange(k + 1)[:, None]
        j = np.arange(k + 1)[None, :]
        src = np.where(j < i, j, j - 1).clip(0, max(k - 1, 0))
        _EYE_CACHE[k] = (src, (j == i))
    return _EYE_CACHE[k]


def _inc_all(q: np.ndarray) -> np.ndarray:
    """Every Inc of the placements ``q`` (shape (..., k)).

    Returns shape (..., k+1, k+1, k+1): axis -3 the insertion index ``i`` (row gap ``i - 0.5``),
    axis -2 the value ``v`` (column gap ``v - 0.5``), axis -1 the new placement.
    """
    k = q.shape[-1]
    v = np.arange(k + 1)
    shifted = q[..., None, :] + (q[..., None, :] >= v[:, None])  # (..., V, k)
    src, eye = _insert_tables(k)
    if k == 0:
        out = np.broadcast_to(v[None, :, None], q.shape[:-1] + (1, 1, 1)).copy()
        return out
    cand = shifted[..., src]  # (..., V, I, J)
    cand = np.where(eye[None, :, :], v[:, None, None], cand)
    return np.swapaxes(cand, -3, -2)  # (..., I, V, J)


def _solution_mask(c: np.ndarray) -> np.ndarray:
    """Which rows of ``c`` (shape (..., n), permutations) have no two queens on a diagonal."""
    n = c.shape[-1]
    if n <= 1:
        return np.ones(c.shape[:-1], bool)
    idx = np.arange(n)
    ok = np.ones(c.shape[:-1], bool)
    for d in (c + idx, c - idx):
        s = np.sort(d, axis=-1)
        ok &= np.all(s[..., 1:] != s[..., :-1], axis=-1)
    return ok


# ----------------------------------------------------------------------------- the search


@dataclass(frozen=True)
class Discovery:
    """One orbit found by the search, and how.

    Attributes
    ----------
    index : int
        Order of discovery (0-based).
    generator : tuple of int
        The solution the operation produced: the orbit's generator.
    canonical : tuple of int
        The orbit's lexicographically least member.
    size : int
        Number of solutions on the orbit.
    step : int
        1 (Inc from order n-1) or 2 (Mov within order n).
    parent : int or None
        For step 2, the :attr:`index` of the orbit whose member was moved; None for step 1.
    source : tuple of int
        The solution the operation was applied to (of order n-1 in step 1).
    operation : Inc or Mov
    """

    index: int
    generator: tuple[int, ...]
    canonical: tuple[int, ...]
    size: int
    step: int
    parent: int | None
    source: tuple[int, ...]
    operation: object


@dataclass(frozen=True)
class OrbitSearch:
    """The result of :func:`search_orbits`.

    Attributes
    ----------
    n : int
    strategy : {"bfs", "dfs"}
    key : {"signature", "canonical"}
    discoveries : tuple of Discovery
        In order of discovery; the trajectory graph has an edge ``parent -> index`` for each
        step-2 discovery.
    fundamentals : tuple of tuple of int
        The canonical members of *all* orbits of order n (from the native engine), in
        lexicographic order: the truth the search is measured against.
    seconds : float
    step1_solutions : int
        Solutions of order n-1 that step 1 started from.
    """

    n: int
    strategy: str
    key: str
    discoveries: tuple[Discovery, ...]
    fundamentals: tuple[tuple[int, ...], ...]
    seconds: float = 0.0
    step1_solutions: int = 0
    _rank: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_rank", {c: i for i, c in enumerate(self.fundamentals)})

    @property
    def found(self) -> int:
        """Number of distinct orbits found."""
        return len({d.canonical for d in self.discoveries})

    @property
    def total(self) -> int:
        """The true number of orbits (OEIS A002562 for the standard problem)."""
        return len(self.fundamentals)

    @property
    def complete(self) -> bool:
        """Whether the search reached every orbit."""
        return self.found == self.total

    @property
    def step1(self) -> tuple[Discovery, ...]:
        """The orbits step 1 (Inc) found."""
        return tuple(d for d in self.discoveries if d.step == 1)

    def rank(self, placement: Sequence[int]) -> int:
        """0-based position of an orbit's canonical member among all orbits (lexicographic).

        Zhang and Zhang's paper numbers the orbits of its case study this way, 1-based.

        Raises
        ------
        QueensError
            If ``placement`` is not a solution of order :attr:`n`.
        """
        key = canonical(placement)
        if key not in self._rank:
            raise QueensError(
                f"{validate.brief(tuple(placement))} is not a solution of the {self.n}-queens problem, "
                "so it lies on none of the orbits of this search"
            )
        return self._rank[key]

    def missing(self) -> tuple[tuple[int, ...], ...]:
        """Canonical members of the orbits the search did not reach, in lexicographic order."""
        seen = {d.canonical for d in self.discoveries}
        return tuple(c for c in self.fundamentals if c not in seen)

    def edges(self) -> list[tuple[int | None, int, object]]:
        """The trajectory graph: ``(parent orbit rank or None, orbit rank, operation)``."""
        out = []
        for d in self.discoveries:
            parent = None if d.parent is None else self.rank(self.discoveries[d.parent].canonical)
            out.append((parent, self._rank[d.canonical], d.operation))
        return out


def _check_n(n) -> int:
    return validate.whole_number(n, "n")


def search_orbits(
    n: int,
    *,
    strategy: str = "bfs",
    key: str = "signature",
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> OrbitSearch:
    """Zhang and Zhang's orbit-based search for the orbits of the n-queens solutions.

    Step 1 applies ``Inc`` at every pair of gaps of every solution of order ``n - 1``;
    step 2 applies ``Mov`` to every queen of every solution on every orbit found, towards
    every pair of gaps, in breadth-first or depth-first order over the orbits, until no
    orbit found is left to extend. A result that is a solution whose key (the orbit
    signature) has not been seen is kept as the generator of a new orbit.

    Zhang and Zhang's paper enumerates the ``(n+1)**2`` before-move gap pairs of each queen; two of
    the gaps on each axis (either side of the moved queen) give the same board, so the
    search enumerates the ``n**2`` distinct results, recording each as a :class:`Mov` in
    before-move coordinates (the lower of the two equivalent gaps).

    Parameters
    ----------
    n : int
        Order (board size); the standard problem.
    strategy : {"bfs", "dfs"}, default "bfs"
        Breadth-first: extend the orbits in the order found. Depth-first: as soon as an
        orbit is found, extend it, then resume its parent. Both reach the same set of
        orbits (every orbit reachable by Mov steps from step 1's); the trajectory differs.
    key : {"signature", "canonical"}, default "signature"
        How an orbit is recognised: Zhang and Zhang's orbit signature
        (:func:`queenslab.symmetry.signature.signature`) or the canonical form.
    force : bool, default False
        Allow ``n > SEARCH_LIMIT``.
    progress : callable, optional
        Called as ``progress(extended, found)`` after each orbit is extended.

    Returns
    -------
    OrbitSearch

    Raises
    ------
    QueensError
        For a bad ``n``, ``strategy`` or ``key``; ``TooLarge`` for ``n > SEARCH_LIMIT``
        without ``force``.

    Examples
    --------
    >>> s = search_orbits(6)
    >>> s.found, s.total, s.complete
    (1, 1, True)
    >>> d = s.discoveries[0]
    >>> d.operation.document(), d.source, d.generator
    ('Inc(0.5, 3.5)', (0, 2, 4, 1, 3), (1, 3, 5, 0, 2, 4))
    """

    n = _check_n(n)
    validate.choice(strategy, STRATEGIES, "strategy")
    validate.choice(key, KEYS, "key")
    progress = validate.callback(progress)
    force = validate.flag(force, "force")
    limits.check(ORBIT_SEARCH, n, force)
    if n > engine.MAX_N:
        raise TooLarge(f"n = {n} is too large for the native engine (n <= {engine.MAX_N})")
    t0 = time.perf_counter()
    fundamentals = tuple(f.solution for f in fundamental_solutions(Problem(n), force=force))
    keyfn = signature if key == "signature" else canonical

    known: dict = {}  # key -> discovery index
    member_of: dict = {}  # placement -> discovery index (members of orbits found)
    discoveries: list[Discovery] = []

    def consider(sol: tuple[int, ...], step: int, parent, source, op) -> int | None:
        """Register ``sol``; returns the new discovery's index, or None if not new."""
        if sol in member_of:
            return None
        k = keyfn(sol)
        if k in known:
            return None
        members = orbit(sol)
        idx = len(discoveries)
        discoveries.append(Discovery(idx, sol, members[0], len(members), step, parent, source, op))
        known[k] = idx
        for m in members:
            member_of[m] = idx
        return idx

    # ---- step 1: Inc on every solution of order n-1
    if n == 1:
        prev = np.zeros((1, 0), np.int64)
    else:
        parts = list(engine.solution_batches(Problem(n - 1)))
        prev = np.concatenate(parts) if parts else np.zeros((0, n - 1), np.int64)
    step1_solutions = len(prev)
    for lo in range(0, len(prev), 256):
        chunk = prev[lo : lo + 256]
        cand = _inc_all(chunk)  # (m, I, V, n)
        mask = _solution_mask(cand)
        for m, i, v in zip(*np.nonzero(mask)):
            sol = tuple(int(x) for x in cand[m, i, v])
            if sol in member_of:
                continue
            src = tuple(int(x) for x in chunk[m])
            consider(sol, 1, None, src, Inc(i - 0.5, v - 0.5))

    # ---- step 2: Mov on every member of every orbit found, to closure
    def moves(idx: int):
        """(source, Mov, result) for every move of every member that gives a solution."""
        members = np.array(orbit(discoveries[idx].generator), dtype=np.int64)  # (m, n)
        if n < 2:
            return []
        rows = np.arange(n)
        keep = np.array([[j for j in range(n) if j != r] for r in rows])  # (n, n-1)
        deleted = members[:, keep]  # (m, r, n-1)
        cols = members[:, :, None]  # (m, r, 1): the moved queen's column
        deleted = deleted - (deleted > cols)
        cand = _inc_all(deleted)  # (m, r, I, V, n)
        mask = _solution_mask(cand)
        out = []
        for m, r, i, v in zip(*np.nonzero(mask)):
            c = int(members[m, r])
            gr = Fraction(2 * int(i) - 1, 2)
            gc = Fraction(2 * int(v) - 1, 2)
            gr = gr if gr < r else gr + 1  # back to before-move coordinates
            gc = gc if gc < c else gc + 1
            out.append(
                (tuple(int(x) for x in members[m]), Mov(int(r), c, gr, gc), tuple(int(x) for x in cand[m, r, i, v]))
            )
        return out

    extended = 0
    if strategy == "bfs":
        queue = deque(range(len(discoveries)))
        while queue:
            idx = queue.popleft()
            for src, op, sol in moves(idx):
                new = consider(sol, 2, idx, src, op)
                if new is not None:
                    queue.append(new)
            extended += 1
            if progress:
                progress(extended, len(discoveries))
    else:
        roots = list(range(len(discoveries)))
        for root in roots:
            stack = [(root, iter(moves(root)))]
            while stack:
                idx, it = stack[-1]
                for src, op, sol in it:
                    new = consider(sol, 2, idx, src, op)
                    if new is not None:
                        stack.append((new, iter(moves(new))))
                        break
                else:
                    stack.pop()
                    extended += 1
                    if progress:
                        progress(extended, len(discoveries))
    return OrbitSearch(
        n=n,
        strategy=strategy,
        key=key,
        discoveries=tuple(discoveries),
        fundamentals=fundamentals,
        seconds=time.perf_counter() - t0,
        step1_solutions=step1_solutions,
    )
