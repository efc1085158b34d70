"""Hypothesis strategies drawing random Problems."""

from hypothesis import strategies as st

from queenslab.problem import Problem, Region


@st.composite
def regions(draw, n, max_regions=2):
    """A few random regions: random cells, random bounds that a region of that size allows."""
    out = []
    for _ in range(draw(st.integers(0, max_regions))):
        cells = draw(
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=min(8, n * n))
        )
        size = len(set(cells))
        lo = draw(st.integers(0, min(size, 3)))
        hi = draw(st.one_of(st.none(), st.integers(lo, size)))
        out.append(Region(cells, lo, hi))
    return out


@st.composite
def problems(draw, min_n=1, max_n=7, new=True):
    """Random variants: toroidal/knight flags, a few blocked cells, a few fixed queens,
    and (``new``) random leapers and regions with random bounds.

    Constraints may contradict each other (fixed queens attacking each other, a fixed
    queen on a blocked cell, bounds no placement meets): such a problem has no solutions.
    """
    n = draw(st.integers(min_n, max_n))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    toroidal = draw(st.booleans())
    knight = draw(st.booleans())
    blocked = draw(st.lists(cells, max_size=min(6, n * n)))
    fixed = draw(st.lists(cells, max_size=2))
    leapers = draw(st.lists(st.sampled_from([(1, 3), (2, 3), (1, 4), (3, 1)]), max_size=1)) if new else []
    return Problem(
        n,
        toroidal=toroidal,
        knight=knight,
        blocked=blocked,
        fixed=fixed,
        leapers=leapers,
        regions=draw(regions(n)) if new else [],
    )


@st.composite
def symmetric_problems(draw, min_n=4, max_n=7):
    """Problems whose blocked cells are a union of orbits under a random symmetry,
    so that ``problem.symmetries()`` is a proper, non-trivial subgroup more often."""
    import numpy as np
    from naive import _transforms

    n = draw(st.integers(min_n, max_n))
    t = draw(st.sampled_from(_transforms()))
    seeds = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=2))
    board = np.zeros((n, n), dtype=np.int8)
    for r, c in seeds:
        board[r, c] = 1
    for _ in range(4):  # close the set under t (t has order <= 4)
        board = board | t(board)
    blocked = [tuple(map(int, rc)) for rc in np.argwhere(board)]
    regions = []
    if draw(st.booleans()):  # a region closed under t too, with random bounds
        area = np.zeros((n, n), dtype=np.int8)
        for r, c in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=3)):
            area[r, c] = 1
        for _ in range(4):
            area = area | t(area)
        cells = [tuple(map(int, rc)) for rc in np.argwhere(area)]
        lo = draw(st.integers(0, min(len(cells), 2)))
        regions.append(Region(cells, lo, draw(st.one_of(st.none(), st.integers(lo, len(cells))))))
    leapers = draw(st.lists(st.sampled_from([(1, 3), (2, 3)]), max_size=1))
    return Problem(
        n, toroidal=draw(st.booleans()), knight=draw(st.booleans()), blocked=blocked, leapers=leapers, regions=regions
    )
