"""Counting one problem on several backends, side by side."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import MissingDependency, QueensError
from ..problem import Problem
from .registry import BACKENDS, get_backend

__all__ = ["crosscheck", "Crosscheck", "CrosscheckRow"]


@dataclass(frozen=True)
class CrosscheckRow:
    """One backend's answer in a :func:`crosscheck`.

    ``error`` holds the message when the backend could not run (for instance an optional
    package that is not installed); ``count``/``unique`` are then None.
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

    ``agree`` is True when every backend that answered completely gave the same count
    (and the same unique count, when asked for).
    """

    problem: Problem
    rows: tuple[CrosscheckRow, ...]
    unique: bool

    @property
    def answered(self) -> tuple[CrosscheckRow, ...]:
        return tuple(r for r in self.rows if r.error is None and r.complete)

    @property
    def agree(self) -> bool:
        answers = {(r.count, r.unique if self.unique else None) for r in self.answered}
        return len(answers) <= 1


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
    names = list(BACKENDS) if backends is None else list(backends)
    if not names:
        raise QueensError("crosscheck needs at least one backend")
    options = options or {}
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise QueensError(f"options given for backends not in the check: {', '.join(unknown)}")
    rows = []
    for name in names:
        be = get_backend(name)
        t0 = time.perf_counter()
        try:
            r = be.counts(problem, unique=unique, **options.get(name, {}))
        except MissingDependency as e:
            if strict:
                raise
            rows.append(CrosscheckRow(name, None, None, time.perf_counter() - t0, False, str(e)))
            continue
        rows.append(CrosscheckRow(name, r.count, r.unique, time.perf_counter() - t0, r.complete))
    return Crosscheck(problem, tuple(rows), unique)
