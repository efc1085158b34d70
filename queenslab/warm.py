"""The kernel sets of the native counts, and compiling them ahead of the first count.

Each count method of :func:`queenslab.native.engine.count_both` runs its own numba
kernels: the symmetric search (:data:`~queenslab.native.engine.sym_count`, SIMD lanes or
scalar), the half-board join (:mod:`queenslab.native.join_kernels`) and the general
search (:func:`queenslab.native.kernels.walk`). A set is compiled by counting a small
board by its method, so that the kernels compile for exactly the argument types of a
real count (a later count of any size finds them in numba's cache).
:func:`ensure` does this before a count, with the notice of :mod:`queenslab.native.cache`;
``queenslab warm`` does it for every set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .native.cache import Compiled, compile_once

__all__ = ["KernelSet", "SETS", "ensure", "warm"]


@dataclass(frozen=True)
class KernelSet:
    """The kernels of one count method.

    Attributes
    ----------
    name : str
        The method (``"symmetric"``, ``"join"``, ``"general"``).
    what : str
        How the notice names the set.
    kernels : callable
        Returns the dispatchers whose caches say whether the set is compiled.
    compile : callable
        Counts a small board by the method: compiles the set, or loads it from the cache.
    """

    name: str
    what: str
    kernels: Callable[[], list[Any]]
    compile: Callable[[], object]


def _count(n: int, method: str, unique: bool, threads: int = 1, toroidal: bool = False) -> Callable[[], object]:
    def run() -> object:
        from .native import engine
        from .problem import Problem

        return engine.count_both(Problem(n, toroidal=toroidal), unique=unique, method=method, threads=threads)

    return run


def _sym_kernels() -> list[Any]:
    from .native import engine

    return [engine.sym_count]


def _join_kernels() -> list[Any]:
    from .native import join_kernels as JK

    return [
        JK.join_tasks,
        JK.quarter_tables,
        JK.quarter_size,
        JK.task_costs,
        JK.join_count,
        JK.fixed_counts,
        # a variant with blocked cells or fixed queens: its own tables, row splits, fixed boards
        JK.masked_quarter_tables,
        JK.masked_join_tasks,
        JK.masked_fixed_counts,
    ]


def _general_kernels() -> list[Any]:
    from .native import kernels

    return [kernels.walk]


def _join() -> None:
    from .native import engine
    from .problem import Problem

    _count(6, "join", True)()  # total, and the boards fixed by the quarter and half turn
    _count(6, "join", False, threads=2)()  # on threads: the tasks ordered by their cost
    corners = [(0, 0), (0, 5), (5, 0), (5, 5)]  # a variant that keeps the rotations: its fixed boards too
    engine.count_both(Problem(6, blocked=corners), unique=True, method="join", threads=1)


def _general() -> None:
    _count(6, "general", True)()  # the walk with the symmetry group: orbits
    _count(6, "general", False, toroidal=True)()


#: The kernel sets, by count method.
SETS: dict[str, KernelSet] = {
    "symmetric": KernelSet("symmetric", "the counting kernels", _sym_kernels, _count(8, "symmetric", True)),
    "join": KernelSet("join", "the join counter's kernels", _join_kernels, _join),
    "general": KernelSet("general", "the general search kernel", _general_kernels, _general),
}


def ensure(method: str, stream: Any = None) -> Compiled:
    """Compile the kernel set of ``method`` (a key of :data:`SETS`) unless it is cached,
    with a notice on ``stream`` (standard error) giving the measured time."""
    s = SETS[method]
    return compile_once(s.kernels(), s.what, s.compile, stream)


def warm(stream: Any = None) -> list[tuple[KernelSet, Compiled]]:
    """Compile every kernel set not yet cached (in the order of :data:`SETS`), each with
    its notice on ``stream``; returns each set with what was done and how long it took."""
    return [(s, compile_once(s.kernels(), s.what, s.compile, stream)) for s in SETS.values()]
