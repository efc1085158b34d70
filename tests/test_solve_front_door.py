"""``queenslab solve`` and the Python ``solve`` / ``solve_large`` are one front door: the
same problem (N, the variant flags, --problem FILE), the same solver names (--backend for
the exact backends, --method for the heuristics) and the same default, so the command
prints what Python returns (1-based). The heuristics refuse a variant, naming the
backends that solve it. Files for programs (.npy) are 0-based, text files 1-based, and a
file of the other base is refused with the base named."""

from __future__ import annotations

import json
from pathlib import Path

import naive
import numpy as np
import pytest
from clirun import run_cli

import queenslab
from queenslab import Problem, Region, is_solution
from queenslab.backends.registry import BACKENDS as REGISTERED, exact_backends
from queenslab.errors import InvalidPlacement, QueensError, TooLarge, UnsupportedProblem
from queenslab.heuristics import verify
from queenslab.placement_file import read_placement, write_placement
from queenslab.problem_file import read_problem

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BACKENDS = list(REGISTERED)
HEURISTICS = ["construct", "minconflicts", "selfcorrect", "ga", "aco"]


def solve_json(capsys, monkeypatch, *args):
    code, out, err = run_cli(capsys, monkeypatch, "solve", *args, "--json")
    return code, json.loads(out)


def one_based(placement):
    return None if placement is None else [int(c) + 1 for c in placement]


# ----------------------------------------------------------------------------- the same solution

#: The command line's flags and the same problem built in Python from 0-based cells.
VARIANTS = [
    ([8], Problem(8)),
    ([6], Problem(6)),
    ([8, "--toroidal"], Problem(8, toroidal=True)),  # none: both say so
    ([7, "--toroidal"], Problem(7, toroidal=True)),
    ([8, "--knight"], Problem(8, knight=True)),
    ([8, "--block", "1,1", "--block", "2,3"], Problem(8, blocked=[(0, 0), (1, 2)])),
    ([8, "--fix", "1,3"], Problem(8, fixed=[(0, 2)])),
    ([7, "--toroidal", "--fix", "2,1"], Problem(7, toroidal=True, fixed=[(1, 0)])),
    (
        ["--problem", EXAMPLES / "two-in-the-top-left-quadrant.toml"],
        Problem(8, regions=[Region([(r, c) for r in range(4) for c in range(4)], 2, 2)]),
    ),
]


@pytest.mark.parametrize("args,problem", VARIANTS, ids=lambda v: " ".join(map(str, v)) if isinstance(v, list) else "")
def test_the_command_prints_what_python_returns(capsys, monkeypatch, args, problem):
    code, data = solve_json(capsys, monkeypatch, *args)
    first = next(iter(naive.all_solutions(problem)), None)  # the lexicographically first, by brute force
    assert data["solution"] == one_based(queenslab.solve(problem)) == one_based(first)
    assert data["backend"] == "native" and data["method"] is None
    assert Problem.from_dict(data["problem"]) == problem
    assert code == (0 if first is not None else 1) and data["verified"] is (first is not None)
    # the text output too, 1-based
    code, out, _ = run_cli(capsys, monkeypatch, "solve", *args)
    assert out.split() == ([str(c) for c in one_based(first)] if first is not None else [])


@pytest.mark.parametrize("name", ["toroidal-13.toml", "camel-queens-11.toml", "completion-10.toml"])
def test_a_problem_file_is_solved_as_in_python(capsys, monkeypatch, name):
    problem = read_problem(EXAMPLES / name)
    code, data = solve_json(capsys, monkeypatch, "--problem", EXAMPLES / name)
    want = queenslab.solve(problem)
    assert code == 0 and want is not None and data["solution"] == one_based(want)
    assert naive.is_solution(problem, [c - 1 for c in data["solution"]])


