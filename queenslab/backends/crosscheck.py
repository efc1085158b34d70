"""Counting one problem on several backends, side by side."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import validate
from ..errors import MissingDependency, QueensError, TooLarge
from ..problem import Problem
from .registry import BACKENDS, get_backend

__all__ = ["crosscheck", "Crosscheck", "CrosscheckRow"]


@dataclass(frozen=True)
class CrosscheckRow:
    """One backend's answer in a :func:`crosscheck`.

    ``error`` holds the message when the backend could not run (an optional package that
    is not installed, or a board beyond the backend's practical limit); ``count``/``unique``
    are then None.
    """

    backend: str
    count: int | None
    unique: int | None
    seconds: float
    complete: bool = True
    error: str | None = None


@dataclass(frozen=True)
class Crosscheck:
    """The same problem on several backends.

    A row stopped by a limit (``complete=False``) holds a lower bound, and a row with an
    ``error`` holds nothing: neither is ever part of an agreement. The :attr:`verdict` is

    * ``"disagree"`` when two complete answers differ;
    * ``"agree"`` when at least two backends answered completely, all alike, and no row
      was stopped by a limit;
    * ``"inconclusive"`` otherwise (fewer than two complete answers, or a limited row).

    An interrupted crosscheck has no verdict: it raises ``KeyboardInterrupt``.
    """

    problem: Problem
    rows: tuple[CrosscheckRow, ...]
    unique: bool

    @property
    def answered(self) -> tuple[CrosscheckRow, ...]:
        """The rows with a complete answer."""
        return tuple(r for r in self.rows if r.error is None and r.complete)

    @property
    def limited(self) -> tuple[CrosscheckRow, ...]:
        """The rows a limit stopped (their counts are lower bounds)."""
        return tuple(r for r in self.rows if r.error is None and not r.complete)

    @property
    def verdict(self) -> str:
        """``"agree"``, ``"disagree"`` or ``"inconclusive"`` (see the class docstring)."""
        answers = {(r.count, r.unique if self.unique else None) for r in self.answered}
        if len(answers) > 1:
            return "disagree"
        if len(self.answered) >= 2 and not self.limited:
            return "agree"
        return "inconclusive"

    @property
    def agree(self) -> bool:
        """Whether the verdict is ``"agree"``: two or more complete answers, all alike."""
        return self.verdict == "agree"


def crosscheck(
    problem: Problem,
    backends: tuple[str, ...] | list[str] | None = None,
    *,
    unique: bool = True,
    options: dict[str, dict] | None = None,
    strict: bool = False,
) -> Crosscheck:
    """Count ``problem`` on several backends and compare.

    Parameters
    ----------
    problem : Problem
    backends : sequence of str, optional
        Registered names; default all of them.
    unique : bool, default True
        Also compare the orbit counts.
    options : dict, optional
        Per-backend options, e.g. ``{"sat": {"encoding": "ladder"}}``.
    strict : bool, default False
        Raise the error of a backend that cannot run instead of recording it in its row
        (the command line does this for backends the user named).

    Returns
    -------
    Crosscheck

    Examples
    --------
    >>> r = crosscheck(Problem(6, toroidal=False), ["native", "cpsat", "sat"])
    >>> r.agree, [row.count for row in r.rows]
    (True, [4, 4, 4])
    """
    if isinstance(backends, (str, bytes)) or not isinstance(backends, (tuple, list, type(None))):
        raise QueensError(
            f"backends must be a list of backend names, e.g. ['native', 'sat'], got {validate.brief(backends)}"
        )
    names = list(BACKENDS) if backends is None else list(backends)
    if not names:
        raise QueensError("crosscheck needs at least one backend")
    if options is not None and not (isinstance(options, dict) and all(isinstance(v, dict) for v in options.values())):
        raise QueensError(
            "options must be a dict of per-backend option dicts, e.g. {'sat': {'encoding': 'ladder'}}, "
            f"got {validate.brief(options)}"
        )
    options = options or {}
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise QueensError(f"options given for backends not in the check: {', '.join(unknown)}")
    rows = []
    refusals: list[TooLarge] = []
    for name in names:
        be = get_backend(name)
        t0 = time.perf_counter()
        try:
            r = be.counts(problem, unique=unique, **options.get(name, {}))
        except (MissingDependency, TooLarge) as e:  # the backend cannot run this problem here
            if strict:
                raise
            if isinstance(e, TooLarge):
                refusals.append(e)
            rows.append(CrosscheckRow(name, None, None, time.perf_counter() - t0, False, str(e)))
            continue
        rows.append(CrosscheckRow(name, r.count, r.unique, time.perf_counter() - t0, r.complete))
    if refusals and all(row.error for row in rows):  # nothing ran: the problem is too large for all of them
        raise refusals[0]
    return Crosscheck(problem, tuple(rows), unique)
