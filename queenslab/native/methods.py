"""The native engine's counting methods: one object per algorithm, in one ordered registry.

* :class:`JoinMethod` (``"join"``) -- the half-board join of :mod:`queenslab.native.join`:
  the standard problem and blocked cells and fixed queens, n <= 25;
* :class:`SymmetricMethod` (``"symmetric"``) -- the symmetry-classifying search of
  :mod:`queenslab.native.symmetric` (the standard problem, 4 <= n <= 32): total and
  orbits at once;
* :class:`GeneralMethod` (``"general"``) -- the row-by-row walk of
  :mod:`queenslab.native.walker` over the compiled form: every problem the compiled form
  says;
* :class:`BoardMethod` (``"board"``) -- the search of :mod:`queenslab.native.boards`,
  which may leave rows empty: k queens on an r x c board (and n queens on n x n, which
  the others count faster).

Only the board method counts a board other than n queens on n x n: each method says
whether it does (:attr:`CountMethod.boards`), and one that does not refuses such a
problem instead of counting it as n queens.

:data:`REGISTRY` holds them in the order "auto" tries them, as CPMpy orders its solvers:
a count takes the first method that :meth:`~CountMethod.applies`, a split the first that
also :meth:`~CountMethod.splits` the problem. Each method declares the constraint kinds
it handles (an allow-list), the kernel set :mod:`queenslab.warm` compiles for it, how its
tasks are split and counted, and where its cost model is (:mod:`queenslab.cost` keeps one
per name). The engine (:mod:`queenslab.native.engine`), the warm-up, the cost model,
the Dask runner and the ledger read this registry; a new method is one class here.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import interrupt, limits, validate
from ..constraints import KINDS, Constraint, unhandled
from ..errors import QueensError, TooLarge, UnsupportedProblem
from ..problem import Problem
from ..result import CountResult
from . import join
from .lazy import LazyModule
from .pool import Progress, run_tasks
from .walker import Walker, check_prefix, check_size, check_subtree, split_depth

if TYPE_CHECKING:
    from . import kernels as K
else:  # each method's kernels (and numba) are imported when it first counts
    K = LazyModule("queenslab.native.kernels")

__all__ = [
    "JOIN_FROM",
    "JOIN_VARIANTS_FROM",
    "REGISTRY",
    "SPLIT",
    "SYM_DEEP_FROM",
    "SYM_MAX_N",
    "CountMethod",
    "BoardMethod",
    "GeneralMethod",
    "JoinMethod",
    "SymmetricMethod",
    "choose",
    "host_features",
    "named",
    "symmetric_counter",
]

#: Largest board of the symmetric counter (its widened int64 bitboards):
#: :data:`queenslab.native.symmetric.MAX_N`, repeated here so that choosing a method
#: imports no kernel (a test holds the two equal).
SYM_MAX_N = 31


def _wide_simd(cpu_name: str | None, cpu_features: str | None, host_features: Callable[[], dict]) -> bool:
    """Whether numba compiles for 256-bit or wider integer vectors (AVX2, AVX-512).

    ``cpu_name`` and ``cpu_features`` are numba's settings (``NUMBA_CPU_NAME``,
    ``NUMBA_CPU_FEATURES``; None when unset, i.e. this machine's CPU); ``host_features``
    reads this machine's features from LLVM. A named CPU without a feature list counts as
    no: its features are not known here.

    Examples
    --------
    >>> _wide_simd(None, None, lambda: {"avx2": True})
    True
    >>> _wide_simd("generic", None, lambda: {"avx2": True})
    False
    >>> _wide_simd(None, "+sse4.2,-avx2", lambda: {"avx2": True})
    False
    """
    if cpu_features:
        return any(f in cpu_features.split(",") for f in ("+avx2", "+avx512f"))
    if cpu_name not in (None, "host"):
        return False
    try:
        found = host_features()
    except RuntimeError:  # LLVM cannot read this CPU's features
        return False
    return bool(found.get("avx2") or found.get("avx512f"))


def host_features() -> dict:
    """This machine's CPU features as LLVM reads them (``{"avx2": True, ...}``)."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    return dict(llvm.get_host_cpu_features())


