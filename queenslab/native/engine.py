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

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import interrupt, limits, validate
from ..compiled import compile_problem
from ..errors import InvalidPlacement, QueensError, setting
from ..problem import Problem
from ..result import CountResult
from . import methods
from .lazy import LazyModule
from .methods import JOIN_FROM, JOIN_VARIANTS_FROM, REGISTRY, SPLIT, SYM_DEEP_FROM, SYM_MAX_N, choose
from .pool import Progress, run_tasks
from .walker import COUNT, MAX_N, Walker, check_prefix, check_problem, check_size, check_subtree, split_depth

if TYPE_CHECKING:
    from . import kernels as K
else:  # numba is imported when a search first runs
    K = LazyModule("queenslab.native.kernels")

__all__ = [
    "MAX_N",
    "MAX_BATCH",
    "SYM_MAX_N",
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

#: ``COUNT.largest``: the practical limit of an exact count.
PRACTICAL_LIMIT = COUNT.largest

#: Largest number of rows per streamed array (a batch is allocated whole).
MAX_BATCH = 1 << 20

#: The counting methods of :func:`count_both`: "auto", then the registry's
#: (:data:`queenslab.native.methods.REGISTRY`, in the order "auto" tries them).
METHODS = ("auto", *REGISTRY)
#: The methods :func:`split_tasks` splits a count by.
SPLIT_METHODS = tuple(REGISTRY)

#: Re-exported for the engine's callers: the methods' constants (see
#: :mod:`queenslab.native.methods`), and below, read when first used, the symmetric
#: kernel this machine runs (``SYM_KERNEL``, ``sym_count``).
_ = (JOIN_FROM, JOIN_VARIANTS_FROM, SYM_DEEP_FROM, SYM_MAX_N, SPLIT, MAX_N)


def __getattr__(name: str) -> Any:
    """``SYM_KERNEL`` and ``sym_count`` of :mod:`queenslab.native.methods`, decided when first read."""
    if name in ("SYM_KERNEL", "sym_count"):
        return getattr(methods, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_threads() -> int:
    """Number of cores this process may run on (the default thread count)."""
    return validate.threads(None)


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
    default depth when none is given); None chooses as above; ``"auto"`` takes the first
    method of :data:`~queenslab.native.methods.REGISTRY` that applies to a count on one
    thread and splits the problem (the Dask runner's choice: the join from n = 14).

    ``method="join"`` (the standard problem, n <= 25) splits the half-board join of
    :mod:`queenslab.native.join` instead: ``least`` (at least 256; from n = 22 at least
    4,096, :func:`join.split_parts <queenslab.native.join.split_parts>`) slices ``(start, stop)``
    of its row splits, largest estimated work first; a task counts the total only (its
    orbits are None: :func:`join.classes_from_total <queenslab.native.join.classes_from_total>`
    gives them from the summed total). The join's split is the standard problem's only: a
    variant the join counts in one process (blocked cells and fixed queens) is refused,
    as its orbits do not follow from its total by the standard problem's fixed counts
    ("auto" splits it into prefixes).

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
    validate.flag(unique, "unique")
    least = validate.whole_number(least, "least", minimum=1, maximum=MAX_BATCH)
    if method is None:
        # a depth asks for prefixes; else the standard problem takes the symmetric split
        # where it applies (the join's split only on request), any other the prefixes
        sym = REGISTRY["symmetric"]
        method = "symmetric" if depth is None and sym.splits(problem) else "general"
    chosen = choose(problem, validate.choice(method, ("auto", *SPLIT_METHODS), "split method"), 1, split=True)
    d, tasks = chosen.split(problem, depth=depth, least=least, force=force)
    return chosen.name, d, tasks


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
    general = validate.flag(general, "general")
    chosen = REGISTRY[validate.choice(method, SPLIT_METHODS, "task method")]
    return chosen.count_task(problem, task, unique=unique, force=force, general=general)


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
        problem, or blocked cells and fixed queens only; n <= 25), the orbits by
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
    unique = validate.flag(unique, "unique")
    progress = validate.callback(progress)
    _check_reach(problem, force, unique)
    return choose(problem, method, threads).count(problem, unique, threads, progress)


def _check_reach(problem: Problem, force: bool, unique: bool) -> None:
    """The practical limit of a count: on n for n queens on n x n, on the placements
    searched for another board (:func:`queenslab.native.boards.check_reach`)."""
    if problem.is_plain_board:
        check_size(problem, force)
    else:
        from . import boards

        boards.check_reach(problem, force, unique)


def chosen_method(problem: Problem, method: str = "auto", threads: int | None = None, *, split: bool = False) -> str:
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
    return choose(problem, method, threads, split=validate.flag(split, "split")).name


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
    _check_reach(problem, force, True)
    return choose(problem, method, threads).classes(problem, threads, progress)


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
    p = check_prefix(problem, prefix)
    check_subtree(problem, p, force)
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
        self.fast = not (c.toroidal or len(c.leap_rows) or len(c.region_masks)) and problem.n <= 63
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
        ps = [check_prefix(problem, p) for p in prefixes]
    except TypeError:
        raise InvalidPlacement(f"prefixes is a sequence of prefixes (sequences of columns), got {prefixes!r}") from None
    for p in ps:
        check_subtree(problem, p, force)
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
    p = check_prefix(problem, prefix)
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
    "the heuristics solve the standard problem only; for this variant use the cpsat or sat backend, "
    + setting("backend='cpsat'", "--backend cpsat")
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
    if not problem.is_plain_board and not prefix:
        yield from _board_batches(problem, batch, limit)
        return
    p = check_prefix(problem, prefix)
    yield from Walker(problem).stream(problem.n, batch, limit, p)


def _board_batches(problem: Problem, batch: int, limit: int | None) -> Iterator[np.ndarray]:
    """The board search's solutions (-1: an empty row) as arrays of at most ``batch`` rows."""
    from . import boards

    rows: list[tuple[int, ...]] = []
    for p in boards.solutions(problem, limit, batch):
        rows.append(p)
        if len(rows) == batch:
            yield np.array(rows, np.int64)
            rows = []
    if rows:
        yield np.array(rows, np.int64)


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
    check_size(problem, force)
    walk = Walker(problem, group=True)
    k = len(walk.group)
    _, prefixes, _ = split_depth(walk, threads)

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
