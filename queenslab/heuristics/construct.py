"""One solution in O(n) by explicit construction, the O(n) verifier, and N. Gupta's
n -> n+1 extension pattern.

* :func:`construct` -- the classical explicit solution for every n >= 4 (the case
  analysis on ``n mod 6``: evens then odds, with the two exceptional residues repaired),
  built with numpy in O(n); n = 10**7 takes a fraction of a second.
* :func:`verify` / :func:`find_conflict` -- an O(n) check of a placement of any size
  (first and second queen on every column and diagonal) that names the first attacking
  pair, in the row order of :func:`queenslab.solution.conflicts`.
* :func:`extend` / :func:`extension_pattern` -- the "novel method" surveyed in
  N. Gupta's ranking paper (section 2.1): from the 4x4 solution, add a row on top (odd n) or after
  the first n/2 rows (even n) and a column on the right, with the new queen at their
  crossing. It yields a solution exactly when ``n mod 6`` is 0, 1, 4 or 5
  (:func:`extension_pattern_works`): its boards are the classical "evens then odds"
  boards upside down, which attack each other for n = 8, 9, 14, 15, 20, 21, ...

This module also holds the argument checks shared by the heuristics.
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..errors import InvalidPlacement, InvalidProblem, TooLarge, UnsupportedProblem
from ..problem import MAX_N as _PROBLEM_MAX_N, Problem
from ..solution import Conflict, as_columns
from ..validate import whole_number
from . import kernels as K

__all__ = [
    "MAX_N",
    "check_n",
    "check_memory",
    "as_placement",
    "construct",
    "find_conflict",
    "verify",
    "extend",
    "extension_pattern",
    "extension_pattern_works",
]

#: Largest board of the heuristics (counters are int32 arrays). Memory usually runs out
#: first: every method estimates what it needs before it allocates
#: (:func:`check_memory`) and refuses a board the machine cannot hold.
MAX_N = _PROBLEM_MAX_N

#: Peak bytes per queen of each method's arrays (measured with tracemalloc, rounded up).
BYTES_PER_QUEEN = {
    "construct": 24,
    "the extension pattern": 24,
    "min-conflicts": 40,
    "the self-correcting search": 40,
    "the O(n) check": 32,
}

_KINDS = ("column", "diagonal", "anti-diagonal")


def check_n(n, method: str = "this method") -> int:
    """Validate a board size for the heuristics and return it as an int.

    Parameters
    ----------
    n : int or Problem
        The board size, or a standard :class:`~queenslab.problem.Problem`.
    method : str
        Named in error messages.

    Raises
    ------
    InvalidProblem
        If ``n`` is not an integer >= 1.
    UnsupportedProblem
        For a Problem with variant constraints (the heuristics solve the standard problem).
    TooLarge
        Above :data:`MAX_N`.

    Examples
    --------
    >>> check_n(8), check_n(Problem(5))
    (8, 5)
    """
    if isinstance(n, Problem):
        if not n.is_standard:
            raise UnsupportedProblem(
                f"{method} solves the standard n-queens problem only; "
                f"{n.describe()} has variant constraints (use a backend: native, cpsat or sat)"
            )
        return n.n
    value = whole_number(n, "n", error=InvalidProblem)
    if value > MAX_N:
        raise TooLarge(f"n = {value} is too large for {method}: n <= {MAX_N} (2**31 - 1) is allowed")
    return value


def check_memory(n: int, method: str, nbytes: int | None = None) -> None:
    """Refuse ``method`` for board size ``n`` when its arrays need more memory than is available.

    ``nbytes`` defaults to ``n`` times the method's :data:`BYTES_PER_QUEEN`.

    Raises
    ------
    TooLarge
        Naming the memory needed and the memory available.

    Examples
    --------
    >>> check_memory(1000, "construct")
    """
    need = n * BYTES_PER_QUEEN.get(method, 40) if nbytes is None else nbytes
    validate.memory(need, f"{method} for n = {n}", "use a smaller n")


def as_placement(placement) -> np.ndarray:
    """A placement as a validated 1-D int64 array (0-based columns ``0..n-1``).

    Columns are integers: a float is never taken as a column (not even ``1.0``), as
    everywhere in the Python API.

    Raises
    ------
    InvalidPlacement
        If it is not a non-empty 1-D sequence of integers in ``0..n-1``.

    Examples
    --------
    >>> as_placement([1, 3, 0, 2])
    array([1, 3, 0, 2])
    """
    if isinstance(placement, (str, bytes)):
        raise InvalidPlacement(
            "expected 0-based columns as a sequence or numpy array; parse text with "
            "queenslab.solution.parse_placement first"
        )
    if not isinstance(placement, np.ndarray):
        try:
            items = list(placement)
        except TypeError:
            raise InvalidPlacement(
                f"a placement is a non-empty 1-D sequence of columns, got {validate.brief(placement)}"
            ) from None
        if not items:
            raise InvalidPlacement("a placement is a non-empty 1-D sequence of columns, got an empty one")
        if any(isinstance(x, (list, tuple, np.ndarray)) for x in items):
            raise InvalidPlacement("a placement is a 1-D sequence of columns, got a nested sequence")
        return as_columns(items)
    arr = placement
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidPlacement(f"a placement is a non-empty 1-D sequence of columns, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidPlacement(
            f"a placement holds integer columns, got dtype {arr.dtype} (a float is never taken as a column)"
        )
    n = arr.size
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= n:
        r = int(np.flatnonzero((arr < 0) | (arr >= n))[0])
        raise InvalidPlacement(f"row {r}: column {int(arr[r])} is off the board; 0-based columns are 0..{n - 1}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def find_conflict(placement) -> Conflict | None:
    """The first pair of attacking queens, or None for a solution. O(n) time and memory.

    The pair is the first in row order (smallest first row, then smallest second row),
    like the first entry of :func:`queenslab.solution.conflicts`. Repeated columns are
    allowed (they are reported as a ``"column"`` conflict).

    Parameters
    ----------
    placement : array_like of int
        0-based columns by row.

    Returns
    -------
    Conflict or None
        ``rule`` is ``"column", ``"diagonal"`` (``r - c`` equal) or
        ``"anti-diagonal"`` (``r + c`` equal); ``cells`` are 0-based.

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a sequence of columns ``0..n-1``.

    Examples
    --------
    >>> find_conflict([1, 3, 0, 2]) is None
    True
    >>> find_conflict([0, 2, 1, 3]).message
    'the queens at (1,1) and (4,4) attack each other (diagonal)'
    """
    p = as_placement(placement)
    n = p.size
    check_memory(n, "the O(n) check")
    col = np.empty(n, np.int32)
    d1 = np.empty(2 * n - 1, np.int32)
    d2 = np.empty(2 * n - 1, np.int32)
    i, j, kind = K.first_conflict(p, n, col, d1, d2)
    if i < 0:
        return None
    return Conflict.attack(_KINDS[kind], (int(i), int(p[i])), (int(j), int(p[j])))


def verify(placement) -> bool:
    """Check a placement of any size in O(n); True, or an error naming the first attacking pair.

    Raises
    ------
    InvalidPlacement
        If the placement is malformed, or is not a solution (the message names the
        first attacking pair, 1-based).

    Examples
    --------
    >>> verify(construct(10**5))
    True
    >>> verify([0, 2, 4, 1, 3, 0])
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidPlacement: not a solution: the queens at (1,1) and (6,1) attack each other (column)
    """
    conflict = find_conflict(placement)
    if conflict is not None:
        raise InvalidPlacement(f"not a solution: {conflict.message}")
    return True


def construct(n) -> np.ndarray | None:
    """One solution by the classical explicit construction, in O(n).

    With the 1-based lists E = 2, 4, 6, ... and O = 1, 3, 5, ... of the numbers up to n:

    * ``n mod 6`` not 2 or 3: E then O;
    * ``n mod 6 == 2``: E then O with 1 and 3 swapped and 5 moved to the end
      (``3, 1, 7, 9, ..., 5``);
    * ``n mod 6 == 3``: E with 2 moved to the end, then O with 1 and 3 moved to the end
      (``4, 6, ..., 2, 5, 7, ..., 1, 3``).

    The list gives the column of each row (the board transposed from the usual
    statement, which reads it column by column -- also a solution).

    Parameters
    ----------
    n : int or Problem
        Board size (>= 1) or a standard Problem.

    Returns
    -------
    numpy.ndarray or None
        int64 array of the 0-based columns; None for n = 2 and n = 3, which have no
        solution.

    Raises
    ------
    InvalidProblem, UnsupportedProblem, TooLarge
        See :func:`check_n`.

    Examples
    --------
    >>> construct(8) + 1
    array([2, 4, 6, 8, 3, 1, 7, 5])
    >>> construct(9) + 1
    array([4, 6, 8, 2, 5, 7, 9, 1, 3])
    >>> construct(3) is None, construct(1)
    (True, array([0]))
    """
    n = check_n(n, "construct")
    check_memory(n, "construct")
    if n in (2, 3):
        return None
    if n == 1:
        return np.zeros(1, np.int64)
    evens = np.arange(2, n + 1, 2, dtype=np.int64)
    odds = np.arange(1, n + 1, 2, dtype=np.int64)
    r = n % 6
    if r == 2:
        odds = np.concatenate(([3, 1], odds[3:], [5])).astype(np.int64)
    elif r == 3:
        evens = np.concatenate((evens[1:], [2])).astype(np.int64)
        odds = np.concatenate((odds[2:], [1, 3])).astype(np.int64)
    out = np.concatenate((evens, odds))
    out -= 1
    return out


# ----------------------------------------------------------------------------- n -> n+1 pattern

#: N. Gupta's ranking paper, Fig. 4: the first 4x4 solution (rows top to bottom: 3 1 4 2), 0-based.
PATTERN_BASE = (2, 0, 3, 1)


def extend(placement) -> np.ndarray:
    """One step of N. Gupta's n -> n+1 pattern (section 2.1.1).

    The new board has a new column on the right and a new row: on top when n+1 is odd
    (Figs. 5 and 7), after the first (n+1)/2 rows when n+1 is even (Fig. 6); the new
    queen stands where they cross. The result is not checked: it is a solution only
    for some n (see :func:`extension_pattern_works`).

    Parameters
    ----------
    placement : array_like of int
        0-based columns of an n x n board.

    Returns
    -------
    numpy.ndarray
        The (n+1) x (n+1) placement, int64.

    Examples
    --------
    >>> extend([2, 0, 3, 1]) + 1          # Fig. 5: 5x5
    array([5, 3, 1, 4, 2])
    >>> extend(extend([2, 0, 3, 1])) + 1  # Fig. 6: 6x6, the queen at (4,6)
    array([5, 3, 1, 6, 4, 2])
    """
    p = as_placement(placement)
    check_memory(p.size, "construct")
    m = p.size + 1
    at = 0 if m % 2 else m // 2
    return np.insert(p, at, m - 1)


def extension_pattern(n) -> np.ndarray:
    """The n x n board of N. Gupta's pattern, in O(n) (closed form).

    Equal to applying :func:`extend` to the 4x4 solution ``3 1 4 2`` n - 4 times: the
    odd numbers below n+1 in decreasing order, then the even ones in decreasing order
    (1-based columns by row) -- the classical "evens then odds" board upside down.

    Parameters
    ----------
    n : int
        Board size, n >= 4 (the pattern starts from the 4x4 board).

    Returns
    -------
    numpy.ndarray
        int64 0-based columns; a solution exactly when :func:`extension_pattern_works`.

    Raises
    ------
    InvalidProblem
        For n < 4.

    Examples
    --------
    >>> extension_pattern(7) + 1
    array([7, 5, 3, 1, 6, 4, 2])
    >>> find_conflict(extension_pattern(8)).message
    'the queens at (2,5) and (5,8) attack each other (diagonal)'
    """
    n = check_n(n, "the extension pattern")
    if n < 4:
        raise InvalidProblem(f"the n -> n+1 pattern starts from the 4x4 board: n >= 4 is allowed, got {n}")
    check_memory(n, "the extension pattern")
    odd_top = n if n % 2 else n - 1
    even_top = n - 1 if n % 2 else n
    out = np.concatenate((np.arange(odd_top, 0, -2, dtype=np.int64), np.arange(even_top, 1, -2, dtype=np.int64)))
    out -= 1
    return out


def extension_pattern_works(n) -> bool:
    """Does :func:`extension_pattern` give a solution? Exactly when ``n mod 6`` is 0, 1, 4 or 5.

    (Its boards reverse the row order of "2, 4, ..., 1, 3, ...", a solution exactly
    for those residues; reversing the rows maps solutions to solutions.)

    Examples
    --------
    >>> [n for n in range(4, 22) if extension_pattern_works(n)]
    [4, 5, 6, 7, 10, 11, 12, 13, 16, 17, 18, 19]
    """
    n = check_n(n, "the extension pattern")
    if n < 4:
        raise InvalidProblem(f"the n -> n+1 pattern starts from the 4x4 board: n >= 4 is allowed, got {n}")
    return n % 6 in (0, 1, 4, 5)