@pytest.mark.parametrize("backend", ["native", "sat"])
@pytest.mark.parametrize(
    "args,problem",
    [
        ([8], Problem(8)),
        ([10, "--knight"], Problem(10, knight=True)),
        ([8, "--fix", "1,3"], Problem(8, fixed=[(0, 2)])),
    ],
)
def test_a_named_backend_gives_what_it_gives_in_python(capsys, monkeypatch, backend, args, problem):
    code, data = solve_json(capsys, monkeypatch, *args, "--backend", backend)
    want = queenslab.solve(problem, backend=backend)
    assert code == 0 and data["solution"] == one_based(want) and data["backend"] == backend
    assert naive.is_solution(problem, want)


def test_cpsat_with_a_seed_gives_a_solution(capsys, monkeypatch):
    code, data = solve_json(capsys, monkeypatch, 8, "--toroidal", "--fix", "1,1", "--backend", "cpsat", "--seed", 3)
    assert code == 1 and data["solution"] is None and data["seed"] == 3  # toroidal 8: none (A051906)
    code, data = solve_json(capsys, monkeypatch, 7, "--toroidal", "--backend", "cpsat", "--seed", 3, "--workers", 1)
    assert code == 0 and naive.is_solution(Problem(7, toroidal=True), [c - 1 for c in data["solution"]])


@pytest.mark.parametrize(
    "method,extra", [("construct", []), ("minconflicts", ["--seed", 4]), ("selfcorrect", ["--seed", 2])]
)
@pytest.mark.parametrize("n", [8, 50, 1001])
def test_a_heuristic_gives_what_solve_large_gives(capsys, monkeypatch, method, extra, n, tmp_path):
    f = tmp_path / "q.npy"
    code, data = solve_json(capsys, monkeypatch, n, "--method", method, *extra, "--out", f)
    seed = extra[1] if extra else None
    want = queenslab.solve_large(n, method, seed=seed)
    assert code == 0 and data["method"] == method and data["backend"] is None
    assert np.array_equal(np.load(f), want) and is_solution(Problem(n), np.load(f))
    assert data["solution"] == (one_based(want) if n <= 1000 else None)
    assert np.array_equal(queenslab.solve_large(Problem(n), method, seed=seed), want)  # n or a standard Problem


def test_the_default_beyond_the_exact_search_is_construct(capsys, monkeypatch, tmp_path):
    with pytest.raises(TooLarge, match="n <= 33"):
        queenslab.solve(Problem(50))
    code, data = solve_json(capsys, monkeypatch, 50)
    assert code == 0 and data["method"] == "construct" and data["backend"] is None
    assert data["solution"] == one_based(queenslab.solve_large(50))
    code, out, err = run_cli(capsys, monkeypatch, "solve", 50)
    assert "construct" in err and "--force" in err
    # up to the limit the default is the exact search, as in Python
    code, data = solve_json(capsys, monkeypatch, 12)
    assert data["backend"] == "native" and data["solution"] == one_based(queenslab.solve(Problem(12)))
    # a variant beyond the limit: no heuristic can take it, so the refusal names the backends
    code, out, err = run_cli(capsys, monkeypatch, "solve", 40, "--toroidal")
    assert code == 2 and "n <= 33" in err and "--backend cpsat" in err and "--force" in err


