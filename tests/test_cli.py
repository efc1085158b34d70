"""The command line: output, --json keys, exit codes, errors without tracebacks."""

import json
import subprocess
import sys

import naive
import numpy as np
import pytest

from queenslab.cli import main
from queenslab.data import known_total, known_unique
from queenslab.problem import Problem


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_text_and_json(capsys):
    code, out, err = run(capsys, "count", "10", "--unique")
    assert code == 0 and out.startswith("724 solutions of 10-queens (92 unique)") and "agrees" in out
    code, out, _ = run(capsys, "count", "12", "--unique", "--json", "--threads", "1")
    data = json.loads(out)
    assert code == 0
    assert {k: data[k] for k in ("n", "count", "unique", "backend", "known")} == {
        "n": 12,
        "count": known_total(12),
        "unique": known_unique(12),
        "backend": "native",
        "known": known_total(12),
    }
    assert isinstance(data["seconds"], float) and data["threads"] == 1


def test_count_variant_flags_are_one_based(capsys):
    code, out, _ = run(capsys, "count", "6", "--toroidal", "--knight", "--block", "1,1", "--fix", "2,3", "--json")
    data = json.loads(out)
    p = Problem(6, toroidal=True, knight=True, blocked=[(0, 0)], fixed=[(1, 2)])
    assert data["count"] == len(naive.all_solutions(p)) and data["known"] is None
    assert data["problem"]["blocked"] == [[1, 1]] and data["problem"]["fixed"] == [[2, 3]]
    code, out, _ = run(capsys, "count", "7", "--fix", "1,1", "--unique", "--json")
    p = Problem(7, fixed=[(0, 0)])
    assert json.loads(out)["unique"] == naive.orbit_count(p)


def test_solutions_formats(capsys, tmp_path):
    code, out, _ = run(capsys, "solutions", "10", "--offset", "99", "--limit", "1")
    assert out.strip() == "2 8 10 4 1 5 9 6 3 7"  # document 000: the 100th solution of 10 queens
    code, out, _ = run(capsys, "solutions", "6", "--format", "digits")
    assert out.split() == ["".join(str(c + 1) for c in s) for s in naive.all_solutions(Problem(6))]
    code, out, _ = run(capsys, "solutions", "5", "--format", "json", "--limit", "2")
    assert [json.loads(x) for x in out.splitlines()] == [
        [c + 1 for c in s] for s in naive.all_solutions(Problem(5))[:2]
    ]
    code, out, _ = run(capsys, "solutions", "6", "--json")
    assert json.loads(out)["solutions"] == [[c + 1 for c in s] for s in naive.all_solutions(Problem(6))]
    f = tmp_path / "s.npy"
    code, out, err = run(capsys, "solutions", "8", "--format", "npy", "--out", str(f))
    arr = np.load(f)
    assert (
        code == 0 and arr.shape == (92, 8) and [tuple(r) for r in (arr - 1).tolist()] == naive.all_solutions(Problem(8))
    )
    code, out, err = run(capsys, "solutions", "8", "--format", "npy", "--out", str(f), "--offset", "90", "--limit", "5")
    assert np.load(f).shape == (2, 8)
    t = tmp_path / "s.txt"
    run(capsys, "solutions", "7", "--out", str(t))
    assert len(t.read_text().splitlines()) == 40


def test_check_and_show(capsys):
    code, out, _ = run(capsys, "check", "2", "4", "1", "3")
    assert code == 0 and "a solution" in out
    code, out, _ = run(capsys, "check", "1234", "--json")
    data = json.loads(out)
    assert code == 1 and data["solution"] is False and data["conflicts"][0]["cells"] == [[1, 1], [2, 2]]
    code, out, _ = run(capsys, "check", "2413", "--toroidal")
    assert code == 1 and "attack" in out
    code, out, _ = run(capsys, "show", "2413")
    assert out.splitlines() == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]
    code, out, _ = run(capsys, "show", "2413", "--block", "1,1", "--json")
    assert json.loads(out)["board"][0] == "# Q . ."


@pytest.mark.parametrize(
    "args,match",
    [
        (["count", "0"], "at least 1"),
        (["count", "-2"], "-2"),
        (["count", "x"], "not a valid integer"),
        (["count", "30"], "practical limit"),
        (["count", "80", "--force"], "64"),
        (["count", "8", "--block", "9,1"], "outside the 8x8 board"),
        (["count", "8", "--block", "a,b"], "ROW,COL"),
        (["count", "8", "--block", "1,1", "--fix", "1,1"], "both blocked"),
        (["count", "8", "--fix", "1,1", "--fix", "2,2"], "attack each other"),
        (["count", "8", "--backend", "nope"], "'nope' is not one of 'native'"),
        (["count", "8", "--threads", "0"], "threads"),
        (["check", "1", "2", "x"], "not a column"),
        (["check"], "give a placement"),
        (["show", "5", "1"], "off the board"),
        (["solutions", "12", "--format", "digits"], "n <= 9"),
        (["solutions", "8", "--format", "npy"], "--out"),
        (["bogus"], "No such command"),
    ],
)
def test_bad_input_exit_2_with_error_line(capsys, args, match):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and match in err
    assert "Traceback" not in err + out


def test_console_script_and_module_entry_points():
    import shutil
    from pathlib import Path

    script = Path(sys.executable).with_name("queenslab")
    exe = str(script) if script.exists() else shutil.which("queenslab")
    if exe is None:
        pytest.skip("the console script is not installed (pip install -e .)")
    for cmd in ([exe], [sys.executable, "-m", "queenslab"]):
        r = subprocess.run(cmd + ["count", "8", "--json"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["count"] == 92
    r = subprocess.run([sys.executable, "-m", "queenslab", "count", "0"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("error:") and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "queenslab", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "count" in r.stdout and "solutions" in r.stdout


def test_solve_command_offers_exactly_the_library_methods():
    from queenslab.cli.heuristics import METHODS as CLI_METHODS
    from queenslab.heuristics import METHODS

    assert CLI_METHODS == METHODS


def test_help_does_not_load_numba_or_solvers():
    import subprocess
    import sys

    code = (
        "import sys; from queenslab.cli import main; rc = main(['--help']); "
        "print(sorted(m for m in ('numba', 'ortools', 'pysat', 'sympy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
