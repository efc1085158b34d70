"""The command line's machine contract: every command's --json keys are the same whatever
the flags or the backend, and an error under --json is a JSON object with exit 2."""

import json

import pytest
from clirun import run_cli

COUNT = {
    "n",
    "derivation",
    "count",
    "unique",
    "classes",
    "backend",
    "method",
    "threads",
    "seconds",
    "complete",
    "known",
    "known_unique",
    "agrees",
    "known_source",
    "nodes",
    "problem",
    "note",
    "tasks",
    "from_ledger",
    "workers",
    "recounted",
    "verify_method",
    "disagreements",
    "provenance",
    "approximate",
    "epsilon",
    "delta",
    "count_bounds",
    "unique_bounds",
    "within_bounds",
}
PROBLEM = {"version", "base", "n", "toroidal", "knight", "blocked", "fixed", "leapers", "regions"}

#: command -> (its keys, several invocations that must all print exactly those keys)
CONTRACT = {
    "count": (
        COUNT,
        [
            ["count", 6],
            ["count", 6, "--unique"],
            ["count", 6, "--toroidal", "--block", "1,1"],
            ["count", 6, "--unique", "--backend", "cpsat", "--formulation", "boolean"],
            ["count", 7, "--backend", "sat", "--limit", 3],
            ["count", 5, "--fix", "1,1", "--fix", "3,3"],
            ["count", 8, "--classes"],
            ["count", 6, "--toroidal", "--classes", "--unique"],
            ["count", 6, "--unique", "--backend", "approxmc", "--seed", 3],
        ],
    ),
    "crosscheck": (
        {
            "n",
            "problem",
            "compared_unique",
            "time_limit",
            "agrees",
            "verdict",
            "results",
            "note",
            "known",
            "known_unique",
            "known_source",
            "known_agrees",
        },
        [
            ["crosscheck", 6, "--backends", "native,sat"],
            ["crosscheck", 6, "--backends", "native,sat", "--time-limit", "30"],
            ["crosscheck", 5, "--toroidal", "--no-unique", "--backends", "native,cpsat"],
            ["crosscheck", 5, "--backends", "native,approxmc"],
        ],
    ),
    "export": (
        {"model", "n", "problem", "symmetry", "encoding", "formulation", "variables", "clauses", "out", "text"},
        [
            ["export", "cnf", 4],
            ["export", "cpsat", 4, "--symmetry", "lex-leader"],
            ["export", "minizinc", 4, "--knight"],
            ["export", "opb", 4, "--symmetry", "lex-leader"],
        ],
    ),
    "solutions": (
        {"n", "problem", "offset", "limit", "listed", "format", "out", "solutions"},
        [
            ["solutions", 6],
            ["solutions", 8, "--offset", 3, "--limit", 2, "--knight"],
        ],
    ),
    "check": (
        {"n", "problem", "placement", "valid", "conflicts"},
        [
            ["check", "2413"],
            ["check", "1234", "--toroidal"],
        ],
    ),
    "show": (
        {"n", "problem", "placement", "valid", "conflict", "board", "png", "svg", "pixels"},
        [
            ["show", "2413"],
            ["show", "1234", "--block", "1,1"],
            ["show", "2413", "--svg", "{tmp}/q.svg", "--attacks", 2],
        ],
    ),
    "rank": (
        {"n", "problem", "placement", "rank", "seconds", "index"},
        [
            ["rank", 6, "2 4 6 1 3 5", "--no-index"],
            ["rank", 8, "1 5 8 6 3 7 2 4"],
        ],
    ),
    "unrank": (
        {"n", "problem", "rank", "solution", "seconds", "index"},
        [
            ["unrank", 8, 1, "--no-index"],
            ["unrank", 7, 3, "--toroidal"],
        ],
    ),
    "sample": (
        {"n", "problem", "seed", "samples", "index"},
        [
            ["sample", 8, 2],
            ["sample", 8, 0, "--seed", 4, "--no-index"],
        ],
    ),
    "orbits": (
        {"n", "orbits", "unique", "count", "complete", "group", "known_unique", "agrees", "problem", "burnside"},
        [
            ["orbits", 6],
            ["orbits", 6, "--burnside"],
            ["orbits", 7, "--fix", "1,1", "--limit", 1],
        ],
    ),
    "symmetry table": ({"table", "reading", "elements"}, [["symmetry", "table"]]),
    "symmetry orbit": (
        {
            "n",
            "placement",
            "valid",
            "images",
            "orbit",
            "size",
            "stabilizer",
            "canonical",
            "raw_signature",
            "signature",
        },
        [
            ["symmetry", "orbit", "2413"],
            ["symmetry", "orbit", "1234"],
        ],
    ),
    "limits": ({"limits"}, [["limits"]]),
    "solve": (
        {"n", "problem", "backend", "method", "seed", "seconds", "verified", "solution", "out", "error"},
        [
            ["solve", 8],
            ["solve", 8, "--method", "minconflicts", "--seed", 2],
            ["solve", 3],
            ["solve", 8, "--toroidal"],
            ["solve", 6, "--backend", "cpsat", "--seed", 2],
            ["solve", 50],
        ],
    ),
}


