"""The counting algorithms of the literature (the papers in docs/references.md), as numba kernels, for comparison.

This module holds one counter per algorithm of "The N queens problem - new variants of the Wirth algorithm" ("The N queens problem
- new variants of the Wirth algorithm"), plus the plain recursive backtracking of
the ranking and backtracking papers and a bitmask backtracker (bit operations, as in Jeff Somers'
work cited in the Wirth-variants paper's "Conclusions"). They are not the package's engine
(see :mod:`queenslab.native.engine`): they exist to measure how the data
structures compared in "The N queens problem - new variants of the Wirth algorithm" behave under one compiler
(``benchmarks/algorithms.py`` reproduces its Tables 2 and 4).

the Wirth-variants paper's sections and the matching :class:`SeedAlgorithm` members:

* "2 Backtracking and check function" -- ``BASIC`` (Wirth, CheckNode);
* "3 Symmetry" -- the mirror halving every algorithm below except ``PLAIN`` uses
  (first-row queen in the left half, count doubled, middle column for odd n);
* "4 Backtracking ver.1" -- ``BACKTRACKING_V1``;
* "5 Backtracking ver. 2" -- ``BACKTRACKING_V2``;
* "6 By filtering ver. 1" -- ``FILTERING_V1``;
* "7 By filtering ver. 2" -- ``FILTERING_V2``;
* "9 Conclusions" (operations on bits, Jeff Somers) -- ``BITWISE``.

The kernels live in :mod:`queenslab.native.seed_kernels`; they walk the search
tree with an explicit stack (one frame per row) instead of recursion, because
cached recursive numba functions crashed when loaded from the cache.

Examples
--------
>>> count_with("filtering-v2", 8)
92
>>> count_with(SeedAlgorithm.BITWISE, 10)
724
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from .. import limits, validate
from ..errors import QueensError
from . import seed_kernels as _K

__all__ = ["SeedAlgorithm", "MAX_N", "PRACTICAL_LIMIT", "bitwise_with_nodes", "count_with"]

#: Largest board the seed counters accept (the bitmask kernel uses int64 masks).
MAX_N = 32
#: The practical limit of :func:`count_with`. The counters grow about sevenfold per unit of
#: n: at n = 13 the slowest ("plain") takes about 2 s and the fastest ("bitwise") 0.04 s, so
#: n = 16 takes up to about ten minutes.
SEED_COUNT = limits.declare(
    "counting with a seed algorithm",
    16,
    "n",
    "each further n takes about seven times longer; n = 16 takes up to ten minutes, single-threaded",
)
PRACTICAL_LIMIT = SEED_COUNT.largest


class SeedAlgorithm(enum.Enum):
    """The counting algorithms of the literature.

    Each member's value is its name on the command line and in benchmark tables;
    :attr:`description` is a one-line summary.
    """

    PLAIN = "plain"
    BASIC = "basic"
    BACKTRACKING_V1 = "backtracking-v1"
    BACKTRACKING_V2 = "backtracking-v2"
    FILTERING_V1 = "filtering-v1"
    FILTERING_V2 = "filtering-v2"
    BITWISE = "bitwise"

    @property
    def description(self) -> str:
        """One-line description of the algorithm and its data structures."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    SeedAlgorithm.PLAIN: "plain backtracking (the ranking and backtracking papers): 0/1 board, scan row, column and diagonals; no halving",
    SeedAlgorithm.BASIC: "basic backtracking (Wirth): CheckNode compares with every pre-set queen",
    SeedAlgorithm.BACKTRACKING_V1: "backtracking ver. 1: per-row copied boolean column filter, CheckNode for diagonals",
    SeedAlgorithm.BACKTRACKING_V2: "backtracking ver. 2: per-row list of free columns, CheckNode for diagonals",
    SeedAlgorithm.FILTERING_V1: "by filtering ver. 1: per-row copied boolean column and diagonal arrays",
    SeedAlgorithm.FILTERING_V2: "by filtering ver. 2: 1-D column and diagonal arrays set and reset, no copying",
    SeedAlgorithm.BITWISE: "bit operations (Somers): int64 masks of columns and diagonals",
}


