"""The trace file: JSON lines, a header then one line per step, written whole or not at all.

Format ``queenslab-trace``, version 1 (UTF-8 text, one JSON value per line)::

    {"format": "queenslab-trace", "version": 1, "base": 0, "method": "selfcorrect", "seed": 0, "n": 8,
     "problem": {...}, "options": {}, "steps": 117, "complete": true}
    ["start", [3, 5, 0, 0, 6, 2, 1, 4]]
    ["move", 1, 6]
    ...

The header's ``problem`` is :meth:`Problem.to_dict <queenslab.problem.Problem.to_dict>`
(it records its own base); ``steps`` is the number of step lines that follow, so a file
cut short is recognised. Rows and columns in the steps are **0-based** (``base``), as in the
Python API and in ``.npy`` files, for the programs that read traces; a board is a list of columns by row, -1 for an empty row. The steps:

=================================  ==========================================
line                               step
=================================  ==========================================
``["place", r, c]``                a queen put on the empty row r, column c
``["move", r, c]``                 the queen of row r moves to column c
``["remove", r]``                  the queen of row r taken off
``["swap", r, r2]``                rows r and r2 exchange their columns
``["start", board]``               a try's start
``["best", g, board]``             the best individual of generation g
``["orbit", g, board, "Inc(...)"]``  a new orbit's generator, generation g
``["solution"]``                   the board is a solution
=================================  ==========================================

A trace file is input like a problem file, and :func:`read_trace` refuses with
:class:`~queenslab.errors.InvalidTrace` (before anything is drawn) a file that is not a
trace, of another version, larger than :data:`MAX_BYTES`, nested deeper than a trace can
be, with a number of more than :data:`MAX_DIGITS` digits, a header field of the wrong
type or range, a step that does not fit the board, a step that the method it names
cannot take (:mod:`queenslab.trace.rules`), or a file cut short. The message names the
line or the step and the rule.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np

from .. import limits, validate
from ..errors import InvalidTrace, QueensError
from ..infile import open_regular
from ..outfile import atomic_output
from ..problem import Problem
from .rules import check_steps, checked
from .steps import METHODS, Step, Trace, mark_checked, step_json

__all__ = ["FORMAT", "VERSION", "InvalidTrace", "write_trace", "read_trace", "step_json"]

FORMAT = "queenslab-trace"
VERSION = 1


def header(trace: Trace) -> dict[str, Any]:
    """The header line's object."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "base": 0,
        "method": trace.method,
        "seed": trace.seed,
        "n": trace.n,
        "problem": trace.problem.to_dict(),
        "options": dict(trace.options),
        "steps": len(trace.steps),
        "complete": trace.complete,
    }


def write_trace(trace: Trace, path: object) -> str:
    """Write ``trace`` to ``path`` (whole or not at all); returns the path.

    Raises
    ------
    QueensError
        For a path that cannot be written (see :func:`queenslab.outfile.output_target`),
        or a ``trace`` that is not a Trace.
    InvalidTrace
        A trace made in Python whose steps its method cannot take (:func:`~queenslab.trace.rules.checked`).
    """
    trace = checked(trace)
    with atomic_output(path, "w", what="trace file") as fh:
        fh.write(json.dumps(header(trace), separators=(",", ":")) + "\n")
        for step in trace.steps:
            fh.write(json.dumps(step_json(step), separators=(",", ":")) + "\n")
    return str(path)


