"""What an exact count will cost, predicted before it runs.

:func:`estimate_cost` returns a :class:`CostEstimate`: the work of the count the native
engine would run (the method ``engine.chosen_method`` picks), its time on one core of this
machine, on this machine's cores, and on any number K of cores of a split count, from a
short calibration of the engine's real speed here. The models, one per method:

``"general"`` (every variant) and ``"symmetric"`` (the standard problem below n = 14 and
where the join's tables do not fit its memory budget, from n = 24)
    The work is the search's nodes (queens placed). The general search's are the
    estimator's ``nodes_estimate`` (:func:`queenslab.estimate.estimate`, stratified probes
    of the very tree the engine walks). The symmetric search places fewer queens: its
    nodes are the general tree's times the ratio of the two searches' exact node counts,
    counted at n = 10..13 and extrapolated (the ratio falls slowly and smoothly, from 0.212
    at n = 10 to 0.192 at n = 15; a fit of its logarithm, linear in n). The rate is
    measured by running the engine's own kernel on the problem itself, on a few randomly
    chosen tasks of its split, each stopped after a fixed slice of time: nodes placed per
    second of this thread's CPU time.
``"join"`` (the standard problem, n = 14..23)
    The join places no queens; its work is counted in the join's own estimate of each of
    its row splits' work (:func:`queenslab.native.join_kernels.task_costs`, the pair tests
    of its quarter tables). That estimate orders the tasks but its unit's cost differs
    from one n to the next, so the time per unit is measured on this n: the row splits
    are cut into windows of consecutive rows of equal estimated work (each about
    :data:`WINDOW_SECONDS` long, so that a call's fixed cost is small), windows are drawn
    with probability proportional to their estimated work and counted for real, and the
    total is the estimated work times the mean seconds per unit of the drawn windows
    (Hansen and Hurwitz's estimator of a total from sampling proportional to size:
    unbiased, with a standard error from the spread of the windows).

Every figure is for free cores: time is measured as this thread's CPU time, so the load of
other programs does not enter the calibration (it does enter a real count's wall time).
The time on K cores is ``setup + max(core_seconds / (K * efficiency), largest task)``:
a split count cannot be faster than its largest task (the split's granularity), and K > 1
cores share the work at :data:`PARALLEL_EFFICIENCY` (measured on 2 cores: 1.91x for the
join, 1.9x for the symmetric search, see docs/distributed.md). The largest task of the
join's split is its estimated work times the measured rate; of the symmetric split, its
share of the nodes counted exactly at n = 12 and 13 and extrapolated geometrically (it
shrinks by about 0.84 per n); of the general split, the task whose nodes the probes
estimate largest.

``relative_error`` is the calibration's own sampling error (the estimator's standard error
of the nodes, the spread of the measured rates or windows); the models' systematic
errors (the extrapolated ratio, the rate of a task's beginning for the whole task) are not
in it: docs/distributed.md sets predictions beside measured counts.

The same seed makes the same random choices (tasks, windows, probes); the measured times,
and so the prediction, vary from run to run by a few per cent.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from . import validate
from .errors import QueensError, UnsupportedProblem
from .problem import Problem, as_problem

# numba (the engine, the estimator's kernels) is imported where it runs: the command
# line's --help imports this module

__all__ = [
    "CostEstimate",
    "CoreTime",
    "estimate_cost",
    "refusal_cost",
    "check_count",
    "DEFAULT_CORES",
    "DEFAULT_SECONDS",
    "REFUSAL_SECONDS",
    "PARALLEL_EFFICIENCY",
    "WINDOW_SECONDS",
    "MAX_CORES",
    "format_duration",
]

#: The numbers of cores a prediction is given for when none are asked for.
DEFAULT_CORES = (1, 2, 64, 1024)
#: Seconds of calibration by default (the set-up of the join's tables at n = 20 and 21, a
#: second or two, comes on top).
DEFAULT_SECONDS = 2.0
#: Seconds of calibration when a refusal quotes the prediction (:func:`refusal_cost`).
REFUSAL_SECONDS = 0.5
#: The largest n whose refused count quotes a calibrated price: beyond it the calibration
#: first builds the join's quarter tables (2.4 GB and about 15 s at n = 22, 4.7 GB and
#: 50 s at n = 23), too long for a refusal; the refusal then points to --estimate-cost.
PRICED_TO = 21
#: Speed-up per core when more than one counts: both engines measured 1.9x on 2 cores
#: (docs/distributed.md: tasks run about 5% slower when both cores count).
PARALLEL_EFFICIENCY = 0.95
#: Target length of one calibration window of the join (CPU seconds).
WINDOW_SECONDS = 0.01
#: The most cores a prediction may be asked for.
MAX_CORES = 10**7
#: The board sizes whose exact node counts give the symmetric search's ratio to the
#: general search (both counted in a few hundredths of a second).
RATIO_SIZES = (10, 11, 12, 13)
#: The board sizes whose exact task sizes give the symmetric split's largest share.
SHARE_SIZES = (12, 13)
#: Tasks the symmetric and general searches' rate is measured on.
RATE_TASKS = 6


@dataclass(frozen=True)
class CoreTime:
    """One row of :attr:`CostEstimate.per_cores`: the predicted wall time on ``cores`` cores.

    Attributes
    ----------
    cores : int
    predicted_seconds : float
    limited_by : str
        ``"work"`` (the work shared evenly) or ``"largest task"`` (a task is never split
        further, so more cores cannot beat it).
    """

    cores: int
    predicted_seconds: float
    limited_by: str


@dataclass(frozen=True)
class CostEstimate:
    """What an exact count would cost (the JSON object of ``queenslab count N
    --estimate-cost``: fields = keys).

    Attributes
    ----------
    n : int
    problem : Problem
    method : str
        The method the count would use: ``"join"``, ``"symmetric"`` or ``"general"``.
    predicted_nodes : float or None
        Predicted queens placed by the search; None for the join.
    work : float
        The predicted work in ``work_unit``: the search's nodes, or the join's estimated
        pair tests.
    work_unit : str
        ``"nodes"`` or ``"join work units"``.
    rate : float
        Work units per core-second, measured on this machine.
    core_seconds : float
        Predicted seconds of the whole count on one free core here.
    relative_error : float or None
        The calibration's relative standard error of ``core_seconds`` (sampling only);
        None when nothing was sampled.
    split_tasks : int
        Tasks of the split a count on many cores runs (``engine.split_tasks``).
    largest_task_seconds : float
        Predicted seconds of its largest task.
    local_cores : int
        Cores (threads) the count would run on here.
    predicted_seconds : float
        Predicted wall time on ``local_cores`` free cores, set-up included.
    per_cores : tuple of CoreTime
        The predicted wall time on each number of cores asked for.
    calibration : str
        What the calibration measured.
    calibration_seconds : float
        Wall time the prediction took.
    seed : int
        Seed of the calibration's random choices.
    """

    n: int
    problem: Problem
    method: str
    predicted_nodes: float | None
    work: float
    work_unit: str
    rate: float
    core_seconds: float
    relative_error: float | None
    split_tasks: int
    largest_task_seconds: float
    local_cores: int
    predicted_seconds: float
    per_cores: tuple[CoreTime, ...]
    calibration: str
    calibration_seconds: float
    seed: int


@dataclass(frozen=True)
class _Model:
    """A method's calibrated model, before the cores are applied."""

    work: float
    unit: str
    nodes: float | None
    rate: float
    rel: float | None
    tasks: int
    largest_work: float
    setup: float
    calibration: str


