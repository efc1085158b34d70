"""Problem files: a variant written down once, in TOML, with 1-based cells.

A problem file holds the keys of :class:`~queenslab.problem.Problem` -- ``n``,
``columns`` and ``queens`` (k queens on an n x columns board; default n), ``toroidal``,
``knight``, ``leapers``, ``blocked``, ``fixed``, ``holes`` (cells that stop the lines of
attack, read by ``queenslab optimize``) -- and one ``[[region]]`` table per region. Cells are ``[row, column]`` pairs counted from 1, as on the command
line; ``description`` may say what the problem is. Every command that takes variant flags
reads one with ``--problem FILE``::

    # eight queens, none on either long diagonal
    description = "no queen on a main diagonal"
    n = 8

    [[region]]
    diagonal = [1, 1]
    anti_diagonal = [1, 8]
    at_most = 0

A region's cells are given by any of these keys (a region with several has the cells of
all of them): ``cells`` (a list of cells), ``rows`` and ``columns`` (lists of numbers),
``rectangle`` (two opposite corners), ``diagonal`` and ``anti_diagonal`` (a cell on it, or
a list of such cells; a diagonal runs from top left to bottom right). Its bound is
``at_least``, ``at_most``, or ``exactly``.

A mistake is an :class:`~queenslab.errors.InvalidProblem` naming the file, the key and,
where it can be found, the line.
"""

from __future__ import annotations

import re
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import validate
from .constraints import Holes
from .errors import InvalidProblem, QueensError
from .outfile import atomic_output
from .problem import Problem, Region, as_problem

__all__ = ["read_problem", "write_problem", "problem_text", "problem_from_toml", "KEYS", "REGION_KEYS"]

#: The top-level keys of a problem file.
KEYS = ("description", "n", "columns", "queens", "toroidal", "knight", "leapers", "blocked", "fixed", "holes", "region")
#: The shape keys a region takes on a rectangle (the others are lines of a square board).
RECTANGLE_SHAPE_KEYS = ("cells", "rectangle")
#: The keys of a ``[[region]]`` table that give its cells (any of them, at least one).
SHAPE_KEYS = ("cells", "rows", "columns", "rectangle", "diagonal", "anti_diagonal")
#: The keys of a ``[[region]]`` table.
REGION_KEYS = (*SHAPE_KEYS, "at_least", "at_most", "exactly")
#: The largest problem file read (bytes; characters for :func:`problem_from_toml`): a
#: region of every cell of a 64 x 64 board is 60 kB.
MAX_BYTES = 2**20
#: The deepest nesting of arrays and inline tables a problem file may have (a list of
#: cells is 2 deep); deeper text is refused before it is parsed.
MAX_DEPTH = 16
#: The most parts a dotted key or table name may have (``a.b.c`` has 3): TOML parsers take
#: time quadratic in it.
MAX_KEY_PARTS = 16

# The tokens the pre-parse scan looks at, and where each kind of string or comment ends.
_TOKEN = re.compile(r"""\"\"\"|'''|"|'|#|[\[\]{}.=,\n]""")
_STRING_END = {
    '"""': re.compile(r'(?:[^\\]|\\.)*?"""', re.S),
    "'''": re.compile(r".*?'''", re.S),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*"'),
    "'": re.compile(r"[^'\n]*'"),
    "#": re.compile(r"[^\n]*"),
}


