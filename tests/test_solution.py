"""Parsing, formatting and checking placements."""

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st
from strategies import problems

from queenslab.errors import InvalidPlacement, QueensError, TooLarge
from queenslab.problem import Problem
from queenslab.solution import (
    board_text,
    conflicts,
    format_placement,
    is_solution,
    parse_placement,
    why_not_solution,
)


@given(st.integers(1, 30).flatmap(lambda n: st.permutations(range(n))))
def test_format_parse_round_trip(p):
    p = tuple(p)
    assert parse_placement(format_placement(p)) == p
    assert parse_placement(format_placement(p, "commas")) == p
    assert parse_placement("[" + format_placement(p, "commas") + "]") == p
    if len(p) <= 9:
        assert parse_placement(format_placement(p, "digits")) == p


def test_document_example_and_digit_strings():
    assert parse_placement("2 8 10 4 1 5 9 6 3 7") == (1, 7, 9, 3, 0, 4, 8, 5, 2, 6)
    assert parse_placement("27368514") == (1, 6, 2, 5, 7, 4, 0, 3)
    assert parse_placement(" 2, 4 ,1,3 ") == (1, 3, 0, 2)


@pytest.mark.parametrize(
    "text,n,match",
    [
        ("", None, "empty"),
        ("1 2 x", None, "not a column"),
        ("1 2 -3", None, "not a column"),
        ("0 1 2", None, "off the board"),
        ("1 2 4", None, "off the board"),
        ("1 2 3", 4, "expected 4"),
        ("1234567891", None, "ambiguous"),
        ("1.5 2", None, "not a column"),
    ],
)
def test_malformed_placements(text, n, match):
    with pytest.raises(InvalidPlacement, match=match):
        parse_placement(text, n)


def test_format_errors():
    with pytest.raises(InvalidPlacement, match="n <= 9"):
        format_placement(range(10), "digits")
    with pytest.raises(InvalidPlacement, match="style"):
        format_placement((0,), "roman")


@given(problems(max_n=6), st.data())
def test_is_solution_matches_brute_force(p, data):
    cand = tuple(data.draw(st.lists(st.integers(0, p.n - 1), min_size=p.n, max_size=p.n)))
    assert is_solution(p, cand) == naive.is_solution(p, cand)
    assert (why_not_solution(p, cand) is None) == naive.is_solution(p, cand)


def test_conflicts_name_the_attacking_queens():
    found = conflicts(Problem(4), (0, 2, 2, 1))
    kinds = {(c.rule, c.cells) for c in found}
    assert ("column", ((1, 2), (2, 2))) in kinds
    assert ("diagonal", ((0, 0), (3, 1))) not in kinds
    assert ("anti-diagonal", ((2, 2), (3, 1))) in kinds
    msg = why_not_solution(Problem(4), (0, 2, 2, 1))
    assert msg.startswith("the queens at (1,1) and")


def test_conflicts_for_variants():
    p = Problem(5, blocked=[(0, 0)], fixed=[(1, 3)])
    kinds = [c.rule for c in conflicts(p, (0, 2, 4, 1, 3))]
    assert "blocked" in kinds and "fixed" in kinds
    assert next(c.rule for c in conflicts(Problem(5, knight=True), (0, 2, 4, 1, 3))) == "knight"
    assert is_solution(Problem(5), (0, 2, 4, 1, 3)) and not is_solution(Problem(5, knight=True), (0, 2, 4, 1, 3))
    assert not is_solution(Problem(4, toroidal=True), (1, 3, 0, 2))


def test_checking_rejects_malformed_input():
    with pytest.raises(InvalidPlacement, match="expected 4"):
        is_solution(Problem(4), (0, 1))
    with pytest.raises(InvalidPlacement, match="off the board"):
        is_solution(Problem(4), (0, 1, 2, 4))


def test_board_text_marks_blocked_and_missing_fixed():
    p = Problem(4, blocked=[(0, 0)], fixed=[(3, 3)])
    text = board_text(p, (1, 3, 0, 2))
    assert text.splitlines()[0] == "# Q . ."
    assert text.splitlines()[3] == ". . Q F"
    assert board_text(Problem(2)).splitlines() == [". .", ". ."]


@given(problems(max_n=8), st.data())
def test_conflicts_match_the_compiled_pairwise_check(p, data):
    """The line-grouping check lists exactly the conflicts of the pairwise definition
    (CompiledProblem.conflicts, which asks Problem.attack about every pair), in the same order."""
    from queenslab.compiled import compile_problem

    cand = tuple(data.draw(st.lists(st.integers(0, p.n - 1), min_size=p.n, max_size=p.n)))
    want = compile_problem(p).conflicts(cand)
    assert conflicts(p, cand) == want
    assert conflicts(p, np.array(cand, dtype=np.int64)) == want  # an array reads as its columns
    assert why_not_solution(p, cand) == (want[0].message if want else None)
    assert is_solution(p, cand) == (not want)


def test_floats_are_never_columns():
    for bad in ([1.5, 3, 0, 2], [1.0, 3, 0, 2], np.array([1.0, 3, 0, 2]), [True, 3, 0, 2]):
        with pytest.raises(InvalidPlacement, match="column|integer"):
            is_solution(Problem(4), bad)
        with pytest.raises(InvalidPlacement):
            format_placement(bad)
    assert is_solution(Problem(4), np.array([1, 3, 0, 2], dtype=np.uint8))
    assert is_solution(Problem(4), [np.int64(1), 3, np.int32(0), 2])


def test_a_problem_is_required_where_one_is_named():
    with pytest.raises(QueensError, match=r"Problem\(4\)"):
        is_solution(4, [1, 3, 0, 2])
    for fn in (conflicts, why_not_solution, board_text):
        with pytest.raises(QueensError, match="expected a queenslab Problem"):
            fn("4", [1, 3, 0, 2])


def test_checks_work_beyond_the_bitboard_by_grouping_lines():
    from queenslab.heuristics import construct

    n = 200_000
    p = construct(n)
    assert is_solution(Problem(n), p) and why_not_solution(Problem(n), p) is None
    q = p.copy()
    q[[10, 20]] = q[[20, 10]]
    assert not is_solution(Problem(n), q)
    assert why_not_solution(Problem(n), q).startswith("the queens at")
    with pytest.raises(TooLarge, match="conflicts"):
        conflicts(Problem(n), np.zeros(n, np.int64))
    with pytest.raises(TooLarge, match="board_text"):
        board_text(Problem(n))


@pytest.mark.parametrize(
    "text,n,match",
    [
        ("1 2 3", "3", "integer"),
        ("1 2 3", 3.0, "integer"),
        ("9" * 5000 + " 1", None, "not a column"),
        ("١ ٢", None, "not a column"),
        ("²³", None, "not a column"),
    ],
)
def test_hostile_text(text, n, match):
    with pytest.raises(InvalidPlacement, match=match):
        parse_placement(text, n)
