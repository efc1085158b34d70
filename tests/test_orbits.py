"""Orbits, canonical forms, stabilisers, fundamental solutions and Burnside's count.

Expected values: brute force in tests/naive.py (numpy rotations), the OEIS sequences
A000170 / A002562, and Zhang and Zhang's case study.
"""

import json
from collections import Counter

import naive
import pytest
from clirun import run_cli
from hypothesis import given, strategies as st
from naive import images as naive_images, zero
from strategies import symmetric_problems

from queenslab.d4 import IDENTITY, element
from queenslab.data import known_total, known_unique
from queenslab.errors import InvalidPlacement, QueensError
from queenslab.native import engine
from queenslab.problem import Problem
from queenslab.symmetry.orbits import (
    BurnsideCount,
    Fundamental,
    burnside,
    canonical,
    fundamental_solutions,
    is_canonical,
    orbit,
    orbit_size,
    stabilizer,
)

# ----------------------------------------------------------------------------- orbit, canonical, stabiliser


@pytest.mark.parametrize("n", range(1, 11))
def test_every_member_of_every_orbit_has_the_same_orbit_and_canonical_form(n):
    sols = naive.all_solutions(Problem(n)) if n <= 8 else list(engine.solutions(Problem(n)))
    assert len(sols) == known_total(n)
    canon = {}
    for s in sols:
        images = naive_images(s)
        members = orbit(s)
        assert set(members) == set(images) and list(members) == sorted(members)
        c = canonical(s)
        assert c == min(images) == members[0]
        assert is_canonical(s) == (s == c)
        for m in members:  # every member gives the same orbit and canonical form
            assert canonical(m) == c and orbit(m) == members
        # orbit-stabiliser: |orbit| * |stabiliser| = |G|
        stab = stabilizer(s)
        assert stab[0] == IDENTITY and orbit_size(s) * len(stab) == 8
        assert len(stab) == sum(1 for img in images if img == s)
        canon[c] = len(members)
    assert len(canon) == known_unique(n)
    assert sum(canon.values()) == known_total(n)


def test_zhang_and_zhangs_orbit_numbers_are_canonical_ranks():
    # The case study numbers the 12 orbits of 8 queens by the order of their least members
    # and calls (2, 4, 6, 8, 3, 1, 7, 5) "solution 5 on orbit 3", (3, 6, 8, 1, 5, 7, 2, 4)
    # "solution 24 on orbit 12", (8, 2, 4, 1, 7, 5, 3, 6) a generator of orbit 1.
    reps = [f.solution for f in fundamental_solutions(Problem(8))]
    sols = naive.all_solutions(Problem(8))

    for placement, solution_no, orbit_no in [
        ((2, 4, 6, 8, 3, 1, 7, 5), 5, 3),
        ((3, 6, 8, 1, 5, 7, 2, 4), 24, 12),
        ((6, 4, 2, 8, 5, 7, 1, 3), 77, 6),
        ((2, 7, 3, 6, 8, 5, 1, 4), 10, 8),
        ((2, 6, 8, 3, 1, 4, 7, 5), 9, 7),
        ((3, 5, 8, 4, 1, 7, 2, 6), 17, 11),
        ((5, 8, 4, 1, 7, 2, 6, 3), 64, 4),
        ((3, 5, 2, 8, 1, 7, 4, 6), 14, 10),
    ]:
        p = zero(placement)
        assert sols.index(p) + 1 == solution_no
        assert reps.index(canonical(p)) + 1 == orbit_no
    assert reps.index(canonical(zero((8, 2, 4, 1, 7, 5, 3, 6)))) == 0


@given(st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n)))))
def test_orbits_of_any_permutation_match_brute_force(p):
    p = tuple(p)
    images = naive_images(p)
    assert set(orbit(p)) == set(images)
    assert canonical(p) == min(images)
    assert {g.apply(p) for g in stabilizer(p)} == {p}


