"""n-queens completion as an experiment: random partial placements, decided and counted by
every exact backend, which must agree.

I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens Completion" (Journal
of Artificial Intelligence Research 59, 2017), prove that completing a placement of
non-attacking queens to a solution of n-queens is NP-complete, and counting the completions
#P-complete, and give generators of random instances. This module holds:

* :func:`random_partial` -- their generator of n-queens completion instances, seeded: k
  non-attacking queens placed at random (see below);
* :func:`completion_experiment` -- for each number k of pre-placed queens, random
  instances, each counted (and so decided: satisfiable when the count is at least 1) by
  every exact backend requested, which must agree; a :class:`CompletionReport` with, per
  k, the satisfiable fraction, the mean and median number of completions, each backend's
  median seconds and whether the backends agreed;
* :func:`table` and :func:`figure` -- the report as a markdown table and as the
  phase-transition figure (the satisfiable fraction and each backend's time against k).

The construction (:func:`random_partial`) is the one of the generator the authors published
with the paper in CSPLib (problem 079, ``queens-gen-fast.py``): as long as fewer than k
queens stand, draw a row uniformly among the rows without a queen and a column uniformly
among the columns without one; place a queen there if no queen stands on either of its two
diagonals, else discard the draw; give up after n**2 draws. The instance is therefore not
drawn uniformly from all sets of k non-attacking queens: a queen is kept only if it is
compatible with those placed before it. Where that generator gives up, this one draws a
new round of n**2 attempts from the same random stream (the first round makes the same
draws as that generator with the same seed), up to :data:`MAX_ATTEMPTS` draws in all; the
paper's own description of its generator was not available here, so the construction
follows the published generator, not the paper's text. The paper reports that this
natural generator "did not generate consistently hard instances"; its phase transition of
hardness is shown for two related problems (Blocked n-Queens and the Excluded Diagonals
Problem), which this module does not generate.

Each count is exact. Without a time limit every backend counts in this process
(:func:`queenslab.counting.counts`) and only backends within their practical limits are
taken by default; with a time limit each backend counts in a process of its own, stopped
at the limit (:func:`queenslab.backends.crosscheck.crosscheck`), and a backend that runs
out is recorded as timed out, never as a disagreement. A disagreement between complete
counts is recorded with the instance, the backends and their counts
(:attr:`CompletionReport.disagreements`), never hidden.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from . import validate
from .backends.crosscheck import crosscheck
from .backends.registry import BACKENDS, exact_backends, get_backend
from .counting import counts
from .errors import MissingDependency, QueensError, TooLarge, setting
from .problem import Problem
from .provenance import environment
from .reports import ONE_BASED

__all__ = [
    "MAX_N",
    "MAX_GENERATOR_N",
    "MAX_ATTEMPTS",
    "MAX_INSTANCES",
    "DEFAULT_INSTANCES",
    "max_queens",
    "random_partial",
    "instance_seed",
    "default_backends",
    "Answer",
    "Instance",
    "Timing",
    "Skipped",
    "CompletionRow",
    "CompletionReport",
    "completion_experiment",
    "table",
    "figure",
]

#: The largest board of the experiment: a count's board is at most 64 columns wide (the
#: native engine's bitboards; every exact count is out of reach long before).
MAX_N = 64
#: The largest board :func:`random_partial` places queens on (it keeps the free rows and
#: columns in lists of n numbers).
MAX_GENERATOR_N = 10**6
#: The most random draws :func:`random_partial` makes in all before it gives up: rounds of
#: n**2 draws each, as many as fit (at least one). A few seconds of Python.
MAX_ATTEMPTS = 4_000_000
#: The most instances per k.
MAX_INSTANCES = 100_000
#: Instances per k when none is given.
DEFAULT_INSTANCES = 10


def max_queens(n: int) -> int:
    """The most non-attacking queens an n x n board holds: n, except 1 on the 2 x 2 board
    and 2 on the 3 x 3 board.

    >>> [max_queens(n) for n in range(1, 6)]
    [1, 1, 2, 4, 5]
    """
    n = validate.whole_number(n, "n", minimum=1)
    return n - 1 if n in (2, 3) else n


def random_partial(n: int, k: int, seed: int = 0) -> tuple[tuple[int, int], ...]:
    """k non-attacking queens placed at random on the n x n board (Gent, Jefferson and
    Nightingale's generator of n-queens completion instances), seeded.

    Each draw takes a row uniformly among the rows without a queen and a column uniformly
    among the columns without one (two calls of ``randrange`` on a
    :class:`random.Random` seeded with ``seed``); a queen is placed there when neither of
    its diagonals holds one, else the draw is discarded. A round gives up after n**2
    draws, as the published generator does; then a new round starts from an empty board
    with the same random stream, until :data:`MAX_ATTEMPTS` draws in all.

    Parameters
    ----------
    n : int
        Board size, 1 .. :data:`MAX_GENERATOR_N`.
    k : int
        Queens to place, 0 .. n (at most 1 on the 2 x 2 board, 2 on the 3 x 3 board:
        :func:`max_queens`).
    seed : int, default 0
        Random seed, 0 .. 2**63 - 1. The same (n, k, seed) gives the same queens on any
        machine.

    Returns
    -------
    tuple of (int, int)
        The queens' 0-based ``(row, column)`` cells, sorted by row; no two share a row, a
        column or a diagonal.

    Raises
    ------
    QueensError
        For an n, k or seed that is not an integer in its range; for k beyond
        :func:`max_queens`; or when no round placed k queens within :data:`MAX_ATTEMPTS`
        draws (k close to n makes a round's success rare: about 1 in 70 at k = n = 12).
    TooLarge
        For n > :data:`MAX_GENERATOR_N`.

    Examples
    --------
    >>> cells = random_partial(8, 3, seed=1)
    >>> len(cells), cells == random_partial(8, 3, seed=1)
    (3, True)
    >>> random_partial(8, 0, seed=1)
    ()
    >>> random_partial(3, 3)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: 3 non-attacking queens do not fit on the 3 x 3 board (at most 2); give k = 0 .. 2
    """
    n = validate.whole_number(
        n,
        "n",
        minimum=1,
        maximum=MAX_GENERATOR_N,
        error=TooLarge,
        why="the generator keeps lists of n rows and columns",
    )
    k = validate.whole_number(k, "k (the queens to place)", minimum=0)
    if k > n:
        raise QueensError(f"k = {k} queens cannot be placed on the {n} x {n} board without attacks: give k = 0 .. {n}")
    most = max_queens(n)
    if k > most:
        raise QueensError(
            f"{k} non-attacking queens do not fit on the {n} x {n} board (at most {most}); give k = 0 .. {most}"
        )
    seed = validate.seed(seed)
    if k == 0:
        return ()
    rng = random.Random(seed)
    per_round = n * n
    rounds = max(1, MAX_ATTEMPTS // per_round)
    for _ in range(rounds):
        cells = _round(rng, n, k, per_round)
        if cells is not None:
            return tuple(sorted(cells))
    raise QueensError(
        f"could not place {k} non-attacking queens on the {n} x {n} board in {rounds} rounds of {per_round} random "
        f"draws (seed {seed}): a round keeps a queen only where it attacks none placed before, and for k close "
        "to n few rounds get that far; give a smaller k, or another seed"
    )


def _round(rng: random.Random, n: int, k: int, attempts: int) -> list[tuple[int, int]] | None:
    """One round of the generator: k queens, or None after ``attempts`` draws."""
    rows, columns = list(range(n)), list(range(n))
    free = n
    sums: set[int] = set()
    differences: set[int] = set()
    cells: list[tuple[int, int]] = []
    for _ in range(attempts):
        i = rng.randrange(free)
        j = rng.randrange(free)
        r, c = rows[i], columns[j]
        if r + c in sums or r - c in differences:
            continue
        cells.append((r, c))
        if len(cells) == k:
            return cells
        sums.add(r + c)
        differences.add(r - c)
        # the row and the column leave the free lists: the last free one takes their place
        rows[i], columns[j] = rows[free - 1], columns[free - 1]
        free -= 1
    return None


def instance_seed(seed: int, n: int, k: int, index: int) -> int:
    """The seed of instance ``index`` (from 0) of k queens on the n x n board in an
    experiment run with ``seed``: 63 bits of a SHA-256 of the four numbers, so that
    instances are independent of one another and of the ks and instances asked for.
    ``random_partial(n, k, instance_seed(seed, n, k, index))`` gives the instance.

    >>> instance_seed(0, 8, 3, 0) == instance_seed(0, 8, 3, 0) != instance_seed(0, 8, 3, 1)
    True
    """
    text = f"queenslab completion: seed {seed}, n {n}, k {k}, instance {index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


# ----------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class Answer:
    """One backend's count of one instance.

    Attributes
    ----------
    backend : str
    count : int or None
        The number of completions; None when the backend ran out of time or could not run.
    seconds : float
        Wall-clock time of the count (for a backend that ran out: the time until it was
        stopped).
    timed_out : bool
        Whether it ran out of the time limit (then stopped; never a disagreement).
    error : str or None
        Why there is no count (out of time, or the backend could not run), else None.
    method : str or None
        How the backend counted (its result's method).
    """

    backend: str
    count: int | None
    seconds: float
    timed_out: bool = False
    error: str | None = None
    method: str | None = None


@dataclass(frozen=True)
class Instance:
    """One random instance and every backend's count of it.

    Attributes
    ----------
    k : int
        Queens placed in advance.
    instance : int
        Its number among the instances of this k: from 0 here, from 1 in the JSON.
    seed : int
        ``random_partial(n, k, seed)`` gives its queens (:func:`instance_seed`).
    cells : tuple of (int, int)
        The queens placed in advance: 0-based here, 1-based ``[row, column]`` in the JSON.
    count : int or None
        The number of completions the complete answers agree on; None when no backend
        counted it completely, or when the answers disagree.
    answers : tuple of Answer
        Each backend's answer, in the order of the report's ``backends``.
    agrees : bool or None
        Whether the complete answers are equal; None when fewer than two backends counted
        it completely (nothing was compared).
    """

    k: int
    instance: int = field(metadata=ONE_BASED)
    seed: int
    cells: tuple[tuple[int, int], ...] = field(metadata=ONE_BASED)
    count: int | None
    answers: tuple[Answer, ...]
    agrees: bool | None


@dataclass(frozen=True)
class Timing:
    """One backend's times at one k.

    Attributes
    ----------
    backend : str
    median_seconds : float or None
        The median over its counts of this k, a count that ran out of time taking the time
        until it was stopped (so the median is a lower bound when ``timeouts`` > 0); None
        when it counted none.
    counted : int
        Instances it counted completely.
    timeouts : int
        Instances on which it ran out of the time limit.
    """

    backend: str
    median_seconds: float | None
    counted: int
    timeouts: int


@dataclass(frozen=True)
class Skipped:
    """A backend left out of a run by default because it could not run here (an optional
    package missing, or a refusal), with the reason."""

    backend: str
    error: str


@dataclass(frozen=True)
class CompletionRow:
    """One number k of queens placed in advance (a JSON object of ``results``).

    Attributes
    ----------
    k : int
    instances : int
        Instances generated.
    decided : int
        Instances with a count (at least one complete answer, and no disagreement).
    satisfiable : int
        Decided instances with at least one completion.
    satisfiable_fraction : float or None
        ``satisfiable / decided``; None when none was decided.
    mean_count, median_count : float or None
        The mean and median number of completions of the decided instances.
    timings : tuple of Timing
        Each backend's times, in the order of the report's ``backends``.
    compared : int
        Instances that two or more backends counted completely.
    agrees : bool or None
        False when the complete answers differ on some instance; None when no instance
        was compared; else True.
    cases : tuple of Instance
        Every instance with its answers.
    """

    k: int
    instances: int
    decided: int
    satisfiable: int
    satisfiable_fraction: float | None
    mean_count: float | None
    median_count: float | None
    timings: tuple[Timing, ...]
    compared: int
    agrees: bool | None
    cases: tuple[Instance, ...]


@dataclass(frozen=True)
class CompletionReport:
    """``queenslab experiment completion``: n-queens completion on random instances.

    Attributes
    ----------
    experiment : str
        ``"completion"``.
    n : int
    ks : tuple of int
    instances : int
        Instances per k.
    backends : tuple of str
        The backends that counted.
    seed : int
    time_limit : float or None
        Seconds each count may take (None: no limit, in this process).
    agrees : bool or None
        False when the backends' complete counts differed on any instance; None when no
        instance was counted completely by two or more backends; else True.
    results : tuple of CompletionRow
        One row per k, in increasing k.
    disagreements : tuple of Instance
        Every instance on which complete counts differ (empty when they agree).
    skipped : tuple of Skipped
        Backends of the default choice that could not run here.
    plot : str or None
        The figure written (by the command line's ``--plot``).
    seconds : float
    provenance : dict
        What produced the numbers (:func:`queenslab.provenance.environment`).
    """

    experiment: str
    n: int
    ks: tuple[int, ...]
    instances: int
    backends: tuple[str, ...]
    seed: int
    time_limit: float | None
    agrees: bool | None
    results: tuple[CompletionRow, ...]
    disagreements: tuple[Instance, ...]
    skipped: tuple[Skipped, ...]
    plot: str | None
    seconds: float
    provenance: dict[str, Any] | None


# ----------------------------------------------------------------------------- the experiment


def _check_n(n: object) -> int:
    return validate.whole_number(
        n,
        "n",
        minimum=1,
        maximum=MAX_N,
        error=TooLarge,
        why="the widest board a count takes; exact counts are out of reach long before",
    )


def _check_ks(ks: Iterable[int] | None, n: int) -> tuple[int, ...]:
    if ks is None:
        return tuple(range(max_queens(n) + 1))
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable):
        raise QueensError(f"ks must be a list of numbers of queens, e.g. [0, 2, 4], got {validate.brief(ks)}")
    out = set()
    for i, k in enumerate(ks):
        if i >= 100_000:
            raise TooLarge("ks has more than 100000 entries")
        k = validate.whole_number(k, "each k", minimum=0)
        if k > max_queens(n):
            raise QueensError(
                f"k = {k}: at most {max_queens(n)} non-attacking queens fit on the {n} x {n} board; "
                f"give k = 0 .. {max_queens(n)}"
            )
        out.add(k)
    if not out:
        raise QueensError("ks is empty: give at least one number of queens to place")
    return tuple(sorted(out))


def default_backends(n: int) -> list[str]:
    """The exact backends (registry order) whose practical limit takes the n x n board:
    what :func:`completion_experiment` counts with when no backends are named.

    The limit is the one of a count of the empty board (k = 0, the most completions);
    an optional package that is missing is found when the backend first counts.

    >>> default_backends(8)[0]
    'native'
    """
    n = _check_n(n)
    chosen = []
    for name in exact_backends():
        try:
            get_backend(name).check_reach(Problem(n))
        except TooLarge:
            continue
        chosen.append(name)
    return chosen


def _check_backends(backends: Sequence[str] | None, n: int, time_limit: float | None) -> tuple[list[str], bool]:
    """The backends to count with, and whether they were named (then any failure raises)."""
    if backends is None:
        chosen = default_backends(n)
        if not chosen:
            raise TooLarge(
                f"no exact backend counts the {n} x {n} board within its practical limit (queenslab limits lists "
                "them); give a smaller n"
            )
        return chosen, False
    if isinstance(backends, (str, bytes)) or not isinstance(backends, Iterable):
        raise QueensError(
            f"backends must be a list of backend names, e.g. ['native', 'sat'], got {validate.brief(backends)}"
        )
    exact = exact_backends()
    names: list[str] = []
    for name in backends:
        if name not in BACKENDS:
            raise QueensError(f"unknown backend {name!r}; the exact backends are: {', '.join(exact)}")
        if name not in exact:
            raise QueensError(
                f"the {name} backend's counts are estimates; the experiment compares exact counts: choose among "
                f"{', '.join(exact)}"
            )
        if name not in names:
            names.append(name)
    if not names:
        raise QueensError(f"backends is empty: give at least one of {', '.join(exact)}")
    if time_limit is None:
        for name in names:
            try:
                get_backend(name).check_reach(Problem(n))
            except TooLarge as e:
                raise TooLarge(
                    f"{e}; or give a time limit, {setting('time_limit=S', '--time-limit S')}: each count then runs in a process "
                    "of its own, stopped at the limit"
                ) from None
    return names, True


def completion_experiment(
    n: int,
    ks: Iterable[int] | None = None,
    *,
    instances: int = DEFAULT_INSTANCES,
    backends: Sequence[str] | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CompletionReport:
    """Decide and count the completions of random partial placements on every backend.

    For each k in ``ks``, ``instances`` instances of k queens are generated
    (:func:`random_partial` with :func:`instance_seed`), and each is counted exactly by
    every backend: its count is the number of completions, and it is satisfiable when
    that is at least 1. The complete counts of an instance must all be equal.

    Parameters
    ----------
    n : int
        Board size, 1 .. :data:`MAX_N`.
    ks : iterable of int, optional
        Numbers of queens placed in advance, each 0 .. n (sorted, repeats dropped).
        Default: every k from 0 to n.
    instances : int, default :data:`DEFAULT_INSTANCES`
        Instances per k, 1 .. :data:`MAX_INSTANCES`.
    backends : sequence of str, optional
        Exact backends (``native``, ``cpsat``, ``sat``, ``ganak``, ``cpmpy``). Default
        :func:`default_backends`: every exact backend whose practical limit takes n; one
        that cannot run here (a missing optional package) is left out and listed in
        ``skipped``. A named backend that cannot run raises, and without a time limit a
        named backend beyond its practical limit is refused up front.
    seed : int, default 0
        The seed the instances' seeds are derived from (0 .. 2**63 - 1): the same seed
        gives the same instances.
    time_limit : float, optional
        Seconds each count may take. Given, each backend counts in a process of its own,
        stopped at the limit (:func:`queenslab.backends.crosscheck.crosscheck`; its
        seconds count from when the process is ready, and its practical limit no longer
        applies); a count that runs out is recorded as timed out. None: every count runs
        to the end, in this process.
    progress : callable, optional
        ``progress(done, total)`` after each instance.

    Returns
    -------
    CompletionReport

    Raises
    ------
    QueensError
        For an argument out of its range (the message says what is allowed), an unknown or
        approximate backend, or a named backend that cannot run.
    TooLarge
        For n > :data:`MAX_N`, or a board beyond every backend's practical limit.

    Examples
    --------
    >>> report = completion_experiment(6, [0, 1], instances=2, backends=["native", "sat"])
    >>> row = report.results[0]                   # k = 0: the whole problem, Q(6) = 4
    >>> row.k, row.satisfiable_fraction, row.mean_count, row.agrees
    (0, 1.0, 4.0, True)
    >>> [len(case.cells) for case in report.results[1].cases], report.backends
    ([1, 1], ('native', 'sat'))
    """
    t0 = time.perf_counter()
    n = _check_n(n)
    chosen_ks = _check_ks(ks, n)
    instances = validate.whole_number(instances, "instances", minimum=1, maximum=MAX_INSTANCES)
    seed = validate.seed(seed)
    time_limit = validate.positive_seconds(time_limit, "time_limit")
    if time_limit is not None and not math.isfinite(time_limit):
        raise QueensError(f"time_limit must be a finite positive number of seconds, got {time_limit!r}")
    progress = validate.callback(progress)
    names, strict = _check_backends(backends, n, time_limit)
    skipped: list[Skipped] = []
    rows = []
    total, done = len(chosen_ks) * instances, 0
    for k in chosen_ks:
        cases = []
        for index in range(instances):
            s = instance_seed(seed, n, k, index)
            cells = random_partial(n, k, s)
            answers = _count_all(n, cells, names, strict, time_limit, skipped)
            cases.append(_instance(k, index, s, cells, answers))
            done += 1
            if progress:
                progress(done, total)
        rows.append(cases)
    used = tuple(name for name in names if name not in {s.backend for s in skipped})
    results = tuple(_row(k, cases, used) for k, cases in zip(chosen_ks, rows))
    return CompletionReport(
        experiment="completion",
        n=n,
        ks=chosen_ks,
        instances=instances,
        backends=used,
        seed=seed,
        time_limit=time_limit,
        agrees=_verdict(r.agrees for r in results),
        results=results,
        disagreements=tuple(case for row in results for case in row.cases if case.agrees is False),
        skipped=tuple(skipped),
        plot=None,
        seconds=time.perf_counter() - t0,
        provenance=environment(),
    )


def _count_all(
    n: int,
    cells: tuple[tuple[int, int], ...],
    names: list[str],
    strict: bool,
    time_limit: float | None,
    skipped: list[Skipped],
) -> list[Answer]:
    """Every backend's answer for the instance (a default backend that cannot run is
    added to ``skipped`` and not asked again)."""
    problem = Problem(n, fixed=cells)
    active = [name for name in names if name not in {s.backend for s in skipped}]
    if time_limit is None:
        return [a for a in (_count_here(problem, name, strict, skipped) for name in active) if a is not None]
    return _count_elsewhere(problem, active, strict, time_limit, skipped)


def _count_here(problem: Problem, name: str, strict: bool, skipped: list[Skipped]) -> Answer | None:
    """``name``'s count of ``problem`` in this process, to the end."""
    try:
        r = counts(problem, backend=name)
    except (MissingDependency, TooLarge) as e:
        if strict:
            raise
        skipped.append(Skipped(name, str(e)))
        return None
    return Answer(name, r.value(), float(r.seconds or 0.0), method=r.method or None)


def _count_elsewhere(
    problem: Problem, names: list[str], strict: bool, time_limit: float, skipped: list[Skipped]
) -> list[Answer]:
    """Each backend's count of ``problem`` in a process of its own, stopped at
    ``time_limit``. The time limit bounds the count, so it goes ahead beyond the backend's
    practical limit (``force``), as a backend's own time limit does; the option also makes
    the crosscheck run the backend's default count once."""
    options = {name: {"force": True} for name in names if get_backend(name).option("force") is not None}
    check = crosscheck(problem, names, unique=False, options=options, strict=strict, time_limit=time_limit)
    answers = []
    for row in check.rows:
        if row.error is not None and not row.timed_out:
            # could not run (strict: crosscheck raised instead): a default backend is left out
            skipped.append(Skipped(row.backend, row.error))
            continue
        complete = row.error is None and row.complete and row.count is not None
        answers.append(
            Answer(
                row.backend,
                row.count if complete else None,
                row.seconds,
                timed_out=row.timed_out,
                error=row.error if row.error is not None else (None if complete else "stopped by a limit"),
                method=row.method,
            )
        )
    return answers


def _instance(k: int, index: int, seed: int, cells: tuple[tuple[int, int], ...], answers: list[Answer]) -> Instance:
    counted = {a.count for a in answers if a.count is not None}
    complete = sum(a.count is not None for a in answers)
    agrees = None if complete < 2 else len(counted) == 1
    count = next(iter(counted)) if len(counted) == 1 else None
    return Instance(k, index, seed, cells, count, tuple(answers), agrees)


def _verdict(values: Iterable[bool | None]) -> bool | None:
    """False if any is False, else True if any is True, else None."""
    seen = list(values)
    if any(v is False for v in seen):
        return False
    return True if any(v is True for v in seen) else None


def _row(k: int, cases: list[Instance], backends: tuple[str, ...]) -> CompletionRow:
    counts = [c.count for c in cases if c.count is not None]
    satisfiable = sum(c > 0 for c in counts)
    timings = []
    for name in backends:
        mine = [a for c in cases for a in c.answers if a.backend == name]
        ended = [a.seconds for a in mine if a.count is not None or a.timed_out]
        timings.append(
            Timing(
                backend=name,
                median_seconds=statistics.median(ended) if ended else None,
                counted=sum(a.count is not None for a in mine),
                timeouts=sum(a.timed_out for a in mine),
            )
        )
    return CompletionRow(
        k=k,
        instances=len(cases),
        decided=len(counts),
        satisfiable=satisfiable,
        satisfiable_fraction=satisfiable / len(counts) if counts else None,
        mean_count=statistics.fmean(counts) if counts else None,
        median_count=float(statistics.median(counts)) if counts else None,
        timings=tuple(timings),
        compared=sum(c.agrees is not None for c in cases),
        agrees=_verdict(c.agrees for c in cases),
        cases=tuple(cases),
    )


# ----------------------------------------------------------------------------- the table and the figure


def _cells_text(cells: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{r + 1},{c + 1}" for r, c in cells) or "none"


def _number(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def _seconds(t: Timing) -> str:
    if t.median_seconds is None:
        return "—"
    text = f"{t.median_seconds:.3f}"
    return f"≥ {text} ({t.timeouts} out of time)" if t.timeouts else text


def table(report: CompletionReport) -> str:
    """The report as a markdown table (one row per k), after its settings, with every
    disagreement, timeout and skipped backend listed below.

    Parameters
    ----------
    report : CompletionReport

    Returns
    -------
    str

    Examples
    --------
    >>> report = completion_experiment(5, [0], instances=1, backends=["native", "sat"])
    >>> print(table(report).splitlines()[4])
    | k | instances | decided | satisfiable fraction | mean completions | median completions | native median s | sat median s | backends agree |
    """
    if not isinstance(report, CompletionReport):
        raise QueensError(f"table takes a CompletionReport, got {validate.brief(report)}")
    limit = "none (every count to the end)" if report.time_limit is None else f"{report.time_limit:g} s per count"
    lines = [
        f"* n = {report.n}; {report.instances} instance(s) per k; seed {report.seed}; time limit: {limit}",
        f"* backends: {', '.join(report.backends) or 'none'}",
        "* construction: Gent, Jefferson and Nightingale's generator (random free row and column, kept when "
        "no placed queen shares a diagonal)",
        "",
        "| k | instances | decided | satisfiable fraction | mean completions | median completions | "
        + " | ".join(f"{b} median s" for b in report.backends)
        + " | backends agree |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in report.backends) + " | --- |",
    ]
    verdict = {True: "yes", False: "**NO**", None: "— (not compared)"}
    for row in report.results:
        fraction = "—" if row.satisfiable_fraction is None else f"{row.satisfiable_fraction:.2f}"
        lines.append(
            f"| {row.k} | {row.instances} | {row.decided} | {fraction} | {_number(row.mean_count, 2)} | "
            f"{_number(row.median_count)} | "
            + " | ".join(_seconds(t) for t in row.timings)
            + f" | {verdict[row.agrees]} |"
        )
    notes = []
    for case in report.disagreements:
        said = ", ".join(f"{a.backend} {a.count}" for a in case.answers if a.count is not None)
        notes.append(
            f"* DISAGREEMENT at k = {case.k}, instance {case.instance + 1} (seed {case.seed}; queens at "
            f"{_cells_text(case.cells)}): {said}"
        )
    for row in report.results:
        for case in row.cases:
            late = [a.backend for a in case.answers if a.timed_out]
            if late:
                notes.append(
                    f"* k = {case.k}, instance {case.instance + 1}: {', '.join(late)} ran out of time"
                    + ("" if case.count is not None else " (no backend counted it)")
                )
    notes += [f"* skipped: {s.backend} ({s.error})" for s in report.skipped]
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def figure(report: CompletionReport) -> Any:
    """The phase-transition figure of the report: the satisfiable fraction against k
    (upper panel) and each backend's median seconds against k, log scale (lower panel; a
    hollow marker where some count ran out of time, so the median is a lower bound).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    MissingDependency
        Without matplotlib.
    """
    from .plot import current_style

    if not isinstance(report, CompletionReport):
        raise QueensError(f"figure takes a CompletionReport, got {validate.brief(report)}")
    try:
        import matplotlib
        import matplotlib.figure
        import matplotlib.ticker
    except ImportError:
        raise MissingDependency('figures need matplotlib: pip install "queenslab[plot]"') from None
    chosen = current_style()
    with matplotlib.rc_context(cast(Any, chosen.rc)):
        fig = matplotlib.figure.Figure(figsize=(6.8, 6.2), dpi=150, layout="constrained")
        top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(1, 1))
        for ax in (top, bottom):
            ax.grid(True, which="major", color=chosen.grid, linewidth=0.8)
            ax.set_axisbelow(True)
            for side in ("top", "right"):
                ax.spines[side].set_visible(False)
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        decided = [r for r in report.results if r.satisfiable_fraction is not None]
        top.plot(
            [r.k for r in decided],
            [r.satisfiable_fraction for r in decided],
            marker="o",
            color="#4c72b0",
            label="satisfiable fraction",
        )
        top.set_ylim(-0.04, 1.04)
        top.set_ylabel("satisfiable fraction")
        top.set_title(
            f"n-queens completion, n = {report.n}: {report.instances} random instance"
            f"{'s' if report.instances > 1 else ''} per k"
        )
        colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
        markers = ["o", "s", "^", "D", "v", "P"]
        drawn = False
        for i, name in enumerate(report.backends):
            points = [(r.k, t) for r in report.results for t in r.timings if t.backend == name]
            points = [(k, t) for k, t in points if t.median_seconds is not None and t.median_seconds > 0]
            if not points:
                continue
            colour, marker = colours[i % len(colours)], markers[i % len(markers)]
            bottom.plot(
                [k for k, _ in points],
                [t.median_seconds for _, t in points],
                color=colour,
                marker=marker,
                markersize=5,
                linewidth=1.2,
                label=name,
            )
            late = [(k, t) for k, t in points if t.timeouts]
            if late:
                bottom.plot(
                    [k for k, _ in late],
                    [t.median_seconds for _, t in late],
                    linestyle="none",
                    marker=marker,
                    markersize=9,
                    fillstyle="none",
                    color=colour,
                )
            drawn = True
        if drawn:
            bottom.set_yscale("log")
            bottom.legend(frameon=False, fontsize=8, ncol=min(3, len(report.backends)))
        bottom.set_ylabel("median seconds per count")
        bottom.set_xlabel("k, queens placed in advance")
    return fig
