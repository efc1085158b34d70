"""The symmetry group of the square: D4, and Zhang and Zhang's permutation operation group PO.

Zhang and Zhang (Zhang & Zhang, *An Algebraic Method for the N-Queens Problem Based on
Permutation Operation Group*) builds the eight symmetries of the board from three basic
operations on a permutation ``p`` of length n (0-based here; Zhang and Zhang's paper is 1-based):

* ``Inv(p)`` -- the inverse permutation (:func:`inv`);
* ``Cmpl(p)`` -- the complement, ``p[i] -> n-1-p[i]`` (Zhang and Zhang's ``N+1-p_i``) (:func:`cmpl`);
* ``Rev(p)`` -- the reverse, ``p[i] -> p[n-1-i]`` (:func:`rev`).

Each is an involution. An element of the group is written as three flags applied in a fixed
order -- first ``inv``, then ``rev``, then ``cmpl`` (``rev`` and ``cmpl`` commute) -- and the
eight combinations are Zhang and Zhang's ``po1 .. po8`` (:data:`PO`, in Zhang and Zhang's order):

=====  ======================  ===================  ===========================================
name   document's definition   flags (inv,rev,cmpl) geometry (queenslab's reading, see below)
=====  ======================  ===================  ===========================================
po1    ``p``                   (0, 0, 0)            identity
po2    ``Inv(p)``              (1, 0, 0)            reflect-main-diagonal
po3    ``Rev(Cmpl(Inv(p)))``   (1, 1, 1)            reflect-anti-diagonal
po4    ``Cmpl(p)``             (0, 0, 1)            reflect-vertical-axis
po5    ``Rev(p)``              (0, 1, 0)            reflect-horizontal-axis
po6    ``Cmpl(Inv(p))``        (1, 0, 1)            rotate-90 (clockwise)
po7    ``Rev(Cmpl(p))``        (0, 1, 1)            rotate-180
po8    ``Inv(Cmpl(p))``        (1, 1, 0)            rotate-270 (clockwise; 90 counterclockwise)
=====  ======================  ===================  ===========================================

**Two readings of one permutation.** queenslab reads a placement ``p`` as "the queen of row
``r`` stands in column ``p[r]``", on a board drawn with row 0 on top. Zhang and Zhang's paper reads
its permutation the other way round: ``p_i`` is the *row* of the queen in *column* ``i``
(row 1 on top). The operations act on the sequence and are the same in both readings, but
one board is the other's mirror image in the main diagonal, so the geometric names differ:
Zhang and Zhang's paper calls ``po4 = Cmpl`` the reflection in the horizontal centre line and ``po6``
the counterclockwise rotation by 90 degrees, while on queenslab's board ``Cmpl`` mirrors the
columns (the vertical axis) and ``po6`` turns the board clockwise. ``geometry`` gives
queenslab's names, :attr:`D4Element.document_geometry` Zhang and Zhang's.

On a cell ``(r, c)`` of an ``n x n`` board the flags act as::

    inv:  (r, c) -> (c, r)
    rev:  (r, c) -> (n-1-r, c)
    cmpl: (r, c) -> (r, n-1-c)

and on a placement an element maps the set of queen cells, which is again a placement.

**Composition.** ``g * h`` is the element that applies ``h`` first and then ``g``
(``(g * h)(x) == g(h(x))``), the usual order of function composition.
``g.then(h)`` is the other order: ``g`` first, then ``h`` (``g.then(h) == h * g``).
Zhang and Zhang's Table 1 lists, in row ``po_i`` and column ``po_j``, the operation "apply
``po_i``, then ``po_j``" -- that is ``PO[i].then(PO[j])``, the order in which sympy
multiplies permutations (``p*q`` applies ``p`` first). :func:`multiplication_table` builds
that table and the test-suite compares it with Zhang and Zhang's, entry by entry; the other
reading (``po_i * po_j``) disagrees with 24 of the 64 printed entries.

This module imports nothing from queenslab except :mod:`queenslab.errors` and
:mod:`queenslab.validate` (the argument checks): :class:`~queenslab.problem.Problem` uses it to compute its own symmetry subgroup, and
``problem.symmetries()`` returns elements of this group. sympy is imported only by
:func:`sympy_cell_group` and :func:`dihedral_isomorphism`.

Examples
--------
>>> po6 = element("po6")
>>> po6.name, po6.operations
('rotate-90', 'Cmpl(Inv(p))')
>>> po6.apply((1, 3, 0, 2))              # the 4-queens solution turned by 90 degrees
(1, 3, 0, 2)
>>> p = (0, 2, 4, 1, 3)
>>> inv(p), cmpl(p), rev(p)               # Zhang and Zhang's examples, 0-based
((0, 3, 1, 4, 2), (4, 2, 0, 3, 1), (3, 1, 4, 2, 0))
>>> element("po2").then(element("po4")).po   # Table 1, row po2, column po4
'po6'
>>> (element("po2") * element("po4")).po    # po2 after po4
'po8'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from . import validate
from .errors import InvalidPlacement, QueensError

__all__ = [
    "BoardSymmetry",
    "D4Element",
    "D4",
    "IDENTITY",
    "PO",
    "inv",
    "cmpl",
    "rev",
    "as_permutation",
    "element",
    "multiplication_table",
    "cell_permutation",
    "SYMPY_MAX_N",
    "sympy_cell_group",
    "dihedral_isomorphism",
]

_NAMES = {
    (False, False, False): "identity",
    (True, False, False): "reflect-main-diagonal",
    (True, True, True): "reflect-anti-diagonal",
    (False, True, False): "reflect-horizontal-axis",
    (False, False, True): "reflect-vertical-axis",
    (True, False, True): "rotate-90",
    (False, True, True): "rotate-180",
    (True, True, False): "rotate-270",
}

# Zhang and Zhang's order po1..po8, its definitions, and its geometric descriptions g1..g8
# (for its own reading: p_i is the row of the queen in column i, rotations counterclockwise).
_PO_ORDER = (
    ((False, False, False), "p", "identity map"),
    ((True, False, False), "Inv(p)", "reflection along the negative diagonal"),
    ((True, True, True), "Rev(Cmpl(Inv(p)))", "reflection along the positive diagonal"),
    ((False, False, True), "Cmpl(p)", "vertical reflection along the horizontal centre line"),
    ((False, True, False), "Rev(p)", "horizontal reflection along the vertical centre line"),
    ((True, False, True), "Cmpl(Inv(p))", "rotation through pi/2 (counterclockwise)"),
    ((False, True, True), "Rev(Cmpl(p))", "rotation through pi (counterclockwise)"),
    ((True, True, False), "Inv(Cmpl(p))", "rotation through 3*pi/2 (counterclockwise)"),
)
_PO_INDEX = {flags: i + 1 for i, (flags, _, _) in enumerate(_PO_ORDER)}


def as_permutation(placement: Sequence[int], what: str = "placement") -> tuple[int, ...]:
    """Validate a 0-based permutation and return it as a tuple of ints.

    Parameters
    ----------
    placement : sequence of int
        ``placement[r]`` is the 0-based column of the queen in row ``r``; a numpy array is
        fine.
    what : str
        How to call the argument in the error message.

    Returns
    -------
    tuple of int

    Raises
    ------
    InvalidPlacement
        If it is not a sequence of integers holding every value ``0 .. n-1`` once.

    Examples
    --------
    >>> as_permutation([1, 3, 0, 2])
    (1, 3, 0, 2)
    >>> as_permutation([1, 1, 0])
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidPlacement: placement (1, 1, 0) is not a permutation of 0..2: column 1 appears twice (the Python API is 0-based; each column 0..n-1 must appear once)
    """
    p = validate.columns(placement, what, InvalidPlacement)
    n = len(p)
    seen = [False] * n
    for c in p:
        if not 0 <= c < n:
            raise InvalidPlacement(
                f"{what} {validate.brief(tuple(p))} is not a permutation of 0..{n - 1}: column "
                f"{validate.brief(c)} is off the board (the Python API is 0-based; each column 0..n-1 must appear once)"
            )
        if seen[c]:
            raise InvalidPlacement(
                f"{what} {validate.brief(tuple(p))} is not a permutation of 0..{n - 1}: column {c} appears twice "
                "(the Python API is 0-based; each column 0..n-1 must appear once)"
            )
        seen[c] = True
    return tuple(p)


def inv(placement: Sequence[int]) -> tuple[int, ...]:
    """Zhang and Zhang's ``Inv``: the inverse permutation (reflection in the main diagonal).

    Examples
    --------
    >>> inv((0, 2, 4, 1, 3))        # document: Inv(1 3 5 2 4) = (1 4 2 5 3)
    (0, 3, 1, 4, 2)
    """
    p = as_permutation(placement)
    q = [0] * len(p)
    for r, c in enumerate(p):
        q[c] = r
    return tuple(q)


def cmpl(placement: Sequence[int]) -> tuple[int, ...]:
    """Zhang and Zhang's ``Cmpl``: every value ``c`` becomes ``n-1-c`` (1-based: ``N+1-c``).

    Examples
    --------
    >>> cmpl((0, 2, 4, 1, 3))       # document: Cmpl(1 3 5 2 4) = (5 3 1 4 2)
    (4, 2, 0, 3, 1)
    """
    p = as_permutation(placement)
    n = len(p)
    return tuple(n - 1 - c for c in p)


def rev(placement: Sequence[int]) -> tuple[int, ...]:
    """Zhang and Zhang's ``Rev``: the sequence reversed.

    Examples
    --------
    >>> rev((0, 2, 4, 1, 3))        # document: Rev(1 3 5 2 4) = (4 2 5 3 1)
    (3, 1, 4, 2, 0)
    """
    return as_permutation(placement)[::-1]


@dataclass(frozen=True, order=True)
class D4Element:
    """One symmetry of the square: ``inv``, then ``rev``, then ``cmpl``.

    Parameters
    ----------
    inv, rev, cmpl : bool
        Whether the element transposes the board, reverses the rows, complements the
        columns (applied in that order).

    Examples
    --------
    >>> r90 = D4Element(inv=True, rev=False, cmpl=True)
    >>> r90.name, r90.po
    ('rotate-90', 'po6')
    >>> r90.apply((1, 3, 0, 2))
    (1, 3, 0, 2)
    >>> (r90 * r90).name
    'rotate-180'
    >>> r90.inverse().po
    'po8'
    """

    inv: bool = False
    rev: bool = False
    cmpl: bool = False

    def __post_init__(self) -> None:
        for flag in ("inv", "rev", "cmpl"):
            value = getattr(self, flag)
            if isinstance(value, str):
                raise QueensError(
                    f"D4Element takes three flags inv, rev, cmpl (True or False), got the text {validate.brief(value)} "
                    f"for {flag}; to look an element up by name use queenslab.d4.element(name) with one of "
                    f"po1..po8, {', '.join(g for g in _NAMES.values())}"
                )
            object.__setattr__(self, flag, validate.flag(value, f"D4Element flag {flag}"))

    @property
    def name(self) -> str:
        """Geometric name (rotations are clockwise on a board drawn with row 0 on top)."""
        return _NAMES[(self.inv, self.rev, self.cmpl)]

    @property
    def flags(self) -> tuple[int, int, int]:
        """``(inv, rev, cmpl)`` as integers, the form the native kernels take."""
        return int(self.inv), int(self.rev), int(self.cmpl)

    @property
    def po_index(self) -> int:
        """Zhang and Zhang's number ``i`` of ``po_i`` (1..8)."""
        return _PO_INDEX[(bool(self.inv), bool(self.rev), bool(self.cmpl))]

    @property
    def po(self) -> str:
        """Zhang and Zhang's name, ``'po1'`` .. ``'po8'``."""
        return f"po{self.po_index}"

    @property
    def operations(self) -> str:
        """Zhang and Zhang's definition in terms of Inv, Cmpl and Rev, e.g. ``'Cmpl(Inv(p))'``."""
        return _PO_ORDER[self.po_index - 1][1]

    @property
    def document_geometry(self) -> str:
        """Zhang and Zhang's geometric description of ``g_i`` (its reading of ``p``; see the module docstring)."""
        return _PO_ORDER[self.po_index - 1][2]

    def cell(self, n: int, r: int, c: int) -> tuple[int, int]:
        """Image of cell ``(r, c)`` on an ``n x n`` board.

        Raises
        ------
        InvalidPlacement
            If ``n`` is not a board size or ``(r, c)`` is not a 0-based cell of the board.

        Examples
        --------
        >>> element("rotate-90").cell(4, 0, 0)
        (0, 3)
        """
        if not (type(n) is int and type(r) is int and type(c) is int and 0 <= r < n and 0 <= c < n):
            n, r, c = _board_cell(n, r, c)
        if self.inv:
            r, c = c, r
        if self.rev:
            r = n - 1 - r
        if self.cmpl:
            c = n - 1 - c
        return r, c

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """Image of a placement (0-based columns by row) under this element.

        Raises
        ------
        InvalidPlacement
            If ``placement`` is not a permutation of ``0 .. n-1``.
        """
        p = as_permutation(placement)
        n = len(p)
        q = [0] * n
        inv, rev, cmpl = self.inv, self.rev, self.cmpl
        for r, c in enumerate(p):
            if inv:
                r, c = c, r
            q[n - 1 - r if rev else r] = n - 1 - c if cmpl else c
        return tuple(q)

    def __call__(self, placement: Sequence[int]) -> tuple[int, ...]:
        """Same as :meth:`apply`: ``po6(p)`` reads like Zhang and Zhang's paper."""
        return self.apply(placement)

    def __mul__(self, other: D4Element) -> D4Element:
        # Compose by evaluating on a 3x3 board's corner and edge cells: the images of
        # (0, 0) and (0, 1) determine an element of D4 uniquely.
        if not isinstance(other, D4Element):
            return NotImplemented
        probe = ((0, 0), (0, 1))
        want = tuple(self.cell(3, *other.cell(3, r, c)) for r, c in probe)
        for g in D4:
            if tuple(g.cell(3, r, c) for r, c in probe) == want:
                return g
        raise AssertionError("D4 is closed under composition")  # pragma: no cover

    def then(self, other: D4Element) -> D4Element:
        """The element applying ``self`` first and then ``other`` (``other * self``).

        This is the reading of Zhang and Zhang's Table 1: row ``po_i``, column ``po_j`` holds
        ``po_i.then(po_j)``.

        Examples
        --------
        >>> element("po4").then(element("po2")).po     # Inv(Cmpl(p)) is po8
        'po8'
        """
        if not isinstance(other, D4Element):
            raise QueensError(f"then() composes two D4 elements, got {type(other).__name__}")
        return other * self

    def inverse(self) -> D4Element:
        """The element ``h`` with ``self * h == IDENTITY``."""
        for g in D4:
            if self * g == IDENTITY:
                return g
        raise AssertionError("every element of D4 has an inverse")  # pragma: no cover

    def __repr__(self) -> str:
        # both names: the geometric one, and Zhang and Zhang's, which the JSON output gives
        return f"D4Element({self.po}: {self.name})"