@pytest.mark.parametrize("command", list(CONTRACT))
def test_json_keys_do_not_depend_on_flags(command, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("QUEENSLAB_INDEX_DIR", str(tmp_path))
    keys, calls = CONTRACT[command]
    for args in calls:
        args = [a.replace("{tmp}", str(tmp_path)) if isinstance(a, str) else a for a in args]
        code, out, _ = run_cli(capsys, monkeypatch, *args, "--json")
        data = json.loads(out)
        assert set(data) == keys, (args, set(data) ^ keys)
        assert code in (0, 1, 3), args  # 3: a crosscheck that confirmed nothing (native only, inconclusive)
        if "problem" in data and data["problem"] is not None:
            assert set(data["problem"]) == PROBLEM


@pytest.mark.parametrize("flags", [[], ["--unique"], ["--classes"], ["--toroidal", "--unique", "--classes"]])
def test_a_range_of_counts_prints_the_count_keys_on_every_line(flags, capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "4..6", *flags, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code in (0, 1) and len(lines) == 3 and all(set(data) == COUNT for data in lines)


def test_crosscheck_rows_keys(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 6, "--backends", "native,sat,approxmc", "--json")
    rows = json.loads(out)["results"]
    keys = {"backend", "count", "unique", "seconds", "complete", "timed_out", "error", "method"}
    keys |= {"approximate", "epsilon", "delta", "count_bounds", "unique_bounds", "within_bounds", "reach"}
    keys |= {"derivation"}
    assert code == 0 and all(set(row) == keys for row in rows) and [r["approximate"] for r in rows][-1]


def test_index_commands_keys(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("QUEENSLAB_INDEX_DIR", str(tmp_path))
    code, out, _ = run_cli(capsys, monkeypatch, "index", "build", 8, "--json")
    built = json.loads(out)
    assert code == 0 and set(built) == {
        "path",
        "n",
        "depth",
        "count",
        "rows",
        "bytes",
        "problem",
        "built",
        "seconds",
        "status",
    }
    (tmp_path / "junk.sqlite").write_text("not a database")
    code, out, _ = run_cli(capsys, monkeypatch, "index", "info", "--json")
    info = json.loads(out)
    assert code == 0 and set(info) == {"directory", "indexes"}
    keys = {"path", "bytes", "status", "n", "depth", "count", "rows", "problem", "built"}
    assert len(info["indexes"]) == 2 and all(set(e) == keys for e in info["indexes"])


@pytest.mark.parametrize(
    "args, kind",
    [
        (["count", 0], "InvalidProblem"),
        (["count", 8, "--backend", "cpsat", "--threads", 2], "UnknownOption"),
        (["count", 8, "--limit", "0"], "UsageError"),
        (["count", "eight"], "UsageError"),
        (["count", 8, "--block", "9,9"], "QueensError"),
        (["check", "1 4 2"], "InvalidPlacement"),
        (["unrank", 8, 93, "--no-index"], "QueensError"),
        (["solutions", 12, "--format", "digits"], "QueensError"),
        (["solve", 8, "--method", "construct", "--seed", 1], "QueensError"),
        (["show", "2413", "--scale", 3], "QueensError"),
    ],
)
def test_errors_under_json_are_json(args, kind, capsys, monkeypatch):
    code, out, err = run_cli(capsys, monkeypatch, *args, "--json")
    data = json.loads(out)
    assert code == 2 and set(data) == {"error", "kind"} and data["kind"] == kind
    assert err.startswith("error: ") and data["error"] in err


def test_problem_in_json_reads_back(capsys, monkeypatch):
    from queenslab import Problem

    _, out, _ = run_cli(capsys, monkeypatch, "count", 7, "--toroidal", "--block", "2,3", "--fix", "1,1", "--json")
    assert Problem.from_dict(json.loads(out)["problem"]) == Problem(7, toroidal=True, blocked=[(1, 2)], fixed=[(0, 0)])


def test_help_texts_name_only_real_commands(capsys, monkeypatch):
    import click

    from queenslab.cli import cli

    ctx = click.Context(cli)
    names = set(cli.list_commands(ctx))
    import re

    def walk(group, path):
        if not isinstance(group, click.Group):
            return
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            code, out, _ = run_cli(capsys, monkeypatch, *path, name, "--help")
            assert code == 0
            for ref in re.findall(r"queenslab ([a-z-]+)", out):
                assert ref in names, (path, name, ref)
            walk(cmd, path + [name])

    walk(cli, [])
