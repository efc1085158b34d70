"""One solution for large boards: explicit construction, min-conflicts, the
self-correcting search, and the metaheuristics surveyed in the documents.

Every method takes the board size ``n`` (or a standard Problem) and returns one solution
as a 1-D int64 numpy array of 0-based columns (``p[r]`` is the column of row ``r``), or
None for n = 2 and n = 3, which have no solution. Randomised methods take a ``seed`` (the
same seed gives the same solution) and raise :class:`~queenslab.errors.Incomplete` when
their budget runs out. :func:`verify` checks any placement in O(n).

=================  ==========================================  ======================
method             function                                    practical range
=================  ==========================================  ======================
``construct``      :func:`construct` (n mod 6 case analysis)   any n (10**7: < 1 s)
``minconflicts``   :func:`min_conflicts`                       10**6 in < 1 s
``selfcorrect``    :func:`self_correct` (document 002)         n <= a few thousand
``ga``             :func:`genetic` (document 000, 2.2)         n <= 8 (improve: ~1000)
``aco``            :func:`ant_colony` (document 000, 2.3)      n <= 7
=================  ==========================================  ======================

>>> from queenslab.heuristics import solve, verify
>>> verify(solve(10**5, "minconflicts", seed=1))
True
"""

from __future__ import annotations

from .construct import (
    check_n,
    construct,
    extend,
    extension_pattern,
    extension_pattern_works,
    find_conflict,
    verify,
)
from .metaheuristics import ant_colony, genetic
from .minconflicts import min_conflicts
from .selfcorrect import self_correct
from ..errors import QueensError

__all__ = [
    "METHODS",
    "RANDOMISED",
    "solve",
    "construct",
    "min_conflicts",
    "self_correct",
    "genetic",
    "ant_colony",
    "verify",
    "find_conflict",
    "extend",
    "extension_pattern",
    "extension_pattern_works",
    "check_n",
]

#: Method name -> function.
METHODS = {
    "construct": construct,
    "minconflicts": min_conflicts,
    "selfcorrect": self_correct,
    "ga": genetic,
    "aco": ant_colony,
}

#: The methods that take a seed.
RANDOMISED = ("minconflicts", "selfcorrect", "ga", "aco")


def solve(n, method: str = "construct", *, seed: int | None = None, **opts):
    """One solution of n-queens by a heuristic method.

    Parameters
    ----------
    n : int or Problem
        Board size or a standard Problem.
    method : {"construct", "minconflicts", "selfcorrect", "ga", "aco"}
    seed : int, optional
        For the randomised methods (default 0); refused by ``construct``.
    **opts
        Passed to the method's function (see each one); unknown options raise.

    Returns
    -------
    numpy.ndarray or None
        0-based columns (int64), or None for n = 2, 3.

    Raises
    ------
    QueensError
        For an unknown method or an option the method does not take.

    Examples
    --------
    >>> solve(8) + 1
    array([2, 4, 6, 8, 3, 1, 7, 5])
    >>> solve(3, "minconflicts") is None
    True
    """
    if method not in METHODS:
        raise QueensError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    fn = METHODS[method]
    if seed is not None:
        if method not in RANDOMISED:
            raise QueensError(f"{method} is deterministic and takes no seed; seeds apply to {', '.join(RANDOMISED)}")
        opts["seed"] = seed
    import inspect

    allowed = set(inspect.signature(fn).parameters) - {"n"}
    unknown = sorted(set(opts) - allowed)
    if unknown:
        raise QueensError(
            f"{method} does not take option(s) {', '.join(unknown)}; it takes {', '.join(sorted(allowed)) or 'none'}"
        )
    return fn(n, **opts)
