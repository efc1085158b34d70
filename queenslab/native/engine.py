"""The native engine: argument checks, task splitting and threads around the kernels.

Public functions (all take a :class:`~queenslab.problem.Problem`):

* :func:`count` / :func:`count_both` -- total and unique (orbit) counts, on threads
  (the standard problem from n = :data:`JOIN_FROM` on by the half-board join of
  :mod:`queenslab.native.join`, below by the symmetric search);
* :func:`count_prefix` -- solutions extending a given prefix of first-row columns;
* :func:`solutions` / :func:`solution_batches` -- lexicographic enumeration, streamed
  in numpy batches produced by the kernel;
* :func:`solve` -- the lexicographically first solution.

Work is split into tasks (subtrees below a prefix) that run the ``nogil`` kernels of
:mod:`queenslab.native.kernels` on Python threads; per-task counts are summed here, so
the result does not depend on the number of threads.

Limits: the kernels hold a row in a 64-bit integer, so n <= 64 (``MAX_N``). Counting
every solution grows roughly sevenfold per unit of n; :func:`count` refuses
``n > PRACTICAL_LIMIT`` unless ``force=True`` (see docs/benchmarks.md for timings).
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .. import interrupt, limits, validate
from ..compiled import compile_problem
from ..errors import InvalidPlacement, QueensError, TooLarge, UnsupportedProblem
from ..problem import Problem, as_problem
from ..result import CountResult
from . import join, kernels as K, pool
from .pool import Progress, run_tasks
from .symmetric import MAX_N as _SYM_LIMIT, sym_count as sym_count_lanes
from .symmetric_scalar import sym_count_scalar

__all__ = [
    "MAX_N",
    "MAX_BATCH",
    "SYM_MAX_N",
    "SYM_KERNEL",
    "SPLIT_METHODS",
    "split_tasks",
    "count_task",
    "PRACTICAL_LIMIT",
    "METHODS",
    "JOIN_FROM",
    "JOIN_VARIANTS_FROM",
    "chosen_method",
    "default_threads",
    "check_problem",
    "check_size",
    "Walker",
    "PrefixCounter",
    "prefix_batches",
    "count",
    "count_both",
    "count_classes",
    "count_prefix",
    "count_prefixes",
    "solutions",
    "solution_batches",
    "fundamental_batches",
    "fixed_point_counts",
    "solve",
    "FIRST_SOLUTION",
]

#: Largest board the bitboard kernels represent (one row in a 64-bit integer).
MAX_N = 64
#: Largest board of the symmetric counter (its widened int64 bitboards).
SYM_MAX_N = _SYM_LIMIT


def _wide_simd(cpu_name: str | None, cpu_features: str | None, host_features: Callable[[], dict]) -> bool:
    """Whether numba compiles for 256-bit or wider integer vectors (AVX2, AVX-512).

    ``cpu_name`` and ``cpu_features`` are numba's settings (``NUMBA_CPU_NAME``,
    ``NUMBA_CPU_FEATURES``; None when unset, i.e. this machine's CPU); ``host_features``
    reads this machine's features from LLVM. A named CPU without a feature list counts as
    no: its features are not known here.

    Examples
    --------
    >>> _wide_simd(None, None, lambda: {"avx2": True})
    True
    >>> _wide_simd("generic", None, lambda: {"avx2": True})
    False
    >>> _wide_simd(None, "+sse4.2,-avx2", lambda: {"avx2": True})
    False
    """
    if cpu_features:
        return any(f in cpu_features.split(",") for f in ("+avx2", "+avx512f"))
    if cpu_name not in (None, "host"):
        return False
    try:
        found = host_features()
    except RuntimeError:  # LLVM cannot read this CPU's features
        return False
    return bool(found.get("avx2") or found.get("avx512f"))


def _host_features() -> dict:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    return dict(llvm.get_host_cpu_features())


def _choose_sym_kernel() -> str:
    from numba.core import config

    name, features = getattr(config, "CPU_NAME", None), getattr(config, "CPU_FEATURES", None)
    return "lanes" if _wide_simd(name, features, _host_features) else "scalar"


#: The symmetric counter this machine runs: ``"lanes"`` (SIMD, where numba compiles for
#: AVX2 or AVX-512) or ``"scalar"`` (the same search one node at a time, faster without
#: wide vectors); both count the same tree, see docs/performance.md.
SYM_KERNEL = _choose_sym_kernel()
#: The kernel of :data:`SYM_KERNEL`: ``(n, corner, bound1, split, halt) -> (c2, c4, c8, nodes)``.
sym_count = sym_count_lanes if SYM_KERNEL == "lanes" else sym_count_scalar
#: The practical limit of an exact count (:func:`count`, and every count that may need the
#: whole tree), shared with the join counter.
COUNT = pool.COUNT
#: ``COUNT.largest``.
PRACTICAL_LIMIT = COUNT.largest

#: How many tasks :func:`split_tasks` makes at a given depth without ``force=True``.
SPLIT = limits.declare(
    "split_tasks",
    100_000,
    "tasks",
    "every task is a Python tuple, a ledger row and a scheduler entry: beyond this the bookkeeping "
    "outweighs the counting",
)

#: Largest number of rows per streamed array (a batch is allocated whole).
MAX_BATCH = 1 << 20

#: The counting methods of :func:`count_both`.
METHODS = ("auto", "symmetric", "general", "join")
#: The smallest n at which "auto" counts the standard problem by the join: measured on
#: one and on two threads of a 2-core AMD EPYC (warm numba cache), the symmetric search is
#: faster up to n = 13 and the join from n = 14 on, about 6x at n = 16.
JOIN_FROM = 14
#: The fewest free rows (n less the rows of fixed queens) from which "auto" counts a
#: problem whose only constraints are blocked cells and fixed queens by the join
#: (:func:`join.counts <queenslab.native.join.counts>`) instead of the general search:
#: measured on one thread of a 2-core AMD EPYC (CPU time), the join was faster for every
#: pattern tried from 13 free rows on but one (3 fixed queens at n = 17, 0.8x, 50 ms),
#: and slower for most below (see docs/performance.md, "The join and the variants").
JOIN_VARIANTS_FROM = 13


def default_threads() -> int:
    """Number of cores this process may run on (the default thread count)."""
    return validate.threads(None)


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
        return np.array([self.n, stop, int(self.problem.toroidal), mode, y0], dtype=np.int64)

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

    def stream(
        self, stop: int, batch: int, limit: int | None, prefix: Sequence[int] = (), mode: int = K.EMIT
    ) -> Iterator[np.ndarray]:
        """Yield arrays of the placements (first ``stop`` rows) in lexicographic order;
        with ``mode=EMIT_CANON`` only canonical ones, with an extra last column holding
        the stabiliser size."""
        n = self.n
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
    pool.check_count(problem.n, validate.flag(force, "force"), problem)


#: The smallest n whose symmetric split goes one row deeper (``(corner, b1, c, d)``
#: tasks, ``n`` times as many): the standard problem beyond the join (n >= 22) is where
#: a count needs hundreds to thousands of cores, more than ``(corner, b1, c)`` keeps busy.
SYM_DEEP_FROM = 22


def _sym_tasks(n: int, deep: bool = False) -> list[tuple[int, ...]]:
    """The symmetric search's tasks: ``(corner, b1, c)`` per class and column of the
    first free row, or with ``deep`` ``(corner, b1, c, d)``, d the next row's column."""
    tasks: list[tuple[int, ...]] = []
    classes = [(1, b1) for b1 in range(2, n - 1)] + [(0, b1) for b1 in range(1, n) if b1 < n - 1 - b1]
    for corner, b1 in classes:
        for c in range(n):
            tasks += [(corner, b1, c, d) for d in range(n)] if deep else [(corner, b1, c)]
    return tasks


