"""The exhaustive domination search: the fewest queens that cover every cell, proved by
refuting every smaller number (:mod:`queenslab.native.domination_kernels`).

:func:`least_cover` asks the kernel whether 1, 2, 3, ... queens on the allowed cells
cover the cells that need it, and stops at the first number that does: its answer is a
witness, and every smaller number was refuted by a search that is exhaustive up to the
board's symmetries. The symmetries are given as cell permutations and each is checked
here, so that the search uses only those that map the cover relation, the cells to
cover and the allowed cells onto themselves.

Examples
--------
>>> covers = [[0, 1, 2, 3]] * 4          # 2 x 2: every cell covers every cell
>>> least_cover(covers, forbidden=(), fixed=()).value
1
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import interrupt, validate
from ..errors import QueensError
from . import domination_kernels as DK

__all__ = ["CoverSearch", "least_cover", "MAX_CELLS"]

#: The most cells a board of the search may have (the optimisation models' 64 x 64).
MAX_CELLS = 64 * 64


@dataclass(frozen=True)
class CoverSearch:
    """What :func:`least_cover` found.

    Attributes
    ----------
    value : int or None
        The fewest queens (the fixed ones included) that cover the board; None when the
        search stopped first, or when no set of queens covers it (``proved`` then).
    bound : int or None
        The proved lower bound: every smaller number of queens was refuted.
    proved : bool
        Whether ``value`` is proved (or, with ``value`` None, that no set covers).
    cells : tuple of int
        The witness's cells (fixed queens first).
    nodes : int
        Nodes the searches visited.
    symmetries : int
        How many cell permutations the search used (the identity included).
    """

    value: int | None
    bound: int | None
    proved: bool
    cells: tuple[int, ...]
    nodes: int
    symmetries: int


def least_cover(
    covers: Sequence[Sequence[int]],
    forbidden: Sequence[int],
    fixed: Sequence[int],
    *,
    symmetries: Sequence[Sequence[int]] = (),
    seconds: float | None = None,
) -> CoverSearch:
    """The fewest queens that cover every cell, by exhaustive search.

    Parameters
    ----------
    covers : sequence of sequence of int
        For each cell ``0..N-1``, the cells whose queen occupies or attacks it (a symmetric
        relation); an empty entry for a cell that needs no cover and holds no queen (a hole).
    forbidden, fixed : sequence of int
        Cells that hold no queen, cells that hold one.
    symmetries : sequence of permutations, optional
        Cell permutations of the board (array form); those that do not map the relation,
        the cells to cover and the allowed cells onto themselves are left out.
    seconds : float, optional
        A time limit: the search stops there and reports the bound it proved.

    Returns
    -------
    CoverSearch

    Raises
    ------
    QueensError
        For a relation that is not symmetric, cells out of range, more than
        :data:`MAX_CELLS` cells.
    Interrupted
        On Ctrl-C.
    """
    size = len(covers)
    validate.whole_number(size, "the number of cells", minimum=1, maximum=MAX_CELLS)
    sets = [frozenset(_cells(c, size, "a cover")) for c in covers]
    if any(j not in sets[i] for j, s in enumerate(sets) for i in s):
        raise QueensError("the cover relation of the domination search must be symmetric")
    seconds = validate.positive_seconds(seconds)
    barred = set(_cells(forbidden, size, "forbidden")) | {i for i, s in enumerate(sets) if not s}
    placed = tuple(dict.fromkeys(_cells(fixed, size, "fixed")))
    to_cover = {i for i, s in enumerate(sets) if s} - {j for f in placed for j in sets[f]}
    allowed = set(range(size)) - barred - set(placed)
    perms = [p for p in _permutations(symmetries, size) if _maps_onto_itself(p, sets, to_cover, allowed)]
    if not to_cover:
        return CoverSearch(len(placed), len(placed), True, placed, 0, len(perms))
    if any(not (sets[u] & allowed) for u in to_cover):  # a cell no allowed queen covers
        return CoverSearch(None, None, True, (), 0, len(perms))
    words = (size + 63) // 64
    cover = np.zeros((size, words), np.uint64)
    for i, s in enumerate(sets):
        for j in s:
            cover[i, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    sym = np.array(perms, dtype=np.int64).reshape(len(perms), size)
    timeout = np.zeros(1, np.int64)
    timer = None
    if seconds is not None:
        timer = threading.Timer(seconds, timeout.__setitem__, (0, 1))
        timer.daemon = True
        timer.start()
    nodes = 0
    try:
        for k in range(1, len(allowed) + 1):
            chosen = np.full(k + 1, -1, np.int64)
            stats = np.zeros(3, np.int64)
            found = _search(k, cover, sym, _bits(to_cover, words), _bits(allowed, words), timeout, chosen, stats)
            nodes += int(stats[DK.NODES])
            if stats[DK.WAS_STOPPED]:
                interrupt.check()  # Ctrl-C raises; the time limit reports the bound
                return CoverSearch(None, len(placed) + k, False, (), nodes, len(perms))
            if found:
                cells = placed + tuple(int(c) for c in chosen[: stats[DK.ANSWER_SIZE]])
                return CoverSearch(len(cells), len(cells), True, cells, nodes, len(perms))
    finally:
        if timer is not None:
            timer.cancel()
    raise AssertionError("every allowed cell together covers the board: the search found a set")  # pragma: no cover


def _search(
    k: int,
    cover: np.ndarray,
    sym: np.ndarray,
    uncovered: np.ndarray,
    allowed: np.ndarray,
    timeout: np.ndarray,
    chosen: np.ndarray,
    stats: np.ndarray,
) -> bool:
    """One search for at most ``k`` queens: the kernel's root with its scratch space."""
    cells, words = cover.shape
    levels = k + 2
    unc = np.zeros((levels, words), np.uint64)
    alw = np.zeros((levels, words), np.uint64)
    unc[0], alw[0] = uncovered, allowed
    groups = np.zeros(levels, np.int64)
    groups[0] = (1 << sym.shape[0]) - 1
    return bool(
        DK.cover_search(
            0,
            k,
            unc,
            alw,
            groups,
            cover,
            sym,
            chosen,
            stats,
            np.zeros(cells, np.int64),
            np.zeros((levels, cells), np.int64),
            np.zeros(cells, np.int64),
            np.zeros(levels, np.int64),
            np.zeros(words, np.uint64),
            interrupt.FLAG,
            timeout,
        )
    )


