"""CNF models as backends: SAT enumeration with pysat (``sat``) and exact #SAT with
Ganak (``ganak``). They count, enumerate and solve the models that
:mod:`queenslab.models.cnf` builds, or a model you built and edited (``model=m``).

Enumeration runs on a fresh SAT solver per call and blocks each found placement by a
clause over the cell variables only: blocking auxiliary variables (of a cardinality
encoding, of the lex-leader constraints) too would count one placement several times.
Ganak counts the models projected on the cell variables, for the same reason.

Examples
--------
Count a model edited with a clause (the first row's queen in the first or second column):

>>> from queenslab import Problem
>>> from queenslab.models import cnf
>>> m = cnf.build(Problem(8))
>>> m.cnf.append([m.var(0, 0), m.var(0, 1)])
>>> SatBackend().count(Problem(8), model=m)
12
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .. import interrupt, limits
from ..constraints import KINDS
from ..errors import MissingDependency, QueensError
from ..models import model_option
from ..models.breaking import LEX_LEADER, check_model_count
from ..models.cnf import SEARCH, CnfModel, Encoding, build
from ..problem import Problem
from ..quiet import quiet_stdout
from ..symmetry.decompose import (
    TOTAL_BY as TOTAL_BY_CHOICES,
    burnside_equation,
    first_column_problem,
    total_from_first_column,
    total_from_orbits,
)
from .interface import ASSUME_SYMMETRIC, COUNTS, FORCE, LIMIT, Backend, CountResult, Option

#: The pysat solver used unless another is named.
DEFAULT_SOLVER = "cadical195"

#: The cardinality encoding of both CNF backends.
ENCODING = Option(
    "encoding",
    "choice",
    "cardinality encoding of the CNF model",
    default="pairwise",
    choices=tuple(e.value for e in Encoding),
    metavar="E",
)
#: How the total is obtained (:mod:`queenslab.symmetry.decompose`).
TOTAL_BY = Option(
    "total_by",
    "choice",
    "how the total is counted: direct (the plain model), burnside (the group's order x the orbits, less the "
    "solutions each symmetry fixes, counted on small models), translations (a torus: n x the solutions with "
    "the first row's queen in the first column)",
    default="direct",
    choices=TOTAL_BY_CHOICES,
    applies_to=frozenset({COUNTS}),
    metavar="HOW",
)
#: An edited CNF model (Python only).
MODEL = Option("model", "object", "an edited model from queenslab.models.cnf.build")

_SEARCH_HINT = "for one solution of a large board use a heuristic (queenslab solve N --method minconflicts)"


class SatBackend(Backend):
    name = "sat"
    kinds = KINDS
    hooks = ("compile", "encode_cnf")
    boards = True
    summary = "pysat: SAT enumeration of the CNF model, blocking each solution found"
    options = (
        ENCODING,
        Option("solver", "str", "the pysat solver", default=DEFAULT_SOLVER, metavar="NAME"),
        LIMIT,
        FORCE,
        TOTAL_BY,
        MODEL,
        ASSUME_SYMMETRIC,
    )
    # SAT enumeration blocks one solution at a time, about ten thousand a second
    practical_limit = 14
    practical_note = "it enumerates every solution at about ten thousand a second; n = 16 takes hours"
    # solutions and orbits a second on the standard problem of n = 13, measured on this machine
    # with another process holding one of its two cores (a cautious figure)
    enumeration_rate = 2600
    rate_n = 13
    start_seconds = 0.5

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        limit = opts.get("limit")
        solver = opts.get("solver", DEFAULT_SOLVER)

        def enumerate_count(m: CnfModel) -> tuple[int, bool]:
            k = sum(1 for _ in _enumerate(m, limit, solver))
            return k, limit is None or k < limit

        return model_counts(self.name, problem, unique, opts, enumerate_count, solver)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        return cnf_solutions(problem, limit, opts)


class GanakBackend(Backend):
    name = "ganak"
    kinds = KINDS
    hooks = ("compile", "encode_cnf")
    boards = True
    summary = "Ganak: exact projected #SAT of the CNF model (extra queenslab[count])"
    options = (
        ENCODING,
        FORCE,
        TOTAL_BY,
        MODEL,
        ASSUME_SYMMETRIC,
    )
    # #SAT by component caching: 17 s at n = 12, 24 s at n = 13 (the standard problem; a
    # toroidal 13 takes minutes), growing steeply beyond
    practical_limit = 13
    practical_note = "exact #SAT of the CNF model grows steeply with n; n = 13 takes half a minute, on a torus minutes"

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        pyganak = _pyganak()
        return model_counts(self.name, problem, unique, opts, lambda m: (_ganak_count(pyganak, m), True))

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        # Ganak counts; the solutions of the same CNF model come from the SAT solver.
        return cnf_solutions(problem, limit, opts)


def _given(problem: Problem, opts: dict[str, Any]) -> CnfModel | None:
    """The ``model`` option checked against the problem and the other options, or None."""
    return model_option(problem, opts, CnfModel, "encoding")


def model_counts(
    backend: str,
    problem: Problem,
    unique: bool,
    opts: dict[str, Any],
    count: Callable[[CnfModel], tuple[int, bool]],
    solver: str | None = None,
) -> CountResult:
    """What both CNF backends count: the given model as it is, or the models built now.

    A given model counts what it was built for: a plain one the solutions, a lex-leader
    one the orbits (refused for an edited model unless its constraints are declared
    symmetric). Without one, the plain model is built and counted and, for ``unique``,
    the lex-leader model too.

    Parameters
    ----------
    backend : str
        The backend's name, for the result.
    problem : Problem
    unique : bool
    opts : dict
        The request's options (``model``, ``assume_symmetric``, ``encoding``, ``force``).
    count : callable
        ``count(m) -> (found, complete)``: the backend's count of one model.
    solver : str, optional
        The SAT solver that counted, named after the encoding in the result's method.
    """

    def method(encoding: object) -> str:
        return f"{encoding}" if solver is None else f"{encoding}/{solver}"

    m = _given(problem, opts)
    total_by = opts.get("total_by", TOTAL_BY.default)
    if m is not None:
        if total_by != TOTAL_BY.default:
            raise QueensError(
                f"a given model is counted as it is: total_by={total_by!r} (--total-by {total_by}) builds models of "
                "its own, so it takes no model"
            )
        # counted as it is: a plain model gives the total, a lex-leader one the orbits
        check_model_count(problem, m.symmetry, unique, m.edited, opts.get("assume_symmetric", False))
        found, complete = count(m)
        if m.symmetry == LEX_LEADER:
            return CountResult(None, found, None, backend, method(m.encoding.value) + "/lex-leader", complete)
        return CountResult(found, None, None, backend, method(m.encoding.value), complete)
    if total_by != TOTAL_BY.default and opts.get("limit") is not None:
        raise QueensError(
            f"limit (--limit) bounds a direct count: the total by {total_by} is a sum of several counts, and lower "
            "bounds of them give no bound of it"
        )
    encoding, force = opts.get("encoding", ENCODING.default), opts.get("force", False)

    def counted(q: Problem, **how: Any) -> tuple[int, bool]:
        return count(build(q, encoding=encoding, force=force, **how))

    orbits: int | None = None
    complete, derivation = True, None
    if unique or total_by == "burnside":
        orbits, complete = counted(problem, symmetry=LEX_LEADER)
    if total_by == "burnside":
        assert orbits is not None
        fixed = {}
        for g in problem.symmetries()[1:]:
            fixed[g], done = counted(problem, fixed_by=g)
            complete = complete and done
        total = total_from_orbits(orbits, fixed)
        derivation = f"total = {burnside_equation(orbits, fixed, total)}"
    elif total_by == "translations":
        first, done = counted(first_column_problem(problem))
        total = total_from_first_column(problem, first)
        complete = complete and done
        derivation = (
            f"total = {problem.n} x {first:,} solutions with the first row's queen in the first column = {total:,} "
            "(translations of the torus)"
        )
    else:
        total, done = counted(problem)
        complete = complete and done
    if not unique:
        orbits = None
    suffix = "" if total_by == TOTAL_BY.default else f"/{total_by}"
    return CountResult(total, orbits, None, backend, method(encoding) + suffix, complete, derivation=derivation)


def cnf_solutions(problem: Problem, limit: int | None, opts: dict[str, Any]) -> Iterator[tuple[int, ...]]:
    """The solutions of the given or the plain model, the model built now (not when the
    first solution is asked for), beyond :data:`~queenslab.models.cnf.SEARCH` only with
    ``force``."""
    force = opts.get("force", False)
    limits.check(SEARCH, problem.n, force, hint=_SEARCH_HINT)
    m = _given(problem, opts)
    if m is None:
        m = build(problem, encoding=opts.get("encoding", ENCODING.default), force=force)
    return _enumerate(m, limit, opts.get("solver", DEFAULT_SOLVER))


def open_solver(name: str, clauses):
    """A pysat solver called ``name`` holding ``clauses`` (use it as a context manager).

    Raises
    ------
    QueensError
        For a name pysat does not know; MissingDependency where this pysat build lacks it.
    """
    from pysat.solvers import Solver, SolverNames

    known = sorted(k for k in vars(SolverNames) if not k.startswith("_"))
    if name not in known:
        raise QueensError(f"unknown SAT solver {name!r}; pysat offers: {', '.join(known)}")
    try:
        return Solver(name=name, bootstrap_with=clauses)
    except (NotImplementedError, ImportError) as e:
        raise MissingDependency(f"SAT solver {name!r} is not available in this pysat build: {e}") from None


def _solve(s) -> bool:
    found = s.solve()
    interrupt.check()
    return bool(found)


def _enumerate(m: CnfModel, limit: int | None, solver: str) -> Iterator[tuple[int, ...]]:
    """At most ``limit`` solutions of ``m``, on a solver made for this enumeration (the
    model itself is left unchanged)."""
    if limit == 0:
        return
    with open_solver(solver, m.cnf.clauses) as s:
        found = 0
        # One solve() per solution, each short; Ctrl-C is honoured between them (CaDiCaL
        # in pysat has no interrupt), and never read as the end of the solutions.
        while _solve(s):
            p = m.decode(s.get_model())
            yield p
            found += 1
            if limit is not None and found >= limit:
                return
            # its queens (-1: an empty row); every solution holds as many, so another
            # one misses at least one of them
            s.add_clause([-m.var(r, c) for r, c in enumerate(p) if c >= 0])


def _pyganak():
    try:
        import pyganak
    except ImportError:
        raise MissingDependency(
            "exact model counting needs pyganak, the optional extra 'count': pip install \"queenslab[count]\""
        ) from None
    return pyganak


def _ganak_count(pyganak: Any, m: CnfModel) -> int:
    """The exact number of models of ``m`` projected on the cell variables.

    An unsatisfiable formula is recognised by the default SAT solver first and counted
    as 0 without Ganak.
    """
    # Ganak spends a long time (about 17 s here) proving an unsatisfiable formula has
    # no model, while a SAT solver settles it at once; 0 models needs no counting.
    with open_solver(DEFAULT_SOLVER, m.cnf.clauses) as s:
        if not _solve(s):
            return 0
    counter = pyganak.Counter()
    counter.new_vars(m.pool.top)
    counter.add_clauses(m.cnf.clauses)
    counter.set_sampling_set(m.cell_variables())
    with quiet_stdout():
        found = int(interrupt.run(counter.count))  # Ganak has no stop API: run() bounds the wait
    interrupt.check()
    return found
