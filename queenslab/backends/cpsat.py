"""OR-Tools CP-SAT as a backend (registry name ``cpsat``); the model is
:mod:`queenslab.models.cpsat`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..models import cpsat
from ..problem import Problem
from .interface import FORCE, LIMIT, SEED, SOLVE, TIME_LIMIT, Backend, CountResult, Option


class CpsatBackend(Backend):
    name = "cpsat"
    summary = "OR-Tools CP-SAT models (integer or Boolean), lex-leader constraints for orbits"
    # a count enumerates every solution, a few thousand a second: n = 14 (365,596) takes
    # minutes, n = 16 (14.8 million) hours
    practical_limit = 14
    practical_note = "it enumerates every solution at a few thousand a second; n = 16 takes hours"
    options = (
        Option(
            "formulation",
            "choice",
            "CP-SAT model: integer q[r] or Boolean x[r][c]",
            default="integer",
            choices=("integer", "boolean"),
        ),
        TIME_LIMIT,
        SEED,
        Option(
            "workers",
            "int",
            "parallel CP-SAT workers for one solution (counting uses one)",
            minimum=1,
            maximum=1024,
            applies_to=frozenset({SOLVE}),
            metavar="W",
        ),
        LIMIT,
        FORCE,
        Option("model", "object", "an edited model from queenslab.models.cpsat.build"),
    )

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        return cpsat.counts(problem, unique=unique, **opts)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        return cpsat.solutions(problem, limit=limit, **opts)

    def _solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        return cpsat.solve(problem, **opts)
