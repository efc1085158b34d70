"""Estimated solution and node counts with error bars, where exact counting is out of reach.

:func:`estimate` returns an :class:`Estimate`: an unbiased estimate of the number of
solutions of any problem the native engine accepts (every variant, n <= 64; the standard
and the plain toroidal problem up to n = 200, :mod:`queenslab.native.wide_estimate`), and of the
number of nodes (queens placed) of the general search tree, each with its standard error,
and a confidence interval for the solutions.

The estimators (all run by :func:`queenslab.native.estimate_kernels.probe_strata`, on the
tables the general walk reads, so that they sample exactly the tree it enumerates):

``"knuth"``
    D. E. Knuth, "Estimating the efficiency of backtrack programs" (1975): a probe walks
    from the root to a leaf choosing uniformly among the candidates of each row; the
    product of the branching factors met is an unbiased estimate of the solutions (when
    the path ends in one; else 0), and the sum of its partial products of the nodes.
``"partial"``
    P. W. Purdom, "Tree size by partial backtracking" (1978): the probe follows
    :data:`PARTIAL_WIDTH` randomly chosen children at each node instead of one, each
    weighted by ``candidates / followed``. Its cost grows as the width to the power of the
    rows where it branches, so it branches on the last :data:`PARTIAL_ROWS` rows (Knuth's
    single path above them), where most probes die and the extra branches pay.
``"stratified"``
    The measured best (benchmarks/estimate.py) at n = 16, 20, 30 and 60: the placements of the first
    rows are enumerated exactly (the strata, up to :data:`MAX_DEPTH` rows), the probes are
    allocated to them in proportion to the probability that Knuth's probe reaches them
    (proportional allocation: never more variance than the same probes from the root, and
    the spread between the strata is gone), and each probe follows Knuth's path down to the
    last :data:`TAIL` rows and counts those exactly (the conditional expectation of the
    path: the same mean, far less variance); on large boards it follows two random
    children on up to four rows above those (Purdom's partial backtracking, where it was
    measured to pay: :func:`_branching_rows`).

``"auto"`` first counts the tree exactly when it has at most :data:`EXACT_NODES` nodes
(``exact`` is then True and the interval a point), else runs ``"stratified"``.

Error bars: the estimate is a sum over strata of means of independent probes; its
variance is estimated by ``sum(s_h**2 / m_h)`` (``s_h`` the sample standard deviation of
the ``m_h`` probes of stratum h; one stratum for Knuth and Purdom) and the interval is the
normal approximation ``estimate +- z * stderr`` (z the two-sided normal quantile of
``confidence``), its lower end cut at 0. Probe estimates are heavy-tailed, so the nominal
confidence holds once there are enough probes: the calibration tests check it (95%
intervals contain the exact count in over 90% of 200 seeds with a few thousand probes).

Same seed, same answer: the probes are cut into tasks of fixed size whose seeds are drawn
from the user's seed by :class:`numpy.random.SeedSequence` (one per sweep and
task), and the results are added in task order, so the thread count never changes the
result. On a Dask cluster (:func:`queenslab.distributed.estimate`) the same tasks run on
the workers, in batches, and are added in the same order: the same estimate, bit for bit.
With ``time_limit`` the number of probes depends on the machine, and so does the
estimate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from statistics import NormalDist
from types import ModuleType
from typing import Protocol

import numpy as np

from . import interrupt, validate
from .compiled import compile_problem
from .errors import QueensError, TooLarge
from .native.pool import threads_pool
from .problem import Problem, as_problem

# the native modules (numba) are imported where they run: the command line's --help
# imports this module for its option names and must not load numba

__all__ = [
    "Estimate",
    "estimate",
    "METHODS",
    "DEFAULT_SAMPLES",
    "MAX_SAMPLES",
    "TAIL",
    "PARTIAL_ROWS",
    "PARTIAL_WIDTH",
    "EXACT_NODES",
]

#: The estimators :func:`estimate` runs (``"auto"`` chooses among them).
METHODS = ("knuth", "partial", "stratified")
#: Probes when neither ``samples`` nor ``time_limit`` is given: about a second on one core
#: at n = 20.
DEFAULT_SAMPLES = 1_000_000
#: The most probes one call may ask for (about a day of probing on one core).
MAX_SAMPLES = 10**11
#: Rows counted exactly below each stratified probe: measured on the standard problem (a
#: 2-core AMD EPYC), the variance per second is least with 7-8 rows at n = 16, 8-9 at
#: n = 20 and n = 30, 8-10 at n = 60 -- the cost of the exact rows does not grow with n.
TAIL = 8
#: Children followed per node by Purdom's partial backtracking ...
PARTIAL_WIDTH = 2
#: ... on the last rows only (measured best at n = 20 and 30 among 8..14).
PARTIAL_ROWS = 10
#: The deepest stratification (the placements of the first rows; thousands at depth 3).
MAX_DEPTH = 3
#: Probes per stratum the budget must allow for a stratification to be that deep.
PER_STRATUM = 256
#: ``"auto"`` counts a tree of at most this many nodes exactly (a few tens of ms).
EXACT_NODES = 2_000_000
#: Probes per task: a few milliseconds each, so that progress, Ctrl-C and the time limit
#: are seen often, and the threads share the work evenly.
CHUNK = 8192
#: Most probes per sweep over the strata (a sweep's tasks are listed at once).
SWEEP = CHUNK * 1024
#: Probes per second assumed to size a stratification when only a time limit is given.
_RATE = 500_000
#: Run the wide kernels (:mod:`queenslab.native.wide_estimate`) on every problem they
#: take, n <= 64 too (tests compare them with the 64-bit kernels); else only for n > 64.
_FORCE_WIDE = False


def _wide(problem: Problem) -> bool:
    """Whether ``problem`` is estimated by the wide kernels: n > 64 (the standard or plain
    toroidal problem, n <= 200), or any n with :data:`_FORCE_WIDE`."""
    from .native import wide_estimate

    return (problem.n > 64 or _FORCE_WIDE) and wide_estimate.supports(problem)


@dataclass(frozen=True)
class Estimate:
    """An estimated count (the JSON object of ``queenslab estimate``: fields = keys).

    Attributes
    ----------
    n : int
    problem : Problem
    estimate : float
        Estimated number of solutions (the exact count when ``exact``).
    stderr : float
        Its standard error (0 when ``exact``).
    low, high : float
        The confidence interval (normal approximation; ``low`` cut at 0).
    confidence : float
        The interval's nominal coverage.
    probes : int
        Probes made.
    method : str
        ``"knuth"``, ``"partial"``, ``"stratified"``, or ``"exhaustive"`` when the tree was
        counted exactly.
    strata : int
        Strata (placements of the first rows) the probes were spread over; 1 for Knuth and
        Purdom.
    nodes_estimate : float
        Estimated nodes of the general search tree (queens placed, as the engine counts).
    nodes_stderr : float
        Its standard error.
    exact : bool
        Whether every probe saw its whole subtree: the numbers are then exact counts.
    count : int or None
        The exact number of solutions when ``exact``, else None.
    nodes : int or None
        The exact number of nodes when ``exact``, else None.
    seed : int
    threads : int or None
        Threads of this machine that probed; None when a Dask cluster probed.
    seconds : float
    note : str or None
        Why contradicting constraints leave no solutions (the estimate is then 0).
    workers : tuple of str or None
        The Dask workers that returned probes (empty when the answer needed none); None
        on threads.
    known : int or None
        The problem's published or proved count (:func:`queenslab.data.known_values`:
        the standard problem, toroidal queens, superqueens), None when none is known.
    known_source : str or None
        Where ``known`` comes from (OEIS sequences, or Pólya's theorem for a toroidal
        board without solutions).
    within : bool or None
        Whether ``known`` lies in the interval ``low .. high``; None when nothing is known.
    """

    n: int
    problem: Problem
    estimate: float
    stderr: float
    low: float
    high: float
    confidence: float
    probes: int
    method: str
    strata: int
    nodes_estimate: float
    nodes_stderr: float
    exact: bool
    count: int | None
    nodes: int | None
    seed: int
    threads: int | None
    seconds: float
    note: str | None = None
    workers: tuple[str, ...] | None = None
    known: int | None = None
    known_source: str | None = None
    within: bool | None = None

    def __post_init__(self) -> None:
        from .data import known_values  # the tables, read once an estimate is made

        values = known_values(self.problem)
        if values.count is not None:
            object.__setattr__(self, "known", values.count)
            object.__setattr__(self, "known_source", values.source)
            object.__setattr__(self, "within", self.low <= values.count <= self.high)

    @property
    def relative_stderr(self) -> float:
        """``stderr / estimate`` (0 for an exact count, inf for a zero estimate with spread)."""
        if self.stderr == 0:
            return 0.0
        return self.stderr / self.estimate if self.estimate else math.inf


class _Strata:
    """Running per-stratum sums: probes, sum and squared deviations of the solution and
    node estimates (merged across tasks by Chan, Golub and LeVeque's formula)."""

    def __init__(self, h: int):
        self.m = np.zeros(h, np.int64)
        self.s = np.zeros(h)
        self.s2 = np.zeros(h)
        self.ns = np.zeros(h)
        self.ns2 = np.zeros(h)
        self.random = np.zeros(h, np.int64)

    def add(self, idx: np.ndarray, counts: np.ndarray, out: np.ndarray) -> None:
        """Add a task's kernel output (one row per piece ``idx[j]``, ``counts[j]`` probes)."""
        from .native import estimate_kernels as EK

        for j, h in enumerate(idx.tolist()):
            self._add(h, int(counts[j]), *out[j, : EK.RANDOM + 1].tolist())

    def merge(self, other: _Strata) -> None:
        """Add another accumulator's probes."""
        for h in np.flatnonzero(other.m).tolist():
            self._add(h, int(other.m[h]), other.s[h], other.s2[h], other.ns[h], other.ns2[h], int(other.random[h]))

    def _add(self, h: int, mb: int, s: float, s2: float, ns: float, ns2: float, random: float) -> None:
        if mb == 0:
            return
        ma = int(self.m[h])
        self.s[h], self.s2[h] = _merge(ma, self.s[h], self.s2[h], mb, s, s2)
        self.ns[h], self.ns2[h] = _merge(ma, self.ns[h], self.ns2[h], mb, ns, ns2)
        self.m[h] = ma + mb
        self.random[h] += int(random)


def _merge(ma: int, sa: float, qa: float, mb: int, sb: float, qb: float) -> tuple[float, float]:
    if ma == 0:
        return sb, qb
    delta = sb / mb - sa / ma
    return sa + sb, qa + qb + delta * delta * ma * mb / (ma + mb)


class ProbeRunner:
    """The kernel on one problem's tables, with fixed widths, run on seeded tasks."""

    def __init__(self, problem: Problem, width: np.ndarray, prefixes: np.ndarray, seed: int, cap: int = 0):
        from .native import estimate_kernels, wide_estimate

        self.problem = problem
        # unit: the wide kernels count in units of 2**shift (their estimates overflow else)
        self.kernels: ModuleType
        self.tables: tuple[np.ndarray, ...]
        if _wide(problem):
            shift = wide_estimate.shift(problem.n, problem.toroidal)
            self.kernels, self.tables, self.unit = wide_estimate, (), math.ldexp(1.0, shift)
            self.opts = np.array([problem.n, int(problem.toroidal), cap, shift], np.int64)
        else:
            compiled = compile_problem(problem)
            self.kernels, self.tables, self.unit = estimate_kernels, compiled.kernel_tables, 1.0
            self.opts = np.array([problem.n, int(compiled.toroidal), cap], np.int64)
        self.width = width
        self.prefixes = prefixes
        self.seed = seed

    def task_seed(self, key: tuple[int, ...]) -> np.uint64:
        words = np.random.SeedSequence(self.seed, spawn_key=key).generate_state(2, np.uint32)
        return np.uint64((int(words[0]) << 32) | int(words[1]))

    def run(
        self, key: tuple[int, ...], idx: np.ndarray, counts: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        EK = self.kernels
        out = np.zeros((len(idx), EK.COLUMNS))
        EK.probe_strata(
            *self.tables,
            self.opts,
            self.width,
            self.prefixes[idx],
            counts,
            self.task_seed(key),
            out,
            interrupt.FLAG,
        )
        interrupt.check()  # a stopped kernel returned partial sums: never use them
        return idx, counts, out


def _tasks(alloc: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Cut ``alloc[h]`` probes per stratum into tasks of about :data:`CHUNK` probes:
    ``(strata, probes)`` arrays, strata in order (a big stratum split over tasks)."""
    tasks = []
    idx: list[int] = []
    cnt: list[int] = []
    size = 0
    for h, m in enumerate(alloc.tolist()):
        while m > 0:
            take = min(m, CHUNK - size)
            idx.append(h)
            cnt.append(take)
            size += take
            m -= take
            if size >= CHUNK:
                tasks.append((np.array(idx, np.int64), np.array(cnt, np.int64)))
                idx, cnt, size = [], [], 0
    if idx:
        tasks.append((np.array(idx, np.int64), np.array(cnt, np.int64)))
    return tasks


def _pool_run(
    runner: ProbeRunner,
    tasks: list[tuple[np.ndarray, np.ndarray]],
    phase: int,
    acc: _Strata,
    threads: int,
    deadline: float | None,
    tick: Callable[[int], None],
) -> bool:
    """Run ``tasks`` (seeded by ``(phase, index)``) on ``threads`` threads, adding the
    results to ``acc`` in task order; a passed ``deadline`` stops submitting (the tasks
    finished keep their order). Returns whether every task ran."""
    pending: dict[int, Future] = {}
    nxt = 0
    done = 0
    with threads_pool(threads, "queenslab-estimate") as pool:
        try:
            while done < len(tasks):
                stop = deadline is not None and time.perf_counter() >= deadline
                while not stop and nxt < len(tasks) and len(pending) < 2 * threads:
                    idx, cnt = tasks[nxt]
                    pending[nxt] = pool.submit(runner.run, (phase, nxt), idx, cnt)
                    nxt += 1
                if done not in pending:
                    break  # the deadline passed before this task was submitted
                idx, cnt, out = pending.pop(done).result()
                acc.add(idx, cnt, out)
                done += 1
                tick(int(cnt.sum()))
        finally:
            for fut in pending.values():
                fut.cancel()
    return done == len(tasks)


def _exhaustive(problem: Problem, cap: int) -> tuple[int, int] | None:
    """``(solutions, nodes)`` of the whole tree, or None when it has more than ``cap`` nodes."""
    from .native import estimate_kernels as EK

    n = problem.n
    runner = ProbeRunner(problem, np.full(n, n + 1, np.int64), np.zeros((1, 0), np.int64), 0, cap)
    _, _, out = interrupt.run(runner.run, (0,), np.zeros(1, np.int64), np.ones(1, np.int64))
    if out[0, EK.BIG]:
        return None
    return int(out[0, EK.SUM]), int(out[0, EK.NSUM])


def _branching_rows(n: int) -> int:
    """Rows above the exact tail where a stratified probe follows two children (Purdom's
    partial backtracking), by board size: none up to n = 29, then one more per ten rows, up
    to four. Measured on the standard problem (one thread, a few seconds each), relative
    standard error with none / with the rows given here: n = 20 0.13% / 0.13%, n = 30
    0.27% / 0.25% (one row), n = 40 0.49% / 0.40% (two rows), n = 60 1.27% / 0.74%
    (four rows): the deeper the tree, the more the variance comes from the rows just above
    the tail."""
    return min(4, max(0, (n - 20) // 10))


def stratum_widths(n: int, method: str) -> np.ndarray:
    width = np.ones(n, np.int64)
    if method == "partial":
        width[max(0, n - PARTIAL_ROWS) :] = PARTIAL_WIDTH
    elif method == "stratified":
        width[max(0, n - TAIL - _branching_rows(n)) :] = PARTIAL_WIDTH
        width[max(0, n - TAIL) :] = n + 1
    return width


def _strata(problem: Problem, budget: int) -> tuple[np.ndarray, int]:
    """``(prefixes, nodes above them)``: the deepest stratification (up to
    :data:`MAX_DEPTH` rows, above the exact tail) that leaves :data:`PER_STRATUM` probes
    per stratum of ``budget``."""
    from .native import engine, kernels as K, wide_estimate

    walk = wide_estimate.Prefixes(problem) if _wide(problem) else engine.Walker(problem)
    n = problem.n
    best = (np.zeros((1, 0), np.int64), 0)
    for d in range(1, min(MAX_DEPTH, max(0, n - TAIL)) + 1):
        found, _, nodes, _ = walk.run((), K.COUNT, stop=d)
        if found * PER_STRATUM > budget:
            break
        best = (walk.prefixes(d), int(nodes))
        if found == 0:
            break  # no placement of d rows: the tree ends above them
    return best


def _knuth_weights(prefixes: np.ndarray, n: int) -> np.ndarray:
    """The probability that Knuth's probe reaches each prefix, counting the valid children
    of each shorter prefix: proportional allocation by it is never worse than Knuth's
    probes from the root (stratification with proportional allocation never adds variance)."""
    h, d = prefixes.shape
    weights = np.ones(h)
    code = np.zeros(h, np.int64)
    for j in range(d):
        child = code * n + prefixes[:, j]
        pairs = np.unique(np.stack([code, child], axis=1), axis=0)
        parents, children = np.unique(pairs[:, 0], return_counts=True)
        weights /= children[np.searchsorted(parents, code)]
        code = child
    return weights


def estimate(
    problem: Problem,
    *,
    samples: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    threads: int | None = None,
    method: str = "auto",
    confidence: float = 0.95,
    progress: Callable[[int, int], None] | None = None,
) -> Estimate:
    """Estimate the number of solutions (and search nodes) of ``problem`` by random probes.

    Parameters
    ----------
    problem : Problem
        Any variant the native engine accepts (n <= 64); the standard and the plain
        toroidal problem up to n = 200.
    samples : int, optional
        Probes to make (1 .. :data:`MAX_SAMPLES`); with ``time_limit`` too, whichever comes
        first. Default :data:`DEFAULT_SAMPLES` when neither is given.
    time_limit : float, optional
        Seconds to probe for (the probes then depend on the machine's speed). The probes
        run in sweeps over every stratum: the first always finishes (a tenth of a second
        or so), a later one only counts if it finishes in time.
    seed : int, default 0
        The same seed gives the same estimate, on any number of threads (and on a Dask
        cluster: :func:`queenslab.distributed.estimate`).
    threads : int, optional
        Default: every core.
    method : {"auto", "knuth", "partial", "stratified"}
        See the module docstring; "auto" counts a small tree exactly, else "stratified".
    confidence : float, default 0.95
        Nominal coverage of the interval, in (0, 1).
    progress : callable, optional
        ``progress(done, total)``: probes done of ``samples``, or milliseconds of
        ``time_limit`` when only that is given.

    Returns
    -------
    Estimate

    Raises
    ------
    QueensError
        For a bad argument (the message says what is allowed); TooLarge for n > 64
        (n > 200 for the standard and plain toroidal problem).

    Examples
    --------
    >>> e = estimate(Problem(8))                 # small: counted exactly
    >>> e.exact, e.count, e.method
    (True, 92, 'exhaustive')
    >>> e = estimate(Problem(12), method="knuth", samples=20_000, seed=1)
    >>> e.low < 14200 < e.high, e.probes
    (True, 20000)
    """
    request = Request.of(problem, samples, time_limit, seed, method, confidence, progress)
    count = validate.threads(threads)
    return run_request(request, count, None, lambda: nullcontext(_Threads(count)))


@dataclass(frozen=True)
class Request:
    """The checked arguments of an estimate, and when it began (``t0``, perf_counter)."""

    problem: Problem
    samples: int | None
    time_limit: float | None
    seed: int
    method: str
    confidence: float
    progress: Callable[[int, int], None] | None
    t0: float

    @classmethod
    def of(
        cls,
        problem: Problem,
        samples: int | None,
        time_limit: float | None,
        seed: int,
        method: str,
        confidence: float,
        progress: Callable[[int, int], None] | None,
    ) -> Request:
        """Check the arguments of :func:`estimate` (a QueensError saying what is allowed)."""
        from .native import engine

        t0 = time.perf_counter()
        problem = as_problem(problem)
        if problem.n > engine.MAX_N:
            from .native import wide_estimate

            if not wide_estimate.supports(problem):
                raise TooLarge(
                    f"n = {problem.n} is too large to estimate: beyond n = {engine.MAX_N} only the "
                    f"standard and the plain toroidal problem are estimated, up to n = {wide_estimate.MAX_N} "
                    "(other variants hold their constraints in 64-bit rows; beyond n = "
                    f"{wide_estimate.MAX_N} the count exceeds a double)"
                )
        else:
            engine.check_problem(problem)
        if samples is not None:
            samples = validate.whole_number(
                samples, "samples", minimum=2, maximum=MAX_SAMPLES, why="about a day on one core"
            )  # two probes at least: a standard error needs two
        if time_limit is not None:
            time_limit = validate.positive_seconds(time_limit)
            if time_limit is None or not math.isfinite(time_limit):
                raise QueensError(f"time_limit must be a finite positive number of seconds, got {time_limit!r}")
        if samples is None and time_limit is None:
            samples = DEFAULT_SAMPLES
        seed = validate.seed(seed)
        validate.choice(method, ("auto", *METHODS), "method")
        confidence = validate.real(confidence, "confidence", minimum=0, maximum=1, open_minimum=True, open_maximum=True)
        progress = validate.callback(progress)
        return cls(problem, samples, time_limit, seed, method, confidence, progress, t0)


class Sweeps(Protocol):
    """Where an estimate's sweeps of tasks run: this machine's threads (:class:`_Threads`)
    or a Dask cluster (:mod:`queenslab.distributed.probes`)."""

    @property
    def threads(self) -> int | None:
        """Threads of this machine that probe (None on a cluster)."""
        ...

    @property
    def workers(self) -> tuple[str, ...] | None:
        """The Dask workers that returned probes (None on threads)."""
        ...

    def timed_tasks(self) -> int:
        """Tasks per sweep under a time limit (a later sweep counts only if it finishes)."""
        ...

    def run(
        self,
        runner: ProbeRunner,
        tasks: list[tuple[np.ndarray, np.ndarray]],
        phase: int,
        acc: _Strata,
        deadline: float | None,
        tick: Callable[[int], None],
    ) -> bool:
        """Run ``tasks`` seeded by ``(phase, index)``, adding the results to ``acc`` in task
        order, ``tick(probes)`` per finished task; a passed ``deadline`` stops submitting.
        Returns whether every task ran."""
        ...


@dataclass
class _Threads:
    """Sweeps on this machine's threads (:func:`_pool_run`)."""

    threads: int
    workers: tuple[str, ...] | None = None

    def timed_tasks(self) -> int:
        return self.threads * 8  # about 0.1 s of probes per thread at n = 20

    def run(
        self,
        runner: ProbeRunner,
        tasks: list[tuple[np.ndarray, np.ndarray]],
        phase: int,
        acc: _Strata,
        deadline: float | None,
        tick: Callable[[int], None],
    ) -> bool:
        return _pool_run(runner, tasks, phase, acc, self.threads, deadline, tick)


def run_request(
    request: Request,
    threads: int | None,
    workers: tuple[str, ...] | None,
    where: Callable[[], AbstractContextManager[Sweeps]],
) -> Estimate:
    """The estimate of ``request``, its probes in sweeps run by the :class:`Sweeps` that
    ``where()`` opens -- only once probes are needed: a contradiction, a tree small
    enough to count and a tree that ends above its strata are answered here.
    ``threads`` and ``workers`` are reported for such an answer."""
    problem, samples, time_limit = request.problem, request.samples, request.time_limit
    seed, method, confidence, progress, t0 = (
        request.seed, request.method, request.confidence, request.progress, request.t0,
    )  # fmt: skip
    n = problem.n

    def exact(count: int, nodes: int, how: str, strata: int = 1, probes: int = 0, note: str | None = None) -> Estimate:
        c = float(count)
        return Estimate(
            n, problem, c, 0.0, c, c, confidence, probes, how, strata, float(nodes), 0.0, True, count, nodes,
            seed, threads, time.perf_counter() - t0, note, workers,
        )  # fmt: skip

    if problem.contradiction:
        return exact(0, 0, "exhaustive", note=problem.contradiction)
    if method == "auto":
        found = _exhaustive(problem, EXACT_NODES)
        if found is not None:
            return exact(found[0], found[1], "exhaustive")
        method = "stratified"

    deadline = None if time_limit is None else t0 + time_limit
    budget = samples if samples is not None else int(min(MAX_SAMPLES, time_limit * _RATE))  # type: ignore[operator]
    if method == "stratified":
        prefixes, top_nodes = _strata(problem, budget)
    else:
        prefixes, top_nodes = np.zeros((1, 0), np.int64), 0
    h = len(prefixes)
    if h == 0:  # no placement of the first rows: the tree ends above them, counted exactly
        return exact(0, top_nodes, "exhaustive", 0)
    runner = ProbeRunner(problem, stratum_widths(n, method), prefixes, seed)

    spent = [0]
    total_ms = None if samples is not None else int(time_limit * 1000)  # type: ignore[operator]

    def tick(k: int) -> None:
        spent[0] += k
        if progress:
            if total_ms is None:
                progress(min(spent[0], samples or 0), samples or 0)
            else:
                progress(min(total_ms, int((time.perf_counter() - t0) * 1000)), total_ms)

    # stratified: probes in proportion to the probability that Knuth's probe reaches each
    # stratum (proportional allocation). Neyman allocation by the strata's spread was
    # measured too: its spread, from a pilot of 8 heavy-tailed probes per stratum, is so
    # noisy that it did no better at n = 20 and worse at n = 60 (relative standard error
    # 1.8% against 1.3% with 2,000,000 probes), and proportional allocation can never do
    # worse than the same probes from the root.
    weights = _knuth_weights(prefixes, n) if method == "stratified" else np.ones(h)
    least = 2 if method == "stratified" else 1  # a stratum's spread needs two probes
    acc = _Strata(h)
    left = samples
    sweep = 0
    with where() as sweeps:
        while True:
            # sweeps over every stratum: with a number of samples, of at most SWEEP probes
            # each (the tasks of one sweep are listed at once); with a time limit, of
            # sweeps.timed_tasks() tasks, the first always finished (every stratum probed)
            # and a later one kept only if it finished (a partial sweep would leave strata
            # unprobed)
            size = SWEEP if deadline is None else CHUNK * sweeps.timed_tasks()
            if left is not None:
                size = min(size, left)
            alloc = np.maximum(least, np.round(size * weights / weights.sum())).astype(np.int64)
            part = _Strata(h)
            finished = sweeps.run(runner, _tasks(alloc), sweep, part, deadline if sweep else None, tick)
            sweep += 1
            if finished:
                acc.merge(part)
            if left is not None:
                left -= int(alloc.sum())
                if left < least * h:
                    break  # too few left for another sweep over every stratum
            if not finished or (deadline is not None and time.perf_counter() >= deadline):
                break
        threads, workers = sweeps.threads, sweeps.workers
    m = acc.m
    mean = acc.s / m
    nmean = acc.ns / m
    var = np.where(m < 2, 0.0, acc.s2 / np.maximum(m - 1, 1) / m)
    nvar = np.where(m < 2, 0.0, acc.ns2 / np.maximum(m - 1, 1) / m)
    unit = runner.unit
    value = float(mean.sum()) * unit
    nodes_value = float(nmean.sum()) * unit + top_nodes
    se = math.sqrt(max(0.0, float(var.sum()))) * unit
    nse = math.sqrt(max(0.0, float(nvar.sum()))) * unit
    probes = int(m.sum())
    if not acc.random.any():  # no probe made a random choice: every subtree was counted
        return exact(round(value), round(nodes_value), method, h, probes)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    return Estimate(
        n, problem, value, se, max(0.0, value - z * se), value + z * se, confidence, probes, method, h,
        nodes_value, nse, False, None, None, seed, threads, time.perf_counter() - t0, None, workers,
    )  # fmt: skip
