"""Requests that would run for minutes or grow without bound: each is refused up front
(with the reason and how to force it), or finishes within its time limit, or within a
few seconds. Every case runs in a fresh Python or a bounded thread and has a time bound:
in a fresh Python a bound of CPU time (its children's included), which a busy machine
does not stretch, so that loading the package (about a second of CPU time, ten seconds
of wall-clock time when the cores are busy several times over) never counts against it.

Values checked against: OEIS A000170 (n-queens), A051906 (toroidal n-queens), and the
solution checker of tests/naive.py.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import naive
import pytest
from clirun import run_python
from test_hostile import bounded, check_exit

from queenslab import Problem, crosscheck, limits
from queenslab.errors import InvalidPlacement, QueensError, TooLarge
from queenslab.placement_file import read_placement

#: Seconds of CPU time a refusal may take (a fresh Python, imports included).
REFUSED_WITHIN = 20


def in_subprocess(code: str, seconds: float):
    """``code`` in a fresh Python (the tests' directory on its path), ended within
    ``seconds`` of CPU time (:func:`clirun.run_python`)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return run_python(code, seconds, env=env, cwd=os.getcwd())


def run_cli(argv: list[str], seconds: float) -> tuple[int, str, str]:
    """``queenslab ARGV`` in a fresh Python, ended within ``seconds`` of CPU time; no traceback."""
    done = in_subprocess(f"import sys; from queenslab.cli import main; sys.exit(main({argv!r}))", seconds)
    check_exit(argv, done.returncode, done.stdout, done.stderr)
    return done.returncode, done.stdout, done.stderr


def assert_queens_error(code: str, seconds: float = 10, *words: str) -> None:
    """``code`` (a Python call) ends within ``seconds`` of CPU time with a QueensError naming ``words``."""
    wrapped = (
        "from queenslab.errors import QueensError\n"
        "try:\n"
        f"    {code}\n"
        "except QueensError as e:\n"
        "    print('QUEENSERROR', type(e).__name__, e)\n"
    )
    done = in_subprocess(wrapped, seconds)
    assert "QUEENSERROR" in done.stdout, f"{code}: no QueensError\n{done.stdout[-500:]}\n{done.stderr[-1500:]}"
    for word in words:
        assert word in done.stdout, (word, done.stdout)


def refused(argv: list[str], *words: str, seconds: float = REFUSED_WITHIN) -> str:
    """``queenslab ARGV`` exits 2 within ``seconds`` with an error naming the practical
    limit, how to force it and ``words``; returns the message."""
    code, out, err = run_cli(argv, seconds)
    assert code == 2, (code, err[-500:])
    message = err.strip().splitlines()[-1]
    assert message.startswith("error: ")
    for word in words:
        assert word in message, (word, message)
    # the command line names flags, never the Python arguments beside them
    assert not re.search(r"\b[a-z_]+=\S+ \(--", message), message
    if "--json" in argv:
        obj = json.loads(out.strip().splitlines()[-1])
        assert obj["kind"] in ("TooLarge", "QueensError", "InvalidPlacement") and obj["error"] in message
    return message


def raises_within(code: str, *words: str, seconds: float = REFUSED_WITHIN) -> None:
    """The Python ``code`` ends with a QueensError naming ``words`` within ``seconds``."""
    assert_queens_error(code, seconds, *words)


#: How a refusal says how to force it, in Python and on the command line.
FORCE = "pass force=True (--force)"
CLI_FORCE = "pass --force to run it anyway"


# ----------------------------------------------------------------------------- the first solution


@pytest.mark.parametrize(
    "argv",
    [
        ["solutions", "64", "--limit", "1"],
        ["solutions", "40", "--limit", "1", "--json"],
        ["orbits", "40", "--limit", "1"],
        ["orbits", "64", "--limit", "1", "--json"],
        ["solve", "64", "--backend", "native"],
    ],
    ids=" ".join,
)
def test_a_lexicographic_first_solution_of_a_large_board_is_refused(argv):
    refused(argv, "first solution", "practical limit n <= 33", "heuristic", CLI_FORCE)


@pytest.mark.parametrize(
    "code",
    [
        "from queenslab.ranking.lex import solution_batches; next(solution_batches(Problem(40), limit=1))",
        "from queenslab.symmetry.orbits import fundamental_solutions; fundamental_solutions(Problem(40), limit=1)",
        "from queenslab.native import engine; engine.solve(Problem(50))",
        "import queenslab; next(queenslab.solutions(Problem(40), limit=1))",
        "import queenslab; queenslab.solve(Problem(40))",
    ],
)
def test_the_library_refuses_a_large_first_solution(code):
    raises_within(f"from queenslab import Problem; {code}", "n <= 33", FORCE)


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_the_first_solution_below_the_limit_comes_at_once():
    code, out, _ = run_cli(["solutions", "33", "--limit", "1"], 60)
    first = [int(c) - 1 for c in out.split()]
    assert code == 0 and naive.is_solution(Problem(33), first)
    # the first orbit's representative (its least member, by the canonical search) is
    # the first solution, found by the plain walk
    code, out, _ = run_cli(["orbits", "33", "--limit", "1", "--json"], 60)
    assert code == 0 and json.loads(out)["orbits"][0]["solution"] == [c + 1 for c in first]


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_force_lifts_the_first_solution_limit():
    code, out, _ = run_cli(["solutions", "35", "--limit", "1", "--force"], 90)
    assert code == 0 and naive.is_solution(Problem(35), [int(c) - 1 for c in out.split()])


# ----------------------------------------------------------------------------- models


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["export", "cpsat", "600", "--formulation", "boolean"], ("boolean CP-SAT model", "MB <= 250")),
        (["export", "cnf", "110"], ("pairwise CNF model", "MB <= 200")),
        (["export", "cnf", "400", "--encoding", "seqcounter", "--json"], ("seqcounter CNF model",)),
        (["solve", "5000", "--backend", "cpsat"], ("CP-SAT search", "n <= 100", "time limit")),
        (["solve", "150", "--backend", "sat"], ("SAT search", "n <= 80")),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_models_beyond_their_practical_limits_are_refused(argv, words):
    refused(argv, "practical limit", CLI_FORCE, *words)