def _parallel(core_seconds: float, largest: float, cores: int) -> tuple[float, str]:
    even = core_seconds / (cores * (PARALLEL_EFFICIENCY if cores > 1 else 1.0))
    return (even, "work") if even >= largest else (largest, "largest task")


def wall_time(core_seconds: float, largest: float, setup: float, cores: int) -> CoreTime:
    """The wall time of a count of ``core_seconds`` of work on ``cores`` cores whose largest
    task takes ``largest`` seconds, after ``setup`` seconds on one core.

    Examples
    --------
    >>> wall_time(100.0, 1.0, 0.0, 1)
    CoreTime(cores=1, predicted_seconds=100.0, limited_by='work')
    >>> wall_time(100.0, 1.0, 0.0, 1000)
    CoreTime(cores=1000, predicted_seconds=1.0, limited_by='largest task')
    """
    seconds, by = _parallel(core_seconds, largest, cores)
    return CoreTime(cores, setup + seconds, by)


def format_duration(seconds: float) -> str:
    """A duration as people say it.

    Examples
    --------
    >>> format_duration(0.0123), format_duration(42), format_duration(5400), format_duration(3e5)
    ('0.012 s', '42 s', '1.5 h', '3.5 days')
    """
    if seconds < 1:
        return f"{seconds:.2g} s"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 1.5 * size if unit == "min" else seconds >= size:
            return f"{seconds / size:.2g} {unit}" if seconds < 10 * size else f"{seconds / size:.0f} {unit}"
    return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"


