"""The contract every backend of queenslab implements, its options and its result type.

A backend answers three questions with the same meaning everywhere:

* ``counts(problem, *, unique=False, **opts)`` -- a :class:`CountResult`: the number of
  solutions and, with ``unique=True``, the number of orbits under
  ``problem.symmetries()``; a run stopped by a limit says ``complete=False``;
* ``solutions(problem, *, limit=None, **opts)`` -- an iterator of 0-based tuples;
* ``solve(problem, **opts)`` -- one solution, or None when there is none.

A backend class implements two methods, :meth:`Backend._counts` and
:meth:`Backend._solutions` (and :meth:`Backend._solve` where it has a faster way than
taking the first solution). The base class does the rest once for every backend: it
checks the problem, refuses options the backend does not declare (they are never
silently ignored), validates each option's value against its :class:`Option`, times the
count, and derives :meth:`Backend.count`, which raises
:class:`~queenslab.errors.Incomplete` instead of returning a lower bound as if it were
the answer.

Each backend declares its options as a tuple of :class:`Option`, with their types,
defaults and help; the command line builds its flags and help from these declarations
(``queenslab count --help``). Options shared by several backends (``limit``,
``time_limit``, ``threads``, ``seed``, ``assume_symmetric``) are the module-level
constants below, so they mean the same thing everywhere.

The solver backends also take a ``model`` (Python only): a model from the ``build``
function of :mod:`queenslab.models.cpsat`, :mod:`~queenslab.models.cnf` or
:mod:`~queenslab.models.cpmpy`, possibly edited, which the backend counts, enumerates or
solves as it is. The model modules build; counting and solving a model goes through its
backend, with the backend's option checks, like any other request.
"""

from __future__ import annotations

import math
import numbers
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .. import interrupt, limits, validate
from ..constraints import Constraint, unhandled
from ..errors import QueensError, UnknownOption, UnsupportedProblem
from ..problem import Problem
from ..result import CountResult

__all__ = [
    "Backend",
    "CountResult",
    "Option",
    "LIMIT",
    "TIME_LIMIT",
    "THREADS",
    "SEED",
    "PROGRESS",
    "FORCE",
    "ASSUME_SYMMETRIC",
    "COUNTS",
    "SOLUTIONS",
    "SOLVE",
]

#: The three questions, as the names an :class:`Option` applies to.
COUNTS, SOLUTIONS, SOLVE = "counts", "solutions", "solve"
_ALL = frozenset({COUNTS, SOLUTIONS, SOLVE})


