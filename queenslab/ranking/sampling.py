"""Uniform random solutions: unrank uniform random integers in ``[0, count)``.

Every solution has probability exactly ``1 / count``: the rank is drawn with
:meth:`random.Random.randrange` (exact for big integers) from a generator seeded with
``seed``, and :func:`~queenslab.ranking.lex.unrank` is a bijection onto the solutions.
"""

from __future__ import annotations

import random

from .. import validate
from ..errors import QueensError
from ..problem import Problem
from .lex import _open_index, total, unrank

__all__ = ["sample", "sample_ranks"]


def sample_ranks(problem: Problem, k: int, *, seed: int | None = 0, index="auto", threads=None) -> list[int]:
    """``k`` independent uniform ranks in ``[0, count)`` (with replacement)."""
    k = validate.whole_number(k, "k", minimum=0)
    seed = validate.optional_whole_number(seed, "seed", minimum=-(2**63))
    idx = _open_index(problem, index)
    size = idx.total if idx is not None else total(problem, threads=threads)
    if size == 0 and k:
        raise QueensError(f"{problem.describe()} has no solutions to sample")
    rng = random.Random(seed)
    return [rng.randrange(size) for _ in range(k)]


def sample(problem: Problem, k: int, *, seed: int | None = 0, index="auto", threads=None) -> list[tuple[int, ...]]:
    """``k`` independent, exactly uniform random solutions (0-based tuples).

    Parameters
    ----------
    problem : Problem
    k : int
        How many (drawn with replacement).
    seed : int or None
        The same seed gives the same sample.
    index, threads
        As for :func:`~queenslab.ranking.lex.unrank`.

    Examples
    --------
    >>> s = sample(Problem(8), 3, seed=1, index=None)
    >>> s == sample(Problem(8), 3, seed=1, index=None), len(s)
    (True, 3)
    """
    idx = _open_index(problem, index)
    ranks = sample_ranks(problem, k, seed=seed, index=idx if idx is not None else None, threads=threads)
    return [unrank(problem, r, index=idx if idx is not None else None, threads=threads) for r in ranks]