def _cells(values: Sequence[int], size: int, what: str) -> list[int]:
    """``values`` as cell numbers ``0..size-1``, or a QueensError saying what was wrong."""
    try:
        out = [operator.index(c) for c in values]
    except TypeError:
        raise QueensError(f"{what}: cells are integers 0..{size - 1}, got {validate.brief(values)}") from None
    bad = next((c for c in out if not 0 <= c < size), None)
    if bad is not None:
        raise QueensError(f"{what}: cell {bad} is not one of the cells 0..{size - 1}")
    return out


def _permutations(symmetries: Sequence[Sequence[int]], size: int) -> list[tuple[int, ...]]:
    """The identity first, then each given permutation once."""
    out = [tuple(range(size))]
    for p in symmetries:
        perm = tuple(_cells(p, size, "a symmetry"))
        if sorted(perm) != list(out[0]):
            raise QueensError(f"a symmetry must be a permutation of the cells 0..{size - 1}")
        if perm not in out:
            out.append(perm)
    if len(out) > 8:
        raise QueensError(f"the search takes at most 8 symmetries (those of the square), got {len(out)}")
    return out


def _maps_onto_itself(p: tuple[int, ...], sets: list[frozenset[int]], to_cover: set[int], allowed: set[int]) -> bool:
    """Whether ``p`` maps the relation, the cells to cover and the allowed cells onto
    themselves: the condition under which the kernel's orbits are sound."""
    return (
        {p[i] for i in to_cover} == to_cover
        and {p[i] for i in allowed} == allowed
        and all({p[j] for j in s} == sets[p[i]] for i, s in enumerate(sets))
    )


def _bits(cells: set[int], words: int) -> np.ndarray:
    out = np.zeros(words, np.uint64)
    for c in cells:
        out[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return out
