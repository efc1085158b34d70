"""Optimisation: the fewest queens that dominate a board, the most that attack no other,
each solved by independent optimisers that must agree.

:func:`optimize` builds the models of :mod:`queenslab.models.optimization` and solves
them with CP-SAT (OR-Tools; a branch-and-bound search with its own bound) and with MaxSAT
(pysat's RC2, a core-guided solver: it proves its optimum by refuting every better value
with an unsatisfiable core), and with the MIP solver HiGHS when the optional extra
``queenslab[mip]`` is installed (branch and bound on the LP relaxation, with its dual
bound). Domination has another optimiser, the native engine's
exhaustive search (:func:`queenslab.native.domination.least_cover`): it refutes 1, 2, 3,
... queens in turn, each by a search that is exhaustive up to the board's symmetries,
and proves the first number it does not refute with a witness; it proves gamma(Q_15) = 9
in seconds where the model-based optimisers take hours. Each run says whether it proved
its optimum (CP-SAT's status OPTIMAL; RC2 finishing; the search's exhaustion) or,
stopped by the time limit, the best value found and the bound it had proved. The optimum
is proved when one optimiser proved it; two proved optima must be equal, and every other
run's value and bound must be consistent with it, or the result says they disagree.

Examples
--------
>>> r = optimize(Problem(8), "dominate", solvers=("maxsat",))
>>> r.optimum, r.proved, len(r.queens)
(5, True, 5)
>>> r = optimize(Problem(8), "dominate", solvers=("search", "cpsat"))
>>> r.optimum, r.proved, r.agrees
(5, True, True)
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass

from . import interrupt, validate
from .backends.cpsat import run_solver
from .backends.processes import OutOfTime, run_elsewhere
from .errors import QueensError
from .models.cpsat import cp_model_module
from .models.optimization import OBJECTIVES, Board, board, cpsat_model, highs_model, wcnf_model
from .problem import Cell, Problem, as_problem

__all__ = ["OBJECTIVES", "SOLVERS", "DEFAULT_SOLVERS", "Optimum", "SolverRun", "optimize"]

#: The optimisers, in the order they run: the exhaustive search (domination only), MaxSAT,
#: CP-SAT and the MIP solver HiGHS.
SOLVERS = ("search", "maxsat", "cpsat", "mip")
#: The optimisers each objective runs by default (the search proves domination only, and
#: only without regions, whose bounds it does not read; the MIP only where HiGHS is
#: installed).
DEFAULT_SOLVERS = {"dominate": SOLVERS, "independence": ("maxsat", "cpsat", "mip")}


@dataclass(frozen=True)
class SolverRun:
    """One optimiser's answer.

    Attributes
    ----------
    solver : str
        ``"maxsat"`` or ``"cpsat"``.
    value : int or None
        The best number of queens it found (None: none found in time).
    bound : int or None
        The bound it proved (a lower bound when minimising, an upper one when maximising);
        equal to ``value`` when it proved its optimum.
    proved : bool
        Whether it proved ``value`` optimal.
    seconds : float
    queens : tuple of Cell
        The witness: 0-based cells of its best set.
    """

    solver: str
    value: int | None
    bound: int | None
    proved: bool
    seconds: float
    queens: tuple[Cell, ...]


@dataclass(frozen=True)
class Optimum:
    """The optimum of one objective on one problem, and how each optimiser got there.

    Attributes
    ----------
    objective : str
        ``"dominate"`` or ``"independence"``.
    problem : Problem
    optimum : int or None
        The proved optimum, or the best value found when no optimiser proved one.
    proved : bool
        Whether an optimiser proved it.
    queens : tuple of Cell
        A witness set of ``optimum`` queens (0-based cells), checked here.
    agrees : bool or None
        Whether every proved optimum is the same and every run's value and bound are
        consistent with it (None with one optimiser).
    runs : tuple of SolverRun
    """

    objective: str
    problem: Problem
    optimum: int | None
    proved: bool
    queens: tuple[Cell, ...]
    agrees: bool | None
    runs: tuple[SolverRun, ...]


def optimize(
    problem: Problem,
    objective: str = "dominate",
    *,
    solvers: tuple[str, ...] | None = None,
    time_limit: float | None = None,
) -> Optimum:
    """The fewest queens dominating ``problem``'s board (``"dominate"``) or the most that
    attack no other (``"independence"``), by each optimiser of ``solvers``.

    Parameters
    ----------
    problem : Problem
        The board and the constraints the queens obey (n <= 64).
    objective : {"dominate", "independence"}
    solvers : tuple of {"search", "maxsat", "cpsat", "mip"}, optional
        Default: :data:`DEFAULT_SOLVERS` of the objective (without the search on a board
        with regions, without the MIP where highspy is not installed).
    time_limit : float, optional
        Seconds each optimiser may take; one stopped by it reports its best value and bound.

    Returns
    -------
    Optimum

    Raises
    ------
    QueensError
        For an unknown objective or solver, a bad time limit, a board beyond 64; the
        search asked for independence or for a board with regions.
    UnsupportedProblem
        For a constraint the compiled form does not say.
    MissingDependency
        Without OR-Tools or python-sat, or highspy for the MIP asked by name.
    """
    problem = as_problem(problem)
    objective = validate.choice(objective, tuple(OBJECTIVES), "objective")
    seconds = validate.positive_seconds(time_limit)
    b = board(problem)
    if solvers is None:
        chosen = tuple(
            s
            for s in DEFAULT_SOLVERS[objective]
            if (s != "search" or not b.regions) and (s != "mip" or importlib.util.find_spec("highspy") is not None)
        )
    else:
        if isinstance(solvers, str) or not solvers:
            raise QueensError(f"solvers is a non-empty tuple of {', '.join(SOLVERS)}, got {validate.brief(solvers)}")
        chosen = tuple(dict.fromkeys(validate.choice(s, SOLVERS, "solver") for s in solvers))
    if "search" in chosen and (objective != "dominate" or b.regions):
        what = "independence" if objective != "dominate" else "a board with regions (it reads no region bounds)"
        raise QueensError(f"the exhaustive search proves domination only, not {what}: use maxsat or cpsat")
    runs = []
    for name in chosen:
        t0 = time.perf_counter()
        value, bound, proved, cells = _OPTIMISERS[name](b, objective, seconds, problem)
        queens = tuple(sorted(b.cells[i] for i in cells))
        if value is not None:
            _check_witness(b, objective, cells, value, name)
        runs.append(SolverRun(name, value, bound, proved, time.perf_counter() - t0, queens))
    return _combine(problem, objective, tuple(runs))


def _combine(problem: Problem, objective: str, runs: tuple[SolverRun, ...]) -> Optimum:
    minimise = OBJECTIVES[objective] == "min"
    proved = [r for r in runs if r.proved]
    found = [r for r in runs if r.value is not None]
    best = (min if minimise else max)(found, key=lambda r: r.value) if found else None  # type: ignore[arg-type,return-value]
    best_run = proved[0] if proved else best
    optimum = None if best_run is None else best_run.value
    agrees = None
    if len(runs) > 1 and optimum is not None and proved:
        agrees = all(r.value == optimum for r in proved) and all(
            (r.bound is None or (r.bound <= optimum if minimise else r.bound >= optimum))
            and (r.value is None or (r.value >= optimum if minimise else r.value <= optimum))
            for r in runs
        )
    return Optimum(
        objective=objective,
        problem=problem,
        optimum=optimum,
        proved=bool(proved),
        queens=() if best_run is None else best_run.queens,
        agrees=agrees,
        runs=runs,
    )


def _check_witness(b: Board, objective: str, cells: list[int], value: int, solver: str) -> None:
    """Hold a solver's witness to the conditions, independently of its model."""
    chosen = set(cells)
    ok = len(chosen) == value and not chosen & set(b.forbidden) and set(b.fixed) <= chosen
    ok = ok and all(least <= len(chosen & set(rc)) <= most for rc, least, most in b.regions)
    if objective == "dominate":
        ok = ok and all(chosen & set(cover) for cover in b.covers if cover)  # a hole needs no cover
    else:
        ok = ok and all(len(chosen & set(line)) <= 1 for line in b.lines)
        ok = ok and not any(i in chosen and j in chosen for i, j in b.pairs)
    if not ok:
        raise QueensError(f"the {solver} optimiser's witness does not meet the conditions: not counted as an answer")


