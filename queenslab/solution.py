"""Placements: parsing, formatting and checking.

A *placement* is a sequence ``p`` of length n: the queen of row ``r`` stands in column
``p[r]``. In the Python API it is a tuple of 0-based ints; text shown to people is
1-based, as in the literature (``"2 8 10 4 1 5 9 6 3 7"``). Text input also accepts
commas, brackets, and digit strings such as ``"27368514"`` for n <= 9.

On a board with fewer queens than rows (``Problem(n, queens=k)``) a row may stay empty:
its entry is -1 in Python and ``-`` in text (``"2 - 4"``); on an ``n x columns`` board
the columns run to ``columns``.

Columns are integers (Python or numpy); a float is never taken as a column, not even
``1.0`` (docs/reliability.md). The checks work for boards of any size: they group the
queens by line (O(n), in hash sets) instead of comparing every pair. They are plain
Python, so that checking a placement does not load numpy; a numpy array is read as one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import validate
from .constraints import Conflict
from .constraints.region import region_conflicts
from .errors import InvalidPlacement, TooLarge
from .problem import EMPTY, MAX_N, Problem, as_problem, leap_offsets

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "parse_placement",
    "format_placement",
    "Conflict",
    "conflicts",
    "why_not_solution",
    "is_solution",
    "board_text",
    "as_columns",
    "board_placement",
    "MAX_CONFLICTS",
    "BOARD_TEXT_MAX_N",
]

#: :func:`conflicts` lists at most this many conflicts (a placement of n queens can have
#: n(n-1)/2 attacking pairs); :func:`why_not_solution` names the first of any number.
MAX_CONFLICTS = 10**6
#: :func:`board_text` draws boards up to this size (a million cells of text).
BOARD_TEXT_MAX_N = 1000

_SEP = re.compile(r"[\s,;]+")
#: A column number: ASCII digits, at most 10 of them (n <= 2**31 - 1).
_NUMBER = re.compile(r"\+?[0-9]{1,10}")


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
    if n is not None:
        n = validate.whole_number(n, "n", maximum=MAX_N, error=InvalidPlacement)
    body = text.strip()
    if body[:1] in "[(" and body[-1:] in "])":
        body = body[1:-1].strip()
    if not body:
        raise InvalidPlacement("empty placement: give the column of each row, e.g. '2 4 1 3'")
    tokens = [t for t in _SEP.split(body) if t]
    if len(tokens) == 1 and re.fullmatch(r"[0-9]{2,}", tokens[0]):
        digits = tokens[0]
        if len(digits) > 9:
            raise InvalidPlacement(
                f"digit string {validate.brief(digits)} is ambiguous: digit strings are allowed for n <= 9; "
                "separate columns with spaces or commas"
            )
        tokens = list(digits)
    if n is not None and len(tokens) != n:
        raise InvalidPlacement(f"expected {n} columns (one per row), got {len(tokens)}")
    cols = []
    for t in tokens:
        if not _NUMBER.fullmatch(t):
            raise InvalidPlacement(
                f"{validate.brief(t)} is not a column number: a placement lists 1-based column numbers "
                "separated by spaces or commas, e.g. '2 4 1 3'"
            )
        cols.append(int(t))
    size = len(cols) if n is None else n
    for r, c in enumerate(cols):
        if not 1 <= c <= size:
            raise InvalidPlacement(f"row {r + 1}: column {c} is off the board; columns are 1..{size}")
    return tuple(c - 1 for c in cols)


def as_columns(placement: Any, n: int | None = None, what: str = "placement") -> np.ndarray:
    """A placement (0-based columns ``0..n-1``, repeats allowed) as a 1-D int64 array.

    ``n`` defaults to the length. Refuses text, floats, bools, other shapes and columns
    off the board: the one check of a sequence of columns.

    Examples
    --------
    >>> as_columns([1, 1, 0]).tolist()
    [1, 1, 0]
    >>> as_columns([1.0, 0])
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidPlacement: placement: row 0 holds 1.0, not an integer column (a float is never taken as a column)
    """
    import numpy as np  # here only: the checks read Python sequences

    return np.asarray(_checked_columns(placement, n, what), dtype=np.int64).reshape(-1)


def _checked_columns(placement: Any, n: int | None, what: str) -> Any:
    """The checks of :func:`as_columns`: a numpy array as it is, any other sequence as a
    list of ints."""
    if isinstance(placement, (str, bytes)):
        raise InvalidPlacement(
            f"{what} must be a sequence of 0-based columns, got the text {validate.brief(placement)} "
            "(parse text with queenslab.parse_placement)"
        )
    array = validate.numpy_array(placement)
    if array:
        if placement.ndim != 1:
            raise InvalidPlacement(f"{what} must be a 1-D sequence of columns, got an array of shape {placement.shape}")
        if placement.dtype.kind not in "iu":
            raise InvalidPlacement(
                f"{what} must hold integer columns, got an array of dtype {placement.dtype} "
                "(a float is never taken as a column)"
            )
        values = placement
    else:
        values = validate.columns(placement, what, InvalidPlacement)
    size = len(values) if n is None else validate.whole_number(n, "n", minimum=0)
    if len(values) != size:
        raise InvalidPlacement(f"expected {size} columns (one per row), got {len(values)}")
    if size:
        if array:
            import numpy as np

            off = (values < 0) | (values >= size) if values.dtype.kind == "i" else values >= size
            bad = np.flatnonzero(off)
            r = int(bad[0]) if bad.size else -1
        else:
            r = next((i for i, c in enumerate(values) if not 0 <= c < size), -1)
        if r >= 0:
            raise InvalidPlacement(
                f"row {r}: column {validate.brief(int(values[r]))} is off the board; 0-based columns are 0..{size - 1}"
            )
    return values


def _column_list(placement: Any, n: int | None = None) -> list[int]:
    """A checked placement of 0-based columns as a list of ints."""
    values = _checked_columns(placement, n, "placement")
    return values.tolist() if validate.numpy_array(values) else values


def format_placement(placement: Sequence[int], style: str = "spaces", columns: int | None = None) -> str:
    """Format a 0-based placement as 1-based text.

    Parameters
    ----------
    placement : sequence of int
        0-based columns ``0..n-1`` (integers; repeats are allowed), -1 for an empty row
        (written ``-``).
    style : {"spaces", "digits", "commas"}
        ``"digits"`` is only allowed for n <= 9.
    columns : int, optional
        The board's columns when it is not square (default: as many as rows).

    Raises
    ------
    InvalidPlacement
        For anything that is not a sequence of integer columns on the board, or an unknown style.

    Examples
    --------
    >>> format_placement((1, 3, 0, 2))
    '2 4 1 3'
    >>> format_placement((1, 3, 0, 2), "digits")
    '2413'
    """
    if not isinstance(style, str) or style not in ("spaces", "commas", "digits"):
        raise InvalidPlacement(f"unknown style {validate.brief(style)}; use 'spaces', 'commas' or 'digits'")
    if columns is not None or (isinstance(placement, (list, tuple)) and EMPTY in placement):
        return _format_board(placement, style, columns)
    one = [c + 1 for c in _column_list(placement)]
    if style == "spaces":
        return " ".join(map(str, one))
    if style == "commas":
        return ",".join(map(str, one))
    if len(one) > 9:
        raise InvalidPlacement(f"the digits format needs n <= 9, got n = {len(one)}")
    return "".join(map(str, one))


def _format_board(placement: Sequence[int], style: str, columns: int | None = None) -> str:
    """A placement of a board with empty rows (-1) or ``columns`` columns as 1-based text,
    ``-`` for an empty row."""
    cells = validate.columns(placement, "placement", InvalidPlacement)
    if style == "digits" and (EMPTY in cells or len(cells) > 9 or (columns or 0) > 9):
        raise InvalidPlacement("the digits format is for n <= 9 queens on n <= 9 columns, no empty row")
    # without the board's columns, a placement with an empty row may hold any column
    m = None if columns is None else validate.whole_number(columns, "columns", error=InvalidPlacement)
    bad = next((c for c in cells if c < EMPTY or (m is not None and c >= m)), None)
    if bad is not None:
        where = f"0..{m - 1}" if m is not None else "0 and up"
        raise InvalidPlacement(f"column {bad} is off the board: 0-based columns are {where}, -1 for an empty row")
    if style == "digits":
        return "".join(str(c + 1) for c in cells)
    return (" " if style == "spaces" else ",").join("-" if c == EMPTY else str(c + 1) for c in cells)


def board_placement(problem: Problem, placement: Any) -> tuple[int, ...]:
    """A placement of ``problem``'s board (0-based columns by row, -1 for an empty row
    where the board holds fewer queens than rows; or 1-based text, ``-`` for an empty
    row) as a tuple of 0-based columns; InvalidPlacement for anything else.

    Examples
    --------
    >>> board_placement(Problem(3, columns=5, queens=2), "5 - 1")
    (4, -1, 0)
    """
    problem = as_problem(problem)
    n, m = problem.n, problem.columns
    if problem.is_plain_board:
        if isinstance(placement, str):
            return parse_placement(placement, n)
        return tuple(_column_list(placement, n))
    empty_ok = problem.queens < n
    if isinstance(placement, str):
        body = placement.strip()
        if body[:1] in "[(" and body[-1:] in "])":
            body = body[1:-1].strip()
        tokens = [t for t in _SEP.split(body) if t]
        if len(tokens) != n:
            raise InvalidPlacement(
                f"expected {n} entries (a column or - for an empty row, one per row), got {len(tokens)}"
            )
        cells = []
        for r, t in enumerate(tokens):
            if t == "-" and empty_ok:
                cells.append(EMPTY)
            elif _NUMBER.fullmatch(t):
                cells.append(int(t) - 1)
            else:
                allowed = "a 1-based column number" + (" or - for an empty row" if empty_ok else "")
                raise InvalidPlacement(f"row {r + 1}: {validate.brief(t)} is not {allowed}")
    else:
        if isinstance(placement, bytes):
            raise InvalidPlacement(f"placement must be a sequence of 0-based columns, got {validate.brief(placement)}")
        cells = placement.tolist() if validate.numpy_array(placement) else placement
        cells = validate.columns(cells, "placement", InvalidPlacement)
        if len(cells) != n:
            raise InvalidPlacement(f"expected {n} entries (one per row), got {len(cells)}")
    low = EMPTY if empty_ok else 0
    for r, c in enumerate(cells):
        if not low <= c < m:
            raise InvalidPlacement(
                f"row {r + 1}: column {c} is off the {n}x{m} board; 0-based columns are 0..{m - 1}"
                + (", -1 for an empty row" if empty_ok else "")
            )
    return tuple(cells)


def _occupied(p: tuple[int, ...]) -> list[int]:
    return [r for r, c in enumerate(p) if c != EMPTY]


def _line_keys(problem: Problem, p: tuple[int, ...]) -> list[list[int]]:
    """For each line family (column, diagonal, anti-diagonal), the line of the queen of
    each occupied row, in row order (empty rows meet no queen)."""
    rows = _occupied(p) if EMPTY in p else range(len(p))
    cols = [p[r] for r in rows]
    diag = [c - r for r, c in zip(rows, cols)]
    anti = [c + r for r, c in zip(rows, cols)]
    if problem.toroidal:
        n = problem.n
        diag, anti = [k % n for k in diag], [k % n for k in anti]
    return [cols, diag, anti]


def _shared_lines(problem: Problem, p: tuple[int, ...]) -> list[list[int]]:
    """The rows of the queens of every line that holds two or more, each in row order."""
    rows = _occupied(p) if EMPTY in p else range(len(p))
    out: list[list[int]] = []
    for keys in _line_keys(problem, p):
        if len(set(keys)) == len(keys):  # the common case, a solution: no line shared
            continue
        # the shared lines by a count (in C), then only their queens grouped: a few
        # conflicts among a million queens cost two passes, not a list per line
        shared = {key for key, k in Counter(keys).items() if k > 1}
        lines: dict[int, list[int]] = {}
        for r, key in zip(rows, keys):
            if key in shared:
                lines.setdefault(key, []).append(r)
        out += lines.values()
    return out


def _leap_pairs(problem: Problem, p: tuple[int, ...]) -> set[tuple[int, int]]:
    """The rows ``(i, j)``, ``i < j``, of queens a leaper's jump apart."""
    n, m = problem.n, problem.columns
    out = set()
    for dr, dc in leap_offsets(problem.leaps):
        if dr <= 0 and not problem.toroidal:
            continue  # the mirror jump finds the pair from its upper queen
        for r, c in enumerate(p):
            if c == EMPTY:
                continue
            r2, c2 = r + dr, c + dc
            if problem.toroidal:
                r2, c2 = r2 % n, c2 % n
                if r2 == r:
                    continue
            elif not (r2 < n and 0 <= c2 < m):
                continue
            if p[r2] == c2:
                out.add((min(r, r2), max(r, r2)))
    return out


