"""The command line: output, --json keys, exit codes, errors without tracebacks."""

import json
import subprocess
import sys

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st

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
    assert out.strip() == "2 8 10 4 1 5 9 6 3 7"  # N. Gupta's ranking paper: the 100th solution of 10 queens
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
    assert code == 0 and arr.shape == (92, 8) and [tuple(r) for r in arr.tolist()] == naive.all_solutions(Problem(8))
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
    assert code == 1 and data["valid"] is False and data["conflicts"][0]["cells"] == [[1, 1], [2, 2]]
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


# ----------------------------------------------------------------------- option ranges, cells, placements

BIG = "1" + "0" * 30


@pytest.mark.parametrize(
    "args,match",
    [
        (["solve", "8", "--method", "minconflicts", "--max-steps", BIG], "1<=x<=9223372036854775807"),
        (["solve", "8", "--method", "minconflicts", "--restarts", BIG], "0<=x<=9223372036854775807"),
        (["solve", "8", "--backend", "cpsat", "--seed", "18446744073709551616"], "0<=x<=2147483647"),
        (["solve", "8", "--backend", "cpsat", "--seed", "2147483648"], "0<=x<=2147483647"),
        (["solve", "8", "--method", "minconflicts", "--seed", "-1"], "0<=x<=2147483647"),
        (["solve", "8", "--max-steps", "1e30"], "not a valid integer"),
        (["count", "8", "--backend", "cpsat", "--seed", "18446744073709551616"], "0<=x<=2147483647"),
        (["count", "8", "--threads", BIG], "1<=x<=1024"),
        (["rank", "4", "2413", "--threads", "1025"], "1<=x<=1024"),
        (["count", "8", "--backend", "cpsat", "--limit", BIG], "1<=x<=9223372036854775807"),
        (["solutions", "8", "--limit", BIG], "0<=x<=9223372036854775807"),
        (["solutions", "8", "--offset", BIG], "0<=x<=9223372036854775807"),
        (["orbits", "8", "--limit", BIG], "0<=x<=9223372036854775807"),
        (["show", "2413", "--png", "x.png", "--scale", BIG], "1<=x<=20000"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "nan"], "number > 0 and at most 1e+09"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "inf"], "number > 0 and at most 1e+09"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "-1"], "number > 0 and at most 1e+09"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "0"], "number > 0 and at most 1e+09"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "1e400"], "number > 0 and at most 1e+09"),
        (["count", "8", "--backend", "cpsat", "--time-limit", "soon"], "number > 0 and at most 1e+09"),
        (["solutions", "8", "--out", ""], "empty file name"),
        (["solve", "8", "--out", " "], "empty file name"),
    ],
)
def test_out_of_range_options_are_usage_errors(capsys, tmp_path, monkeypatch, args, match):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and err.startswith("error: ") and match in err, err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_seconds_in_range_are_read_and_the_range_is_in_the_help(capsys):
    from queenslab.cli.options import Seconds

    assert Seconds().convert("2.5", None, None) == 2.5 and Seconds().convert("1e-3", None, None) == 0.001
    code, out, _ = run(capsys, "count", "--help")
    assert code == 0 and "[finite, x>0]" in " ".join(out.split())  # the help wraps lines anywhere


@pytest.mark.parametrize(
    "value",
    ["²,1", "1,²", "١,٢", "1,1,1", "1,,2", "1,", ",1", "", " ", "1.5,2", "+1,2", "-1,2", "--1,2", "1;;2", "1 2", "x,y"],
)
@pytest.mark.parametrize("flag", ["--block", "--fix"])
def test_malformed_cells_are_errors(capsys, flag, value):
    code, out, err = run(capsys, "count", "8", flag, value)
    assert code == 2 and err.startswith(f"error: {flag} expects ROW,COL") and "digits 0-9" in err, err


def test_cells_far_off_the_board(capsys):
    code, _, err = run(capsys, "count", "8", "--fix", "99999999999999999999,1")
    assert code == 2 and "off any board" in err and "1..n" in err
    code, _, err = run(capsys, "count", "8", "--block", "9,1")
    assert code == 2 and "rows and columns are 1..8" in err
    code, out, _ = run(capsys, "count", "8", "--block", " 1 , 2 ", "--block", "3;4", "--json")
    assert code == 0 and json.loads(out)["problem"]["blocked"] == [[1, 2], [3, 4]]


