"""The known values of variants (OEIS toroidal queens and superqueens, Pólya's zeros):
the tables against the copies typed into the engine's tests, the engine and a brute force,
and what count and estimate say of them."""

import json
import math

import pytest
from naive import all_solutions, orbit_count
from test_engine import A051223 as TYPED_A051223, A051906 as TYPED_A051906

from queenslab import Problem, counts
from queenslab.cli import main
from queenslab.data import A051223, A051224, A051906, POLYA, compare, known_values


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
