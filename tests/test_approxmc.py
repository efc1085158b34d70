"""The approximate backend (ApproxMC): the exact counts (OEIS, the brute-force oracle,
another backend) within its bounds for fixed seeds, repeatable seeds, its options
checked, its estimates never taken for exact counts, and crosscheck's "within bounds"."""

import json
import sys
import types

import naive
import pytest
from clirun import run_cli

from queenslab import Problem, count, counts, crosscheck, get_backend
from queenslab.backends import BACKENDS, approxmc
from queenslab.backends.approximate import ApproximateCount, NotExact, bounds
from queenslab.data import known_total, known_unique
from queenslab.errors import MissingDependency, QueensError, UnknownOption

SEEDS = [0, 1, 2]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_the_published_counts_lie_within_the_bounds(n, seed):
    r = get_backend("approxmc").counts(Problem(n), unique=True, seed=seed)
    assert isinstance(r, ApproximateCount) and (r.epsilon, r.delta) == (0.8, 0.2)
    low, high = r.count_bounds
    assert low <= known_total(n) <= high and r.within(known_total(n), known_unique(n))
    assert r.unique_bounds[0] <= known_unique(n) <= r.unique_bounds[1]


VARIANTS = [
    Problem(7, toroidal=True),
    Problem(5, toroidal=True),
    Problem(8, blocked=[(0, 0), (3, 4), (6, 2)]),
    Problem(7, blocked=[(1, 1)], fixed=[(0, 2)]),
    Problem(6, leapers=[(1, 3)]),
]


@pytest.mark.parametrize("p", VARIANTS, ids=lambda p: p.describe())
def test_variants_counted_by_the_oracle_lie_within_the_bounds(p):
    sols = naive.all_solutions(p)
    for seed in SEEDS:
        r = get_backend("approxmc").counts(p, unique=True, seed=seed)
        assert r.within(len(sols), naive.orbit_count(p, sols)), (seed, r)


def test_superqueens_lie_within_the_bounds_of_the_native_count():
    p = Problem(10, knight=True)
    exact = get_backend("native").counts(p, unique=True)
    assert exact.count > 0  # superqueens start at n = 10
    for seed in SEEDS[:2]:
        assert get_backend("approxmc").counts(p, unique=True, seed=seed).within(exact.count, exact.unique)


def test_the_count_is_projected_on_the_cell_variables():
    # the sequential counter and the lex-leader constraints add auxiliary variables that
    # are not fixed by the placement: counted with them, 6-queens has far more than 4
    r = get_backend("approxmc").counts(Problem(6), unique=True, encoding="seqcounter", seed=1)
    assert r.within(known_total(6), known_unique(6)) and r.method.startswith("seqcounter")


def test_the_same_seed_gives_the_same_estimate():
    # n = 9: 352 solutions, beyond what ApproxMC enumerates at once, so the seed's hashes decide
    be = get_backend("approxmc")
    first, again = (be.counts(Problem(9), seed=3).count for _ in range(2))
    low, high = bounds(first, 0.8)
    assert first == again and low <= known_total(9) <= high


def test_epsilon_and_delta_are_passed_and_reported():
    r = get_backend("approxmc").counts(Problem(8), epsilon=0.3, delta=0.05, seed=2)
    assert (r.epsilon, r.delta) == (0.3, 0.05)
    assert r.count_bounds == bounds(r.count, 0.3) and r.within(known_total(8))


