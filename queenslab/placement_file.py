"""Placements in files: ``.npy`` arrays for programs (0-based columns, as numpy and the
Python API hold them) and a plain text format for people (1-based columns separated by
commas or spaces, as the command line writes them).

``queenslab solve --out F`` writes with :func:`write_placement`; ``queenslab show --from F``
reads with :func:`read_placement`. A ``.npy`` file holds a 1-D integer array of 0-based
columns, so that ``numpy.load(F)`` goes straight into
``queenslab.is_solution(Problem(n), ...)``; any other file is text: 1-based columns by row
separated by commas and/or white space (``2, 4, 1, 3`` — the self-correcting Queens
program (ronybc) prints its 10,000-queen solution this way), optionally inside one pair
of brackets around the whole list, as a flat JSON list (``[2, 4, 1, 3]``) or a Python
tuple is written. Brackets anywhere else (nested lists) are refused, not skipped. A file
clearly of the other base (a column n in a ``.npy`` file, a column 0 in a text file) is
refused with a message saying which base the file type takes.

>>> import os, tempfile, numpy as np
>>> with tempfile.TemporaryDirectory() as d:
...     f = os.path.join(d, "q.npy")
...     write_placement([1, 3, 0, 2], f), np.load(f).tolist()
('npy', [1, 3, 0, 2])
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import numpy as np

from . import validate
from .errors import InvalidPlacement
from .outfile import atomic_output
from .solution import as_columns

__all__ = ["read_placement", "write_placement"]

_SEPARATORS = re.compile(r"[\s,]+")
#: The brackets that may enclose the whole list, and nothing else.
_PAIRS = {"[": "]", "(": ")"}
#: A column number in a text file: ASCII digits, optionally signed (a sign is checked
#: against the range like any other value).
_NUMBER = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: Longest column number read (more digits cannot be a column of any board).
_MAX_DIGITS = 18
_HELP = (
    "the file holds 1-based column numbers (ASCII digits) separated by commas or spaces, "
    "or one flat JSON list such as [2, 4, 1, 3]"
)
#: What each kind of file holds, for the messages about a column out of range.
_TEXT_BASE = "a text placement file holds 1-based columns (1..n, as the command line prints them)"
_NPY_BASE = "a .npy placement file holds 0-based columns (0..n-1, as numpy and the Python API hold them)"


def write_placement(placement, path) -> str:
    """Write a 0-based placement to ``path``; returns ``"npy"`` or ``"text"``.

    A ``.npy`` file keeps the 0-based columns (an int64 array: ``numpy.load`` gives back
    ``placement``); a text file gets them 1-based, as people and the command line read
    them. The file is written whole or not at all (see
    :func:`queenslab.outfile.atomic_output`): an error or an interrupt leaves no partial
    file, and an existing file of that name as it was.

    Parameters
    ----------
    placement : array_like of int
        0-based columns by row.
    path : str or Path
        ``*.npy`` gets a 0-based int64 array; any other name one line of 1-based text
        ``2, 4, 1, 3``.

    Raises
    ------
    QueensError
        If ``path`` cannot be written (a directory, a missing directory, a device) or is
        no file name; :class:`InvalidPlacement` if ``placement`` is not a 1-D sequence of
        0-based integer columns.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = os.path.join(d, "q.txt")
    ...     write_placement([1, 3, 0, 2], f), open(f).read(), read_placement(f).tolist()
    ('text', '2, 4, 1, 3\\n', [1, 3, 0, 2])

    See Also
    --------
    read_placement
    """
    cols = as_columns(placement)
    path = validate.path(path, "the placement file")
    if path.name.lower().endswith(".npy"):
        with atomic_output(path, "wb") as fh:
            np.save(fh, cols.astype(np.int64, copy=False), allow_pickle=False)
        return "npy"
    with atomic_output(path, "w") as fh:
        fh.write(", ".join(map(str, (cols + 1).tolist())))
        fh.write("\n")
    return "text"


def _read_npy(path: Path) -> np.ndarray:
    """The 1-D integer array of a ``.npy`` file, read without pickle and checked
    against the file's size before anything is allocated."""
    fmt = np.lib.format
    with open(path, "rb") as fh:
        try:
            version = fmt.read_magic(fh)
            if version == (1, 0):
                shape, _, dtype = fmt.read_array_header_1_0(fh)
            elif version in ((2, 0), (3, 0)):
                shape, _, dtype = fmt.read_array_header_2_0(fh)
            else:
                raise ValueError(f"unknown .npy format version {version[0]}.{version[1]}")
        except Exception as e:  # a malformed header: numpy raises ValueError, TypeError, SyntaxError ...
            raise InvalidPlacement(
                f"{path} is not a .npy array file numpy can read ({e}); write placements with numpy.save "
                "or `queenslab solve --out F.npy`"
            ) from None
        if dtype.hasobject or dtype.kind not in "iu":
            raise InvalidPlacement(
                f"{path}: a placement is an array of integer columns, got dtype {dtype}; "
                "object, float, bool and structured arrays are not read"
            )
        if len(shape) != 1 or shape[0] <= 0:
            raise InvalidPlacement(f"{path}: a placement is a non-empty 1-D array of columns, got shape {shape}")
        need = shape[0] * dtype.itemsize
        held = os.fstat(fh.fileno()).st_size - fh.tell()
        if held < need:  # checked before reading: the header may promise more than memory holds
            raise InvalidPlacement(
                f"{path} is truncated: its header promises {shape[0]} columns ({need} bytes), "
                f"the file holds {max(0, held)} bytes of data"
            )
        data = fh.read(need)
        if len(data) != need:  # the file shrank while being read
            raise InvalidPlacement(f"{path} is truncated: {len(data)} of {need} bytes of data could be read")
    return np.frombuffer(data, dtype=dtype)


