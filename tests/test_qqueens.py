"""The q-queens experiment: counts of q queens on n x n and the quasipolynomial through them.

The expected polynomials are the published ones (OEIS A036464's, Landau's pair of OEIS
A047659), written here as their sources write them, not taken from the code.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from clirun import run_cli

from queenslab.errors import QueensError
from queenslab.qqueens import fit, qqueens_counts, qqueens_experiment


def landau(n: int) -> Fraction:
    """Three queens on n x n (Landau, 1896; OEIS A047659)."""
    if n % 2 == 0:
        return Fraction(n * (n - 2) ** 2 * (2 * n**3 - 12 * n**2 + 23 * n - 10), 12)
    return Fraction((n - 1) * (n - 3) * (2 * n**4 - 12 * n**3 + 25 * n**2 - 14 * n + 1), 12)


def test_the_counts_are_landaus_and_the_fit_reproduces_his_pair():
    counts = qqueens_counts(3, 18)
    assert all(counts[n] == landau(n) for n in counts)
    fitted = fit(3, 2, counts)
    assert fitted.status == "determined"
    assert all(fitted(n) == landau(n) for n in range(1, 60))  # beyond the counts: as polynomials


def test_the_experiment_agrees_with_the_published_formulas():
    for q in (1, 2, 3):
        report = qqueens_experiment(q)
        assert (report.status, report.agrees) == ("determined", True), q


def test_a_wrong_period_is_refuted_and_too_few_points_are_undetermined():
    report = qqueens_experiment(3, period=1)
    assert report.status == "refuted" and report.agrees is None
    assert report.constituents[0]["refuted_at"] is not None
    short = fit(3, 2, {n: int(landau(n)) for n in range(1, 12)})
    assert short.status == "undetermined"
    exact = fit(3, 2, {n: int(landau(n)) for n in range(1, 15)})  # 7 points a class: fits, unchecked
    assert [c.status for c in exact.classes] == ["unchecked", "unchecked"]


def test_a_fit_that_differs_from_the_published_one_says_so():
    wrong = {n: int(landau(n)) + (n % 2) for n in range(1, 19)}  # still a quasipolynomial of period 2
    fitted = fit(3, 2, wrong)
    assert fitted.status == "determined" and fitted(5) == landau(5) + 1


def test_bad_arguments_are_refused():
    with pytest.raises(QueensError, match="give one"):
        qqueens_experiment(5)
    with pytest.raises(QueensError):
        fit(0, 1, {})
    with pytest.raises(QueensError):
        fit(2, 1, {0: 1})


def test_the_command_line(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "q-queens", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["agrees"] is True and data["status"] == "determined"
    assert [r["count"] for r in data["results"]][:6] == [0, 0, 0, 24, 204, 1024]
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "q-queens", "3", "--period", "1")
    assert code == 1 and "refuted at n = 8" in out
    code, _, err = run_cli(capsys, monkeypatch, "experiment", "q-queens", "5")
    assert code == 2 and err.startswith("error:")
