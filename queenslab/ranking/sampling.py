"""Uniform random solutions: unrank uniform random integers in ``[0, count)``.

Every solution has probability exactly ``1 / count``: the rank is drawn with
:meth:`random.Random.randrange` (exact for big integers) from a generator seeded with
``seed``, and :func:`~queenslab.ranking.lex.unrank` is a bijection onto the solutions.
Draws are independent (with replacement) unless ``distinct=True``, which draws without
replacement (a drawn rank is drawn again until it is new; k can then be at most the
number of solutions).

:func:`iter_samples` streams the draws one by one (so a large ``k`` starts printing at
once and holds nothing in memory); :func:`sample` and :func:`sample_ranks` collect them.
The same seed gives the same ranks whichever of them is used.

Every sample is a walk down the prefix tree that counts subtrees: more than
:data:`SAMPLES` of them are refused unless ``force`` (:func:`sample_ranks`, which
unranks nothing, is not limited).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .. import interrupt, limits, validate
from ..errors import QueensError
from ..problem import Problem
from .lex import open_index
from .walk import check_problem, check_size, total, unrank_walk

__all__ = ["SAMPLES", "iter_samples", "sample", "sample_ranks"]

#: The practical limit of :func:`iter_samples` and :func:`sample`: each sample unranks a
#: solution, counting subtrees. Measured without an index on 2 cores: 10,000 samples of
#: n = 8 in 3 s, 1,000 of n = 12 in 7 s, 100 of n = 16 in over 3 minutes.
SAMPLES = limits.declare(
    "drawing random solutions",
    10_000,
    "samples",
    "each sample unranks a solution by counting subtrees: 10,000 of n = 8 take 3 s, 1,000 of n = 12 seven, "
    "100 of n = 16 minutes; 100 million would take hours to years",
)


def iter_samples(
    problem: Problem,
    k: int,
    *,
    seed: int | None = 0,
    index="auto",
    threads: int | None = None,
    distinct: bool = False,
    force: bool = False,
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Stream ``k`` exactly uniform random solutions with their ranks, as drawn.

    The arguments are checked (and the index opened, the total found) when this is
    called, before the first draw.

    Parameters
    ----------
    problem : Problem
        An ``int`` is refused (write ``Problem(n)``).
    k : int
        How many (``k >= 0``; with ``distinct``, at most the number of solutions).
    seed : int or None, default 0
        The same seed gives the same sample.
    index : "auto", None/False, path or PrefixIndex
        As for :func:`~queenslab.ranking.lex.unrank`.
    threads : int, optional
        Threads for subtree counting without an index.
    distinct : bool, default False
        Draw without replacement (every solution at most once).
    force : bool, default False
        Sample without an index even for ``n > PRACTICAL_LIMIT``, and draw more than
        :data:`SAMPLES` samples.

    Yields
    ------
    (int, tuple of int)
        The 0-based rank and the 0-based solution.

    Raises
    ------
    QueensError
        For a bad ``k`` or ``seed``, ``k > 0`` on a problem without solutions, or
        ``distinct`` with ``k`` above the number of solutions.
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without an index, or ``k`` above :data:`SAMPLES`,
        without ``force``.

    Examples
    --------
    >>> [(r, s) for r, s in iter_samples(Problem(4), 2, seed=3, distinct=True, index=None)]
    [(0, (1, 3, 0, 2)), (1, (2, 0, 3, 1))]
    """
    idx, size, k, seed, distinct = _prepare(problem, k, seed, index, threads, distinct, force, unranked=True)
    return _draws(problem, k, seed, idx, size, threads, distinct)


def _prepare(problem, k, seed, index, threads, distinct, force, *, unranked: bool):
    check_problem(problem)
    k = validate.whole_number(k, "k", minimum=0)
    seed = validate.optional_whole_number(seed, "seed", minimum=-(2**63))
    distinct = validate.flag(distinct, "distinct")
    force = validate.flag(force, "force")
    if unranked:
        limits.check(
            SAMPLES,
            k,
            force,
            hint="draw fewer (the same seed draws the same first samples), or only their ranks (sample_ranks)",
            request=f"drawing {k:,} random solutions",
        )
    idx = open_index(problem, index)
    if idx is None:
        check_size(problem, force, "sampling (unranking) without an index")
    size = idx.total if idx is not None else total(problem, threads=threads)
    if size == 0 and k:
        raise QueensError(f"{problem.describe()} has no solutions to sample")
    if distinct and k > size:
        raise QueensError(
            f"cannot draw {k} distinct solutions of {problem.describe()}: it has only {size}; "
            f"sampling without replacement allows k <= {size} (or draw with replacement: distinct=False, "
            "no --distinct)"
        )
    return idx, size, k, seed, distinct


#: Memory of one rank in a list (a Python int of up to 64 bits and its pointer); a
#: solution adds a tuple of n small ints.
_BYTES_PER_RANK = 40


def _ranks(size: int, k: int, seed: int | None, distinct: bool) -> Iterator[int]:
    rng = random.Random(seed)
    seen: set[int] = set()
    for _ in range(k):
        interrupt.check()
        r = rng.randrange(size)
        if distinct:
            while r in seen:
                r = rng.randrange(size)
            seen.add(r)
        yield r


def _draws(problem, k, seed, idx, size, threads, distinct) -> Iterator[tuple[int, tuple[int, ...]]]:
    for r in _ranks(size, k, seed, distinct):
        yield r, (idx.unrank(r) if idx is not None else interrupt.run(unrank_walk, problem, r, size, [], threads))


def sample_ranks(
    problem: Problem,
    k: int,
    *,
    seed: int | None = 0,
    index="auto",
    threads=None,
    distinct: bool = False,
    force: bool = False,
) -> list[int]:
    """``k`` uniform ranks in ``[0, count)`` (independent, or with ``distinct`` all
    different), the ranks :func:`iter_samples` draws; nothing is unranked.

    Parameters are as for :func:`iter_samples`.

    Examples
    --------
    >>> sample_ranks(Problem(8), 3, seed=1, index=None)
    [17, 72, 8]
    """
    _, size, k, seed, distinct = _prepare(problem, k, seed, index, threads, distinct, force, unranked=False)
    validate.memory(k * _BYTES_PER_RANK, f"a list of {k} ranks", "draw fewer, or stream them with iter_samples")
    return list(_ranks(size, k, seed, distinct))


def sample(
    problem: Problem,
    k: int,
    *,
    seed: int | None = 0,
    index="auto",
    threads=None,
    distinct: bool = False,
    force: bool = False,
) -> list[tuple[int, ...]]:
    """``k`` exactly uniform random solutions (0-based tuples), collected from
    :func:`iter_samples` (see there for the parameters and the limit :data:`SAMPLES`;
    for a large ``k`` stream them with it instead).

    Examples
    --------
    >>> s = sample(Problem(8), 3, seed=1, index=None)
    >>> s == sample(Problem(8), 3, seed=1, index=None), len(s)
    (True, 3)
    """
    draws = iter_samples(problem, k, seed=seed, index=index, threads=threads, distinct=distinct, force=force)
    k = validate.whole_number(k, "k", minimum=0)  # checked by iter_samples
    validate.memory(
        k * (_BYTES_PER_RANK + 8 * problem.n + 56),
        f"a list of {k} solutions of n = {problem.n}",
        "draw fewer, or stream them with iter_samples (queenslab sample streams them)",
    )
    return [s for _, s in draws]