@dataclass(frozen=True)
class Option:
    """One option of a backend: its name, type, default and help.

    Parameters
    ----------
    name : str
        Keyword name in Python (``time_limit``); the command line spells it
        ``--time-limit``.
    kind : {"int", "float", "real", "str", "flag", "choice", "object"}
        ``int`` / ``float`` take ``minimum`` (and ``open_minimum`` for a strict bound);
        ``int`` also ``maximum`` (default :data:`INT64_MAX`, what a kernel or solver can hold);
        ``float`` is a positive number of seconds; ``real`` is a finite number between
        ``minimum`` and ``real_maximum`` (``open_minimum`` / ``open_maximum`` exclude
        them), such as a tolerance or a probability;
        ``choice`` takes ``choices``; ``object`` (a model, a callback) is for Python
        only and has no command-line flag.
    help : str
        One sentence for people.
    default : object
        What the backend uses when the option is not given (shown in help).
    applies_to : frozenset of str
        Which of ``counts``, ``solutions``, ``solve`` take it.
    metavar : str, optional
        The value's name in command-line help.
    command_line : bool, default True
        False for an option that means something only in Python (one about a given
        ``model``): it gets no command-line flag, whatever its kind.
    """

    name: str
    kind: str
    help: str
    default: Any = None
    minimum: float | None = None
    open_minimum: bool = False
    maximum: int = 2**63 - 1
    choices: tuple[str, ...] = ()
    applies_to: frozenset[str] = _ALL
    metavar: str | None = None
    command_line: bool = True
    real_maximum: float | None = None
    open_maximum: bool = False

    @property
    def flag(self) -> str:
        """The command-line spelling, e.g. ``--time-limit``."""
        return "--" + self.name.replace("_", "-")

    @property
    def on_command_line(self) -> bool:
        """Whether the command line offers this option as a flag."""
        return self.command_line and self.kind != "object"

    def check(self, value: Any) -> Any:
        """``value`` validated (and normalised) for this option, or a :class:`QueensError`."""
        if value is None:
            return None
        if self.kind == "int":
            number = validate.whole_number(value, self.name, minimum=int(self.minimum or 0))
            if number > self.maximum:
                raise QueensError(
                    f"{self.name} must be an integer in {int(self.minimum or 0)}..{self.maximum}, got {value!r}"
                )
            return number
        if self.kind == "float":
            return validate.positive_seconds(value, self.name)
        if self.kind == "real":
            return self._real(value)
        if self.kind == "flag":
            return validate.flag(value, self.name)
        if self.kind == "choice":
            return validate.choice(getattr(value, "value", value), self.choices, self.name)
        if self.kind == "str" and not isinstance(value, str):
            raise QueensError(f"{self.name} must be a string, got {value!r}")
        return value

    @property
    def real_range(self) -> str:
        """The values a ``real`` option takes, e.g. ``0 < delta < 1`` or ``epsilon > 0``."""
        low, high = self.minimum, self.real_maximum
        if low is None and high is None:
            return f"{self.name} finite"
        if high is None:
            return f"{self.name} {'>' if self.open_minimum else '>='} {low:g}"
        if low is None:
            return f"{self.name} {'<' if self.open_maximum else '<='} {high:g}"
        return f"{low:g} {'<' if self.open_minimum else '<='} {self.name} {'<' if self.open_maximum else '<='} {high:g}"

    def _real(self, value: Any) -> float:
        """``value`` as a float within the option's range, or a :class:`QueensError`."""
        number = None
        if not isinstance(value, bool) and isinstance(value, numbers.Real):
            number = float(value)
        below = (
            number is not None
            and self.minimum is not None
            and (number <= self.minimum if self.open_minimum else number < self.minimum)
        )
        above = (
            number is not None
            and self.real_maximum is not None
            and (number >= self.real_maximum if self.open_maximum else number > self.real_maximum)
        )
        if number is None or not math.isfinite(number) or below or above:
            raise QueensError(f"{self.name} must be a number with {self.real_range}, got {validate.brief(value)}")
        return number


#: Stop a count after this many solutions; the count is then reported as incomplete.
LIMIT = Option(
    "limit",
    "int",
    "stop after K solutions (the count is then incomplete, a lower bound)",
    minimum=1,
    applies_to=frozenset({COUNTS}),
    metavar="K",
)
#: Stop after this many seconds; a count is then reported as incomplete.
TIME_LIMIT = Option(
    "time_limit",
    "float",
    "stop after S seconds (a count is then incomplete, a lower bound)",
    open_minimum=True,
    metavar="S",
)
#: Threads to count on (the result does not depend on it).
THREADS = Option(
    "threads",
    "int",
    "threads (default: every core)",
    minimum=1,
    maximum=validate.MAX_THREADS,
    applies_to=frozenset({COUNTS}),
    metavar="T",
)
#: Random seed of a solver.
SEED = Option(
    "seed", "int", "random seed of the solver", default=0, minimum=0, maximum=validate.MAX_SOLVER_SEED, metavar="S"
)
#: A callback ``progress(done, total)`` after each finished task (Python only).
PROGRESS = Option(
    "progress",
    "object",
    "callable progress(done, total) after each finished task",
    applies_to=frozenset({COUNTS}),
)


#: Go ahead beyond a practical limit: the backend's of an exact count
#: (:attr:`Backend.practical_limit`), and those of its model or search (building a model,
#: a solver's or the lexicographic search for solutions).
FORCE = Option(
    "force",
    "flag",
    "allow requests beyond the practical limits (of an exact count, of building a model, of a search for "
    "solutions); the error of a refused request names its limit and what it costs",
    default=False,
)


#: Count an edited lex-leader ``model`` (Python only): the added constraints are declared
#: symmetric under the problem's group, so the model's count is still a number of orbits
#: (:func:`queenslab.models.breaking.check_model_count`).
ASSUME_SYMMETRIC = Option(
    "assume_symmetric",
    "flag",
    "with an edited lex-leader model: the constraints added to it are symmetric, so its count is a number of orbits",
    default=False,
    applies_to=frozenset({COUNTS}),
    command_line=False,
)


