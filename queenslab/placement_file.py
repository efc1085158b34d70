"""Placements in files: 1-based ``.npy`` arrays and the documents' text format.

``queenslab solve --out F`` writes with :func:`write_placement`; ``queenslab show --from F``
reads with :func:`read_placement`. Both sides are 1-based on disk (like the command line)
and 0-based in Python. A ``.npy`` file holds a 1-D integer array; any other file is text:
columns by row separated by commas and/or white space, optionally inside brackets
(``2, 4, 1, 3`` — the self-correcting Queens program (ronybc) prints its 10,000-queen solution this way).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from .errors import InvalidPlacement

__all__ = ["read_placement", "write_placement"]

_SEPARATORS = re.compile(r"[\s,\[\]()]+")


def write_placement(placement, path) -> str:
    """Write a 0-based placement 1-based to ``path``; returns ``"npy"`` or ``"text"``.

    Parameters
    ----------
    placement : array_like of int
        0-based columns by row.
    path : str or Path
        ``*.npy`` gets an int64 array; any other name one line of text ``2, 4, 1, 3``.

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
    one = np.asarray(placement, dtype=np.int64) + 1
    if str(path).lower().endswith(".npy"):
        np.save(path, one)
        return "npy"
    with open(path, "w") as fh:
        fh.write(", ".join(map(str, one.tolist())))
        fh.write("\n")
    return "text"


def read_placement(path) -> np.ndarray:
    """Read a 1-based placement file; returns the 0-based columns as an int64 array.

    Parameters
    ----------
    path : str or Path
        A ``.npy`` file with a 1-D integer array, or a text file of integers.

    Returns
    -------
    numpy.ndarray
        0-based columns by row (int64). Columns may repeat: this reads placements, not
        only solutions.

    Raises
    ------
    InvalidPlacement
        If the file cannot be read, is empty, holds something other than integers, or a
        column lies outside ``1..n`` (n = the number of rows). The message names the file.

    See Also
    --------
    write_placement
    """
    path = Path(path)
    try:
        if path.suffix.lower() == ".npy":
            try:
                arr = np.load(path, allow_pickle=False)
            except ValueError as e:  # not a .npy array file
                raise InvalidPlacement(f"{path} is not a .npy array file: {e}") from None
        else:
            words = [w for w in _SEPARATORS.split(path.read_text()) if w]
            bad = next((w for w in words if not w.lstrip("+-").isdigit()), None)
            if bad is not None:
                raise InvalidPlacement(
                    f"{path}: {bad[:40]!r} is not a column number; the file holds 1-based columns "
                    "separated by commas or spaces"
                )
            arr = np.array([int(w) for w in words], dtype=np.int64)
    except OSError as e:
        raise InvalidPlacement(f"cannot read placement file {path}: {e.strerror or e}") from None
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        raise InvalidPlacement(
            f"{path}: a placement is a non-empty 1-D array of integer columns, got shape {arr.shape} of {arr.dtype}"
        )
    arr = arr.astype(np.int64) - 1
    n = arr.size
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        r = int(bad[0])
        raise InvalidPlacement(
            f"{path}: row {r + 1} has column {int(arr[r]) + 1}; with {n} rows the columns are 1..{n}"
        )
    return arr