@pytest.mark.parametrize(
    "code",
    [
        "from queenslab.models import cpsat; cpsat.export_text(Problem(600), formulation='boolean')",
        "from queenslab import get_backend; get_backend('cpsat').solve(Problem(5000))",
        "from queenslab.models import cnf; cnf.to_dimacs(Problem(400), encoding='ladder')",
        "from queenslab import get_backend; get_backend('sat').solve(Problem(90))",
        "from queenslab.models import cpmpy; cpmpy.build(Problem(300))",
        "from queenslab import get_backend; get_backend('cpmpy').solve(Problem(150))",
    ],
)
def test_the_model_modules_refuse_large_models_and_searches(code):
    raises_within(f"from queenslab import Problem; {code}", "practical limit", FORCE)


def test_the_limits_are_declared_once_in_the_model_modules():
    from queenslab.models import cnf, cpmpy, cpsat
    from queenslab.native import engine
    from queenslab.ranking import sampling

    for limit in (cpsat.BUILD, cpsat.SEARCH, cnf.BUILD, cnf.SEARCH, cpmpy.BUILD, cpmpy.SEARCH):
        assert limits.DECLARED[limit.name] is limit and limit.forceable
    assert limits.DECLARED[engine.FIRST_SOLUTION.name] is engine.FIRST_SOLUTION
    assert limits.DECLARED[sampling.SAMPLES.name] is sampling.SAMPLES