def test_the_readme_workflow(capsys, monkeypatch, tmp_path):
    f = tmp_path / "q.npy"
    code, out, err = run_cli(capsys, monkeypatch, "solve", 10000, "--out", f)
    assert code == 0 and "0-based" in err
    assert is_solution(Problem(10000), np.load(f))
    code, out, _ = run_cli(capsys, monkeypatch, "solve", 1000000, "--method", "minconflicts", "--out", f)
    assert code == 0 and verify(np.load(f))
    pytest.importorskip("PIL")
    code, out, _ = run_cli(capsys, monkeypatch, "solve", 10000, "--out", f)
    code, out, _ = run_cli(capsys, monkeypatch, "show", "--from", f, "--png", tmp_path / "q.png", "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["pixels"] == [10000, 10000]


# ----------------------------------------------------------------------------- heuristics and variants


@pytest.mark.parametrize("method", HEURISTICS)
@pytest.mark.parametrize(
    "args,problem",
    [
        ([8, "--toroidal"], Problem(8, toroidal=True)),
        ([8, "--knight"], Problem(8, knight=True)),
        ([8, "--block", "1,1"], Problem(8, blocked=[(0, 0)])),
        ([8, "--fix", "1,3"], Problem(8, fixed=[(0, 2)])),
        (["--problem", EXAMPLES / "camel-queens-11.toml"], read_problem(EXAMPLES / "camel-queens-11.toml")),
    ],
)
def test_a_heuristic_refuses_a_variant_naming_the_backends(capsys, monkeypatch, method, args, problem):
    with pytest.raises(UnsupportedProblem) as raised:
        queenslab.solve_large(problem, method)
    assert isinstance(raised.value, QueensError)
    message = str(raised.value)
    assert method in message and "standard" in message and "queenslab.solve(problem, backend=" in message
    assert all(name in message for name in exact_backends())  # an approximate one does not solve
    assert not any(name in message for name in set(BACKENDS) - set(exact_backends()))
    code, out, err = run_cli(capsys, monkeypatch, "solve", *args, "--method", method)
    assert code == 2 and err.startswith("error: ") and "--backend" in err and all(b in err for b in exact_backends())
    code, out, err = run_cli(capsys, monkeypatch, "solve", *args, "--method", method, "--json")
    data = json.loads(out)
    assert code == 2 and data["kind"] == "UnsupportedProblem" and "--backend" in data["error"]


def test_backends_and_heuristics_are_named_apart(capsys, monkeypatch):
    for name in ["backtrack", *BACKENDS]:
        code, out, err = run_cli(capsys, monkeypatch, "solve", 8, "--method", name)
        assert code == 2 and "is an exact backend, not a heuristic" in err and "--backend" in err
    for name in HEURISTICS:
        code, out, err = run_cli(capsys, monkeypatch, "solve", 8, "--backend", name)
        assert code == 2 and "Invalid value for '--backend'" in err
    code, out, err = run_cli(capsys, monkeypatch, "solve", 8, "--backend", "native", "--method", "construct")
    assert code == 2 and "not both" in err
    with pytest.raises(QueensError, match="the heuristics are construct"):
        queenslab.solve_large(8, "native")


@pytest.mark.parametrize(
    "args,match",
    [
        ([8, "--seed", 3], "the native backend (the default here) is deterministic and takes no seed"),
        ([8, "--backend", "sat", "--seed", 3], "takes no seed; seeds apply to --method minconflicts"),
        ([8, "--method", "construct", "--seed", 3], "takes no seed"),
        ([8, "--backend", "native", "--max-steps", 5], "--max-steps is an option of the heuristics"),
        ([8, "--restarts", 1], "--restarts is an option of the heuristics"),
        ([8, "--backend", "cpsat", "--improve"], "--improve is an option of the heuristics (--method ga)"),
        ([8, "--method", "minconflicts", "--time-limit", 2], "--time-limit is an option of the exact backends"),
        ([8, "--method", "ga", "--force"], "--force is an option of the exact backends"),
        ([50, "--encoding", "pairwise"], "the construct heuristic (the default here) does not take it"),
    ],
)
def test_an_option_of_the_other_family_is_refused(capsys, monkeypatch, args, match):
    code, out, err = run_cli(capsys, monkeypatch, "solve", *args)
    assert code == 2 and err.startswith("error: ") and match in err


def test_solve_large_still_takes_the_exact_searches_by_their_older_names():
    assert one_based(queenslab.solve_large(8, "backtrack")) == one_based(queenslab.solve(Problem(8)))
    assert one_based(queenslab.solve_large(8, "sat")) == one_based(queenslab.solve(Problem(8), backend="sat"))
    toroidal = Problem(7, toroidal=True)
    assert one_based(queenslab.solve_large(toroidal, "backtrack")) == one_based(queenslab.solve(toroidal))


# ----------------------------------------------------------------------------- .npy files are 0-based


@pytest.mark.parametrize(
    "args,problem",
    [
        (["solve", 8], Problem(8)),
        (["solve", 10, "--knight"], Problem(10, knight=True)),
        (["solve", 9, "--method", "minconflicts"], Problem(9)),
        (["solve", 5000], Problem(5000)),
        (["solve", 8, "--backend", "sat", "--fix", "1,3"], Problem(8, fixed=[(0, 2)])),
    ],
)
def test_every_npy_from_solve_loads_straight_into_is_solution(capsys, monkeypatch, tmp_path, args, problem):
    f = tmp_path / "q.npy"
    code, out, err = run_cli(capsys, monkeypatch, *args, "--out", f)
    arr = np.load(f)
    assert code == 0 and arr.dtype == np.int64 and is_solution(problem, arr)
    if problem.n <= 8:
        assert naive.is_solution(problem, arr.tolist())
    # the text file of the same command is 1-based
    t = tmp_path / "q.txt"
    run_cli(capsys, monkeypatch, *args, "--out", t)
    assert [int(c) for c in t.read_text().split(", ")] == (arr + 1).tolist()


@pytest.mark.parametrize(
    "args,problem",
    [
        (["solutions", 6], Problem(6)),
        (["solutions", 7, "--toroidal"], Problem(7, toroidal=True)),
        (["solutions", 8, "--block", "1,1", "--limit", 5], Problem(8, blocked=[(0, 0)])),
        (["solutions", 8, "--offset", 90], Problem(8)),
    ],
)
def test_every_npy_from_solutions_loads_straight_into_is_solution(capsys, monkeypatch, tmp_path, args, problem):
    f = tmp_path / "s.npy"
    code, out, err = run_cli(capsys, monkeypatch, *args, "--format", "npy", "--out", f)
    arr = np.load(f)
    assert code == 0 and "0-based" in err and len(arr) > 0
    assert all(is_solution(problem, row) for row in arr)
    code, out, _ = run_cli(capsys, monkeypatch, *args)
    assert arr.tolist() == [[int(c) - 1 for c in line.split()] for line in out.splitlines()]


def test_show_reads_what_numpy_saves(capsys, monkeypatch, tmp_path):
    p = queenslab.solve(Problem(8))
    f = tmp_path / "p.npy"
    np.save(f, np.array(p))
    code, out, _ = run_cli(capsys, monkeypatch, "show", "--from", f, "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["placement"] == one_based(p)
    write_placement(p, f)
    assert np.load(f).tolist() == list(p) and read_placement(f).tolist() == list(p)


# ----------------------------------------------------------------------------- the other base


def test_a_one_based_npy_file_is_refused_naming_the_base(capsys, monkeypatch, tmp_path):
    f = tmp_path / "one.npy"
    np.save(f, np.array([2, 4, 1, 3]))  # 1-based: the column 4 is off a 0-based board
    with pytest.raises(InvalidPlacement, match=r"0-based .*subtract 1") as raised:
        read_placement(f)
    assert "row 2 has column 4" in str(raised.value) and "0..3" in str(raised.value)
    code, out, err = run_cli(capsys, monkeypatch, "show", "--from", f)
    assert code == 2 and "0-based" in err and "looks 1-based" in err
    code, out, _ = run_cli(capsys, monkeypatch, "show", "--from", f, "--json")
    assert code == 2 and "0-based" in json.loads(out)["error"]
    # out of range without being 1-based: the base is still named
    np.save(f, np.array([0, 7, 1, 2]))
    with pytest.raises(InvalidPlacement, match=r"row 2 has column 7.*0-based"):
        read_placement(f)


def test_a_zero_based_text_file_is_refused_naming_the_base(capsys, monkeypatch, tmp_path):
    f = tmp_path / "zero.txt"
    f.write_text("1, 3, 0, 2\n")  # 0-based: the column 0 is off a 1-based board
    with pytest.raises(InvalidPlacement, match=r"row 3 has column 0.*1-based .*add 1"):
        read_placement(f)
    code, out, err = run_cli(capsys, monkeypatch, "show", "--from", f)
    assert code == 2 and "1-based" in err and "looks 0-based" in err
    f.write_text("2 4 1 5")
    with pytest.raises(InvalidPlacement, match=r"row 4 has column 5.*1-based"):
        read_placement(f)
