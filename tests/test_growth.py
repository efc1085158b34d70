"""queenslab.growth and ``queenslab experiment growth``: log Q(n)/n with the estimator's error bars.

Expected values come from elsewhere than the code under test: brute force (tests/naive.py)
for the smallest boards, the native engine's exact count for n = 12..14, the OEIS terms
written out below (not read from queenslab.data, which the experiment uses), and OEIS
A051906 for the toroidal board.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from clirun import run_cli
from naive import all_solutions

from queenslab import Problem
from queenslab.errors import QueensError, TooLarge
from queenslab.growth import (
    ALPHA,
    MAX_RELATIVE_STDERR,
    TOO_UNCERTAIN,
    GrowthRow,
    check_ns,
    default_ns,
    growth,
    table,
)
from queenslab.native import engine
from queenslab.reports import GrowthReport

ROOT = Path(__file__).resolve().parents[1]
#: OEIS A000170 at n = 20 and n = 27 (the last published term the package holds), copied by hand.
A000170_20 = 39029188884
A000170_27 = 234907967154122528
#: OEIS A051906 (toroidal) at n = 17.
A051906_17 = 140692


def engine_count(n: int) -> int:
    return engine.count_both(Problem(n), unique=False, threads=1, method="general").count


def test_small_boards_are_counted_and_agree_with_brute_force():
    rows = growth([1, 4, 5, 6, 7], samples=100, seed=0, threads=1)
    for r in rows:
        q = len(all_solutions(Problem(r.n)))
        assert r.exact and r.estimate == q and r.stderr == 0 and r.log_q_per_n_stderr == 0
        assert math.isclose(r.log_q_per_n, math.log(q) / r.n, rel_tol=1e-12)
        assert r.known == q and math.isclose(r.known_log_q_per_n, math.log(q) / r.n, rel_tol=1e-12)
        assert not r.uncertain


@pytest.mark.parametrize(
    ("n", "method", "samples"), [(12, "knuth", 20_000), (13, "stratified", 20_000), (14, "partial", 20_000)]
)
def test_estimated_log_q_per_n_agrees_with_the_exact_count_within_its_error_bar(n, method, samples):
    (r,) = growth([n], samples=samples, seed=2, threads=2, method=method)
    truth = engine_count(n)
    assert not r.exact and not r.uncertain and r.method == method
    assert 0 < r.log_q_per_n_stderr < 0.01
    # the error bar is the estimator's own, propagated: stderr / (estimate * n)
    assert math.isclose(r.log_q_per_n_stderr, r.stderr / r.estimate / n, rel_tol=1e-12)
    assert abs(r.log_q_per_n - math.log(truth) / n) < 4 * r.log_q_per_n_stderr
    assert r.known == truth


def test_the_published_counts_sit_beside_the_estimate_not_in_its_place():
    (r,) = growth([20], samples=30_000, seed=1, threads=2)
    assert r.known == A000170_20 and math.isclose(r.known_log_q_per_n, math.log(A000170_20) / 20)
    assert r.estimate != A000170_20 and not r.exact
    assert abs(r.log_q_per_n - r.known_log_q_per_n) < 4 * r.log_q_per_n_stderr
    assert math.isclose(r.asymptote, math.log(20) - 1.942)


def test_the_last_published_term_is_used_at_n_27():
    (r,) = growth([27], samples=2_000, seed=1, threads=2)
    assert r.known == A000170_27
    assert math.isclose(r.known_log_q_per_n, math.log(A000170_27) / 27, rel_tol=1e-12)
    (r,) = growth([28], samples=2_000, seed=1, threads=2)
    assert r.known is None and r.known_log_q_per_n is None


def test_simkins_constant():
    assert ALPHA == 1.942
    (r,) = growth([40], samples=2_000, seed=1, threads=2)
    assert math.isclose(r.asymptote, math.log(40) - 1.942)


def test_one_probe_pair_at_a_large_board_is_too_uncertain():
    (r,) = growth([64], samples=2, seed=0, threads=1, method="knuth")
    assert r.uncertain and r.log_q_per_n == TOO_UNCERTAIN and r.log_q_per_n_stderr == TOO_UNCERTAIN
    assert r.estimate == 0 and r.relative_stderr is None  # no probe reached a solution
    line = table([r]).splitlines()[-1]
    assert line.startswith("| 64 | standard | too uncertain | too uncertain |")
    assert line.count(TOO_UNCERTAIN) == 3


def test_a_nonzero_estimate_with_a_wide_interval_is_too_uncertain():
    # toroidal n = 17 by Knuth's probes, 3,000 of them: the estimate is near the truth but
    # its relative standard error is 52%
    (r,) = growth([17], toroidal=True, samples=3_000, seed=1, threads=1, method="knuth")
    assert r.estimate > 0 and r.relative_stderr > MAX_RELATIVE_STDERR
    assert r.uncertain and r.log_q_per_n == TOO_UNCERTAIN
    assert r.low < A051906_17 < r.high
    # the same board with the default estimator and more probes gives digits
    (r,) = growth([17], toroidal=True, samples=200_000, seed=1, threads=2)
    assert not r.uncertain and r.relative_stderr < MAX_RELATIVE_STDERR
    assert abs(r.log_q_per_n - math.log(A051906_17) / 17) < 4 * r.log_q_per_n_stderr
    assert r.known is None and math.isclose(r.asymptote, math.log(17) - 3)


def test_toroidal_counts_of_small_boards():
    rows = growth([1, 5, 7], toroidal=True, samples=100, threads=1)
    for r in rows:
        q = len(all_solutions(Problem(r.n, toroidal=True)))
        assert r.exact and r.estimate == q and math.isclose(r.known_log_q_per_n, math.log(q) / r.n)


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 9, 15, 21])
def test_toroidal_boards_without_solutions_are_refused(n):
    if n <= 6:
        assert not all_solutions(Problem(n, toroidal=True))  # brute force agrees: none
    with pytest.raises(QueensError, match=f"no solutions for n = {n} .*odd n not divisible by 3"):
        growth([n], toroidal=True, samples=10)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"ns": [201]}, TooLarge, "n <= 200"),
        ({"ns": [2]}, QueensError, "n = 2 has no solutions"),
        ({"ns": []}, QueensError, "ns is empty"),
        ({"ns": "8"}, QueensError, "list of board sizes"),
        ({"ns": [8.0]}, QueensError, "integer"),
        ({"ns": [8], "time_per_n": 0}, QueensError, "time_per_n"),
        ({"ns": [8], "samples": 1}, QueensError, "samples must be at least 2"),
        ({"ns": [8], "method": "magic"}, QueensError, "method"),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        growth(**kwargs)


def test_the_default_grids():
    assert default_ns(False, 30) == (8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 27, 28)
    assert default_ns(True, 30) == (7, 11, 13, 17, 19, 23, 25, 29)
    assert all(n % 2 and n % 3 for n in default_ns(True))
    assert check_ns([13, 7, 13], toroidal=True) == (7, 13)
    # beyond the 64-bit rows: to n = 128 by default, every fourth n on, up to 200
    assert default_ns(False)[-3:] == (120, 124, 128) and default_ns(True)[-3:] == (121, 125, 127)
    assert default_ns(False, 200)[-2:] == (196, 200) and default_ns(True, 200)[-1] == 199


def test_a_board_of_a_hundred_columns_gives_digits():
    # the wide kernels: Simkin's ln n - alpha is the only reference at n = 100; his o(1)
    # term is unknown, but the recorded run puts it between 0 and +0.06 from n = 40 on
    (r,) = growth([100], samples=100_000, seed=1, threads=2)
    assert not r.uncertain and not r.exact and 0 < r.relative_stderr < MAX_RELATIVE_STDERR
    assert math.isclose(r.log_q_per_n, math.log(r.estimate) / 100)
    assert abs(r.log_q_per_n - r.asymptote) < 0.1


def test_same_seed_same_rows_on_any_number_of_threads():
    def strip(rows):
        return [dataclasses.replace(r, seconds=0.0) for r in rows]

    a = growth([16, 30], samples=20_000, seed=3, threads=1)
    b = growth([16, 30], samples=20_000, seed=3, threads=2)
    c = growth([16, 30], samples=20_000, seed=4, threads=1)
    assert strip(a) == strip(b)
    assert [r.estimate for r in a] != [r.estimate for r in c]


# ----------------------------------------------------------------------------- command line


def test_the_json_report_has_the_documented_fields(capsys, monkeypatch, tmp_path):
    args = ("experiment", "growth", "--ns", "7,13", "--samples", 3000, "--seed", 1, "--toroidal", "--threads", 2)
    code, out, _ = run_cli(capsys, monkeypatch, *args, "--out", tmp_path / "g", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == [f.name for f in dataclasses.fields(GrowthReport)]
    assert [list(r) for r in data["results"]] == [[f.name for f in dataclasses.fields(GrowthRow)]] * 4
    assert [(r["n"], r["toroidal"]) for r in data["results"]] == [(7, False), (13, False), (7, True), (13, True)]
    assert data["samples_per_n"] == 3000 and data["time_per_n"] is None and data["threads"] == 2
    assert data["alpha"] == 1.942 and data["max_relative_stderr"] == MAX_RELATIVE_STDERR
    assert data["out"] == str(tmp_path / "g") and data["plot"] == str(tmp_path / "g" / "growth.svg")
    assert data["provenance"]["threads"] == 2
    # the files: the JSON record, the table with its provenance, the figure
    assert json.loads((tmp_path / "g" / "growth.json").read_text())["results"] == data["results"]
    text = (tmp_path / "g" / "growth.md").read_text()
    assert "* provenance: package " in text and "--samples 3000 --seed 1" in text
    assert "| 13 | standard |" in text and "| 13 | toroidal | 4,524 |" in text
    assert (tmp_path / "g" / "growth.svg").read_bytes().lstrip().startswith(b"<?xml")


def test_the_command_prints_the_table(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "growth", "--ns", "8,20", "--samples", 20_000)
    assert code == 0
    assert "| 8 | standard | 92 | 0 | 0 (counted) |" in out
    assert "| 20 | standard |" in out and "relative standard error above 25%" in out


def test_too_uncertain_in_the_commands_json(capsys, monkeypatch):
    args = ("experiment", "growth", "--ns", 64, "--samples", 2, "--method", "knuth", "--json")
    code, out, _ = run_cli(capsys, monkeypatch, *args)
    (row,) = json.loads(out)["results"]
    assert code == 0 and row["uncertain"] and row["log_q_per_n"] == row["log_q_per_n_stderr"] == "too uncertain"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("--ns", "9", "--toroidal"), "no solutions for n = 9"),
        (("--ns", "8..201"), "n <= 200"),
        (("--ns", "8,x"), "'x' is not a board size"),
        (("--ns", "9..8"), "is empty"),
        (("--ns", "8", "--n-max", "20"), "not both"),
        (("--n-max", "201"), "--n-max"),
        (("--n-max", "5"), "leaves no board size"),
        (("--time-per-n", "0"), "--time-per-n"),
        (("--samples", "1"), "--samples"),
    ],
)
def test_the_command_refuses_bad_input(capsys, monkeypatch, args, match):
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "growth", *args, "--json")
    assert code == 2 and "error:" in err and match in err
    assert json.loads(out)["error"]


def test_out_must_be_a_directory(capsys, monkeypatch, tmp_path):
    (tmp_path / "f").write_text("")
    code, _, err = run_cli(capsys, monkeypatch, "experiment", "growth", "--ns", "8", "--out", tmp_path / "f")
    assert code == 2 and "is a file" in err


# ----------------------------------------------------------------------------- the documentation's record


def recorded_rows() -> list[GrowthRow]:
    record = json.loads((ROOT / "docs" / "assets" / "growth.json").read_text())
    assert list(record) == [f.name for f in dataclasses.fields(GrowthReport)]
    return [GrowthRow(**r) for r in record["results"]]


def test_the_pages_tables_show_the_recorded_run():
    page = (ROOT / "docs" / "estimating.md").read_text()
    standard, toroidal = page.split("**Standard board**", 1)[1].split("**Toroidal board**", 1)
    for r in recorded_rows():
        text = toroidal if r.toroidal else standard
        (line,) = [x for x in text.splitlines() if x.startswith(f"| {r.n} | {r.probes:,} |")]
        if r.uncertain:
            assert TOO_UNCERTAIN in line, line
        else:
            # the value as shown (before its error bar, or "(counted)"), to its last digit
            shown = line.split(" | ")[3].split(" ")[0]
            digits = len(shown.split(".")[1])
            assert abs(float(shown) - r.log_q_per_n) <= 0.5 * 10**-digits + 1e-12, line
            assert f"{r.asymptote:.4f}" in line, line
        assert r.uncertain == (r.relative_stderr is None or r.relative_stderr > MAX_RELATIVE_STDERR)


def test_the_recorded_run_meets_the_published_counts():
    """The record's estimates against OEIS A000170 and A051906 (written out here)."""
    published = {(20, False): A000170_20, (27, False): A000170_27, (17, True): A051906_17}
    rows = {(r.n, r.toroidal): r for r in recorded_rows()}
    for key, count in published.items():
        r = rows[key]
        assert abs(r.estimate - count) < 3 * r.stderr, (key, r.estimate, r.stderr)


def test_the_docs_figure_is_drawn_from_the_record():
    pytest.importorskip("matplotlib")
    from queenslab.growth import figure

    fig = figure(recorded_rows())
    top, bottom = fig.axes
    assert top.get_ylabel() == "log Q(n) / n" and bottom.get_ylabel() == "difference from ln n − α"
