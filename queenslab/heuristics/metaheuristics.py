"""The metaheuristics surveyed in N. Gupta's ranking paper, for comparative experiments at small n.

* :func:`genetic` -- the genetic algorithm of section 2.2 (after Aghazadeh Heris and
  Asgari Oskoei): candidates are vectors of n lines (the queen of column k on line
  ``x[k]``; lines may repeat), fitness ``f = n(n-1)/2 - attacking pairs``, each generation
  a selection phase (roulette wheel, ``P_i = f_i / sum f``, then the intermediate
  population is shuffled) and a recombination phase (one-point crossover of pairs with
  probability ``pc``, then every gene mutates with probability ``pm``). ``improve=True``
  adds the section's minimal-conflict operator to every child (the "modified" GA).
* :func:`ant_colony` -- the ant colony optimisation of section 2.3 (after Khan et al.):
  the search graph has n columns of the n*n cells; an ant walks through the columns left
  to right choosing one cell per column, never one it has chosen before, with probability
  ``tau**alpha * eta**beta / sum(...)`` where ``eta = 1 / (1 + contradictions)``;
  ``alpha`` and ``beta`` are drawn in [0, 2) unless given; pheromone is deposited
  according to the fitness (queens not attacked) and evaporates by subtracting a small
  constant after every iteration.

Both run in numba kernels, take a ``seed``, stop at the first solution and raise
:class:`~queenslab.errors.Incomplete` when their budget runs out. They are far slower
than min-conflicts: their purpose is to measure what the survey describes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import limits, validate
from ..errors import QueensError, setting
from . import kernels as K
from .construct import check_memory, check_n
from .minconflicts import positive_int, rng_state, run_until, trivial

__all__ = ["genetic", "ant_colony", "GA_MAX_N", "ACO_MAX_N"]

#: The board sizes of :func:`genetic`, a method kept for comparisons at small n (each
#: generation costs population x n, or x n**2 with improve). A hard limit: no force.
GENETIC = limits.declare(
    "the genetic algorithm",
    1000,
    "n",
    "a method for comparisons at small n: each generation costs population x n (x n**2 with improve)",
    forceable=False,
)
GA_MAX_N = GENETIC.largest
#: The board sizes of :func:`ant_colony` (its pheromone has (n-1) * n**4 edges: 61 MB at n = 24).
ANT_COLONY = limits.declare(
    "ant colony optimisation", 24, "n", "its pheromone has (n-1) * n**4 edges: 61 MB at n = 24", forceable=False
)
ACO_MAX_N = ANT_COLONY.largest

_CHUNK = 50  # generations / iterations per kernel call (progress, Ctrl-C)


def _probability(value, what: str) -> float:
    return validate.real(value, what, minimum=0.0, maximum=1.0)


def _nonneg(value, what: str, *, positive: bool = False) -> float:
    return validate.real(value, what, minimum=0.0, open_minimum=positive)


def _check_size(n, limit: limits.Limit) -> int:
    """The board size ``n`` (:func:`~.construct.check_n`), within the method's ``limit``."""
    n = check_n(n, limit.name)
    limits.check(limit, n, hint="use construct or minconflicts for large boards")
    return n


def genetic(
    n,
    *,
    seed: int = 0,
    population: int = 100,
    generations: int = 10000,
    pc: float = 0.7,
    pm: float | None = None,
    improve: bool = False,
    progress: Callable[[int, int], None] | None = None,
    return_stats: bool = False,
):
    """One solution by N. Gupta's genetic algorithm (roulette wheel, one-point crossover, mutation).

    Parameters
    ----------
    n : int or Problem
        Board size, 1 <= n <= :data:`GA_MAX_N`, or a standard Problem.
    seed : int, default 0
        The same seed gives the same result.
    population : int, default 100
        Candidates per generation (>= 2).
    generations : int, default 10000
        Generations before giving up.
    pc : float, default 0.7
        Crossover probability of a pair.
    pm : float, optional
        Mutation probability of a gene; default ``1 / n``.
    improve : bool, default False
        Apply the minimal-conflict operator to every child (section 2.2's modified GA).
    progress : callable, optional
        Called as ``progress(generations_done, generations)`` now and then.
    return_stats : bool
        Also return a dict with ``generations`` (run before the solution was found).

    Returns
    -------
    numpy.ndarray or None
        The 0-based columns (int64) of a solution; None for n = 2 and n = 3.
        With ``return_stats``, a tuple ``(placement, stats)``.

    Raises
    ------
    Incomplete
        If no solution appeared within ``generations``.
    TooLarge
        For n > :data:`GA_MAX_N`.
    QueensError
        On other invalid arguments.

    Examples
    --------
    >>> from queenslab.heuristics.construct import verify
    >>> verify(genetic(8, seed=1))
    True
    """
    n = _check_size(n, GENETIC)
    rng = rng_state(seed)
    population = positive_int(population, "population")
    if population < 2:
        raise QueensError(f"population must be at least 2, got {population}")
    generations = positive_int(generations, "generations", zero=True)
    pc = _probability(pc, "pc")
    pm = 1.0 / n if pm is None else _probability(pm, "pm")
    improve = validate.flag(improve, "improve")
    progress = validate.callback(progress)
    return_stats = validate.flag(return_stats, "return_stats")
    check_memory(n, "the genetic algorithm", 2 * population * n * 8 + 16 * population + 64 * n)
    stats = {"generations": 0}
    done, value = trivial(n, stats, return_stats)
    if done:
        return value
    arrays = ga_arrays(n, population, rng)
    pop, out = arrays[0], arrays[-1]

    def run_generations(units):
        i = K.genetic(n, units, pc, pm, bool(improve), rng, *arrays)
        stats["generations"] = int(out[0])
        return pop[i].copy() if i >= 0 else None

    failure = (
        f"the genetic algorithm found no solution of {n}-queens in {generations} generations "
        f"of {population} (seed {seed}); allow more generations ({setting('generations=G', '--max-steps G')}), "
        f"or try {setting('improve=True', '--improve')}"
    )
    return run_until(run_generations, generations, progress, stats, return_stats, failure, _CHUNK)