@given(symmetric_problems(max_n=7))
def test_orbits_under_a_problems_subgroup(p):
    sols = naive.all_solutions(p)
    reps = {canonical(s, p) for s in sols}
    assert len(reps) == naive.orbit_count(p, sols)
    for s in sols:
        assert set(orbit(s, p)) <= set(sols)  # the subgroup maps solutions to solutions
        assert orbit_size(s, p) * len(stabilizer(s, p)) == len(p.symmetries())
    got = list(fundamental_solutions(p))
    assert [f.solution for f in got] == sorted(reps)
    assert sum(f.size for f in got) == len(sols)


# ----------------------------------------------------------------------------- fundamental solutions


@pytest.mark.parametrize("n", range(1, 13))
def test_fundamental_solutions_count_to_the_known_sequences(n):
    got = list(fundamental_solutions(Problem(n)))
    assert len(got) == known_unique(n)
    assert sum(f.size for f in got) == known_total(n)
    reps = [f.solution for f in got]
    assert reps == sorted(reps)
    if n <= 10:
        for f in got:
            assert is_canonical(f.solution) and orbit_size(f.solution) == f.size
    assert all(isinstance(f, Fundamental) and isinstance(f.size, int) for f in got[:5])


def test_fundamental_solutions_limit_and_errors():
    first = list(fundamental_solutions(Problem(10), limit=3))
    assert len(first) == 3 and first == list(fundamental_solutions(Problem(10)))[:3]
    with pytest.raises(QueensError, match="Problem"):
        list(fundamental_solutions(8))
    with pytest.raises(QueensError, match="limit"):
        list(fundamental_solutions(Problem(8), limit=-1))


# ----------------------------------------------------------------------------- Burnside


@pytest.mark.parametrize("n", range(1, 13))
def test_burnside_agrees_with_the_known_and_native_unique_counts(n):
    b = burnside(Problem(n), threads=2)
    assert isinstance(b, BurnsideCount)
    assert b.solutions == known_total(n)
    assert b.orbits == known_unique(n) == b.native_unique and b.agrees
    assert [g.po for g in b.elements] == [g.po for g in Problem(n).symmetries()]


def test_burnside_fixed_points_of_8_queens_by_brute_force():
    sols = naive.all_solutions(Problem(8))
    b = burnside(Problem(8))
    for g, k in b.by_name().items():
        assert k == sum(1 for s in sols if element(g).apply(s) == s)
    assert sum(b.fixed) == 8 * 12


@given(symmetric_problems(max_n=6))
def test_burnside_on_variants(p):
    b = burnside(p)
    sols = naive.all_solutions(p)
    assert b.orbits == naive.orbit_count(p, sols) == b.native_unique


# ----------------------------------------------------------------------------- errors


def test_bad_input_raises_clear_errors():
    with pytest.raises(InvalidPlacement, match="not a permutation"):
        orbit((0, 0, 1))
    with pytest.raises(InvalidPlacement, match="not a permutation"):
        canonical([1, 2, 3])
    with pytest.raises(QueensError, match="do not form a group"):
        orbit((1, 3, 0, 2), group=[element("po6")])
    with pytest.raises(QueensError, match="not one element"):
        stabilizer((1, 3, 0, 2), group=element("po6"))
    with pytest.raises(QueensError, match="sequence of D4Element"):
        orbit((1, 3, 0, 2), group=["po1"])
    with pytest.raises(QueensError, match="Problem"):
        burnside(8)
    # a proper subgroup is fine
    assert orbit((1, 3, 0, 2), group=[element("po1"), element("po7")]) == ((1, 3, 0, 2),)


# ----------------------------------------------------------------------------- command line


def test_orbits_command_text_and_json(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "8")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == known_unique(8) + 1
    assert lines[0] == "1 5 8 6 3 7 2 4  size 8"
    assert "12 orbits (92 solutions)" in lines[-1] and "agrees" in lines[-1]
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "8", "--json")
    data = json.loads(out)
    assert code == 0 and data["n"] == 8
    assert data["orbits"][0] == {"solution": [1, 5, 8, 6, 3, 7, 2, 4], "size": 8}
    assert len(data["orbits"]) == 12 and sum(o["size"] for o in data["orbits"]) == 92
    assert Counter(o["size"] for o in data["orbits"]) == {8: 11, 4: 1}
    for o in data["orbits"]:  # 1-based placements of solutions
        p = tuple(c - 1 for c in o["solution"])
        assert naive.is_solution(Problem(8), p) and is_canonical(p)


