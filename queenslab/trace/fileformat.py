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

A reader of another version, a file that is not a trace, a step that does not fit the
board and a file cut short are refused with :class:`InvalidTrace`.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from .. import validate
from ..errors import QueensError
from ..outfile import atomic_output
from ..problem import Problem
from .steps import METHODS, Step, Trace

__all__ = ["FORMAT", "VERSION", "InvalidTrace", "write_trace", "read_trace", "step_json"]

FORMAT = "queenslab-trace"
VERSION = 1


class InvalidTrace(QueensError):
    """A trace file that cannot be read: not a trace, another version, cut short or corrupt."""


def step_json(step: Step) -> list[Any]:
    """A step as its JSON line's value (see the module docstring).

    Examples
    --------
    >>> step_json(Step("orbit", col=1, board=(1, 3, 0, 2), operator="Inc(0.5, 3.5)"))
    ['orbit', 1, [1, 3, 0, 2], 'Inc(0.5, 3.5)']
    """
    op = step.op
    if op in ("place", "move", "swap"):
        return [op, step.row, step.col]
    if op == "remove":
        return [op, step.row]
    if op == "start":
        return [op, list(step.board or ())]
    if op == "best":
        return [op, step.col, list(step.board or ())]
    if op == "orbit":
        return [op, step.col, list(step.board or ()), step.operator]
    return [op]


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
        For a path that cannot be written (see :func:`queenslab.outfile.output_target`).
    """
    with atomic_output(path, "w", what="trace file") as fh:
        fh.write(json.dumps(header(trace), separators=(",", ":")) + "\n")
        for step in trace.steps:
            fh.write(json.dumps(step_json(step), separators=(",", ":")) + "\n")
    return str(path)


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
        raise InvalidTrace(f"{where}: unknown step {validate.brief(op)}; the steps are {', '.join(_ARITY)}")
    if len(args) != _ARITY[op]:
        raise InvalidTrace(f"{where}: a {op} step has {_ARITY[op]} value(s) after its op, got {len(args)}")
    if op in ("place", "move", "remove", "swap"):
        if not all(_is_int(a) and 0 <= a < n for a in args):
            raise InvalidTrace(f"{where}: rows and columns are 0..{n - 1} (0-based), got {validate.brief(args)}")
        return Step(op, args[0], args[1] if len(args) > 1 else -1)
    if op == "start":
        return Step(op, board=_board(args[0], n, where))
    if op in ("best", "orbit"):
        if not (_is_int(args[0]) and args[0] >= 0):
            raise InvalidTrace(f"{where}: a generation is an integer >= 0, got {validate.brief(args[0])}")
        operator = None
        if op == "orbit":
            if not isinstance(args[2], str):
                raise InvalidTrace(f"{where}: an orbit step ends with its operator, a string")
            operator = args[2]
        return Step(op, col=args[0], board=_board(args[1], n, where), operator=operator)
    return Step(op)


_ARITY = {"place": 2, "move": 2, "remove": 1, "swap": 2, "start": 1, "best": 2, "orbit": 3, "solution": 0}


def _header(line: str, shown: str) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except json.JSONDecodeError:
        head = None
    if not (isinstance(head, dict) and head.get("format") == FORMAT):
        raise InvalidTrace(f"{shown} is not a queenslab trace: its first line is not a {FORMAT!r} header")
    if head.get("version") != VERSION:
        raise InvalidTrace(
            f"{shown} is a trace of format version {validate.brief(head.get('version'))}; this queenslab reads "
            f"version {VERSION} (record it again with this version)"
        )
    if head.get("base", 0) != 0:
        raise InvalidTrace(f"{shown}: the header's base is {validate.brief(head.get('base'))}; trace steps are 0-based")
    if head.get("method") not in METHODS:
        raise InvalidTrace(f"{shown}: unknown method {validate.brief(head.get('method'))}; traces are of {METHODS}")
    if not (_is_int(head.get("steps")) and head["steps"] >= 0 and isinstance(head.get("complete"), bool)):
        raise InvalidTrace(f"{shown}: the header's steps (an integer >= 0) or complete (a boolean) is missing")
    seed = head.get("seed")
    if not (seed is None or _is_int(seed)) or not isinstance(head.get("options", {}), dict):
        raise InvalidTrace(f"{shown}: the header's seed is an integer or null, its options an object")
    return head


#: The longest header line read (its problem may list many cells).
HEADER_BYTES = 1 << 24
#: Bytes a trace takes in memory per byte of its file, at most (measured on every method's traces).
MEMORY_PER_BYTE = 16


def read_trace(path: object) -> Trace:
    """Read a trace file written by :func:`write_trace`.

    The file is read line by line, each line at most as long as a step of its board can
    be, and refused up front when its steps could outgrow the memory available.

    Raises
    ------
    InvalidTrace
        Not a trace, another format version, a step that does not fit the board, or a
        file cut short (fewer steps than its header says, or a last line cut off).
    QueensError
        A path that cannot be read (missing, a directory, a device).
    TooLarge
        A file whose steps would not fit in memory.
    """
    p = validate.path(path, "trace file")
    shown = repr(str(path))
    try:
        fh = open(p, "rb")  # noqa: SIM115 (closed below, also on errors)
    except OSError as e:
        raise QueensError(f"cannot read the trace file {shown}: {e.strerror or e}") from None
    with fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise QueensError(f"the trace file {shown} is not a regular file (a directory, a device or a pipe)")
        validate.memory(info.st_size * MEMORY_PER_BYTE, f"reading the trace file {shown}", "record a shorter trace")
        try:
            return _read(fh, shown)
        except UnicodeDecodeError:
            raise InvalidTrace(f"{shown} is not a queenslab trace: it is not UTF-8 text") from None
        except OSError as e:
            raise QueensError(f"cannot read the trace file {shown}: {e.strerror or e}") from None


def _read(fh: Any, shown: str) -> Trace:
    first = fh.readline(HEADER_BYTES)
    head = _header(first.decode("utf-8") if first.endswith(b"\n") else "", shown)
    try:
        problem = Problem.from_dict(head.get("problem"))  # type: ignore[arg-type]
    except QueensError as e:
        raise InvalidTrace(f"{shown}: the header's problem is invalid: {e}") from None
    if head.get("n") != problem.n:
        raise InvalidTrace(f"{shown}: the header's n is {head.get('n')!r}, its problem's {problem.n}")
    n = problem.n
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
                    f"{shown}, line {line_no}: longer than any step of an {n}-board; the file is corrupt"
                )
            raise InvalidTrace(f"{cut}, and its last line is incomplete; record the trace again")
        if len(steps) == want:
            raise InvalidTrace(f"{shown}: its header announces {want} steps, the file holds more")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            raise InvalidTrace(f"{shown}, line {line_no}: not JSON; the file is corrupt") from None
        steps.append(_step(value, n, f"{shown}, line {line_no}"))
    if len(steps) < want:
        raise InvalidTrace(f"{cut}, the file holds {len(steps)}; record the trace again")
    return Trace(head["method"], problem, head.get("seed"), tuple(steps), head["complete"], head.get("options", {}))