@pytest.mark.parametrize(
    "words,match",
    [
        (["²413"], "'²413' is not a column number"),
        (["2", "4", "1", "٣"], "'٣' is not a column number"),
        (["2,4,1.5,3"], "'1.5' is not a column number"),
        (["2", "+4", "1", "3"], "'+4' is not a column number"),
        (["2,4,1,3e0"], "'3e0' is not a column number"),
        (["2,,4,1,3"], "empty column between commas"),
        (["2,4,1,3,"], "empty column between commas"),
        ([",2,4,1,3"], "empty column between commas"),
        (["[]"], "empty placement"),
        (["2", "4", "1", "3" + "0" * 25], "more than 18 digits"),
        (["2", "4", "1", "9" * 5000], "more than 18 digits"),
    ],
)
@pytest.mark.parametrize("command", [["check"], ["show"], ["rank", "4"], ["symmetry", "orbit"]])
def test_malformed_placements_are_errors(capsys, command, words, match):
    code, out, err = run(capsys, *command, *words)
    assert code == 2 and err.startswith("error: ") and match in err, err
    assert "digits 0-9" in err


def _only_queens_errors(fn, *args):
    from queenslab.errors import QueensError

    try:
        return fn(*args)
    except QueensError:
        return None


@given(st.lists(st.text(max_size=12), max_size=3))
def test_parse_cells_raises_only_queens_errors(values):
    from queenslab.cli.options import parse_cells

    cells = _only_queens_errors(parse_cells, tuple(values), "block")
    if cells is not None:
        assert len(cells) == len(values) and all(r >= -1 and c >= -1 for r, c in cells)


@given(
    st.lists(
        st.tuples(st.integers(1, 10**18 - 1), st.integers(1, 10**18 - 1), st.sampled_from([",", " , ", ";", "\t,"]))
    )
)
def test_parse_cells_reads_what_it_should(cells):
    from queenslab.cli.options import parse_cells

    values = tuple(f" {r}{sep}{c} " for r, c, sep in cells)
    assert parse_cells(values, "fix") == [(r - 1, c - 1) for r, c, _ in cells]


@given(st.lists(st.text(max_size=10), max_size=4))
def test_placement_text_raises_only_queens_errors(words):
    from queenslab.cli.options import placement_arg
    from queenslab.solution import parse_placement

    p = _only_queens_errors(lambda w: parse_placement(placement_arg(w)), tuple(words))
    if p is not None:
        assert len(p) > 0 and all(0 <= c < len(p) for c in p)


@given(st.lists(st.sampled_from(list("0123456789 ,;[]()+-.²١") + ["", "9" * 20]), max_size=8))
def test_placement_lookalikes_raise_only_queens_errors(parts):
    from queenslab.cli.options import placement_arg
    from queenslab.solution import parse_placement

    _only_queens_errors(lambda w: parse_placement(placement_arg(w)), ("".join(parts),))


@pytest.mark.parametrize(
    "args,reason",
    [
        (["count", "8", "--block", "1,1", "--fix", "1,1"], "the fixed queen at (1,1) stands on a blocked cell"),
        (
            ["count", "8", "--fix", "1,1", "--fix", "2,2"],
            "the fixed queens at (1,1) and (2,2) attack each other (diagonal)",
        ),
    ],
)
def test_contradicting_constraints_count_zero_with_the_reason(capsys, args, reason):
    code, out, err = run(capsys, *args, "--unique")
    assert (
        code == 0
        and out.startswith("0 solutions")
        and "(0 unique)" in out
        and f"note: no solutions, as {reason}" in out
    )
    code, out, _ = run(capsys, *args, "--json")
    obj = json.loads(out)
    assert code == 0 and obj["count"] == 0 and obj["note"] == reason


def test_every_lazy_summary_is_its_commands_own_help():
    """The groups list their commands from summaries, without importing them: each
    summary must be what click would show from the command itself, at any width."""
    import click

    from queenslab.cli.app import LazyGroup, cli

    ctx = click.Context(cli)
    groups = [cli, cli.get_command(ctx, "experiment")]
    assert all(isinstance(g, LazyGroup) for g in groups)
    for group in groups:
        for name, (_, summary) in group.lazy.items():
            command = group.get_command(ctx, name)
            assert command is not None and command.name == name
            for limit in (30, 45, 80, 10**4):
                shown = click.Command(name, help=summary).get_short_help_str(limit)
                assert shown == command.get_short_help_str(limit), name


def test_the_command_list_is_the_same_before_and_after_the_commands_load():
    import subprocess
    import sys

    def listed(code: str) -> str:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    lazily = listed("from queenslab.cli import main; main(['--help'])")
    loaded = listed(
        "import click\n"
        "from queenslab.cli import cli, main\n"
        "[cli.get_command(click.Context(cli), n) for n in cli.list_commands(click.Context(cli))]\n"
        "main(['--help'])"
    )
    assert lazily == loaded and "check " in lazily and "watch " in lazily


