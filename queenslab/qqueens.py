"""The q-queens counts: q queens on an n x n board, and the quasipolynomial they follow.

Chaiken, Hanusa and Zaslavsky (*A q-queens problem. I. General theory*, and the series
that follows it) prove that the number of ways to place q non-attacking queens on an
n x n board is, for every n >= 1, a quasipolynomial in n of degree 2q: a polynomial for
each residue of n modulo a period. Lucas and Landau knew the first ones: for two queens
the polynomial n(n - 1)(n - 2)(3n - 1)/6 (OEIS A036464), for three the pair Landau gave
in 1896, one for even and one for odd n (OEIS A047659).

This module holds:

* :func:`qqueens_counts` -- the counts for n = 1 .. N by the native engine's board search;
* :func:`fit` -- the quasipolynomial of a given period through them: for each residue
  class, the polynomial of degree 2q through its first 2q + 1 points, exactly (rational
  coefficients), then checked on the class's remaining points. A class with fewer than
  2q + 1 points is *undetermined*; with exactly 2q + 1 the polynomial fits but is
  *unchecked*; a class whose further points disagree is *refuted* (the period, or the
  degree, is wrong for these counts);
* :data:`PUBLISHED` -- the published quasipolynomials (q = 1, 2, 3), and
  :func:`qqueens_experiment`, which counts, fits and compares with them.

Examples
--------
>>> fitted = fit(2, 1, {n: n * (n - 1) * (n - 2) * (3 * n - 1) // 6 for n in range(1, 8)})
>>> fitted.classes[0].status, fitted.classes[0].text
('checked', 'n**4/2 - 5*n**3/3 + 3*n**2/2 - n/3')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from . import validate
from .errors import QueensError, setting
from .problem import Problem
from .provenance import environment

__all__ = [
    "MAX_Q",
    "MAX_N",
    "PUBLISHED",
    "ClassFit",
    "Quasipolynomial",
    "QQueensReport",
    "default_n_max",
    "fit",
    "published",
    "qqueens_counts",
    "qqueens_experiment",
]

#: The most queens the experiment places (the degree 2q of the fit grows with it).
MAX_Q = 8
#: The largest board it counts (the native engine's bitboards).
MAX_N = 64

#: The published quasipolynomials: ``q -> (source, period, [constituent of residue 0, 1, ...])``,
#: each constituent a function of n (exact integers) as the source writes it.
PUBLISHED: dict[int, tuple[str, int, list[Callable[[int], Fraction]]]] = {
    1: ("one queen: n**2", 1, [lambda n: Fraction(n * n)]),
    2: (
        "OEIS A036464 (Lucas): n(n - 1)(n - 2)(3n - 1)/6",
        1,
        [lambda n: Fraction(n * (n - 1) * (n - 2) * (3 * n - 1), 6)],
    ),
    3: (
        "OEIS A047659 (Landau, 1896): n(n - 2)^2(2n^3 - 12n^2 + 23n - 10)/12 for even n, "
        "(n - 1)(n - 3)(2n^4 - 12n^3 + 25n^2 - 14n + 1)/12 for odd n",
        2,
        [
            lambda n: Fraction(n * (n - 2) ** 2 * (2 * n**3 - 12 * n**2 + 23 * n - 10), 12),
            lambda n: Fraction((n - 1) * (n - 3) * (2 * n**4 - 12 * n**3 + 25 * n**2 - 14 * n + 1), 12),
        ],
    ),
}


def published(q: int) -> tuple[str, int, list[Callable[[int], Fraction]]] | None:
    """The published quasipolynomial of q queens (source, period, constituents), or None."""
    return PUBLISHED.get(q)


@dataclass(frozen=True)
class ClassFit:
    """The polynomial of one residue class ``n = residue (mod period)``.

    Attributes
    ----------
    residue : int
    points : tuple of int
        The n of the class that were counted.
    coefficients : tuple of Fraction or None
        Of ``n**0, n**1, ... n**(2q)``, from the class's first 2q + 1 points (None when
        there are fewer).
    status : str
        ``"checked"`` (the further points lie on it), ``"unchecked"`` (no further point),
        ``"undetermined"`` (too few points) or ``"refuted"`` (a further point does not).
    refuted_at : int or None
        The first n whose count is off the polynomial.
    text : str or None
        The polynomial as sympy writes it, e.g. ``'n**4/2 - 5*n**3/3 + 3*n**2/2 - n/3'``.
    """

    residue: int
    points: tuple[int, ...]
    coefficients: tuple[Fraction, ...] | None
    status: str
    refuted_at: int | None = None
    text: str | None = None

    def __call__(self, n: int) -> Fraction:
        """The polynomial's value at ``n`` (it must have coefficients)."""
        if self.coefficients is None:
            raise QueensError(f"residue {self.residue}: too few points for a polynomial")
        return _value(self.coefficients, n)


