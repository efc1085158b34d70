"""Min-conflicts local search for one solution of a large board (n = 10**6 in seconds).

The search keeps a permutation (one queen per row and per column), so only diagonals can
conflict; a move swaps the columns of two rows. Counters of the queens on every diagonal
make the effect of a swap an O(1) computation. One try:

1. **start** -- ``"greedy"`` (default): rows are filled in order, each with the first of up
   to ``greedy_tries`` random unused columns whose diagonals are free. The start is then
   nearly conflict-free (about 0.1% of the queens in conflict: 1,166 of 10**6 for
   seed 0), which is what makes huge n fast. ``"random"``: a uniformly random permutation.
2. **repair** -- repeatedly pick a random queen in conflict and, among ``candidates`` random
   partner rows and staying put, make the swap that leaves the fewest collisions
   (random tie-breaking, so sideways moves happen); a step is one such decision.
3. After ``max_steps`` steps without a solution the try is abandoned; up to ``restarts``
   further tries follow (the random stream continues, so each try differs).

This follows the minimal-conflict heuristic surveyed in N. Gupta's ranking paper (section 2.2) and the
swap-based local search of Sosic and Gu for permutations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import validate
from ..errors import Incomplete
from . import kernels as K
from .construct import check_memory, check_n

__all__ = ["min_conflicts", "rng_state"]

_STARTS = ("greedy", "random")


def rng_state(seed) -> np.ndarray:
    """The kernels' generator state (``uint64[1]``) for an integer seed.

    Raises
    ------
    QueensError
        If ``seed`` is not an integer in ``0 .. 2**63 - 1``.

    Examples
    --------
    >>> rng_state(0).dtype
    dtype('uint64')
    """
    value = validate.seed(seed)
    return np.random.SeedSequence(value).generate_state(1, np.uint64)


def positive_int(value, what: str, *, zero: bool = False) -> int:
    """Validate an integer option a kernel takes: ``1 .. 2**63 - 1`` (``0 ..`` with ``zero``)."""
    return validate.int64(value, what, minimum=0 if zero else 1)


# answer, trivial and run_until are the common frame of the heuristics with a seed (this
# module, selfcorrect, metaheuristics), as rng_state and positive_int are


def answer(placement, stats: dict, return_stats: bool):
    """What a heuristic returns: ``placement``, or ``(placement, stats)`` with ``return_stats``."""
    return (placement, stats) if return_stats else placement


def trivial(n: int, stats: dict, return_stats: bool, **solved) -> tuple[bool, Any]:
    """``(True, the answer)`` for the boards that need no search, else ``(False, None)``.

    n = 2 and n = 3 have no solution (the answer is None); n = 1 has ``[0]``, and
    ``stats`` is then updated with ``solved``.

    Examples
    --------
    >>> trivial(1, {"tries": 0}, True, tries=1)
    (True, (array([0]), {'tries': 1}))
    >>> trivial(3, {}, False), trivial(8, {}, False)
    ((True, None), (False, None))
    """
    if n in (2, 3):
        return True, answer(None, stats, return_stats)
    if n == 1:
        stats.update(solved)
        return True, answer(np.zeros(1, np.int64), stats, return_stats)
    return False, None


def run_until(
    step: Callable[[int], Any],
    total: int,
    progress: Callable[[int, int], None] | None,
    stats: dict,
    return_stats: bool,
    failure: str,
    most: int = 1,
):
    """Spend a budget of tries, generations, ... in calls of a search, until one succeeds.

    Parameters
    ----------
    step : callable
        ``step(units)`` runs the search for ``units`` units of the budget and returns
        the placement it found, or None.
    total : int
        The budget (>= 0); ``step`` is called at least once, with 0 units for 0.
    progress : callable or None
        Called as ``progress(units_done, total)`` after each call, the last included.
    stats, return_stats
        What the search reports, and whether it is returned (:func:`answer`).
    failure : str
        The message when the budget runs out.
    most : int, default 1
        Units per call at most.

    Returns
    -------
    numpy.ndarray or tuple
        The first placement found (with ``stats``, if asked for).

    Raises
    ------
    Incomplete
        With ``failure``, when the budget ran out.
    """
    done = 0
    while True:
        units = min(most, total - done)
        found = step(units)
        done += units
        if progress is not None:
            progress(done, total)
        if found is not None:
            return answer(found, stats, return_stats)
        if done >= total:
            raise Incomplete(failure)


def min_conflicts(
    n,
    *,
    seed: int = 0,
    start: str = "greedy",
    max_steps: int | None = None,
    restarts: int = 100,
    candidates: int = 16,
    greedy_tries: int = 32,
    progress: Callable[[int, int], None] | None = None,
    return_stats: bool = False,
):
    """One solution by min-conflicts local search with O(1) bookkeeping per move.

    Parameters
    ----------
    n : int or Problem
        Board size (>= 1) or a standard Problem.
    seed : int, default 0
        The same seed gives the same solution.
    start : {"greedy", "random"}
        Greedy nearly conflict-free start, or a random permutation.
    max_steps : int, optional
        Repair steps per try; default ``50 * n + 500``.
    restarts : int, default 100
        Further tries after a try that ran out of steps (0: a single try). Small boards
        have strict local minima (n = 6 escapes in about one try in six); huge boards
        practically never need a second try.
    candidates : int, default 16
        Random partner rows compared at each step.
    greedy_tries : int, default 32
        Random columns tried per row by the greedy start.
    progress : callable, optional
        Called as ``progress(tries_done, tries_allowed)`` after each try.
    return_stats : bool
        Also return a dict: ``tries``, ``steps`` (of the last try), ``start_conflicts``
        (queens in conflict after the last try's start).

    Returns
    -------
    numpy.ndarray or None
        The 0-based columns (int64); None for n = 2 and n = 3, which have no solution.
        With ``return_stats``, a tuple ``(placement, stats)``.

    Raises
    ------
    Incomplete
        When every try ran out of steps (raise ``max_steps`` or ``restarts``).
    TooLarge
        When the arrays (about 32 bytes per queen) need more memory than is available.
    QueensError
        On invalid arguments (integer options are ``1 .. 2**63 - 1``, ``restarts`` from 0).

    Examples
    --------
    >>> from queenslab.heuristics.construct import verify
    >>> verify(min_conflicts(1000, seed=1))
    True
    >>> bool((min_conflicts(50, seed=3) == min_conflicts(50, seed=3)).all())
    True
    >>> min_conflicts(3) is None
    True
    """
    n = check_n(n, "min-conflicts")
    validate.choice(start, _STARTS, "start")
    progress = validate.callback(progress)
    return_stats = validate.flag(return_stats, "return_stats")
    rng = rng_state(seed)
    steps_cap = 50 * n + 500 if max_steps is None else positive_int(max_steps, "max_steps")
    restarts = positive_int(restarts, "restarts", zero=True)
    candidates = positive_int(candidates, "candidates")
    greedy_tries = positive_int(greedy_tries, "greedy_tries")
    stats = {"tries": 0, "steps": 0, "start_conflicts": 0}
    done, value = trivial(n, stats, return_stats, tries=1)
    if done:
        return value
    check_memory(n, "min-conflicts")
    p = np.empty(n, np.int64)
    d1 = np.empty(2 * n - 1, np.int32)
    d2 = np.empty(2 * n - 1, np.int32)
    work = np.empty(n, np.int64)
    out = np.zeros(4, np.int64)

    def attempt(_units):  # one try per call
        K.min_conflicts_start(n, greedy_tries if start == "greedy" else 0, rng, p, d1, d2, work)
        ok = K.min_conflicts_repair(n, steps_cap, candidates, rng, p, d1, d2, work, out) == K.SOLVED
        stats.update(tries=stats["tries"] + 1, steps=int(out[0]), start_conflicts=int(out[1]))
        return p if ok else None

    tries = restarts + 1
    failure = (
        f"min-conflicts found no solution of {n}-queens in {tries} tr{'y' if tries == 1 else 'ies'} of "
        f"{steps_cap} steps (seed {seed}); allow more with max_steps or restarts, or try another seed"
    )
    return run_until(attempt, tries, progress, stats, return_stats, failure)