@pytest.mark.parametrize(
    ("args", "said", "backend_takes"),
    [
        (["count", "8", "--time-limit", "5"], "the native backend does not take --time-limit for a count", "native"),
        (["count", "8", "--backend", "sat", "--method", "join"], "the sat backend does not take --method", "sat"),
        (
            ["solve", "8", "--backend", "native", "--time-limit", "3"],
            "does not take --time-limit for solving",
            "native",
        ),
    ],
)
def test_an_option_a_backend_does_not_take_is_refused_in_flags(capsys, args, said, backend_takes):
    """The command line names flags, and only the flags a backend takes there: never the
    Python argument names, nor options with no flag (a progress callback, a model)."""
    from queenslab.backends import get_backend

    code, _, err = run(capsys, *args)
    assert code == 2 and said in err, err
    line = err.strip().splitlines()[-1]
    question = "solve" if args[0] == "solve" else "counts"
    offered = sorted(
        o.flag for o in get_backend(backend_takes).options if question in o.applies_to and o.on_command_line
    )
    assert line.endswith("it takes " + ", ".join(offered)), line
    assert "_" not in line and "progress" not in line and "model" not in line.split("take")[-1], line


def test_the_python_api_names_its_own_arguments_for_an_unknown_option():
    from queenslab import counts
    from queenslab.errors import UnknownOption

    with pytest.raises(UnknownOption) as refused:
        counts(Problem(8), time_limit=5)
    assert "option(s) time_limit" in str(refused.value) and "progress" in str(refused.value)
    assert refused.value.for_command_line().startswith("the native backend does not take --time-limit")


def test_a_refusal_names_the_flag_on_the_command_line_and_the_argument_in_python(capsys):
    from queenslab import counts
    from queenslab.errors import TooLarge

    code, _, err = run(capsys, "count", "8", "--verify", "3")
    assert code == 2 and "give --ledger FILE or --dask ADDRESS" in err, err
    with pytest.raises(TooLarge) as refused:
        counts(Problem(19))
    assert "pass force=True (--force) to run it anyway" in str(refused.value)
    assert refused.value.for_command_line().endswith("pass --force to run it anyway")


def _commands():
    """Every command of the command line, with its path (``["index", "verify"]``)."""
    import click

    from queenslab.cli.app import cli

    found = []

    def walk(group, ctx, path):
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            sub = click.Context(cmd, info_name=name, parent=ctx)
            if isinstance(cmd, click.Group):
                walk(cmd, sub, [*path, name])
            else:
                found.append(([*path, name], cmd, sub))

    walk(cli, click.Context(cli, info_name="queenslab"), [])
    return found


def test_every_command_shows_examples_that_use_its_own_flags():
    for path, cmd, ctx in _commands():
        text = cmd.get_help(ctx)
        assert "Examples:" in text or "Example:" in text, path
        flags = {opt for p in cmd.params for opt in (*p.opts, *p.secondary_opts)}
        lines = [line.strip() for line in text.split("Example")[1].splitlines()[1:]]
        examples = [line.split() for line in lines if line.startswith("queenslab " + " ".join(path))]
        assert examples, path
        for words in examples:
            for word in words:
                if word.startswith("--"):
                    assert word.split("=")[0] in flags, (path, word)


def test_count_help_groups_its_options_under_headings():
    _, cmd, ctx = next(c for c in _commands() if c[0] == ["count"])
    text = cmd.get_help(ctx)
    headings = [line[:-1] for line in text.splitlines() if line and not line[0].isspace() and line.endswith(":")]
    assert headings[-4:] == ["Problem", "Options", "Backend", "Output"]

    def section(title):
        start = text.index(f"\n{title}:\n")
        nxt = [
            text.index(f"\n{t}:\n")
            for t in ("Problem", "Options", "Backend", "Output")
            if text.index(f"\n{t}:\n") > start
        ]
        return text[start : min(nxt, default=len(text))]

    assert "--toroidal" in section("Problem") and "--queens" in section("Problem")
    assert "--unique" in section("Options") and "--ledger" in section("Options")
    assert (
        "--threads" in section("Backend") and "--backend" in section("Backend") and "--time-limit" in section("Backend")
    )
    assert "--json" in section("Output") and "--toroidal" not in section("Options")


def test_show_names_the_blocked_cells_in_its_legend(capsys, tmp_path):
    (tmp_path / "b.toml").write_text("n = 4\nblocked = [[1, 1]]\n")
    code, out, _ = run(capsys, "show", "--problem", str(tmp_path / "b.toml"))
    legend = out.splitlines()[0]
    assert code == 0 and "# blocked cell" in legend and "no queen" not in legend, out
    assert out.splitlines()[1] == "# . . .", out  # row 1, column 1 drawn as blocked