@dataclass(frozen=True)
class Quasipolynomial:
    """The fit of every residue class (see :func:`fit`)."""

    q: int
    period: int
    classes: tuple[ClassFit, ...]

    @property
    def status(self) -> str:
        """``"determined"`` when every class is checked, ``"refuted"`` when one is,
        ``"undetermined"`` otherwise (some class has too few or no further points)."""
        states = {c.status for c in self.classes}
        if "refuted" in states:
            return "refuted"
        return "determined" if states == {"checked"} else "undetermined"

    def __call__(self, n: int) -> Fraction:
        return self.classes[n % self.period](n)


def _value(coefficients: tuple[Fraction, ...], n: int) -> Fraction:
    """The polynomial of ``coefficients`` (of n**0 up) at ``n``."""
    return sum((c * n**k for k, c in enumerate(coefficients)), Fraction(0))


def _interpolate(points: list[tuple[int, int]]) -> tuple[Fraction, ...]:
    """The coefficients (of n**0 up) of the polynomial through ``points``, exactly
    (Lagrange's form, expanded with fractions)."""
    k = len(points)
    coeffs = [Fraction(0)] * k
    for i, (xi, yi) in enumerate(points):
        basis = [Fraction(1)]  # the product of (n - xj) / (xi - xj) over j != i
        for j, (xj, _) in enumerate(points):
            if j == i:
                continue
            scale = Fraction(1, xi - xj)
            nxt = [Fraction(0)] * (len(basis) + 1)
            for d, c in enumerate(basis):
                nxt[d + 1] += c * scale
                nxt[d] -= c * xj * scale
            basis = nxt
        for d, c in enumerate(basis):
            coeffs[d] += yi * c
    return tuple(coeffs)


def _text(coefficients: tuple[Fraction, ...]) -> str:
    import sympy

    n = sympy.Symbol("n")
    expr = sum(sympy.Rational(c.numerator, c.denominator) * n**k for k, c in enumerate(coefficients))
    return str(sympy.expand(expr))


def fit(q: int, period: int, counts: dict[int, int]) -> Quasipolynomial:
    """The quasipolynomial of degree 2q and the given period through ``counts``
    (``{n: count}``), class by class (see the module docstring).

    Raises
    ------
    QueensError
        For q or period out of range, or counts that are not ``{n >= 1: count >= 0}``.
    """
    q = validate.whole_number(q, "q", minimum=1, maximum=MAX_Q)
    period = validate.whole_number(period, "period", minimum=1, maximum=10_000)
    if not isinstance(counts, dict) or not all(type(n) is int and n >= 1 and type(c) is int for n, c in counts.items()):
        raise QueensError("counts is a dict {n: count} of integers, n >= 1")
    degree = 2 * q
    classes = []
    for r in range(period):
        ns = sorted(n for n in counts if n % period == r)
        if len(ns) < degree + 1:
            classes.append(ClassFit(r, tuple(ns), None, "undetermined"))
            continue
        coefficients = _interpolate([(n, counts[n]) for n in ns[: degree + 1]])
        rest = ns[degree + 1 :]
        off = next((n for n in rest if _value(coefficients, n) != counts[n]), None)
        status = "refuted" if off is not None else ("checked" if rest else "unchecked")
        classes.append(ClassFit(r, tuple(ns), coefficients, status, off, _text(coefficients)))
    return Quasipolynomial(q, period, tuple(classes))