@pytest.mark.parametrize(
    ("opts", "match"),
    [
        ({"epsilon": 0}, "epsilon must be a number with epsilon > 0, got 0"),
        ({"epsilon": -1.5}, "epsilon > 0"),
        ({"epsilon": float("inf")}, "epsilon > 0"),
        ({"epsilon": "0.8"}, "epsilon > 0"),
        ({"delta": 0}, "delta must be a number with 0 < delta < 1, got 0"),
        ({"delta": 1}, "0 < delta < 1"),
        ({"delta": float("nan")}, "0 < delta < 1"),
        ({"delta": True}, "0 < delta < 1"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(opts, match):
    with pytest.raises(QueensError, match=match):
        get_backend("approxmc").counts(Problem(6), **opts)


def test_bad_options_on_the_command_line(capsys, monkeypatch):
    code, _, err = run_cli(capsys, monkeypatch, "count", 6, "--backend", "approxmc", "--delta", "1")
    assert code == 2 and err.startswith("error: ") and "0<x<1" in err
    code, out, _ = run_cli(capsys, monkeypatch, "count", 6, "--backend", "approxmc", "--epsilon", "0", "--json")
    assert code == 2 and "x>0" in json.loads(out)["error"]
    code, _, err = run_cli(capsys, monkeypatch, "count", 6, "--backend", "native", "--epsilon", "0.5")
    assert code == 2 and "does not take --epsilon" in err and "it takes --force" in err  # another backend refuses it


def test_an_estimate_is_never_taken_for_an_exact_count():
    r = counts(Problem(8), backend="approxmc", seed=1)
    with pytest.raises(NotExact, match="estimates: about .* not an exact number"):
        r.value()
    with pytest.raises(NotExact):
        count(Problem(8), backend="approxmc")
    with pytest.raises(NotExact, match="orbits"):
        get_backend("approxmc").count(Problem(8), unique=True)


def test_solutions_come_from_the_sat_enumeration_and_take_no_seed():
    be = get_backend("approxmc")
    assert sorted(be.solutions(Problem(6))) == naive.all_solutions(Problem(6))
    assert naive.is_solution(Problem(8), be.solve(Problem(8)))
    with pytest.raises(UnknownOption, match="seed for counts only"):
        be.solve(Problem(8), seed=3)


def test_a_missing_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyapproxmc", None)  # import pyapproxmc raises ImportError
    with pytest.raises(MissingDependency, match=r'pip install "queenslab\[count\]"'):
        get_backend("approxmc").counts(Problem(6))


def test_a_binding_that_drops_free_variables_is_refused(monkeypatch):
    class Counter:  # what pyapproxmc 4.3 and 4.4 answer for x1 != x2: one model
        def __init__(self, **kw):
            pass

        def add_clauses(self, clauses):
            pass

        def count(self, projection):
            return 1, 0

    fake = types.ModuleType("pyapproxmc")
    fake.Counter, fake.__version__ = Counter, "4.4.0"
    monkeypatch.setitem(sys.modules, "pyapproxmc", fake)
    with pytest.raises(MissingDependency, match=r"4\.4\.0 miscounts.*below 4\.3.*queenslab\[count\]"):
        get_backend("approxmc").counts(Problem(4))


def test_count_prints_the_estimate_with_its_bounds(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", 8, "--unique", "--backend", "approxmc", "--seed", 1)
    assert code == 0 and out.startswith("approximately ") and "known value 92 / 12 unique: within bounds" in out
    assert "probability at least 0.8" in out
    code, out, _ = run_cli(capsys, monkeypatch, "count", 8, "--unique", "--backend", "approxmc", "--json")
    data = json.loads(out)
    low, high = data["count_bounds"]
    assert code == 0 and data["approximate"] is True and data["agrees"] is None and data["within_bounds"] is True
    assert low <= 92 <= high and data["unique_bounds"][0] <= 12 <= data["unique_bounds"][1]
    assert (data["epsilon"], data["delta"]) == (0.8, 0.2)
    code, out, _ = run_cli(capsys, monkeypatch, "count", 8, "--json")  # an exact count says so
    data = json.loads(out)
    assert data["approximate"] is False and data["count_bounds"] is None and data["within_bounds"] is None


def test_a_range_marks_its_estimates(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "5..6", "--backend", "approxmc")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) == 2 and all("~" in row and row.endswith("within bounds") for row in rows)


def test_crosscheck_holds_an_estimate_within_the_exact_bounds(capsys, monkeypatch):
    r = crosscheck(Problem(8), ["native", "approxmc"], time_limit=None)
    est = r.rows[-1]
    assert est.approximate and est.within_bounds is True and est not in r.answered
    # the native engine's two methods agree; an estimate confirms nothing
    assert r.verdict == "native only" and r.estimated == (est,) and r.outside == ()
    # the command line: each backend in a process of its own
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 7, "--backends", "native,approxmc")
    assert code == 3 and "within bounds" in out and "estimates decide no agreement" in out


def test_an_estimate_alone_never_makes_a_crosscheck_conclusive(capsys, monkeypatch):
    r = crosscheck(Problem(7, toroidal=True), ["sat", "approxmc"], unique=False, time_limit=None)
    assert r.verdict == "inconclusive" and r.rows[-1].within_bounds is True  # one exact answer
    r = crosscheck(Problem(6), ["approxmc"], time_limit=None)
    assert r.verdict == "inconclusive" and r.rows[0].within_bounds is None  # none to hold it against
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 6, "--backends", "approxmc")
    assert code == 3 and "inconclusive" in out and "no exact answer to hold it against" in out


def test_crosscheck_runs_approximate_backends_only_when_asked():
    assert BACKENDS["approxmc"].approximate and not BACKENDS["sat"].approximate
    r = crosscheck(Problem(5), ["native", "sat"], approximate=True, time_limit=None)
    assert [row.backend for row in r.rows][-1] == "approxmc" and r.rows[-1].within_bounds is True


def test_an_estimate_outside_its_bounds_is_reported_but_is_no_disagreement(capsys, monkeypatch):
    # simulate the event the guarantee allows with probability at most delta: an estimate
    # of 8-queens far too high (the count runs in this process, time_limit=None)
    monkeypatch.setattr(approxmc, "_approxmc_count", lambda pyapproxmc, m, *args: 1000)
    r = crosscheck(Problem(8), ["native", "approxmc"], unique=False, time_limit=None)
    assert r.verdict == "native only" and r.outside == (r.rows[-1],) and r.rows[-1].count_bounds == (556, 1800)
    import queenslab.cli.crosscheck as command

    real = command.crosscheck
    monkeypatch.setattr(command, "crosscheck", lambda *a, **kw: real(*a, **{**kw, "time_limit": None}))
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 8, "--no-unique", "--backends", "native,sat,approxmc")
    assert code == 0 and "OUTSIDE bounds" in out and "not a disagreement of exact counts" in out
    code, out, _ = run_cli(capsys, monkeypatch, "count", 8, "--backend", "approxmc")
    assert code == 0 and "known value 92: OUTSIDE bounds" in out  # reported; fails no command
