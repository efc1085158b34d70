"""Problem validation, symmetries and fingerprints; the D4 elements."""

import itertools

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st
from strategies import problems, symmetric_problems

from queenslab import counts
from queenslab.d4 import D4, IDENTITY, D4Element
from queenslab.errors import InvalidProblem, QueensError
from queenslab.problem import Problem, Region, attacks


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"n": 0}, "at least 1"),
        ({"n": -3}, "at least 1"),
        ({"n": 2.5}, "integer"),
        ({"n": True}, "integer"),
        ({"n": "8"}, "integer"),
        ({"n": 4, "blocked": [(4, 0)]}, "outside the 4x4 board"),
        ({"n": 4, "fixed": [(0, -1)]}, "outside"),
        ({"n": 4, "blocked": [(1,)]}, "pairs"),
        ({"n": 4, "blocked": "a1"}, "pairs"),
        ({"n": 5, "toroidal": "yes"}, "True or False"),
        ({"n": 5, "leapers": [(0, 2)]}, "already has"),
        ({"n": 5, "leapers": [(2, 2)]}, "already has"),
        ({"n": 5, "leapers": [(1,)]}, "pair"),
        ({"n": 5, "leapers": 5}, "collection"),
        ({"n": 5, "regions": [Region([(5, 0)])]}, "outside the 5x5 board"),
        ({"n": 5, "regions": [Region([(0, 0)], at_least=1)], "fixed": [(9, 9)]}, "outside"),
        ({"n": 5, "regions": [{"cells": [(0, 0)], "most": 1}]}, "unknown: most"),
        ({"n": 5, "regions": [[(0, 0)]]}, "Region"),
        ({"n": 5, "regions": Region([(0, 0)])}, "collection"),
    ],
)
def test_invalid_problems_raise_clear_errors(kwargs, match):
    with pytest.raises(InvalidProblem, match=match):
        Problem(**kwargs)
    assert issubclass(InvalidProblem, QueensError) and issubclass(QueensError, ValueError)


def test_problem_is_frozen_and_normalised():
    p = Problem(6, blocked=[(2, 1), (0, 0), (2, 1)], fixed=np.array([[1, 2]]))
    assert p.blocked == ((0, 0), (2, 1)) and p.fixed == ((1, 2),)
    with pytest.raises(AttributeError):
        p.n = 7
    assert p == Problem(6, blocked=[(0, 0), (2, 1)], fixed=[(1, 2)])
    assert hash(p) == hash(Problem(6, blocked=[(0, 0), (2, 1)], fixed=[(1, 2)]))


def test_fingerprint_is_stable_and_distinguishes_variants():
    variants = [
        Problem(8),
        Problem(8, toroidal=True),
        Problem(8, knight=True),
        Problem(8, blocked=[(0, 0)]),
        Problem(8, fixed=[(0, 0)]),
        Problem(9),
    ]
    prints = [v.fingerprint() for v in variants]
    assert len(set(prints)) == len(prints)
    assert Problem(8, blocked=[(1, 1), (0, 0)]).fingerprint() == Problem(8, blocked=[(0, 0), (1, 1)]).fingerprint()
    assert all(len(f) == 64 and int(f, 16) >= 0 for f in prints)


def test_d4_is_a_group_with_eight_distinct_actions():
    assert len(D4) == 8 and D4[0] == IDENTITY
    p = (0, 4, 7, 5, 2, 6, 1, 3)  # the first 8-queens solution; its orbit has 8 members
    assert len({g.apply(p) for g in D4}) == 8
    for g, h in itertools.product(D4, D4):
        assert g * h in D4
        assert (g * h).apply(p) == g.apply(h.apply(p))
    for g in D4:
        assert g * g.inverse() == IDENTITY


def test_d4_names_match_numpy_geometry():
    n = 5
    board = np.arange(n * n).reshape(n, n)
    geometry = {
        "identity": board,
        "rotate-90": np.rot90(board, -1),  # clockwise
        "rotate-180": np.rot90(board, 2),
        "rotate-270": np.rot90(board, 1),
        "reflect-vertical-axis": np.fliplr(board),
        "reflect-horizontal-axis": np.flipud(board),
        "reflect-main-diagonal": board.T,
        "reflect-anti-diagonal": np.rot90(board, 2).T,
    }
    for g in D4:
        image = np.empty_like(board)
        for r, c in itertools.product(range(n), repeat=2):
            image[g.cell(n, r, c)] = board[r, c]
        assert np.array_equal(image, geometry[g.name]), g.name


