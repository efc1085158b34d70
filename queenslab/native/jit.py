"""numba as the kernels load it: ``njit``, with numba's array library loaded without
scipy's BLAS, and the kernels' one intrinsic, :func:`popcount`.

When the first kernel loads, numba imports its array library (``numba.np.arraymath``),
which at import asks whether scipy's BLAS is there, only to choose how ``np.correlate``
and ``np.convolve`` are compiled; where scipy is installed that import alone costs a
sixth of a second of a fresh process. No kernel of queenslab uses BLAS, so the question
is answered "no" while the library loads (``np.dot`` and the other linear algebra still
find scipy when a program of the same process compiles them: only the answer given to
that import changes). Every kernel module takes ``njit`` from here, so the library is
loaded this way before any kernel runs.
"""

from __future__ import annotations

import sys

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np import linalg

__all__ = ["njit", "popcount"]


def _no_blas() -> None:
    raise ImportError("queenslab's kernels use no BLAS")


if "numba.np.arraymath" not in sys.modules:
    _ensure_blas = linalg.ensure_blas
    linalg.ensure_blas = _no_blas
    try:
        import numba.np.arraymath  # noqa: F401  (loaded now, under the answer above)
    finally:
        linalg.ensure_blas = _ensure_blas


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