@dataclass(frozen=True)
class BoardSymmetry:
    """One element of D4 acting on the cells of one ``n x n`` board, or of an ``n x
    columns`` rectangle.

    This is what :meth:`queenslab.constraints.Constraint.image` receives: a constraint
    maps its cells with :meth:`cell` without knowing the board size itself. A rectangle
    (``columns != n``) is mapped onto itself by the four elements without ``inv``
    (identity, rotate-180 and the two mirrors in its centre lines); an element that
    transposes it is refused.

    Parameters
    ----------
    element : D4Element
    n : int
        The number of rows.
    columns : int, optional
        The number of columns (default ``n``).

    Examples
    --------
    >>> s = BoardSymmetry(element("rotate-90"), 4)
    >>> s.cell(0, 0), s.name, s.apply((1, 3, 0, 2))
    ((0, 3), 'rotate-90', (1, 3, 0, 2))
    >>> BoardSymmetry(element("rotate-180"), 2, 5).apply((0, -1))    # -1: an empty row
    (-1, 4)
    """

    element: D4Element
    n: int
    columns: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.element, D4Element):
            raise QueensError(f"a board symmetry's element is a D4Element, got {validate.brief(self.element)}")
        object.__setattr__(self, "n", validate.whole_number(self.n, "n", minimum=1))
        m = self.n if self.columns is None else validate.whole_number(self.columns, "columns", minimum=1)
        object.__setattr__(self, "columns", m)
        if m != self.n and self.element.inv:
            raise QueensError(
                f"{self.element.name} maps the {self.n}x{m} board onto a {m}x{self.n} one: a rectangle's symmetries "
                "are the identity, rotate-180 and the mirrors in its centre lines"
            )

    @property
    def is_square(self) -> bool:
        """Whether the board is square."""
        return self.columns == self.n

    @property
    def name(self) -> str:
        """The element's geometric name (``'rotate-90'``, ...)."""
        return self.element.name

    def cell(self, r: int, c: int) -> tuple[int, int]:
        """The image of the 0-based cell ``(r, c)``."""
        n, m = self.n, cast(int, self.columns)
        if m == n:
            return self.element.cell(n, r, c)
        if not (type(r) is int and type(c) is int and 0 <= r < n and 0 <= c < m):
            raise InvalidPlacement(f"cell ({validate.brief(r)}, {validate.brief(c)}) is off the {n}x{m} board")
        return (n - 1 - r if self.element.rev else r), (m - 1 - c if self.element.cmpl else c)

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """The image of a placement of this board (0-based columns by row; -1 for an
        empty row where the board holds fewer queens than rows)."""
        if self.is_square and all(type(c) is int and c >= 0 for c in placement):
            return self.element.apply(placement)
        if len(placement) != self.n:
            raise InvalidPlacement(
                f"a placement of the {self.n}x{self.columns} board has {self.n} rows, got {len(placement)}"
            )
        out = [-1] * self.n
        for r, c in enumerate(placement):
            if c == -1:
                continue
            r2, c2 = self.cell(r, int(c))
            if out[r2] != -1:
                raise InvalidPlacement(f"{validate.brief(tuple(placement))} has two queens in column {c + 1}")
            out[r2] = c2
        return tuple(out)


