"""The rules a trace's steps follow: each traced method's own, checked step by step.

A trace file is input like a problem file, so a step sequence that no search can make is
refused before anything is drawn or reported. :func:`check_steps` replays the steps on an
empty board and holds every one to the rules of the method the header names:

==================  ==================================================================
method              its steps, and what each may do
==================  ==================================================================
``backtrack``       exactly the native engine's lexicographic walk on the problem, step
                    for step: ``place`` the lowest column of the first empty row that
                    no queen attacks, ``move`` the deepest queen to its row's next such
                    column, ``remove`` it when none is left, ``solution`` on every full
                    board that solves the problem, and nothing after the solutions the
                    header's ``solutions`` asks for (a step that breaks what every
                    placement respects -- a blocked cell, an attacked queen, a region
                    over its bound, a solution on a board that is not one -- is named
                    as such)
``selfcorrect``     ``start`` on a full board, then ``move`` a queen one column on
                    (cyclically, as the self-correcting Queens program's queens do);
                    at most 1001 tries
``minconflicts``    ``start`` on a permutation, then ``swap`` two different rows; at
                    most 101 tries
``ga``              ``best`` of generations 0, 1, 2, ... in order, each a full board
``orbit-search``    ``orbit``: a solution of the standard problem from an orbit not
                    reached before, of generation 1 for ``Inc`` and at most one more
                    than the generations before it for ``Mov``
==================  ==================================================================

The local searches and the genetic algorithm stop at their first solution (no step
follows a board on which no queen attacks another), and 2 and 3 queens, which have no
solution, have no step. With the header's ``complete``, the last step must be where the
search ends -- backtracking's last solution asked for or the end of its tree, a local
search's solution or its last try, the genetic algorithm's solution or its last
generation -- or, when ``complete`` is false, a step after which it goes on.

The first step that breaks a rule is refused with :class:`InvalidTrace`, naming its step
number (1 is the line after the header), the step as written (0-based) and the rule.

Examples
--------
>>> from queenslab import Problem
>>> from queenslab.trace.steps import Step
>>> check_steps("backtrack", Problem(8), [Step("place", 0, 0), Step("place", 1, 1)], {"solutions": 1})
Traceback (most recent call last):
...
queenslab.errors.InvalidTrace: step 2 ["place", 1, 1]: the queen on row 1, column 1 is attacked by the queen on row 0, column 0 (diagonal); backtracking puts a queen only where no queen above it attacks (rows and columns 0-based, as in the file)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import Any

from .. import validate
from ..compiled import BITBOARD_MAX_N, compile_problem
from ..errors import InvalidTrace, QueensError
from ..problem import Problem, as_problem, leap_offsets
from ..solution import why_not_solution
from .steps import METHODS, Step, Trace, mark_checked, step_fits, step_json

__all__ = ["checked", "InvalidTrace", "METHOD_OPS", "MAX_TRIES", "check_steps"]


#: The ops each traced method writes.
METHOD_OPS: dict[str, tuple[str, ...]] = {
    "backtrack": ("place", "move", "remove", "solution"),
    "selfcorrect": ("start", "move"),
    "minconflicts": ("start", "swap"),
    "ga": ("best",),
    "orbit-search": ("orbit",),
}
#: The most tries (``start`` steps) of the local searches: their default restarts + 1.
MAX_TRIES = {"selfcorrect": 1001, "minconflicts": 101}
#: The last generation the genetic algorithm breeds.
GA_GENERATIONS = 10_000
#: An orbit operator as the orbit search writes it, in Zhang and Zhang's notation.
_OPERATOR = re.compile(r"(Inc|Mov)\(-?[0-9]{1,7}(\.5)?(, -?[0-9]{1,7}(\.5)?){1,3}\)")
_OPERATOR_CHARS = 80


def _quoted(step: Step) -> str:
    """The step as its line in the file (0-based), for messages."""
    text = ", ".join(_short(v) for v in step_json(step))
    return f"[{text}]"


def _short(value: object) -> str:
    if isinstance(value, list):
        inner = ", ".join(map(str, value[:8]))
        return f"[{inner}{', ...' if len(value) > 8 else ''}]"
    return f'"{value}"' if isinstance(value, str) else str(value)


class _Refusal(Exception):
    """A rule broken by the step being checked (the reason); made an InvalidTrace with the
    step's number by :func:`check_steps`."""