def test_orbits_command_burnside_limit_and_variants(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "10", "--burnside", "--json")
    data = json.loads(out)
    assert code == 0 and data["burnside"]["unique"] == known_unique(10) == data["unique"]
    assert data["burnside"]["fixed"]["po1"] == known_total(10) and data["burnside"]["agrees"]
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "8", "--burnside")
    assert code == 0 and "Burnside: 96 / 8 = 12 orbits" in out
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "12", "--limit", "2", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["orbits"]) == 2 and data["complete"] is False
    code, out, _ = run_cli(capsys, monkeypatch, "orbits", "7", "--fix", "1,1", "--json")
    p = Problem(7, fixed=[(0, 0)])
    data = json.loads(out)
    assert data["unique"] == naive.orbit_count(p) and data["group"] == ["po1", "po2"]


@pytest.mark.parametrize(
    "args,match",
    [
        (("orbits", "0"), "at least 1"),
        (("orbits", "20"), "--limit"),
        (("orbits", "8", "--limit", "2", "--burnside"), "--burnside"),
        (("orbits", "6", "--block", "9,9"), "outside"),
        (("orbits", "x"), "not a valid integer"),
    ],
)
def test_orbits_command_bad_input_exits_2(capsys, monkeypatch, args, match):
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 2 and err.startswith("error: ") and match in err and "Traceback" not in err


def test_symmetry_table_command(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "symmetry", "table", "--json")
    data = json.loads(out)
    assert code == 0
    # Zhang and Zhang's Table 1, rows po2 and po6
    assert data["table"][1] == ["po2", "po1", "po7", "po6", "po8", "po4", "po3", "po5"]
    assert data["table"][5] == ["po6", "po5", "po4", "po2", "po3", "po7", "po8", "po1"]
    assert [e["definition"] for e in data["elements"]][5] == "Cmpl(Inv(p))"
    code, out, _ = run_cli(capsys, monkeypatch, "symmetry", "table")
    assert code == 0 and " po8   po8  po4  po5  po3  po2  po1  po6  po7" in out


def test_symmetry_orbit_command(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "symmetry", "orbit", "1", "6", "8", "3", "7", "4", "2", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["size"] == 8 and data["stabilizer"] == ["po1"]
    # Zhang and Zhang, Table 2: the orbit's eight permutations and the first one's signature
    assert data["images"]["po8"] == [3, 5, 2, 8, 6, 4, 7, 1]
    assert data["raw_signature"][0][0] == [26, 3, 5]
    code, out, err = run_cli(capsys, monkeypatch, "symmetry", "orbit", "1", "1", "2")
    assert code == 2 and "not a permutation" in err
    code, out, _ = run_cli(capsys, monkeypatch, "symmetry", "orbit", "2413")
    assert code == 0 and "orbit of 2" in out and "stabiliser: po1, po6, po7, po8" in out


# ----------------------------------------------------------------------------- hostile input


def test_fundamental_solutions_checks_its_arguments_when_called():
    """Errors come from the call, not from the first ``next()`` of the iterator."""
    with pytest.raises(QueensError, match=r"Problem\(8\)"):
        fundamental_solutions(8)
    for kwargs in ({"limit": -1}, {"limit": 1.0}, {"batch": 0}, {"batch": 10**12}):
        with pytest.raises(QueensError):
            fundamental_solutions(Problem(8), **kwargs)
    with pytest.raises(QueensError, match="too large"):
        fundamental_solutions(Problem(65))
    for kwargs in ({"check": "yes"}, {"force": 2}):
        with pytest.raises(QueensError):
            burnside(Problem(6), **kwargs)
    for group in ("po1", 5, [1, 2]):
        with pytest.raises(QueensError):
            orbit((1, 3, 0, 2), group)
