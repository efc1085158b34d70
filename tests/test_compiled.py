"""The compiled form of a problem against the brute-force oracle, and the plain dict form."""

import json

import numpy as np
import pytest
from hypothesis import given
from naive import attacked, symmetry_count
from strategies import problems

from queenslab.compiled import compile_problem
from queenslab.errors import InvalidProblem, TooLarge
from queenslab.problem import Problem


def _attacked_by_tables(c, a, b):
    """Does a queen on a attack b, read from the compiled tables only (rows and columns
    are implicit in every backend: one queen each)."""
    (r1, c1), (r2, c2) = sorted((a, b))
    if r1 == r2 or c1 == c2:
        return True
    if any(a in line and b in line for line in c.diagonals):
        return True
    d = r2 - r1
    leap = any(int(c.leap_masks[i, c1]) >> c2 & 1 for i in range(len(c.leap_rows)) if c.leap_rows[i] == d)
    assert leap == ((a, b) in c.leap_pairs or (b, a) in c.leap_pairs)
    return leap


@given(problems(max_n=7))
def test_attack_tables_match_ray_walking(p):
    c = compile_problem(p)
    n = p.n
    cells = [(r, col) for r in range(n) for col in range(n)]
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            assert _attacked_by_tables(c, a, b) == attacked(n, a, b, p.toroidal, p.knight, p.leapers), (a, b)


@given(problems(max_n=7))
def test_allowed_cells_and_group(p):
    c = compile_problem(p)
    n = p.n
    for r in range(n):
        for col in range(n):
            free = (r, col) not in p.blocked and all(
                (r, col) == f or (f[0] != r and not attacked(n, f, (r, col), p.toroidal, p.knight, p.leapers))
                for f in p.fixed
            )
            free = free and all(f[0] != r or f == (r, col) for f in p.fixed)
            free = free and not any((r, col) in g.cells for g in p.regions if g.at_most == 0)
            free = free and p.contradiction is None  # contradicting constraints: no cell at all
            assert bool(int(c.allowed[r]) >> col & 1) == free, (r, col)
    assert len(c.group) == symmetry_count(p) == len(c.group_flags) + 1


def test_compiled_form_is_cached_and_read_only():
    c = compile_problem(Problem(8, knight=True))
    assert compile_problem(Problem(8, knight=True)) is c
    with pytest.raises(ValueError):
        c.allowed[0] = 0


@given(problems(max_n=9))
def test_dict_form_round_trips_through_json(p):
    for one_based in (False, True):
        d = json.loads(json.dumps(p.to_dict(one_based=one_based)))
        assert Problem.from_dict(d) == p
        assert Problem.from_dict(d).fingerprint() == p.fingerprint()


@pytest.mark.parametrize(
    "data, words",
    [
        ({"n": 8, "colour": "red"}, "unknown problem field"),
        ({"toroidal": True}, "needs 'n'"),
        ({"n": 8, "version": 99}, "version 99"),
        ({"n": 8, "blocked": "1,1"}, "list of [row, column] pairs"),
        ({"n": 8, "base": 1, "blocked": [[0, 1]]}, "outside"),
        ([8], "is a dict"),
    ],
)
def test_from_dict_refuses_bad_input(data, words):
    with pytest.raises(InvalidProblem, match=words.replace("[", r"\[").replace("]", r"\]")):
        Problem.from_dict(data)


def test_leap_table_of_toroidal_knight_wraps():
    c = compile_problem(Problem(5, toroidal=True, knight=True))
    # distances 1, 2 and (across the edge) 3 = 5 - 2, 4 = 5 - 1
    assert c.leap_rows.tolist() == [1, 2, 3, 4]
    assert np.array_equal(c.leap_masks[0], c.leap_masks[3])


def test_bitboard_tables_stop_at_64_columns_but_the_models_do_not():
    """Boards above 64 columns have no bitboard tables (a TooLarge naming the limit), and
    the models of such boards still build: the tables are computed only when read."""
    c = compile_problem(Problem(65))
    with pytest.raises(TooLarge, match="n <= 64"):
        c.allowed  # noqa: B018 (the property is the call under test)
    assert len(c.diagonals) == 2 * (2 * 65 - 3)
    from queenslab.models import cnf, cpsat

    assert cnf.build(Problem(65), encoding="seqcounter").var(64, 64) == 65 * 65
    assert cpsat.build(Problem(65)).q is not None