def _cell_conflicts(problem: Problem, p: tuple[int, ...]) -> list[Conflict]:
    """The number of queens where the board has fewer than rows, queens on blocked cells
    (row order), then missing fixed queens, then broken region bounds."""
    out = []
    placed = len(p) - p.count(EMPTY)
    if placed != problem.queens:
        out.append(Conflict("queens", (), f"the placement holds {placed} queens, the problem {problem.queens}"))
    out += [x for c in problem.constraints if c.kind == "blocked" for x in c.conflicts(p)]
    out += [x for c in problem.constraints if c.kind == "fixed" for x in c.conflicts(p)]
    return out + region_conflicts(problem.regions, p)


def _pair(problem: Problem, p: tuple[int, ...], i: int, j: int) -> Conflict:
    a, b = (i, p[i]), (j, p[j])
    how = problem.attack(a, b)
    assert how is not None, "a pair found on a line or a leap attacks"
    return Conflict.attack(how, a, b)


def _first_pair(problem: Problem, p: tuple[int, ...]) -> tuple[int, int] | None:
    """The first attacking pair of rows in row order, in O(n)."""
    # on each line the first pair is (its first queen, its second queen); the first pair
    # of all is the least of these and of the leaps' pairs
    candidates = [(members[0], members[1]) for members in _shared_lines(problem, p)]
    return min([*candidates, *_leap_pairs(problem, p)], default=None)