def _unwrap(text: str) -> str:
    """``text`` without separators at its ends and without one pair of brackets around
    the whole of it (scanned in linear time, whatever the text holds)."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or text[start] == ","):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] == ","):
        end -= 1
    if end - start >= 2 and _PAIRS.get(text[start]) == text[end - 1]:
        start, end = start + 1, end - 1
    return text[start:end]


def _read_text(path: Path) -> np.ndarray:
    """The column numbers of a text placement file, as Python ints checked one by one."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidPlacement(f"{path} is not UTF-8 text (byte {e.start + 1}); {_HELP}, or give a .npy file") from None
    body = _unwrap(text)
    bracket = next((ch for ch in body if ch in "[]()"), None)
    if bracket is not None:
        raise InvalidPlacement(
            f"{path}: a bracket {bracket!r} that does not enclose the whole list (nested or unmatched); {_HELP}"
        )
    words = [w for w in _SEPARATORS.split(body) if w]
    if not words:
        raise InvalidPlacement(f"{path} holds no columns; {_HELP}")
    n = len(words)
    cols = []
    for r, w in enumerate(words):
        if not _NUMBER.fullmatch(w):
            raise InvalidPlacement(f"{path}: {w[:40]!r} is not a column number; {_HELP}")
        digits = w.lstrip("+-").lstrip("0")
        c = (-1 if w[0] == "-" else 1) * int(digits or "0") if len(digits) <= _MAX_DIGITS else None
        if c is None or not 1 <= c <= n:
            shown = w if c is not None else f"{w[:12]}... ({len(digits)} digits)"
            raise InvalidPlacement(_out_of_range(path, r, shown, n, one_based=True, other=c == 0))
        cols.append(c)
    return np.array(cols, dtype=np.int64)


def _out_of_range(path: Path, row: int, shown: object, n: int, *, one_based: bool, other: bool) -> str:
    """The message for a column off the board: which base the file's type takes, and
    when the column is the other base's (a 0 in text, an n in a ``.npy`` file) a hint."""
    span = f"1..{n}" if one_based else f"0..{n - 1}"
    text = f"{path}: row {row + 1} has column {shown}; with {n} rows the columns are {span}"
    if not other:
        return f"{text} ({_TEXT_BASE if one_based else _NPY_BASE})"
    if one_based:
        return (
            f"{text}: a column 0 looks 0-based, but {_TEXT_BASE}; add 1 to every column, "
            "or save the 0-based array with numpy.save as a .npy file"
        )
    return (
        f"{text}: a column {n} looks 1-based, but {_NPY_BASE}; subtract 1 from every column, "
        "or write the 1-based columns as a text file"
    )


def read_placement(path) -> np.ndarray:
    """Read a placement file; returns the 0-based columns as an int64 array.

    Parameters
    ----------
    path : str or Path
        A ``.npy`` file with a 1-D integer array of 0-based columns (read without pickle:
        object arrays are refused), or a UTF-8 text file of 1-based column numbers.

    Returns
    -------
    numpy.ndarray
        0-based columns by row (int64). Columns may repeat: this reads placements, not
        only solutions.

    Raises
    ------
    InvalidPlacement
        If the file cannot be read, is empty, is not UTF-8 text or a well-formed
        ``.npy`` file, holds something other than integers (in the ASCII digits 0-9),
        or a column lies off the board: outside ``0..n-1`` in a ``.npy`` file, outside
        ``1..n`` in a text file (n = the number of rows). A column of the other base
        (n in a ``.npy`` file, 0 in a text file) is named as such. The message names the
        file. Nothing else is raised, whatever the file holds.

    See Also
    --------
    write_placement
    """
    path = validate.path(path, "the placement file", error=InvalidPlacement)
    try:
        # a device such as /dev/zero or a pipe never ends: only regular files are read
        if not stat.S_ISREG(path.stat().st_mode):
            raise InvalidPlacement(
                f"{path} is not a regular file (a directory, device, pipe or socket); give a placement file"
            )
        if path.suffix.lower() != ".npy":
            # the text, its words and their numbers: about 20 bytes of memory per byte of file
            validate.memory(20 * path.stat().st_size, f"reading the placement file {path}", "give a .npy file")
            return _read_text(path) - 1
        arr = _read_npy(path)
    except OSError as e:
        raise InvalidPlacement(f"cannot read placement file {path}: {e.strerror or e}") from None
    n = arr.size
    bad = np.flatnonzero((arr < 0) | (arr >= n))  # compared in the file's own dtype: no overflow
    if bad.size:
        r = int(bad[0])
        column = int(arr[r])
        # a 1-based file: its columns are 1..n, n among them (every column of a solution is)
        other = bool(np.any(arr == n)) and not np.any(arr < 1) and not np.any(arr > n)
        raise InvalidPlacement(_out_of_range(path, r, column, n, one_based=False, other=other))
    return arr.astype(np.int64)