def _symmetric_parts(problem: Problem, threads: int, progress: Progress | None) -> tuple[int, int, int, int]:
    """``(c2, c4, c8, nodes)``: the orbits of size 2, 4 and 8 and the queens placed."""
    n = problem.n

    def task(t):
        found = sym_count(n, t[0], t[1], t[2], -1, interrupt.FLAG)
        interrupt.check()
        return found

    parts = run_tasks(_sym_tasks(n), task, threads, progress)
    c2 = sum(int(p[0]) for p in parts)
    c4 = sum(int(p[1]) for p in parts)
    c8 = sum(int(p[2]) for p in parts)
    nodes = sum(int(p[3]) for p in parts) + 1
    return c2, c4, c8, nodes


def _count_symmetric(problem: Problem, threads: int, progress: Progress | None) -> CountResult:
    c2, c4, c8, nodes = _symmetric_parts(problem, threads, progress)
    return CountResult(2 * c2 + 4 * c4 + 8 * c8, c2 + c4 + c8, nodes, "native", "symmetric", threads=threads)


#: The methods :func:`split_tasks` splits a count by ("join" on request only).
SPLIT_METHODS = ("symmetric", "general", "join")


def split_tasks(
    problem: Problem,
    *,
    unique: bool = False,
    depth: int | None = None,
    least: int = 256,
    force: bool = False,
    method: str | None = None,
) -> tuple[str, int, list[tuple[int, ...]]]:
    """The independent tasks a count of ``problem`` splits into, for a runner elsewhere
    (threads, a cluster) that adds their results up.

    The standard problem (4 <= n <= SYM_MAX_N, no ``depth`` given) is split like the
    symmetric search: one task per first-row queen class and second-row column, and every
    task counts the total and the orbits at once; from n = :data:`SYM_DEEP_FROM` one task
    per column of the next row too (``depth`` 1 of the symmetric split, n times the
    tasks; ``method="symmetric"`` with ``depth`` 0 or 1 chooses). Any other problem, or a given ``depth``,
    is split into the valid placements of its first ``depth`` rows (the smallest depth
    with at least ``least`` of them, up to 6, when none is given). A given ``depth`` that
    makes more than :data:`SPLIT` ``.largest`` tasks is refused unless ``force``: the
    placements of 7 rows of 20 queens are hundreds of millions, and each task is a Python
    tuple, a ledger row and a scheduler entry.

    ``method="symmetric"`` asks for the symmetric split (an error where it does not
    apply), ``method="general"`` for the prefix split even of the standard problem (the
    default depth when none is given); None chooses as above.

    ``method="join"`` (the standard problem, n <= 21) splits the half-board join of
    :mod:`queenslab.native.join` instead: ``least`` (at least 256) slices ``(start, stop)``
    of its row splits, largest estimated work first; a task counts the total only (its
    orbits are None: :func:`join.classes_from_total <queenslab.native.join.classes_from_total>`
    gives them from the summed total). The join's split is the standard problem's only:
    a variant the join counts in one process (blocked cells and fixed queens, which
    "auto" gives the join from :data:`JOIN_VARIANTS_FROM` free rows) is split into prefixes, the
    method returned saying so (``"general"``), as its orbits do not follow from its total
    by the standard problem's fixed counts.

    Returns
    -------
    (method, depth, tasks)
        ``"symmetric"`` (depth 0), ``"general"`` or ``"join"`` (depth 0), and the task
        keys, in order.

    Examples
    --------
    >>> method, depth, tasks = split_tasks(Problem(8))
    >>> method, depth, len(tasks)
    ('symmetric', 0, 64)
    >>> sum(count_task(Problem(8), method, t)[0] for t in tasks)
    92
    """
    check_problem(problem)
    unique = validate.flag(unique, "unique")
    least = validate.whole_number(least, "least", minimum=1, maximum=MAX_BATCH)
    n = problem.n
    if method is not None:
        validate.choice(method, SPLIT_METHODS, "split method")
    if method == "join" and not problem.is_standard and depth is None and join.counts(problem):
        method = "general"  # the join's split is the standard problem's only (see above)
    if method == "join":
        if not problem.is_standard or depth is not None:
            raise UnsupportedProblem("the join splits the standard problem only, without a depth")
        check_size(problem, force)
        return "join", 0, [tuple(span) for span in join.split(n, max(least, 256), force=True)]
    if method == "symmetric":
        if not (problem.is_standard and 4 <= n <= SYM_MAX_N):
            raise UnsupportedProblem(f"the symmetric split splits the standard problem with 4 <= n <= {SYM_MAX_N} only")
        if depth is not None and depth not in (0, 1):
            raise QueensError(
                f"the symmetric split has depth 0 (a task per class and column of the first free row) or 1 (and "
                f"of the next row), got {validate.brief(depth)}"
            )
        check_size(problem, force)
        deep = n >= SYM_DEEP_FROM if depth is None else depth == 1
        return "symmetric", int(deep), _sym_tasks(n, deep)
    if method != "general" and depth is None and problem.is_standard and 4 <= n <= SYM_MAX_N:
        deep = n >= SYM_DEEP_FROM
        return "symmetric", int(deep), _sym_tasks(n, deep)
    walk = Walker(problem)
    if depth is None:
        depth, prefixes = 0, np.zeros((1, 0), np.int64)
        while len(prefixes) < least and depth < min(n - 1, 6):
            depth += 1
            prefixes = walk.prefixes(depth)
        depth = max(depth, 0)
    else:
        depth = validate.whole_number(depth, "depth", minimum=0, maximum=n)
        force = validate.flag(force, "force")
        prefixes = walk.prefixes(depth, None if force else SPLIT.largest + 1)
        if len(prefixes) > SPLIT.largest:
            limits.check(
                SPLIT,
                len(prefixes),
                force,
                request=f"splitting n = {n} at depth {depth} (more than {SPLIT.largest:,} tasks)",
                hint="give a smaller depth, or none for the default",
            )
    return "general", depth, [tuple(int(x) for x in p) for p in prefixes]