def default_n_max(q: int, period: int) -> int:
    """The largest n that gives every residue class 2q + 2 points (one to check), from n = 1."""
    return min(MAX_N, period * (2 * q + 2))


def qqueens_counts(
    q: int, n_max: int, *, force: bool = False, progress: Callable[[int, int], None] | None = None
) -> dict[int, int]:
    """``{n: the number of ways to place q non-attacking queens on n x n}`` for n = 1 ..
    ``n_max``, by the native engine's board search (its practical limit applies unless
    ``force``)."""
    from .native import boards, engine

    q = validate.whole_number(q, "q", minimum=1, maximum=MAX_Q)
    n_max = validate.whole_number(n_max, "n_max", minimum=1, maximum=MAX_N, why="the native engine's bitboards")
    force = validate.flag(force, "force")
    boards.check_reach(Problem(n_max, queens=q), force)  # the largest board first: refused before any work
    out = {}
    for n in range(1, n_max + 1):
        out[n] = engine.count(Problem(n, queens=q), force=True)
        if progress is not None:
            progress(n, n_max)
    return out


@dataclass(frozen=True)
class QQueensReport:
    """``queenslab experiment q-queens``: the counts, the fit and the published formula."""

    experiment: str
    q: int
    period: int
    n_max: int
    results: tuple[dict, ...]
    status: str
    constituents: tuple[dict, ...]
    published: str | None
    agrees: bool | None
    seconds: float
    provenance: dict


def qqueens_experiment(
    q: int,
    *,
    period: int | None = None,
    n_max: int | None = None,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> QQueensReport:
    """Count q queens on n x n for n = 1 .. ``n_max``, fit the quasipolynomial of
    ``period`` (default: the published one's), and compare it with the published one.

    ``agrees`` is True when every class is checked and equals the published constituent
    at every n counted and at 2q + 1 further n (so as polynomials), False when a class
    differs, None when there is no published formula or the fit is not determined.

    Raises
    ------
    QueensError
        Without a period for a q that has no published one; bad arguments; TooLarge for a
        count beyond the practical limit without ``force``.
    """
    t0 = time.perf_counter()
    q = validate.whole_number(q, "q", minimum=1, maximum=MAX_Q)
    known = published(q)
    if period is None:
        if known is None:
            raise QueensError(
                f"no published quasipolynomial for q = {q} gives a period here; give one, {setting('period=P', '--period P')}: the "
                "counts are fitted class by class modulo it"
            )
        period = known[1]
    period = validate.whole_number(period, "period", minimum=1, maximum=10_000)
    n_max = default_n_max(q, period) if n_max is None else n_max
    counts = qqueens_counts(q, n_max, force=force, progress=progress)
    fitted = fit(q, period, counts)
    agrees = None
    if known is not None and fitted.status == "determined":
        _, known_period, formula = known
        # 2q + 1 points of every class modulo both periods: equal there, equal as polynomials
        probe = range(1, n_max + math.lcm(period, known_period) * (2 * q + 1) + 1)
        agrees = all(fitted(n) == formula[n % known_period](n) for n in probe)
    constituents = tuple(
        {
            "residue": c.residue,
            "points": len(c.points),
            "status": c.status,
            "polynomial": c.text,
            "refuted_at": c.refuted_at,
        }
        for c in fitted.classes
    )
    return QQueensReport(
        experiment="q-queens",
        q=q,
        period=period,
        n_max=n_max,
        results=tuple({"n": n, "count": c} for n, c in counts.items()),
        status=fitted.status,
        constituents=constituents,
        published=None if known is None else known[0],
        agrees=agrees,
        seconds=time.perf_counter() - t0,
        provenance=environment(),
    )
