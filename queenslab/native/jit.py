"""numba as the kernels load it: ``njit``, with numba's array library loaded without
scipy's BLAS, the kernels' intrinsics, :func:`popcount` and :func:`block_counter`, and
numba's ``trailing_zeros``; the one module of queenslab that imports numba for the kernels.

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

Three more costs of a fresh process are left out the same way, none of which changes what
numba does for queenslab's kernels:

* importing numba imports scipy only to check that its version is at least 1.0, and
  PyYAML to read a ``.numba_config.yaml`` where the working directory has one: scipy is
  declined while numba loads, and so is PyYAML where there is no such file, numba's
  configuration then being given a reader that imports PyYAML when a file is read (numba
  reads the file again before each compile, so one found later is still read); a few
  hundredths of a second together;
* BLAS is declined by making ``scipy.linalg.cython_blas`` unimportable while kernels load,
  instead of importing numba's linear algebra module (and with it its array object
  library) to patch it;
* the first call of a dispatcher initialises numba's extensions (it reads the entry points
  of every installed distribution) before it even looks at the cache; a kernel of
  queenslab reads the cache first and initialises the extensions only on a miss, before
  compiling, which is where extensions can matter.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def _declined(*modules: str) -> Iterator[None]:
    """While inside, importing any of ``modules`` (not yet imported) raises ImportError at
    once, as for a package that is not installed; afterwards they import as usual."""
    blocked = [m for m in modules if m not in sys.modules]
    for m in blocked:
        sys.modules[m] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for m in blocked:
            if m in sys.modules and sys.modules[m] is None:
                del sys.modules[m]


class _YamlOnFirstUse:
    """What numba's configuration reads of PyYAML (``safe_load``), imported when numba
    first reads a ``.numba_config.yaml``."""

    @staticmethod
    def safe_load(stream: Any) -> Any:
        return importlib.import_module("yaml").safe_load(stream)


def _import_numba() -> None:
    """Import numba without importing scipy or PyYAML (see the module docstring): scipy is
    declined for the version check; PyYAML, unless the working directory has a numba
    configuration file, is given to numba's configuration as :class:`_YamlOnFirstUse`
    wherever it is installed (numba reads the file again before each compile)."""
    if "numba" in sys.modules:
        return
    lazy_yaml = not os.path.exists(".numba_config.yaml")
    with _declined("scipy", "yaml") if lazy_yaml else _declined("scipy"):
        import numba.core.config as config
    if lazy_yaml and getattr(config, "_HAVE_YAML", True) is False and importlib.util.find_spec("yaml") is not None:
        config.yaml = _YamlOnFirstUse
        config._HAVE_YAML = True


_import_numba()
with _declined("scipy"):  # numba imports scipy only to check that its version is >= 1.0
    import numba
    from llvmlite import ir
    from numba import types
    from numba.core import caching, cgutils, cpu, entrypoints
    from numba.core.runtime import rtsys
    from numba.cpython.unsafe.numbers import trailing_zeros
    from numba.extending import intrinsic

__all__ = ["BLOCK", "LIGHT_CACHE_LOADS", "NUMBA_TESTED", "block_counter", "njit", "popcount", "trailing_zeros"]

#: The numba versions (major, minor), first and last, whose cache loading and registry
#: loading this module changes: those whose source it was written against and the test
#: suite ran on. Any other version loads kernels as numba does.
NUMBA_TESTED = ((0, 68), (0, 68))


def _numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


def _without_blas() -> contextlib.AbstractContextManager[None]:
    """numba's array library, if it loads meanwhile, finds scipy's BLAS absent (its
    ``ensure_blas`` imports ``scipy.linalg.cython_blas``, which then raises ImportError)."""
    if "numba.np.arraymath" in sys.modules:
        return contextlib.nullcontext()
    return _declined("scipy.linalg.cython_blas")


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
        found = self._load_overload(sig, target_context)
    if found is None:  # a miss: numba compiles next, with its extensions initialised
        entrypoints.init_all()
    return found


def _cache_first() -> None:
    """A queenslab dispatcher's hook before its first compile or cache load: nothing, as
    :func:`_load_cached` initialises numba's extensions on a cache miss."""


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba's ``njit``; where this numba loads cached kernels lightly, the dispatcher
    reads its cache before initialising numba's extensions (see the module docstring)."""
    if not LIGHT_CACHE_LOADS:
        return numba.njit(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return _cached_first(numba.njit(args[0]))
    decorate = numba.njit(*args, **kwargs)
    return lambda func: _cached_first(decorate(func))


def _cached_first(dispatcher: Any) -> Any:
    dispatcher._compilation_chain_init_hook = _cache_first
    return dispatcher


#: Whether this numba loads cached kernels without refreshing its registries.
LIGHT_CACHE_LOADS = (
    NUMBA_TESTED[0] <= _numba_version() <= NUMBA_TESTED[1]
    and hasattr(caching.Cache, "_load_overload")
    and hasattr(numba.core.dispatcher.Dispatcher, "_compilation_chain_init_hook")
)

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


#: 64-bit words of one block of :func:`block_counter`: one 512-bit vector, one cache line.
BLOCK = 8


def block_counter(rows: int) -> Any:
    """An intrinsic ``count(table, base, offsets, start, stop)`` for ``rows`` table rows a
    query: the sum over the queries ``k`` in ``[start, stop)`` of the set bits of the AND
    of their rows ``table[base + offsets[k * rows + i] :][:BLOCK]``, ``i < rows``.

    The loop is written in LLVM's vector type of :data:`BLOCK` words, as LLVM's own
    vectoriser would not: it vectorises the loop over the queries instead (a gather per
    word), and left to vectorise the block's words it reduces each query's popcounts to
    one integer, where here they are summed as vectors and reduced once per call. One
    block is one cache line, so the rows of a 64-byte aligned ``table`` are loaded whole.
    ``table`` is int64, ``offsets`` int32 (C-contiguous, one-dimensional); nothing is
    bounds-checked. The kernels that call it are cached by numba, which recompiles them
    when their own file changes, not this one: a change here is seen by a kernel compiled
    afresh (or built ahead of time, whose key covers this file)."""

    @intrinsic
    def count(typingctx, table, base, offsets, start, stop):
        if not (
            isinstance(table, types.Array)
            and table.ndim == 1
            and table.dtype == types.int64
            and isinstance(offsets, types.Array)
            and offsets.ndim == 1
            and offsets.dtype == types.int32
            and all(isinstance(x, types.Integer) for x in (base, start, stop))
        ):
            return None  # numba then reports the types it was given
        sig = types.int64(table, base, offsets, start, stop)

        def codegen(context, builder, signature, args):
            t, _, q, _, _ = args
            b, k0, k1 = (context.cast(builder, args[i], signature.args[i], types.int64) for i in (1, 3, 4))
            i64 = ir.IntType(64)
            vec = ir.VectorType(i64, BLOCK)
            words = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=t).data
            offs = cgutils.create_struct_proxy(signature.args[2])(context, builder, value=q).data
            origin = builder.gep(words, [b])
            ctpop = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vec, [vec]), f"llvm.ctpop.v{BLOCK}i64"
            )
            total = cgutils.alloca_once(builder, vec)  # promoted to a register by LLVM
            builder.store(ir.Constant(vec, None), total)
            with cgutils.for_range_slice(builder, k0, k1, ir.Constant(i64, 1)) as (k, _):
                first = builder.mul(k, ir.Constant(i64, rows))
                acc = None
                for i in range(rows):
                    at = builder.load(builder.gep(offs, [builder.add(first, ir.Constant(i64, i))]))
                    row = builder.bitcast(builder.gep(origin, [builder.sext(at, i64)]), vec.as_pointer())
                    word = builder.load(row, align=8)
                    acc = word if acc is None else builder.and_(acc, word)
                builder.store(builder.add(builder.load(total), builder.call(ctpop, [acc])), total)
            reduce = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i64, [vec]), f"llvm.vector.reduce.add.v{BLOCK}i64"
            )
            return builder.call(reduce, [builder.load(total)])

        return sig, codegen

    return count