def ga_arrays(n: int, population: int, rng: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays :func:`kernels.genetic <queenslab.heuristics.kernels.genetic>` takes
    after ``rng``, in its order -- ``pop, mid, fit, order, rows, d1, d2, out`` -- with
    the random initial population drawn from ``rng`` into ``pop``.

    Examples
    --------
    >>> arrays = ga_arrays(6, 4, rng_state(0))
    >>> arrays[0].shape, int(arrays[-1][0])
    ((4, 6), 0)
    """
    pop = np.empty((population, n), np.int64)
    K.ga_init(n, rng, pop)
    return (
        pop,
        np.empty_like(pop),
        np.empty(population, np.float64),
        np.empty(population, np.int64),
        np.zeros(n, np.int64),
        np.zeros(2 * n - 1, np.int64),
        np.zeros(2 * n - 1, np.int64),
        np.zeros(1, np.int64),
    )


def ant_colony(
    n,
    *,
    seed: int = 0,
    ants: int = 20,
    iterations: int = 1000,
    alpha: float | None = None,
    beta: float | None = None,
    q: float = 1.0,
    tau0: float = 0.1,
    evaporation: float = 0.01,
    tau_min: float = 0.01,
    progress: Callable[[int, int], None] | None = None,
    return_stats: bool = False,
):
    """One solution by N. Gupta's ant colony optimisation on the n x n^2 search graph.

    Parameters
    ----------
    n : int or Problem
        Board size, 1 <= n <= :data:`ACO_MAX_N`, or a standard Problem.
    seed : int, default 0
        The same seed gives the same result (it also draws ``alpha`` and ``beta``).
    ants : int, default 20
        Ants per iteration (the swarm).
    iterations : int, default 1000
        Iterations before giving up.
    alpha, beta : float, optional
        Influence of pheromone and heuristic value; drawn uniformly in [0, 2) when not
        given, as N. Gupta's paper says.
    q : float, default 1.0
        Deposit constant: each ant adds ``q / (1 + n - fitness)`` to its edges.
    tau0 : float, default 0.1
        Initial pheromone of every edge.
    evaporation : float, default 0.01
        Subtracted from every edge after each iteration.
    tau_min : float, default 0.01
        Pheromone never falls below this (> 0).
    progress : callable, optional
        Called as ``progress(iterations_done, iterations)`` now and then.
    return_stats : bool
        Also return a dict with ``iterations``, ``alpha`` and ``beta``.

    Returns
    -------
    numpy.ndarray or None
        The 0-based columns (int64) of a solution; None for n = 2 and n = 3.
        With ``return_stats``, a tuple ``(placement, stats)``.

    Raises
    ------
    Incomplete
        If no ant found a solution within ``iterations``.
    TooLarge
        For n > :data:`ACO_MAX_N`.
    QueensError
        On other invalid arguments.

    Examples
    --------
    >>> from queenslab.heuristics.construct import verify
    >>> verify(ant_colony(6, seed=3))
    True
    """
    n = _check_size(n, ANT_COLONY)
    rng = rng_state(seed)
    ants = positive_int(ants, "ants")
    iterations = positive_int(iterations, "iterations", zero=True)
    draw = np.random.default_rng(rng_state(seed)[0] ^ 0xA5A5)
    a_draw, b_draw = draw.uniform(0.0, 2.0, size=2)
    alpha = float(a_draw) if alpha is None else _nonneg(alpha, "alpha")
    beta = float(b_draw) if beta is None else _nonneg(beta, "beta")
    q = _nonneg(q, "q", positive=True)
    tau0 = _nonneg(tau0, "tau0", positive=True)
    evaporation = _nonneg(evaporation, "evaporation")
    tau_min = _nonneg(tau_min, "tau_min", positive=True)
    progress = validate.callback(progress)
    return_stats = validate.flag(return_stats, "return_stats")
    check_memory(n, "ant colony optimisation", 8 * ((n - 1) * n**4 + ants * (n + 1) + 2 * n * n + 12 * n))
    stats = {"iterations": 0, "alpha": alpha, "beta": beta}
    done, value = trivial(n, stats, return_stats)
    if done:
        return value
    cells = n * n
    tau_src = np.full(cells, tau0)
    tau = np.full((n - 1, cells, cells), tau0)
    eta = (1.0 / (1.0 + np.arange(4 * n, dtype=np.float64))) ** beta
    weight = np.empty(cells)
    tour = np.empty((ants, n + 1), np.int64)
    used = np.empty(cells, np.int64)
    lines = np.empty(6 * n, np.int64)
    out = np.zeros(1, np.int64)

    def run_iterations(units):
        ant = K.ant_colony(
            n, units, ants, alpha, beta, q, evaporation, tau_min, rng, tau_src, tau, eta, weight, tour, used, lines, out
        )
        stats["iterations"] = int(out[0])
        if ant < 0:
            return None
        cells_chosen = tour[ant, :n]
        p = np.empty(n, np.int64)
        p[cells_chosen // n] = cells_chosen % n
        return p

    failure = (
        f"ant colony optimisation found no solution of {n}-queens in {iterations} iterations of {ants} ants "
        f"(seed {seed}, alpha {alpha:.3f}, beta {beta:.3f}); allow more iterations or try another seed"
    )
    return run_until(run_iterations, iterations, progress, stats, return_stats, failure, _CHUNK)
