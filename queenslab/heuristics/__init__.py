"""One solution for large boards: explicit construction, min-conflicts, the
self-correcting search, and the metaheuristics surveyed in the literature.

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
``selfcorrect``    :func:`self_correct` (ronybc's program)     n <= a few thousand
``ga``             :func:`genetic` (N. Gupta, section 2.2)     n <= 8 (improve: ~1000)
``aco``            :func:`ant_colony` (N. Gupta, section 2.3)  n <= 7
=================  ==========================================  ======================

:func:`solve` (``queenslab.solve_large``) dispatches by method name. It is the heuristic
counterpart of :func:`queenslab.solve`, which runs an exact backend (``native``,
``cpsat``, ``sat``, ...) on any problem, variants included; the heuristics solve the
standard problem only, of any size. On the command line the two are ``queenslab solve N
--method M`` and ``queenslab solve N --backend B``.

>>> from queenslab.heuristics import solve, verify
>>> verify(solve(10**5, "minconflicts", seed=1))
True
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import validate
from ..backends import get_backend
from ..backends.registry import exact_backends
from ..errors import QueensError, UnsupportedProblem
from ..native.engine import FIRST_SOLUTION
from ..problem import Problem, as_problem
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

__all__ = [
    "METHODS",
    "EXACT_METHODS",
    "standard_only",
    "default_solver",
    "HEURISTICS",
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

#: Heuristic method name -> function.
HEURISTICS = {
    "construct": construct,
    "minconflicts": min_conflicts,
    "selfcorrect": self_correct,
    "ga": genetic,
    "aco": ant_colony,
}
#: The heuristics, by the names :func:`solve` and ``queenslab solve --method`` take.
METHODS = tuple(HEURISTICS)
#: The exact searches :func:`solve` also takes by an older name, and the backend of
#: :func:`queenslab.solve` each one is (``backtrack`` is the native engine's
#: lexicographically first solution); new code calls ``queenslab.solve(Problem(n),
#: backend=...)``, which also solves the variants.
EXACT_METHODS = {"backtrack": "native", "cpsat": "cpsat", "sat": "sat"}

#: The methods that take a seed.
RANDOMISED = ("minconflicts", "selfcorrect", "ga", "aco", "cpsat")
#: What ``max_steps`` means for each method that takes it (the function's own name).
_MAX_STEPS = {"minconflicts": "max_steps", "selfcorrect": "limit", "ga": "generations", "aco": "iterations"}
#: The methods that take ``restarts``, ``improve`` and ``progress``.
_RESTARTS = ("minconflicts", "selfcorrect")
_PROGRESS = ("minconflicts", "selfcorrect", "ga", "aco")
#: The methods whose search has a practical limit that ``force`` lifts.
_SEARCHES = tuple(EXACT_METHODS)


def default_solver(problem: Problem, force: bool = False) -> tuple[str | None, str | None]:
    """``(backend, method)`` that ``queenslab solve`` runs when neither is given: the
    native backend, as :func:`queenslab.solve` does, except for the standard problem
    beyond the native search's practical limit (the lexicographic search for the first
    solution), where ``construct`` finds a solution of any size at once.

    Examples
    --------
    >>> default_solver(Problem(8)), default_solver(Problem(1000)), default_solver(Problem(1000), force=True)
    (('native', None), (None, 'construct'), ('native', None))
    """
    problem = as_problem(problem)
    if problem.is_standard and not validate.flag(force, "force") and problem.n > FIRST_SOLUTION.largest:
        return None, "construct"
    return "native", None


def standard_only(problem, method: str) -> None:
    """Refuse a Problem with variant constraints for the heuristic ``method``, naming
    the exact backends that solve it.

    Raises
    ------
    UnsupportedProblem
        For a Problem that is not the standard one.

    Examples
    --------
    >>> standard_only(Problem(8), "construct")
    >>> standard_only(Problem(8, toroidal=True), "minconflicts")
    Traceback (most recent call last):
    ...
    queenslab.errors.UnsupportedProblem: minconflicts is a heuristic for the standard n-queens problem only, and 8-queens, toroidal has variant constraints; an exact backend solves it: native (the default), cpsat, ... -- queenslab.solve(problem, backend=B) in Python, queenslab solve N [variant flags] --backend B on the command line
    """
    if isinstance(problem, Problem) and not problem.is_standard:
        names = exact_backends()
        listed = f"{names[0]} (the default), " + ", ".join(names[1:-1]) + f" or {names[-1]}"
        raise UnsupportedProblem(
            f"{method} is a heuristic for the standard n-queens problem only, and {problem.describe()} has "
            f"variant constraints; an exact backend solves it: {listed} -- queenslab.solve(problem, backend=B) "
            "in Python, queenslab solve N [variant flags] --backend B on the command line"
        )


def solve(
    n,
    method: str = "construct",
    *,
    seed: int | None = None,
    max_steps: int | None = None,
    restarts: int | None = None,
    improve: bool = False,
    progress=None,
    force: bool = False,
    **opts,
):
    """One solution of the standard n-queens problem by a heuristic (``queenslab.solve_large``).

    The heuristic counterpart of :func:`queenslab.solve`: ``queenslab.solve(problem,
    backend=B)`` runs an exact backend on any problem, variants included (the default
    ``native`` gives the lexicographically first solution, up to n = 33 without
    ``force``), and returns a tuple; ``solve_large(n, method=M)`` runs a heuristic on the
    standard problem of any size and returns a numpy array. The command line has both:
    ``queenslab solve N --backend B`` and ``queenslab solve N --method M``.

    Parameters
    ----------
    n : int or Problem
        Board size or a standard Problem (a variant is refused, naming the backends that
        solve it).
    method : str
        One of :data:`METHODS`: ``construct`` (the default), ``minconflicts``,
        ``selfcorrect``, ``ga``, ``aco``. The older names of the exact searches
        (:data:`EXACT_METHODS`: ``backtrack`` for the native backend, ``cpsat``, ``sat``)
        are still taken and run ``queenslab.solve(Problem(n), backend=...)``.
    seed : int, optional
        For the randomised methods (:data:`RANDOMISED`; default 0).
    max_steps : int, optional
        The method's budget: min-conflicts steps per try, self-correcting moves per try,
        GA generations, ACO iterations.
    restarts : int, optional
        minconflicts, selfcorrect: further tries after a try runs out of steps.
    improve : bool, default False
        ga: apply the minimal-conflict operator to every child.
    progress : callable, optional
        ``progress(done, total)`` for the iterative heuristics.
    force : bool, default False
        backtrack, cpsat, sat: go ahead beyond the practical limit of the method's
        search (backtrack n <= 33, cpsat n <= 100, sat n <= 80).
    **opts
        Further options of a heuristic's own function (see each one); unknown ones raise.

    Returns
    -------
    numpy.ndarray or None
        0-based columns (int64), or None for n = 2, 3.

    Raises
    ------
    QueensError
        For an unknown method, or an option the method does not take (options are never
        silently ignored); :class:`~queenslab.errors.UnsupportedProblem` for a Problem
        with variant constraints.
    Incomplete
        When a randomised method runs out of its budget.

    Examples
    --------
    >>> solve(8) + 1
    array([2, 4, 6, 8, 3, 1, 7, 5])
    >>> solve(3, "minconflicts") is None
    True
    >>> import queenslab
    >>> np.array_equal(solve(8, "backtrack"), queenslab.solve(Problem(8)))
    True
    """
    if not (isinstance(method, str) and method in (*METHODS, *EXACT_METHODS)):
        raise QueensError(
            f"unknown method {validate.brief(method)}; the heuristics are {', '.join(METHODS)} "
            f"(the exact backends are queenslab.solve(Problem(n), backend=B), B one of {', '.join(exact_backends())})"
        )
    improve = validate.flag(improve, "improve")
    force = validate.flag(force, "force")
    progress = validate.callback(progress)
    given = {
        "seed": seed is not None,
        "max_steps": max_steps is not None,
        "restarts": restarts is not None,
        "improve": improve,
        "force": force,
    }
    takers = {
        "seed": RANDOMISED,
        "max_steps": tuple(_MAX_STEPS),
        "restarts": _RESTARTS,
        "improve": ("ga",),
        "force": _SEARCHES,
    }
    if seed is not None:
        validate.seed(seed)
    if seed is not None and method not in RANDOMISED:
        raise QueensError(f"{method} is deterministic and takes no seed; seeds apply to {', '.join(RANDOMISED)}")
    for opt, on in given.items():
        if on and method not in takers[opt]:
            raise QueensError(f"{opt} does not apply to method {method}; it applies to {', '.join(takers[opt])}")
    if method in EXACT_METHODS:
        if opts:
            raise QueensError(f"{method} does not take option(s) {', '.join(sorted(opts))}")
        problem = n if isinstance(n, Problem) else Problem(check_n(n, method))
        seeded = {"seed": 0 if seed is None else seed} if method == "cpsat" else {}
        if force:
            seeded["force"] = True
        found = get_backend(EXACT_METHODS[method]).solve(problem, **seeded)
        return None if found is None else np.asarray(found, dtype=np.int64)
    standard_only(n, method)
    size = check_n(n, method)
    fn = HEURISTICS[method]
    allowed = set(inspect.signature(fn).parameters) - {"n", "return_stats"}
    unknown = sorted(set(opts) - allowed)
    if unknown:
        raise QueensError(
            f"{method} does not take option(s) {', '.join(unknown)}; it takes {', '.join(sorted(allowed)) or 'none'}"
        )
    if method in RANDOMISED:
        opts["seed"] = 0 if seed is None else seed
    if max_steps is not None:
        opts[_MAX_STEPS[method]] = max_steps
    if restarts is not None:
        opts["restarts"] = restarts
    if improve:
        opts["improve"] = True
    if progress is not None and method in _PROGRESS:
        opts["progress"] = progress
    return fn(size, **opts)
