"""The kernel sets of the native counts, and compiling them ahead of the first count.

Each counting method of the native engine (:data:`queenslab.native.methods.REGISTRY`)
runs its own numba kernels and says which (``dispatchers()``) and how to compile them
(``warm_up()``: counting a small board by the method), so that the kernels compile for exactly the argument types of a
real count (a later count of any size finds them in numba's cache).
:func:`ensure` does this before a count, with the notice of :mod:`queenslab.native.cache`;
``queenslab warm`` does it for every set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .native.cache import CompileReport, compile_once
from .native.methods import REGISTRY

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


#: The kernel sets, by count method, in the order of the registry.
SETS: dict[str, KernelSet] = {
    m.name: KernelSet(m.name, m.kernel_note, m.dispatchers, m.warm_up) for m in REGISTRY.values()
}


def ensure(method: str, stream: Any = None) -> CompileReport:
    """Compile the kernel set of ``method`` (a key of :data:`SETS`) unless it is cached,
    with a notice on ``stream`` (standard error) giving the measured time."""
    s = SETS[method]
    return compile_once(s.kernels(), s.what, s.compile, stream)


def warm(stream: Any = None) -> list[tuple[KernelSet, CompileReport]]:
    """Compile every kernel set not yet cached (in the order of :data:`SETS`), each with
    its notice on ``stream``; returns each set with what was done and how long it took."""
    return [(s, compile_once(s.kernels(), s.what, s.compile, stream)) for s in SETS.values()]
