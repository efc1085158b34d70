"""The dihedral group D4 of the square, acting on cells and on placements.

An element is written as three flags applied in a fixed order -- first ``inv`` (the
inverse permutation, i.e. reflection in the main diagonal), then ``rev`` (reverse the
order of the rows), then ``cmpl`` (complement the columns, ``c -> n-1-c``). These are
the operations Inv, Rev and Cmpl of document 003; the eight combinations are the eight
elements of D4.

On a cell ``(r, c)`` of an ``n x n`` board the element acts as::

    inv:  (r, c) -> (c, r)
    rev:  (r, c) -> (n-1-r, c)
    cmpl: (r, c) -> (r, n-1-c)

and on a placement ``p`` (the queen of row ``r`` in column ``p[r]``) it maps the set of
queen cells, which is again a placement.

Composition: ``g * h`` is the element that applies ``h`` first and then ``g``
(``(g * h)(x) == g(h(x))``), the usual order of function composition.

This module imports nothing else from queenslab: :class:`~queenslab.problem.Problem`
uses it to compute its own symmetry subgroup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["D4Element", "D4", "IDENTITY"]

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
    >>> r90.name
    'rotate-90'
    >>> r90.apply((1, 3, 0, 2))
    (1, 3, 0, 2)
    >>> (r90 * r90).name
    'rotate-180'
    """

    inv: bool = False
    rev: bool = False
    cmpl: bool = False

    @property
    def name(self) -> str:
        """Geometric name (rotations are clockwise on a board drawn with row 0 on top)."""
        return _NAMES[(self.inv, self.rev, self.cmpl)]

    @property
    def flags(self) -> tuple[int, int, int]:
        """``(inv, rev, cmpl)`` as integers, the form the native kernels take."""
        return int(self.inv), int(self.rev), int(self.cmpl)

    def cell(self, n: int, r: int, c: int) -> tuple[int, int]:
        """Image of cell ``(r, c)`` on an ``n x n`` board."""
        if self.inv:
            r, c = c, r
        if self.rev:
            r = n - 1 - r
        if self.cmpl:
            c = n - 1 - c
        return r, c

    def apply(self, placement: Sequence[int]) -> tuple[int, ...]:
        """Image of a placement (0-based columns by row) under this element."""
        n = len(placement)
        q = [0] * n
        for r, c in enumerate(placement):
            r2, c2 = self.cell(n, r, c)
            q[r2] = c2
        return tuple(q)

    def __mul__(self, other: "D4Element") -> "D4Element":
        # Compose by evaluating on a 3x3 board's corner and edge cells: the images of
        # (0, 0) and (0, 1) determine an element of D4 uniquely.
        probe = ((0, 0), (0, 1))
        want = tuple(self.cell(3, *other.cell(3, r, c)) for r, c in probe)
        for g in D4:
            if tuple(g.cell(3, r, c) for r, c in probe) == want:
                return g
        raise AssertionError("D4 is closed under composition")  # pragma: no cover

    def inverse(self) -> "D4Element":
        """The element ``h`` with ``self * h == IDENTITY``."""
        for g in D4:
            if self * g == IDENTITY:
                return g
        raise AssertionError("every element of D4 has an inverse")  # pragma: no cover

    def __repr__(self) -> str:
        return f"D4Element({self.name})"


IDENTITY = D4Element()

#: The eight elements, identity first.
D4: tuple[D4Element, ...] = tuple(
    sorted((D4Element(*k) for k in _NAMES), key=lambda g: (g != IDENTITY, g.flags))
)