class Backend(ABC):
    """Abstract base class of a queenslab backend (see the module docstring).

    Subclasses set :attr:`name`, :attr:`summary` and :attr:`options`, and implement
    :meth:`_counts` and :meth:`_solutions` (optionally :meth:`_solve`). Optional
    packages are imported inside those methods, so that registering a backend costs
    nothing at start-up; a missing one raises
    :class:`~queenslab.errors.MissingDependency` naming the pip extra.
    """

    #: Registry name (``--backend NAME``).
    name: ClassVar[str] = ""
    #: The constraint kinds this backend handles (an allow-list: a problem holding a
    #: constraint of another kind is refused, never counted without it) ...
    kinds: ClassVar[tuple[type[Constraint], ...]] = ()
    #: ... and the constraint hooks it reads (``"compile"``: the compiled form;
    #: ``"encode_cpsat"``, ...: a kind's own encoding), by which it handles a kind
    #: defined outside the package.
    hooks: ClassVar[tuple[str, ...]] = ()
    #: Whether it counts k queens on an r x c board (rows may stay empty, a rectangle):
    #: a backend that does not is refused such a problem, never counts it as n queens.
    boards: ClassVar[bool] = False
    #: One line for ``--help`` and the docs.
    summary: ClassVar[str] = ""
    #: The options this backend takes besides the signatures' arguments.
    options: ClassVar[tuple[Option, ...]] = ()
    #: The largest n this backend counts without ``force=True``, a ``limit`` or a
    #: ``time_limit`` (None: no limit checked here; the native engine checks its own).
    practical_limit: ClassVar[int | None] = None
    #: What a count beyond the limit would take, for the message.
    practical_note: ClassVar[str] = ""
    #: Whether :meth:`count_classes` breaks a count down by orbit size as it searches.
    can_classify: ClassVar[bool] = False
    #: Whether a count can be split into tasks, recorded in a ledger or run on Dask
    #: (:mod:`queenslab.distributed` splits the native engine's search).
    can_split: ClassVar[bool] = False
    #: Whether its counts are estimates with a probabilistic guarantee
    #: (:class:`~queenslab.backends.approximate.ApproximateCount`) rather than exact
    #: numbers; :func:`~queenslab.backends.crosscheck.crosscheck` runs such a backend only
    #: when asked, and never lets it decide an agreement.
    approximate: ClassVar[bool] = False
    #: For a backend that counts by enumerating every solution: about how many it finds a
    #: second on the standard problem of size :attr:`rate_n` (measured), and the seconds it
    #: takes to start a count. :meth:`predicted_seconds` turns them into the cost of a
    #: count whose answer is known, by which a crosscheck lets a solver count beyond its
    #: practical limit when the problem at hand is cheap for it. None: its cost does not
    #: follow the solutions.
    enumeration_rate: ClassVar[float | None] = None
    rate_n: ClassVar[int] = 12
    start_seconds: ClassVar[float] = 0.5

    def predicted_seconds(self, problem: Problem, count: int, unique: int | None) -> float | None:
        """The predicted seconds of a count of ``problem`` that finds ``count`` solutions
        (and ``unique`` orbits, one lex-leader model more), or None when this backend's
        cost does not follow the number of solutions.

        Each solution costs more on a larger board (a larger model to search again, a
        longer clause to block it): the rate measured at :attr:`rate_n` is scaled by
        ``(rate_n / n)**3``, which held for the SAT enumeration from n = 12 to 15.

        Examples
        --------
        >>> from queenslab.backends import get_backend
        >>> sat = get_backend("sat")
        >>> round(sat.predicted_seconds(Problem(13), 73712, 9233))  # measured: 31 s
        33
        """
        if self.enumeration_rate is None:
            return None
        models = 1 if unique is None else 2
        side = max(problem.n, problem.columns)
        rate = self.enumeration_rate * min(1.0, (self.rate_n / side) ** 3)
        return models * self.start_seconds + (count + (unique or 0)) / rate

    def independent_counts(self, problem: Problem) -> list[dict[str, Any]]:
        """The option sets under which this backend counts ``problem`` by independent
        algorithms; :func:`~queenslab.backends.crosscheck.crosscheck` runs each as a row
        of its own. Default: one count, with no option."""
        return [{}]

    # ------------------------------------------------------------------ derived
    def option(self, name: str) -> Option | None:
        """The declared option called ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)

    def check_options(self, opts: dict[str, Any], question: str = COUNTS) -> dict[str, Any]:
        """Validate ``opts`` for one question; returns them normalised (None values dropped).

        Raises
        ------
        UnknownOption
            For an option this backend does not declare for ``question``.
        QueensError
            For a value its :class:`Option` refuses.
        """
        takes = {o.name: o for o in self.options if question in o.applies_to}
        unknown = sorted(set(opts) - set(takes))
        if unknown:
            allowed = ", ".join(sorted(takes)) or "none"
            # an option this backend takes for another question: say which, and why
            elsewhere = [
                f"{o.name} is for {' and '.join(sorted(o.applies_to))} only ({o.help})"
                for o in self.options
                if o.name in unknown
            ]
            raise UnknownOption(
                f"backend {self.name!r} does not take option(s) {', '.join(unknown)} for "
                f"{question}; it accepts: {allowed}" + "".join(f"; {text}" for text in elsewhere),
                flags_message=self._unknown_flags(unknown, takes.values(), question),
            )
        out = {k: takes[k].check(v) for k, v in opts.items()}
        return {k: v for k, v in out.items() if v is not None}

    def _unknown_flags(self, unknown: list[str], takes: Iterable[Option], question: str) -> str:
        """The message of an unknown option in the command line's terms: its flags, and
        the flags this backend takes for ``question`` (options with no flag left out)."""
        doing = {COUNTS: "a count", SOLUTIONS: "listing solutions", SOLVE: "solving"}.get(question, question)
        flags = sorted(o.flag for o in takes if o.on_command_line)
        named = [o.flag if (o := self.option(name)) is not None else "--" + name.replace("_", "-") for name in unknown]
        text = f"the {self.name} backend does not take {', '.join(named)} for {doing}; "
        text += f"it takes {', '.join(flags)}" if flags else "it takes no backend flag"
        for o in self.options:
            if o.name in unknown and o.on_command_line:
                text += f"; {o.flag} is for {' and '.join(sorted(o.applies_to))} only ({o.help})"
        return text

    def _check_problem(self, problem: Problem) -> None:
        """Refuse anything but a Problem, and a problem with a constraint this backend
        does not handle (naming the backends that do)."""
        if not isinstance(problem, Problem):
            raise QueensError(f"expected a queenslab Problem, got {type(problem).__name__}")
        if not problem.is_plain_board and not self.boards:
            others = [be.name for be in _registered() if be.boards and not be.unhandled(problem)]
            raise UnsupportedProblem(
                f"the {self.name} backend counts n queens on an n x n board, not {problem.describe()}; "
                f"backends that count k queens on an r x c board: {', '.join(others)}"
            )
        left = self.unhandled(problem)
        if left:
            c = left[0]
            others = [be.name for be in _registered() if be.name != self.name and not be.unhandled(problem)]
            read_by = getattr(type(c), "READ_BY", "")  # a kind of the package that only other tools read
            raise UnsupportedProblem(
                f"the {self.name} backend does not handle the {c.kind} constraint (the problem: {problem.describe()})"
                + (
                    f"; backends that do: {', '.join(others)}"
                    if others
                    else f"; no counting backend does: it is read by {read_by}"
                    if read_by
                    else f"; no backend of queenslab does: give {type(c).__name__} a compile() (said in the compiled "
                    "form's words, read by every backend) or its own encode_cpsat / encode_cnf / encode_cpmpy"
                )
            )

    @classmethod
    def unhandled(cls, problem: Problem) -> list[Constraint]:
        """The constraints of ``problem`` this backend does not handle (empty: it counts it)."""
        return unhandled(problem.constraints, cls.kinds, cls.hooks)

    def counts(self, problem: Problem, *, unique: bool = False, **opts: Any) -> CountResult:
        """The number of solutions (and with ``unique`` of orbits) as a :class:`CountResult`."""
        self._check_problem(problem)
        unique = validate.flag(unique, "unique")
        opts = self.check_options(opts, COUNTS)
        self._check_reach(problem, opts)
        t0 = time.perf_counter()
        # off the main thread, so that Ctrl-C stops any backend (a partial count raises)
        result = interrupt.run(self._counts, problem, unique, **opts)
        seconds = time.perf_counter() - t0
        note = result.note or problem.contradiction
        return replace(result, backend=result.backend or self.name, seconds=seconds, note=note)

    def check_reach(self, problem: Problem, **opts: Any) -> None:
        """Refuse up front a count of ``problem`` beyond this backend's practical limit
        (a range of counts checks its largest problem before the first count).

        Raises
        ------
        TooLarge
            Unless ``force``, ``limit`` or ``time_limit`` says to go ahead.
        """
        self._check_problem(problem)
        self._check_reach(problem, self.check_options(opts, COUNTS))

    def count_classes(self, problem: Problem, **opts: Any) -> CountResult:
        """The count with its orbits broken down by size (``result.classes``), where the
        backend's search classifies them as it counts (:attr:`can_classify`).

        Raises
        ------
        UnsupportedProblem
            For a backend that does not.
        """
        raise UnsupportedProblem(f"the {self.name} backend does not break a count down by orbit size")

    def _check_reach(self, problem: Problem, opts: dict[str, Any]) -> None:
        """Refuse an exact count beyond :attr:`practical_limit` (it would run for hours,
        or days) unless ``force``, ``limit`` or ``time_limit`` says to go ahead; ``force``
        stays in ``opts`` for the backend's model (its own limits)."""
        reach = self.reach()
        if reach is None or opts.get("limit") or opts.get("time_limit"):
            return
        takes = {option.name for option in self.options}
        bounded = [flag for name, flag in (("limit", "a limit"), ("time_limit", "a time limit")) if name in takes]
        hint = "use the native backend" + (f", or give {' or '.join(bounded)} for a lower bound" if bounded else "")
        limits.check(reach, problem.n, bool(opts.get("force", False)), hint=hint)

    @classmethod
    def reach(cls) -> limits.Limit | None:
        """The practical limit of an exact count with this backend, from
        :attr:`practical_limit` and :attr:`practical_note` (None: no limit checked here)."""
        if cls.practical_limit is None:
            return None
        return limits.Limit(f"counting with the {cls.name} backend", cls.practical_limit, "n", cls.practical_note)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        reach = cls.reach() if cls.name else None
        if reach is not None:  # listed with every other practical limit (limits.DECLARED)
            limits.declare(reach.name, reach.largest, reach.unit, reach.cost, owner=cls.__module__)

    def count(self, problem: Problem, *, unique: bool = False, **opts: Any) -> int:
        """The number of solutions (``unique=True``: of orbits).

        Raises
        ------
        Incomplete
            When a limit stopped the count (``found`` holds the lower bound).
        """
        return self.counts(problem, unique=unique, **opts).value(unique)

    def solutions(self, problem: Problem, *, limit: int | None = None, **opts: Any) -> Iterator[tuple[int, ...]]:
        """Iterate over solutions (at most ``limit``), as 0-based tuples."""
        self._check_problem(problem)
        limit = validate.optional_whole_number(limit, "limit")
        opts = self.check_options(opts, SOLUTIONS)
        if limit == 0:
            return iter(())
        return self._solutions(problem, limit, **opts)

    def solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        """One solution as a 0-based tuple, or None when the problem has none."""
        self._check_problem(problem)
        return interrupt.run(self._solve, problem, **self.check_options(opts, SOLVE))

    # ------------------------------------------------------------ to implement
    @abstractmethod
    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        """Count; ``opts`` are declared and validated. Set ``complete=False`` when a
        limit stopped the search."""

    @abstractmethod
    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        """Iterate over at most ``limit`` (None: all, never 0) solutions."""

    def _solve(self, problem: Problem, **opts: Any) -> tuple[int, ...] | None:
        """One solution: by default the first of :meth:`_solutions`."""
        return next(iter(self._solutions(problem, 1, **opts)), None)


def _registered() -> list[type[Backend]]:
    """Every backend class with a registry name, in the order they were defined."""
    out, todo = [], list(Backend.__subclasses__())
    while todo:
        cls = todo.pop(0)
        if cls.name and not getattr(cls, "__abstractmethods__", None):
            out.append(cls)
        todo.extend(cls.__subclasses__())
    return out
