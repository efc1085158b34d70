"""CPMpy as a backend (registry name ``cpmpy``, extra ``queenslab[cpmpy]``): the model
of :mod:`queenslab.models.cpmpy` on any solver CPMpy has installed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..models import cpmpy
from ..problem import Problem
from .interface import FORCE, LIMIT, TIME_LIMIT, Backend, CountResult, Option

#: The CPMpy solver. Named ``cpmpy_solver`` (``--cpmpy-solver``) because ``solver`` is the
#: sat backend's pysat solver, and one option name means one option in the registry.
SOLVER = Option(
    "cpmpy_solver",
    "str",
    "the CPMpy solver (any installed: ortools, pysat, exact, ...)",
    default=cpmpy.DEFAULT_SOLVER,
    metavar="NAME",
)


class CpmpyBackend(Backend):
    name = "cpmpy"
    summary = "CPMpy model on any installed CPMpy solver, lex-leader constraints for orbits (extra queenslab[cpmpy])"
    # every solution passes through CPMpy's Python callback, about two thousand a second:
    # n = 11 (2,680) takes 1.5 s, n = 12 (14,200) 8 s, n = 14 (365,596) minutes
    practical_limit = 12
    practical_note = "it enumerates every solution through CPMpy at about two thousand a second; n = 14 takes minutes"
    options = (
        SOLVER,
        TIME_LIMIT,
        LIMIT,
        FORCE,
        Option("model", "object", "an edited model from queenslab.models.cpmpy.build"),
    )

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        return cpmpy.counts(problem, unique=unique, **_renamed(opts))

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        return cpmpy.solutions(problem, limit=limit, **_renamed(opts))

    def _solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        return cpmpy.solve(problem, **_renamed(opts))


def _renamed(opts: dict[str, Any]) -> dict[str, Any]:
    """The options under the model functions' names (``cpmpy_solver`` is ``solver``)."""
    out = dict(opts)
    if "cpmpy_solver" in out:
        out["solver"] = out.pop("cpmpy_solver")
    return out
