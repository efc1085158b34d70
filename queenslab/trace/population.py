"""The traces of the population searches: the genetic algorithm's best individual per
generation, and the orbits Zhang and Zhang's orbit search reaches per generation.

* :func:`record_genetic` re-runs :func:`queenslab.heuristics.genetic`'s kernel one
  generation per call (the kernel keeps its population in the caller's arrays and its
  generator in ``rng``, so calls of one generation draw exactly what one long call
  draws) and, after each, writes a ``best`` step: the first individual of the greatest
  fitness -- in the last generation the solution the un-traced function returns.
* :func:`record_orbit_search` runs :func:`queenslab.symmetry.operators.search_orbits` and
  writes an ``orbit`` step for every orbit it reaches, in the order found: the orbit's
  generator, the operator that produced it, and its generation (1 for the orbits step
  1's ``Inc`` finds, one more than its parent's for an orbit ``Mov`` reaches).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np

from .. import limits, validate
from ..heuristics import kernels as HK
from ..heuristics.construct import check_memory, check_n
from ..heuristics.metaheuristics import GENETIC, ga_arrays
from ..heuristics.minconflicts import rng_state
from ..symmetry.operators import ORBIT_SEARCH, search_orbits
from .steps import Step, Trace
from .stream import Chunk, Recording

__all__ = [
    "record_genetic",
    "record_orbit_search",
    "genetic_chunks",
    "orbit_search_chunks",
    "GA_POPULATION",
    "GA_GENERATIONS",
]

#: The defaults of :func:`queenslab.heuristics.genetic`, the search recorded.
GA_POPULATION = 100
GA_GENERATIONS = 10000
_PC = 0.7


def attacking_pairs_of(pop: np.ndarray) -> np.ndarray:
    """Attacking pairs of every individual of ``pop`` (rows: the line of each column's queen).

    Examples
    --------
    >>> attacking_pairs_of(np.array([[1, 3, 0, 2], [0, 1, 2, 3]])).tolist()
    [0, 6]
    """
    size, n = pop.shape
    k = np.arange(n)
    offset = (np.arange(size) * (2 * n))[:, None]
    total = np.zeros(size, np.int64)
    for line in (pop, k - pop + n - 1, k + pop):
        counts = np.bincount((line + offset).ravel(), minlength=size * 2 * n).reshape(size, 2 * n)
        total += (counts * (counts - 1) // 2).sum(axis=1)
    return total


def record_genetic(problem, seed: int, max_steps: int) -> Trace:
    """Record the genetic algorithm (population 100, up to 10000 generations, ``pc`` 0.7,
    ``pm`` 1/n): one ``best`` step per generation, generation 0 the random start.

    Examples
    --------
    >>> from queenslab import Problem
    >>> from queenslab.heuristics import genetic
    >>> t = record_genetic(Problem(6), 2, 10**4)
    >>> t.final().tolist() == genetic(6, seed=2).tolist()
    True
    """
    return Recording("ga", problem, seed, {}, genetic_chunks(problem, seed, max_steps)).run()


def _best(step: Step) -> Chunk:
    return Chunk((step,), np.array(step.board, np.int64))


def genetic_chunks(problem, seed: int, max_steps: int) -> Generator[Chunk, None, bool]:
    """The genetic algorithm, a chunk per generation (the board and its limits are
    checked at once, not when the generator first runs)."""
    n = check_n(problem, GENETIC.name)
    limits.check(GENETIC, n, hint="use construct or minconflicts for large boards")
    size = GA_POPULATION
    check_memory(n, GENETIC.name, 2 * size * n * 8 + 16 * size + 64 * n)
    return _generations(n, seed, max_steps)


def _generations(n: int, seed: int, max_steps: int) -> Generator[Chunk, None, bool]:
    if n in (2, 3):
        return True
    if n == 1:
        yield _best(Step("best", col=0, board=(0,)))
        return True
    rng = rng_state(seed)
    arrays = ga_arrays(n, GA_POPULATION, rng)
    pop, out = arrays[0], arrays[-1]

    def best(generation: int) -> Step:
        i = int(np.argmin(attacking_pairs_of(pop)))  # the first of the fewest pairs: the greatest fitness
        return Step("best", col=generation, board=tuple(pop[i].tolist()))

    yield _best(best(0))
    steps = 1
    generation = 0
    while True:
        i = HK.genetic(n, 1, _PC, 1.0 / n, False, rng, *arrays)
        if int(out[0]) > generation:  # one generation more was bred
            generation = int(out[0])
            if steps == max_steps:
                return False
            yield _best(best(generation))
            steps += 1
        if i >= 0 or generation >= GA_GENERATIONS:
            return True


def _document(operation: Any) -> str:
    """An orbit operator (Inc or Mov) in Zhang and Zhang's notation."""
    return str(operation.document())


def record_orbit_search(problem, max_steps: int, *, strategy: str = "bfs", force: bool = False) -> Trace:
    """Record Zhang and Zhang's orbit search on the standard problem: one ``orbit`` step
    per orbit reached.

    Examples
    --------
    >>> from queenslab import Problem
    >>> t = record_orbit_search(Problem(6), 100)
    >>> [(s.op, s.col, s.operator) for s in t.steps]
    [('orbit', 1, 'Inc(0.5, 3.5)')]
    """
    chunks = orbit_search_chunks(problem, max_steps, strategy=strategy, force=force)
    return Recording("orbit-search", problem, None, {"strategy": strategy}, chunks).run()


def orbit_search_chunks(
    problem, max_steps: int, *, strategy: str = "bfs", force: bool = False
) -> Generator[Chunk, None, bool]:
    """The orbit search's orbits in one chunk, when the search ends (it hands out no
    orbit while it runs); the board and its limit are checked at once."""
    n = check_n(problem, "the orbit search")
    validate.choice(strategy, ("bfs", "dfs"), "strategy")
    force = validate.flag(force, "force")
    limits.check(ORBIT_SEARCH, n, force)
    return _orbits(n, max_steps, strategy, force)


def _orbits(n: int, max_steps: int, strategy: str, force: bool) -> Generator[Chunk, None, bool]:
    search = search_orbits(n, strategy=strategy, force=force)
    generation: list[int] = []
    steps: list[Step] = []
    for d in search.discoveries:
        generation.append(1 if d.parent is None else generation[d.parent] + 1)
        if len(steps) < max_steps:
            steps.append(Step("orbit", col=generation[-1], board=d.generator, operator=_document(d.operation)))
    if steps:
        yield Chunk(tuple(steps), np.array(steps[-1].board, np.int64))
    return len(steps) == len(search.discoveries)
