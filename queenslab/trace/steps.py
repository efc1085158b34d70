"""A trace: the steps a search took, and the boards they lead through.

A :class:`Trace` holds the recorded search (method, seed, problem, options) and its
steps in order. A :class:`Step` changes the board, which holds at most one queen per row
(``board[r]`` is the 0-based column of row ``r``'s queen, -1 for an empty row); the board
starts empty.

======================  ==================================================================
op                      meaning
======================  ==================================================================
``place`` r, c          a queen is put on the empty row r, column c
``move`` r, c           the queen of row r moves to column c
``remove`` r            the queen of row r is taken off
``swap`` r, r2          the queens of rows r and r2 exchange their columns
``start`` board         the whole board is set: a try's (random) start
``best`` g, board       the whole board is set: the best individual of generation g
``orbit`` g, board, op  the whole board is set: a new orbit's generator, found in
                        generation g by the orbit operator ``op``
``solution``            the board is a solution (backtracking)
======================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import validate
from ..errors import QueensError
from ..problem import Problem

__all__ = ["OPS", "BOARD_OPS", "METHODS", "Step", "Trace", "apply", "attacking_pairs", "checked"]

#: Every step's op, and the ops that set the whole board.
OPS = ("place", "move", "remove", "swap", "start", "best", "orbit", "solution")
BOARD_OPS = ("start", "best", "orbit")
#: The searches that can be traced, by the names ``record`` and ``queenslab watch`` take.
METHODS = ("backtrack", "selfcorrect", "minconflicts", "ga", "orbit-search")


class Step(NamedTuple):
    """One step of a search (see the module docstring for the ops).

    Attributes
    ----------
    op : str
    row : int
        The row moved (place, move, remove, swap); -1 otherwise.
    col : int
        The column (place, move), the other row (swap), the generation (best, orbit); -1
        otherwise.
    board : tuple of int or None
        The whole board (start, best, orbit).
    operator : str or None
        The orbit operator that produced the board (orbit), in Zhang and Zhang's notation.
    """

    op: str
    row: int = -1
    col: int = -1
    board: tuple[int, ...] | None = None
    operator: str | None = None


def apply(board: np.ndarray, step: Step) -> None:
    """Apply ``step`` to ``board`` (int64, -1 for an empty row) in place."""
    op = step.op
    if op in ("place", "move"):
        board[step.row] = step.col
    elif op == "remove":
        board[step.row] = -1
    elif op == "swap":
        i, j = step.row, step.col
        board[i], board[j] = board[j], board[i]
    elif step.board is not None:
        board[:] = step.board


def attacking_pairs(problem: Problem, board: np.ndarray) -> int:
    """Pairs of queens on ``board`` (-1: empty row) that attack each other under the
    problem's rules: by line counters in O(n) for the standard problem, pair by pair for
    a variant (whose boards the tracer keeps at n <= 64).

    Examples
    --------
    >>> attacking_pairs(Problem(4), np.array([0, 1, -1, 3]))
    3
    """
    from ..problem import as_problem

    problem = as_problem(problem)
    n = problem.n
    if not (isinstance(board, np.ndarray) and board.dtype == np.int64 and board.ndim == 1):
        # a board from the caller, checked column by column (the tracer's own boards are int64 arrays)
        if isinstance(board, (str, bytes)) or not hasattr(board, "__len__") or len(board) != n:
            raise QueensError(
                f"a board of {problem.describe()} is a sequence of {n} columns, got {validate.brief(board)}"
            )
        board = np.array(
            [validate.whole_number(c, "a board's column", minimum=-1, maximum=n - 1) for c in board], np.int64
        )
    if board.size != n or (n and (int(board.min()) < -1 or int(board.max()) >= n)):
        raise QueensError(f"a board of {problem.describe()} is {n} columns 0..{n - 1}, or -1 for an empty row")
    rows = np.flatnonzero(board >= 0)
    cols = board[rows]
    if problem.is_standard:
        total = 0
        for line in (cols, rows - cols, rows + cols):
            _, counts = np.unique(line, return_counts=True)
            total += int((counts * (counts - 1) // 2).sum())
        return total
    cells = [(int(r), int(c)) for r, c in zip(rows, cols)]
    return sum(1 for i, a in enumerate(cells) for b in cells[i + 1 :] if problem.attack(a, b))


@dataclass(frozen=True)
class Trace:
    """A recorded search: what ran, and its steps in order.

    Attributes
    ----------
    method : str
        One of :data:`METHODS`.
    problem : Problem
    seed : int or None
        The seed of a randomised search (None for backtracking and the orbit search).
    steps : tuple of Step
    complete : bool
        Whether the search ran to its end (a solution, or the end of its budget or tree);
        False when the step cap cut it.
    options : dict
        The recorded search's own options (``solutions`` for backtracking, ``strategy``
        for the orbit search, ...), as written in the file's header.
    """

    method: str
    problem: Problem
    seed: int | None
    steps: tuple[Step, ...]
    complete: bool
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return self.problem.n

    def __len__(self) -> int:
        return len(self.steps)

    def boards(self) -> Iterator[np.ndarray]:
        """The board after each step (one array, updated in place: copy to keep one)."""
        board = np.full(self.n, -1, np.int64)
        for step in self.steps:
            apply(board, step)
            yield board

    def final(self) -> np.ndarray:
        """The board after the last step (all -1 for a trace without steps)."""
        board = np.full(self.n, -1, np.int64)
        for step in self.steps:
            apply(board, step)
        return board

    def solutions(self) -> list[tuple[int, ...]]:
        """The boards at the ``solution`` steps, in order (backtracking)."""
        out = []
        for step, board in zip(self.steps, self.boards()):
            if step.op == "solution":
                out.append(tuple(int(c) for c in board))
        return out

    def widget(self, *, interval: int = 200) -> Any:
        """A player for a notebook: Play, a step slider and the board at that step
        (:func:`queenslab.trace.widget.trace_widget`; the animated SVG without ipywidgets)."""
        from .widget import trace_widget

        return trace_widget(self, interval=interval)

    @property
    def solved(self) -> bool:
        """Whether the last board is a solution found by the search."""
        if not self.steps:
            return False
        if self.method == "backtrack":
            return self.steps[-1].op == "solution"
        final = self.final()
        return bool((final >= 0).all()) and attacking_pairs(self.problem, final) == 0


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _step_fits(step: object, n: int) -> bool:
    """Is ``step`` a Step of a known op whose rows, columns and board fit an ``n``-board?"""
    if not isinstance(step, Step) or step.op not in OPS:
        return False
    if not (_is_int(step.row) and _is_int(step.col)):
        return False
    if step.op in ("place", "move", "swap"):
        return 0 <= step.row < n and 0 <= step.col < n
    if step.op == "remove":
        return 0 <= step.row < n
    if step.op in BOARD_OPS:
        board = step.board
        fits = isinstance(board, tuple) and len(board) == n and all(_is_int(c) and -1 <= c < n for c in board)
        return fits and (step.op == "start" or step.col >= 0) and (step.op != "orbit" or isinstance(step.operator, str))
    return True


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
    >>> checked(Trace("backtrack", Problem(4), None, (Step("place", 0, 0),), False)).steps[0].col
    0
    >>> checked(Trace("backtrack", Problem(4), None, (Step("place", 0, 0), Step("place", 1, 1)), True))
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidTrace: step 2 ["place", 1, 1]: the queen on row 1, column 1 is attacked by the queen on row 0, column 0 (diagonal); backtracking puts a queen only where no queen above it attacks (rows and columns 0-based, as in the file)
    """
    from ..errors import InvalidTrace
    from .rules import check_steps

    if not isinstance(trace, Trace):
        raise QueensError(f"{what} must be a queenslab Trace (record() or read_trace()), got {validate.brief(trace)}")
    if getattr(trace, "_checked", False):
        return trace
    if trace.method not in METHODS or not isinstance(trace.problem, Problem):
        raise QueensError(f"{what}: its method is one of {', '.join(METHODS)} and its problem a queenslab Problem")
    if not (isinstance(trace.steps, tuple) and isinstance(trace.complete, bool) and isinstance(trace.options, dict)):
        raise QueensError(f"{what}: its steps are a tuple of Step, complete a bool and options a dict")
    if not (trace.seed is None or (_is_int(trace.seed) and 0 <= trace.seed <= validate.INT64_MAX)):
        raise QueensError(f"{what}: its seed is None or an integer 0..{validate.INT64_MAX}")
    n = trace.problem.n
    for k, step in enumerate(trace.steps, 1):
        if not _step_fits(step, n):
            raise InvalidTrace(f"{what}: step {k} ({validate.brief(step)}) is not a step that fits the {n}-board")
    check_steps(trace.method, trace.problem, trace.steps, trace.options, trace.complete)
    mark_checked(trace)
    return trace


def mark_checked(trace: Trace) -> Trace:
    """Mark a trace that the package's own search recorded, or that was read and checked,
    as checked (:func:`checked` then returns it at once)."""
    object.__setattr__(trace, "_checked", True)
    return trace
