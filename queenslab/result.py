"""The result of a count, shared by the engine, the models and the backends."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Incomplete, QueensError

__all__ = ["CountResult"]


@dataclass(frozen=True)
class CountResult:
    """The outcome of a count (the same names as the command line's ``--json``).

    Attributes
    ----------
    count : int or None
        Number of solutions (with ``complete=False``, a lower bound); None only when a
        model with lex-leader constraints was counted as it is (it counts orbits alone).
    unique : int or None
        Number of orbits under ``problem.symmetries()`` (None if not asked for).
    nodes : int or None
        Search nodes (queens placed) when the backend reports them.
    backend : str
        Name of the backend that counted.
    method : str
        How it counted (native: ``"symmetric"`` or ``"general"``; cpsat: the
        formulation; sat: encoding and solver).
    complete : bool
        False when a limit stopped the search: ``count`` (or ``unique``) is then only a
        lower bound, never a final count.
    threads : int or None
        Threads the backend counted on, where it chooses them.
    seconds : float or None
        Wall-clock time of the count.
    note : str or None
        Why the count is 0 when the problem's constraints contradict each other
        (:attr:`Problem.contradiction <queenslab.problem.Problem.contradiction>`), else None.
    classes : dict of int to int, or None
        The orbits by size, ``{orbit size: number of orbits}`` for every divisor of the
        group's order, when the count was asked to break them down (``classes=True``).
    derivation : str or None
        How the total was obtained from smaller counts when it was not counted directly
        (a solver's ``total_by``: Burnside's lemma as an equation, the torus's
        translations), else None.
    """

    count: int | None
    unique: int | None = None
    nodes: int | None = None
    backend: str = ""
    method: str = ""
    complete: bool = True
    threads: int | None = None
    seconds: float | None = None
    note: str | None = None
    classes: dict[int, int] | None = None
    derivation: str | None = None

    def value(self, unique: bool = False) -> int:
        """``unique`` or ``count``; raises :class:`Incomplete` when a limit stopped the count.

        Examples
        --------
        >>> CountResult(92, 12).value(), CountResult(92, 12).value(unique=True)
        (92, 12)
        """
        found = self.unique if unique else self.count
        if found is None:
            if unique:
                raise QueensError("this result holds no orbit count: count with unique=True")
            raise QueensError("this result holds only an orbit count (a model with lex-leader constraints)")
        if not self.complete:
            raise Incomplete(
                f"{self.backend or 'the backend'} stopped after {found} "
                f"{'orbits' if unique else 'solutions'}; the count is at least {found}",
                found,
            )
        return found