def _board_cell(n: object, r: object, c: object) -> tuple[int, int, int]:
    """Validate a board size and a 0-based cell of it (the slow path of :meth:`D4Element.cell`)."""
    size = validate.whole_number(n, "n", error=InvalidPlacement)
    row = validate.whole_number(r, "row", minimum=0, error=InvalidPlacement)
    col = validate.whole_number(c, "column", minimum=0, error=InvalidPlacement)
    if row >= size or col >= size:
        raise InvalidPlacement(
            f"cell ({row}, {col}) is off the {size}x{size} board: rows and columns are 0..{size - 1} (0-based)"
        )
    return size, row, col


def _elements(elements: object, what: str = "elements") -> tuple[D4Element, ...]:
    """A non-empty sequence of D4Element, as a tuple."""
    if isinstance(elements, D4Element):
        raise QueensError(f"{what} must be a sequence of D4 elements, not one element; use [g]")
    try:
        out: tuple[object, ...] = tuple(cast(Iterable[object], elements))
    except TypeError:
        raise QueensError(f"{what} must be a sequence of D4 elements, got {validate.brief(elements)}") from None
    if not out or not all(isinstance(g, D4Element) for g in out):
        raise QueensError(f"{what} must be a non-empty sequence of D4 elements, got {validate.brief(out)}")
    return cast(tuple[D4Element, ...], out)