def _search(
    b: Board, objective: str, seconds: float | None, problem: Problem
) -> tuple[int | None, int | None, bool, list[int]]:
    from .d4 import cell_permutation
    from .native.domination import least_cover

    symmetries = [cell_permutation(g, b.n) for g in problem.symmetries()]
    found = least_cover(b.covers, b.forbidden, b.fixed, symmetries=symmetries, seconds=seconds)
    return found.value, found.bound, found.proved, list(found.cells)


def _cpsat(
    b: Board, objective: str, seconds: float | None, problem: Problem
) -> tuple[int | None, int | None, bool, list[int]]:
    cp = cp_model_module()
    model, x = cpsat_model(b, objective)
    solver = cp.CpSolver()
    # CP-SAT's portfolio (its core-based workers among them) proves these optima far sooner
    # than two workers do: gamma(Q_11) in about 2 s instead of a minute, on 2 cores
    solver.parameters.num_workers = 8
    if seconds is not None:
        solver.parameters.max_time_in_seconds = seconds
    status = run_solver(solver, model)  # Ctrl-C stops it
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        if status == cp.INFEASIBLE:
            return None, None, True, []
        return None, None, False, []
    value = round(solver.ObjectiveValue())
    bound = round(solver.BestObjectiveBound())
    cells = [i for i, v in enumerate(x) if solver.Value(v)]
    return value, bound, status == cp.OPTIMAL, cells


