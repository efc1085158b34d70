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

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import validate
from ..errors import QueensError
from ..problem import Problem

__all__ = [
    "OPS",
    "BOARD_OPS",
    "METHODS",
    "Step",
    "Trace",
    "apply",
    "attacking_pairs",
    "mark_checked",
    "step_fits",
    "step_json",
    "PLAYER",
]

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
        if PLAYER is None:  # pragma: no cover - the trace package sets it when it loads
            raise QueensError("the notebook player is not loaded: import queenslab.trace")
        return PLAYER(self, interval=interval)

    @property
    def solved(self) -> bool:
        """Whether the last board is a solution found by the search."""
        if not self.steps:
            return False
        if self.method == "backtrack":
            return self.steps[-1].op == "solution"
        final = self.final()
        return bool((final >= 0).all()) and attacking_pairs(self.problem, final) == 0


#: The notebook player :meth:`Trace.widget` returns (:func:`queenslab.trace.widget.trace_widget`,
#: set when :mod:`queenslab.trace` loads): a hook, as the player draws with the modules
#: above this one.
PLAYER: Callable[..., Any] | None = None


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def step_fits(step: object, n: int) -> bool:
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


def step_json(step: Step) -> list[Any]:
    """A step as its JSON line's value (see the module docstring).

    Examples
    --------
    >>> step_json(Step("orbit", col=1, board=(1, 3, 0, 2), operator="Inc(0.5, 3.5)"))
    ['orbit', 1, [1, 3, 0, 2], 'Inc(0.5, 3.5)']
    """
    op = step.op
    if op in ("place", "move", "swap"):
        return [op, step.row, step.col]
    if op == "remove":
        return [op, step.row]
    if op == "start":
        return [op, list(step.board or ())]
    if op == "best":
        return [op, step.col, list(step.board or ())]
    if op == "orbit":
        return [op, step.col, list(step.board or ()), step.operator]
    return [op]


def mark_checked(trace: Trace) -> Trace:
    """Mark a trace that the package's own search recorded, or that was read and checked,
    as checked (:func:`checked` then returns it at once)."""
    object.__setattr__(trace, "_checked", True)
    return trace