def check_steps(
    method: str, problem: Problem, steps: Sequence[Step], options: Mapping[str, Any], complete: bool | None = None
) -> None:
    """Replay ``steps`` on an empty board and refuse the first one that ``method`` cannot take.

    Parameters
    ----------
    method : str
        One of :data:`~queenslab.trace.steps.METHODS`.
    problem : Problem
        The problem traced (a variant for ``backtrack`` only).
    steps : sequence of Step
        Already checked one by one against the board size (rows and columns on the board).
    options : mapping
        The header's options (``solutions`` of backtracking).
    complete : bool, optional
        The header's ``complete``: whether the search ran to its end. When given, the last
        step must be where the search ends (True) or a step after which it goes on
        (False); a lie is refused as a missing step (``step K+1``).

    Raises
    ------
    InvalidTrace
        ``"step K [op, ...]: reason"`` for the first step that breaks a rule (K = 1 for the
        line after the header), or a step that does not fit the board.
    QueensError
        An unknown method, a ``problem`` that is not a Problem, ``steps`` that are not a
        sequence, ``options`` that are not a mapping.
    """
    if not (isinstance(method, str) and method in METHODS):
        raise QueensError(f"unknown method {validate.brief(method)}; traces are of {', '.join(METHODS)}")
    problem = as_problem(problem)
    if not isinstance(options, Mapping):
        raise QueensError(f"options must be a mapping (a trace header's options), got {validate.brief(options)}")
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
        raise QueensError(f"steps must be a sequence of Step, got {validate.brief(steps)}")
    for k, step in enumerate(steps, 1):
        if not step_fits(step, problem.n):
            raise InvalidTrace(f"step {k} ({validate.brief(step)}) is not a step that fits the {problem.n}-board")
    if method == "backtrack" and problem.n > BITBOARD_MAX_N:
        raise InvalidTrace(f"backtracking is traced on the native engine's 64-bit rows: n <= 64, got {problem.n}")
    if method != "backtrack" and not problem.is_standard:
        raise InvalidTrace(f"{method} is traced on the standard problem only, not on {problem.describe()}")
    solutions = options.get("solutions", 0)
    if not (isinstance(solutions, int) and not isinstance(solutions, bool) and solutions >= 0):
        raise QueensError(f"the option solutions is an integer >= 0, got {validate.brief(solutions)}")
    if complete is not None and not isinstance(complete, bool):
        raise QueensError(f"complete must be True, False or None, got {validate.brief(complete)}")
    allowed = METHOD_OPS[method]
    take, end = _RULES[method](problem, options, len(steps))
    if problem.n in (2, 3) and method != "backtrack" and steps:
        raise InvalidTrace(
            f"step 1 {_quoted(steps[0])}: {problem.n}-queens has no solution, and {method} makes no step"
        )
    for k, step in enumerate(steps, 1):
        try:
            if step.op not in allowed:
                raise _Refusal(f"{method} writes only {', '.join(allowed)} steps, not {step.op}")
            take(step)
        except _Refusal as e:
            raise InvalidTrace(f"step {k} {_quoted(step)}: {e}") from None
    if complete is not None:
        try:
            end(complete)
        except _Refusal as e:
            raise InvalidTrace(f"step {len(steps) + 1} (after the last): {e}") from None


def _cell(r: int, c: int) -> str:
    return f"row {r}, column {c}"