IDENTITY = D4Element()

#: The eight elements, identity first (order of the flags; the native engine's order).
D4: tuple[D4Element, ...] = tuple(sorted((D4Element(*k) for k in _NAMES), key=lambda g: (g != IDENTITY, g.flags)))

#: Zhang and Zhang's permutation operation group, in its order ``po1 .. po8``.
PO: tuple[D4Element, ...] = tuple(D4Element(*flags) for flags, _, _ in _PO_ORDER)

_BY_NAME = {}
for _g in PO:
    _BY_NAME[_g.po] = _g
    _BY_NAME[_g.name] = _g
del _g


def element(name: str) -> D4Element:
    """Look an element up by its document name (``'po1'`` .. ``'po8'``) or geometric name.

    Raises
    ------
    QueensError
        For an unknown name; the message lists the known ones.

    Examples
    --------
    >>> element("po3").name, element("rotate-180").po
    ('reflect-anti-diagonal', 'po7')
    """
    if not isinstance(name, str):
        raise QueensError(
            f"a symmetry is named by text, got {validate.brief(name)}: use po1..po8 or one of "
            + ", ".join(g.name for g in PO)
        )
    key = name.strip().lower()
    key = re.sub(r"^po_?([1-8])$", r"po\1", key)
    if key not in _BY_NAME:
        raise QueensError(
            f"unknown symmetry {validate.brief(name)}: use po1..po8 or one of " + ", ".join(g.name for g in PO)
        )
    return _BY_NAME[key]


