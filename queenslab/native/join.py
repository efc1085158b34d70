"""The half-board join counter of the standard n-queens problem: argument checks,
tasks and threads around :mod:`queenslab.native.join_kernels`.

Public functions (all take the board size ``n`` of the standard problem):

* :func:`join_total` -- the number of solutions, by joining east and west half-board
  placements (the idea of E. Kluev's N-Queens-Count-Sol; see the kernel module);
* :func:`fixed_counts` -- the solutions fixed by the quarter turn and by the half turn,
  by a small search over half-turn-symmetric placements;
* :func:`count_classes` -- total, unique and the orbits by size, as
  :func:`queenslab.native.engine.count_classes` returns them;
* :func:`split` / :func:`count_slice` -- the work cut into independent tasks (largest
  first) for a cluster, and one task counted; :func:`classes_from_total` the orbits from
  the summed total.

Problems whose only constraints are blocked cells and fixed queens (:func:`counts`) are
counted by the same join (:func:`problem_total`, :func:`problem_classes`): their queens
stand on the allowed cells of :attr:`CompiledProblem.allowed <queenslab.compiled.CompiledProblem.allowed>`
only (a fixed queen's row allows its cell alone, and every cell it attacks is removed),
so the quarter tables keep only the placements on allowed cells and the row splits only
those whose middle queen, east rows and west rows can stand there. The reflections
reduce the row splits only where they map the allowed cells onto themselves (none
for most patterns: then every row split is counted, about four times the work of the
standard problem's canonical ones). Another constraint (a torus, leapers, regions)
breaks what the join rests on: the east/west diagonals (a torus wraps them across the
halves), the independence of the quarters (a leaper attacks across them) or the count
of a pair by its keys alone (a region counts queens of both halves).

The join counts totals only; the orbits follow from Burnside's lemma. For n > 1 no
solution is fixed by a reflection: one fixed by a diagonal reflection is an involution,
whose 2-cycles would put two queens on one anti-diagonal and two fixed points two queens
on the diagonal (n > 1 has one or the other); one fixed by a side reflection would have
two queens in one column. So with T the total, F90 and F180 the solutions fixed by the
quarter and the half turn::

    unique = (T + 2 * F90 + F180) / 8
    orbits of size 2: F90 / 2,  of size 4: (F180 - F90) / 4,  of size 8: (T - F180) / 8

n = 1 (one solution, fixed by every symmetry) is the exception and is answered directly,
as are n = 2 and 3 (no solution).

A variant's solutions are solutions of the standard problem, so no reflection fixes one
either; its orbits under its own subgroup G of D4 (:meth:`Problem.symmetries
<queenslab.problem.Problem.symmetries>`) follow from the variant's total and its
solutions fixed by the quarter and the half turn, each used where G holds that rotation:
a solution's stabiliser in G is G's rotations that fix it.

Limits: a half-board key of ``2 (2 (n // 2) - 1)`` bits is tabulated in at most 6 chunks
of 8 bits, so n <= :data:`MAX_N` = 25; a request whose memory estimate
(:func:`memory_estimate`) exceeds :data:`MEMORY_BUDGET` is refused (on one thread: n = 23
needs 6.1 GB, n = 24 21 GB); beyond the engine's practical limit of an exact count
(:data:`queenslab.native.pool.COUNT`) ``force=True`` is needed.

Kernels: the counts run the join's kernels built ahead of time (:mod:`queenslab.native.aot`)
where they are built, else the just-in-time ones of :mod:`queenslab.native.join_kernels`;
both are compiled from the same source. A variant's own tables, row splits and fixed
boards (the masked kernels) are always just in time. numba is imported only when a
just-in-time kernel is first used.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import interrupt, validate
from ..compiled import compile_problem
from ..constraints import Blocked, Constraint, Fixed, unhandled
from ..errors import QueensError, TooLarge, UnsupportedProblem
from ..problem import Problem
from ..result import CountResult
from . import aot, join_layout, pool
from .lazy import LazyModule
from .pool import Progress, run_tasks

if TYPE_CHECKING:
    from types import ModuleType

    from . import join_kernels as JK
else:  # numba is imported only when a just-in-time kernel is first used
    JK = LazyModule("queenslab.native.join_kernels")

__all__ = [
    "MAX_N",
    "MEMORY_BUDGET",
    "memory_estimate",
    "fits",
    "check_join",
    "join_total",
    "fixed_counts",
    "count_classes",
    "classes_from_total",
    "split_parts",
    "split",
    "count_slice",
    "counts",
    "check_problem",
    "problem_total",
    "problem_classes",
]

#: Largest n the join counts (a half-board word holds ``2 * (n + n // 2 - 1)`` bits).
MAX_N = join_layout.MAX_N
#: The join refuses a request whose estimated peak memory is above this (bytes): n = 23
#: on 2 threads needs up to 7.6 GB, n = 24 on one 21.4 GB (its quarter tables alone).
MEMORY_BUDGET = 8 * 10**9
#: The largest n whose quarter tables fit :data:`MEMORY_BUDGET` (n = 23: 4.7 GB; n = 24:
#: 21.4 GB, n = 25: 43 GB). :func:`fits` answers False beyond it without the counting pass
#: (37 s at n = 24) that :func:`memory_estimate` needs; a test holds it to that estimate.
TABLES_FIT_TO = 23
#: The smallest n whose split for a cluster has :data:`DEEP_PARTS` slices, not 256: from
#: n = 22 a count wants a thousand cores, and 256 slices keep about 150 busy (the largest
#: holds 0.65% of the work at n = 22; of 4,096, 0.047%, measured by the tasks' estimated
#: work). Below, the split is as it was, so the ledgers made of it resume.
DEEP_FROM = 22
#: Slices of a split from :data:`DEEP_FROM` on.
DEEP_PARTS = 4096
#: Tasks a thread's share is cut into (so that the threads end together).
_CHUNKS_PER_THREAD = 32


def _kernels() -> ModuleType:
    """The join's kernels of :data:`queenslab.native.aot.EXPORTS`: the build of
    :mod:`queenslab.native.aot` where there is one, else :mod:`queenslab.native.join_kernels`."""
    return aot.load() or JK


def _tasks_bound(n: int) -> int:
    """An upper bound of the number of join tasks of n (the ``(b, E)`` before the
    reflections are used: every row set, for odd n with the middle queen in the upper half)."""
    m = n // 2
    if n % 2 == 0:
        return math.comb(n, m)
    return (m + 1) * math.comb(n - 1, m)


def _bytes_per_key(n: int) -> int:
    """Bytes per buffered half-board key of n: both sides' key lists (8 bytes a key, each
    list grown to at most twice what it holds), and 1.5 times (the work space grows to 1.5
    times the longest list) the key's share of the table (``chunks * 2 ** MAX_CHUNK``
    words of 8 bytes per 64 keys, the chunks of an unbucketed table of n's keys,
    :func:`join_kernels.pair_space <queenslab.native.join_kernels.pair_space>`), of its
    transposed bits (``chunks * MAX_CHUNK / 8``), its bucket mark (8), its rows' offsets
    (4 a chunk) and its slot in the table's build (8).

    Examples
    --------
    >>> _bytes_per_key(16), _bytes_per_key(20), _bytes_per_key(22)
    (334, 334, 389)
    """
    _, chunks = join_layout.chunk_layout(join_layout.key_bits(n))
    width = join_layout.MAX_CHUNK
    space = chunks * (1 << width) // 8 + (chunks * width + 7) // 8 + 8 + 4 * chunks + 8
    return 2 * 2 * 8 + (3 * space + 1) // 2


def _padding_bytes(n: int) -> int:
    """Bytes of a thread's table rows and key slots that pad its buckets
    (:data:`join_kernels.PAD <queenslab.native.join_kernels.PAD>` words for each of at
    most ``2 ** SIEVE_MAX_CUTS`` buckets, in every row of the chunks of n's keys, and 64
    slots of 8 bytes a word), beside those of its keys (:func:`_bytes_per_key`).

    Examples
    --------
    >>> _padding_bytes(20) // 10**6, _padding_bytes(22) // 10**6
    (22, 26)
    """
    _, chunks = join_layout.chunk_layout(join_layout.key_bits(n))
    words = join_layout.PAD << join_layout.SIEVE_MAX_CUTS
    return 8 * (chunks << join_layout.MAX_CHUNK) * words + 8 * 64 * words


@functools.cache
def _sizes(n: int) -> tuple[int, int]:
    """``(bytes, keys)``: the bytes of the quarter tables of n, with the copy of the offsets
    that fills them, and a bound of a task's longest half-board key list, both from a
    counting pass that builds no table (1.1 s at n = 21, 3.5 s at n = 22, 7 s at n = 23,
    37 s at n = 24)."""
    words, entries, longest = _kernels().quarter_size(n)
    return 8 * (int(words) + 2 * int(entries)), int(longest)


def _board_size(n: object) -> int:
    """``n`` as an int, 1 <= n <= MAX_N: QueensError below or not a whole number,
    TooLarge above."""
    n = validate.whole_number(n, "n")
    if n > MAX_N:
        raise TooLarge(f"n = {n} is beyond the join counter: its half-board keys fit boards of n <= {MAX_N}")
    return n


def memory_estimate(n: int, threads: int = 1) -> int:
    """Upper bound, in bytes, of the join's arrays for n on ``threads`` threads.

    The task table (three int64 per task), the quarter tables (counted exactly) and, per
    thread, the padding of its table's buckets and the buffers of the longest half-board
    key list, bounded from the quarter tables' sizes (:func:`join_kernels._longest_bound
    <queenslab.native.join_kernels._longest_bound>`). A bound, not a forecast: at n = 18
    the longest list holds 17,506 keys, the bound 53,942. Computing it takes a counting
    pass over the quarters (seconds from n = 22, 37 s at n = 24; kept per n).

    Examples
    --------
    >>> memory_estimate(16) < 10**8
    True
    >>> memory_estimate(20, threads=2) < 10**9 < MEMORY_BUDGET
    True
    """
    n = _board_size(n)
    threads = validate.whole_number(threads, "threads")
    if n < 4:
        return 24 * _tasks_bound(n)
    quarters, longest = _sizes(n)
    return 24 * _tasks_bound(n) + quarters + threads * (_bytes_per_key(n) * longest + _padding_bytes(n))


def fits(n: int, threads: int = 1) -> bool:
    """Whether the join's memory estimate for n on ``threads`` threads is within
    :data:`MEMORY_BUDGET` (for the choice of a method: no counting pass beyond
    :data:`TABLES_FIT_TO`).

    Examples
    --------
    >>> fits(18, threads=2), fits(24)
    (True, False)
    """
    n = _board_size(n)
    return n <= TABLES_FIT_TO and memory_estimate(n, threads) <= MEMORY_BUDGET


def check_join(n: int, threads: int = 1, force: bool = False) -> int:
    """Check that the join counts n (1 <= n <= MAX_N, within the memory budget and, unless
    ``force``, within the engine's practical limit); returns n.

    Raises
    ------
    QueensError
        For an n that is not a whole number >= 1.
    TooLarge
        For ``n > MAX_N``, an estimated peak memory above :data:`MEMORY_BUDGET` or the
        memory available, or ``n > pool.COUNT.largest`` without ``force``.

    Examples
    --------
    >>> check_join(16)
    16
    >>> check_join(26)
    Traceback (most recent call last):
    ...
    queenslab.errors.TooLarge: n = 26 is beyond the join counter: its half-board keys fit boards of n <= 25 (use the engine's symmetric method)
    """
    n = validate.whole_number(n, "n")
    threads = validate.whole_number(threads, "threads")
    force = validate.flag(force, "force")
    if n > MAX_N:
        raise TooLarge(
            f"n = {n} is beyond the join counter: its half-board keys fit boards of n <= {MAX_N} "
            "(use the engine's symmetric method)"
        )
    pool.check_count(n, force)  # before the memory estimate: its counting pass takes seconds from n = 22
    need = memory_estimate(n, threads)
    if need > MEMORY_BUDGET:
        per_thread = _bytes_per_key(n) * _sizes(n)[1]
        shared = memory_estimate(n, 1) - per_thread
        fits = (MEMORY_BUDGET - shared) // per_thread
        where = (
            f"n = {n} fits on up to {fits} threads; use fewer threads or the engine's symmetric method"
            if fits >= 1
            else f"its tables alone take {validate.format_bytes(shared)}; use the engine's symmetric method"
        )
        raise TooLarge(
            f"the join counter for n = {n} on {threads} thread(s) may need up to "
            f"{validate.format_bytes(need)} of memory, above its budget of "
            f"{validate.format_bytes(MEMORY_BUDGET)} ({where})"
        )
    validate.memory(need, f"the join counter for n = {n}", "use fewer threads or the engine's symmetric method")
    return n


def _halting(kernel: Callable, *args):
    """``kernel(*args, interrupt.FLAG)`` off the main thread (:func:`interrupt.run`), so
    that Ctrl-C stops it; raises :class:`~queenslab.interrupt.Interrupted` if the kernel
    was stopped (checked in the worker: ``run`` lowers the flag once the work is done)."""

    def work():
        found = kernel(*args, interrupt.FLAG)
        interrupt.check()
        return found

    return interrupt.run(work)


def _prepare(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(tasks, words, offs, bases)``: the canonical row splits and the quarter tables."""
    tables = _halting(_kernels().quarter_tables, n)  # 1-2 s at n = 21, 9 s at n = 22
    return (_kernels().join_tasks(n), *tables)


@functools.lru_cache(maxsize=1)
def _prepared(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_prepare`, kept for the last n (a worker counts many slices of one n)."""
    return _prepare(n)


def task_slices(n: int, tasks: np.ndarray, offs: np.ndarray, bases: np.ndarray, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ``(start, stop)`` slices of the task rows, largest estimated
    work first (:func:`join_kernels.task_costs`), so that the last to finish are short."""
    count = len(tasks)
    parts = max(1, min(count, parts))
    edges = np.linspace(0, count, parts + 1).astype(np.int64)
    spans = [(int(a), int(b)) for a, b in itertools.pairwise(edges) if b > a]
    if len(spans) == 1:
        return spans
    cost = np.concatenate([[0], np.cumsum(_kernels().task_costs(n, tasks, offs, bases))])
    return sorted(spans, key=lambda s: (-int(cost[s[1]] - cost[s[0]]), s[0]))