def _check_shape(text: str, name: str) -> None:
    """Refuse text too long, too deeply nested or with too long a dotted key, before parsing.

    The scan skips strings and comments; text it cannot follow (an unclosed string) is
    left to the parser, which reports the syntax error.
    """
    if len(text) > MAX_BYTES:
        raise InvalidProblem(f"{name} has {len(text):,} characters; a problem file is at most {MAX_BYTES:,}")
    depth = parts = 0
    pos = 0
    while (m := _TOKEN.search(text, pos)) is not None:
        tok = m.group()
        pos = m.end()
        if tok in _STRING_END:
            end = _STRING_END[tok].match(text, pos)
            if end is None:
                return
            pos = end.end()
        elif tok in "[{":
            depth += 1
            parts = 0
            if depth > MAX_DEPTH:
                raise InvalidProblem(
                    f"{name}{_line_of(text, m.start())}: arrays and inline tables nest more than {MAX_DEPTH} deep; "
                    "a problem file needs at most 3 (a list of [row, column] cells is 2)"
                )
        elif tok in "]}":
            depth = max(0, depth - 1)
            parts = 0
        elif tok == ".":
            parts += 1
            if parts >= MAX_KEY_PARTS:
                raise InvalidProblem(
                    f"{name}{_line_of(text, m.start())}: a dotted key has more than {MAX_KEY_PARTS} parts; "
                    f"the keys of a problem file are {', '.join(KEYS)}"
                )
        else:
            parts = 0


def _line_of(text: str, offset: int) -> str:
    return f" (line {text.count(chr(10), 0, offset) + 1})"


def _line(text: str, pattern: str, occurrence: int = 0) -> str:
    """`` (line K)`` of the ``occurrence``-th line matching ``pattern``, or ``""``."""
    found = [i for i, line in enumerate(text.splitlines(), 1) if re.match(pattern, line)]
    return f" (line {found[occurrence]})" if occurrence < len(found) else ""


def _key_line(text: str, key: str, region: int | None = None) -> str:
    """Where ``key`` is set: at the top level, or in the ``region``-th ``[[region]]`` table."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"\s*\[\[\s*region\s*\]\]", line)]
    if region is None:
        lo, hi = 0, starts[0] if starts else len(lines)
    else:
        if region >= len(starts):
            return ""
        lo = starts[region]
        hi = next((i for i in range(lo + 1, len(lines)) if re.match(r"\s*\[", lines[i])), len(lines))
    for i in range(lo, hi):
        if re.match(rf"\s*{re.escape(key)}\s*=", lines[i]):
            return f" (line {i + 1})"
    return f" (line {lo + 1})" if region is not None else ""


def _cells(value: Any, n: int, m: int | None = None) -> list[tuple[int, int]]:
    """1-based ``[row, column]`` pairs as 0-based cells, each on the ``n x m`` board (``m``: default n)."""
    m = n if m is None else m
    if not isinstance(value, list) or not all(
        isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x) for x in value
    ):
        raise InvalidProblem(f"a list of [row, column] pairs of integers, got {validate.brief(value)}")
    out = []
    for r, c in value:
        if not (1 <= r <= n and 1 <= c <= m):
            hint = " (cells in a problem file count from 1, as on the command line)" if 0 in (r, c) else ""
            ranges = f"rows and columns are 1..{n}" if m == n else f"rows are 1..{n} and columns 1..{m}"
            raise InvalidProblem(f"cell [{r}, {c}] is off the {n}x{m} board: {ranges}{hint}")
        out.append((r - 1, c - 1))
    return out


def _numbers(value: Any, n: int, what: str) -> list[int]:
    """1-based row or column numbers as 0-based ones, each on the board."""
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise InvalidProblem(f"a list of {what} numbers, got {validate.brief(value)}")
    for v in value:
        if not 1 <= v <= n:
            raise InvalidProblem(f"{what} {v} is off the {n}x{n} board: {what}s are 1..{n}")
    return [v - 1 for v in value]


def _one_or_more_cells(value: Any, n: int) -> list[tuple[int, int]]:
    """``[r, c]`` or ``[[r, c], ...]``: 1-based cells as 0-based ones."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        value = [value]
    return _cells(value, n)