def _shown(value: object, limit: int = 60) -> str:
    """A value of the file as JSON writes it (``null``, ``true``, ``"x"``), shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _board(value: object, n: int, where: str) -> tuple[int, ...]:
    if not (isinstance(value, list) and len(value) == n and all(_is_int(c) and -1 <= c < n for c in value)):
        raise InvalidTrace(f"{where}: a board is a list of {n} columns (0..{n - 1}, -1 for an empty row)")
    return tuple(value)


def _step(value: object, n: int, where: str) -> Step:
    """One step line's value as a Step, checked against the board size."""
    if not (isinstance(value, list) and value and isinstance(value[0], str)):
        raise InvalidTrace(f"{where}: a step is a JSON list starting with its op ({', '.join(_ARITY)})")
    op, args = value[0], value[1:]
    if op not in _ARITY:
        raise InvalidTrace(f"{where}: unknown step {_shown(op)}; the steps are {', '.join(_ARITY)}")
    if len(args) != _ARITY[op]:
        raise InvalidTrace(f"{where}: a {op} step has {_ARITY[op]} value(s) after its op, got {len(args)}")
    if op in ("place", "move", "remove", "swap"):
        if not all(_is_int(a) and 0 <= a < n for a in args):
            raise InvalidTrace(f"{where}: rows and columns are 0..{n - 1} (0-based), got {_shown(args)}")
        return Step(op, args[0], args[1] if len(args) > 1 else -1)
    if op == "start":
        return Step(op, board=_board(args[0], n, where))
    if op in ("best", "orbit"):
        if not (_is_int(args[0]) and args[0] >= 0):
            raise InvalidTrace(f"{where}: a generation is an integer >= 0, got {_shown(args[0])}")
        operator = None
        if op == "orbit":
            if not isinstance(args[2], str):
                raise InvalidTrace(f"{where}: an orbit step ends with its operator, a string")
            operator = args[2]
        return Step(op, col=args[0], board=_board(args[1], n, where), operator=operator)
    return Step(op)


_ARITY = {"place": 2, "move": 2, "remove": 1, "swap": 2, "start": 1, "best": 2, "orbit": 3, "solution": 0}