def _maxsat(
    b: Board, objective: str, seconds: float | None, problem: Problem
) -> tuple[int | None, int | None, bool, list[int]]:
    wcnf = wcnf_model(b, objective)
    try:
        found = run_elsewhere(_rc2, wcnf, len(b.cells), name="queenslab-maxsat", what="RC2", seconds=seconds)
    except OutOfTime:
        return None, None, False, []
    if found is None:  # the hard clauses have no model
        return None, None, True, []
    cells = found
    value = len(cells)
    return value, value, True, cells


def _rc2(wcnf: object, cells: int) -> list[int] | None:
    """RC2 on ``wcnf`` (in the optimiser's own process): the chosen cells, or None."""
    from pysat.examples.rc2 import RC2

    with RC2(wcnf, solver="g3", adapt=True, exhaust=True, minz=True) as rc2:
        model = rc2.compute()
    if model is None:
        return None
    return [v - 1 for v in model if 0 < v <= cells]


def _mip(
    b: Board, objective: str, seconds: float | None, problem: Problem
) -> tuple[int | None, int | None, bool, list[int]]:
    import math

    import highspy

    h = highs_model(b, objective)
    h.setOptionValue("mip_rel_gap", 0.0)  # the optimum, not one within HiGHS's default gap
    h.setOptionValue("threads", 2)
    if seconds is not None:
        h.setOptionValue("time_limit", float(seconds))
    interrupt.check()
    with interrupt.stopping(h.cancelSolve) as stopper:
        interrupt.run(h.run)
    stopper.check()
    interrupt.check()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return None, None, True, []
    info = h.getInfo()
    if info.primal_solution_status != 2:  # no feasible point found in time
        return None, None, False, []
    x = h.getSolution().col_value
    cells = [i for i, v in enumerate(x) if v > 0.5]
    value = len(cells)
    # the dual bound of a minimum rounds up, of a maximum down: the objective is integral
    dual = info.mip_dual_bound
    bound = math.ceil(dual - 1e-6) if OBJECTIVES[objective] == "min" else math.floor(dual + 1e-6)
    return value, bound, status == highspy.HighsModelStatus.kOptimal, cells


#: Each optimiser, by name: ``(board, objective, seconds, problem) -> (value, bound,
#: proved, cells)``.
_OPTIMISERS = {"search": _search, "maxsat": _maxsat, "cpsat": _cpsat, "mip": _mip}