def multiplication_table(elements: Sequence[D4Element] = PO) -> list[list[D4Element]]:
    """The multiplication table in Zhang and Zhang's reading (Table 1).

    Parameters
    ----------
    elements : sequence of D4Element, default :data:`PO`
        Row and column headings.

    Returns
    -------
    list of list of D4Element
        ``table[i][j] == elements[i].then(elements[j])``: apply the row's element first,
        then the column's.

    Examples
    --------
    >>> [g.po for g in multiplication_table()[1]]     # Table 1, row po2
    ['po2', 'po1', 'po7', 'po6', 'po8', 'po4', 'po3', 'po5']
    """
    elems = _elements(elements)
    return [[g.then(h) for h in elems] for g in elems]


def cell_permutation(g: D4Element, n: int) -> list[int]:
    """The permutation of the ``n*n`` cells by ``g``, in array form.

    Cell ``(r, c)`` is numbered ``r*n + c``; entry ``k`` of the result is the number of
    the image of cell ``k``. This is the form ``sympy.combinatorics.Permutation`` takes.

    Examples
    --------
    >>> cell_permutation(element("po2"), 2)     # transpose swaps cells 1 and 2
    [0, 2, 1, 3]
    """
    if not isinstance(g, D4Element):
        raise QueensError(f"g must be a D4Element, got {validate.brief(g)}")
    n = validate.whole_number(n, "n", maximum=2**31 - 1, why="the largest board of a Problem")
    validate.memory(40 * n * n, f"the permutation of the {n}x{n} cells")
    out = []
    for r in range(n):
        for c in range(n):
            r2, c2 = g.cell(n, r, c)
            out.append(r2 * n + c2)
    return out