#: The largest trace file read: a trace of millions of steps (the steps are kept in memory).
MAX_BYTES = 1 << 30
TRACE_FILE = limits.declare(
    "reading a trace file",
    MAX_BYTES,
    "bytes",
    "every step is kept in memory and checked; a trace of a few million steps is far smaller: record fewer steps, "
    "max_steps=K (--max-steps K)",
    forceable=False,
)
#: The longest header line read (its problem may list many cells).
HEADER_BYTES = 1 << 24
#: Bytes a trace takes in memory per byte of its file, at most (measured on every method's traces).
MEMORY_PER_BYTE = 16
#: The deepest nesting of JSON arrays and objects in a header (its problem's regions need 4).
HEADER_DEPTH = 16
#: The most digits a number of a trace may have: a 64-bit integer has at most 19.
MAX_DIGITS = 19
#: The keys of a header, each required.
HEADER_KEYS = ("format", "version", "base", "method", "seed", "n", "problem", "options", "steps", "complete")
#: The options each method's header holds, with their types.
OPTIONS = {"backtrack": ("solutions",), "orbit-search": ("strategy",)}
#: The seeded methods (the others' seed is null).
SEEDED = ("selfcorrect", "minconflicts", "ga")

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_DIGITS = re.compile(rb"[0-9]{%d}" % (MAX_DIGITS + 1))
_OPEN = np.zeros(256, np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1


class _NotJSON(InvalidTrace):
    """A line that is not JSON at all (for the header: not a trace)."""


def _no_constant(name: str) -> None:
    raise InvalidTrace(f"{name} is not a number a trace holds (JSON has no NaN or Infinity)")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidTrace(f"the key {_shown(key)} appears twice in one object")
        out[key] = value
    return out


def _json(raw: bytes, where: str, *, depth: int) -> Any:
    """One line's JSON value, after the limits that keep the parser bounded: nesting at
    most ``depth`` deep and no number of more than :data:`MAX_DIGITS` digits (both
    checked outside strings, before parsing: the parser recurses on nesting and converts
    long integers in quadratic time)."""
    bare = _STRING.sub(b'""', raw)
    if _DIGITS.search(bare):
        raise InvalidTrace(f"{where}: a number of more than {MAX_DIGITS} digits; trace numbers are 64-bit integers")
    if depth <= 2:  # a step line: a list, and in it at most a board
        deep = bare.count(b"[") > depth or b"{" in bare
    else:
        deep = bool(bare) and int(np.cumsum(_OPEN[np.frombuffer(bare, np.uint8)], dtype=np.int64).max()) > depth
    if deep:
        raise InvalidTrace(f"{where}: nested deeper than a trace's lines can be ({depth} levels); the file is corrupt")
    try:
        return json.loads(raw, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except InvalidTrace as e:
        raise InvalidTrace(f"{where}: {e}") from None
    except (ValueError, RecursionError):  # JSONDecodeError, a bad escape or encoding
        raise _NotJSON(f"{where}: not JSON; the file is corrupt") from None


def _header(line: bytes, shown: str, last: bool) -> tuple[dict[str, Any], Problem]:
    """The header's fields, each checked for its type and range, and its problem (``last``:
    the file ends with this line, which may then lack its line break)."""
    if not line.endswith(b"\n") and not last:
        raise InvalidTrace(
            f"{shown}: its first line is longer than a header may be ({HEADER_BYTES:,} bytes); it is not a "
            f"queenslab trace, or its header is corrupt"
        )
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidTrace(f"{shown}: its first line is not UTF-8 text, so not a queenslab trace header") from None
    try:
        head = _json(line, f"{shown}, line 1", depth=HEADER_DEPTH)
    except _NotJSON:
        head = None
    if not (isinstance(head, dict) and head.get("format") == FORMAT):
        raise InvalidTrace(f"{shown} is not a queenslab trace: its first line is not a {FORMAT!r} header")
    version = head.get("version")
    if not (_is_int(version) and version == VERSION):
        raise InvalidTrace(
            f"{shown} is a trace of format version {_shown(version)}; this queenslab reads "
            f"version {VERSION} (an integer; record it again with this version)"
        )
    unknown = sorted(set(head) - set(HEADER_KEYS))
    if unknown:
        hint = validate.did_you_mean(unknown[0], HEADER_KEYS)
        raise InvalidTrace(
            f"{shown}: unknown header key {_shown(unknown[0])}{hint}; a header has {', '.join(HEADER_KEYS)}"
        )
    missing = [key for key in HEADER_KEYS if key not in head]
    if missing:
        raise InvalidTrace(f"{shown}: the header has no {', '.join(missing)}; a header has {', '.join(HEADER_KEYS)}")
    if not (_is_int(head["base"]) and head["base"] == 0):
        raise InvalidTrace(f"{shown}: the header's base is {_shown(head['base'])}; trace steps are 0-based (0)")
    method = head["method"]
    if method not in METHODS:
        raise InvalidTrace(f"{shown}: unknown method {_shown(method)}; traces are of {', '.join(METHODS)}")
    if not (_is_int(head["steps"]) and 0 <= head["steps"] <= validate.INT64_MAX):
        raise InvalidTrace(
            f"{shown}: the header's steps is an integer 0..{validate.INT64_MAX}, got {_shown(head['steps'])}"
        )
    if not isinstance(head["complete"], bool):
        raise InvalidTrace(f"{shown}: the header's complete is true or false, got {_shown(head['complete'])}")
    seed = head["seed"]
    if method in SEEDED:
        if not (_is_int(seed) and 0 <= seed <= validate.INT64_MAX):
            raise InvalidTrace(
                f"{shown}: {method} records its seed, an integer 0..{validate.INT64_MAX}; got {_shown(seed)}"
            )
    elif seed is not None:
        raise InvalidTrace(f"{shown}: {method} is deterministic and its seed is null, got {_shown(seed)}")
    _options(head["options"], method, shown)
    if not isinstance(head["problem"], dict):
        raise InvalidTrace(f"{shown}: the header's problem is an object (Problem.to_dict)")
    try:
        problem = Problem.from_dict(head["problem"])
    except QueensError as e:
        raise InvalidTrace(f"{shown}: the header's problem is invalid: {e}") from None
    if not (_is_int(head["n"]) and head["n"] == problem.n):
        raise InvalidTrace(f"{shown}: the header's n is {_shown(head['n'])}, its problem's {problem.n}")
    if method != "backtrack" and not problem.is_standard:
        raise InvalidTrace(
            f"{shown}: {method} is traced on the standard problem only, and the header's problem is "
            f"{problem.describe()}; backtrack traces variants"
        )
    if method == "backtrack" and problem.n > 64:
        raise InvalidTrace(
            f"{shown}: backtracking is traced on the native engine's 64-bit rows: n <= 64, got {problem.n}"
        )
    return head, problem


def _options(options: object, method: str, shown: str) -> None:
    keys = OPTIONS.get(method, ())
    if not (isinstance(options, dict) and sorted(options) == sorted(keys)):
        want = ", ".join(keys) if keys else "no key"
        raise InvalidTrace(
            f"{shown}: the header's options of {method} are an object with {want}, got {_shown(options)}"
        )
    if method == "backtrack":
        k = options["solutions"]
        if not (_is_int(k) and 0 <= k <= validate.INT64_MAX):
            raise InvalidTrace(f"{shown}: the option solutions is an integer >= 0, got {_shown(k)}")
    elif method == "orbit-search" and options["strategy"] not in ("bfs", "dfs"):
        raise InvalidTrace(f"{shown}: the option strategy is bfs or dfs, got {_shown(options['strategy'])}")


def read_trace(path: object) -> Trace:
    """Read a trace file written by :func:`write_trace`, checking it as input.

    The file is opened only if it is a regular file (a pipe or a device is refused before
    it can block), refused up front beyond :data:`MAX_BYTES` or when its steps could
    outgrow the memory available, and read line by line, each line at most as long as a
    step of its board can be and parsed only within the nesting and digit limits. Every
    header field is checked for its type and range, and every step against the board and
    the rules of the method that recorded it (:func:`queenslab.trace.rules.check_steps`).

    Raises
    ------
    InvalidTrace
        Not a trace, another format version, a header field of the wrong type or range, a
        step that does not fit the board or that the method cannot take (naming the step
        and the rule), or a file cut short (fewer steps than its header says, or a last
        line cut off).
    QueensError
        A path that cannot be read (missing, a directory, a pipe, a device).
    TooLarge
        A file beyond :data:`MAX_BYTES`, or whose steps would not fit in memory.
    """
    shown = repr(str(path)) if isinstance(path, (str, bytes)) or hasattr(path, "__fspath__") else "the trace file"
    with open_regular(path, "the trace file") as fh:
        try:
            size = os.fstat(fh.fileno()).st_size
            limits.check(TRACE_FILE, size, request=f"reading the trace file {shown} ({size:,} bytes)")
            validate.memory(size * MEMORY_PER_BYTE, f"reading the trace file {shown}", "record a shorter trace")
            return _read(fh, shown)
        except UnicodeDecodeError:
            raise InvalidTrace(f"{shown} is not a queenslab trace: it is not UTF-8 text") from None
        except OSError as e:
            raise QueensError(f"cannot read the trace file {shown}: {e.strerror or e}") from None


def _read(fh: Any, shown: str) -> Trace:
    first = fh.readline(HEADER_BYTES)
    head, problem = _header(first, shown, last=not first.endswith(b"\n") and not fh.peek(1))
    n = problem.n
    # the boards the summary and the pictures replay the steps on
    validate.memory(4 * 8 * n, f"replaying the trace file {shown} (n = {n})", "replay a trace of a smaller board")
    want = head["steps"]
    longest = 16 * n + 200  # an orbit step: n columns of up to 7 digits and 8 separators, its operator
    cut = f"{shown} is cut short: its header announces {want} steps"
    steps: list[Step] = []
    line_no = 1
    while True:
        raw = fh.readline(longest + 1)
        if not raw:
            break
        line_no += 1
        if not raw.endswith(b"\n"):
            if len(raw) > longest:
                raise InvalidTrace(
                    f"{shown}, line {line_no}: longer than any step of a board of n = {n}; the file is corrupt"
                )
            # the last line without its line break: a whole step (an editor may drop the
            # break) is read, a step cut off is the end of a file cut short
            try:
                value = _json(raw, f"{shown}, line {line_no}", depth=2)
            except _NotJSON:
                raise InvalidTrace(f"{cut}, and its last line is incomplete; record the trace again") from None
            if len(steps) == want:
                raise InvalidTrace(f"{shown}: its header announces {want} steps, the file holds more")
            steps.append(_step(value, n, f"{shown}, line {line_no}"))
            break
        if len(steps) == want:
            raise InvalidTrace(f"{shown}: its header announces {want} steps, the file holds more")
        where = f"{shown}, line {line_no}"
        raw.decode("utf-8")  # text: a UnicodeDecodeError is reported by read_trace
        if b"{" in _STRING.sub(b'""', raw):
            raise InvalidTrace(f"{where}: a step is a JSON list (its op, then its values), not an object")
        steps.append(_step(_json(raw, where, depth=2), n, where))
    if len(steps) < want:
        raise InvalidTrace(f"{cut}, the file holds {len(steps)}; record the trace again")
    try:
        check_steps(head["method"], problem, steps, head["options"], head["complete"])
    except InvalidTrace as e:
        raise InvalidTrace(f"{shown}, {e}; the trace is not drawn") from None
    return mark_checked(Trace(head["method"], problem, head["seed"], tuple(steps), head["complete"], head["options"]))
