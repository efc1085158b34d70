"""The native numba engine as a backend (registry name ``native``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
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

    can_classify = True
    can_split = True

    def check_reach(self, problem: Problem, **opts: Any) -> None:
        """Refuse a board the bitboards cannot hold, or a count beyond the engine's practical limit."""
        from ..native import engine

        self._check_problem(problem)
        opts = self.check_options(opts, COUNTS)
        engine.check_problem(problem)
        engine.check_size(problem, opts.get("force", False))

    def count_classes(self, problem: Problem, **opts: Any) -> CountResult:
        """:func:`queenslab.native.engine.count_classes`, its orbit sizes in ``classes``."""
        from ..native import engine

        self._check_problem(problem)
        opts = self.check_options(opts, COUNTS)
        result, classes = engine.count_classes(problem, **opts)
        return replace(result, classes=classes)

    # The engine (and numba) is imported on first use: the command line builds its
    # flags from this class, and `queenslab --help` should not load the compiler.
    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        from ..native import small

        if small.is_small(problem) and opts.get("method", "auto") == "auto":
            # a small board costs less than loading numba: counted in plain Python
            from .. import validate

            validate.flag(opts.get("force", False), "force")
            progress = validate.callback(opts.get("progress"))
            result = small.count_small(problem, unique=unique, threads=opts.get("threads"))
            if progress is not None:
                progress(1, 1)
            return result
        from ..native import engine, kernels
        from ..native.cache import announce_compile

        symmetric = problem.is_standard and problem.n >= 4 and opts.get("method", "auto") != "general"
        if symmetric:  # measured cold: 5 s for the symmetric lanes, 1.5 s scalar, 2.5 s the general walk
            announce_compile([engine.sym_count], "the counting kernels", 5 if engine.SYM_KERNEL == "lanes" else 2)
        else:
            announce_compile([kernels.walk], "the general search kernel", 3)
        return engine.count_both(problem, unique=unique, **opts)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        from ..native import engine

        engine.check_problem(problem)
        engine.check_first_solution(problem, opts.get("force", False))  # they come in lexicographic order
        return engine.solutions(problem, limit=limit)
