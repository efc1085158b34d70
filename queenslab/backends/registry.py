"""The backend registry and the facade: ``solve``, ``count``, ``counts``, ``solutions``.

The facade is the backends' own methods with a backend chosen by name: ``count(problem,
backend="cpsat", **opts)`` is ``get_backend("cpsat").count(problem, **opts)``. A model
built (and perhaps edited) with :mod:`queenslab.models` is counted, enumerated or solved
the same way, given as the ``model`` option; without ``backend`` the model's own backend
is chosen, so ``count(problem, model=m)`` is ``get_backend(m.backend).count(problem,
model=m)``.

The registry is the single place that names backends: one entry per backend class, the
first entry the default. A backend whose counts are estimates (``approximate``, such as
``approxmc``) is registered like the others; its results say so themselves
(:class:`~queenslab.backends.approximate.ApproximateCount`), and ``count`` refuses them. The command line derives its ``--backend`` choices and the
backends' option flags from it. Backend modules are light (they import their solver
packages on first use), so the registry imports them directly.

Examples
--------
>>> from queenslab import Problem
>>> count(Problem(8))
92
>>> count(Problem(8), unique=True, backend="native")
12
>>> from queenslab.models import cpsat
>>> m = cpsat.build(Problem(8))
>>> _ = m.model.Add(m.q[0] == 0)            # an edit: the first queen in the corner
>>> count(Problem(8), model=m), count(Problem(8), model=m, backend="cpsat")
(4, 4)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import QueensError
from ..problem import Problem
from ..result import CountResult
from .approxmc import ApproxmcBackend
from .cpmpy import CpmpyBackend
from .cpsat import CpsatBackend
from .d4 import D4Backend
from .interface import Backend, Option
from .native import NativeBackend
from .pumpkin import PumpkinBackend
from .sat import GanakBackend, SatBackend
from .xcsp3 import Xcsp3Backend

__all__ = ["BACKENDS", "exact_backends", "get_backend", "backend_options", "solve", "count", "counts", "solutions"]

#: name -> backend class; the first entry is the default backend.
BACKENDS: dict[str, type[Backend]] = {
    cls.name: cls
    for cls in (
        NativeBackend,
        CpsatBackend,
        SatBackend,
        GanakBackend,
        D4Backend,
        CpmpyBackend,
        Xcsp3Backend,
        PumpkinBackend,
        ApproxmcBackend,
    )
}

_instances: dict[str, Backend] = {}


def exact_backends() -> list[str]:
    """The names of the registered backends whose counts are exact (not estimates), in
    registry order: the ones to offer where an answer must be exact.

    Examples
    --------
    >>> exact_backends()[0]
    'native'
    """
    return [name for name, be in BACKENDS.items() if not be.approximate]


def get_backend(name: str | None = None) -> Backend:
    """Return the backend registered as ``name`` (default: the first registered).

    Raises
    ------
    QueensError
        If no backend has that name; the message lists the registered ones.
    """
    if name is None:
        name = next(iter(BACKENDS))
    if not isinstance(name, str) or name not in BACKENDS:
        raise QueensError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    if name not in _instances:
        _instances[name] = BACKENDS[name]()
    return _instances[name]


def backend_options(question: str) -> dict[str, tuple[Option, list[str]]]:
    """Every command-line option some backend takes for ``question``, with the backends
    taking it (Python-only options such as an edited ``model`` are left out).

    One name means one option everywhere: two backends declaring different options
    under the same name are refused (a test checks the registry).

    Returns
    -------
    dict
        option name -> (the :class:`Option`, names of the backends taking it).
    """
    out: dict[str, tuple[Option, list[str]]] = {}
    for name, cls in BACKENDS.items():
        for opt in cls.options:
            if question not in opt.applies_to or not opt.on_command_line:
                continue
            if opt.name in out and out[opt.name][0] != opt:
                raise QueensError(f"backends declare two different options named {opt.name!r}")
            out.setdefault(opt.name, (opt, []))[1].append(name)
    return out


def _chosen(backend: str | None, opts: dict[str, Any]) -> Backend:
    """The backend named, or for an edited ``model`` the model's own, or the default."""
    if backend is None and opts.get("model") is not None:
        backend = getattr(type(opts["model"]), "backend", None)
        if not isinstance(backend, str):
            raise QueensError(
                "model must come from the build function of queenslab.models.cpsat, .cnf or .cpmpy, "
                f"got {type(opts['model']).__name__}"
            )
    return get_backend(backend)


def solve(problem: Problem, *, backend: str | None = None, **opts: Any) -> tuple[int, ...] | None:
    """One solution of ``problem`` (0-based tuple), or None when it has none."""
    return _chosen(backend, opts).solve(problem, **opts)


def count(problem: Problem, *, unique: bool = False, backend: str | None = None, **opts: Any) -> int:
    """Number of solutions (``unique=True``: orbits under ``problem.symmetries()``).

    With a ``model`` (from a model module's ``build``, possibly edited) and no
    ``backend``, the model's own backend counts it as it is: ``count(problem, model=m)``
    is ``get_backend(m.backend).count(problem, model=m)`` (a lex-leader model counts
    orbits: pass ``unique=True``).
    """
    return _chosen(backend, opts).count(problem, unique=unique, **opts)


def counts(problem: Problem, *, unique: bool = False, backend: str | None = None, **opts: Any) -> CountResult:
    """Total and (with ``unique``) orbit count in one :class:`CountResult` (a ``model``
    picks its own backend, as in :func:`count`)."""
    return _chosen(backend, opts).counts(problem, unique=unique, **opts)


def solutions(
    problem: Problem, *, limit: int | None = None, backend: str | None = None, **opts: Any
) -> Iterator[tuple[int, ...]]:
    """Iterate over solutions (the native backend: in lexicographic order)."""
    return _chosen(backend, opts).solutions(problem, limit=limit, **opts)