def count_task(
    problem: Problem,
    method: str,
    task: Sequence[int],
    *,
    unique: bool = False,
    force: bool = False,
    general: bool = False,
) -> tuple[int, int | None, int]:
    """Count one task of :func:`split_tasks`: ``(solutions, orbits, queens placed)``.

    The orbits are counted by the symmetric method always, by the general one with
    ``unique`` (canonical solutions under ``problem.symmetries()``), else None. The kernel
    polls the stop flag, so Ctrl-C stops a task within microseconds. ``force`` allows a
    symmetric task above :data:`PRACTICAL_LIMIT` and a prefix of more free rows.

    ``general=True`` counts a symmetric task by the general search instead, an
    independent check of it: the symmetric task ``(1, b1, c)`` holds exactly the orbits
    whose lexicographically least solution begins ``0, b1, c``, and ``(0, b1, c)`` those
    whose least solution begins ``b1, c`` (a deep task ``(corner, b1, c, d)``: the
    same with ``d`` after ``c``); the general walk enumerates the canonical
    solutions below that prefix and adds up their orbit sizes (the group order over the
    stabiliser's). A general task is counted by the general search anyway. A join task
    (``split_tasks(..., method="join")``) counts its total only: ``(solutions, None, 0)``.

    Examples
    --------
    >>> p = Problem(8)
    >>> _, _, tasks = split_tasks(p)
    >>> [count_task(p, "symmetric", t)[:2] for t in tasks[:3]]
    [(0, 0), (0, 0), (0, 0)]
    >>> all(count_task(p, "symmetric", t)[:2] == count_task(p, "symmetric", t, general=True)[:2] for t in tasks)
    True
    """
    check_problem(problem)
    validate.choice(method, SPLIT_METHODS, "task method")
    general = validate.flag(general, "general")
    if method == "join":
        if not problem.is_standard:
            raise UnsupportedProblem("join tasks count the standard problem only")
        check_size(problem, force)
        return join.count_slice(problem.n, task, force=True), None, 0
    if method == "symmetric":
        if not (problem.is_standard and 4 <= problem.n <= SYM_MAX_N):
            raise UnsupportedProblem(f"symmetric tasks count the standard problem with 4 <= n <= {SYM_MAX_N} only")
        check_size(problem, force)
        try:
            entries = [validate.whole_number(x, "a task entry", minimum=0) for x in task]
        except (TypeError, ValueError):
            entries = []
        if len(entries) not in (3, 4):
            raise QueensError(
                f"a symmetric task is (corner, b1, column) or (corner, b1, column, column), got {validate.brief(task)}"
            )
        corner, b1, c = entries[:3]
        d = entries[3] if len(entries) == 4 else -1
        if corner not in (0, 1) or not 1 <= b1 < problem.n - 1 or c >= problem.n or d >= problem.n:
            raise QueensError(f"{validate.brief(task)} is not a symmetric task of n = {problem.n}")
        if general:
            rows = (c,) if d < 0 else (c, d)
            return _orbits_below(problem, (0, b1, *rows) if corner else (b1, *rows))
        c2, c4, c8, nodes = sym_count(problem.n, corner, b1, c, d, interrupt.FLAG)
        interrupt.check()
        return int(2 * c2 + 4 * c4 + 8 * c8), int(c2 + c4 + c8), int(nodes)
    unique = validate.flag(unique, "unique")
    prefix = _check_prefix(problem, task)
    _check_subtree(problem, prefix, force)
    walk = Walker(problem, group=unique)
    found, canon, nodes, _ = walk.run(prefix, K.CANON if unique else K.COUNT)
    return int(found), (int(canon) if unique else None), int(nodes)