_BASED = " (rows and columns 0-based, as in the file)"


_Rules = tuple[Callable[[Step], None], Callable[[bool], None]]
_WALK = (
    "it tries each row's columns in increasing order, goes a row deeper while the next row has a column that no "
    "queen attacks, and takes a queen off only when its row has no column left"
)


def _backtrack(problem: Problem, options: Mapping[str, Any], count: int) -> _Rules:
    """The lexicographic walk, step for step: each step is first checked for what any
    placement must respect (to say why a step is wrong), then compared with the step the
    walk itself takes there (the native engine's walk on the problem's compiled tables,
    run as far as the trace goes and one step further)."""
    from .backtrack import backtrack_chunks  # the native kernels: loaded for a backtracking trace only

    legal = _backtrack_placements(problem, options)
    wanted = options.get("solutions", 0)
    walk = chain.from_iterable(chunk.steps for chunk in backtrack_chunks(problem, count + 1, wanted))
    found = [0]

    def ended() -> str:
        if wanted and found[0] == wanted:
            return f"it had found the {wanted} solution(s) the header's options ask for"
        return "it had searched the whole tree"

    def take(step: Step) -> None:
        legal(step)
        want = next(walk, None)
        if want is None:
            raise _Refusal(f"backtracking has ended before this step: {ended()}")
        if step != want:
            raise _Refusal(f"backtracking takes {_quoted(want)} here: {_WALK}")
        found[0] += step.op == "solution"

    def end(complete: bool) -> None:
        more = next(walk, None)
        if complete and more is not None:
            raise _Refusal(f"the header says the search ran to its end, but backtracking goes on with {_quoted(more)}")
        if not complete and more is None:
            raise _Refusal(f"the header says the step cap cut the search, but backtracking ends here: {ended()}")

    return take, end