def _shape(key: str, value: Any, n: int, m: int | None = None) -> Sequence[tuple[int, int]]:
    """The 0-based cells of one shape key of a region table (1-based values) on the
    ``n x m`` board (``m``: default n; a rectangle takes cells and rectangle only)."""
    if m is not None and m != n:
        if key not in RECTANGLE_SHAPE_KEYS:
            raise InvalidProblem(f"on the {n}x{m} board a region is given by {' or '.join(RECTANGLE_SHAPE_KEYS)}")
        corners = _cells(value, n, m)
        if key == "cells":
            return corners
        if len(corners) != 2:
            raise InvalidProblem(f"two opposite corners [[row, column], [row, column]], got {validate.brief(value)}")
        return Region.rectangle(*corners).cells
    if key == "cells":
        return _cells(value, n)
    if key == "rows":
        return Region.rows(_numbers(value, n, "row"), n).cells
    if key == "columns":
        return Region.columns(_numbers(value, n, "column"), n).cells
    if key == "rectangle":
        corners = _cells(value, n)
        if len(corners) != 2:
            raise InvalidProblem(f"two opposite corners [[row, column], [row, column]], got {validate.brief(value)}")
        return Region.rectangle(*corners).cells
    lines = Region.diagonal if key == "diagonal" else Region.anti_diagonal
    return [cell for at in _one_or_more_cells(value, n) for cell in lines(at, n).cells]


