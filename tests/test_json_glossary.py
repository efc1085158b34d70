"""Every JSON key of every command has one type and one meaning: the glossary of docs/cli.md.

Each command runs with ``--json`` (and with the flags that fill its optional keys); every
key at any depth must be in the glossary, with a value of a type the glossary allows, and
every key of the glossary must turn up somewhere, so that the table can neither miss a key
nor keep one that no command prints any more.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from clirun import run_cli
from faults import wrong_ledger

import queenslab.reports as reports
from queenslab import Problem

DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
#: Values described elsewhere than the glossary: the problem file format, the provenance
#: record, and maps whose keys are data (orbit sizes, group elements).
OPAQUE = {"problem", "provenance", "classes", "fixed", "images"}
#: The glossary's type words and the JSON values they admit.
TYPES = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def glossary() -> dict[str, list[str]]:
    """``{key: [type words]}`` from the glossary table of docs/cli.md."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Glossary of JSON keys", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| ([a-z ]+) \| .+ \|$", section, re.M)
    assert len(rows) > 100, "the glossary table was not found"
    return {key: kind.split(" or ") for key, kind in rows}


GLOSSARY = glossary()

#: Every command with --json, and the flags that fill its optional keys.
CALLS = [
    ["count", 6],
    ["count", 8, "--unique", "--classes"],
    ["count", "4..5", "--unique"],
    ["count", 6, "--unique", "--backend", "cpsat"],
    ["count", 7, "--backend", "sat", "--limit", 3],
    ["count", 5, "--fix", "1,1", "--fix", "2,2"],
    ["count", 9, "--unique", "--ledger", "{tmp}/q9.sqlite", "--verify", 2],
    ["count", 8, "--ledger", "{tmp}/bad.sqlite", "--verify", 100],
    ["crosscheck", 6, "--backends", "native,sat"],
    ["count", 6, "--unique", "--backend", "approxmc", "--seed", 1],
    ["crosscheck", 5, "--backends", "native,approxmc"],
    ["crosscheck", 6, "--split", "--threads", 1, "--depth", 2],  # one task made wrong below: a disagreement
    ["export", "cnf", 4],
    ["export", "cpsat", 4, "--symmetry", "lex-leader", "--out", "{tmp}/m.txt"],
    ["solutions", 6],
    ["solutions", 6, "--limit", 2, "--format", "npy", "--out", "{tmp}/s.npy"],
    ["check", "2413"],
    ["check", "1234", "--block", "1,1", "--fix", "2,1"],
    ["show", "2413"],
    ["show", "1234", "--png", "{tmp}/b.png"],
    ["show", "2413", "--svg", "{tmp}/b.svg"],
    ["show", "--problem", "{tmp}/p.toml"],
    ["rank", 8, "1 5 8 6 3 7 2 4", "--no-index"],
    ["unrank", 8, 1],
    ["sample", 8, 2, "--seed", 3],
    ["orbits", 6, "--burnside"],
    ["orbits", 7, "--limit", 1],
    ["symmetry", "table"],
    ["symmetry", "orbit", "2413"],
    ["limits"],
    ["solve", 8],
    ["solve", 8, "--method", "minconflicts", "--seed", 2],
    ["solve", 3],
    ["solve", 10, "--out", "{tmp}/q.txt"],
    ["index", "build", 8],
    ["index", "info"],
    ["index", "verify", 8, "--recount", 2],
    ["experiment", "signature", "--max-n", 6, "--certify-to", 8, "--plot", "{tmp}/sig.svg"],
    ["experiment", "orbit-search", 7],
    ["watch", 8, "--method", "minconflicts", "--seed", 2, "--record", "{tmp}/t.jsonl"],
    [
        "replay",
        "{tmp}/t.jsonl",
        "--svg",
        "{tmp}/t.svg",
        "--gif",
        "{tmp}/t.gif",
        "--mp4",
        "{tmp}/t.mp4",
        "--fps",
        8,
        "--frames",
        "{tmp}/f.png",
        "--every",
        5,
    ],
    ["watch", 6, "--solutions", 0, "--record", "{tmp}/b.jsonl"],
    ["replay", "{tmp}/b.jsonl", "--tree", "{tmp}/tree.svg"],
    ["estimate", 12, "--method", "knuth", "--samples", 1000, "--seed", 1],
    ["estimate", 6, "--fix", "1,1", "--fix", "3,3"],
    ["optimize", "dominate", 5],
    ["optimize", "independence", 4, "--solver", "cpsat", "--time-limit", 30],
    ["experiment", "q-queens", 3, "--period", 1],
    ["experiment", "completion", 6, "--ks", "0..2", "--instances", 2, "--backend", "native", "--backend", "sat"],
    ["experiment", "growth", "--ns", "7,13", "--samples", 1000, "--toroidal", "--out", "{tmp}/growth"],
    ["count", 0],
    ["count", 12, "--estimate-cost", "--cores", 1, "--cores", 1000],
    ["warm"],
]


