"""CNF models as backends: SAT enumeration with pysat (``sat``) and exact #SAT with
Ganak (``ganak``); the model is :mod:`queenslab.models.cnf`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..models import cnf
from ..models.cnf import DEFAULT_SOLVER, Encoding
from ..problem import Problem
from .interface import FORCE, LIMIT, Backend, CountResult, Option

#: The cardinality encoding of both CNF backends.
ENCODING = Option(
    "encoding",
    "choice",
    "cardinality encoding of the CNF model",
    default="pairwise",
    choices=tuple(e.value for e in Encoding),
    metavar="E",
)
#: An edited CNF model (Python only).
MODEL = Option("model", "object", "an edited model from queenslab.models.cnf.build")


class SatBackend(Backend):
    name = "sat"
    summary = "pysat: SAT enumeration of the CNF model, blocking each solution found"
    options = (
        ENCODING,
        Option("solver", "str", "the pysat solver", default=DEFAULT_SOLVER, metavar="NAME"),
        LIMIT,
        FORCE,
        MODEL,
    )
    # SAT enumeration blocks one solution at a time, about ten thousand a second
    practical_limit = 14
    practical_note = "it enumerates every solution at about ten thousand a second; n = 16 takes hours"

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        return cnf.counts(problem, unique=unique, **opts)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        return cnf.solutions(problem, limit=limit, **opts)


class GanakBackend(Backend):
    name = "ganak"
    summary = "Ganak: exact projected #SAT of the CNF model (extra queenslab[count])"
    options = (
        ENCODING,
        FORCE,
        MODEL,
    )
    # #SAT by component caching: 17 s at n = 12, 24 s at n = 13 (the standard problem; a
    # toroidal 13 takes minutes), growing steeply beyond
    practical_limit = 13
    practical_note = "exact #SAT of the CNF model grows steeply with n; n = 13 takes half a minute, on a torus minutes"

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        count = cnf.ganak_count(problem, **opts)
        orbits = cnf.ganak_count(problem, unique=True, **opts) if unique else None
        return CountResult(count, orbits, None, self.name, opts.get("encoding", ENCODING.default))

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        # Ganak counts; the solutions of the same CNF model come from the SAT solver.
        return cnf.solutions(problem, limit=limit, **opts)