def _choose_symmetric_counter() -> str:
    from numba.core import config

    name, features = getattr(config, "CPU_NAME", None), getattr(config, "CPU_FEATURES", None)
    return "lanes" if _wide_simd(name, features, host_features) else "scalar"


@functools.cache
def symmetric_counter() -> tuple[str, Any]:
    """The symmetric counter this machine runs, decided and its kernels imported at the
    first call (a count by another method loads neither numba nor them).

    Returns
    -------
    (str, callable)
        Its name, also the module attribute ``SYM_KERNEL``: ``"lanes"`` (SIMD, where numba
        compiles for AVX2 or AVX-512) or ``"scalar"`` (the same search one node at a time,
        faster without wide vectors; both count the same tree, see docs/performance.md);
        and its kernel, also the module attribute ``sym_count``: ``(n, corner, bound1,
        split, split2, halt) -> (c2, c4, c8, nodes)``.
    """
    name = _choose_symmetric_counter()
    if name == "lanes":
        from .symmetric import sym_count as lanes

        return name, lanes
    from .symmetric_scalar import sym_count_scalar

    return name, sym_count_scalar


def __getattr__(name: str) -> Any:
    """``SYM_KERNEL`` and ``sym_count`` (:func:`symmetric_counter`), decided when first read."""
    if name == "SYM_KERNEL":
        return symmetric_counter()[0]
    if name == "sym_count":
        return symmetric_counter()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: How many tasks :func:`split_tasks` makes at a given depth without ``force=True``.
SPLIT = limits.declare(
    "split_tasks",
    100_000,
    "tasks",
    "every task is a Python tuple, a ledger row and a scheduler entry: beyond this the bookkeeping "
    "outweighs the counting",
)

#: The smallest n at which "auto" counts the standard problem by the join: measured on
#: one and on two threads of a 2-core AMD EPYC (warm numba cache), the symmetric search is
#: faster up to n = 13 and the join from n = 14 on, about 6x at n = 16.
JOIN_FROM = 14
#: The fewest free rows (n less the rows of fixed queens) from which "auto" counts a
#: problem whose only constraints are blocked cells and fixed queens by the join
#: (:func:`join.counts <queenslab.native.join.counts>`) instead of the general search:
#: measured on one thread of a 2-core AMD EPYC (CPU time), the join was faster for every
#: pattern tried from 13 free rows on but one (3 fixed queens at n = 17, 0.8x, 50 ms),
#: and slower for most below (see docs/performance.md, "The join and the variants").
JOIN_VARIANTS_FROM = 13


#: The smallest n whose symmetric split goes one row deeper (``(corner, b1, c, d)``
#: tasks, ``n`` times as many): the standard problem beyond the join (n >= 22) is where
#: a count needs hundreds to thousands of cores, more than ``(corner, b1, c)`` keeps busy.
SYM_DEEP_FROM = 22


def _sym_tasks(n: int, deep: bool = False) -> list[tuple[int, ...]]:
    """The symmetric search's tasks: ``(corner, b1, c)`` per class and column of the
    first free row, or with ``deep`` ``(corner, b1, c, d)``, d the next row's column."""
    tasks: list[tuple[int, ...]] = []
    classes = [(1, b1) for b1 in range(2, n - 1)] + [(0, b1) for b1 in range(1, n) if b1 < n - 1 - b1]
    for corner, b1 in classes:
        for c in range(n):
            tasks += [(corner, b1, c, d) for d in range(n)] if deep else [(corner, b1, c)]
    return tasks


def _symmetric_parts(problem: Problem, threads: int, progress: Progress | None) -> tuple[int, int, int, int]:
    """``(c2, c4, c8, nodes)``: the orbits of size 2, 4 and 8 and the queens placed."""
    n = problem.n
    kernel = symmetric_counter()[1]

    def task(t):
        found = kernel(n, t[0], t[1], t[2], -1, interrupt.FLAG)
        interrupt.check()
        return found

    parts = run_tasks(_sym_tasks(n), task, threads, progress)
    c2 = sum(int(p[0]) for p in parts)
    c4 = sum(int(p[1]) for p in parts)
    c8 = sum(int(p[2]) for p in parts)
    nodes = sum(int(p[3]) for p in parts) + 1
    return c2, c4, c8, nodes


