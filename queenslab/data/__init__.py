"""Verified integer sequences used as independent checks.

* ``A000170`` -- the number of solutions of the n-queens problem, n = 1..27.
* ``A002562`` -- the number of fundamental solutions (orbits under the dihedral
  group D4 of the square), n = 1..27.

Both are taken from the OEIS. N. Gupta's table misprints n = 22, 25, 26; the
values here are the OEIS ones. The test-suite checks the native engine against them
for n <= 16.

* ``SIMKIN_ALPHA`` (and its error), ``TOROIDAL_ALPHA`` -- the constants of the
  asymptotic growth of the counts, read by the growth experiment and its figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import validate
from ..problem import as_problem

__all__ = [
    "A000170",
    "A002562",
    "known_total",
    "known_unique",
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

A000170 = {n: v for n, v in enumerate(_A000170, start=1)}
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
    """

    count: int | None
    unique: int | None
    agrees: bool | None


def compare(problem, count: int, unique: int | None = None, *, complete: bool = True) -> Known:
    """Hold a count of ``problem`` against OEIS A000170 / A002562 (standard problem only).

    Examples
    --------
    >>> from queenslab import Problem
    >>> compare(Problem(8), 92, 12)
    Known(count=92, unique=12, agrees=True)
    >>> compare(Problem(8, toroidal=True), 0).agrees is None
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
    if not problem.is_standard:
        return Known(None, None, None)
    known, known_u = known_total(problem.n), known_unique(problem.n)
    checks = [(known, count)] + ([(known_u, unique)] if unique is not None else [])
    checks = [(k, v) for k, v in checks if k is not None]
    agrees = None if not checks or not complete else all(k == v for k, v in checks)
    return Known(known, known_u, agrees)
