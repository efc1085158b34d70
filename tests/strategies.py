"""Hypothesis strategies drawing random Problems."""

from hypothesis import strategies as st

from queenslab.errors import InvalidProblem
from queenslab.problem import Problem


@st.composite
def problems(draw, min_n=1, max_n=7):
    """Random variants: toroidal/knight flags, a few blocked cells, a few fixed queens.

    Draws that are not valid Problems (fixed queens attacking each other, a fixed queen
    on a blocked cell) are rejected, as the constructor refuses them.
    """
    n = draw(st.integers(min_n, max_n))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    toroidal = draw(st.booleans())
    knight = draw(st.booleans())
    blocked = draw(st.lists(cells, max_size=min(6, n * n)))
    fixed = draw(st.lists(cells, max_size=2))
    try:
        return Problem(n, toroidal=toroidal, knight=knight, blocked=blocked, fixed=fixed)
    except InvalidProblem:
        from hypothesis import assume

        assume(False)


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
    return Problem(n, toroidal=draw(st.booleans()), knight=draw(st.booleans()), blocked=blocked)