def _total(n: int, threads: int, progress: Progress | None) -> int:
    """The join's total for a checked n (n >= 4)."""
    return _joined(n, _prepare(n), threads, progress)


def _joined(n: int, prepared: tuple[np.ndarray, ...], threads: int, progress: Progress | None) -> int:
    """The total of the prepared row splits and quarter tables, in slices on threads."""
    tasks, words, offs, bases = prepared

    def task(span: tuple[int, int]) -> int:
        found, _, _ = _kernels().join_count(n, tasks, span[0], span[1], words, offs, bases, interrupt.FLAG)
        interrupt.check()
        return int(found)

    spans = task_slices(n, tasks, offs, bases, threads * _CHUNKS_PER_THREAD if threads > 1 else 1)
    return sum(run_tasks(spans, task, threads, progress))


def split_parts(n: int) -> int:
    """The slices of n's split for a cluster: 256, and :data:`DEEP_PARTS` from
    :data:`DEEP_FROM` on.

    Examples
    --------
    >>> split_parts(21), split_parts(22)
    (256, 4096)
    """
    return DEEP_PARTS if n >= DEEP_FROM else 256


def split(n: int, parts: int | None = None, *, force: bool = False) -> list[tuple[int, int]]:
    """The join's work for n cut into about ``parts`` independent tasks (default
    :func:`split_parts`), largest estimated work first, for a runner elsewhere (a
    cluster) that adds up :func:`count_slice` of each: ``(start, stop)`` row ranges of
    the canonical row splits (n >= 4; n <= 3 is one task ``(0, 0)`` counted directly).

    Examples
    --------
    >>> sum(count_slice(12, t) for t in split(12, 10)) == join_total(12)
    True
    """
    n = check_join(n, 1, force)
    parts = split_parts(n) if parts is None else validate.whole_number(parts, "parts", maximum=1 << 20)
    if n <= 3:
        return [(0, 0)]
    tasks, _, offs, bases = _prepared(n)
    return task_slices(n, tasks, offs, bases, parts)


