"""The backend interface every solver of queenslab implements, and its result types.

A backend answers the same three questions with the same meaning everywhere:

* ``solve(problem, **opts)`` -- one solution as a 0-based tuple, or None if there is none;
* ``count(problem, *, unique=False, **opts)`` -- the number of solutions, or with
  ``unique=True`` the number of orbits under ``problem.symmetries()``;
* ``solutions(problem, *, limit=None, **opts)`` -- an iterator of 0-based tuples.

Options a backend does not know raise :class:`~queenslab.errors.UnknownOption`; they are
never silently ignored. The registry of backends is in :mod:`queenslab.backends`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Iterator

from .errors import UnknownOption
from .problem import Problem

__all__ = ["Backend", "CountResult"]


@dataclass(frozen=True)
class CountResult:
    """The outcome of a count.

    Attributes
    ----------
    total : int
        Number of solutions.
    unique : int or None
        Number of orbits under ``problem.symmetries()`` (None if not asked for).
    nodes : int or None
        Search nodes (queens placed) when the backend reports them.
    backend : str
        Name of the backend that counted.
    method : str
        How it counted (for the native engine: ``"symmetric"`` or ``"general"``).
    complete : bool
        False when a limit stopped the search: ``total`` (or ``unique``) is then only
        a lower bound, never a final count.
    """

    total: int
    unique: int | None = None
    nodes: int | None = None
    backend: str = ""
    method: str = ""
    complete: bool = True


class Backend(ABC):
    """Abstract base class of a queenslab backend.

    Subclasses set :attr:`name` and :attr:`options` (the option names they accept
    besides the ones in the signatures) and implement the three methods.
    """

    name: str = ""
    options: frozenset[str] = frozenset()

    def check_options(self, opts: dict) -> None:
        """Raise :class:`UnknownOption` for any option this backend does not know."""
        unknown = sorted(set(opts) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise UnknownOption(
                f"backend {self.name!r} does not know option(s) {', '.join(unknown)}; "
                f"it accepts: {allowed}"
            )

    @abstractmethod
    def solve(self, problem: Problem, **opts) -> tuple[int, ...] | None:
        """One solution, or None when the problem has none."""

    @abstractmethod
    def count(self, problem: Problem, *, unique: bool = False, **opts) -> int:
        """Number of solutions (``unique=True``: number of orbits)."""

    def counts(self, problem: Problem, *, unique: bool = False, **opts) -> CountResult:
        """Total (and with ``unique`` the orbit count) as a :class:`CountResult`."""
        total = self.count(problem, **opts)
        orbits = self.count(problem, unique=True, **opts) if unique else None
        return CountResult(total, orbits, None, self.name, "")

    @abstractmethod
    def solutions(self, problem: Problem, *, limit: int | None = None, **opts) -> Iterator[tuple[int, ...]]:
        """Iterate over solutions (at most ``limit``)."""
