"""Constraint kinds: one object per kind of constraint, one module per kind.

:class:`Constraint` (:mod:`.base`) is the interface; the kinds queenslab knows are

* :class:`Torus` -- every move wraps around the edges;
* :class:`Leaper` -- a jumping move every queen has (the knight is ``Leaper(1, 2)``);
* :class:`Blocked` -- cells no queen may take;
* :class:`Fixed` -- queens placed in advance (completion);
* :class:`Region` -- a bound on the number of queens on a set of cells;
* :class:`Holes` -- cells that are not part of the board, where the lines of attack end
  (read by the optimisation models only: see :mod:`.holes`).

:data:`KINDS` lists the first five, the kinds of the compiled form, in the order a problem stores and describes them. A kind defined
outside the package is a subclass of :class:`Constraint`; see its docstring.
"""

from __future__ import annotations

from .base import HOOKS, Cell, Conflict, Constraint, Tables, unhandled
from .blocked import Blocked
from .fixed import Fixed
from .holes import Holes
from .leaper import Leaper, leap_offsets, leaper_name, leaps
from .region import Region
from .torus import Torus

__all__ = [
    "HOOKS",
    "KINDS",
    "Blocked",
    "Cell",
    "Conflict",
    "Constraint",
    "Fixed",
    "Holes",
    "KIND_FIELDS",
    "Leaper",
    "Region",
    "Tables",
    "Torus",
    "leap_offsets",
    "leaper_name",
    "leaps",
    "unhandled",
]
# line_attack (the move rules on checked cells) is in .base; queenslab.problem.attacks is its
# checked, public form

#: The built-in kinds, in the order a problem stores, describes and writes them.
KINDS: tuple[type[Constraint], ...] = (Torus, Leaper, Blocked, Fixed, Region)
#: Every kind of the package with a JSON form, in the order a problem writes them: the
#: compiled form's, then those outside it.
KIND_FIELDS: tuple[type[Constraint], ...] = (*KINDS, Holes)