@given(symmetric_problems(max_n=8))
def test_symmetries_is_the_stabilising_subgroup(p):
    sym = p.symmetries()
    assert sym[0] == IDENTITY
    assert len(sym) == naive.symmetry_count(p)
    assert 8 % len(sym) == 0
    for g, h in itertools.product(sym, sym):
        assert g * h in sym


def test_symmetries_of_common_cases():
    assert len(Problem(8).symmetries()) == 8
    assert len(Problem(8, toroidal=True, knight=True).symmetries()) == 8
    assert [g.name for g in Problem(8, fixed=[(0, 0)]).symmetries()] == ["identity", "reflect-main-diagonal"]
    assert len(Problem(5, blocked=[(2, 2)]).symmetries()) == 8
    assert len(Problem(5, blocked=[(0, 1)]).symmetries()) == 1


@given(problems(max_n=6), st.data())
def test_attacks_agrees_with_ray_walking(p, data):
    n = p.n
    a = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
    b = data.draw(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
    if a != b:
        how = attacks(n, a, b, toroidal=p.toroidal, knight=p.knight, leapers=p.leapers)
        assert (how is not None) == naive.attacked(n, a, b, p.toroidal, p.knight, p.leapers)


def test_describe_and_to_dict():
    p = Problem(6, toroidal=True, blocked=[(0, 1)], fixed=[(2, 2)])
    assert p.describe() == "6-queens, toroidal, 1 blocked, 1 fixed"
    assert p.to_dict(one_based=True)["blocked"] == [[1, 2]]
    assert D4Element(True, False, True).name == "rotate-90"


# ----------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"n": 2**31}, "at most 2147483647"),
        ({"n": 10**400}, "at most"),
        ({"n": 4.0}, "a float is never"),
        ({"n": np.float64(4)}, "integer"),
        ({"n": 4, "blocked": 5}, "collection"),
        ({"n": 4, "blocked": [(True, 0)]}, "integer"),
        ({"n": 4, "blocked": [(0.0, 0)]}, "integer"),
        ({"n": 4, "fixed": ["ab"]}, "pairs"),
        ({"n": 4, "knight": np.array([1, 0])}, "True or False"),
        ({"n": 4, "toroidal": 2}, "True or False"),
    ],
)
def test_hostile_problems_raise_invalid_problem(kwargs, match):
    with pytest.raises(InvalidProblem, match=match):
        Problem(**kwargs)


def test_numpy_scalars_are_integers_and_flags():
    p = Problem(np.int16(6), toroidal=np.bool_(False), knight=np.int64(1), blocked=np.array([[1, 2]]))
    assert p == Problem(6, knight=True, blocked=[(1, 2)]) and type(p.n) is int and p.knight is True


@pytest.mark.parametrize(
    "data",
    [
        {"n": 4, "blocked": [["a", 1]]},
        {"n": 4, "blocked": 5},
        {"n": 4, "blocked": [[1.5, 1]]},
        {"n": 4, "version": [1]},
        {"n": 4, "version": np.array([1, 1])},
        {"n": 4, "base": np.array([0, 1])},
        {"n": 4, "base": 1.0},
        {"n": 4, ("x",): 1},
        {"n": "4"},
    ],
)
def test_from_dict_refuses_hostile_descriptions(data):
    with pytest.raises(InvalidProblem):
        Problem.from_dict(data)


@pytest.mark.parametrize(
    "args",
    [
        (8, (0, 0), (0, 0)),
        (8, (0, 0), (8, 0)),
        (8, (0, 0), (1.0, 2)),
        (8, "ab", (1, 2)),
        (8, None, (1, 2)),
        (0, (0, 0), (1, 1)),
        (8.0, (0, 0), (1, 1)),
    ],
)
def test_attacks_refuses_cells_off_the_board(args):
    with pytest.raises(QueensError):
        attacks(*args)
    if args[0] == 8 and type(args[0]) is int:
        with pytest.raises(QueensError):
            Problem(8).attack(*args[1:])


def test_leap_offsets_refuses_non_pairs():
    from queenslab.problem import leap_offsets

    assert leap_offsets([[1, 2]]) == leap_offsets(((1, 2),))
    for bad in (5, None, "12", [(1,)], [(1.5, 2)], [[1, 2, 3]]):
        with pytest.raises(QueensError):
            leap_offsets(bad)