def problem_from_toml(text: str, name: str = "the problem file") -> Problem:
    """The :class:`Problem` described by the TOML ``text`` (see the module docstring).

    Raises
    ------
    InvalidProblem
        For text that is not a str; text longer than :data:`MAX_BYTES`, nested deeper than
        :data:`MAX_DEPTH` or with a dotted key of :data:`MAX_KEY_PARTS` parts (refused
        before parsing); malformed TOML, an unknown key, a missing ``n``, a value of the
        wrong type, a cell off the board (or 0-based), or a malformed region; the message
        names ``name``, the key and the line where it can be found.

    Examples
    --------
    >>> p = problem_from_toml("n = 6\\ntoroidal = true\\nblocked = [[1, 1]]")
    >>> p.n, p.toroidal, p.blocked
    (6, True, ((0, 0),))
    >>> problem_from_toml("n = 6\\nblock = [[1, 1]]")
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidProblem: the problem file: unknown key 'block' (line 2) (did you mean 'blocked'?); the keys are description, n, columns, queens, toroidal, knight, leapers, blocked, fixed, holes, region
    """
    if not isinstance(name, str):
        raise QueensError(f"name is a string naming the problem's source, got {validate.brief(name)}")
    if not isinstance(text, str):
        hint = "; decode it first, or give the file to read_problem" if isinstance(text, (bytes, bytearray)) else ""
        raise InvalidProblem(f"problem_from_toml takes the TOML text as a str, got {validate.brief(text)}{hint}")
    _check_shape(text, name)
    if sys.version_info >= (3, 11):  # imported here: only a problem file needs the parser
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as e:
        raise InvalidProblem(f"{name} is not valid TOML: {e}") from None
    for key in data:
        if key not in KEYS:
            raise InvalidProblem(
                f"{name}: unknown key {key!r}{_key_line(text, key)}{validate.did_you_mean(key, KEYS)}; "
                f"the keys are {', '.join(KEYS)}"
            )
    if "n" not in data:
        raise InvalidProblem(f"{name} needs n, the board size (for example n = 8)")

    def top(key: str, error: QueensError) -> InvalidProblem:
        return InvalidProblem(f"{name}: {key}{_key_line(text, key)}: {error}")

    n = data["n"]
    if type(n) is not int:
        raise top("n", QueensError(f"the board size is an integer, got {validate.brief(n)}"))
    for key in ("columns", "queens"):
        if key in data and type(data[key]) is not int:
            raise top(key, QueensError(f"an integer, got {validate.brief(data[key])}"))
    m = data.get("columns", n)
    if "description" in data and not isinstance(data["description"], str):
        raise top("description", QueensError("a description is a string"))
    for key in ("toroidal", "knight"):
        if key in data and not isinstance(data[key], bool):
            raise top(key, QueensError(f"true or false, got {validate.brief(data[key])}"))
    cells = {}
    for key in ("blocked", "fixed", "holes"):
        try:
            cells[key] = _cells(data.get(key, []), n, m) if n >= 1 and m >= 1 else []
        except InvalidProblem as e:
            raise top(key, e) from None
    leapers = data.get("leapers", [])
    if not isinstance(leapers, list):
        raise top("leapers", QueensError(f"a list of [a, b] offsets, got {validate.brief(leapers)}"))
    tables = data.get("region", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise InvalidProblem(f"{name}: regions are [[region]] tables, each with cells, at_least and at_most")
    regions = []
    for i, table in enumerate(tables):
        where = f"{name}: region {i + 1}"
        for key in table:
            if key not in REGION_KEYS:
                raise InvalidProblem(
                    f"{where}: unknown key {key!r}{_key_line(text, key, i)}{validate.did_you_mean(key, REGION_KEYS)}; "
                    f"a region has {', '.join(REGION_KEYS)}"
                )
        shapes = [key for key in SHAPE_KEYS if key in table]
        if not shapes:
            raise InvalidProblem(
                f"{where}{_key_line(text, '', i)} needs cells, given by any of {', '.join(SHAPE_KEYS)} "
                "(for example cells = [[1, 1], [2, 2]] or rows = [1])"
            )
        for key in ("at_least", "at_most", "exactly"):
            if key in table and type(table[key]) is not int:
                raise InvalidProblem(
                    f"{where}: {key}{_key_line(text, key, i)} is an integer, got {validate.brief(table[key])}"
                )
        if "exactly" in table and ("at_least" in table or "at_most" in table):
            raise InvalidProblem(
                f"{where}: exactly{_key_line(text, 'exactly', i)} is both bounds; give it without at_least / at_most"
            )
        region_cells: set[tuple[int, int]] = set()
        for key in shapes:
            try:
                region_cells.update(_shape(key, table[key], n, m) if n >= 1 and m >= 1 else [])
            except InvalidProblem as e:
                raise InvalidProblem(f"{where}: {key}{_key_line(text, key, i)}: {e}") from None
        bounds = {key: table[key] for key in ("at_least", "at_most", "exactly") if key in table}
        try:
            regions.append(Region(sorted(region_cells), **bounds))
        except InvalidProblem as e:
            key = shapes[0] if not region_cells else next(iter(bounds), shapes[0])
            raise InvalidProblem(f"{where}: {key}{_key_line(text, key, i)}: {e}") from None
    try:
        return Problem(
            n,
            toroidal=data.get("toroidal", False),
            knight=data.get("knight", False),
            blocked=cells["blocked"],
            fixed=cells["fixed"],
            leapers=leapers,
            regions=regions,
            columns=data.get("columns"),
            queens=data.get("queens"),
            constraints=[Holes(cells["holes"])] if cells["holes"] else (),
        )
    except InvalidProblem as e:
        words = str(e)
        key = next((k for k in ("leapers", "columns", "queens") if k.rstrip("s") in words), "n")
        raise top(key, e) from None


def read_problem(path: object) -> Problem:
    """Read a problem file (TOML, 1-based cells; see the module docstring).

    Raises
    ------
    InvalidProblem
        If the file cannot be read, is not a regular UTF-8 file, or does not describe a
        valid problem (the message names the key and the line).
    """
    p = validate.path(path, "the problem file", error=InvalidProblem)
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):
            raise InvalidProblem(f"{p} is not a regular file; give a problem file (TOML)")
        if st.st_size > MAX_BYTES:
            raise InvalidProblem(f"{p} has {st.st_size} bytes; a problem file is at most {MAX_BYTES}")
        raw = p.read_bytes()
    except OSError as e:
        raise InvalidProblem(f"cannot read the problem file {p}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidProblem(f"{p} is not UTF-8 text (byte {e.start + 1}); a problem file is TOML") from None
    return problem_from_toml(text, str(p))


def problem_text(problem: Problem, description: str | None = None) -> str:
    """The problem file of ``problem`` (TOML, 1-based cells), as text.

    Examples
    --------
    >>> print(problem_text(Problem(5, blocked=[(0, 0)])))
    n = 5
    blocked = [[1, 1]]
    <BLANKLINE>
    >>> problem_from_toml(problem_text(Problem(5, blocked=[(0, 0)]))) == Problem(5, blocked=[(0, 0)])
    True
    """
    as_problem(problem)
    if description is not None and not isinstance(description, str):
        raise QueensError(f"a description is a string, got {validate.brief(description)}")
    d = problem.to_dict(one_based=True)

    def pairs(items: list[list[int]]) -> str:
        return "[" + ", ".join(f"[{a}, {b}]" for a, b in items) + "]"

    lines = []
    if description:
        lines.append(f"description = {_toml_string(description)}")
    lines.append(f"n = {problem.n}")
    for key in ("columns", "queens"):
        if key in d:
            lines.append(f"{key} = {d[key]}")
    for key in ("toroidal", "knight"):
        if d[key]:
            lines.append(f"{key} = true")
    for key in ("leapers", "blocked", "fixed", "holes"):
        if d.get(key):
            lines.append(f"{key} = {pairs(d[key])}")
    for region in problem.regions:
        shape = _shape_line(region, problem.n) if problem.is_square else _cells_line(region)
        lines += ["", "[[region]]", shape]
        if region.at_most is not None and region.at_least == region.at_most:
            lines.append(f"exactly = {region.at_least}")
        else:
            if region.at_least:
                lines.append(f"at_least = {region.at_least}")
            if region.at_most is not None:
                lines.append(f"at_most = {region.at_most}")
    return "\n".join(lines) + "\n"


def _shape_line(region: Region, n: int) -> str:
    """The region's cells as a person would write them: rows, columns, a rectangle, a
    diagonal or an anti-diagonal where they are one, else the list of cells (1-based)."""
    cells = region.cells
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    r0, c0 = cells[0]
    if len(cells) == len(rows) * n and Region.rows(rows, n).cells == cells:
        return f"rows = [{', '.join(str(r + 1) for r in rows)}]"
    if len(cells) == len(cols) * n and Region.columns(cols, n).cells == cells:
        return f"columns = [{', '.join(str(c + 1) for c in cols)}]"
    if len(cells) > 1 and Region.diagonal(cells[0], n).cells == cells:
        return f"diagonal = [{r0 + 1}, {c0 + 1}]"
    if len(cells) > 1 and Region.anti_diagonal(cells[0], n).cells == cells:
        return f"anti_diagonal = [{r0 + 1}, {c0 + 1}]"
    if (
        len(cells) == len(rows) * len(cols) > 1
        and Region.rectangle((rows[0], cols[0]), (rows[-1], cols[-1])).cells == cells
    ):
        return f"rectangle = [[{rows[0] + 1}, {cols[0] + 1}], [{rows[-1] + 1}, {cols[-1] + 1}]]"
    return "cells = [" + ", ".join(f"[{r + 1}, {c + 1}]" for r, c in cells) + "]"


def _cells_line(region: Region) -> str:
    """The region's cells as a list (1-based), the form that holds on any board."""
    return "cells = [" + ", ".join(f"[{r + 1}, {c + 1}]" for r, c in region.cells) + "]"


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def write_problem(problem: Problem, path: object, description: str | None = None) -> Path:
    """Write ``problem`` as a problem file (whole or not at all); returns the path."""
    text = problem_text(problem, description)
    with atomic_output(path, "w", what="the problem file") as fh:
        fh.write(text)
    return Path(str(path))
