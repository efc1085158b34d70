"""Permutation ranks: the index of a placement among all n! permutations (Lehmer code).

N. Gupta's ranking paper maps a solution to its position in the lexicographic list of all ``n!``
permutations of ``1..n``; this module does that exactly, for any n (Python integers),
in both directions, through the Lehmer code: ``rank = sum_i L[i] * (n-1-i)!`` where
``L[i]`` counts the later entries smaller than ``p[i]``.

:func:`permutation_rank` and :func:`permutation_unrank` are inverse to each other, 0-based
(N. Gupta's tables count from 1). They agree with sympy's
``Permutation(p).rank()`` and ``Permutation.unrank_lex(n, r)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from .. import validate
from ..errors import InvalidPlacement, QueensError

__all__ = ["lehmer_code", "from_lehmer_code", "permutation_rank", "permutation_unrank", "MAX_UNRANK_N"]

#: Largest n :func:`permutation_unrank` takes: n! has about n log2 n bits (120,000 for
#: n = 10,000), and unranking divides it n times.
MAX_UNRANK_N = 10_000


def _check_permutation(p: Sequence[int]) -> list[int]:
    if isinstance(p, (str, bytes)):
        raise InvalidPlacement(f"a permutation is a sequence of integers, got {p!r}")
    try:
        items = list(p)
    except TypeError:
        raise InvalidPlacement(f"a permutation is a sequence of integers, got {p!r}") from None
    # integers only: a float is refused, never truncated
    q = [validate.whole_number(x, "a permutation entry", minimum=-(2**63), error=InvalidPlacement) for x in items]
    if sorted(q) != list(range(len(q))):
        raise InvalidPlacement(f"not a permutation of 0..{len(q) - 1}: {q!r} (each 0-based column exactly once)")
    return q


class _Fenwick:
    """Counts of present values, for O(log n) 'how many smaller values are left'."""

    def __init__(self, n: int):
        self.t = [0] * (n + 1)
        for i in range(1, n + 1):
            self.add(i - 1, 1)

    def add(self, i: int, v: int) -> None:
        i += 1
        while i < len(self.t):
            self.t[i] += v
            i += i & -i

    def prefix(self, i: int) -> int:  # how many present values are < i
        s = 0
        while i > 0:
            s += self.t[i]
            i -= i & -i
        return s


def lehmer_code(p: Sequence[int]) -> list[int]:
    """``L[i]`` = number of ``j > i`` with ``p[j] < p[i]``, in O(n log n).

    Examples
    --------
    >>> lehmer_code([2, 0, 3, 1])
    [2, 0, 1, 0]
    """
    q = _check_permutation(p)
    fw = _Fenwick(len(q))
    out = []
    for x in q:
        out.append(fw.prefix(x))
        fw.add(x, -1)
    return out


def from_lehmer_code(code: Sequence[int]) -> list[int]:
    """The permutation with the given Lehmer code (``0 <= code[i] <= n-1-i``).

    Examples
    --------
    >>> from_lehmer_code([2, 0, 1, 0])
    [2, 0, 3, 1]
    """
    try:
        n = len(code)
    except TypeError:
        raise QueensError(f"a Lehmer code is a sequence of integers, got {validate.brief(code)}") from None
    left = list(range(n))
    out = []
    for i, k in enumerate(code):
        v = validate.whole_number(k, f"Lehmer code entry {i}", minimum=0)
        if not v <= n - 1 - i:
            raise QueensError(f"Lehmer code entry {i} must be in 0..{n - 1 - i}, got {k!r}")
        out.append(left.pop(v))
    return out


def permutation_rank(p: Sequence[int]) -> int:
    """0-based position of ``p`` among all ``n!`` permutations in lexicographic order.

    See Also
    --------
    permutation_unrank : the inverse.

    Examples
    --------
    >>> permutation_rank([2, 0, 3, 1])  # N. Gupta's (3,1,4,2): the 14th permutation
    13
    >>> permutation_unrank(4, 13)
    (2, 0, 3, 1)
    """
    code = lehmer_code(p)
    n = len(code)
    r = 0
    for i, k in enumerate(code):
        r = r * (n - i) + k
    return r


def permutation_unrank(n: int, r: int) -> tuple[int, ...]:
    """The permutation of ``0..n-1`` at 0-based lexicographic position ``r``.

    Raises
    ------
    QueensError
        If ``n`` is not in ``0 .. MAX_UNRANK_N`` or ``r`` is not in ``0 .. n! - 1`` (the
        message gives the range).
    """
    n = validate.whole_number(n, "n", minimum=0, maximum=MAX_UNRANK_N, why="n! is computed exactly and divided n times")
    size = factorial(n)
    r = validate.whole_number(r, "a permutation rank", minimum=-(2**63))
    if not 0 <= r < size:
        raise QueensError(f"permutation rank {r!r} is out of range: ranks of {n}! permutations are 0..{size - 1}")
    code = [0] * n
    for i in range(n - 1, -1, -1):
        r, code[i] = divmod(r, n - i)
    return tuple(from_lehmer_code(code))