def test_the_integer_cpsat_model_of_a_large_board_is_exported_at_once():
    code, out, _ = run_cli(["export", "cpsat", "5000"], 30)
    assert code == 0 and '"q[4999]"' in out
    done = in_subprocess(
        "from queenslab import Problem; from queenslab.models import cpsat; "
        "print(len(cpsat.export_text(Problem(6000))) > 6000)",
        30,
    )
    assert done.stdout.strip() == "True", done.stderr[-1500:]


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_force_lifts_the_model_limit():
    argv = ["export", "cnf", "103", "--json"]
    refused(argv, "about 201 MB", "MB <= 200")
    code, out, _ = run_cli([*argv, "--force"], 60)
    header = json.loads(out)
    # pairwise: C(103, 2) + 1 clauses per row and column, C(k, 2) per diagonal of k cells
    pairs = 2 * 103 * (103 * 102 // 2 + 1) + 2 * (2 * sum(k * (k - 1) // 2 for k in range(2, 103)) + 103 * 102 // 2)
    assert code == 0 and header["variables"] == 103 * 103 and header["clauses"] == pairs


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "--backend", "cpmpy", "1000", "--force", "--time-limit", "2"],
        ["count", "--backend", "cpmpy", "600", "--time-limit", "2", "--json"],
        ["count", "--backend", "cpsat", "1500", "--formulation", "boolean", "--force", "--time-limit", "2"],
    ],
    ids=" ".join,
)
def test_a_time_limit_covers_building_the_model(argv):
    # 20 s of CPU time: it took 90 s (cpmpy, 3.8 GB) when the limit began after building
    code, out, err = run_cli(argv, 20)
    if code == 2:  # a machine without the memory for the model (estimated up front)
        assert "needs about" in err
        return
    assert code == 1
    if "--json" in argv:
        obj = json.loads(out)
        assert obj["complete"] is False and obj["count"] == 0
    else:
        assert "stopped by a limit" in out


def test_a_time_limit_covers_building_in_python():
    from queenslab import get_backend
    from queenslab.errors import Incomplete

    cpmpy, cpsat = get_backend("cpmpy"), get_backend("cpsat")
    r = bounded(lambda: cpmpy.counts(Problem(600), time_limit=1, force=True), 20)
    assert (r.count, r.complete) == (0, False)
    with pytest.raises(Incomplete):
        bounded(lambda: cpmpy.solve(Problem(400), time_limit=0.5), 20)
    with pytest.raises(Incomplete):
        bounded(lambda: cpsat.solve(Problem(1500), formulation="boolean", time_limit=0.5), 20)
    assert list(bounded(lambda: cpsat.solutions(Problem(1500), formulation="boolean", time_limit=0.5), 20)) == []


def test_models_within_the_limits_still_solve():
    from queenslab import get_backend

    for solve in (get_backend("cpsat").solve, get_backend("sat").solve, get_backend("cpmpy").solve):
        p = bounded(lambda solve=solve: solve(Problem(30)), 60)
        assert naive.is_solution(Problem(30), p)


# ----------------------------------------------------------------------------- sampling


@pytest.mark.parametrize("argv", [["sample", "8", "100000000"], ["sample", "8", "10001", "--json"]], ids=" ".join)
def test_more_samples_than_the_practical_limit_are_refused(argv):
    refused(argv, "practical limit samples <= 10,000", CLI_FORCE)


def test_sampling_in_python_is_limited_and_ranks_alone_are_not():
    raises_within(
        "from queenslab import Problem; from queenslab.ranking.sampling import sample; sample(Problem(8), 10**8)",
        "samples <= 10,000",
        FORCE,
    )
    from queenslab.ranking.sampling import iter_samples, sample_ranks

    with pytest.raises(TooLarge, match="drawing 10,001 random solutions"):
        bounded(lambda: iter_samples(Problem(8), 10_001, index=None), 20)
    ranks = bounded(lambda: sample_ranks(Problem(8), 20_000, index=None), 20)
    assert len(ranks) == 20_000 and all(0 <= r < 92 for r in ranks)  # 92: OEIS A000170


def test_sample_shows_progress_on_a_terminal_only(monkeypatch):
    from test_hostile import run_main

    from queenslab.cli import ranking

    calls: list[tuple] = []

    class Recorder:
        def __init__(self, enabled, desc, unit="task"):
            calls.append(("open", enabled, unit))

        def __call__(self, done, total):
            calls.append((done, total))

        def echo(self, line):
            print(line)

        def close(self):
            calls.append(("close",))

    monkeypatch.setattr(ranking, "Progress", Recorder)
    code, out, _ = run_main(["sample", "8", "3", "--no-index"], 30)
    assert code == 0 and len(out.splitlines()) == 3
    assert calls == [("open", True, "sample"), (0, 3), (1, 3), (2, 3), (3, 3), ("close",)]
    calls.clear()
    code, out, _ = run_main(["sample", "8", "3", "--no-index", "--json"], 30)
    assert code == 0 and len(json.loads(out)["samples"]) == 3 and calls == []