#: Largest board :func:`sympy_cell_group` builds (sympy's group on n*n points).
SYMPY_MAX_N = 100


def sympy_cell_group(n: int, elements: Sequence[D4Element] = PO):
    """The sympy ``PermutationGroup`` generated by ``elements`` acting on the n*n cells.

    For ``n >= 2`` it has order 8 and is isomorphic to sympy's ``DihedralGroup(4)`` (for
    ``n = 1`` every element fixes the single cell). Requires sympy.

    Raises
    ------
    QueensError
        For ``n`` outside ``1 .. SYMPY_MAX_N`` or elements that are not D4Element.

    Examples
    --------
    >>> sympy_cell_group(8).order()
    8
    """
    n = validate.whole_number(n, "n", maximum=SYMPY_MAX_N, why="sympy's group acts on the n*n cells")
    elems = _elements(elements)
    try:
        from sympy.combinatorics import Permutation, PermutationGroup
    except ImportError:  # pragma: no cover - sympy is a dependency
        from .errors import MissingDependency

        raise MissingDependency("sympy_cell_group needs sympy: pip install sympy") from None

    return PermutationGroup([Permutation(cell_permutation(g, n)) for g in elems])


def dihedral_isomorphism() -> dict:
    """The explicit isomorphism from PO onto sympy's ``DihedralGroup(4)``.

    Label the corners of the board 0, 1, 2, 3 in the order ``(0, 0)``, ``(0, n-1)``,
    ``(n-1, n-1)``, ``(n-1, 0)`` (clockwise around a board drawn with row 0 on top). An
    element maps each corner to a corner; that permutation of the four labels lies in
    ``DihedralGroup(4)``, whose generators are the rotation ``(0 1 2 3)`` and the
    reflection ``(0 3)(1 2)``. The map respects Zhang and Zhang's product:
    ``phi[g.then(h)] == phi[g] * phi[h]`` (sympy applies the left factor first), i.e.
    ``phi[g * h] == phi[h] * phi[g]``; ``g -> phi[g]**-1`` is an isomorphism for ``*``.

    Returns
    -------
    dict
        ``D4Element -> sympy.combinatorics.Permutation`` of size 4.

    Examples
    --------
    >>> phi = dihedral_isomorphism()
    >>> phi[element("rotate-90")].cyclic_form
    [[0, 1, 2, 3]]
    """
    from sympy.combinatorics import Permutation

    n = 2  # on a 2x2 board every cell is a corner
    corners = [(0, 0), (0, n - 1), (n - 1, n - 1), (n - 1, 0)]
    return {g: Permutation([corners.index(g.cell(n, r, c)) for r, c in corners]) for g in PO}
