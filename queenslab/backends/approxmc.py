"""The ``approxmc`` backend: approximate projected model counting of the CNF model with
ApproxMC (pyapproxmc, the optional extra ``queenslab[count]``).

ApproxMC (Chakraborty, Meel and Vardi; Soos and Meel, "BIRD: engineered efficient SAT
solving and approximate model counting") adds random XOR constraints over the counted
variables until a cell of the solution space is small enough to enumerate, and repeats
that to return an estimate ``c`` with the guarantee

    P[ c / (1 + epsilon) <= count <= c * (1 + epsilon) ] >= 1 - delta.

The result is an :class:`~queenslab.backends.approximate.ApproximateCount`: the
estimates with their ``epsilon``, ``delta`` and bounds, never an exact count
(``Backend.count`` refuses it). The count is projected on the cell variables: the
auxiliary variables of a cardinality encoding or of the lex-leader constraints take
several values for one placement in some encodings, and counting them would count one
placement several times. With ``unique`` the lex-leader model of
:mod:`queenslab.models.cnf` (one solution per orbit) is counted the same way, so the
orbit count is an estimate with the same guarantee of its own.

A seed makes the count repeatable: the same seed, model and options give the same
estimate. Solutions and ``solve`` come from a SAT solver's enumeration of the same
model, as for the ``ganak`` backend.

ApproxMC has no stop API, and its C++ search holds Python's global lock until it
returns: a count running in this process would ignore Ctrl-C for as long as it runs
(minutes at n = 12). So each count runs in a process of its own (started by the
``forkserver`` method where the platform has it, else ``spawn``), which this process
waits for in short polls and kills on Ctrl-C (:mod:`queenslab.interrupt`); the process
gets the same clauses, projection, seed, ``epsilon`` and ``delta``, so the estimate is
the one an in-process count gives. Inside a daemonic process (a crosscheck's backend
process, which its parent kills instead) the count runs in place.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator
from typing import Any

from .. import interrupt
from ..constraints import KINDS
from ..errors import MissingDependency, UnknownOption
from ..models.cnf import CnfModel
from ..problem import Problem
from ..quiet import quiet_stdout
from .approximate import ApproximateCount, approximate
from .interface import ASSUME_SYMMETRIC, COUNTS, FORCE, SEED, Backend, Option
from .processes import run_elsewhere
from .sat import ENCODING, MODEL, cnf_solutions, model_counts

__all__ = ["ApproxmcBackend", "EPSILON", "DELTA"]

_EXTRA = 'pip install "queenslab[count]"'

#: ApproxMC's tolerance (its own default, 0.8).
EPSILON = Option(
    "epsilon",
    "real",
    "tolerance of the approximate count: the estimate c is within c/(1+E) .. c*(1+E) of the count "
    "with probability at least 1-delta",
    default=0.8,
    minimum=0,
    open_minimum=True,
    applies_to=frozenset({COUNTS}),
    metavar="E",
)
#: ApproxMC's failure probability (its own default, 0.2).
DELTA = Option(
    "delta",
    "real",
    "failure probability of the approximate count: the bounds hold with probability at least 1-D",
    default=0.2,
    minimum=0,
    open_minimum=True,
    real_maximum=1,
    open_maximum=True,
    applies_to=frozenset({COUNTS}),
    metavar="D",
)


class ApproxmcBackend(Backend):
    name = "approxmc"
    kinds = KINDS
    hooks = ("compile", "encode_cnf")
    summary = (
        "ApproxMC: approximate projected count of the CNF model, an estimate within a factor 1+epsilon with "
        "probability 1-delta (extra queenslab[count])"
    )
    options = (ENCODING, EPSILON, DELTA, SEED, FORCE, MODEL, ASSUME_SYMMETRIC)
    approximate = True
    # measured (CPU time, pairwise, epsilon 0.8, delta 0.2): the total of n = 10 in 0.7 s,
    # n = 11 in 7 s, n = 12 in 67 s (its orbits 13 s); see docs/backends.md
    practical_limit = 12
    practical_note = "ApproxMC's hashing grows steeply on the queens' CNF: n = 12 takes about a minute of CPU time"

    def check_options(self, opts: dict[str, Any], question: str = COUNTS) -> dict[str, Any]:
        """As for every backend; a seed is refused where it would be ignored (the
        solutions come from a deterministic SAT enumeration)."""
        if question != COUNTS and opts.get("seed") is not None:
            raise UnknownOption(
                f"backend 'approxmc' takes a seed for counts only (ApproxMC's random hashing), not for {question}: "
                "its solutions come from a deterministic SAT enumeration of the same model"
            )
        return super().check_options(opts, question)

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> ApproximateCount:
        pyapproxmc = _pyapproxmc()
        epsilon = opts.get("epsilon", EPSILON.default)
        delta = opts.get("delta", DELTA.default)
        seed = opts.get("seed", SEED.default)

        def estimate(m: CnfModel) -> tuple[int, bool]:
            return _approxmc_count(pyapproxmc, m, epsilon, delta, seed), True

        return approximate(model_counts(self.name, problem, unique, opts, estimate), epsilon, delta)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        # ApproxMC counts; the solutions of the same CNF model come from the SAT solver.
        return cnf_solutions(problem, limit, opts)


def _pyapproxmc() -> Any:  # the module pyapproxmc (untyped)
    try:
        import pyapproxmc
    except ImportError:
        raise MissingDependency(
            f"approximate model counting needs pyapproxmc, the optional extra 'count': {_EXTRA}"
        ) from None
    if not _counts_free_variables(pyapproxmc):
        raise MissingDependency(
            f"pyapproxmc {getattr(pyapproxmc, '__version__', '?')} miscounts: it drops the factor 2 of each counted "
            "variable its preprocessing leaves free (a formula with 2 models counts 1); install a version below "
            f"4.3 as the extra does: {_EXTRA}"
        )
    return pyapproxmc


@functools.cache
def _counts_free_variables(pyapproxmc: Any) -> bool:
    """Whether this pyapproxmc counts the two models of ``x1 != x2`` as 2.

    Versions 4.3 and 4.4 lose the factor of the variables that their preprocessing
    (Arjun) leaves in no clause: here ``x2`` becomes ``-x1``, ``x1`` is free, and they
    answer 1. On the queens' models they undercount small problems (4-queens: 1) by
    powers of 2, so the backend refuses them rather than give a wrong estimate.
    """
    counter = pyapproxmc.Counter(seed=1)
    counter.add_clauses([[1, 2], [-1, -2]])
    with quiet_stdout():
        cells, hashes = counter.count([1, 2])
    return int(cells) * 2 ** int(hashes) == 2


def _approxmc_count(pyapproxmc: Any, m: CnfModel, epsilon: float, delta: float, seed: int) -> int:
    """ApproxMC's estimate of the number of models of ``m`` projected on the cell variables.

    The count runs in a process of its own (see the module docstring), which is killed
    on Ctrl-C; ``pyapproxmc`` (checked here, in this process) is imported there again.

    Raises
    ------
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` on Ctrl-C (the count's process is killed).
    QueensError
        When the count's process ends without an answer; an exception the count raised
        there is raised here as it was.
    """
    import multiprocessing  # here, not at the top: a fresh count by the engine never needs it

    job = (m.cnf.clauses, m.cell_variables(), epsilon, delta, seed)
    if multiprocessing.current_process().daemon or not _can_start_processes():
        # a daemonic process may start no process of its own (its parent stops it); a
        # program read from standard input cannot be started again in another process
        cells, hashes = interrupt.run(_count, *job)
        interrupt.check()
    else:
        cells, hashes = _count_elsewhere(job)
    return int(cells) * 2 ** int(hashes)


def _can_start_processes() -> bool:
    """Whether a process started here can import the main program again, as the
    ``forkserver`` and ``spawn`` methods do: not when it was read from standard input
    (``python - < script``), whose ``__file__`` names no file."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def _count(clauses: list[list[int]], projection: list[int], epsilon: float, delta: float, seed: int) -> tuple[int, int]:
    """ApproxMC's count in this process: (cells, hashes), the estimate ``cells * 2**hashes``."""
    import pyapproxmc

    counter = pyapproxmc.Counter(seed=seed, epsilon=epsilon, delta=delta)
    counter.add_clauses(clauses)
    with quiet_stdout():
        cells, hashes = counter.count(projection)
    return int(cells), int(hashes)


def _count_elsewhere(job: tuple) -> tuple[int, int]:
    """:func:`_count` of ``job`` in a process of its own, killed on Ctrl-C."""
    return _elsewhere(_count, *job)


def _elsewhere(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a process of its own, killed on Ctrl-C (:func:`.processes.run_elsewhere`)."""
    return run_elsewhere(fn, *args, name="queenslab-approxmc", what="ApproxMC")