#: The ``(n, force)`` of the last :func:`count_slice` whose :func:`check_join` passed.
_last_checked: tuple[object, object] | None = None


def _check_slices(n: object, force: object) -> int:
    """:func:`check_join` for :func:`count_slice`, remembered for the board it passed."""
    global _last_checked
    checked = check_join(n, 1, force)  # type: ignore[arg-type]
    if type(n) is int and type(force) is bool:
        _last_checked = (n, force)
    return checked


def count_slice(n: int, task: Sequence[int], *, force: bool = False) -> int:
    """Solutions counted by one task of :func:`split` (the weighted row splits
    ``start:stop``); the quarter tables of the last n are kept between calls."""
    if not (type(n) is int and type(force) is bool and _last_checked == (n, force)):
        # the memory check reads /proc/meminfo: once per board, not per task (a cluster
        # worker counts hundreds of slices of one board, each a few milliseconds)
        n = _check_slices(n, force)
    try:
        start, stop = (validate.whole_number(x, "a task bound", minimum=0) for x in task)
    except (TypeError, ValueError):
        raise QueensError(f"a join task is (start, stop), got {validate.brief(task)}") from None
    if n <= 3:
        if (start, stop) != (0, 0):
            raise QueensError(f"n = {n} has the single join task (0, 0), got {validate.brief(task)}")
        return 1 if n == 1 else 0
    tasks, words, offs, bases = _prepared(n)
    if not start < stop <= len(tasks):
        raise QueensError(f"{validate.brief(task)} is not a join task of n = {n} (0 <= start < stop <= {len(tasks)})")
    found, _, _ = _halting(_kernels().join_count, n, tasks, start, stop, words, offs, bases)
    return int(found)


