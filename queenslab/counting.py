"""A count as the command line asks for it, decided here: one call per question.

``queenslab count`` answers several questions with one set of options: a count on a
backend, the orbits broken down by size (``classes``), a count split into tasks recorded
in a ledger or run on a Dask cluster (``ledger``, ``dask``, ``verify``), and a range of
board sizes. Each is a library call here, with the command's option names, so that a
Python user can do whatever the command line does and the command line only speaks:

* :func:`counts` -- one problem: ``counts(problem, unique=True, classes=True)``,
  ``counts(problem, ledger="q17.sqlite", dask="local:2")``, ``counts(problem, backend="cpsat")``;
  it returns a :class:`~queenslab.result.CountResult`, as ``queenslab.counts`` does (``queenslab.count``
  is the number alone);
* :func:`count_range` -- every size from ``first`` to ``last`` of one variant, each
  checked up front as its largest would be, built one at a time as it is counted;
* :func:`check_range` -- the range's bounds alone, before anything is built.

Which backend can do what is asked of the backend itself (:meth:`Backend.check_reach`,
:meth:`Backend.can_split`), never of its name.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from . import interrupt, validate
from .backends.registry import get_backend
from .errors import QueensError, TooLarge, UnsupportedProblem, setting
from .problem import Problem, as_problem
from .result import CountResult

__all__ = ["counts", "count_range", "check_range", "MAX_N"]

#: The largest board of a range: a bitboard row is a 64-bit integer (the native engine's
#: representation), and counting is out of reach long before.
MAX_N = 64


def counts(
    problem: Problem,
    *,
    unique: bool = False,
    classes: bool = False,
    backend: str = "native",
    ledger: Any = None,
    dask: Any = None,
    verify: int = 0,
    verify_method: str = "task",
    progress: Callable[[int, int], None] | None = None,
    **opts: Any,
) -> CountResult:
    """Count ``problem`` as ``queenslab count`` does, with the same option names.

    Parameters
    ----------
    problem : Problem
    unique : bool, default False
        Count the orbits too.
    classes : bool, default False
        Break the orbits down by size (``result.classes``): the native backend's search
        classifies them as it counts; not with a split count.
    backend : str, default "native"
        A registered backend; its options go in ``opts``.
    ledger : path, optional
        Split the count into tasks and record each finished one in this file (resumable).
        The split is the ledger's own when it holds one, else the one of the method a
        single-process count would choose (the half-board join's slices for the
        standard problem from n = 14); the option ``method`` asks for another
        (:func:`queenslab.distributed.count`).
    dask : str, optional
        Run the split's tasks on a Dask cluster (``local:K`` or a scheduler's address).
    verify, verify_method
        Recompute ``verify`` recorded tasks of a split count, by the task's own method or
        by the general search.
    progress : callable, optional
        ``progress(done, total)``, where the backend or the split reports progress.

    Returns
    -------
    CountResult
        With ``classes`` filled when asked for; a split count's result is a
        :class:`~queenslab.distributed.DistributedResult` (tasks, ledger, workers, checks).

    Raises
    ------
    QueensError
        For a question the backend cannot answer (``classes`` or a split on a backend
        without them), options it does not take, or ``verify`` without a split.

    Examples
    --------
    >>> r = counts(Problem(8), unique=True, classes=True)
    >>> r.count, r.unique, r.classes
    (92, 12, {1: 0, 2: 0, 4: 1, 8: 11})
    """
    problem = as_problem(problem)
    unique = validate.flag(unique, "unique")
    classes = validate.flag(classes, "classes")
    be = get_backend(backend)
    split = ledger is not None or dask is not None
    if verify and not split:
        raise QueensError(
            "verify recomputes tasks recorded in a ledger: give "
            f"{setting('ledger=FILE', '--ledger FILE')} or {setting('dask=ADDRESS', '--dask ADDRESS')}"
        )
    if classes and split:
        raise QueensError("classes counts in this process; a ledger or dask splits the count: drop one of them")
    if classes and not be.can_classify:
        raise UnsupportedProblem(
            f"classes breaks down a count by orbit size as it searches, which the {be.name} backend does not do; "
            "use the native backend (other backends count orbits with unique)"
        )
    if split:
        if not be.can_split:
            raise UnsupportedProblem(
                f"a ledger or dask splits a count into the native engine's tasks; the {be.name} backend's count "
                "cannot be split: use the native backend"
            )
        # method chooses the split (the ledger's own, by default): symmetric, general or join
        unknown = sorted(set(opts) - {"threads", "force", "method"})
        if unknown:
            raise QueensError(f"a split count takes threads, force and method; not {', '.join(unknown)}")
        from . import distributed  # loads the engine (numba): kept out of `queenslab count --help`

        return distributed.count(
            problem,
            unique=unique,
            ledger=ledger,
            dask=dask,
            verify=verify,
            verify_method=verify_method,
            progress=progress,
            **opts,
        )
    if progress is not None and be.option("progress") is not None:
        opts["progress"] = progress
    if not classes:
        return be.counts(problem, unique=unique, **opts)
    t0 = time.perf_counter()
    res = interrupt.run(be.count_classes, problem, **be.check_options(opts))
    return replace(res, seconds=time.perf_counter() - t0, note=res.note or problem.contradiction)


def check_range(first: int, last: int) -> tuple[int, int]:
    """``(first, last)`` if they make a range of board sizes a count can take.

    Raises
    ------
    QueensError
        For an empty range or a size below 1.
    TooLarge
        For a size beyond :data:`MAX_N`.
    """
    first = validate.whole_number(first, "the range's first size", minimum=1)
    last = validate.whole_number(last, "the range's last size", minimum=1)
    if first > last:
        raise QueensError(f"the range {first}..{last} is empty (reversed): give A..B with A <= B")
    if last > MAX_N:
        raise TooLarge(
            f"the range {first}..{last} goes beyond n = {MAX_N}, the largest board the engine represents (a "
            f"bitboard row is a 64-bit integer; counting is out of reach long before); give a range with B <= {MAX_N}"
        )
    return first, last


def count_range(
    variant: Callable[[int], Problem],
    first: int,
    last: int,
    *,
    unique: bool = False,
    classes: bool = False,
    backend: str = "native",
    progress: Callable[[int, int], None] | None = None,
    **opts: Any,
) -> Iterator[tuple[Problem, CountResult]]:
    """Count the problem ``variant(k)`` of every size ``k`` from ``first`` to ``last``.

    The whole range is checked before the first count, as a count of its largest size
    would be (a range that ends beyond a practical limit is refused up front, unless
    ``force``); each problem is built when it is counted, so memory stays constant.

    Yields
    ------
    (Problem, CountResult)
        In order of size.

    Examples
    --------
    >>> [(p.n, r.count) for p, r in count_range(Problem, 4, 6)]
    [(4, 2), (5, 10), (6, 4)]
    """
    first, last = check_range(first, last)
    be = get_backend(backend)
    top = as_problem(variant(last), "the range's largest problem")
    be.check_reach(top, **opts)

    def each() -> Iterator[tuple[Problem, CountResult]]:
        for k in range(first, last + 1):
            p = top if k == last else as_problem(variant(k))
            yield p, counts(p, unique=unique, classes=classes, backend=backend, progress=progress, **opts)

    return each()
