"""Verified integer sequences used as independent checks.

* ``A000170`` -- the number of solutions of the n-queens problem, n = 1..27.
* ``A002562`` -- the number of fundamental solutions (orbits under the dihedral
  group D4 of the square), n = 1..27.

Both are taken from the OEIS. N. Gupta's table misprints n = 22, 25, 26; the
values here are the OEIS ones. The test-suite checks the native engine against them
for n <= 16.

* ``A051906`` -- n queens on an n x n toroidal board, n = 1..34 (Rivin, Vardi and
  Zimmermann to n = 23, M. Engelhardt beyond); Pólya proved the count is 0 unless
  gcd(n, 6) = 1, so every other n is known to be 0 (:func:`known_values`).
* ``A051223``, ``A051224`` -- n superqueens (queens that also move as knights) on an
  n x n board, and their orbits under D4, n = 1..26.
* k queens on square and rectangular boards (V. Kotesovec's families, H. Tarry's
  formula): :mod:`queenslab.data.boards`.

:func:`known_values` says which of these a problem is held to, and :func:`compare` holds
a count against them.

* ``SIMKIN_ALPHA`` (and its error), ``TOROIDAL_ALPHA`` -- the constants of the
  asymptotic growth of the counts, read by the growth experiment and its figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import validate
from ..problem import as_problem
from .boards import k_queens_count

__all__ = [
    "A000170",
    "A002562",
    "A051223",
    "A051224",
    "A051906",
    "KnownValues",
    "known_total",
    "known_unique",
    "known_values",
    "MAX_KNOWN",
    "Known",
    "compare",
    "SIMKIN_ALPHA",
    "SIMKIN_ALPHA_ERROR",
    "TOROIDAL_ALPHA",
]

#: M. Simkin, "The number of n-queens configurations": ``Q(n) = ((1 +- o(1)) n e**-alpha)**n``
#: with alpha = 1.942 ...
SIMKIN_ALPHA = 1.942
#: ... +- 0.003.
SIMKIN_ALPHA_ERROR = 0.003
#: The toroidal board's constant: ``T(n) = ((1 + o(1)) n e**-3)**n`` for n = 1, 5 mod 6
#: (Luria's upper bound, Bowtell and Keevash's lower bound).
TOROIDAL_ALPHA = 3.0

#: A000170(n) for n = 1..27 (index 0 is n = 1).
_A000170 = (
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
)

#: A002562(n) for n = 1..27 (index 0 is n = 1).
_A002562 = (
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1787,
    9233,
    45752,
    285053,
    1846955,
    11977939,
    83263591,
    621012754,
    4878666808,
    39333324973,
    336376244042,
    3029242658210,
    28439272956934,
    275986683743434,
    2789712466510289,
    29363495934315694,
)

#: A051906(n), n = 1..34: n queens on an n x n toroidal board.
_A051906 = (
    1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692, 0, 820496, 0, 0, 0,
    128850048, 0, 1957725000, 0, 0, 0, 605917055356, 0, 13404947681712, 0, 0, 0,
)  # fmt: skip
#: A051223(n), n = 1..26: n superqueens on an n x n board.
_A051223 = (
    1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876, 5180, 32516, 202900, 1330622, 8924976,
    64492432, 495864256, 3977841852, 34092182276, 306819842212, 2883202816808,
    28144109776812, 286022102245804,
)  # fmt: skip
#: A051224(n), n = 1..26: their orbits under D4.
_A051224 = (
    1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 22, 239, 653, 4089, 25411, 166463, 1115871, 8062150,
    61984976, 497236090, 4261538564, 38352532487, 360400504834, 3518014210402,
    35752764285788,
)  # fmt: skip

A000170 = {n: v for n, v in enumerate(_A000170, start=1)}
A051906 = {n: v for n, v in enumerate(_A051906, start=1)}
A051223 = {n: v for n, v in enumerate(_A051223, start=1)}
A051224 = {n: v for n, v in enumerate(_A051224, start=1)}
A002562 = {n: v for n, v in enumerate(_A002562, start=1)}
MAX_KNOWN = len(_A000170)


def known_total(n: int) -> int | None:
    """Return the number of n-queens solutions (A000170), or None if not tabulated.

    Examples
    --------
    >>> known_total(8)
    92
    >>> known_total(40) is None
    True

    Raises
    ------
    QueensError
        If ``n`` is not an integer (``8.0`` and ``True`` are refused).
    """
    return A000170.get(_n(n))


def _n(n: object) -> int:
    return validate.whole_number(n, "n", minimum=-(2**63))


def known_unique(n: int) -> int | None:
    """Return the number of fundamental n-queens solutions (A002562), or None.

    Examples
    --------
    >>> known_unique(8)
    12
    """
    return A002562.get(_n(n))


@dataclass(frozen=True)
class KnownValues:
    """What is known of a problem's counts, and from where.

    Attributes
    ----------
    count, unique : int or None
        The number of solutions and of orbits under the problem's symmetries (None where
        no source gives it).
    source : str or None
        Where they come from: OEIS sequences (``"OEIS A000170 / A002562"``), or a theorem
        for a count known to be 0; None when nothing is known.
    """

    count: int | None
    unique: int | None
    source: str | None


#: Pólya's theorem, as a source: a toroidal board has a solution only when gcd(n, 6) = 1.
POLYA = "Pólya: no toroidal solution unless gcd(n, 6) = 1"


def known_values(problem) -> KnownValues:
    """The known counts of ``problem``: the standard problem (A000170, A002562), n
    toroidal queens (A051906; 0 for every n with gcd(n, 6) > 1, by Pólya's theorem) and
    n superqueens (A051223, A051224), k queens on square and rectangular boards
    (:mod:`queenslab.data.boards`); nothing for other problems.

    Examples
    --------
    >>> from queenslab import Problem
    >>> known_values(Problem(10, knight=True))
    KnownValues(count=4, unique=1, source='OEIS A051223 / A051224')
    >>> known_values(Problem(13, toroidal=True))
    KnownValues(count=4524, unique=None, source='OEIS A051906')
    >>> known_values(Problem(50, toroidal=True)).count, known_values(Problem(8, blocked=[(0, 0)])).source
    (0, None)
    >>> known_values(Problem(8, queens=3))
    KnownValues(count=10320, unique=None, source='OEIS A047659')
    """
    problem = as_problem(problem)
    n = problem.n
    if problem.is_standard:
        total, unique = known_total(n), known_unique(n)
        return KnownValues(total, unique, "OEIS A000170 / A002562" if total is not None else None)
    if problem == type(problem)(n, toroidal=True):
        if n > 1 and math.gcd(n, 6) != 1:
            return KnownValues(0, 0, POLYA)
        total = A051906.get(n)
        return KnownValues(total, None, "OEIS A051906" if total is not None else None)
    if problem == type(problem)(n, knight=True):
        total = A051223.get(n)
        return KnownValues(total, A051224.get(n), "OEIS A051223 / A051224" if total is not None else None)
    rows, columns, queens = n, problem.columns or n, problem.queens if problem.queens is not None else n
    if problem == type(problem)(n, columns=columns, queens=queens):
        published = k_queens_count(rows, columns, queens)
        if published is not None:
            return KnownValues(published[0], None, published[1])
    return KnownValues(None, None, None)


@dataclass(frozen=True)
class Known:
    """A count held against the known values.

    Attributes
    ----------
    count, unique : int or None
        The known number of solutions and of orbits (None when no sequence holds it: a
        variant, or n beyond the table).
    agrees : bool or None
        None when nothing is known to compare with (or the count was incomplete);
        otherwise whether every known value matches.
    source : str or None
        Where the known values come from (:class:`KnownValues`).
    """

    count: int | None
    unique: int | None
    agrees: bool | None
    source: str | None = None


def compare(problem, count: int, unique: int | None = None, *, complete: bool = True) -> Known:
    """Hold a count of ``problem`` against its known values (:func:`known_values`).

    Examples
    --------
    >>> from queenslab import Problem
    >>> compare(Problem(8), 92, 12)
    Known(count=92, unique=12, agrees=True, source='OEIS A000170 / A002562')
    >>> compare(Problem(8, toroidal=True), 0)
    Known(count=0, unique=0, agrees=True, source='Pólya: no toroidal solution unless gcd(n, 6) = 1')
    >>> compare(Problem(8, blocked=[(0, 0)]), 88).agrees is None
    True

    Raises
    ------
    QueensError
        If ``problem`` is not a Problem or a count is not a non-negative integer.
    """
    problem = as_problem(problem)
    count = validate.whole_number(count, "count", minimum=0)
    unique = validate.optional_whole_number(unique, "unique")
    complete = validate.flag(complete, "complete")
    values = known_values(problem)
    known, known_u = values.count, values.unique
    checks = [(known, count)] + ([(known_u, unique)] if unique is not None else [])
    checks = [(k, v) for k, v in checks if k is not None]
    agrees = None if not checks or not complete else all(k == v for k, v in checks)
    return Known(known, known_u, agrees, values.source)