@given(problems(max_n=7), st.data())
def test_fixed_queens_check_matches_the_pairwise_definition(p, data):
    """The grouped check of the fixed queens finds exactly the attacking sets, naming the first pair."""
    cells = data.draw(st.lists(st.tuples(st.integers(0, p.n - 1), st.integers(0, p.n - 1)), max_size=4, unique=True))
    fixed = sorted(cells)
    pairs = [(a, b) for i, a in enumerate(fixed) for b in fixed[i + 1 :] if p.attack(a, b)]
    q = Problem(p.n, toroidal=p.toroidal, knight=p.knight, leapers=p.leapers, fixed=fixed)
    assert q.fixed == tuple(fixed)
    if pairs:
        (r1, c1), (r2, c2) = pairs[0]
        assert f"fixed queens at ({r1 + 1},{c1 + 1}) and ({r2 + 1},{c2 + 1}) attack" in q.contradiction
    else:
        assert q.contradiction is None


@pytest.mark.parametrize(
    "kwargs,reason",
    [
        ({"n": 5, "blocked": [(1, 1)], "fixed": [(1, 1)]}, "stands on a blocked cell"),
        ({"n": 5, "fixed": [(0, 0), (0, 3)]}, "(row)"),
        ({"n": 5, "fixed": [(0, 1), (3, 1)]}, "(column)"),
        ({"n": 5, "fixed": [(0, 0), (2, 2)]}, "(diagonal)"),
        ({"n": 5, "fixed": [(0, 0), (1, 2)], "knight": True}, "(knight)"),
        ({"n": 6, "fixed": [(0, 0), (1, 3)], "leapers": [(1, 3)]}, "(camel)"),
        ({"n": 5, "fixed": [(0, 0)], "regions": [Region([(0, 0), (1, 1)], at_most=0)]}, "1 fixed queens stand on it"),
        ({"n": 5, "regions": [Region([(0, 0), (0, 1), (0, 2)], at_least=2)]}, "only 1 rows or columns"),
    ],
)
def test_contradicting_constraints_make_a_problem_without_solutions(kwargs, reason):
    """As in CP and SAT tools: not an error, but no solutions -- every backend counts 0, and
    the problem says why."""
    p = Problem(**kwargs)
    assert reason in p.contradiction
    assert naive.all_solutions(p) == []
    for backend in ("native", "cpsat", "sat"):
        r = counts(p, unique=True, backend=backend)
        assert (r.count, r.unique) == (0, 0), backend


def test_many_fixed_queens_are_checked_quickly():
    from queenslab.heuristics import construct

    n = 20_000
    fixed = list(enumerate(construct(n).tolist()))
    assert len(Problem(n, fixed=fixed).fixed) == n  # 2 * 10**8 pairs if compared pairwise


def test_fingerprints_of_existing_problems_are_unchanged():
    # indexes are named by the fingerprint: these values were computed before the input checks changed
    assert Problem(8).fingerprint()[:12] == "8d27241a7be7"
    assert Problem(8, toroidal=True).fingerprint()[:12] == "4bd7a26af985"
    assert Problem(8, blocked=[(0, 1)], fixed=[(1, 3)]).fingerprint()[:12] == "6abd0d50f2cd"
    assert Problem(np.int64(8), toroidal=np.bool_(False)).fingerprint() == Problem(8).fingerprint()


def test_new_fields_get_distinct_fingerprints_and_leave_old_ones_alone():
    diagonal = Region([(i, i) for i in range(8)], at_most=0)
    prints = {
        Problem(8).fingerprint(),
        Problem(8, leapers=[(1, 3)]).fingerprint(),
        Problem(8, leapers=[(2, 3)]).fingerprint(),
        Problem(8, regions=[diagonal]).fingerprint(),
        Problem(8, regions=[Region(diagonal.cells, at_most=1)]).fingerprint(),
        Problem(8, regions=[Region(diagonal.cells, at_least=1)]).fingerprint(),
    }
    assert len(prints) == 6
    # the knight's own spelling and its leaper spelling are one problem, with the old fingerprint
    assert Problem(8, leapers=[(2, 1)]) == Problem(8, knight=True)
    assert Problem(8, leapers=[(2, 1)]).fingerprint() == Problem(8, knight=True).fingerprint()
    # a region that bounds nothing is no constraint, and regions are a set
    a, b = Region([(0, 0)], at_least=1), Region([(1, 1), (2, 2)], at_most=1)
    assert Problem(8, regions=[Region([(0, 0)], at_most=5)]) == Problem(8)
    assert Problem(8, regions=[a, b]) == Problem(8, regions=[b, a, b])


@given(problems(max_n=7))
def test_symmetries_are_exactly_the_invariances_the_oracle_finds(p):
    assert len(p.symmetries()) == naive.symmetry_count(p)
    assert p.symmetries()[0] == IDENTITY
