"""The :class:`Problem`: one n-queens variant, immutable and validated.

A problem is the board size ``n`` and a list of constraints
(:mod:`queenslab.constraints`, one object per kind). The keywords are shorthands for
the built-in kinds:

* ``toroidal`` -- :class:`~queenslab.constraints.Torus`: every move wraps around the edges;
* ``knight`` -- superqueens: a queen also attacks like a knight (``Leaper(1, 2)``);
* ``leapers`` -- other jumping moves every queen has, as offsets ``(a, b)`` (a camel
  ``(1, 3)``, a zebra ``(2, 3)``, ...): each means the eight jumps ``(+-a, +-b), (+-b, +-a)``;
* ``blocked`` -- :class:`~queenslab.constraints.Blocked` cells on which no queen may stand;
* ``fixed`` -- :class:`~queenslab.constraints.Fixed` queens placed in advance (completion);
* ``regions`` -- :class:`Region` bounds on the number of queens in a set of cells ("no
  queen on the main diagonal", "exactly two queens in this quadrant");

and ``constraints=[...]`` takes any :class:`~queenslab.constraints.Constraint`, those of
a kind defined outside the package included. The problem's symmetry group is derived
from its constraints' images (:meth:`Problem.symmetries`).

The board is ``n x n`` with ``n`` queens unless ``columns`` (an ``n x columns``
rectangle) or ``queens`` (fewer queens than rows: rows may stay empty) say otherwise --
the k-queens problems of Kotesovec's *Non-attacking chess pieces* and of Chaiken, Hanusa
and Zaslavsky's *A q-queens problem*. A placement is then the column of each row's queen,
-1 for an empty row; the group is the board's own (D4 on a square, the identity,
rotate-180 and the two mirrors on a rectangle) intersected with the constraints'.

Cells are 0-based ``(row, column)`` tuples in the Python API. Constraints that
contradict each other (two fixed queens attacking each other, a fixed queen on a blocked
cell, bounds no placement meets) make a valid problem with no solutions, as in CP and SAT
tools; :attr:`Problem.contradiction` says why when the reason can be read off the
constraints. Every backend accepts every Problem or raises
:class:`~queenslab.errors.UnsupportedProblem` naming the constraint it cannot use.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from . import validate
from .constraints import (
    KIND_FIELDS,
    KINDS,
    Blocked,
    Constraint,
    Fixed,
    Leaper,
    Region,
    Torus,
    leap_offsets,
    leaper_name,
    leaps,
)
from .constraints.base import board_cells, cell_pair, items_of, line_attack
from .constraints.leaper import LEAPER_NAMES, MAX_LEAP, offsets_of
from .constraints.region import regions_of
from .d4 import D4, BoardSymmetry, D4Element
from .errors import InvalidPlacement, InvalidProblem, QueensError

__all__ = [
    "Problem",
    "Region",
    "Cell",
    "EMPTY",
    "attacks",
    "leaps",
    "leap_offsets",
    "leaper_name",
    "FORMAT_VERSION",
    "MAX_N",
]

#: The largest board of a Problem: the largest any method of queenslab handles (the
#: constructive heuristics index rows with 32-bit counters).
MAX_N = 2**31 - 1

#: Version of the plain form written by :meth:`Problem.to_dict`.
FORMAT_VERSION = 1
#: The fields of that form, in order (besides ``version`` and ``base``).
_FIELDS = ("n", "columns", "queens", *(key for kind in KIND_FIELDS for key in kind.FIELDS))
#: The fields a fingerprint covers even when empty (the later ones only when used, so
#: that the fingerprints of problems without them never change).
_FINGERPRINT_FIELDS = ("n", "toroidal", "knight", "blocked", "fixed")
#: The board's fields: written (and fingerprinted) only when not the default, n.
_BOARD_FIELDS = ("columns", "queens")
#: The value of an empty row in a placement of a board with fewer queens than rows.
EMPTY = -1

Cell = tuple[int, int]
#: Re-exported for the names this module always had.
_ = (LEAPER_NAMES, MAX_LEAP)


def _flag(value: object, what: str) -> bool:
    try:
        return validate.flag(value, what)
    except QueensError as e:
        raise InvalidProblem(str(e)) from None


def attacks(
    n: int, a: Cell, b: Cell, *, toroidal: bool = False, knight: bool = False, leapers: Iterable[tuple[int, int]] = ()
) -> str | None:
    """Say how a queen on cell ``a`` attacks cell ``b``, or return None.

    This is the one definition of the variants' move rules; the compiled form of a
    problem (:mod:`queenslab.compiled`) derives every backend's tables from it.

    Parameters
    ----------
    n : int
        Board size.
    a, b : tuple of int
        Distinct 0-based cells.
    toroidal, knight : bool
        The variant's move rules.
    leapers : iterable of (int, int), optional
        Other leaper moves, as offsets ``(a, b)``.

    Returns
    -------
    str or None
        ``"row"``, ``"column"``, ``"diagonal"`` (down-right), ``"anti-diagonal"``
        (down-left), the leaper's name (``"knight"``, ``"camel"``, ... see
        :func:`leaper_name`), or None when ``a`` does not attack ``b``.

    Examples
    --------
    >>> attacks(8, (0, 0), (3, 3))
    'diagonal'
    >>> attacks(5, (0, 0), (1, 4)) is None, attacks(5, (0, 0), (1, 4), toroidal=True)
    (True, 'anti-diagonal')

    Raises
    ------
    InvalidPlacement
        If ``n`` is not a board size, ``a`` or ``b`` is not a cell of the board, or they
        are the same cell.
    """
    n = validate.whole_number(n, "n", error=InvalidPlacement)
    a, b = _board_cell(a, n, "a"), _board_cell(b, n, "b")
    if a == b:
        raise InvalidPlacement(f"a and b are the same cell {a}: attacks() compares two distinct cells")
    try:
        moves = leaps(knight, leapers)
    except QueensError as e:
        raise InvalidPlacement(str(e)) from None
    return line_attack(n, a, b, validate.flag(toroidal, "toroidal"), moves, leaper_name)


def _board_cell(cell: object, n: int, what: str) -> Cell:
    r, c = cell_pair(cell, what, InvalidPlacement)
    if not (0 <= r < n and 0 <= c < n):
        raise InvalidPlacement(
            f"{what} = ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1} (0-based)"
        )
    return r, c


def _is_cell(x: object, n: int) -> bool:
    return (
        type(x) is tuple and len(x) == 2 and type(x[0]) is int and type(x[1]) is int and 0 <= x[0] < n and 0 <= x[1] < n
    )


def _first_attacking_pair(problem: Problem, cells: tuple[Cell, ...]) -> tuple[Cell, Cell] | None:
    """The first pair ``(cells[i], cells[j])``, ``i < j``, of cells attacking each other under
    ``problem``'s move rules, or None; in O(k log k) for k cells (lines are grouped, leaps
    looked up), so that a problem with many fixed queens is checked quickly."""
    n, torus = problem.n, problem.toroidal
    best: tuple[int, int] | None = None
    lines: dict[tuple[int, int], int] = {}
    for j, (r, c) in enumerate(cells):
        keys = (
            (0, r),
            (1, c),
            (2, (r - c) % n if torus else r - c),
            (3, (r + c) % n if torus else r + c),
        )
        for key in keys:
            i = lines.setdefault(key, j)
            if i != j and (best is None or (i, j) < best):
                best = (i, j)
    if problem.leaps:
        where = {cell: j for j, cell in enumerate(cells)}
        for i, (r, c) in enumerate(cells):
            for dr, dc in leap_offsets(problem.leaps):
                r2, c2 = r + dr, c + dc
                if torus:
                    r2, c2 = r2 % n, c2 % n
                j = where.get((r2, c2), -1)
                if j > i and (best is None or (i, j) < best):
                    best = (i, j)
    return None if best is None else (cells[best[0]], cells[best[1]])


@dataclass(frozen=True)
class Problem:
    """An n-queens problem: board size and variant constraints.

    Parameters
    ----------
    n : int
        Board size, ``n >= 1``.
    toroidal : bool, default False
        Moves wrap around the board edges (diagonals and knight moves).
    knight : bool, default False
        Superqueens: each queen also moves like a knight.
    blocked : iterable of (row, column), default ()
        0-based cells that may hold no queen.
    fixed : iterable of (row, column), default ()
        0-based cells holding a queen in every solution (n-queens completion).
    leapers : iterable of (a, b), default ()
        Other leaper moves every queen has: ``(1, 3)`` a camel, ``(2, 3)`` a zebra, ...
        each meaning the eight jumps ``(+-a, +-b), (+-b, +-a)``, wrapping on a torus.
        The knight ``(1, 2)`` is stored as ``knight=True``, its familiar spelling.
    regions : iterable of Region, default ()
        Bounds on the number of queens on sets of cells (Region objects, or dicts of
        their fields); stored sorted, without repeats and without regions that bound
        nothing.
    constraints : iterable of Constraint, default ()
        Constraints as objects (:mod:`queenslab.constraints`), of any kind: the
        built-in kinds are folded into the fields above (``Torus()`` is
        ``toroidal=True``, ...), a kind defined outside the package is kept as given.
        After construction :attr:`constraints` holds every constraint of the problem,
        the built-in ones first, in the order of :data:`queenslab.constraints.KINDS`.
    columns : int, default n
        The board's columns: ``n x columns``. A rectangle has no torus here, and its
        symmetries are the four that keep its shape.
    queens : int, default n
        How many queens: with fewer than ``n`` rows may stay empty (a placement has -1
        there). More queens than rows or columns make a problem without solutions.

    Raises
    ------
    InvalidProblem
        If ``n < 1``, a cell is off the board, a leaper offset is not a jump (``(0, b)``
        or ``(a, a)``), or a region is malformed (no cells, ``at_least > at_most``, more
        queens than cells); ``columns < 1``, ``queens < 0``, a torus on a rectangle, or a
        kind defined outside the package on a board other than n queens on n x n.
        Constraints that contradict each other make a problem with no solutions (see
        :attr:`contradiction`), not an error.

    Examples
    --------
    >>> p = Problem(8, fixed=[(0, 0)])
    >>> p.fixed
    ((0, 0),)
    >>> len(Problem(8).symmetries()), len(p.symmetries())
    (8, 2)
    >>> Problem(8, leapers=[(2, 1)]) == Problem(8, knight=True)
    True
    >>> from queenslab.constraints import Torus, Blocked
    >>> Problem(5, constraints=[Torus(), Blocked([(0, 0)])]) == Problem(5, toroidal=True, blocked=[(0, 0)])
    True
    >>> p = Problem(4, columns=6, queens=3)
    >>> p.describe(), [g.name for g in p.symmetries()]
    ('3 queens on 4x6', ['identity', 'reflect-vertical-axis', 'reflect-horizontal-axis', 'rotate-180'])
    """

    n: int
    toroidal: bool = False
    knight: bool = False
    blocked: tuple[Cell, ...] = field(default=())
    fixed: tuple[Cell, ...] = field(default=())
    leapers: tuple[tuple[int, int], ...] = field(default=())
    regions: tuple[Region, ...] = field(default=())
    constraints: tuple[Constraint, ...] = field(default=(), repr=False)
    columns: int = field(default=cast(int, None))
    queens: int = field(default=cast(int, None))

    if TYPE_CHECKING:
        # The constructor takes any iterable of cells; __post_init__ stores them as a
        # sorted tuple without repeats, which is what the fields above declare.
        def __init__(
            self,
            n: int,
            toroidal: bool = False,
            knight: bool = False,
            blocked: Iterable[Cell] | None = (),
            fixed: Iterable[Cell] | None = (),
            leapers: Iterable[tuple[int, int]] | None = (),
            regions: Iterable[Region | dict[str, Any]] | None = (),
            constraints: Iterable[Constraint] = (),
            columns: int | None = None,
            queens: int | None = None,
        ) -> None: ...

    def __post_init__(self) -> None:
        n = validate.whole_number(
            self.n, "n", maximum=MAX_N, error=InvalidProblem, why="the largest board any method of queenslab handles"
        )
        for flag in ("toroidal", "knight"):
            object.__setattr__(self, flag, _flag(getattr(self, flag), flag))
        object.__setattr__(self, "n", n)
        m = (
            n
            if self.columns is None
            else validate.whole_number(
                self.columns, "columns", maximum=MAX_N, error=InvalidProblem, why="the largest board of a Problem"
            )
        )
        k = (
            n
            if self.queens is None
            else validate.whole_number(
                self.queens,
                "queens",
                minimum=0,
                maximum=MAX_N,
                error=InvalidProblem,
                why="the largest board of a Problem",
            )
        )
        object.__setattr__(self, "columns", m)
        object.__setattr__(self, "queens", k)
        given = _given(self.constraints)
        own = [c for c in given if type(c) not in KINDS]
        if own and not self.is_plain_board:
            raise InvalidProblem(
                f"the {own[0].kind} constraint is a kind of your own: such kinds go on a board of n queens on n x n "
                f"(its holds() and image() are checked on permutations), not on {k} queens on {n}x{m}"
            )
        blocked = _merged_cells(self.blocked, given, Blocked, n, m)
        fixed = _merged_cells(self.fixed, given, Fixed, n, m)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "fixed", fixed)
        if any(isinstance(c, Torus) for c in given):
            object.__setattr__(self, "toroidal", True)
        if self.toroidal and m != n:
            raise InvalidProblem(
                f"a torus here is square: the {n}x{m} board cannot be toroidal (its broken diagonals would not "
                "close); drop toroidal, or give columns = n"
            )
        leapers = offsets_of(
            [
                *(() if self.leapers is None else offsets_of(self.leapers)),
                *(c.offset for c in given if isinstance(c, Leaper)),
            ]
        )
        if (1, 2) in leapers:  # the knight has its own, familiar spelling
            object.__setattr__(self, "knight", True)
            leapers = tuple(x for x in leapers if x != (1, 2))
        object.__setattr__(self, "leapers", leapers)
        regions = regions_of(self.regions, n, m)
        if any(isinstance(c, Region) for c in given):
            regions = regions_of([*regions, *(c for c in given if isinstance(c, Region))], n, m)
        object.__setattr__(self, "regions", regions)
        built: list[Constraint] = [Torus()] if self.toroidal else []
        built += [Leaper(a, b, self.toroidal) for a, b in self.leaps]
        built += [Blocked(blocked)] if blocked else []
        built += [Fixed(fixed)] if fixed else []
        built += list(regions)
        for c in own:
            checked = c.check(n)
            if not isinstance(checked, Constraint):
                raise InvalidProblem(
                    f"{type(c).__name__}.check(n) must return a Constraint, got {validate.brief(checked)}"
                )
            if checked not in built:
                built.append(checked)
        object.__setattr__(self, "constraints", tuple(built))

    @functools.cached_property
    def contradiction(self) -> str | None:
        """Why the constraints contradict each other, or None when no reason can be read
        off them (the problem may still have no solutions).

        A problem with a contradiction has no solutions; every backend counts 0.

        Examples
        --------
        >>> Problem(5, fixed=[(0, 0), (2, 2)]).contradiction
        'the fixed queens at (1,1) and (3,3) attack each other (diagonal)'
        >>> Problem(8).contradiction is None
        True
        """
        n, m, k = self.n, self.columns, self.queens
        if k > min(n, m):
            return (
                f"{k} queens need {k} rows and {k} columns (one queen on each), but the {n}x{m} board has "
                f"{min(n, m)} {'rows' if n <= m else 'columns'}"
            )
        both = set(self.blocked) & set(self.fixed)
        if both:
            r, c = min(both)
            return f"the fixed queen at ({r + 1},{c + 1}) stands on a blocked cell"
        pair = _first_attacking_pair(self, self.fixed)
        if pair is not None:
            (r1, c1), (r2, c2) = pair
            return f"the fixed queens at ({r1 + 1},{c1 + 1}) and ({r2 + 1},{c2 + 1}) attack each other ({self.attack(*pair)})"
        if len(self.fixed) > k:
            return f"{len(self.fixed)} fixed queens stand on a board of {k} queens"
        fixed = set(self.fixed)
        for i, region in enumerate(self.regions):
            inside = sum(cell in fixed for cell in region.cells)
            if inside > region.upper:
                return f"region {i + 1} allows {region.describe()}, but {inside} fixed queens stand on it"
            # one queen per row and per column: a region holds at most that many
            reach = min(len({r for r, _ in region.cells}), len({c for _, c in region.cells}))
            if region.at_least > reach:
                return (
                    f"region {i + 1} needs {region.describe()}, but its cells lie in only {reach} "
                    "rows or columns, each holding one queen"
                )
        return None

    # ------------------------------------------------------------------ views
    @property
    def is_standard(self) -> bool:
        """True for the plain n-queens problem (no constraint, n queens on n x n)."""
        return not self.constraints and self.is_plain_board

    @property
    def is_plain_board(self) -> bool:
        """True for n queens on an n x n board (whatever the constraints), the board of
        every method; False for a rectangle or fewer queens than rows."""
        return self.columns == self.n and self.queens == self.n

    @property
    def is_square(self) -> bool:
        """True when the board has as many columns as rows."""
        return self.columns == self.n

    @property
    def kinds(self) -> tuple[type[Constraint], ...]:
        """The kinds of the problem's constraints, each once, in the order of :attr:`constraints`."""
        return tuple(dict.fromkeys(type(c) for c in self.constraints))

    @property
    def own_constraints(self) -> tuple[Constraint, ...]:
        """The constraints of kinds defined outside the package (no keyword shorthand)."""
        return tuple(c for c in self.constraints if type(c) not in KINDS)

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in ("n", "toroidal", "knight", "blocked", "fixed", "leapers", "regions")
        )
        own = self.own_constraints
        board = "".join(f", {name}={getattr(self, name)}" for name in _BOARD_FIELDS if getattr(self, name) != self.n)
        return f"Problem({fields}{board}{f', constraints={own!r}' if own else ''})"

    def symmetries(self) -> tuple[D4Element, ...]:
        """The subgroup of D4 that maps this problem onto itself, identity first.

        The subgroup is derived from the constraints, never declared: it is the set of
        elements ``g`` for which ``{c.image(g) for c in constraints}`` is the set of
        constraints (the torus and leapers are invariant under all of D4; blocked cells,
        fixed queens and each region, as a set of cells with its bounds, are mapped).

        Returns
        -------
        tuple of D4Element

        Examples
        --------
        >>> diagonal = Region([(i, i) for i in range(8)], at_most=0)
        >>> [g.name for g in Problem(8, regions=[diagonal]).symmetries()]
        ['identity', 'rotate-180', 'reflect-main-diagonal', 'reflect-anti-diagonal']
        """
        return self._symmetries

    @functools.cached_property
    def _symmetries(self) -> tuple[D4Element, ...]:
        own = set(self.constraints)
        out = []
        for g in D4:
            if g.inv and not self.is_square:
                continue  # a transposition maps a rectangle onto another board
            on_board = BoardSymmetry(g, self.n, self.columns)
            images = set()
            for c in self.constraints:
                image = c.image(on_board)
                if not isinstance(image, Constraint):
                    raise InvalidProblem(
                        f"{type(c).__name__}.image() must return a Constraint, got {validate.brief(image)}"
                    )
                images.add(image)
                if type(c) not in KINDS:
                    _check_image(c, image, on_board)
            if images == own:
                out.append(g)
        return tuple(out)

    @property
    def leaps(self) -> tuple[tuple[int, int], ...]:
        """The leaper moves (base offsets ``(a, b)``) every queen has besides its lines:
        the knight's ``(1, 2)`` when ``knight``, and the ``leapers``."""
        return leaps(self.knight, self.leapers)

    def attack(self, a: Cell, b: Cell) -> str | None:
        """How a queen on ``a`` attacks cell ``b`` under this problem's move rules, or None.

        Examples
        --------
        >>> Problem(8, knight=True).attack((0, 0), (1, 2))
        'knight'

        Raises
        ------
        InvalidPlacement
            If ``a`` or ``b`` is not a cell of the board, or they are the same cell.
        """
        n, m = self.n, self.columns
        if m != n:
            ca, cb = cell_pair(a, "a", InvalidPlacement), cell_pair(b, "b", InvalidPlacement)
            for what, (r, c) in (("a", ca), ("b", cb)):
                if not (0 <= r < n and 0 <= c < m):
                    raise InvalidPlacement(f"{what} = ({r}, {c}) is off the {n}x{m} board")
            if ca == cb:
                raise InvalidPlacement(f"a and b are the same cell {ca}: attack() compares two distinct cells")
            return line_attack(n, ca, cb, False, self.leaps, leaper_name)
        if not (_is_cell(a, n) and _is_cell(b, n)) or a == b:
            return attacks(n, a, b, toroidal=self.toroidal, leapers=self.leaps)  # checks, or raises
        return line_attack(n, a, b, self.toroidal, self.leaps, leaper_name)

    def to_dict(self, *, one_based: bool = False) -> dict[str, Any]:
        """The problem as a plain, JSON-ready dict that :meth:`from_dict` reads back.

        Parameters
        ----------
        one_based : bool, default False
            Write cells 1-based (as the command line and JSON output show them); the
            dict records it under ``"base"``, so :meth:`from_dict` reads either form.

        Returns
        -------
        dict
            ``version`` (the format's version), ``base`` (0 or 1), ``n``, ``columns`` and
            ``queens`` (only when they are not ``n``), ``toroidal``,
            ``knight``, ``blocked`` and ``fixed`` (lists of ``[row, column]``),
            ``leapers`` (a list of ``[a, b]``) and ``regions`` (a list of
            ``{"cells": [[row, column], ...], "at_least": k, "at_most": k or null}``).

        Examples
        --------
        >>> d = Problem(8, blocked=[(0, 1)]).to_dict(one_based=True)
        >>> d["blocked"], d["base"]
        ([[1, 2]], 1)
        >>> Problem.from_dict(d) == Problem(8, blocked=[(0, 1)])
        True
        """
        k = 1 if one_based else 0
        out: dict[str, Any] = {"version": FORMAT_VERSION, "base": k, "n": self.n}
        out.update({name: getattr(self, name) for name in _BOARD_FIELDS if getattr(self, name) != self.n})
        for kind in KINDS:  # each kind writes its own keys
            out.update(kind.to_fields([c for c in self.constraints if type(c) is kind], k))
        for c in self.own_constraints:
            fields = type(c).to_fields([c], k)  # raises unless the kind has a JSON form of its own
            if type(c) in KIND_FIELDS:  # the package's kinds outside the compiled form (holes)
                out.update(fields)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Problem:
        """Rebuild a problem from :meth:`to_dict`'s form (validated like the constructor).

        Missing fields take their defaults (``n`` is required); ``base`` says whether
        cells are 0- or 1-based (default 0).

        Raises
        ------
        InvalidProblem
            For a newer format version, an unknown key, or any invalid field.

        Examples
        --------
        >>> Problem.from_dict({"n": 6, "toroidal": True})
        Problem(n=6, toroidal=True, knight=False, blocked=(), fixed=(), leapers=(), regions=())
        """
        if not isinstance(data, dict):
            raise InvalidProblem(f"a problem description is a dict, got {type(data).__name__}")
        version = data.get("version", FORMAT_VERSION)
        if type(version) is not int or version != FORMAT_VERSION:
            raise InvalidProblem(
                f"problem format version {validate.brief(version)} is not supported; "
                f"this queenslab reads version {FORMAT_VERSION}"
            )
        unknown = sorted(map(repr, set(data) - set(_FIELDS) - {"version", "base"}))
        if unknown:
            raise InvalidProblem(
                f"unknown problem field(s) {validate.brief(', '.join(unknown), 200)}; the fields are "
                f"{', '.join(_FIELDS)} (and version, base)"
            )
        if "n" not in data:
            raise InvalidProblem("a problem description needs 'n', the board size")
        base = data.get("base", 0)
        if type(base) is not int or base not in (0, 1):
            raise InvalidProblem(f"'base' is 0 or 1 (0- or 1-based cells), got {validate.brief(base)}")

        given: dict[str, Any] = {name: data[name] for name in _BOARD_FIELDS if data.get(name) is not None}
        for kind in KIND_FIELDS:  # each kind reads its own keys
            given.update(kind.from_fields(data, base))
        return cls(data["n"], **given)

    def fingerprint(self) -> str:  # its inputs must never change: indexes are named by it
        """A stable identifier of the problem (hex SHA-256 of its canonical JSON).

        Equal problems have equal fingerprints across processes, platforms and
        versions: the hash covers a versioned, sorted JSON form of the 0-based fields,
        not Python's ``hash``.

        Examples
        --------
        >>> Problem(8).fingerprint() == Problem(8, blocked=[]).fingerprint()
        True
        >>> Problem(8).fingerprint()[:12]
        '8d27241a7be7'
        """
        fields = {
            k: v
            for k, v in self.to_dict().items()
            if k in _FINGERPRINT_FIELDS or k in _BOARD_FIELDS or (k in _FIELDS and v)
        }
        text = json.dumps({"v": 1, **fields}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> str:
        """A short human description, 1-based, e.g. ``'8-queens, toroidal, 2 blocked'``.

        >>> Problem(8, toroidal=True, blocked=[(0, 0), (1, 1)]).describe()
        '8-queens, toroidal, 2 blocked'
        """
        n, m, k = self.n, self.columns, self.queens
        parts = [f"{n}-queens" if self.is_plain_board else f"{k} queen{'' if k == 1 else 's'} on {n}x{m}"]
        if self.toroidal:
            parts.append("toroidal")
        if self.knight:
            parts.append("superqueens (knight moves)")
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked")
        if self.fixed:
            parts.append(f"{len(self.fixed)} fixed")
        if self.leapers:
            parts.append("leapers " + " ".join(f"({a},{b})" for a, b in self.leapers))
        if self.regions:
            parts.append(f"{len(self.regions)} region{'s' if len(self.regions) > 1 else ''}")
        parts += [c.describe() for c in self.own_constraints]
        return ", ".join(parts)


#: Placements on which a kind defined outside the package has its image checked against
#: its meaning (random permutations, the same ones every time), and the largest board
#: checked so.
IMAGE_CHECKS, IMAGE_CHECK_MAX_N = 48, 1000


def _check_image(constraint: Constraint, image: Constraint, symmetry: BoardSymmetry) -> None:
    """Refuse a kind defined outside the package whose ``image`` contradicts its ``holds``
    on a sample of placements: the image must hold on ``g(p)`` exactly when the constraint
    holds on ``p``, or the orbits counted under the derived group would be wrong."""
    n = symmetry.n
    if n > IMAGE_CHECK_MAX_N:
        return
    import numpy as np  # here only: building a Problem does not load numpy

    rng = np.random.default_rng(n)
    for _ in range(IMAGE_CHECKS):
        p = tuple(int(c) for c in rng.permutation(n))
        if bool(constraint.holds(p)) != bool(image.holds(symmetry.apply(p))):
            raise InvalidProblem(
                f"{type(constraint).__name__}.image() contradicts its holds(): under {symmetry.name} the placement "
                f"{validate.brief(p)} (0-based) meets {constraint.describe()} but its image does not meet the image "
                "constraint, or the other way round; the image must hold on g(p) exactly when the constraint holds on p"
            )


def _merged_cells(
    value: object, given: list[Constraint], kind: type[Blocked | Fixed], n: int, m: int
) -> tuple[Cell, ...]:
    """The cells of a keyword (``blocked=``, ``fixed=``) and of the constraints of its kind, on the board."""
    cells = () if value is None else board_cells(value, n, kind.kind, m)
    more = [x for c in given if isinstance(c, kind) for x in c.cells]
    return board_cells([*cells, *more], n, kind.kind, m) if more else cells


def _given(value: object) -> list[Constraint]:
    """The ``constraints`` argument: Constraint objects, each hashable."""
    if value is None:
        return []
    if isinstance(value, Constraint):
        raise InvalidProblem(
            f"constraints must be a collection of Constraint objects, not one: use [{type(value).__name__}(...)]"
        )
    items = items_of(value, "constraints must be a collection of Constraint objects")
    for item in items:
        if not isinstance(item, Constraint):
            raise InvalidProblem(
                f"a constraint must be a queenslab.constraints.Constraint (Torus(), Blocked(cells), ... or a "
                f"subclass of your own), got {validate.brief(item)}"
            )
        try:
            hash(item)
        except TypeError:
            raise InvalidProblem(
                f"a {type(item).__name__} constraint must be hashable (a frozen dataclass, or __hash__ with __eq__): "
                "a problem's symmetry group compares constraints"
            ) from None
    return items


def as_problem(value: object, what: str = "problem") -> Problem:
    """``value`` if it is a :class:`Problem`, else an error saying how to make one.

    The rule of the Python API: a parameter called ``problem`` takes a Problem, never a
    bare board size (which variant would it be?).

    Examples
    --------
    >>> as_problem(Problem(4)).n
    4
    >>> as_problem(8)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: expected a queenslab Problem, got int 8 (for the standard problem write Problem(8))
    """
    if isinstance(value, Problem):
        return value
    hint = ""
    if validate.integer_like(value):
        hint = f" (for the standard problem write Problem({value}))"
    role = "" if what == "problem" else f" as {what}"
    raise QueensError(f"expected a queenslab Problem{role}, got {type(value).__name__} {validate.brief(value)}{hint}")
