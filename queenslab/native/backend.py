"""The native engine as a :class:`~queenslab.interface.Backend` (registry name ``native``)."""

from __future__ import annotations

from typing import Iterator

from ..interface import Backend, CountResult
from ..problem import Problem
from . import engine


class NativeBackend(Backend):
    """numba bitboard search; options: ``threads``, ``force``, ``method``, ``progress``."""

    name = "native"
    options = frozenset({"threads", "force", "method", "progress"})

    def solve(self, problem: Problem, **opts) -> tuple[int, ...] | None:
        self.check_options(opts)
        return engine.solve(problem)

    def count(self, problem: Problem, *, unique: bool = False, **opts) -> int:
        self.check_options(opts)
        return engine.count(problem, unique=unique, **opts)

    def counts(self, problem: Problem, *, unique: bool = False, **opts) -> CountResult:
        self.check_options(opts)
        return engine.count_both(problem, unique=unique, **opts)

    def solutions(self, problem: Problem, *, limit: int | None = None, **opts) -> Iterator[tuple[int, ...]]:
        self.check_options(opts)
        return engine.solutions(problem, limit=limit)