def _backtrack_placements(problem: Problem, options: Mapping[str, Any]) -> Callable[[Step], None]:
    """What every step of the walk respects: the board is always rows 0..depth-1 filled,
    the rest empty, and no queen is on a cell the problem forbids or under attack."""
    n = problem.n
    compiled = compile_problem(problem)
    allowed = [int(x) for x in compiled.allowed]
    wrap = compiled.toroidal
    jumps = leap_offsets(compiled.leaps)
    regions = [(set(region.cells), region.upper) for region in compiled.regions]
    board = [-1] * n
    lines: Counter[tuple[int, int]] = Counter()  # (family, key) -> queens on that line
    held = [0] * len(regions)
    wanted = options.get("solutions", 0)
    state: dict[str, Any] = {"depth": 0, "found": 0, "last": ""}

    def keys(r: int, c: int) -> tuple[tuple[int, int], ...]:
        if wrap:
            return (0, c), (1, (c - r) % n), (2, (c + r) % n)
        return (0, c), (1, c - r), (2, c + r)

    def lift(r: int) -> None:
        c = board[r]
        for key in keys(r, c):
            lines[key] -= 1
        for i, (cells, _) in enumerate(regions):
            held[i] -= (r, c) in cells
        board[r] = -1

    def put(r: int, c: int) -> None:
        if not allowed[r] >> c & 1:
            raise _Refusal(
                f"{_cell(r, c)} is not a cell of {problem.describe()} that a queen may take (it is blocked, in a "
                f"region that allows no queen, off its row's fixed queen, or attacked by a fixed queen){_BASED}"
            )
        for family, key in keys(r, c):
            if lines[family, key]:
                other = next(i for i in range(r) if board[i] >= 0 and (family, key) in keys(i, board[i]))
                how = ("column", "diagonal", "anti-diagonal")[family]
                raise _Refusal(
                    f"the queen on {_cell(r, c)} is attacked by the queen on {_cell(other, board[other])} ({how}); "
                    f"backtracking puts a queen only where no queen above it attacks{_BASED}"
                )
        for dr, dc in jumps:
            rr, cc = r + dr, c + dc
            if wrap:
                rr, cc = rr % n, cc % n
            if 0 <= rr < n and 0 <= cc < n and board[rr] == cc:
                how = compiled.attack((rr, cc), (r, c)) or "a leaper"
                raise _Refusal(
                    f"the queen on {_cell(r, c)} is attacked by the queen on {_cell(rr, cc)} ({how}); "
                    f"backtracking puts a queen only where no queen above it attacks{_BASED}"
                )
        for i, (cells, upper) in enumerate(regions):
            if (r, c) in cells and held[i] + 1 > upper:
                raise _Refusal(
                    f"a queen on {_cell(r, c)} puts {held[i] + 1} queens on region {i + 1} "
                    f"({compiled.regions[i].describe()}), more than its bound allows{_BASED}"
                )
        for line in keys(r, c):
            lines[line] += 1
        for i, (cells, _) in enumerate(regions):
            held[i] += (r, c) in cells
        board[r] = c

    def take(step: Step) -> None:
        depth = state["depth"]
        op, r, c = step.op, step.row, step.col
        if op == "place":
            if r != depth:
                where = "the board is full" if depth == n else f"the first empty row is {depth}"
                raise _Refusal(f"backtracking fills the rows in order and {where}, not row {r}")
            put(r, c)
            state["depth"] = depth + 1
        elif op in ("move", "remove"):
            if depth == 0 or r != depth - 1:
                where = "the board is empty" if depth == 0 else f"the deepest queen is on row {depth - 1}"
                raise _Refusal(f"backtracking changes only its deepest queen, and {where}, not row {r}")
            old = board[r]
            lift(r)
            if op == "remove":
                state["depth"] = depth - 1
            else:
                if c <= old:
                    raise _Refusal(
                        f"backtracking tries a row's columns in increasing order: the queen of row {r} is on "
                        f"column {old} and cannot move to column {c}{_BASED}"
                    )
                put(r, c)
        else:  # solution
            if state["last"] == "solution":
                raise _Refusal("the board has not changed since the last solution step")
            if depth < n:
                raise _Refusal(f"a solution step needs a full board; rows {depth}..{n - 1} are empty{_BASED}")
            why = why_not_solution(problem, board)
            if why is not None:
                raise _Refusal(f"the board is not a solution: {why} (cells 1-based)")
            state["found"] += 1
            if wanted and state["found"] > wanted:
                raise _Refusal(f"the header's options ask for {wanted} solution(s), and this is one more")
        state["last"] = op

    return take


def _full(board: Sequence[int], what: str) -> None:
    if any(c < 0 for c in board):
        raise _Refusal(f"{what} sets a full board, one queen in every row (no -1)")


class _Pairs:
    """The attacking pairs of a full board under the standard rules, kept up to date move
    by move (O(1) a move): the local searches stop at the first board without one."""

    def __init__(self, board: Sequence[int]):
        self.board = list(board)
        self.lines: Counter[tuple[int, int]] = Counter()
        self.pairs = 0
        for r, c in enumerate(self.board):
            self._add(r, c, 1)

    def _add(self, r: int, c: int, sign: int) -> None:
        for key in ((0, c), (1, r - c), (2, r + c)):
            if sign < 0:
                self.lines[key] -= 1
                self.pairs -= self.lines[key]
            else:
                self.pairs += self.lines[key]
                self.lines[key] += 1

    def move(self, r: int, c: int) -> None:
        self._add(r, self.board[r], -1)
        self.board[r] = c
        self._add(r, c, 1)


