"""the self-correcting Queens program's self-correcting search ("intelligent queens"), iterative and jitted.

The original (Rony B Chandran, ``n-queens.c``) places one queen per line at a random
position and lets them correct themselves. Queen k, given the play:

1. checks whether a queen *in front* of her (0..k-1) attacks her;
2. if she is safe, passes the play to the queen behind (k+1); if that queen reports
   "success", she reports "success" too;
3. otherwise -- attacked, or the queen behind reported "in trouble" -- she moves one
   position on (cyclically) and checks again;
4. after trying all n positions she returns the play to the queen in front as
   "in trouble".

The queens in front move least. An optional limit on the total number of moves of one
try (``n * n`` in the original) turns a try into "in trouble" everywhere; a new random
start follows (the original loops forever; here ``restarts`` bounds it). Without a limit
the search is complete (a backtracking search whose value order starts at the random
positions), so it always succeeds for n >= 4.

Here the recursion is a loop with an explicit stack (no recursion limit for large n),
and queen k's position is the column of row k (the self-correcting Queens program (ronybc) prints the same numbers,
"27368514"). The random start reproduces the original's ``random() % (n - 1)`` (the last
position is never drawn; every queen visits all positions anyway). ``check="scan"`` is
the original O(k) look at the queens in front; ``check="counts"`` (default) answers the
same question in O(1) from counters of the front queens' lines and makes exactly the same
moves, only faster.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import interrupt, limits, validate
from ..errors import QueensError
from . import kernels as K
from .construct import check_memory, check_n
from .minconflicts import positive_int, rng_state, run_until, trivial

__all__ = ["self_correct", "PRACTICAL_LIMIT", "PIECE_TURNS", "piece_turns"]

#: The practical limit of :func:`self_correct`: the search grows about as n**3 (n = 2000
#: takes about 6 s, n = 5000 about a minute and a half).
SELF_CORRECT = limits.declare(
    "the self-correcting search", 5000, "n", "its time grows about as n**3: n = 5000 takes about a minute and a half"
)
PRACTICAL_LIMIT = SELF_CORRECT.largest

_CHECKS = ("counts", "scan")

#: Loop turns of the kernel per call (:func:`~queenslab.heuristics.kernels.self_correct_piece`):
#: a try of a large board runs for seconds, so it runs in pieces of about 10-30 ms, and a
#: stop requested (Ctrl-C) is seen between two of them.
PIECE_TURNS = 1 << 22


def piece_turns(n: int, counted: bool) -> int:
    """The kernel's budget per call: :data:`PIECE_TURNS`, divided by n for the scan, whose
    check of a queen costs up to n."""
    return PIECE_TURNS if counted else max(1, (4 * PIECE_TURNS) // n)


def self_correct(
    n,
    *,
    seed: int = 0,
    limit: int | str | None = "square",
    restarts: int = 1000,
    check: str = "counts",
    progress: Callable[[int, int], None] | None = None,
    return_stats: bool = False,
    force: bool = False,
):
    """One solution by the self-correcting Queens program's self-correcting random search.

    Parameters
    ----------
    n : int or Problem
        Board size (>= 1) or a standard Problem.
    seed : int, default 0
        The same seed gives the same solution.
    limit : int, None or "square", default "square"
        Moves allowed per try: ``"square"`` is the original's ``n * n``; None removes the
        limit (one complete search).
    restarts : int, default 1000
        Further random starts after a try that hit the limit.
    check : {"counts", "scan"}
        How a queen looks at the queens in front: O(1) counters, or the original O(k)
        scan (same moves, slower).
    progress : callable, optional
        Called as ``progress(tries_done, tries_allowed)`` after each try.
    return_stats : bool
        Also return a dict: ``tries`` and ``iterations`` (moves counted by the original,
        summed over the tries).
    force : bool, default False
        Allow ``n > PRACTICAL_LIMIT``.

    Returns
    -------
    numpy.ndarray or None
        The 0-based columns (int64); None for n = 2 and n = 3, which have no solution.
        With ``return_stats``, a tuple ``(placement, stats)``.

    Raises
    ------
    Incomplete
        When every try hit the limit.
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without ``force``.
    QueensError
        On invalid arguments.
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C): the
        tries run in pieces of about :data:`PIECE_TURNS` loop turns, and the stop flag is
        looked at between them.

    Examples
    --------
    >>> from queenslab.heuristics.construct import verify
    >>> verify(self_correct(200, seed=2))
    True
    >>> a = self_correct(30, seed=5, check="scan")
    >>> bool((a == self_correct(30, seed=5)).all())
    True
    """
    n = check_n(n, "the self-correcting search")
    validate.choice(check, _CHECKS, "check")
    progress = validate.callback(progress)
    return_stats = validate.flag(return_stats, "return_stats")
    force = validate.flag(force, "force")
    limits.check(SELF_CORRECT, n, force, hint="use construct or minconflicts for large boards")
    if isinstance(limit, str):
        if limit != "square":
            raise QueensError(f"limit is 'square', None or a number of moves, got {validate.brief(limit)}")
        moves = n * n
    elif limit is None:
        moves = 0
    else:
        moves = positive_int(limit, "limit")
    rng = rng_state(seed)
    restarts = positive_int(restarts, "restarts", zero=True)
    stats = {"tries": 0, "iterations": 0}
    done, value = trivial(n, stats, return_stats, tries=1)
    if done:
        return value
    check_memory(n, "the self-correcting search")
    q = np.empty(n, np.int64)
    t = np.empty(n, np.int64)
    counted = check == "counts"
    lines = np.empty(5 * n if counted else 1, np.int32)
    state = np.zeros(K.STATE_SIZE, np.int64)
    budget = piece_turns(n, counted)

    def attempt(_units):  # one try per call, in pieces
        K.self_correct_start(n, rng, q)
        state[:] = 0
        status = K.RUNNING
        while status == K.RUNNING:
            interrupt.check()
            status = K.self_correct_piece(n, moves, counted, q, t, lines, state, budget)
        stats["tries"] += 1
        stats["iterations"] += int(state[K.STATE_ITERATIONS])
        return q if status == K.SOLVED else None

    tries = restarts + 1
    failure = (
        f"the self-correcting search found no solution of {n}-queens in {tries} tr{'y' if tries == 1 else 'ies'} "
        f"of at most {moves} moves (seed {seed}); allow more restarts, a larger limit, or limit=None"
    )
    return run_until(attempt, tries, progress, stats, return_stats, failure)