def walk(obj, where: str, seen: dict[str, str]) -> list[str]:
    """Check every key below ``obj`` against the glossary; returns the problems found."""
    problems = []
    if isinstance(obj, list):
        for item in obj:
            problems += walk(item, where, seen)
        return problems
    if not isinstance(obj, dict):
        return problems
    for key, value in obj.items():
        if key not in GLOSSARY:
            problems.append(f"{where}: key {key!r} is not in the glossary")
            continue
        if not any(TYPES[t](value) for t in GLOSSARY[key]):
            problems.append(f"{where}: {key!r} is {type(value).__name__}, the glossary says {GLOSSARY[key]}")
        seen.setdefault(key, where)
        if key not in OPAQUE:
            problems += walk(value, f"{where}.{key}", seen)
    return problems


def test_every_key_of_every_command_is_in_the_glossary(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("QUEENSLAB_INDEX_DIR", str(tmp_path / "index"))
    (tmp_path / "p.toml").write_text("n = 5\nblocked = [[1, 1]]\n")
    # a ledger with one wrong task, so that --verify reports a disagreement
    wrong_ledger(Problem(8), tmp_path / "bad.sqlite")
    # a solver count off by one in one task, so that crosscheck --split reports a disagreement
    from queenslab.backends import recount

    real = recount.count_prefix
    monkeypatch.setattr(recount, "count_prefix", lambda p, b, c, task: real(p, b, c, task) + (task == (1, 3)))
    seen: dict[str, str] = {}
    problems = []
    for args in CALLS:
        args = [a.replace("{tmp}", str(tmp_path)) if isinstance(a, str) else a for a in args]
        code, out, err = run_cli(capsys, monkeypatch, *args, "--json")
        assert out.strip(), (args, err)
        for line in out.splitlines():
            problems += walk(json.loads(line), " ".join(map(str, args[:2])), seen)
    assert not problems, "\n".join(problems)
    unused = sorted(set(GLOSSARY) - set(seen))
    assert not unused, f"glossary keys no command printed: {unused}"


def test_the_types_of_the_glossary_are_known():
    for key, kinds in GLOSSARY.items():
        assert set(kinds) <= set(TYPES), (key, kinds)


@pytest.mark.parametrize("name", reports.__all__)
def test_every_report_field_is_in_the_glossary(name):
    cls = getattr(reports, name)
    if not dataclasses.is_dataclass(cls):
        return
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in GLOSSARY]
    assert not missing, (name, missing)


def test_a_report_writes_placements_and_ranks_one_based():
    from queenslab import solve

    p = solve(Problem(6))
    data = reports.to_json(reports.UnrankReport(6, Problem(6), 0, p, 0.25, None))
    assert data["solution"] == [c + 1 for c in p] and data["rank"] == 1
    assert data["problem"] == Problem(6).to_dict(one_based=True)
    with pytest.raises(TypeError):
        reports.to_json({"a": 1})
