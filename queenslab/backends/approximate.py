"""The result of an approximate count: an estimate with its (epsilon, delta) guarantee.

An approximate model counter such as ApproxMC (Chakraborty, Meel and Vardi, "Algorithmic
improvements in approximate counting for probabilistic inference: from linear to
logarithmic SAT calls") returns an estimate ``c`` with a probabilistic guarantee: the
true count ``x`` lies within ``[c / (1 + epsilon), c * (1 + epsilon)]`` with
probability at least ``1 - delta``. Such a result must never pass for an exact count, so
it is a type of its own, :class:`ApproximateCount`:

* its ``count`` / ``unique`` are the estimates, and :attr:`~ApproximateCount.count_bounds`
  / :attr:`~ApproximateCount.unique_bounds` the whole numbers the guarantee allows;
* :meth:`ApproximateCount.value` (and so ``Backend.count``) raises :class:`NotExact`
  instead of returning an estimate as if it were the number of solutions, as an
  incomplete count raises :class:`~queenslab.errors.Incomplete`;
* :meth:`ApproximateCount.within` holds an exact count (a published value, an exact
  backend's answer) against the bounds.

Each of the two estimates (solutions, orbits) has the guarantee on its own; both hold
together with probability at least ``1 - 2 delta`` (the union bound).

Examples
--------
>>> r = ApproximateCount(88, epsilon=0.8, delta=0.2)
>>> r.count_bounds
(49, 158)
>>> r.within(92)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from ..errors import QueensError
from ..result import CountResult

__all__ = ["ApproximateCount", "NotExact", "bounds", "within_all", "approximate"]


class NotExact(QueensError):
    """An approximate count was asked for as an exact number (``count`` / ``value``)."""


def bounds(estimate: int, epsilon: float) -> tuple[int, int]:
    """The whole numbers ``x`` with ``estimate / (1 + epsilon) <= x <= estimate * (1 + epsilon)``.

    Computed in exact rational arithmetic (``epsilon`` as the float it is), so that a
    count on the edge of the interval is never pushed out by rounding.

    Examples
    --------
    >>> bounds(88, 0.8), bounds(0, 0.8), bounds(4, 1.0)
    ((49, 158), (0, 0), (2, 8))
    """
    from fractions import Fraction  # here, not at the top: every count imports this module

    factor = 1 + Fraction(epsilon)
    return math.ceil(estimate / factor), math.floor(estimate * factor)


def within_all(pairs: Iterable[tuple[int | None, tuple[int, int] | None]]) -> bool | None:
    """Whether each exact count lies within its bounds, over the pairs where both are
    given; None when no pair is.

    Examples
    --------
    >>> within_all([(92, (49, 158)), (None, (7, 21))]), within_all([(12, None)])
    (True, None)
    """
    held = None
    for exact, pair in pairs:
        if exact is None or pair is None:
            continue
        if not pair[0] <= exact <= pair[1]:
            return False
        held = True
    return held


@dataclass(frozen=True)
class ApproximateCount(CountResult):
    """A :class:`~queenslab.result.CountResult` whose ``count`` and ``unique`` are estimates.

    Attributes
    ----------
    epsilon : float
        The tolerance: each estimate ``c`` is within ``[c / (1 + epsilon), c * (1 +
        epsilon)]`` of the true count ...
    delta : float
        ... with probability at least ``1 - delta``.
    """

    epsilon: float = 0.8
    delta: float = 0.2

    @property
    def count_bounds(self) -> tuple[int, int] | None:
        """``(lower, upper)``: the counts of solutions the guarantee allows (None when
        only orbits were counted)."""
        return None if self.count is None else bounds(self.count, self.epsilon)

    @property
    def unique_bounds(self) -> tuple[int, int] | None:
        """``(lower, upper)``: the orbit counts the guarantee allows (None when not asked)."""
        return None if self.unique is None else bounds(self.unique, self.epsilon)

    def within(self, count: int | None, unique: int | None = None) -> bool | None:
        """Whether the exact ``count`` (and ``unique``, where given and estimated) lie
        within the bounds; None when there is nothing exact to hold them against."""
        return within_all([(count, self.count_bounds), (unique, self.unique_bounds)])

    def value(self, unique: bool = False) -> int:
        """Refused: an estimate is not the number of solutions.

        Raises
        ------
        NotExact
            Always; ``count`` / ``unique`` hold the estimates and
            :attr:`count_bounds` / :attr:`unique_bounds` what they guarantee.
        """
        what = "orbits" if unique else "solutions"
        estimate = self.unique if unique else self.count
        low, high = (self.unique_bounds if unique else self.count_bounds) or (None, None)
        raise NotExact(
            f"{self.backend or 'the backend'} estimates: about {estimate} {what}, between {low} and {high} with "
            f"probability at least {1 - self.delta:g} (epsilon {self.epsilon:g}, delta {self.delta:g}), not an "
            "exact number; counts() returns the estimate with its bounds, an exact backend the number"
        )


def approximate(result: CountResult, epsilon: float, delta: float) -> ApproximateCount:
    """``result``'s numbers as estimates with the guarantee (epsilon, delta)."""
    if isinstance(result, ApproximateCount):
        raise QueensError("this result is already approximate")
    given: dict[str, Any] = {f.name: getattr(result, f.name) for f in fields(CountResult)}
    return ApproximateCount(**given, epsilon=epsilon, delta=delta)