def _orbits_below(problem: Problem, prefix: tuple[int, ...]) -> tuple[int, int, int]:
    """``(solutions, orbits, queens placed)`` of the orbits whose lexicographically least
    solution extends ``prefix``, by the general search: each canonical solution below
    the prefix stands for its orbit, of the group order over its stabiliser's size."""
    total = orbits = nodes = 0
    for sizes, placed in Walker(problem, group=True).orbit_sizes(prefix):
        total += int(sizes.sum())
        orbits += len(sizes)
        nodes += placed
    return total, orbits, nodes


def _split_depth(walk: Walker, threads: int) -> tuple[int, np.ndarray, int]:
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


def _count_general(problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
    walk = Walker(problem, group=unique)
    _, prefixes, placed = _split_depth(walk, threads)
    mode = K.CANON if unique else K.COUNT

    def task(prefix):
        return walk.run(prefix, mode)

    parts = run_tasks([tuple(int(x) for x in p) for p in prefixes], task, threads, progress)
    total = sum(int(p[0]) for p in parts)
    orbits = sum(int(p[1]) for p in parts) if unique else None
    # the prefix rows themselves were placed once while splitting
    nodes = sum(int(p[2]) for p in parts) + placed
    return CountResult(total, orbits, nodes, "native", "general", threads=threads)


def _symmetric(problem: Problem, method: str) -> bool:
    """Whether ``method`` ("auto", "symmetric" or "general") counts ``problem`` by the
    symmetric search; "symmetric" on a problem it cannot count is an error."""
    symmetric_ok = problem.is_standard and 4 <= problem.n <= SYM_MAX_N
    if method == "symmetric" and not symmetric_ok:
        raise UnsupportedProblem(
            "the symmetric method counts the standard problem with 4 <= n <= "
            f"{SYM_MAX_N} only; this is {problem.describe()} (use method='general')"
        )
    return method == "symmetric" or (method == "auto" and symmetric_ok)


def _join(problem: Problem, method: str, threads: int) -> bool:
    """Whether ``method`` counts ``problem`` by the half-board join: "join" (the standard
    problem, or one whose only constraints are blocked cells and fixed queens, n <=
    join.MAX_N; else an error) or "auto" from n = :data:`JOIN_FROM` on (such a variant
    from :data:`JOIN_VARIANTS_FROM` free rows) where the join's memory estimate fits its
    budget on ``threads`` threads."""
    if method == "join":
        if not join.counts(problem):
            raise UnsupportedProblem(
                "the join method counts the standard problem and problems whose only constraints are blocked "
                f"cells and fixed queens; this is {problem.describe()} (use method='general')"
            )
        join.check_problem(problem, threads, force=True)  # the practical limit is checked apart
        return True
    if method != "auto" or not join.counts(problem):
        return False
    if problem.is_standard:
        if not JOIN_FROM <= problem.n <= join.MAX_N:
            return False
        return join.memory_estimate(problem.n, threads) <= join.MEMORY_BUDGET
    free = problem.n - len({r for r, _ in problem.fixed})
    if free < JOIN_VARIANTS_FROM or problem.n > join.MAX_N:
        return False
    try:
        join.check_problem(problem, threads, force=True)
    except TooLarge:  # beyond its memory budget: the general search counts it
        return False
    return True


def count_both(
    problem: Problem,
    *,
    unique: bool = True,
    threads: int | None = None,
    force: bool = False,
    method: str = "auto",
    progress: Progress | None = None,
) -> CountResult:
    """Count the solutions of ``problem`` (and their orbits) on threads.

    Parameters
    ----------
    problem : Problem
    unique : bool, default True
        Also count orbits under ``problem.symmetries()``.
    threads : int, optional
        Threads to use; default all available cores. The result does not depend on it.
    force : bool, default False
        Allow ``n > PRACTICAL_LIMIT``.
    method : {"auto", "symmetric", "general", "join"}
        ``"symmetric"``: the symmetry-classifying search (standard problem, n >= 4),
        which returns total and unique together; ``"general"``: the row-by-row search
        for every variant, with a canonical-form test at each solution for the orbits;
        ``"join"``: the half-board join of :mod:`queenslab.native.join` (standard
        problem, or blocked cells and fixed queens only; n <= 21), the orbits by
        Burnside's lemma from the solutions fixed by the quarter and half turn (``nodes``
        None: it places no queens one by one). ``"auto"`` picks the join for the standard
        problem from n = :data:`JOIN_FROM` on and for blocked and fixed cells from
        :data:`JOIN_VARIANTS_FROM` rows without a fixed queen (where it is faster), else
        symmetric when it applies.
    progress : callable, optional
        Called as ``progress(done, total)`` after each finished task.

    Returns
    -------
    CountResult
        ``total``, ``unique`` (None when not asked for; the symmetric method always
        fills it), ``nodes`` (queens placed), ``method``.

    Raises
    ------
    TooLarge
        For ``n > MAX_N``, or ``n > PRACTICAL_LIMIT`` without ``force``.
    UnsupportedProblem
        For ``method="symmetric"`` on a variant or n < 4, ``method="join"`` on a variant
        with other constraints than blocked cells and fixed queens.

    Examples
    --------
    >>> r = count_both(Problem(8))
    >>> r.count, r.unique, r.method
    (92, 12, 'symmetric')
    """
    check_problem(problem)
    threads = validate.threads(threads)
    validate.choice(method, METHODS, "method")
    validate.flag(unique, "unique")
    progress = validate.callback(progress)
    _check_size(problem, force)
    chosen = chosen_method(problem, method, threads)
    if chosen == "join":
        if unique:
            return join.problem_classes(problem, threads=threads, force=True, progress=progress)[0]
        total = join.problem_total(problem, threads=threads, force=True, progress=progress)
        return CountResult(total, None, None, "native", "join", threads=threads)
    if chosen == "symmetric":
        return _count_symmetric(problem, threads, progress)
    return _count_general(problem, unique, threads, progress)


def chosen_method(problem: Problem, method: str = "auto", threads: int | None = None) -> str:
    """The method :func:`count_both` counts ``problem`` by: ``"join"``, ``"symmetric"``
    or ``"general"`` (``method="auto"`` chooses; a named method is checked).

    Examples
    --------
    >>> chosen_method(Problem(8)), chosen_method(Problem(16)), chosen_method(Problem(8, toroidal=True))
    ('symmetric', 'join', 'general')
    """
    check_problem(problem)
    threads = validate.threads(threads)
    validate.choice(method, METHODS, "method")
    if _join(problem, method, threads):
        return "join"
    if _symmetric(problem, method):
        return "symmetric"
    return "general"


def _classes_general(problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
    """The general search's canonical solutions, tallied by orbit size (the group order
    over the stabiliser's size), one task per prefix."""
    walk = Walker(problem, group=True)
    order = walk.group.shape[0] + 1  # the non-identity elements, and the identity
    _, prefixes, placed = _split_depth(walk, threads)

    def task(prefix: tuple[int, ...]) -> tuple[dict[int, int], int]:
        sizes: dict[int, int] = {}
        nodes = 0
        for found, placed in walk.orbit_sizes(prefix, 1 << 12):
            nodes += placed
            for size, k in zip(*np.unique(found, return_counts=True)):
                sizes[int(size)] = sizes.get(int(size), 0) + int(k)
        return sizes, nodes

    parts = run_tasks([tuple(int(x) for x in p) for p in prefixes], task, threads, progress)
    classes = {d: 0 for d in range(1, order + 1) if order % d == 0}
    for sizes, _ in parts:
        for size, k in sizes.items():
            classes[size] += k
    nodes = sum(p[1] for p in parts) + placed
    total = sum(size * k for size, k in classes.items())
    return CountResult(total, sum(classes.values()), nodes, "native", "general", threads=threads), classes


def count_classes(
    problem: Problem,
    *,
    threads: int | None = None,
    force: bool = False,
    method: str = "auto",
    progress: Progress | None = None,
) -> tuple[CountResult, dict[int, int]]:
    """Count the solutions and their orbits, with the orbits broken down by size.

    An orbit under ``problem.symmetries()`` (of order g) has g / s solutions, s being the
    size of the stabiliser of any of its members. The symmetric method classifies each
    orbit of the standard problem as it counts (sizes 2, 4 and 8, as in Takaken's
    program); the general method tallies the stabiliser of each canonical solution; the
    join derives them from the total and the solutions fixed by the quarter and half turn
    (Burnside's lemma).

    Parameters
    ----------
    problem : Problem
    threads, force, method, progress
        As in :func:`count_both`.

    Returns
    -------
    (CountResult, dict of int to int)
        The count (``unique`` filled) and ``{orbit size: number of orbits}`` for every
        divisor of the group's order, ascending (a size that does not occur maps to 0).
        ``sum(classes.values())`` is the orbit count and ``sum(size * k)`` the total.

    Raises
    ------
    TooLarge, UnsupportedProblem
        As :func:`count_both`.

    Examples
    --------
    >>> r, classes = count_classes(Problem(8))
    >>> r.count, r.unique, classes
    (92, 12, {1: 0, 2: 0, 4: 1, 8: 11})
    """
    check_problem(problem)
    threads = validate.threads(threads)
    validate.choice(method, METHODS, "method")
    progress = validate.callback(progress)
    _check_size(problem, force)
    if _join(problem, method, threads):
        return join.problem_classes(problem, threads=threads, force=True, progress=progress)
    if _symmetric(problem, method):
        c2, c4, c8, nodes = _symmetric_parts(problem, threads, progress)
        res = CountResult(2 * c2 + 4 * c4 + 8 * c8, c2 + c4 + c8, nodes, "native", "symmetric", threads=threads)
        return res, {1: 0, 2: c2, 4: c4, 8: c8}
    return _classes_general(problem, threads, progress)


def count(
    problem: Problem,
    *,
    unique: bool = False,
    threads: int | None = None,
    force: bool = False,
    method: str = "auto",
    progress: Progress | None = None,
) -> int:
    """Number of solutions of ``problem`` (``unique=True``: number of orbits).

    See :func:`count_both` for the parameters.

    Examples
    --------
    >>> count(Problem(8)), count(Problem(8), unique=True)
    (92, 12)
    >>> count(Problem(5, toroidal=True))
    10
    """
    r = count_both(problem, unique=unique, threads=threads, force=force, method=method, progress=progress)
    if unique:
        assert r.unique is not None  # count_both fills unique when asked for it
        return r.unique
    assert r.count is not None  # the engine always counts the total
    return r.count


def _check_batch(batch) -> int:
    b = validate.whole_number(batch, "batch")
    if b > MAX_BATCH:
        raise QueensError(f"batch is the number of rows per array, 1..{MAX_BATCH}; got {batch!r}")
    return b


def _column(c) -> int:
    if isinstance(c, (bool, np.bool_)):
        raise TypeError("a bool is not a column")
    return operator.index(c)  # ints and numpy integers; a float is never truncated


def _check_prefix(problem: Problem, prefix) -> tuple[int, ...]:
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


def _check_subtree(problem: Problem, prefix: tuple[int, ...], force: bool) -> None:
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


def count_prefix(problem: Problem, prefix: Sequence[int], *, nodes: bool = False, force: bool = False):
    """Number of solutions whose first rows are ``prefix``.

    Parameters
    ----------
    problem : Problem
    prefix : sequence of int
        0-based columns of rows ``0 .. len(prefix)-1``. A prefix that already breaks a
        constraint has no extension (0).
    nodes : bool, default False
        Also return the number of queens placed below the prefix.
    force : bool, default False
        Allow more than ``PRACTICAL_LIMIT`` free rows below the prefix.

    Returns
    -------
    int, or (int, int) with ``nodes=True``

    Examples
    --------
    >>> sum(count_prefix(Problem(8), [c]) for c in range(8))
    92
    >>> count_prefix(Problem(8), [0, 1])
    0
    """
    check_problem(problem)
    p = _check_prefix(problem, prefix)
    _check_subtree(problem, p, force)
    found, visited = interrupt.run(PrefixCounter(problem).count, p)
    return (int(found), int(visited)) if nodes else int(found)


class PrefixCounter:
    """Counts below prefixes of one problem, reused across many prefixes: the int64
    kernel when the board has neither wrap-around nor leaper moves (and n <= 63), else
    the general walk."""

    def __init__(self, problem: Problem):
        check_problem(problem)
        self.problem = problem
        c = compile_problem(problem)
        self.fast = not (problem.toroidal or len(c.leap_rows) or len(c.region_masks)) and problem.n <= 63
        if self.fast:
            self.allowed = c.allowed.astype(np.int64)
        else:
            self.walk = Walker(problem)

    def count(self, prefix: Sequence[int]) -> tuple[int, int]:
        """``(solutions, queens placed)`` below a valid 0-based prefix (not re-checked)."""
        if self.fast:
            q = np.zeros(self.problem.n, np.int64)
            q[: len(prefix)] = prefix
            found, visited = K.prefix_count(self.allowed, q, len(prefix), interrupt.FLAG)
            interrupt.check()
        else:
            found, _, visited, _ = self.walk.run(prefix, K.COUNT)
        return int(found), int(visited)


def count_prefixes(
    problem: Problem, prefixes: Sequence[Sequence[int]], *, threads: int | None = None, force: bool = False
) -> list[int]:
    """Counts below many prefixes at once, on threads.

    Large subtrees are split into deeper sub-prefixes first so that the threads stay
    busy; the result is the same for any thread count.

    Parameters
    ----------
    problem : Problem
    prefixes : sequence of sequences of int
        0-based prefixes (of any lengths).
    threads : int, optional
        Default: all cores.
    force : bool, default False
        Allow more than ``PRACTICAL_LIMIT`` free rows below a prefix.

    Returns
    -------
    list of int
        ``count_prefix(problem, p)`` for each ``p``, in order.

    Examples
    --------
    >>> count_prefixes(Problem(8), [[0], [1], [0, 1]])
    [4, 8, 0]
    """
    check_problem(problem)
    threads = validate.threads(threads)
    try:
        ps = [_check_prefix(problem, p) for p in prefixes]
    except TypeError:
        raise InvalidPlacement(f"prefixes is a sequence of prefixes (sequences of columns), got {prefixes!r}") from None
    for p in ps:
        _check_subtree(problem, p, force)
    if all(problem.n - len(p) <= 10 for p in ps):
        threads = 1  # small subtrees: a thread pool would cost more than it saves
    counter = PrefixCounter(problem)
    walk = Walker(problem)
    n = problem.n
    tasks: list[tuple[int, tuple[int, ...]]] = []
    for i, p in enumerate(ps):
        # a subtree with more than ~8 free rows is worth splitting for threads
        if threads > 1 and n - len(p) > 10:
            depth = len(p) + 2
            for arr in walk.stream(depth, 4096, None, p):
                tasks += [(i, tuple(row)) for row in arr.tolist()]
        else:
            tasks.append((i, p))
    parts = run_tasks(tasks, lambda t: counter.count(t[1])[0], threads, None)
    out = [0] * len(ps)
    for (i, _), c in zip(tasks, parts):
        out[i] += c
    return out


def prefix_batches(
    problem: Problem, depth: int, *, prefix: Sequence[int] = (), batch: int = 4096
) -> Iterator[np.ndarray]:
    """Stream every valid placement of the first ``depth`` rows extending ``prefix``.

    In lexicographic order, as int64 arrays of shape (k, depth); a placement of the
    first rows is valid when no constraint among those rows is broken (it need not
    have a completion).

    Examples
    --------
    >>> next(prefix_batches(Problem(4), 2)).tolist()
    [[0, 2], [0, 3], [1, 3], [2, 0], [3, 0], [3, 1]]
    """
    check_problem(problem)
    depth = validate.whole_number(depth, "depth", minimum=0)
    if depth > problem.n:
        raise QueensError(f"depth must be at most n = {problem.n}, got {depth}")
    batch = _check_batch(batch)
    p = _check_prefix(problem, prefix)
    if len(p) > depth:
        raise InvalidPlacement(f"a prefix of {len(p)} rows is longer than the depth {depth}")
    yield from Walker(problem).stream(depth, batch, None, p)


#: The practical limit of a search for the first solution in lexicographic order from the
#: first row (:func:`solve`, and the first solution or orbit that the streams of every
#: solution or orbit from the start give): before it, the search must rule out every
#: lexicographically smaller placement, and that work grows erratically with n. Measured
#: on 2 cores: n <= 33 within 1.5 s, n = 34 20 s, n = 36 over a minute.
FIRST_SOLUTION = limits.declare(
    "the lexicographic search for the first solution",
    33,
    "n",
    "the backtracking before the first solution grows erratically with n: n = 33 takes about a second, "
    "n = 34 twenty seconds, n = 36 over a minute",
)
#: What to do instead, for :func:`limits.check`'s ``hint``.
FIRST_SOLUTION_HINT = "for one solution of a large board use a heuristic (queenslab solve N, any n)"
VARIANT_SOLUTION_HINT = (
    "the heuristics solve the standard problem only; for this variant use the cpsat or sat backend (--backend cpsat)"
)


def check_first_solution(problem: Problem, force: bool = False) -> None:
    """Refuse a lexicographic search from the first row beyond :data:`FIRST_SOLUTION`
    unless ``force``.

    Raises
    ------
    TooLarge
        Saying what it costs and how to go ahead anyway.
    """
    # the heuristics solve the standard problem only: a variant is pointed at the solvers
    hint = FIRST_SOLUTION_HINT if problem.is_standard else VARIANT_SOLUTION_HINT
    limits.check(FIRST_SOLUTION, problem.n, validate.flag(force, "force"), hint=hint)


def solution_batches(
    problem: Problem, *, batch: int = 4096, limit: int | None = None, prefix: Sequence[int] = ()
) -> Iterator[np.ndarray]:
    """Stream the solutions in lexicographic order as int64 arrays of shape (k, n).

    Parameters
    ----------
    problem : Problem
    batch : int, default 4096
        Largest number of rows per array.
    limit : int, optional
        Stop after this many solutions.
    prefix : sequence of int, optional
        Only solutions starting with these 0-based columns.

    Yields
    ------
    numpy.ndarray
        0-based placements, one per row; never the whole set at once.
    """
    check_problem(problem)
    batch = _check_batch(batch)
    limit = validate.optional_whole_number(limit, "limit")
    p = _check_prefix(problem, prefix)
    yield from Walker(problem).stream(problem.n, batch, limit, p)


def fundamental_batches(
    problem: Problem, *, batch: int = 4096, limit: int | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Stream the canonical solutions (one per orbit) with their orbit sizes.

    The canonical member of an orbit under ``problem.symmetries()`` is its
    lexicographically least placement; they come in lexicographic order.

    Yields
    ------
    (numpy.ndarray, numpy.ndarray)
        0-based placements of shape (k, n) and their orbit sizes, shape (k,).

    Examples
    --------
    >>> sols, sizes = next(fundamental_batches(Problem(6)))
    >>> sols.tolist(), sizes.tolist()
    ([[1, 3, 5, 0, 2, 4]], [4])
    """
    check_problem(problem)
    batch = _check_batch(batch)
    limit = validate.optional_whole_number(limit, "limit")
    order = len(problem.symmetries())
    n = problem.n
    for arr in Walker(problem, group=True).stream(n, batch, limit, mode=K.EMIT_CANON):
        yield arr[:, :n], order // arr[:, n]


def fixed_point_counts(problem: Problem, *, threads: int | None = None, force: bool = False) -> list[int]:
    """For each element of ``problem.symmetries()``, the number of solutions it fixes.

    The first entry (the identity) is the total count. Burnside's lemma turns these
    into the number of orbits: ``sum(counts) / len(counts)``.

    Examples
    --------
    >>> fixed_point_counts(Problem(8))
    [92, 0, 0, 4, 0, 0, 0, 0]
    """
    check_problem(problem)
    threads = validate.threads(threads)
    _check_size(problem, force)
    walk = Walker(problem, group=True)
    k = len(walk.group)
    _, prefixes, _ = _split_depth(walk, threads)

    def task(prefix):
        acc = np.zeros((1, max(1, k)), np.int64)
        found = walk.run(prefix, K.FIXED, out=acc)[0]
        return int(found), acc[0, :k].copy()

    parts = run_tasks([tuple(int(x) for x in p) for p in prefixes], task, threads, None)
    total = sum(p[0] for p in parts)
    per = np.sum([p[1] for p in parts], axis=0) if parts and k else np.zeros(k, np.int64)
    return [total] + [int(x) for x in per]


def solutions(problem: Problem, *, limit: int | None = None, batch: int = 4096) -> Iterator[tuple[int, ...]]:
    """Iterate over the solutions in lexicographic order, as 0-based tuples.

    Examples
    --------
    >>> [s for s in solutions(Problem(4))]
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """
    for arr in solution_batches(problem, batch=batch, limit=limit):
        for row in arr.tolist():
            yield tuple(row)


def solve(problem: Problem, *, force: bool = False) -> tuple[int, ...] | None:
    """The lexicographically first solution, or None when there is none.

    Raises
    ------
    TooLarge
        For n beyond :data:`FIRST_SOLUTION` without ``force``.

    Examples
    --------
    >>> solve(Problem(8))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> solve(Problem(3)) is None
    True
    """
    check_problem(problem)
    check_first_solution(problem, force)
    return next(solutions(problem, limit=1, batch=1), None)


def timed(fn: Callable, *args, **kwargs):
    """Run ``fn`` and return ``(result, seconds)``."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0
