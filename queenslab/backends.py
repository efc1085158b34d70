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
from typing import Iterator

from .errors import QueensError
from .interface import Backend, CountResult
from .problem import Problem

__all__ = ["BACKENDS", "get_backend", "solve", "count", "counts", "solutions"]

#: name -> "module:Class"; the first entry is the default backend.
BACKENDS: dict[str, str] = {
    "native": "queenslab.native.backend:NativeBackend",
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