def _local(method: str, board_rule: Callable[[Sequence[int]], None], move: str) -> Callable[..., _Rules]:
    """The rules of a local search: tries from a full board, then one kind of move, until
    the first board on which no queen attacks another."""

    def rules(problem: Problem, options: Mapping[str, Any], count: int) -> _Rules:
        n = problem.n
        state: dict[str, Any] = {"board": None, "tries": 0}

        def solved() -> bool:
            return state["board"] is not None and state["board"].pairs == 0

        def take(step: Step) -> None:
            if solved():
                raise _Refusal(f"{method} stops at its first solution, and the board before this step was one")
            if step.op == "start":
                state["tries"] += 1
                if state["tries"] > MAX_TRIES[method]:
                    raise _Refusal(f"{method} makes at most {MAX_TRIES[method]} tries, and this is one more")
                assert step.board is not None
                board_rule(step.board)
                state["board"] = _Pairs(step.board)
                return
            pairs = state["board"]
            if pairs is None:
                raise _Refusal(f"{method} moves queens only after its first start step")
            board = pairs.board
            r, c = step.row, step.col
            if move == "move":
                if n == 1 or c != (board[r] + 1) % n:
                    raise _Refusal(
                        f"the self-correcting search moves a queen one column on (cyclically): row {r}'s queen is "
                        f"on column {board[r]} and can move only to column {(board[r] + 1) % n}{_BASED}"
                        if n > 1
                        else "a queen of the 1-board has no other column to move to"
                    )
                pairs.move(r, c)
            else:
                if r == c:
                    raise _Refusal("min-conflicts swaps the columns of two different rows")
                a, b = board[r], board[c]
                pairs.move(r, b)
                pairs.move(c, a)

        def end(complete: bool) -> None:
            done = solved() or state["tries"] == MAX_TRIES[method] or n in (2, 3)
            if complete and not done:
                raise _Refusal(
                    f"the header says the search ran to its end, but its last board is not a solution and it made "
                    f"{state['tries']} of its {MAX_TRIES[method]} tries"
                )
            if not complete and solved():
                raise _Refusal("the header says the step cap cut the search, but its last board is a solution")

        return take, end

    return rules


def _start_full(board: Sequence[int]) -> None:
    _full(board, "a start step")


def _start_permutation(board: Sequence[int]) -> None:
    if sorted(board) != list(range(len(board))):
        raise _Refusal("min-conflicts starts from a permutation: every column exactly once")


def _genetic(problem: Problem, options: Mapping[str, Any], count: int) -> _Rules:
    expected = [0]
    solved = [False]

    def take(step: Step) -> None:
        if solved[0]:
            raise _Refusal("the genetic algorithm stops at its first solution, and the last best individual was one")
        if step.col != expected[0]:
            raise _Refusal(
                f"the genetic algorithm's best individuals come one per generation, 0, 1, 2, ...: "
                f"generation {expected[0]} is next, not {step.col}"
            )
        if step.col > GA_GENERATIONS:
            raise _Refusal(f"the genetic algorithm breeds at most {GA_GENERATIONS} generations")
        assert step.board is not None
        _full(step.board, "a best step")
        expected[0] += 1
        solved[0] = why_not_solution(problem, list(step.board)) is None

    def end(complete: bool) -> None:
        if complete and not (solved[0] or expected[0] > GA_GENERATIONS or problem.n in (2, 3)):
            raise _Refusal(
                f"the header says the search ran to its end, but its last best individual is not a solution and "
                f"it bred {max(expected[0] - 1, 0)} of its {GA_GENERATIONS} generations"
            )
        if not complete and solved[0]:
            raise _Refusal("the header says the step cap cut the search, but its last best individual is a solution")

    return take, end