def _halved(search: Callable[[int, int, int], int]) -> Callable[[int], int]:
    """The count by ``search(n, lo, hi)`` with mirror halving (the Wirth-variants paper,
    section 3): the first-row queen in the left half, doubled, and the middle column of
    an odd board once."""

    def count(n: int) -> int:
        half = n // 2
        total = 2 * int(search(n, 0, half))
        return total + (int(search(n, half, half + 1)) if n % 2 else 0)

    return count


def bitwise_with_nodes(n: int, *, force: bool = False) -> tuple[int, int]:
    """``(solutions, queens placed)`` of the bitmask backtracker with mirror halving: the
    baseline the symmetric search is measured against (``benchmarks/count.py``).

    Raises
    ------
    QueensError
        If ``n`` is not an integer in 1..32.
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without ``force``.

    >>> bitwise_with_nodes(8)[0]
    92
    """
    size = _check_n(n)
    limits.check(SEED_COUNT, size, validate.flag(force, "force"), request=f"counting {size}-queens bitwise")
    half = size // 2
    total, nodes = (int(x) for x in _K.search_bitwise(size, (1 << half) - 1))
    total *= 2
    if size % 2:
        middle, more = (int(x) for x in _K.search_bitwise(size, 1 << half))
        total, nodes = total + middle, nodes + more
    return total, nodes


_KERNELS: dict[SeedAlgorithm, Callable[[int], int]] = {
    SeedAlgorithm.PLAIN: _K.count_plain,
    SeedAlgorithm.BASIC: _halved(_K.search_basic),
    SeedAlgorithm.BACKTRACKING_V1: _halved(_K.search_backtracking_v1),
    SeedAlgorithm.BACKTRACKING_V2: _halved(_K.search_backtracking_v2),
    SeedAlgorithm.FILTERING_V1: _halved(_K.search_filtering_v1),
    SeedAlgorithm.FILTERING_V2: _halved(_K.search_filtering_v2),
    SeedAlgorithm.BITWISE: lambda n: bitwise_with_nodes(n, force=True)[0],  # count_with checks the limit
}


def _check_n(n) -> int:
    try:
        value = validate.whole_number(n, "n")
    except QueensError:
        value = 0
    if not 1 <= value <= MAX_N:
        raise QueensError(f"n must be an integer from 1 to {MAX_N}, got {validate.brief(n)}")
    return value


def count_with(algorithm: SeedAlgorithm | str, n: int, *, force: bool = False) -> int:
    """Count the solutions of the standard n-queens problem with a seed algorithm.

    Parameters
    ----------
    algorithm : SeedAlgorithm or str
        The algorithm, as a member or its value (``"plain"``, ``"basic"``,
        ``"backtracking-v1"``, ``"backtracking-v2"``, ``"filtering-v1"``,
        ``"filtering-v2"``, ``"bitwise"``).
    n : int
        Board size, 1 <= n <= 32.
    force : bool, default False
        Allow ``n > PRACTICAL_LIMIT`` (the counters are single-threaded and cannot be
        interrupted).

    Returns
    -------
    int
        The number of solutions (OEIS A000170).

    Raises
    ------
    QueensError
        If ``algorithm`` is unknown or ``n`` is not an integer in 1..32.
    TooLarge
        For ``n > PRACTICAL_LIMIT`` without ``force``.

    Notes
    -----
    The first call of each algorithm compiles its kernel (or loads it from numba's
    cache). The kernels are single-threaded and release the GIL. All but ``"plain"``
    search only half of the first row ("The N queens problem - new variants of the Wirth algorithm", section 3 "Symmetry").

    Examples
    --------
    >>> count_with("basic", 6)
    4
    """
    algo = validate.member(SeedAlgorithm, algorithm, "seed algorithm")
    size = _check_n(n)
    force = validate.flag(force, "force")
    limits.check(SEED_COUNT, size, force, request=f"counting {size}-queens with the seed algorithm {algo.value!r}")
    return int(_KERNELS[algo](size))
