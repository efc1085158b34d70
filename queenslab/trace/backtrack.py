"""The trace of backtracking in lexicographic order, over the problem's compiled tables.

:func:`record_backtrack` runs the native engine's search,
:func:`queenslab.native.kernels.walk`, recording, on the tables of
:func:`queenslab.compiled.compile_problem` -- rows top-down, each row's columns in
increasing order -- so every variant the engine solves can be traced, and the
``solution`` steps come in the order ``queenslab.solutions(problem)`` lists the
solutions.
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..compiled import BITBOARD_MAX_N, compile_problem
from ..errors import TooLarge
from ..native import kernels as NK
from ..problem import Problem
from .events import decode
from .steps import Trace

__all__ = ["record_backtrack"]


def record_backtrack(problem: Problem, max_steps: int, solutions: int = 1) -> Trace:
    """Record backtracking on ``problem`` until ``solutions`` solutions (0: to the end of
    the tree) or ``max_steps`` steps.

    Parameters
    ----------
    problem : Problem
        Any problem of n <= 64 (the bitboard tables).
    max_steps : int
        The step cap (already checked against memory by the caller).
    solutions : int, default 1
        Stop after this many solutions; 0 searches the whole tree.

    Returns
    -------
    Trace

    Examples
    --------
    >>> t = record_backtrack(Problem(4), 100)
    >>> [s.op for s in t.steps][-1], t.final().tolist()
    ('solution', [1, 3, 0, 2])
    """
    n = problem.n
    if n > BITBOARD_MAX_N:
        raise TooLarge(f"backtracking is traced on the native engine's 64-bit rows: n <= {BITBOARD_MAX_N}, got {n}")
    solutions = validate.whole_number(solutions, "solutions", minimum=0)
    c = compile_problem(problem)
    regions = c.region_masks
    q = np.full(n, -1, np.int64)
    s = np.zeros((4, n + 1), np.uint64)
    rc = np.zeros((n + 1, max(regions.shape[0], 1)), np.int64)
    meta = np.zeros(3, np.int64)
    # EMIT into ``solutions`` rows stops the walk at the last one wanted; COUNT walks to the end
    mode = NK.EMIT if solutions else NK.COUNT
    out = np.empty((max(solutions, 1), n), np.int64)
    opts = np.array([n, n, int(problem.toroidal), mode, 0], np.int64)
    ev = np.empty((max_steps, 3), np.int64)
    _, _, _, emitted = NK.walk(
        c.allowed,
        c.leap_rows,
        c.leap_masks,
        regions,
        c.region_bounds,
        c.region_rest,
        opts,
        np.zeros((0, 3), np.int64),
        s,
        rc,
        q,
        meta,
        out,
        np.zeros(1, np.int64),  # never stopped: a trace is cut by its step cap
        ev,
    )
    complete = meta[1] == NK.DONE or (solutions > 0 and emitted == solutions)
    return Trace("backtrack", problem, None, tuple(decode(ev[: meta[2]])), bool(complete), {"solutions": solutions})