# ----------------------------------------------------------------------------- total


@pytest.mark.parametrize("problem", ["Problem(40)", "Problem(19, toroidal=True)", "Problem(30, knight=True)"])
def test_total_beyond_the_practical_limit_is_refused(problem):
    raises_within(
        f"from queenslab import Problem; from queenslab.ranking import lex; lex.total({problem})",
        "n <= 18",
        FORCE,
    )


def test_total_of_what_is_known_or_small_is_given():
    from queenslab.ranking import lex

    assert bounded(lambda: lex.total(Problem(27)), 20) == 234907967154122528  # OEIS A000170
    assert bounded(lambda: lex.total(Problem(7, toroidal=True)), 30) == 28  # OEIS A051906
    with pytest.raises(QueensError, match="force must be True or False"):
        lex.total(Problem(8), force="yes")


# ----------------------------------------------------------------------------- count ranges


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["count", "1..999999999999999999"], ("B <= 64",)),
        (["count", "18..1000000000"], ("B <= 64",)),
        (["count", "18..1000000000", "--force"], ("B <= 64",)),
        (["count", "65..70", "--backend", "cpsat", "--json"], ("B <= 64",)),
        (["count", "999999999999999998..999999999999999999"], ("B <= 64",)),
        (["count", "4..19"], ("practical limit n <= 18", CLI_FORCE)),
        (["count", "10..30", "--json"], ("practical limit n <= 18", CLI_FORCE)),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_a_range_is_checked_before_anything_is_built(argv, words):
    # building every size first took minutes and gigabytes
    refused(argv, *words, seconds=15)


def test_a_range_within_the_limits_is_counted():
    code, out, _ = run_cli(["count", "4..9", "--json"], 30)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["count"] for r in rows] == [2, 10, 4, 40, 92, 352]  # OEIS A000170


# ----------------------------------------------------------------------------- bad input


def test_a_nested_list_in_a_placement_file_is_an_error(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("[[2,[4]],((1),3)]")
    with pytest.raises(InvalidPlacement, match="bracket"):
        read_placement(f)
    refused(["show", "--from", str(f)], "bracket", "JSON list")
    for text in ("[2,4],[1,3]", "[2, 4, 1, 3", "2 4 1 3)", "(2, 4, 1, 3]"):
        f.write_text(text)
        with pytest.raises(InvalidPlacement, match="bracket"):
            read_placement(f)
    for text in ("[2, 4, 1, 3]\n", "2, 4, 1, 3", "2 4 1 3\n", "(2, 4, 1, 3)"):
        f.write_text(text)
        assert read_placement(f).tolist() == [1, 3, 0, 2]


def test_a_long_run_of_separators_is_read_in_linear_time(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(" " * 2_000_000 + "x")
    with pytest.raises(InvalidPlacement, match="'x' is not a column number"):
        bounded(lambda: read_placement(f), 10)


@pytest.mark.parametrize(
    "argv", [["export", "cnf", "8", "--encoding", ""], ["export", "cnf", "8", "--encoding", "", "--json"]]
)
def test_an_empty_encoding_is_an_error_naming_the_encodings(argv):
    refused(argv, "''", "pairwise", "seqcounter", "ladder")


@pytest.mark.parametrize("option", ["strict", "unique"])
def test_crosscheck_flags_are_flags(option):
    with pytest.raises(QueensError, match=f"{option} must be True or False"):
        bounded(lambda: crosscheck(Problem(8), ["native"], **{option: "x"}), 10)
    assert_queens_error(f"import queenslab; queenslab.crosscheck(queenslab.Problem(8), {option}='x')")