def _first_conflict(problem: Problem, p: tuple[int, ...]) -> Conflict | None:
    cells = _cell_conflicts(problem, p)
    if cells:
        return cells[0]
    pair = _first_pair(problem, p)
    if pair is not None:
        return _pair(problem, p, *pair)
    own = _own_conflicts(problem, p)
    return own[0] if own else None


def conflicts(problem: Problem, placement: Any) -> list[Conflict]:
    """Every reason why ``placement`` is not a solution of ``problem``.

    Parameters
    ----------
    problem : Problem
    placement : sequence of int or str
        0-based columns, or 1-based text (see :func:`parse_placement`).

    Returns
    -------
    list of Conflict
        Empty exactly when the placement is a solution: queens on blocked cells, then
        missing fixed queens, then broken region bounds, then attacking pairs in row order,
        then the constraints of kinds defined outside the package.

    Raises
    ------
    QueensError
        If ``problem`` is not a Problem.
    InvalidPlacement
        If the placement has the wrong length or a column off the board.
    TooLarge
        If there are more than :data:`MAX_CONFLICTS` conflicts (use :func:`why_not_solution`).

    Examples
    --------
    >>> [c.message for c in conflicts(Problem(4), "1 2 3 4")][:1]
    ['the queens at (1,1) and (2,2) attack each other (diagonal)']
    """
    problem = as_problem(problem)
    p = board_placement(problem, placement)
    out = _cell_conflicts(problem, p)
    lines = _shared_lines(problem, p)
    leaps = _leap_pairs(problem, p)
    total = sum(len(members) * (len(members) - 1) // 2 for members in lines) + len(leaps)
    if total + len(out) > MAX_CONFLICTS:
        raise TooLarge(
            f"the placement has about {total + len(out)} conflicts; conflicts() lists at most {MAX_CONFLICTS} "
            "(why_not_solution names the first one, is_solution says whether there is any)"
        )
    pairs = set(leaps)
    for members in lines:
        m = len(members)
        pairs.update((members[a], members[b]) for a in range(m) for b in range(a + 1, m))
    out += [_pair(problem, p, i, j) for i, j in sorted(pairs)]
    return out + _own_conflicts(problem, p)


def _own_conflicts(problem: Problem, p: tuple[int, ...]) -> list[Conflict]:
    """What the constraints of kinds defined outside the package say of the placement
    (each kind's own :meth:`~queenslab.constraints.Constraint.conflicts`)."""
    return [x for c in problem.own_constraints for x in c.conflicts(p)]


def why_not_solution(problem: Problem, placement: Any) -> str | None:
    """Return None for a solution, else a 1-based sentence naming the first conflict.

    The first conflict is the first of :func:`conflicts`, found in O(n) for a board of
    any size.

    Examples
    --------
    >>> why_not_solution(Problem(4), "2 4 1 3") is None
    True
    >>> why_not_solution(Problem(4), "1 3 1 4")
    'the queens at (1,1) and (3,1) attack each other (column)'
    """
    problem = as_problem(problem)
    found = _first_conflict(problem, board_placement(problem, placement))
    return None if found is None else found.message


def is_solution(problem: Problem, placement: Any) -> bool:
    """True when ``placement`` satisfies every constraint of ``problem``.

    Raises
    ------
    QueensError
        If ``problem`` is not a Problem.
    InvalidPlacement
        If the placement has the wrong length, a column off the board, or columns that
        are not integers (``1.5`` and ``1.0`` alike).

    Examples
    --------
    >>> is_solution(Problem(8), "15863724")
    True
    """
    problem = as_problem(problem)
    return _first_conflict(problem, board_placement(problem, placement)) is None


def board_text(problem: Problem, placement: Any = None) -> str:
    """Draw the board as text: ``Q`` queen, ``.`` empty, ``#`` blocked (or in a region
    that allows no queen), ``F`` a fixed queen's cell left empty, ``a``, ``b``, ... an
    empty cell of the first, second, ... region (``+`` beyond the 26th). Row 1 is on top; without a
    placement the board shows the constraints alone.

    Raises
    ------
    TooLarge
        For ``n > BOARD_TEXT_MAX_N``.

    Examples
    --------
    >>> print(board_text(Problem(4), (1, 3, 0, 2)))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    problem = as_problem(problem)
    n, m = problem.n, problem.columns
    if max(n, m) > BOARD_TEXT_MAX_N:
        raise TooLarge(f"a {n} x {m} board is too large to draw as text; board_text draws n <= {BOARD_TEXT_MAX_N}")
    p = board_placement(problem, placement) if placement is not None else None
    blocked = set(problem.blocked)
    fixed = set(problem.fixed)
    marks: dict[tuple[int, int], str] = {}
    for i, region in enumerate(problem.regions):
        mark = "#" if region.at_most == 0 else "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else "+"
        for cell in region.cells:
            marks.setdefault(cell, mark)
    rows = []
    for r in range(n):
        line = []
        for c in range(m):
            if p is not None and p[r] == c:
                ch = "Q"
            elif (r, c) in blocked:
                ch = "#"
            elif (r, c) in fixed:
                ch = "F"
            else:
                ch = marks.get((r, c), ".")
            line.append(ch)
        rows.append(" ".join(line))
    return "\n".join(rows)
