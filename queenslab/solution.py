"""Placements: parsing, formatting and checking.

A *placement* is a sequence ``p`` of length n: the queen of row ``r`` stands in column
``p[r]``. In the Python API it is a tuple of 0-based ints; text shown to people is
1-based, as in the literature (``"2 8 10 4 1 5 9 6 3 7"``). Text input also accepts
commas, brackets, and digit strings such as ``"27368514"`` for n <= 9.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .compiled import Conflict, compile_problem
from .errors import InvalidPlacement
from .problem import Problem

__all__ = [
    "parse_placement",
    "format_placement",
    "Conflict",
    "conflicts",
    "why_not_solution",
    "is_solution",
    "board_text",
]

_SEP = re.compile(r"[\s,;]+")


def parse_placement(text: str, n: int | None = None) -> tuple[int, ...]:
    """Parse 1-based text into a 0-based placement tuple.

    Parameters
    ----------
    text : str
        Columns by row, 1-based, separated by spaces and/or commas, optionally inside
        brackets (``"[2, 4, 1, 3]"``); or, for n <= 9, a digit string (``"2413"``).
    n : int, optional
        The expected board size. When given, the length must match.

    Returns
    -------
    tuple of int
        0-based columns.

    Raises
    ------
    InvalidPlacement
        On anything that is not a list of integers in ``1..n``.

    Examples
    --------
    >>> parse_placement("2 4 1 3")
    (1, 3, 0, 2)
    >>> parse_placement("27368514")
    (1, 6, 2, 5, 7, 4, 0, 3)
    >>> parse_placement("[2, 8, 10, 4, 1, 5, 9, 6, 3, 7]")[:3]
    (1, 7, 9)
    """
    if not isinstance(text, str):
        raise InvalidPlacement(f"a placement must be given as text, got {type(text).__name__}")
    body = text.strip()
    if body[:1] in "[(" and body[-1:] in "])":
        body = body[1:-1].strip()
    if not body:
        raise InvalidPlacement("empty placement: give the column of each row, e.g. '2 4 1 3'")
    tokens = [t for t in _SEP.split(body) if t]
    if len(tokens) == 1 and tokens[0].isdigit() and len(tokens[0]) > 1:
        digits = tokens[0]
        if len(digits) > 9:
            raise InvalidPlacement(
                f"digit string {digits!r} is ambiguous: digit strings are allowed for n <= 9; "
                "separate columns with spaces or commas"
            )
        tokens = list(digits)
    cols = []
    for t in tokens:
        if not re.fullmatch(r"[+]?\d+", t):
            raise InvalidPlacement(
                f"{t!r} is not a column number: a placement lists 1-based column numbers "
                "separated by spaces or commas, e.g. '2 4 1 3'"
            )
        cols.append(int(t))
    size = len(cols) if n is None else n
    if n is not None and len(cols) != n:
        raise InvalidPlacement(f"expected {n} columns (one per row), got {len(cols)}")
    for r, c in enumerate(cols):
        if not 1 <= c <= size:
            raise InvalidPlacement(f"row {r + 1}: column {c} is off the board; columns are 1..{size}")
    return tuple(c - 1 for c in cols)


def format_placement(placement: Sequence[int], style: str = "spaces") -> str:
    """Format a 0-based placement as 1-based text.

    Parameters
    ----------
    placement : sequence of int
        0-based columns.
    style : {"spaces", "digits", "commas"}
        ``"digits"`` is only allowed for n <= 9.

    Examples
    --------
    >>> format_placement((1, 3, 0, 2))
    '2 4 1 3'
    >>> format_placement((1, 3, 0, 2), "digits")
    '2413'
    """
    one = [int(c) + 1 for c in placement]
    if style == "spaces":
        return " ".join(map(str, one))
    if style == "commas":
        return ",".join(map(str, one))
    if style == "digits":
        if len(one) > 9:
            raise InvalidPlacement(f"the digits format needs n <= 9, got n = {len(one)}")
        return "".join(map(str, one))
    raise InvalidPlacement(f"unknown style {style!r}; use 'spaces', 'commas' or 'digits'")


def _as_placement(problem: Problem, placement) -> tuple[int, ...]:
    if isinstance(placement, str):
        return parse_placement(placement, problem.n)
    p = tuple(int(c) for c in np.asarray(placement).ravel().tolist())
    if len(p) != problem.n:
        raise InvalidPlacement(f"expected {problem.n} columns (one per row), got {len(p)}")
    for r, c in enumerate(p):
        if not 0 <= c < problem.n:
            raise InvalidPlacement(f"row {r}: column {c} is off the board; 0-based columns are 0..{problem.n - 1}")
    return p


def conflicts(problem: Problem, placement) -> list[Conflict]:
    """Every reason why ``placement`` is not a solution of ``problem``.

    Parameters
    ----------
    problem : Problem
    placement : sequence of int or str
        0-based columns, or 1-based text (see :func:`parse_placement`).

    Returns
    -------
    list of Conflict
        Empty exactly when the placement is a solution. Pairs come in row order.

    Raises
    ------
    InvalidPlacement
        If the placement has the wrong length or a column off the board.

    Examples
    --------
    >>> [c.message() for c in conflicts(Problem(4), "1 2 3 4")][:1]
    ['the queens at (1,1) and (2,2) attack each other (diagonal)']
    """
    return compile_problem(problem).conflicts(_as_placement(problem, placement))


def why_not_solution(problem: Problem, placement) -> str | None:
    """Return None for a solution, else a 1-based sentence naming the first conflict.

    Examples
    --------
    >>> why_not_solution(Problem(4), "2 4 1 3") is None
    True
    >>> why_not_solution(Problem(4), "1 3 1 4")
    'the queens at (1,1) and (3,1) attack each other (column)'
    """
    found = conflicts(problem, placement)
    return found[0].message() if found else None


def is_solution(problem: Problem, placement) -> bool:
    """True when ``placement`` satisfies every constraint of ``problem``.

    Examples
    --------
    >>> is_solution(Problem(8), "15863724")
    True
    """
    return not conflicts(problem, placement)


def board_text(problem: Problem, placement=None) -> str:
    """Draw the board as text: ``Q`` queen, ``.`` empty, ``#`` blocked, ``F`` a fixed
    queen's cell left empty. Row 1 is on top.

    Examples
    --------
    >>> print(board_text(Problem(4), (1, 3, 0, 2)))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    n = problem.n
    p = _as_placement(problem, placement) if placement is not None else None
    blocked = set(problem.blocked)
    fixed = set(problem.fixed)
    rows = []
    for r in range(n):
        line = []
        for c in range(n):
            if p is not None and p[r] == c:
                ch = "Q"
            elif (r, c) in blocked:
                ch = "#"
            elif (r, c) in fixed:
                ch = "F"
            else:
                ch = "."
            line.append(ch)
        rows.append(" ".join(line))
    return "\n".join(rows)
