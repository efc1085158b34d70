"""The backend registry and the facade: ``solve``, ``count``, ``counts``, ``solutions``.

The registry is the single place that names backends. Its first entry is the default.
Backends are imported lazily, so optional solver packages are loaded only when used.

Examples
--------
>>> from queenslab import Problem
>>> count(Problem(8))
92
>>> count(Problem(8), unique=True, backend="native")
12
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Iterator

from .errors import QueensError
from .interface import Backend, CountResult
from .problem import Problem

__all__ = ["BACKENDS", "get_backend", "solve", "count", "counts", "solutions", "crosscheck", "Crosscheck", "CrosscheckRow"]

#: name -> "module:Class"; the first entry is the default backend.
BACKENDS: dict[str, str] = {
    "native": "queenslab.native.backend:NativeBackend",
    "cpsat": "queenslab.models.cpsat:CpsatBackend",
    "sat": "queenslab.models.cnf:SatBackend",
    "ganak": "queenslab.models.cnf:GanakBackend",
}

_instances: dict[str, Backend] = {}


def get_backend(name: str | None = None) -> Backend:
    """Return the backend registered as ``name`` (default: the first registered).

    Raises
    ------
    QueensError
        If no backend has that name; the message lists the registered ones.
    """
    if name is None:
        name = next(iter(BACKENDS))
    if name not in BACKENDS:
        raise QueensError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    if name not in _instances:
        module, cls = BACKENDS[name].split(":")
        _instances[name] = getattr(importlib.import_module(module), cls)()
    return _instances[name]


def solve(problem: Problem, *, backend: str | None = None, **opts) -> tuple[int, ...] | None:
    """One solution of ``problem`` (0-based tuple), or None when it has none."""
    return get_backend(backend).solve(problem, **opts)


def count(problem: Problem, *, unique: bool = False, backend: str | None = None, **opts) -> int:
    """Number of solutions (``unique=True``: orbits under ``problem.symmetries()``)."""
    return get_backend(backend).count(problem, unique=unique, **opts)


def counts(problem: Problem, *, unique: bool = False, backend: str | None = None, **opts) -> CountResult:
    """Total and (with ``unique``) orbit count in one :class:`CountResult`."""
    return get_backend(backend).counts(problem, unique=unique, **opts)


def solutions(
    problem: Problem, *, limit: int | None = None, backend: str | None = None, **opts
) -> Iterator[tuple[int, ...]]:
    """Iterate over solutions (the native backend: in lexicographic order)."""
    return get_backend(backend).solutions(problem, limit=limit, **opts)


@dataclass(frozen=True)
class CrosscheckRow:
    """One backend's answer in a :func:`crosscheck`.

    ``error`` holds the message when the backend could not run (for instance an optional
    package that is not installed); ``total``/``unique`` are then None.
    """

    backend: str
    total: int | None
    unique: int | None
    seconds: float
    complete: bool = True
    error: str | None = None


@dataclass(frozen=True)
class Crosscheck:
    """The same problem on several backends.

    ``agree`` is True when every backend that answered completely gave the same total
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
        answers = {(r.total, r.unique if self.unique else None) for r in self.answered}
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
    >>> r.agree, [row.total for row in r.rows]
    (True, [4, 4, 4])
    """
    import time

    from .errors import MissingDependency

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
        rows.append(CrosscheckRow(name, r.total, r.unique, time.perf_counter() - t0, r.complete))
    return Crosscheck(problem, tuple(rows), unique)
