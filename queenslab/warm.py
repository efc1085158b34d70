"""The kernel sets of the native counts, and compiling them ahead of the first count.

Each counting method of the native engine (:data:`queenslab.native.methods.REGISTRY`)
runs its own numba kernels and says which (``dispatchers()``) and how to compile them
(``warm_up()``: counting a small board by the method), so that the kernels compile for exactly the argument types of a
real count (a later count of any size finds them in numba's cache).
:func:`ensure` does this before a count, with the notice of :mod:`queenslab.native.cache`;
``queenslab warm`` does it for every set.

The standard problem's count by the join runs the join's kernels built ahead of time
instead (:mod:`queenslab.native.aot`), which load without numba: :func:`ensure` builds them
before the first such count (:func:`build_ahead`, with the same notice), and
:func:`warm_ahead` for ``queenslab warm``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .native import aot
from .native.cache import CompileReport, announced, compile_once
from .native.methods import REGISTRY

if TYPE_CHECKING:
    from .reports import AheadOfTime

__all__ = ["AHEAD", "AOT_ENV", "KernelSet", "SETS", "build_ahead", "ensure", "warm", "warm_ahead"]


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


#: How the notices name the build of :mod:`queenslab.native.aot`.
AHEAD = "the join counter's kernels ahead of time"
#: The environment variable that turns that build off (``QUEENSLAB_AOT=0``).
AOT_ENV = aot.ENV


def ensure(method: str, stream: Any = None, *, standard: bool = False) -> CompileReport:
    """Compile the kernel set of ``method`` (a key of :data:`SETS`) unless it is cached,
    with a notice on ``stream`` (standard error) giving the measured time.

    ``standard``: the count is of the standard problem. By the join, it then runs the
    kernels built ahead of time (:mod:`queenslab.native.aot`): loaded when built, else
    built (unless a build failed here before, or the build is turned off), and only where
    that fails are the just-in-time kernels compiled.
    """
    if method == "join" and standard and aot.enabled():
        if aot.load() is not None:
            return CompileReport(False, 0.0, 0.0)
        if aot.failure() is None:
            report, reason = build_ahead(stream)
            if reason is None:
                return report
    s = SETS[method]
    return compile_once(s.kernels(), s.what, s.compile, stream)


class _BuildFailed(Exception):
    """The build ahead of time failed, for the reason given."""


def build_ahead(stream: Any = None) -> tuple[CompileReport, str | None]:
    """Build the join's kernels ahead of time (:func:`queenslab.native.aot.build`) with the
    notices of a compile; returns the report and None, or a report of nothing compiled and
    the reason the build failed (said on ``stream`` instead of the compile's time, which
    is not recorded: the kernels are then compiled just in time)."""

    def build() -> None:
        reason = aot.build()
        if reason is not None:
            raise _BuildFailed(reason)

    try:
        return announced(AHEAD, build, stream), None
    except _BuildFailed as failed:
        print(
            f"could not build them ahead of time ({failed}); numba compiles them at their first use instead "
            "(`queenslab warm` tries the build again)",
            file=stream or sys.stderr,
            flush=True,
        )
        return CompileReport(False, 0.0, 0.0), str(failed)


def warm_ahead(stream: Any = None) -> AheadOfTime:
    """Build the join's kernels ahead of time unless they load (or the build is turned off);
    a build that failed before is tried again."""
    from .reports import AheadOfTime

    where = str(aot.path())
    if not aot.enabled():
        return AheadOfTime(False, False, False, 0.0, 0.0, where, None)
    if aot.load() is not None:
        return AheadOfTime(True, True, False, 0.0, 0.0, where, None)
    report, reason = build_ahead(stream)
    return AheadOfTime(True, reason is None, report.compiled, report.seconds, report.cpu_seconds, where, reason)


def warm(stream: Any = None) -> list[tuple[KernelSet, CompileReport]]:
    """Compile every kernel set not yet cached (in the order of :data:`SETS`), each with
    its notice on ``stream``; returns each set with what was done and how long it took."""
    return [(s, compile_once(s.kernels(), s.what, s.compile, stream)) for s in SETS.values()]
