"""The known values of variants (OEIS toroidal queens and superqueens, Pólya's zeros,
k queens on square and rectangular boards): the tables against the copies typed into the
engine's tests, the engine and a brute force, and what count and estimate say of them."""

import json
import math

import pytest
import test_boards as typed
from naive import all_solutions, board_solutions, orbit_count
from test_engine import A051223 as TYPED_A051223, A051906 as TYPED_A051906

from queenslab import Problem, counts
from queenslab.cli import main
from queenslab.data import A051223, A051224, A051906, POLYA, KnownValues, compare, known_values


def test_the_tables_agree_with_the_sequences_typed_into_the_engine_tests():
    assert {n: A051906[n] for n in TYPED_A051906} == TYPED_A051906
    assert {n: A051223[n] for n in TYPED_A051223} == TYPED_A051223
    assert all(A051223[n] >= A051224[n] >= A051223[n] / 8 for n in A051223)


@pytest.mark.parametrize("n", [*range(1, 9), pytest.param(9, marks=pytest.mark.slow)])
def test_the_known_values_agree_with_a_brute_force(n):
    torus, knight = Problem(n, toroidal=True), Problem(n, knight=True)
    assert known_values(torus).count == len(all_solutions(torus))
    sols = all_solutions(knight)
    assert (known_values(knight).count, known_values(knight).unique) == (len(sols), orbit_count(knight, sols))


@pytest.mark.parametrize("n", range(10, 14))
def test_the_known_values_agree_with_the_engine(n):
    r = counts(Problem(n, knight=True), unique=True)
    assert (r.count, r.unique) == (A051223[n], A051224[n])
    assert counts(Problem(n, toroidal=True)).count == known_values(Problem(n, toroidal=True)).count


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 9, 10, 12, 14, 15, 50, 51, 1000])
def test_polya_s_zeros_are_known_for_every_n_divisible_by_2_or_3(n):
    values = known_values(Problem(n, toroidal=True))
    assert (values.count, values.unique, values.source) == (0, 0, POLYA)
    assert math.gcd(n, 6) > 1
    if n <= 8:  # the brute force agrees where it reaches quickly
        assert all_solutions(Problem(n, toroidal=True)) == []


def test_other_variants_have_no_known_values():
    for p in (
        Problem(8, blocked=[(0, 0)]),
        Problem(7, toroidal=True, knight=True),
        Problem(11, toroidal=True, blocked=[(0, 0)]),
    ):
        assert known_values(p).count is None and compare(p, 5).agrees is None


def test_k_queens_on_a_square_are_held_to_the_families_typed_into_the_board_tests():
    for n in range(4, 32):  # 3 queens on 3 x 3 is the standard problem (A000170)
        assert known_values(Problem(n, queens=3)) == KnownValues(typed.A047659[n], None, "OEIS A047659")
    for n in range(3, 40):
        assert known_values(Problem(n, queens=2)).count == typed.a036464(n)
    for n, expected in typed.A176186.items():
        assert known_values(Problem(n, queens=6)).count == expected


def test_k_queens_on_a_rectangle_are_held_to_the_families_either_way_round():
    for n in range(1, 11):
        for m in range(1, n):
            assert known_values(Problem(m, columns=n)).count == typed.a269133(m, n), (m, n)
            assert known_values(Problem(n, columns=m, queens=m)).count == typed.a269133(m, n), (n, m)
    for rows, family in ((3, typed.A061989), (5, typed.A061991), (6, typed.A061992)):
        for n in range(rows + 1, len(family)):
            assert known_values(Problem(rows, columns=n)).count == family[n], (rows, n)
    for n in range(5, 60):  # Tarry's formula from n = 7, the published terms below
        tarry = typed.A061990[n] if n < len(typed.A061990) else n**4 - 18 * n**3 + 139 * n**2 - 534 * n + 840
        assert known_values(Problem(4, columns=n)) == KnownValues(tarry, None, "OEIS A061990")


@pytest.mark.parametrize(
    "problem",
    [Problem(5, queens=2), Problem(6, queens=3), Problem(3, columns=7), Problem(7, columns=4, queens=4),
     Problem(4, columns=6), Problem(5, columns=7), Problem(6, columns=7)],
    ids=str,
)  # fmt: skip
def test_k_queens_known_values_agree_with_a_brute_force(problem):
    assert known_values(problem).count == len(board_solutions(problem))


def test_k_queens_with_another_rule_or_no_family_have_no_known_value():
    for p in (
        Problem(8, queens=5),  # no family for 5 queens on a square here
        Problem(6, queens=3, knight=True),
        Problem(6, queens=3, toroidal=True),
        Problem(6, queens=3, blocked=[(0, 0)]),
        Problem(4, columns=8, queens=3),  # fewer queens than the short side
        Problem(11, columns=12),  # beyond A269133's rows here
    ):
        assert known_values(p).count is None and compare(p, 5).agrees is None, p


def test_count_and_crosscheck_hold_k_queens_to_their_sequence(capsys):
    code, out, _ = _cli(capsys, "count", 8, "--queens", 3)
    assert code == 0 and f"known value {typed.A047659[8]} (OEIS A047659): agrees" in out
    code, out, _ = _cli(capsys, "count", 9, "--columns", 4, "--queens", 4, "--json")
    report = json.loads(out)
    assert (report["known"], report["agrees"], report["known_source"]) == (typed.A061990[9], True, "OEIS A061990")
    code, out, _ = _cli(capsys, "crosscheck", 6, "--columns", 9, "--backends", "native,sat")
    assert code == 0 and f"known value {typed.A061992[9]} (OEIS A061992): every answer equals it" in out


def _cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_count_holds_a_variant_to_its_sequence(capsys):
    code, out, _ = _cli(capsys, "count", 10, "--knight", "--unique")
    assert code == 0 and f"known value {A051223[10]} / {A051224[10]} unique (OEIS A051223 / A051224): agrees" in out
    code, out, _ = _cli(capsys, "count", 12, "--toroidal", "--json")
    report = json.loads(out)
    assert (report["known"], report["agrees"], report["known_source"]) == (0, True, POLYA)
    code, out, _ = _cli(capsys, "count", 8, "--block", "1,1", "--json")
    assert json.loads(out)["known_source"] is None


def test_estimate_holds_a_variant_to_its_known_count(capsys):
    code, out, _ = _cli(capsys, "estimate", 50, "--toroidal", "--samples", 2000)
    assert code == 0 and f"no solutions ({POLYA})" in out
    code, out, _ = _cli(capsys, "estimate", 17, "--knight", "--samples", 20000, "--json")
    e = json.loads(out)
    assert (e["known"], e["known_source"]) == (A051223[17], "OEIS A051223 / A051224")
    assert e["within"] == (e["low"] <= A051223[17] <= e["high"])


def test_crosscheck_holds_the_answers_to_the_known_count(capsys, monkeypatch):
    from queenslab import data

    code, out, _ = _cli(capsys, "crosscheck", 10, "--knight", "--backends", "native,sat")
    assert code == 0 and "known value 4 / 1 unique (OEIS A051223 / A051224): every answer equals it" in out
    monkeypatch.setitem(data.A051223, 10, 5)  # a table that lied: the agreeing backends are still held to it
    code, out, _ = _cli(capsys, "crosscheck", 10, "--knight", "--backends", "native,sat", "--json")
    report = json.loads(out)
    assert code == 1 and report["verdict"] == "agree" and report["known_agrees"] is False and report["known"] == 5
