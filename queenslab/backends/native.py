"""The native numba engine as a backend (registry name ``native``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..problem import Problem
from .interface import COUNTS, FORCE, PROGRESS, THREADS, Backend, CountResult, Option


class NativeBackend(Backend):
    name = "native"
    summary = "numba bitboard search: every variant, all cores, solutions in lexicographic order"
    options = (
        THREADS,
        Option(
            "method",
            "choice",
            "search: symmetric (standard problem, total and unique in one pass) or general (every variant)",
            default="auto",
            choices=("auto", "symmetric", "general"),
            applies_to=frozenset({COUNTS}),
        ),
        FORCE,
        PROGRESS,
    )

    # The engine (and numba) is imported on first use: the command line builds its
    # flags from this class, and `queenslab --help` should not load the compiler.
    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        from ..native import engine

        return engine.count_both(problem, unique=unique, **opts)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        from ..native import engine

        return engine.solutions(problem, limit=limit)