@contextlib.contextmanager
def _stop_after(seconds: float) -> Iterator[np.ndarray]:
    """A stop flag for a kernel (``int64[1]``), raised by a timer after ``seconds``: this
    calibration's own flag, never :data:`queenslab.interrupt.FLAG`."""
    halt = np.zeros(1, np.int64)
    timer = threading.Timer(seconds, halt.__setitem__, (0, 1))
    timer.daemon = True
    timer.start()
    try:
        yield halt
    finally:
        timer.cancel()


def _cpu(fn, *args):
    """``(fn(*args), CPU seconds of this thread)``."""
    t0 = time.thread_time()
    out = fn(*args)
    return out, time.thread_time() - t0


def _rate(samples: list[tuple[int, float]]) -> tuple[float, float | None]:
    """Nodes per CPU second over timed runs ``(nodes, seconds)``, and its relative
    standard error from the spread of the runs' rates (None with fewer than two)."""
    runs = [(k, s) for k, s in samples if k > 0 and s > 0]
    if not runs:
        raise QueensError("the calibration timed no work: its runs placed no queen")
    rate = sum(k for k, _ in runs) / sum(s for _, s in runs)
    if len(runs) < 2:
        return rate, None
    each = np.array([k / s for k, s in runs])
    return rate, float(each.std(ddof=1) / math.sqrt(len(each)) / each.mean())


def _zero(tasks: int, why: str) -> _Model:
    return _Model(0.0, "nodes", 0.0, 0.0, None, tasks, 0.0, 0.0, why)


