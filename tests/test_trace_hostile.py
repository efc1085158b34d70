"""Trace files are input: hostile traces are refused with the reason, never drawn.

Every trace the package records passes the rules of its method
(:func:`queenslab.trace.rules.check_steps`) and the brute-force re-derivation of those
rules (``naive.trace_violation``); every trace changed by a random edit gets the same
verdict from both (the same first bad step, or none); hostile files (bad header fields,
bombs of nesting and digits, pipes and devices, files beyond the limits) are refused with
:class:`~queenslab.errors.InvalidTrace` or another :class:`~queenslab.errors.QueensError`,
and on the command line with ``error:`` and exit 2, before any picture is written. No
command writes over its own input or two outputs to one file.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from naive import trace_violation

from queenslab import Problem, Region, limits, validate
from queenslab.cli import main
from queenslab.errors import InvalidTrace, QueensError, TooLarge
from queenslab.infile import open_regular, same_file
from queenslab.outfile import check_distinct
from queenslab.trace import Step, Trace, fileformat, read_trace, record, write_trace
from queenslab.trace.fileformat import step_json
from queenslab.trace.rules import check_steps

#: Problems whose backtracking traces are replayed: every constraint kind, and regions
#: with an upper bound (the rule that no placement puts a region over it).
VARIANTS = [
    Problem(1),
    Problem(4),
    Problem(6),
    Problem(7, toroidal=True),
    Problem(8, blocked=[(0, 0), (3, 4)]),
    Problem(8, fixed=[(2, 5)]),
    Problem(7, knight=True),
    Problem(7, leapers=[(1, 3)]),
    Problem(6, regions=[Region.rectangle((0, 0), (2, 2), at_most=1)]),
    Problem(7, regions=[Region.rows([0, 1], 7, at_least=1), Region([(0, 1), (1, 3), (2, 5)], at_most=1)]),
]


def _traces() -> list[Trace]:
    out = []
    for problem in VARIANTS:
        out.append(record(problem, "backtrack", solutions=0, max_steps=400))
        out.append(record(problem, "backtrack", solutions=2, max_steps=400))
    for n, seed in ((1, 0), (8, 0), (8, 3), (10, 1), (12, 5)):
        out.append(record(n, "selfcorrect", seed=seed, max_steps=400))
    for n, seed in ((1, 0), (8, 0), (10, 2), (20, 4), (30, 1)):
        out.append(record(n, "minconflicts", seed=seed, max_steps=400))
    for n, seed in ((5, 0), (6, 2), (8, 1)):
        out.append(record(n, "ga", seed=seed, max_steps=60))
    for n, strategy in ((6, "bfs"), (8, "bfs"), (8, "dfs"), (9, "bfs")):
        out.append(record(n, "orbit-search", strategy=strategy))
    return out


TRACES = _traces()


def _lines(trace: Trace) -> list[list]:
    return [step_json(s) for s in trace.steps]


def _as_step(line: list) -> Step:
    op, args = line[0], line[1:]
    if op in ("place", "move", "swap"):
        return Step(op, args[0], args[1])
    if op == "remove":
        return Step(op, args[0])
    if op == "start":
        return Step(op, board=tuple(args[0]))
    if op == "best":
        return Step(op, col=args[0], board=tuple(args[1]))
    if op == "orbit":
        return Step(op, col=args[0], board=tuple(args[1]), operator=args[2])
    return Step(op)


def _verdict(trace: Trace, lines: list[list]) -> int | None:
    """The first step check_steps refuses (1-based), or None."""
    try:
        check_steps(trace.method, trace.problem, [_as_step(x) for x in lines], trace.options, trace.complete)
    except InvalidTrace as e:
        found = re.match(r"step (\d+) ", str(e))
        assert found, str(e)
        return int(found.group(1))
    return None


@pytest.fixture(autouse=True)
def _working_directory(monkeypatch):
    """Tests that change the working directory (to write relative names) change it back."""
    monkeypatch.chdir(os.getcwd())


# ------------------------------------------------------------------ recorded traces pass


@pytest.mark.parametrize("trace", TRACES, ids=lambda t: f"{t.method}-{t.problem.describe()}-{t.seed}")
def test_every_recorded_trace_passes_its_rules_and_the_naive_rules(trace, tmp_path):
    assert trace.steps or trace.n in (2, 3)
    assert _verdict(trace, _lines(trace)) is None
    assert trace_violation(trace.method, trace.problem, _lines(trace), trace.options, trace.complete) is None
    path = write_trace(trace, tmp_path / "t.jsonl")
    again = read_trace(path)
    assert again.steps == trace.steps and again.problem == trace.problem and again.options == trace.options


# ------------------------------------------------------------------ random edits


@st.composite
def edited(draw):
    """A recorded trace and its steps after one random edit that keeps every value on the
    board (so the edit is judged by the rules, not by the board-size check)."""
    trace = draw(st.sampled_from(TRACES).filter(lambda t: len(t.steps) >= 2))
    lines = [list(x) for x in _lines(trace)]
    n = trace.n
    k = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "value", "op", "board", "insert"]))
    if kind == "delete":
        del lines[k]
    elif kind == "duplicate":
        lines.insert(k, list(lines[k]))
    elif kind == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[k], lines[j] = lines[j], lines[k]
    elif kind == "value":
        ints = [i for i, v in enumerate(lines[k]) if isinstance(v, int)]
        if ints:
            i = draw(st.sampled_from(ints))
            lines[k][i] = draw(st.integers(0, n - 1 if lines[k][0] != "best" else 3))
    elif kind == "op":
        op = lines[k][0]
        same = {"place": "move", "move": "place", "swap": "move", "remove": "remove", "start": "start"}
        lines[k][0] = same.get(op, op)
        if op == "orbit":
            lines[k][3] = draw(st.sampled_from(["Inc(0.5, 3.5)", "Mov(1, 2, 0.5, 1.5)", "Del(1)", "Inc(x)", ""]))
    elif kind == "board":
        boards = [i for i, v in enumerate(lines[k]) if isinstance(v, list)]
        if boards:
            board = list(lines[k][boards[0]])
            board[draw(st.integers(0, n - 1))] = draw(st.integers(-1, n - 1))
            lines[k][boards[0]] = board
    else:
        op = draw(st.sampled_from(sorted({x[0] for x in lines})))
        r, c = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        board = [draw(st.integers(-1 if op == "start" else 0, n - 1)) for _ in range(n)]
        if op in ("place", "move", "swap"):
            new = [op, r, c]
        elif op == "remove":
            new = [op, r]
        elif op in ("start", "best"):
            new = [op, board] if op == "start" else [op, k, board]
        elif op == "orbit":
            new = [op, draw(st.integers(1, 3)), list(lines[k][2]), "Mov(1, 2, 0.5, 1.5)"]
        else:
            new = [op]
        lines.insert(k, new)
    return trace, lines


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(edited())
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_an_edited_trace_gets_the_verdict_of_the_naive_rules(case):
    trace, lines = case
    assert _verdict(trace, lines) == trace_violation(trace.method, trace.problem, lines, trace.options, trace.complete)


def test_the_edits_make_both_verdicts():
    """The random edits are not all harmless: some are refused, some still pass."""
    verdicts = []
    for trace in TRACES[:12]:
        lines = _lines(trace)
        if len(lines) > 3:
            verdicts.append(_verdict(trace, lines[1:]))  # the first step dropped
            verdicts.append(_verdict(trace, lines[:-1]))  # the last dropped
    assert None in verdicts and any(v is not None for v in verdicts)


# ------------------------------------------------------------------ impossible sequences


def _file(tmp_path: Path, lines: list, name: str = "t.jsonl", **header) -> Path:
    """A trace file of a standard 8-queens backtracking trace with the step ``lines``, its
    header fields replaced by ``header``."""
    problem = header.pop("problem", Problem(8))
    head = {
        "format": "queenslab-trace",
        "version": 1,
        "base": 0,
        "method": "backtrack",
        "seed": None,
        "n": problem.n,
        "problem": problem.to_dict(),
        "options": {"solutions": 1},
        "steps": len(lines),
        "complete": True,
    }
    head.update(header)
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(x) for x in [head, *lines]) + "\n")
    return path


#: The first steps of backtracking on 8 queens, and its steps to the first solution of 4.
WALK8 = _lines(record(8, "backtrack", max_steps=6))
WALK4 = _lines(record(4, "backtrack"))
SOLVED8 = [0, 4, 7, 5, 2, 6, 1, 3]
LOCAL = {"seed": 0, "options": {}}

IMPOSSIBLE = [
    # (method, header changes, steps, the step refused, words of the reason)
    ("backtrack", {}, [["place", 0, 0], ["place", 1, 1], ["solution"]], 2, "attacked by the queen on row 0"),
    ("backtrack", {}, [["place", 0, 0], ["place", 1, 2], ["solution"]], 3, "needs a full board"),
    ("backtrack", {}, [["place", 1, 0]], 1, "first empty row is 0"),
    ("backtrack", {}, [["place", 0, 3]], 1, r'takes \["place", 0, 0\]'),
    ("backtrack", {}, [["place", 0, 0], ["place", 1, 3]], 2, r'takes \["place", 1, 2\]'),
    ("backtrack", {}, [["place", 0, 0], ["remove", 0]], 2, r'takes \["place", 1, 2\]'),
    ("backtrack", {}, [["place", 0, 0], ["place", 1, 2], ["move", 1, 1]], 3, "increasing order"),
    ("backtrack", {}, [["place", 0, 0], ["place", 1, 2], ["remove", 0]], 3, "deepest queen is on row 1"),
    ("backtrack", {}, [["remove", 0]], 1, "board is empty"),
    ("backtrack", {}, [["start", SOLVED8]], 1, "writes only place"),
    ("backtrack", {"problem": Problem(8, blocked=[(0, 0)])}, [["place", 0, 0]], 1, "may take"),
    ("backtrack", {"problem": Problem(8, fixed=[(3, 3)])}, [["place", 0, 0]], 1, "may take"),
    # a full board that solves 4-queens with no solution step; a step after the one solution asked for
    ("backtrack", {"problem": Problem(4)}, [*WALK4[:-1], ["remove", 3]], len(WALK4), r'takes \["solution"\]'),
    ("backtrack", {"problem": Problem(4)}, [*WALK4, ["remove", 3]], len(WALK4) + 1, "ended before this step"),
    # the header's complete: a search that goes on, one that ended
    ("backtrack", {}, WALK8[:1], 2, "goes on with"),
    ("backtrack", {"problem": Problem(4), "complete": False}, WALK4, len(WALK4) + 1, "ends here"),
    ("backtrack", {"problem": Problem(4), "options": {"solutions": 0}}, WALK4, len(WALK4) + 1, "goes on with"),
    ("selfcorrect", LOCAL, [["move", 0, 1]], 1, "after its first start"),
    ("selfcorrect", LOCAL, [["start", [0] * 8], ["move", 0, 2]], 2, "one column on"),
    ("selfcorrect", LOCAL, [["start", [0, -1, 0, 0, 0, 0, 0, 0]]], 1, "full board"),
    ("selfcorrect", LOCAL, [["start", SOLVED8], ["move", 0, 1]], 2, "stops at its first solution"),
    ("selfcorrect", LOCAL, [["start", [0] * 8]], 2, "not a solution"),
    ("selfcorrect", {**LOCAL, "complete": False}, [["start", SOLVED8]], 2, "last board is a solution"),
    ("selfcorrect", {**LOCAL, "problem": Problem(1)}, [["start", [0]], ["move", 0, 0]], 2, "first solution"),
    ("minconflicts", LOCAL, [["start", [0] * 8]], 1, "permutation"),
    ("minconflicts", LOCAL, [["start", list(range(8))], ["swap", 2, 2]], 2, "different rows"),
    ("ga", LOCAL, [["best", 0, [0] * 8], ["best", 2, [0] * 8]], 2, "generation 1 is next"),
    ("ga", {**LOCAL, "problem": Problem(2)}, [["best", 0, [0, 1]]], 1, "no solution"),
    ("orbit-search", {"options": {"strategy": "bfs"}}, [["orbit", 1, [0] * 8, "Inc(0.5, 3.5)"]], 1, "board is not"),
    (
        "orbit-search",
        {"options": {"strategy": "bfs"}},
        [["orbit", 1, SOLVED8, "Inc(0.5, 3.5)"], ["orbit", 1, [7, 3, 0, 2, 5, 1, 6, 4], "Inc(1, 2)"]],
        2,
        "reached once",
    ),
    ("orbit-search", {"options": {"strategy": "bfs"}}, [["orbit", 1, SOLVED8, "rm -rf"]], 1, "notation"),
    (
        "orbit-search",
        {"options": {"strategy": "bfs"}},
        [["orbit", 1, SOLVED8, "Inc(" + "9" * 30 + ", 3)"]],
        1,
        "notation",
    ),
    ("orbit-search", {"options": {"strategy": "bfs"}}, [["orbit", 2, SOLVED8, "Mov(1, 2)"]], 1, "no orbit was reached"),
]


@pytest.mark.parametrize(("method", "header", "steps", "bad", "words"), IMPOSSIBLE)
def test_an_impossible_step_sequence_is_refused_with_its_step_and_never_drawn(
    tmp_path, method, header, steps, bad, words
):
    path = _file(tmp_path, steps, method=method, **header)
    with pytest.raises(InvalidTrace, match=rf"step {bad} .*{words}"):
        read_trace(path)
    out = tmp_path / "t.svg"
    assert main(["replay", str(path), "--svg", str(out)]) == 2
    assert not out.exists()


def test_the_impossible_solution_is_refused_on_the_command_line(tmp_path, capsys):
    path = _file(tmp_path, [["place", 0, 0], ["place", 1, 1], ["solution"]])
    assert main(["replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["kind"] == "InvalidTrace"
    assert err.startswith("error: ") and "step 2" in err and '"solution"' not in out


# ------------------------------------------------------------------ the header


HEADERS = [
    ({"version": True}, "format version true"),
    ({"version": 2}, "format version 2"),
    ({"version": "1"}, 'format version "1"'),
    ({"base": True}, "base is true"),
    ({"base": 1}, "0-based"),
    ({"seed": 3}, "deterministic and its seed is null"),
    ({"method": "ga", "options": {}, "seed": -1}, "integer 0..9223372036854775807"),
    ({"method": "ga", "options": {}, "seed": 10**19 - 1}, "integer 0..9223372036854775807"),
    ({"method": "ga", "options": {}, "seed": 2**64}, "more than 19 digits"),
    ({"method": "ga", "options": {}, "seed": 1.5}, "integer 0.."),
    ({"method": "ga", "options": {}, "seed": None}, "records its seed"),
    ({"steps": -1}, "steps is an integer 0.."),
    ({"steps": 2**63}, "steps is an integer 0..9223372036854775807, got 9223372036854775808"),
    ({"steps": True}, "steps is an integer 0.."),
    ({"complete": "yes"}, "complete is true or false"),
    ({"comlete": True}, "did you mean 'complete'"),
    ({"options": {"solutions": -1}}, "solutions is an integer >= 0"),
    ({"options": {"solutions": 1, "extra": 2}}, "options of backtrack are an object with solutions"),
    ({"method": "orbit-search", "options": {"strategy": "xfs"}}, "strategy is bfs or dfs"),
    ({"n": 9}, "n is 9, its problem's 8"),
    ({"n": True}, "n is true"),
    ({"problem": Problem(8, toroidal=True), "method": "minconflicts", "seed": 0, "options": {}}, "standard problem"),
    ({"problem": Problem(65), "n": 65}, "n <= 64"),
    ({"method": "aco"}, "unknown method"),
]


@pytest.mark.parametrize(("change", "words"), HEADERS)
def test_every_header_field_is_checked_for_type_and_range(tmp_path, change, words):
    with pytest.raises(InvalidTrace, match=re.escape(words)):
        read_trace(_file(tmp_path, [], **change))


def test_a_missing_header_field_is_named(tmp_path):
    path = _file(tmp_path, [])
    head = json.loads(path.read_text())
    del head["options"]
    path.write_text(json.dumps(head) + "\n")
    with pytest.raises(InvalidTrace, match="the header has no options"):
        read_trace(path)


def test_a_repeated_key_and_nan_are_refused(tmp_path):
    path = _file(tmp_path, [])
    text = path.read_text()
    (tmp_path / "dup.jsonl").write_text(text.replace('"steps": 0', '"steps": 0, "steps": 0'))
    (tmp_path / "nan.jsonl").write_text(text.replace('"steps": 0', '"steps": NaN'))
    with pytest.raises(InvalidTrace, match="appears twice"):
        read_trace(tmp_path / "dup.jsonl")
    with pytest.raises(InvalidTrace, match="NaN"):
        read_trace(tmp_path / "nan.jsonl")


# ------------------------------------------------------------------ bombs and limits


def _bounded(call, seconds: float = 20.0):
    """``call()`` in a thread; fails (instead of hanging the suite) if it has not returned
    within ``seconds``. The wide margin holds on a busy machine; every case here returns
    in milliseconds when correct and never when broken."""
    result: dict = {}

    def run():
        try:
            result["value"] = call()
        except BaseException as e:
            result["error"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"no answer within {seconds} s: a hang"
    if "error" in result:
        raise result["error"]
    return result.get("value")


def test_nesting_and_long_numbers_are_refused_before_parsing(tmp_path):
    head = json.loads(_file(tmp_path, []).read_text())
    cases = {
        "deep-header.jsonl": "[" * 100_000 + "]" * 100_000 + "\n",
        "deep-problem.jsonl": json.dumps({**head, "options": 0}).replace(
            '"options": 0', '"options": ' + "[" * 20 + "]" * 20
        )
        + "\n",
        "digits.jsonl": json.dumps(head).replace('"n": 8', '"n": ' + "9" * 5000) + "\n",
        "step-digits.jsonl": json.dumps({**head, "steps": 1}) + '\n["place", 0, ' + "1" * 25 + "]\n",
        "step-deep.jsonl": json.dumps({**head, "steps": 1}) + '\n[[["place"]], 0, 0]\n',
    }
    words = {
        "deep-header.jsonl": "nested deeper",
        "deep-problem.jsonl": "nested deeper",
        "digits.jsonl": "more than 19 digits",
        "step-digits.jsonl": "more than 19 digits",
        "step-deep.jsonl": "nested deeper",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(InvalidTrace, match=words[name]):
            _bounded(lambda name=name: read_trace(tmp_path / name))


def test_a_file_beyond_the_declared_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    assert limits.DECLARED["reading a trace file"].largest == fileformat.MAX_BYTES
    small = limits.Limit("reading a trace file", 100, "bytes", "a test's limit", forceable=False)
    monkeypatch.setattr(fileformat, "TRACE_FILE", small)
    path = write_trace(record(8, "backtrack"), tmp_path / "t.jsonl")
    with pytest.raises(TooLarge, match=r"reading the trace file .* bytes\) is beyond its limit bytes <= 100"):
        read_trace(path)


def test_a_huge_board_is_refused_for_its_memory_before_any_array(tmp_path, monkeypatch):
    monkeypatch.setattr(validate, "available_memory", lambda: 10**9)
    huge = Problem(2**31 - 1)
    path = _file(tmp_path, [], problem=huge, method="minconflicts", seed=0, options={})
    with pytest.raises(TooLarge, match="needs about .* of memory, but only 1.0 GB"):
        _bounded(lambda: read_trace(path))
    assert main(["replay", str(path), "--frames", str(tmp_path / "f.png")]) == 2
    assert not (tmp_path / "f.png").exists()


def test_pipes_devices_and_directories_are_refused_before_opening(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    try:
        for path, words in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"), (tmp_path, "directory")):
            with pytest.raises(QueensError, match=words):
                _bounded(lambda path=path: read_trace(path))
            assert _bounded(lambda path=path: main(["replay", str(path)])) == 2
    finally:
        # a reader blocked on the pipe (the defect) would wait for a writer: let it go
        fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        os.close(fd)


def test_open_regular_refuses_what_is_not_a_regular_file(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    with open_regular(tmp_path / "f.txt", "the test file") as fh:
        assert fh.read() == b"x"
    for bad in ("", 5, tmp_path / "missing", tmp_path, "/dev/null"):
        with pytest.raises(QueensError):
            open_regular(bad, "the test file")


# ------------------------------------------------------------------ one output policy


@pytest.fixture
def trace_file(tmp_path):
    return write_trace(record(6, "backtrack"), tmp_path / "t.jsonl")


def test_an_output_equal_to_the_input_is_refused_and_the_input_kept(tmp_path, trace_file, capsys):
    before = Path(trace_file).read_bytes()
    (tmp_path / "link.jsonl").symlink_to(trace_file)
    os.link(trace_file, tmp_path / "hard.jsonl")
    for flag in ("--svg", "--gif", "--frames", "--tree", "--mp4"):
        for name in (trace_file, str(tmp_path / "link.jsonl"), str(tmp_path / "hard.jsonl"), "./t.jsonl"):
            os.chdir(tmp_path)
            assert main(["replay", str(trace_file), flag, name]) == 2
            assert "itself" in capsys.readouterr().err
    assert Path(trace_file).read_bytes() == before


def test_two_outputs_to_one_file_are_refused_before_anything_is_written(tmp_path, trace_file, capsys):
    os.chdir(tmp_path)
    assert main(["replay", trace_file, "--svg", "a.svg", "--gif", "./a.svg"]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert not (tmp_path / "a.svg").exists()
    assert main(["replay", trace_file, "--svg", "a.svg", "--gif", "a.gif"]) == 0
    assert (tmp_path / "a.svg").exists() and (tmp_path / "a.gif").exists()


def test_other_commands_keep_their_inputs(tmp_path, capsys):
    os.chdir(tmp_path)
    assert main(["solve", "8", "--out", "q.npy"]) == 0
    before = (tmp_path / "q.npy").read_bytes()
    assert main(["show", "--from", "q.npy", "--png", "q.npy"]) == 2
    assert (tmp_path / "q.npy").read_bytes() == before
    (tmp_path / "p.toml").write_text("n = 6\n")
    assert main(["solutions", "--problem", "p.toml", "--out", "p.toml"]) == 2
    assert (tmp_path / "p.toml").read_text() == "n = 6\n"
    assert main(["watch", "6", "--problem", "p.toml", "--record", "p.toml"]) == 2
    assert "itself" in capsys.readouterr().err


def test_empty_names_are_refused(tmp_path, trace_file, capsys):
    os.chdir(tmp_path)
    assert main(["replay", ""]) == 2
    assert main(["replay", trace_file, "--svg", ""]) == 2
    assert main(["experiment", "growth", "--ns", "8", "--samples", "10", "--out", ""]) == 2
    assert "empty" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_check_distinct_and_same_file(tmp_path):
    (tmp_path / "a").write_text("x")
    os.link(tmp_path / "a", tmp_path / "b")
    assert same_file(tmp_path / "a", tmp_path / "b")
    assert same_file(tmp_path / "c", tmp_path / "." / "c")
    assert not same_file(tmp_path / "a", tmp_path / "c")
    check_distinct({"FILE": tmp_path / "a"}, {"--svg": tmp_path / "c", "--gif": None, "--png": tmp_path / "d"})
    with pytest.raises(QueensError, match="itself"):
        check_distinct({"FILE": tmp_path / "a"}, {"--svg": tmp_path / "b"})
    with pytest.raises(QueensError, match="name the same file"):
        check_distinct({}, {"--svg": tmp_path / "c", "--gif": tmp_path / "c"})


# ------------------------------------------------------------------ numbers and combinations


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "20", "--time-limit", "1e308"],
        ["estimate", "20", "--time-limit", "inf"],
        ["count", "8", "--time-limit", "1e10"],
        ["count", "20", "--estimate-cost", "--verify", "3"],
        ["count", "10", "--verify-method", "general"],
        ["watch", "8", "--seed", "-1", "--method", "ga"],
    ],
)
def test_numbers_out_of_range_and_ignored_options_are_refused(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_time_limits_are_finite_and_bounded():
    assert validate.positive_seconds(validate.MAX_SECONDS) == validate.MAX_SECONDS
    for bad in (float("inf"), 1e308, validate.MAX_SECONDS * 2, float("nan"), 0, -1):
        with pytest.raises(QueensError, match="at most|up to"):
            validate.positive_seconds(bad)


def test_a_ledger_of_another_problem_is_refused_before_the_kernels_compile(tmp_path, monkeypatch):
    from queenslab.distributed import ledger as L, runner

    path = tmp_path / "q.ledger"
    runner.count(Problem(6), ledger=path)
    started = []
    monkeypatch.setattr(runner, "_warm_up", lambda *a: started.append(a))
    monkeypatch.setattr(runner.engine, "split_tasks", lambda *a, **k: started.append(a))
    with pytest.raises(L.InvalidLedger, match="not of 7-queens"):
        runner.count(Problem(7), ledger=path)
    assert not started, "the kernels were prepared before the ledger was refused"


# ------------------------------------------------------------------ damaged files

SNIPPETS = [
    "[",
    "]",
    "{",
    "}",
    '"',
    "\\",
    ",",
    "NaN",
    "1e999",
    "-",
    "9" * 30,
    "\n",
    "\r",
    "\x00",
    "é",
    '{"a": 1}',
    "[[[[",
]
FILES = [t for t in TRACES if 1 <= len(t.steps) <= 200]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_a_damaged_trace_file_is_read_whole_or_refused_with_a_queens_error(data, tmp_path_factory):
    trace = data.draw(st.sampled_from(FILES), label="trace")
    path = write_trace(trace, tmp_path_factory.mktemp("damaged") / "t.jsonl")
    text = Path(path).read_text()
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        i = data.draw(st.integers(0, len(text)), label="at")
        kind = data.draw(st.sampled_from(["insert", "delete", "truncate"]), label="kind")
        if kind == "insert":
            text = text[:i] + data.draw(st.sampled_from(SNIPPETS), label="snippet") + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + data.draw(st.integers(1, 40), label="length") :]
        else:
            text = text[:i]
    Path(path).write_text(text)
    try:
        again = _bounded(lambda: read_trace(path))
    except QueensError:
        return
    # read whole: the steps are every line's, and both the rules and the naive rules accept them
    assert len(again.steps) == json.loads(text.split("\n")[0])["steps"]
    assert trace_violation(again.method, again.problem, _lines(again), again.options, again.complete) is None


def test_a_trace_cut_short_or_with_more_lines_is_refused(tmp_path):
    path = write_trace(record(8, "backtrack"), tmp_path / "t.jsonl")
    lines = Path(path).read_text().splitlines(keepends=True)
    Path(path).write_text("".join(lines[:-1]))
    with pytest.raises(InvalidTrace, match="cut short"):
        read_trace(path)
    Path(path).write_text("".join(lines) + lines[-1])
    with pytest.raises(InvalidTrace, match="holds more"):
        read_trace(path)


def test_an_address_space_cap_is_memory_not_available(tmp_path):
    """Under ``ulimit -v`` the memory estimates compare with the room under the cap: a
    trace whose boards fit the machine's memory but not the cap is refused before any
    array, with exit 2 and no MemoryError."""
    import resource
    import subprocess
    import sys

    n = 2 * 10**8  # its replay boards take 6.4 GB: more than a 4 GiB cap holds
    path = _file(tmp_path, [], problem=Problem(n), method="minconflicts", seed=0, options={})
    cap = 4 * 2**30

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    run = subprocess.run(
        [sys.executable, "-m", "queenslab", "replay", str(path)],
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("error: ") and "needs about 6.4 GB" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_watch_without_a_terminal_stops_on_ctrl_c(json_flag, tmp_path):
    """Without a terminal the walk runs at full speed, its events turned into steps a few
    tens of thousands at a time: Ctrl-C stops it within about a second (10 s allowed on a
    busy machine; the whole walk takes minutes), with exit 130 and no trace written."""
    import signal
    import subprocess
    import sys

    from clirun import wait_until_working

    out = tmp_path / "t.jsonl"
    argv = ["watch", "14", "--solutions", "0", "--max-steps", "50000000", "--record", str(out), *json_flag]
    proc = subprocess.Popen(
        [sys.executable, "-m", "queenslab", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    wait_until_working(proc, cpu=3.0)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        err = proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("watch was still running a minute after SIGINT")
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert time.monotonic() - sent < 10
    assert not out.exists()


@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_a_refused_output_leaves_every_output_unwritten(tmp_path, capsys):
    """replay writes all its outputs or none: a picture refused after the SVG was drawn
    leaves neither, and a file already at the SVG's name keeps its content."""
    os.chdir(tmp_path)
    path = write_trace(record(8, "backtrack", solutions=0), tmp_path / "t.jsonl")
    (tmp_path / "old.svg").write_text("keep me")
    # every step of a 3,469-step trace: far more than a GIF or a strip draws
    assert main(["replay", path, "--svg", "old.svg", "--gif", "g.gif", "--frames", "f.png", "--every", "1"]) == 2
    assert "beyond its" in capsys.readouterr().err
    assert (tmp_path / "old.svg").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.svg", "t.jsonl"]
    assert main(["replay", path, "--svg", "old.svg", "--gif", "g.gif", "--frames", "f.png"]) == 0
    assert (tmp_path / "old.svg").read_text().startswith("<svg") and (tmp_path / "g.gif").exists()


def test_a_last_line_without_its_line_break_is_read_and_a_cut_one_refused(tmp_path):
    path = write_trace(record(6, "backtrack"), tmp_path / "t.jsonl")
    text = Path(path).read_text()
    Path(path).write_text(text[:-1])  # an editor dropped the last line break
    assert read_trace(path).steps == record(6, "backtrack").steps
    Path(path).write_text(text[:-4])
    with pytest.raises(InvalidTrace, match="last line is incomplete"):
        read_trace(path)
    (tmp_path / "h.jsonl").write_bytes(b"\xff" + text.split("\n")[0].encode())
    with pytest.raises(InvalidTrace, match="not UTF-8"):
        read_trace(tmp_path / "h.jsonl")


@pytest.mark.parametrize(("flag", "name"), [("--svg", "a.gif"), ("--gif", "a.svg"), ("--mp4", "a.gif")])
def test_an_animation_under_another_format_s_suffix_is_refused(tmp_path, trace_file, flag, name, capsys):
    os.chdir(tmp_path)
    assert main(["replay", trace_file, flag, name]) == 2
    assert "give a name ending in" in capsys.readouterr().err and not (tmp_path / name).exists()
