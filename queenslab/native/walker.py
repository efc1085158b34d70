"""The general search over one problem's compiled form: :class:`Walker`, and the checks
every count by it shares (the problem, the practical limit, a prefix, a subtree).

:class:`Walker` runs :func:`queenslab.native.kernels.walk` -- counts below a prefix, or
streams placements of the first rows -- for the counting methods
(:mod:`queenslab.native.methods`), the engine's streams and prefix counts
(:mod:`queenslab.native.engine`), the ranking walks and the cost model.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import interrupt, limits, validate
from ..compiled import compile_problem
from ..errors import InvalidPlacement, QueensError, TooLarge
from ..problem import Problem, as_problem
from . import pool
from .lazy import LazyModule

if TYPE_CHECKING:
    from . import kernels as K
else:  # numba is imported when a walk first runs
    K = LazyModule("queenslab.native.kernels")

__all__ = [
    "COUNT",
    "MAX_N",
    "Walker",
    "check_prefix",
    "check_problem",
    "check_size",
    "check_subtree",
    "split_depth",
]

#: Largest board the bitboard kernels represent (one row in a 64-bit integer).
MAX_N = 64
#: The practical limit of an exact count (every count that may need the whole tree),
#: shared with the join counter.
COUNT = pool.COUNT


def check_problem(problem: Problem) -> None:
    """Raise unless ``problem`` is a Problem the bitboard kernels can represent (n <= MAX_N)."""
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    if problem.n > MAX_N:
        raise TooLarge(
            f"n = {problem.n} is too large for the native engine: a bitboard row holds "
            f"at most {MAX_N} columns (for one solution of a large board use a heuristic)"
        )


#: No symmetry group, read-only like a compiled problem's ``group_flags``: a writable
#: array here had numba compile the walk a second time for the flag (about 2 s CPU),
#: once for the counts with orbits and again for the counts and streams without.
_NO_GROUP = np.zeros((0, 3), np.int64)
_NO_GROUP.setflags(write=False)


class Walker:
    """The general search (:func:`kernels.walk`) over one problem's compiled form,
    reused across tasks: counts below a prefix, or streams placements of its first rows.

    Parameters
    ----------
    problem : Problem
    group : bool, default False
        Load the symmetry subgroup (for orbit counts and canonical solutions).
    """

    def __init__(self, problem: Problem, group: bool = False):
        check_problem(problem)
        self.problem = problem
        self.n = problem.n
        self.compiled = c = compile_problem(problem)
        self.group = c.group_flags if group else _NO_GROUP
        self._dummy = np.zeros((1, max(1, self.n)), np.int64)

    def _opts(self, stop: int, mode: int, y0: int) -> np.ndarray:
        return np.array([self.n, stop, int(self.compiled.toroidal), mode, y0], dtype=np.int64)

    def _counters(self) -> np.ndarray:
        """A fresh region-counter state for one walk: ``int64[n + 1, max(k, 1)]``."""
        return np.zeros((self.n + 1, max(1, self.compiled.region_masks.shape[0])), np.int64)

    def _kernel(self, opts, s, rc, q, meta, out):
        c = self.compiled
        found = K.walk(
            *c.kernel_tables,
            opts,
            self.group,
            s,
            rc,
            q,
            meta,
            out,
            interrupt.FLAG,
        )
        interrupt.check()  # a stopped walk returned partial counts: never use them
        return found

    def run(self, prefix: Sequence[int], mode: int, stop: int | None = None, out=None):
        """Run a walk below ``prefix``; returns (count, canonical, nodes, emitted)."""
        n = self.n
        opts = self._opts(n if stop is None else stop, mode, len(prefix))
        s = np.zeros((4, n + 1), np.uint64)
        q = np.zeros(n, np.int64)
        q[: len(prefix)] = prefix
        meta = np.zeros(2, np.int64)
        return self._kernel(opts, s, self._counters(), q, meta, self._dummy if out is None else out)

    def nodes_until(self, prefix: Sequence[int], halt: np.ndarray) -> int:
        """The queens the walk below ``prefix`` places until ``halt[0]`` is raised (by the
        caller, from another thread: the cost model times a slice of a subtree) or the
        subtree ends; a halted walk is no count, so its counts are not returned."""
        n = self.n
        s = np.zeros((4, n + 1), np.uint64)
        q = np.zeros(n, np.int64)
        q[: len(prefix)] = prefix
        meta = np.zeros(2, np.int64)
        opts = self._opts(n, K.COUNT, len(prefix))
        walk: Any = K.walk  # a numba dispatcher: its arguments are the kernel's
        found = walk(*self.compiled.kernel_tables, opts, self.group, s, self._counters(), q, meta, self._dummy, halt)
        return int(found[2])

    def stream(
        self, stop: int, batch: int, limit: int | None, prefix: Sequence[int] = (), mode: int | None = None
    ) -> Iterator[np.ndarray]:
        """Yield arrays of the placements (first ``stop`` rows) in lexicographic order;
        with ``mode=EMIT_CANON`` only canonical ones, with an extra last column holding
        the stabiliser size (``mode`` None: ``EMIT``, every placement)."""
        n = self.n
        mode = K.EMIT if mode is None else mode
        opts = self._opts(stop, mode, len(prefix))
        s = np.zeros((4, n + 1), np.uint64)
        q = np.zeros(n, np.int64)
        q[: len(prefix)] = prefix
        meta = np.zeros(2, np.int64)
        rc = self._counters()
        width = n + 1 if mode == K.EMIT_CANON else max(1, stop)
        out = np.empty((batch, width), np.int64)
        left = limit
        while meta[1] != K.DONE and (left is None or left > 0):
            buf = out if left is None or left >= batch else out[:left]
            emitted = interrupt.run(self._kernel, opts, s, rc, q, meta, buf)[3]
            if emitted:
                yield buf[:emitted].copy() if mode == K.EMIT_CANON else buf[:emitted, :stop].copy()
                if left is not None:
                    left -= emitted

    def orbit_sizes(self, prefix: Sequence[int] = (), batch: int = 1 << 14) -> Iterator[tuple[np.ndarray, int]]:
        """The canonical solutions below ``prefix``, a buffer at a time: for each, the
        sizes of their orbits (the group order over the stabiliser's size) and the queens
        placed meanwhile. Needs ``group=True``."""
        n = self.n
        order = self.group.shape[0] + 1  # the non-identity elements, and the identity
        opts = self._opts(n, K.EMIT_CANON, len(prefix))
        s = np.zeros((4, n + 1), np.uint64)
        q = np.zeros(n, np.int64)
        q[: len(prefix)] = prefix
        meta = np.zeros(2, np.int64)
        rc = self._counters()
        out = np.empty((batch, n + 1), np.int64)
        while meta[1] != K.DONE:  # the walk resumes where its buffer filled
            _, _, placed, emitted = self._kernel(opts, s, rc, q, meta, out)
            yield order // out[:emitted, -1], int(placed)

    def prefixes(self, depth: int, limit: int | None = None) -> np.ndarray:
        """The valid prefixes of ``depth`` rows (the first ``limit`` of them), as an array
        of shape (k, depth)."""
        parts = list(self.stream(depth, 4096, limit))
        if not parts:
            return np.zeros((0, depth), np.int64)
        return np.concatenate(parts)


def check_size(problem: Problem, force: bool) -> None:
    """Refuse an exact count above :data:`PRACTICAL_LIMIT` unless ``force``.

    Raises
    ------
    TooLarge
        With what n = 18 takes and how to go ahead anyway.
    """
    _check_size(as_problem(problem), force)


def _check_size(problem: Problem, force: bool) -> None:
    pool.check_count(problem.n, validate.flag(force, "force"))


def _column(c) -> int:
    if isinstance(c, (bool, np.bool_)):
        raise TypeError("a bool is not a column")
    return operator.index(c)  # ints and numpy integers; a float is never truncated


def check_prefix(problem: Problem, prefix) -> tuple[int, ...]:
    try:
        p = tuple(_column(c) for c in prefix)
    except (TypeError, ValueError):
        raise InvalidPlacement(f"a prefix is a sequence of 0-based integer columns, got {prefix!r}") from None
    if len(p) > problem.n:
        raise InvalidPlacement(f"a prefix has at most n = {problem.n} rows, got {len(p)}")
    for r, c in enumerate(p):
        if not 0 <= c < problem.n:
            raise InvalidPlacement(
                f"prefix row {r}: column {c} is off the board; 0-based columns are 0..{problem.n - 1}"
            )
    return p


def check_subtree(problem: Problem, prefix: tuple[int, ...], force: bool) -> None:
    """Refuse a subtree of more than ``PRACTICAL_LIMIT`` free rows unless ``force`` (below
    a short prefix of a large board lies most of the whole count) or the prefix itself
    breaks a constraint."""
    free = problem.n - len(prefix)
    if free > COUNT.largest and not validate.flag(force, "force"):
        if not Walker(problem).run(prefix, K.COUNT, stop=len(prefix))[0]:
            return  # the prefix itself breaks a constraint: nothing below it to count
        limits.check(
            COUNT,
            free,
            request=f"counting below a prefix of {len(prefix)} rows on n = {problem.n} ({free} free rows)",
            hint="give a longer prefix",
        )


def split_depth(walk: Walker, threads: int) -> tuple[int, np.ndarray, int]:
    """Smallest prefix depth giving enough tasks to balance ``threads`` threads, its
    prefixes, and the queens placed in the rows above the tasks (every valid prefix of
    every length up to the depth: the dead ends above it included, as one walk counts
    them, so that the node count does not depend on the threads)."""
    n = walk.n
    want = 1 if threads == 1 else 24 * threads
    depth, prefixes, placed = 0, np.zeros((1, 0), np.int64), 0
    while len(prefixes) < want and depth < min(n - 1, 4):
        depth += 1
        prefixes = walk.prefixes(depth)
        placed += len(prefixes)
    return depth, prefixes, placed