def classes_from_total(n: int, total: int) -> dict[int, int]:
    """The orbits by size ``{1: c1, 2: c2, 4: c4, 8: c8}`` of the standard problem, from
    its total (Burnside's lemma with :func:`fixed_counts`; see the module docstring).

    Raises
    ------
    QueensError
        When ``total`` cannot be the total of n (an orbit count would not be whole).

    Examples
    --------
    >>> classes_from_total(8, 92)
    {1: 0, 2: 0, 4: 1, 8: 11}
    """
    n = _board_size(n)
    total = validate.whole_number(total, "total", minimum=0)
    if n == 1:
        if total != 1:
            raise QueensError(f"n = 1 has 1 solution, not {total}")
        return {1: 1, 2: 0, 4: 0, 8: 0}
    f90, f180 = fixed_counts(n)
    if total < f180 or (total - f180) % 8:
        raise QueensError(f"{total} cannot be the number of solutions of n = {n}: (total - F180) / 8 is not whole")
    return {1: 0, 2: f90 // 2, 4: (f180 - f90) // 4, 8: (total - f180) // 8}


def join_total(n: int, *, threads: int | None = None, force: bool = False, progress: Progress | None = None) -> int:
    """Number of solutions of the standard n-queens problem, by the half-board join.

    Parameters
    ----------
    n : int
        Board size, 1 <= n <= :data:`MAX_N`.
    threads : int, optional
        Threads to use; default all available cores. The result does not depend on it.
    force : bool, default False
        Allow ``n > pool.COUNT.largest``.
    progress : callable, optional
        Called as ``progress(done, total)`` after each finished slice of tasks.

    Raises
    ------
    TooLarge
        See :func:`check_join`.

    Examples
    --------
    >>> [join_total(n) for n in range(1, 11)]
    [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
    """
    threads = validate.threads(threads)
    n = check_join(n, threads, force)
    progress = validate.callback(progress)
    if n <= 3:
        return 1 if n == 1 else 0
    return _total(n, threads, progress)


def fixed_counts(n: int) -> tuple[int, int]:
    """``(F90, F180)``: the solutions of the standard problem fixed by the quarter turn
    and by the half turn (under a second up to n = 21, 1-2 s at n = 22 and 23).

    Examples
    --------
    >>> fixed_counts(8), fixed_counts(10), fixed_counts(1)
    ((0, 4), (0, 12), (1, 1))
    """
    n = _board_size(n)
    f90, f180, _ = _halting(_kernels().fixed_counts, n)
    return int(f90), int(f180)


def count_classes(
    n: int, *, threads: int | None = None, force: bool = False, progress: Progress | None = None
) -> tuple[CountResult, dict[int, int]]:
    """Total, unique and the orbits by size of the standard problem, by the join and
    Burnside's lemma (see the module docstring).

    Returns
    -------
    (CountResult, dict of int to int)
        As :func:`queenslab.native.engine.count_classes`: the count (method ``"join"``,
        ``unique`` filled, ``nodes`` None: the join places no queens one by one) and
        ``{1: c1, 2: c2, 4: c4, 8: c8}``.

    Examples
    --------
    >>> r, classes = count_classes(8)
    >>> r.count, r.unique, classes
    (92, 12, {1: 0, 2: 0, 4: 1, 8: 11})
    """
    threads = validate.threads(threads)
    n = check_join(n, threads, force)
    progress = validate.callback(progress)
    total = 1 if n == 1 else 0 if n <= 3 else _total(n, threads, progress)
    classes = classes_from_total(n, total)
    unique = sum(classes.values())
    return CountResult(total, unique, None, "native", "join", threads=threads), classes


# ---------------------------------------------------------------- blocked and fixed cells
#: The constraint kinds the join counts (an allow-list): it reads only the compiled form's
#: allowed cells, which these two kinds say all of.
KINDS: tuple[type[Constraint], ...] = (Blocked, Fixed)


def counts(problem: Problem) -> bool:
    """Whether the join counts ``problem``: the standard problem, or one whose only
    constraints are blocked cells and fixed queens (n <= :data:`MAX_N`).

    Examples
    --------
    >>> counts(Problem(8)), counts(Problem(8, blocked=[(0, 0)], fixed=[(1, 2)]))
    (True, True)
    >>> counts(Problem(8, toroidal=True)), counts(Problem(8, blocked=[(0, 0)], knight=True))
    (False, False)
    """
    return problem.n <= MAX_N and not unhandled(problem.constraints, KINDS)


def _all_tasks(n: int) -> int:
    """The row splits ``(b, E)`` of n before any reflection is used."""
    m = n // 2
    return math.comb(n, m) if n % 2 == 0 else n * math.comb(n - 1, m)


def check_problem(problem: Problem, threads: int = 1, force: bool = False) -> Problem:
    """:func:`check_join` for a problem :func:`counts` (its row splits all counted: a
    variant's memory bound holds every one of them); returns the problem.

    Raises
    ------
    UnsupportedProblem
        For a problem with another constraint (a torus, leapers, regions).
    TooLarge
        As :func:`check_join`.
    """
    if not isinstance(problem, Problem):
        raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
    if problem.is_standard:
        check_join(problem.n, threads, force)
        return problem
    if problem.n <= MAX_N and not counts(problem):
        raise UnsupportedProblem(
            "the join counts the standard problem and problems whose only constraints are blocked cells and "
            f"fixed queens; this is {problem.describe()} (use the general search)"
        )
    check_join(problem.n, threads, force)
    n = problem.n
    if n >= 4:
        need = memory_estimate(n, threads) + 24 * (_all_tasks(n) - _tasks_bound(n))
        if need > MEMORY_BUDGET:
            raise TooLarge(
                f"the join counter for {problem.describe()} on {threads} thread(s) may need up to "
                f"{validate.format_bytes(need)} of memory, above its budget of "
                f"{validate.format_bytes(MEMORY_BUDGET)} (use fewer threads or the general search)"
            )
        validate.memory(need, f"the join counter for {problem.describe()}", "use fewer threads or the general search")
    return problem


def _reflections(allowed: np.ndarray, n: int) -> tuple[bool, bool, bool]:
    """``(north-south, east-west, half turn)``: which of them map the allowed cells onto
    themselves (a group: two of them imply the third)."""
    rows = [int(a) for a in allowed]
    rev = [int(f"{a:0{n}b}"[::-1], 2) for a in rows]
    ns = all(rows[r] == rows[n - 1 - r] for r in range(n))
    ew = rows == rev
    rot = all(rev[r] == rows[n - 1 - r] for r in range(n))
    return ns, ew, rot


def _allowed(problem: Problem) -> np.ndarray:
    return compile_problem(problem).allowed.astype(np.int64)


def _masked_prepare(n: int, allowed: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The row splits (canonical under the reflections that keep the allowed cells) and
    the quarter tables of the placements on allowed cells."""
    mask = np.array(allowed, np.int64)
    tables = _halting(JK.masked_quarter_tables, n, mask)
    return (JK.masked_join_tasks(n, mask, *_reflections(mask, n)), *tables)


#: :func:`_masked_prepare`, kept for the last mask.
_masked_prepared = functools.lru_cache(maxsize=1)(_masked_prepare)


def prepare_problem(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(tasks, words, offs, bases)`` the join counts a checked problem (n >= 4) with:
    its row splits and quarter tables, built afresh (the count's cache is left alone),
    for a caller that times the join's own work (:mod:`queenslab.cost`)."""
    if problem.is_standard:
        return _prepare(problem.n)
    return _masked_prepare(problem.n, tuple(int(a) for a in _allowed(problem)))


def _masked_total(problem: Problem, threads: int, progress: Progress | None) -> int:
    """The join's total of a checked variant (n >= 4)."""
    n = problem.n
    prepared = _masked_prepared(n, tuple(int(a) for a in _allowed(problem)))
    if not len(prepared[0]):
        return 0  # no row split can hold a solution (contradictory constraints among them)
    return _joined(n, prepared, threads, progress)


def problem_total(
    problem: Problem, *, threads: int | None = None, force: bool = False, progress: Progress | None = None
) -> int:
    """Number of solutions of a problem the join :func:`counts`, by the half-board join
    (the standard problem by :func:`join_total`).

    Raises
    ------
    UnsupportedProblem, TooLarge
        See :func:`check_problem`.

    Examples
    --------
    >>> problem_total(Problem(8, blocked=[(0, 0)])), problem_total(Problem(8, fixed=[(0, 0)]))
    (88, 4)
    """
    threads = validate.threads(threads)
    check_problem(problem, threads, force)
    progress = validate.callback(progress)
    if problem.is_standard:
        return join_total(problem.n, threads=threads, force=True, progress=progress)
    n = problem.n
    if n <= 3:
        return int(n == 1 and _allowed(problem)[0] & 1)
    return _masked_total(problem, threads, progress)


def _variant_classes(problem: Problem, total: int) -> dict[int, int]:
    """The orbits by size of a variant under its own symmetry subgroup, from its total
    (Burnside's lemma; see the module docstring)."""
    n = problem.n
    names = {g.name for g in problem.symmetries()}
    order = len(names)
    classes = {d: 0 for d in range(1, order + 1) if order % d == 0}
    if n == 1 or total == 0:
        classes[1] = total  # n = 1: the one cell is fixed by every symmetry
        return classes
    f90 = f180 = 0
    if "rotate-180" in names:
        f90, f180, _ = _halting(JK.masked_fixed_counts, n, _allowed(problem))
        f90, f180 = int(f90), int(f180)
    # the solutions by the size of their stabiliser in G (G's rotations that fix them)
    by_stabiliser = {1: total - f180}
    if "rotate-90" in names:
        by_stabiliser.update({2: f180 - f90, 4: f90})
    else:
        by_stabiliser[2] = f180
    for k, solutions in by_stabiliser.items():
        if not solutions:
            continue
        size = order // k
        if solutions % size:
            raise QueensError(f"{total} cannot be the number of solutions of {problem.describe()}: orbits not whole")
        classes[size] += solutions // size
    return classes


def problem_classes(
    problem: Problem, *, threads: int | None = None, force: bool = False, progress: Progress | None = None
) -> tuple[CountResult, dict[int, int]]:
    """Total, orbits and orbits by size of a problem the join :func:`counts`, as
    :func:`count_classes` (the standard problem by it): the orbits under
    ``problem.symmetries()`` by Burnside's lemma.

    Examples
    --------
    >>> r, classes = problem_classes(Problem(8, blocked=[(0, 0), (7, 7)]))
    >>> r.count, r.unique, classes
    (84, 22, {1: 0, 2: 2, 4: 20})
    """
    threads = validate.threads(threads)
    check_problem(problem, threads, force)
    progress = validate.callback(progress)
    if problem.is_standard:
        return count_classes(problem.n, threads=threads, force=True, progress=progress)
    total = problem_total(problem, threads=threads, force=True, progress=progress)
    classes = _variant_classes(problem, total)
    unique = sum(classes.values())
    return CountResult(total, unique, None, "native", "join", threads=threads), classes