def _count_symmetric(problem: Problem, threads: int, progress: Progress | None) -> CountResult:
    c2, c4, c8, nodes = _symmetric_parts(problem, threads, progress)
    return CountResult(2 * c2 + 4 * c4 + 8 * c8, c2 + c4 + c8, nodes, "native", "symmetric", threads=threads)


def _orbits_below(problem: Problem, prefix: tuple[int, ...]) -> tuple[int, int, int]:
    """``(solutions, orbits, queens placed)`` of the orbits whose lexicographically least
    solution extends ``prefix``, by the general search: each canonical solution below
    the prefix stands for its orbit, of the group order over its stabiliser's size."""
    total = orbits = nodes = 0
    for sizes, placed in Walker(problem, group=True).orbit_sizes(prefix):
        total += int(sizes.sum())
        orbits += len(sizes)
        nodes += placed
    return total, orbits, nodes


def _count_general(problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
    walk = Walker(problem, group=unique)
    _, prefixes, placed = split_depth(walk, threads)
    mode = K.CANON if unique else K.COUNT

    def task(prefix):
        return walk.run(prefix, mode)

    parts = run_tasks([tuple(int(x) for x in p) for p in prefixes], task, threads, progress)
    total = sum(int(p[0]) for p in parts)
    orbits = sum(int(p[1]) for p in parts) if unique else None
    # the prefix rows themselves were placed once while splitting
    nodes = sum(int(p[2]) for p in parts) + placed
    return CountResult(total, orbits, nodes, "native", "general", threads=threads)


def _classes_general(problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
    """The general search's canonical solutions, tallied by orbit size (the group order
    over the stabiliser's size), one task per prefix."""
    walk = Walker(problem, group=True)
    order = walk.group.shape[0] + 1  # the non-identity elements, and the identity
    _, prefixes, placed = split_depth(walk, threads)

    def task(prefix: tuple[int, ...]) -> tuple[dict[int, int], int]:
        sizes: dict[int, int] = {}
        nodes = 0
        for found, placed in walk.orbit_sizes(prefix, 1 << 12):
            nodes += placed
            for size, k in zip(*np.unique(found, return_counts=True)):
                sizes[int(size)] = sizes.get(int(size), 0) + int(k)
        return sizes, nodes

    parts = run_tasks([tuple(int(x) for x in p) for p in prefixes], task, threads, progress)
    classes = {d: 0 for d in range(1, order + 1) if order % d == 0}
    for sizes, _ in parts:
        for size, k in sizes.items():
            classes[size] += k
    nodes = sum(p[1] for p in parts) + placed
    total = sum(size * k for size, k in classes.items())
    return CountResult(total, sum(classes.values()), nodes, "native", "general", threads=threads), classes


class CountMethod(ABC):
    """One counting algorithm of the native engine (see the module docstring).

    A subclass sets :attr:`name`, :attr:`summary`, :attr:`kinds` (and :attr:`hooks`),
    :attr:`kernels` and :attr:`task_orbits`, and implements :meth:`refusal`,
    :meth:`count`, :meth:`classes`, :meth:`split` and :meth:`count_task`;
    :meth:`applies` and :meth:`splits` default to "whenever it can".
    """

    #: Its name (``method=NAME``, ``--method NAME``, a ledger's split).
    name: ClassVar[str] = ""
    #: One line for the docs.
    summary: ClassVar[str] = ""
    #: The constraint kinds it counts (an allow-list) ...
    kinds: ClassVar[tuple[type[Constraint], ...]] = ()
    #: ... and the constraint hooks it reads (``"compile"``: any kind said in the compiled form).
    hooks: ClassVar[tuple[str, ...]] = ()
    #: Whether it counts k queens on an r x c board (rows may stay empty, a rectangle).
    boards: ClassVar[bool] = False
    #: How the notice of :mod:`queenslab.warm` names its kernels.
    kernel_note: ClassVar[str] = ""
    #: What a task's count gives besides the total: ``"always"`` the orbits,
    #: ``"unique"`` the orbits when asked, ``"never"`` (:meth:`orbits_from_total` then).
    task_orbits: ClassVar[str] = "unique"
    #: Whether a task is a subtree of the row-by-row search (the general search can
    #: recount it, and its count places queens one by one).
    subtrees: ClassVar[bool] = True
    #: Whether :meth:`split` orders the tasks largest first (a runner keeps the order).
    largest_first: ClassVar[bool] = False

    def unhandled(self, problem: Problem) -> list[Constraint]:
        """The constraints of ``problem`` outside the allow-list."""
        return unhandled(problem.constraints, self.kinds, self.hooks)

    def refusal(self, problem: Problem, threads: int = 1) -> str | None:
        """Why this method cannot count ``problem`` (None: it can): a board it does not
        count, or :meth:`refuses`."""
        if not self.boards and not problem.is_plain_board:
            return "counts n queens on an n x n board only (the board method counts k queens on r x c)"
        return self.refuses(problem, threads)

    @abstractmethod
    def refuses(self, problem: Problem, threads: int = 1) -> str | None:
        """Why this method cannot count ``problem``, a board it counts (None: it can)."""

    def check(self, problem: Problem, threads: int = 1) -> None:
        """Raise :class:`~queenslab.errors.UnsupportedProblem` with :meth:`refusal`."""
        why = self.refusal(problem, threads)
        if why is not None:
            raise UnsupportedProblem(f"the {self.name} method {why}; this is {problem.describe()}")

    def applies(self, problem: Problem, threads: int) -> bool:
        """Whether "auto" counts ``problem`` by this method on ``threads`` threads."""
        return self.refusal(problem, threads) is None

    def splits(self, problem: Problem) -> bool:
        """Whether :meth:`split` splits ``problem``."""
        return self.refusal(problem) is None

    @abstractmethod
    def count(self, problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
        """The count (and with ``unique`` the orbits) on ``threads`` threads."""

    @abstractmethod
    def classes(self, problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
        """The count with its orbits by size, ``{size: orbits}`` for every divisor of the group's order."""

    @abstractmethod
    def split(
        self, problem: Problem, *, depth: int | None, least: int, force: bool
    ) -> tuple[int, list[tuple[int, ...]]]:
        """``(depth, tasks)``: the independent tasks of a count."""

    @abstractmethod
    def count_task(
        self, problem: Problem, task: Sequence[int], *, unique: bool, force: bool, general: bool
    ) -> tuple[int, int | None, int]:
        """``(solutions, orbits or None, queens placed)`` of one task of :meth:`split`."""

    def orbits_from_total(self, problem: Problem, total: int) -> int | None:
        """The orbits of a split count whose tasks give totals only (None: they give orbits)."""
        return None

    @abstractmethod
    def dispatchers(self) -> list[Callable]:
        """The numba dispatchers it runs, whose caches say whether it is compiled."""

    @abstractmethod
    def warm_up(self) -> None:
        """Count small boards by this method: compiles its kernels for the argument types
        of a real count (or loads them from numba's cache)."""


class JoinMethod(CountMethod):
    """The half-board join (:mod:`queenslab.native.join`)."""

    name = "join"
    summary = "the half-board join: the standard problem, blocked cells and fixed queens, n <= 25"
    kinds = join.KINDS
    kernel_note = "the join counter's kernels"
    task_orbits = "never"
    subtrees = False
    largest_first = True

    def refuses(self, problem: Problem, threads: int = 1) -> str | None:
        left = self.unhandled(problem)
        if left:
            return (
                f"counts the standard problem and problems whose only constraints are blocked cells and fixed "
                f"queens, not the {left[0].kind} constraint (use method='general')"
            )
        if problem.n > join.MAX_N:
            return f"counts n <= {join.MAX_N} (its half-board keys fit its tables of 8 chunks)"
        return None

    def check(self, problem: Problem, threads: int = 1) -> None:
        super().check(problem, threads)
        join.check_problem(problem, threads, force=True)  # the practical limit is checked apart

    def applies(self, problem: Problem, threads: int) -> bool:
        if self.refusal(problem, threads) is not None or problem.n > join.TABLES_FIT_TO:
            return False  # beyond TABLES_FIT_TO: decided without the memory estimate's counting pass
        if problem.is_standard:
            if problem.n < JOIN_FROM:
                return False
            return join.fits(problem.n, threads)
        free = problem.n - len({r for r, _ in problem.fixed})
        if free < JOIN_VARIANTS_FROM:
            return False
        try:
            join.check_problem(problem, threads, force=True)
        except TooLarge:  # beyond its memory budget: the general search counts it
            return False
        return True

    def splits(self, problem: Problem) -> bool:
        # the split's orbits come from the total by the standard problem's fixed counts,
        # so a variant the join counts in one process is split by another method
        return problem.is_standard and self.refusal(problem) is None

    def count(self, problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
        if unique:
            return join.problem_classes(problem, threads=threads, force=True, progress=progress)[0]
        total = join.problem_total(problem, threads=threads, force=True, progress=progress)
        return CountResult(total, None, None, "native", "join", threads=threads)

    def classes(self, problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
        return join.problem_classes(problem, threads=threads, force=True, progress=progress)

    def split(
        self, problem: Problem, *, depth: int | None, least: int, force: bool
    ) -> tuple[int, list[tuple[int, ...]]]:
        if not self.splits(problem) or depth is not None:
            raise UnsupportedProblem("the join splits the standard problem only, without a depth")
        check_size(problem, force)
        return 0, [tuple(span) for span in join.split(problem.n, max(least, join.split_parts(problem.n)), force=True)]

    def count_task(
        self, problem: Problem, task: Sequence[int], *, unique: bool, force: bool, general: bool
    ) -> tuple[int, int | None, int]:
        if not problem.is_standard:
            raise UnsupportedProblem("join tasks count the standard problem only")
        check_size(problem, force)
        return join.count_slice(problem.n, task, force=True), None, 0

    def dispatchers(self) -> list[Callable]:
        from . import join_kernels as JK

        return [
            JK.join_tasks,
            JK.quarter_tables,
            JK.quarter_size,
            JK.task_costs,
            JK.join_count,
            JK.fixed_counts,
            # a variant with blocked cells or fixed queens: its own tables, row splits, fixed boards
            JK.masked_quarter_tables,
            JK.masked_join_tasks,
            JK.masked_fixed_counts,
        ]

    def warm_up(self) -> None:
        self.count(Problem(6), True, 1, None)  # total, and the boards fixed by the quarter and half turn
        self.count(Problem(6), False, 2, None)  # on threads: the tasks ordered by their cost
        corners = [(0, 0), (0, 5), (5, 0), (5, 5)]  # a variant that keeps the rotations: its fixed boards too
        self.count(Problem(6, blocked=corners), True, 1, None)

    def orbits_from_total(self, problem: Problem, total: int) -> int | None:
        # Burnside's lemma: the orbits from the total and the fixed counts of the quarter
        # and half turn (no solution of n > 1 is fixed by a reflection)
        return sum(join.classes_from_total(problem.n, total).values())


class SymmetricMethod(CountMethod):
    """The symmetry-classifying search (:mod:`queenslab.native.symmetric`)."""

    name = "symmetric"
    summary = f"the symmetric search: the standard problem, 4 <= n <= {SYM_MAX_N}, total and orbits at once"
    kernel_note = "the counting kernels"
    task_orbits = "always"

    def refuses(self, problem: Problem, threads: int = 1) -> str | None:
        left = self.unhandled(problem)
        if left or not 4 <= problem.n <= SYM_MAX_N:
            return f"counts the standard problem with 4 <= n <= {SYM_MAX_N} only (use method='general')"
        return None

    def count(self, problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
        return _count_symmetric(problem, threads, progress)

    def classes(self, problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
        c2, c4, c8, nodes = _symmetric_parts(problem, threads, progress)
        res = CountResult(2 * c2 + 4 * c4 + 8 * c8, c2 + c4 + c8, nodes, "native", "symmetric", threads=threads)
        return res, {1: 0, 2: c2, 4: c4, 8: c8}

    def split(
        self, problem: Problem, *, depth: int | None, least: int, force: bool
    ) -> tuple[int, list[tuple[int, ...]]]:
        self.check(problem)
        if depth is not None and depth not in (0, 1):
            raise QueensError(
                f"the symmetric split has depth 0 (a task per class and column of the first free row) or 1 (and "
                f"of the next row), got {validate.brief(depth)}"
            )
        check_size(problem, force)
        deep = problem.n >= SYM_DEEP_FROM if depth is None else depth == 1
        return int(deep), _sym_tasks(problem.n, deep)

    def count_task(
        self, problem: Problem, task: Sequence[int], *, unique: bool, force: bool, general: bool
    ) -> tuple[int, int | None, int]:
        if self.refusal(problem) is not None:
            raise UnsupportedProblem(f"symmetric tasks count the standard problem with 4 <= n <= {SYM_MAX_N} only")
        check_size(problem, force)
        try:
            entries = [validate.whole_number(x, "a task entry", minimum=0) for x in task]
        except (TypeError, ValueError):
            entries = []
        if len(entries) not in (3, 4):
            raise QueensError(
                f"a symmetric task is (corner, b1, column) or (corner, b1, column, column), got {validate.brief(task)}"
            )
        corner, b1, c = entries[:3]
        d = entries[3] if len(entries) == 4 else -1
        if corner not in (0, 1) or not 1 <= b1 < problem.n - 1 or c >= problem.n or d >= problem.n:
            raise QueensError(f"{validate.brief(task)} is not a symmetric task of n = {problem.n}")
        if general:
            rows = (c,) if d < 0 else (c, d)
            return _orbits_below(problem, (0, b1, *rows) if corner else (b1, *rows))
        c2, c4, c8, nodes = symmetric_counter()[1](problem.n, corner, b1, c, d, interrupt.FLAG)
        interrupt.check()
        return int(2 * c2 + 4 * c4 + 8 * c8), int(c2 + c4 + c8), int(nodes)

    def dispatchers(self) -> list[Callable]:
        return [symmetric_counter()[1]]

    def warm_up(self) -> None:
        self.count(Problem(8), True, 1, None)


class GeneralMethod(CountMethod):
    """The row-by-row walk over the compiled form (:class:`~queenslab.native.walker.Walker`)."""

    name = "general"
    summary = "the general search: every problem said in the compiled form, n <= 64"
    kinds = KINDS
    hooks = ("compile",)
    kernel_note = "the general search kernel"

    def refuses(self, problem: Problem, threads: int = 1) -> str | None:
        left = self.unhandled(problem)
        if left:
            return f"reads the compiled form, which the {left[0].kind} constraint does not say (it gives no compile())"
        return None

    def count(self, problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
        return _count_general(problem, unique, threads, progress)

    def classes(self, problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
        return _classes_general(problem, threads, progress)

    def split(
        self, problem: Problem, *, depth: int | None, least: int, force: bool
    ) -> tuple[int, list[tuple[int, ...]]]:
        self.check(problem)
        n = problem.n
        walk = Walker(problem)
        if depth is None:
            depth, prefixes = 0, np.zeros((1, 0), np.int64)
            while len(prefixes) < least and depth < min(n - 1, 6):
                depth += 1
                prefixes = walk.prefixes(depth)
            depth = max(depth, 0)
        else:
            depth = validate.whole_number(depth, "depth", minimum=0, maximum=n)
            force = validate.flag(force, "force")
            prefixes = walk.prefixes(depth, None if force else SPLIT.largest + 1)
            if len(prefixes) > SPLIT.largest:
                limits.check(
                    SPLIT,
                    len(prefixes),
                    force,
                    request=f"splitting n = {n} at depth {depth} (more than {SPLIT.largest:,} tasks)",
                    hint="give a smaller depth, or none for the default",
                )
        return depth, [tuple(int(x) for x in p) for p in prefixes]

    def count_task(
        self, problem: Problem, task: Sequence[int], *, unique: bool, force: bool, general: bool
    ) -> tuple[int, int | None, int]:
        self.check(problem)
        unique = validate.flag(unique, "unique")
        prefix = check_prefix(problem, task)
        check_subtree(problem, prefix, force)
        walk = Walker(problem, group=unique)
        found, canon, nodes, _ = walk.run(prefix, K.CANON if unique else K.COUNT)
        return int(found), (int(canon) if unique else None), int(nodes)

    def dispatchers(self) -> list[Callable]:
        return [K.walk]

    def warm_up(self) -> None:
        self.count(Problem(6), True, 1, None)  # the walk with the symmetry group: orbits
        self.count(Problem(6, toroidal=True), False, 1, None)


class BoardMethod(CountMethod):
    """The search that may leave rows empty (:mod:`queenslab.native.boards`)."""

    name = "board"
    summary = "the board search: k queens on an r x c board (rows may stay empty), every built-in kind, 64 x 64"
    kinds = KINDS
    hooks = ("compile",)
    boards = True
    kernel_note = "the board search kernel"
    subtrees = False

    def refuses(self, problem: Problem, threads: int = 1) -> str | None:
        left = self.unhandled(problem)
        if left:
            return f"reads the compiled form, which the {left[0].kind} constraint does not say (it gives no compile())"
        return None

    def splits(self, problem: Problem) -> bool:
        return False  # one task: its counts take seconds where the others' take hours

    def count(self, problem: Problem, unique: bool, threads: int, progress: Progress | None) -> CountResult:
        from . import boards

        found = boards.count(problem, unique)
        if progress is not None:
            progress(1, 1)
        return found

    def classes(self, problem: Problem, threads: int, progress: Progress | None) -> tuple[CountResult, dict[int, int]]:
        from . import boards

        return boards.classes(problem)

    def split(
        self, problem: Problem, *, depth: int | None, least: int, force: bool
    ) -> tuple[int, list[tuple[int, ...]]]:
        raise UnsupportedProblem("the board method counts in one task: it does not split a count")

    def count_task(
        self, problem: Problem, task: Sequence[int], *, unique: bool, force: bool, general: bool
    ) -> tuple[int, int | None, int]:
        raise UnsupportedProblem("the board method counts in one task: it has no tasks to count")

    def dispatchers(self) -> list[Callable]:
        from . import board_kernels as BK

        return [BK.board_search]

    def warm_up(self) -> None:
        self.count(Problem(5, queens=3), False, 1, None)  # the count, the last queen's rows at once
        self.count(Problem(4, columns=5, queens=3), True, 1, None)  # the orbits, a leap table


#: The counting methods, in the order "auto" tries them: the first that applies counts.
REGISTRY: dict[str, CountMethod] = {
    m.name: m for m in (JoinMethod(), SymmetricMethod(), GeneralMethod(), BoardMethod())
}


def named(name: str) -> CountMethod:
    """The method called ``name``; QueensError naming the methods for another name."""
    return REGISTRY[validate.choice(name, tuple(REGISTRY), "method")]


def choose(problem: Problem, method: str = "auto", threads: int = 1, split: bool = False) -> CountMethod:
    """The method a count (``split``: a split) of ``problem`` takes: the one named, checked,
    or for ``"auto"`` the first of :data:`REGISTRY` that applies (and splits it)."""
    if method != "auto":
        chosen = named(method)
        chosen.check(problem, threads)
        return chosen
    for candidate in REGISTRY.values():
        if candidate.applies(problem, threads) and (not split or candidate.splits(problem)):
            return candidate
    raise UnsupportedProblem(
        f"no native counting method handles {problem.describe()}: "
        + "; ".join(f"{m.name} {m.refusal(problem, threads)}" for m in REGISTRY.values())
    )
