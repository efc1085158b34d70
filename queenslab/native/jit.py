"""numba as the kernels load it: ``njit``, with numba's array library loaded without
scipy's BLAS, and the kernels' one intrinsic, :func:`popcount`.

When the first kernel loads, numba imports its array library (``numba.np.arraymath``),
which at import asks whether scipy's BLAS is there, only to choose how ``np.correlate``
and ``np.convolve`` are compiled; where scipy is installed that import alone costs a
sixth of a second of a fresh process. No kernel of queenslab uses BLAS, so the question
is answered "no" while the library loads (``np.dot`` and the other linear algebra still
find scipy when a program of the same process compiles them: only the answer given to
that import changes). Every kernel module takes ``njit`` from here, so the library is
loaded this way before numba first loads its registries (below).

Loading a kernel from numba's cache refreshes numba's typing and target registries
first: it imports and registers every implementation numba has (the array library, typed
containers, random generators, ...), a fifth of a second of a fresh process that counts
n = 16 in a third of one, though machine code read from the cache needs none of them,
only numba's runtime (the memory management the kernels' arrays use). So loading one of
queenslab's kernels from the cache initialises the runtime and reads the cached code; a compile (a cache miss, or any
other njit function of the process) still refreshes the registries itself, as numba's
compiler does before every compile. Both changes are made only on the numba versions
they were written against (:data:`NUMBA_TESTED`); another version loads as numba does.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import numba
from llvmlite import ir
from numba import njit, types
from numba.core import caching, cgutils, cpu
from numba.core.runtime import rtsys
from numba.extending import intrinsic

__all__ = ["LIGHT_CACHE_LOADS", "NUMBA_TESTED", "njit", "popcount"]

#: The numba versions (major, minor), first and last, whose cache loading and registry
#: loading this module changes: those whose source it was written against and the test
#: suite ran on. Any other version loads kernels as numba does.
NUMBA_TESTED = ((0, 68), (0, 68))


def _numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


def _no_blas() -> None:
    raise ImportError("queenslab's kernels use no BLAS")


@contextlib.contextmanager
def _without_blas() -> Iterator[None]:
    """numba's array library, if it loads meanwhile, is told scipy's BLAS is absent."""
    if "numba.np.arraymath" in sys.modules:
        yield
        return
    from numba.np import linalg

    ensure_blas = linalg.ensure_blas
    linalg.ensure_blas = _no_blas
    try:
        yield
    finally:
        linalg.ensure_blas = ensure_blas


def _load_array_library() -> None:
    """Import numba's array library with scipy's BLAS reported absent (see above)."""
    with _without_blas():
        import numba.np.arraymath  # noqa: F401  (loaded now, under the answer above)


_load_registries = cpu.CPUContext.load_additional_registries


def _registries_without_blas(self: cpu.CPUContext) -> None:
    """numba's registry loading, the array library imported first without BLAS."""
    _load_array_library()
    _load_registries(self)


_load_overload = caching.Cache.load_overload


def _load_cached(self: caching.Cache, sig: object, target_context: cpu.CPUContext) -> object:
    """numba's ``Cache.load_overload``; for a kernel of queenslab, with the runtime
    initialised instead of every registry refreshed: what its cached machine code needs
    (see the module docstring). Other programs' cached functions load as numba loads them."""
    if not getattr(getattr(self, "_py_func", None), "__module__", "").startswith("queenslab."):
        return _load_overload(self, sig, target_context)
    rtsys.initialize(target_context)
    # a kernel's cached environment imports the numba modules its code came from, the
    # array library among them for some
    with _without_blas(), self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


#: Whether this numba loads cached kernels without refreshing its registries.
LIGHT_CACHE_LOADS = NUMBA_TESTED[0] <= _numba_version() <= NUMBA_TESTED[1] and hasattr(caching.Cache, "_load_overload")

if LIGHT_CACHE_LOADS:
    cpu.CPUContext.load_additional_registries = _registries_without_blas  # type: ignore[method-assign]
    caching.Cache.load_overload = _load_cached  # type: ignore[method-assign]
else:  # another numba: load its array library now, as every version does
    _load_array_library()


@intrinsic
def popcount(typingctx, x):
    """The set bits of a 64-bit integer (signed or not), as an int64: ``llvm.ctpop.i64``,
    one instruction with POPCNT, vectorisable on AVX-512."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64:
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen
