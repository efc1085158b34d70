"""Record a search by name: :func:`record`, its step cap and the cap's memory estimate."""

from __future__ import annotations

from .. import validate
from ..errors import QueensError, UnsupportedProblem, setting
from ..problem import Problem, as_problem
from .steps import METHODS, Trace
from .stream import Recording

__all__ = ["record", "recording", "DEFAULT_MAX_STEPS", "VARIANT_METHODS", "RANDOMISED", "memory_estimate", "check_cap"]

#: The step cap when none is given.
DEFAULT_MAX_STEPS = 100_000
#: The methods that trace any variant (the others solve the standard problem only).
VARIANT_METHODS = ("backtrack",)
#: The methods that take a seed.
RANDOMISED = ("selfcorrect", "minconflicts", "ga")
#: Bytes a step takes in memory (the kernel's event row, the Step, its integers), and per
#: queen of a step that sets the whole board -- measured with tracemalloc, rounded up.
STEP_BYTES = 240
BOARD_BYTES_PER_QUEEN = 40


def memory_estimate(method: str, n: int, max_steps: int) -> int:
    """Bytes a trace of at most ``max_steps`` steps may take in memory.

    Every step of the genetic algorithm and of the orbit search sets the whole board; the
    other methods set it once per try.

    Examples
    --------
    >>> memory_estimate("backtrack", 8, 1000)
    240000
    """
    if not (isinstance(method, str) and method in METHODS):
        raise QueensError(f"unknown method {validate.brief(method)}; the methods traced are {', '.join(METHODS)}")
    n = validate.whole_number(n, "n", minimum=1)
    max_steps = validate.whole_number(max_steps, "max_steps", minimum=1)
    tries = {"backtrack": 0, "selfcorrect": 1001, "minconflicts": 101}  # their default restarts + 1
    boards = min(max_steps, tries.get(method, max_steps))
    return max_steps * STEP_BYTES + boards * n * BOARD_BYTES_PER_QUEEN


def check_cap(method: str, n: int, max_steps: object) -> int:
    """The step cap ``max_steps`` (an integer >= 1), refused up front when the trace could
    outgrow the memory available.

    Raises
    ------
    QueensError
        Not an integer >= 1.
    TooLarge
        Naming the memory the cap may need and the memory available.
    """
    cap = validate.whole_number(max_steps, "max_steps", minimum=1)
    validate.memory(
        memory_estimate(method, n, cap),
        f"a trace of {method} for n = {n} with a cap of {cap} steps",
        f"give a smaller step cap: {setting('max_steps=K', '--max-steps K')}",
    )
    return cap


def _refuse_variant(problem: Problem, method: str) -> None:
    if not problem.is_standard and method not in VARIANT_METHODS:
        raise UnsupportedProblem(
            f"{method} is traced on the standard n-queens problem only, and {problem.describe()} has variant "
            f"constraints; the methods that trace a variant: {', '.join(VARIANT_METHODS)}"
        )


def record(
    problem,
    method: str = "backtrack",
    *,
    seed: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    solutions: int = 1,
    strategy: str = "bfs",
    force: bool = False,
) -> Trace:
    """Record a search: the steps the package's own algorithm takes, in order.

    Parameters
    ----------
    problem : int or Problem
        The board size or the problem (a variant for ``backtrack`` only).
    method : str
        One of :data:`~queenslab.trace.steps.METHODS`: ``backtrack`` (the native engine's
        lexicographic search), ``selfcorrect`` (the self-correcting Queens program's search),
        ``minconflicts``, ``ga`` (the genetic algorithm's best individual per generation),
        ``orbit-search`` (Zhang and Zhang's orbit search, an orbit per step).
    seed : int, optional
        For ``selfcorrect``, ``minconflicts`` and ``ga`` (default 0): the same seed gives
        the same trace, and the trace ends on the board ``queenslab.solve_large(n,
        method, seed=seed)`` returns.
    max_steps : int, default 100000
        The step cap: the trace stops there (``complete`` is then False). Refused up
        front when the trace could outgrow the memory available.
    solutions : int, default 1
        ``backtrack``: stop after this many solutions (0: search the whole tree).
    strategy : {"bfs", "dfs"}
        ``orbit-search``: the order of its step 2.
    force : bool, default False
        Go ahead beyond the method's practical limit (selfcorrect, orbit-search).

    Returns
    -------
    Trace

    Raises
    ------
    UnsupportedProblem
        A variant for a method that solves the standard problem only (the message names
        the methods that trace variants).
    QueensError
        An unknown method, a seed for a deterministic one, an option of another method,
        a bad cap; ``TooLarge`` for a cap beyond memory or a board beyond the method.

    Examples
    --------
    >>> t = record(8, "minconflicts", seed=1)
    >>> t.steps[0].op, t.complete, t.solved
    ('start', True, True)
    """
    return recording(
        problem, method, seed=seed, max_steps=max_steps, solutions=solutions, strategy=strategy, force=force
    ).run()


def recording(
    problem,
    method: str = "backtrack",
    *,
    seed: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    solutions: int = 1,
    strategy: str = "bfs",
    force: bool = False,
    chunk: int | None = None,
) -> Recording:
    """Start recording a search, to take its steps chunk by chunk while it runs.

    The arguments are :func:`record`'s, checked at once (a bad request raises here, not
    while iterating); iterating the :class:`~queenslab.trace.stream.Recording` runs the
    search a chunk at a time, and its ``trace()`` is then the trace :func:`record`
    returns for the same arguments.

    Parameters
    ----------
    chunk : int, optional
        ``backtrack``: the most steps per chunk (>= 2; default 65,536, the walk's own
        calls). The other methods deliver a try, a generation, or (the orbit search) all
        their steps at the end per chunk (see :mod:`queenslab.trace.stream`).

    Returns
    -------
    Recording

    Examples
    --------
    >>> rec = recording(8, "ga", seed=1)
    >>> first = next(iter(rec))
    >>> first.steps[0].op, first.steps[0].col
    ('best', 0)
    """
    if not (isinstance(method, str) and method in METHODS):
        raise QueensError(f"unknown method {validate.brief(method)}; the methods traced are {', '.join(METHODS)}")
    problem = as_problem(problem) if isinstance(problem, Problem) else Problem(validate.whole_number(problem, "n"))
    _refuse_variant(problem, method)
    if seed is not None and method not in RANDOMISED:
        raise QueensError(f"{method} is deterministic and takes no seed; seeds apply to {', '.join(RANDOMISED)}")
    if solutions != 1 and method != "backtrack":
        raise QueensError("solutions applies to backtrack only: the other searches stop at their first solution")
    validate.choice(strategy, ("bfs", "dfs"), "strategy")
    if strategy != "bfs" and method != "orbit-search":
        raise QueensError("strategy applies to orbit-search only")
    force = validate.flag(force, "force")
    if chunk is not None and method != "backtrack":
        raise QueensError("chunk applies to backtrack only: the other searches deliver a try or a generation at a time")
    cap = check_cap(method, problem.n, max_steps)
    if method == "backtrack":
        from .backtrack import backtrack_chunks

        solutions = validate.whole_number(solutions, "solutions", minimum=0)
        chunks = backtrack_chunks(problem, cap, solutions, chunk)
        return Recording(method, problem, None, {"solutions": solutions}, chunks)
    if method == "orbit-search":
        from .population import orbit_search_chunks

        chunks = orbit_search_chunks(problem, cap, strategy=strategy, force=force)
        return Recording(method, problem, None, {"strategy": strategy}, chunks)
    value = validate.seed(0 if seed is None else seed)
    if method == "selfcorrect":
        from .local import self_correct_chunks

        chunks = self_correct_chunks(problem, value, cap, force=force)
    elif method == "minconflicts":
        from .local import min_conflicts_chunks

        chunks = min_conflicts_chunks(problem, value, cap)
    else:
        from .population import genetic_chunks

        chunks = genetic_chunks(problem, value, cap)
    return Recording(method, problem, value, {}, chunks)