def _join_model(problem: Problem, seconds: float, seed: int) -> _Model:
    """The join's model (the module docstring): its tables built and timed, windows of row
    splits drawn in proportion to their estimated work and counted (the problem's own:
    a variant with blocked cells or fixed queens has its own tables and row splits)."""
    from .native import join, join_kernels as JK

    n = problem.n
    if n < 4:
        return _zero(1, "n <= 3: answered directly")
    t0 = time.perf_counter()
    tasks, words, offs, bases = join.prepare_problem(problem)  # not the count's cached copy
    if not len(tasks):
        return _zero(1, "no row split of the join can hold a solution")
    cost = JK.task_costs(n, tasks, offs, bases).astype(np.float64)
    setup = time.perf_counter() - t0  # the count builds the same tables before its first task
    total = float(cost.sum())
    cum = np.cumsum(cost)
    halt = np.zeros(1, np.int64)
    JK.join_count(n, tasks, 0, 0, words, offs, bases, halt)  # the kernel loaded, outside the timing
    rng = np.random.default_rng(seed)

    def windows(width: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Consecutive rows of about ``width`` estimated work each (a row of more alone)."""
        ids = ((cum - cost / 2) // width).astype(np.int64)
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        return starts, np.r_[starts[1:], len(cost)], np.add.reduceat(cost, starts)

    def timed(starts: np.ndarray, stops: np.ndarray, work: np.ndarray) -> float:
        """Seconds per unit of one window drawn in proportion to its work."""
        j = int(rng.choice(len(starts), p=work / work.sum()))
        _, t = _cpu(JK.join_count, n, tasks, int(starts[j]), int(stops[j]), words, offs, bases, halt)
        return t / float(work[j])

    # a first window (of 1/20,000 of the work) sizes the others to WINDOW_SECONDS
    first = timed(*windows(total / 20_000))
    starts, stops, work = windows(min(total, WINDOW_SECONDS / max(first, 1e-15)))
    deadline = time.perf_counter() + seconds
    per_unit: list[float] = []
    while len(per_unit) < 2 or (time.perf_counter() < deadline and len(per_unit) < 10_000):
        per_unit.append(timed(starts, stops, work))
    r = np.array(per_unit)
    mean = float(r.mean())
    rel = float(r.std(ddof=1) / math.sqrt(len(r)) / mean)
    spans = join.task_slices(n, tasks, offs, bases, join.split_parts(n))  # the split of split_tasks(method="join")
    edges = np.r_[0.0, cum]
    largest = max(float(edges[b] - edges[a]) for a, b in spans)
    return _Model(
        total, "join work units", None, 1 / mean, rel, len(spans), largest, setup,
        f"{len(r)} windows of the join's row splits counted ({len(starts)} windows of ~{WINDOW_SECONDS * 1000:g} ms; "
        f"drawn in proportion to their estimated work), tables built in {setup:.2f} s",
    )  # fmt: skip


def _nodes(problem: Problem, seconds: float, seed: int) -> tuple[float, float]:
    """The general search tree's estimated nodes and their relative standard error."""
    from .estimate import estimate

    e = estimate(problem, time_limit=max(seconds, 0.05), seed=seed)
    rel = e.nodes_stderr / e.nodes_estimate if e.nodes_estimate else 0.0
    return float(e.nodes_estimate), rel


@functools.cache
def _symmetric_ratio(n: int) -> tuple[float, float]:
    """The symmetric search's nodes over the general search's for the standard problem of
    n: exact up to n = 13; beyond, the fit of the log ratio at :data:`RATIO_SIZES`, linear
    in n, and as its relative error the miss of the same fit without n = 13 at n = 13,
    scaled by the distance extrapolated."""
    from .native import engine

    def exact(k: int) -> float:
        sym = engine.count_both(Problem(k), method="symmetric", threads=1, force=True).nodes
        gen = engine.count_both(Problem(k), method="general", unique=False, threads=1, force=True).nodes
        assert sym is not None and gen is not None  # both searches count their nodes
        return sym / gen

    if n <= RATIO_SIZES[-1]:
        return exact(n), 0.0
    ks = np.array(RATIO_SIZES, float)
    logs = np.log([exact(int(k)) for k in ks])
    slope, icpt = np.polyfit(ks, logs, 1)
    s2, i2 = np.polyfit(ks[:-1], logs[:-1], 1)
    miss = abs(math.exp(s2 * ks[-1] + i2) / math.exp(logs[-1]) - 1)
    return math.exp(slope * n + icpt), miss * (n - ks[-1])


def _sym_kernel(n: int, task: Sequence[int], halt: np.ndarray) -> int:
    """Nodes placed by the symmetric kernel on one task of its split, until ``halt``."""
    from .native import methods

    d = int(task[3]) if len(task) > 3 else -1  # a task of the deeper split fixes one more row
    return int(methods.symmetric_counter()[1](n, int(task[0]), int(task[1]), int(task[2]), d, halt)[3])


@functools.cache
def _symmetric_share(n: int, shape: int) -> float:
    """The largest task's share of the symmetric split's nodes: exact at n <= 13, else
    extrapolated geometrically from :data:`SHARE_SIZES`, for tasks of ``shape`` entries
    (3, or 4 for the deeper split of n >= ``engine.SYM_DEEP_FROM``, counted as such at
    the small sizes too)."""
    from .native import engine

    halt = np.zeros(1, np.int64)

    def share(k: int) -> float:
        tasks = engine.split_tasks(Problem(k), method="symmetric", depth=shape - 3, force=True)[2]
        nodes = [_sym_kernel(k, t, halt) for t in tasks]
        return max(nodes) / sum(nodes)

    if n <= SHARE_SIZES[-1]:
        return share(n)
    a, b = (share(k) for k in SHARE_SIZES)
    return b * (b / a) ** (n - SHARE_SIZES[-1])


def _search_rate(n: int, tasks: list, seconds: float, seed: int, run) -> tuple[float, float | None, int]:
    """Nodes per CPU second of ``run(task, halt)`` on up to :data:`RATE_TASKS` tasks
    drawn at random (those that place queens), each stopped after its slice of
    ``seconds``; returns the rate, its relative error and the tasks timed."""
    rng = np.random.default_rng(seed)
    samples: list[tuple[int, float]] = []
    slice_ = seconds / RATE_TASKS
    for i in rng.permutation(len(tasks))[: 8 * RATE_TASKS].tolist():
        with _stop_after(slice_) as halt:
            placed, t = _cpu(run, tasks[i], halt)
        if placed > 0:
            samples.append((placed, t))
        if len(samples) >= RATE_TASKS:
            break
    rate, rel = _rate(samples)
    return rate, rel, len(samples)


def _symmetric_model(problem: Problem, seconds: float, seed: int) -> _Model:
    from .native import engine

    n = problem.n
    tasks = engine.split_tasks(problem, method="symmetric", force=True)[2]
    general, rel_nodes = _nodes(problem, seconds / 2, seed)
    ratio, rel_ratio = _symmetric_ratio(n)
    _sym_kernel(8, (0, 1, -1), np.zeros(1, np.int64))  # the kernel loaded, outside the timing
    rate, rel_rate, timed = _search_rate(n, tasks, seconds / 2, seed, lambda t, h: _sym_kernel(n, t, h))
    nodes = general * ratio
    rel = math.sqrt(rel_nodes**2 + rel_ratio**2 + (rel_rate or 0.0) ** 2)
    share = _symmetric_share(n, len(tasks[0]))
    return _Model(
        nodes, "nodes", nodes, rate, rel, len(tasks), share * nodes, 0.0,
        f"general tree's nodes estimated ({general:.3g}), times the symmetric search's node ratio "
        f"{ratio:.4f} (exact counts at n = {RATIO_SIZES[0]}..{RATIO_SIZES[-1]}); kernel timed on {timed} tasks "
        f"of {len(tasks)}",
    )  # fmt: skip


def _walk_nodes(walk, prefix: Sequence[int], halt: np.ndarray) -> int:
    """Nodes placed by the general walk below ``prefix`` until ``halt``."""
    return walk.nodes_until(prefix, halt)


def _largest_share(problem: Problem, prefixes: np.ndarray, seed: int) -> float:
    """The largest subtree's share among the subtrees below ``prefixes``, by stratified
    probes of each (the estimator's kernel: the last rows counted exactly)."""
    from .estimate import ProbeRunner, stratum_widths

    h = len(prefixes)
    if h <= 1:
        return 1.0
    runner = ProbeRunner(problem, stratum_widths(problem.n, "stratified"), prefixes, seed)
    per = max(4, min(64, 65_536 // h))
    means = np.zeros(h)
    for start in range(0, h, 256):
        idx = np.arange(start, min(h, start + 256), dtype=np.int64)
        _, _, out = runner.run((start,), idx, np.full(len(idx), per, np.int64))
        from .native import estimate_kernels as EK

        means[idx] = out[:, EK.NSUM] / per
    return float(means.max() / means.sum()) if means.sum() > 0 else 1.0


def _general_model(problem: Problem, seconds: float, seed: int) -> _Model:
    from .native import engine

    _, depth, tasks = engine.split_tasks(problem, method="general", force=True)
    nodes, rel_nodes = _nodes(problem, seconds / 2, seed)
    if nodes == 0:
        return _zero(len(tasks), "no node: the search ends at its root")
    walk = engine.Walker(problem)
    _walk_nodes(engine.Walker(Problem(4)), (), np.zeros(1, np.int64))  # the kernel loaded
    rate, rel_rate, timed = _search_rate(problem.n, tasks, seconds / 4, seed, lambda t, h: _walk_nodes(walk, t, h))
    prefixes = np.array(tasks, np.int64).reshape(len(tasks), depth)
    share = _largest_share(problem, prefixes, seed)
    rel = math.sqrt(rel_nodes**2 + (rel_rate or 0.0) ** 2)
    return _Model(
        nodes, "nodes", nodes, rate, rel, len(tasks), share * nodes, 0.0,
        f"general tree's nodes estimated (stratified probes); walk timed below {timed} of the split's "
        f"{len(tasks)} prefixes of {depth} rows, whose sizes were probed for the largest",
    )  # fmt: skip


def _cores(cores: object) -> tuple[int, ...]:
    if cores is None:
        return DEFAULT_CORES
    if isinstance(cores, (int, np.integer)) and not isinstance(cores, bool):
        cores = (cores,)
    if not isinstance(cores, (list, tuple)):
        raise QueensError(f"cores is a number of cores or a list of them, got {validate.brief(cores)}")
    why = "a prediction for more cores than any machine has"
    return tuple(validate.whole_number(k, "a number of cores", maximum=MAX_CORES, why=why) for k in cores)


def estimate_cost(
    problem: Problem,
    *,
    cores: int | Sequence[int] | None = None,
    threads: int | None = None,
    method: str = "auto",
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
) -> CostEstimate:
    """Predict what the exact count of ``problem`` costs, without running it.

    Parameters
    ----------
    problem : Problem
        Any problem the native engine counts (n <= 64).
    cores : int or sequence of int, optional
        The numbers of cores (1 .. :data:`MAX_CORES`) to predict a split count's wall
        time on; default :data:`DEFAULT_CORES`.
    threads : int, optional
        The threads the count would run on here (default: every core).
    method : {"auto", "symmetric", "general", "join"}
        The count's method, as :func:`queenslab.native.engine.count_both` takes it; the
        prediction is for the method it would actually use.
    seconds : float, default DEFAULT_SECONDS
        About how long to calibrate (0 < seconds <= 600): the estimator probes and the
        kernels are timed for about this long; the join's tables take their own time.
    seed : int, default 0
        Seed of the random choices (tasks timed, windows drawn, probes).

    Returns
    -------
    CostEstimate

    Raises
    ------
    QueensError
        For a bad argument; TooLarge for a board beyond the engine (n > 64) or, for the
        join, beyond its memory budget; UnsupportedProblem for a method that does not
        apply.

    Examples
    --------
    >>> c = estimate_cost(Problem(12), cores=[1, 4], seconds=0.2)
    >>> c.method, [t.cores for t in c.per_cores], c.per_cores[0].predicted_seconds >= c.largest_task_seconds
    ('symmetric', [1, 4], True)
    """
    from .native import engine

    t0 = time.perf_counter()
    problem = as_problem(problem)
    engine.check_problem(problem)
    ks = _cores(cores)
    threads = validate.threads(threads)
    seconds = validate.real(seconds, "seconds", minimum=0, maximum=600, open_minimum=True)
    seed = validate.seed(seed)
    chosen = engine.chosen_method(problem, method, threads)  # a named method is checked there
    if problem.contradiction and chosen != "join":
        model = _zero(1, f"nothing to count: {problem.contradiction}")
    else:
        model = MODELS[chosen](problem, seconds, seed)
    core = model.work / model.rate if model.rate else 0.0
    largest = model.largest_work / model.rate if model.rate else 0.0
    here = wall_time(core, largest, model.setup, threads)
    return CostEstimate(
        n=problem.n,
        problem=problem,
        method=chosen,
        predicted_nodes=model.nodes,
        work=model.work,
        work_unit=model.unit,
        rate=model.rate,
        core_seconds=core,
        relative_error=model.rel,
        split_tasks=model.tasks,
        largest_task_seconds=largest,
        local_cores=threads,
        predicted_seconds=here.predicted_seconds,
        per_cores=tuple(wall_time(core, largest, model.setup, k) for k in ks),
        calibration=model.calibration,
        calibration_seconds=time.perf_counter() - t0,
        seed=seed,
    )


#: How each method is named in a sentence.
METHOD_NAMES = {
    "join": "the half-board join",
    "symmetric": "the symmetric search",
    "general": "the general search",
    "board": "the board search",
}


#: The cost model of each counting method of :data:`queenslab.native.methods.REGISTRY`
#: (a test holds the names equal): ``model(problem, seconds, seed)``.
def _board_model(problem: Problem, seconds: float, seed: int) -> _Model:
    raise UnsupportedProblem(
        f"{problem.describe()}: the cost model has no prediction for the board search (its estimators walk n queens "
        "on n x n); its practical limit is on the placements it searches, which the count itself checks"
    )


MODELS: dict[str, Callable[[Problem, float, int], _Model]] = {
    "join": _join_model,
    "symmetric": _symmetric_model,
    "general": _general_model,
    "board": _board_model,
}


def describe(c: CostEstimate) -> str:
    """The prediction in one clause, as a refusal quotes it.

    Examples
    --------
    >>> c = CostEstimate(19, Problem(19), "join", None, 9.3e10, "join work units", 2.7e9, 34.0, 0.05, 256,
    ...                  0.2, 2, 18.5, (), "", 1.0, 0)
    >>> describe(c)
    'predicted 34 s of one core by the half-board join, about 18 s on 2 cores here'
    """
    what = f"{c.predicted_nodes:.2g} nodes, " if c.predicted_nodes else ""
    cores = f"{c.local_cores} core{'s' if c.local_cores != 1 else ''}"
    return (
        f"predicted {what}{format_duration(c.core_seconds)} of one core by {METHOD_NAMES[c.method]}, "
        f"about {format_duration(c.predicted_seconds)} on {cores} here"
    )


@functools.lru_cache(maxsize=16)
def refusal_cost(problem: Problem) -> str:
    """The prediction a refused count quotes (:func:`describe` of a calibration of
    :data:`REFUSAL_SECONDS`), kept for the problems asked about in this process."""
    return describe(estimate_cost(problem, cores=(), seconds=REFUSAL_SECONDS))


def check_count(problem: Problem, force: bool = False) -> None:
    """Refuse an exact count of ``problem`` beyond the engine's practical limit unless
    ``force``, quoting its predicted cost (:func:`refusal_cost`, a calibration of about a
    second; beyond :data:`PRICED_TO` the way to predict it instead); if the prediction
    fails, the limit's own sentence stands in for it, so that the refusal is never lost.

    The callers above the engine (the native backend, the Dask runner) check here before
    they count: the engine below refuses the same count without the price, as the cost
    model is above it.

    Raises
    ------
    TooLarge
    """
    from .native import pool

    problem = as_problem(problem)
    force = validate.flag(force, "force")
    if not problem.is_plain_board:
        return  # a board's limit is on the placements it searches: the engine checks it
    price = ""
    if problem.n > PRICED_TO and not force:
        price = (
            f"{pool.COUNT.cost}: hours to days; `queenslab count {problem.n} --estimate-cost` predicts it, after "
            "building the tables it would count with"
        )
    elif problem.n > pool.COUNT.largest and not force:
        try:
            price = refusal_cost(problem)
        except Exception:  # any failure of the prediction leaves the plain refusal
            price = ""
    pool.check_count(problem.n, force, price)
