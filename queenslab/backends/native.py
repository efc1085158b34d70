"""The native numba engine as a backend (registry name ``native``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..constraints import KINDS
from ..problem import Problem
from .interface import COUNTS, FORCE, PROGRESS, THREADS, Backend, CountResult, Option


class NativeBackend(Backend):
    name = "native"
    kinds = KINDS
    hooks = ("compile",)
    boards = True
    summary = "numba bitboard search: every variant, all cores, solutions in lexicographic order"
    options = (
        THREADS,
        Option(
            "method",
            "choice",
            "search: join (standard problem, or blocked and fixed cells only; half-board placements joined; "
            "orbits by Burnside's lemma), symmetric (standard problem, total and unique in one pass), general "
            "(every variant) or board (k queens on an r x c board, rows may stay empty); auto: the first that "
            "applies, in this order: join from n = 14 (blocked and fixed cells: from 13 rows without a fixed "
            "queen), symmetric, general, board",
            default="auto",
            # the names of queenslab.native.methods.REGISTRY, in its order (a test holds them
            # equal): written out so that --help does not load the kernels
            choices=("auto", "join", "symmetric", "general", "board"),
            applies_to=frozenset({COUNTS}),
        ),
        FORCE,
        PROGRESS,
    )

    can_classify = True
    can_split = True

    def independent_counts(self, problem: Problem) -> list[dict[str, Any]]:
        """The half-board join and the symmetric search where both count ``problem`` (the
        standard problem from n = 4 up to the join's limit), the join and the general
        search for blocked cells and fixed queens (n = 4 up to the join's limit):
        different algorithms whose orbits come by different routes (Burnside's lemma;
        the search's classification, its canonical-form test)."""
        from ..native.methods import REGISTRY

        # the board search counts n queens on n x n too, slowest of all: it stands in
        # for the others only on the boards they refuse
        able = [
            m.name
            for m in REGISTRY.values()
            if problem.n >= 4 and m.refusal(problem) is None and not (m.boards and problem.is_plain_board)
        ]
        if len(able) > 2:
            able.remove("general")  # two specialised methods: the general search is the slowest
        return [{"method": name} for name in able] if len(able) > 1 else [{}]

    def check_reach(self, problem: Problem, **opts: Any) -> None:
        """Refuse a board the bitboards cannot hold, or a count beyond the engine's practical limit."""
        from .. import cost
        from ..native import engine

        self._check_problem(problem)
        opts = self.check_options(opts, COUNTS)
        engine.check_problem(problem)
        cost.check_count(problem, opts.get("force", False))

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
        from .. import cost, warm
        from ..native import engine

        cost.check_count(problem, opts.get("force", False))  # beyond the limit: refused with its price
        # a first count compiles its method's kernels: on a small board first, with a
        # notice giving the measured time, so that the count itself does not look hung
        method = engine.chosen_method(problem, opts.get("method", "auto"), opts.get("threads"))
        warm.ensure(method, standard=problem.is_standard)
        return engine.count_both(problem, unique=unique, **opts)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        from ..native import engine

        engine.check_problem(problem)
        engine.check_first_solution(problem, opts.get("force", False))  # they come in lexicographic order
        return engine.solutions(problem, limit=limit)