def _orbit_search(problem: Problem, options: Mapping[str, Any], count: int) -> _Rules:
    seen: set[tuple[int, ...]] = set()
    deepest = [0]

    def take(step: Step) -> None:
        operator, generation, board = step.operator or "", step.col, step.board
        assert board is not None
        if len(operator) > _OPERATOR_CHARS or not _OPERATOR.fullmatch(operator):
            raise _Refusal("an orbit step's operator is Inc(a, b) or Mov(...) in Zhang and Zhang's notation")
        if operator.startswith("Inc") and generation != 1:
            raise _Refusal(f"an orbit that Inc reaches is of generation 1, not {generation}")
        if operator.startswith("Mov") and not 2 <= generation <= deepest[0] + 1:
            if not deepest[0]:
                raise _Refusal("Mov reaches an orbit from one reached before, and no orbit was reached yet")
            raise _Refusal(
                f"an orbit that Mov reaches is one generation after an orbit reached before: 2..{deepest[0] + 1}, "
                f"not {generation}"
            )
        _full(board, "an orbit step")
        why = why_not_solution(problem, list(board))
        if why is not None:
            raise _Refusal(f"an orbit's generator is a solution, and this board is not: {why} (cells 1-based)")
        from ..symmetry.orbits import canonical  # loads the native engine: for an orbit search only

        form = canonical(board)
        if form in seen:
            raise _Refusal("its board lies in an orbit an earlier step reached; each orbit is reached once")
        seen.add(form)
        deepest[0] = max(deepest[0], generation)

    return take, lambda complete: None  # how many orbits the search reaches is its own


_RULES: dict[str, Callable[[Problem, Mapping[str, Any], int], _Rules]] = {
    "backtrack": _backtrack,
    "selfcorrect": _local("selfcorrect", _start_full, "move"),
    "minconflicts": _local("minconflicts", _start_permutation, "swap"),
    "ga": _genetic,
    "orbit-search": _orbit_search,
}


def checked(trace: object, what: str = "trace") -> Trace:
    """``trace`` once it is known to be a :class:`Trace` whose steps its method can take.

    A trace recorded by :func:`~queenslab.trace.record` or read by
    :func:`~queenslab.trace.read_trace` is checked already; one made in Python is checked
    here once -- its fields' types, every step against the board, then the rules of its
    method (:func:`queenslab.trace.rules.check_steps`) -- before anything draws it.

    Raises
    ------
    QueensError
        Not a Trace, or a field of the wrong type.
    InvalidTrace
        A step that does not fit the board or that the method cannot take.

    Examples
    --------
    >>> from queenslab import Problem
    >>> checked(Trace("backtrack", Problem(4), None, (Step("place", 0, 0),), False)).steps[0].col
    0
    >>> checked(Trace("backtrack", Problem(4), None, (Step("place", 0, 0), Step("place", 1, 1)), True))
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidTrace: step 2 ["place", 1, 1]: the queen on row 1, column 1 is attacked by the queen on row 0, column 0 (diagonal); backtracking puts a queen only where no queen above it attacks (rows and columns 0-based, as in the file)
    """
    if not isinstance(trace, Trace):
        raise QueensError(f"{what} must be a queenslab Trace (record() or read_trace()), got {validate.brief(trace)}")
    if getattr(trace, "_checked", False):
        return trace
    if trace.method not in METHODS or not isinstance(trace.problem, Problem):
        raise QueensError(f"{what}: its method is one of {', '.join(METHODS)} and its problem a queenslab Problem")
    if not (isinstance(trace.steps, tuple) and isinstance(trace.complete, bool) and isinstance(trace.options, dict)):
        raise QueensError(f"{what}: its steps are a tuple of Step, complete a bool and options a dict")
    if not (
        trace.seed is None
        or (isinstance(trace.seed, int) and not isinstance(trace.seed, bool) and 0 <= trace.seed <= validate.INT64_MAX)
    ):
        raise QueensError(f"{what}: its seed is None or an integer 0..{validate.INT64_MAX}")
    n = trace.problem.n
    for k, step in enumerate(trace.steps, 1):
        if not step_fits(step, n):
            raise InvalidTrace(f"{what}: step {k} ({validate.brief(step)}) is not a step that fits the {n}-board")
    check_steps(trace.method, trace.problem, trace.steps, trace.options, trace.complete)
    mark_checked(trace)
    return trace
