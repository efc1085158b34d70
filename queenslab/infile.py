"""Input files: the one policy for every file queenslab reads on request.

A trace, a problem file or a placement file is opened with :func:`open_regular`, which
refuses anything but a regular file **before** it can block: a pipe (FIFO) opened for
reading waits for a writer forever, and a device such as ``/dev/zero`` never ends. The
file is opened without blocking and checked on its open descriptor (so a name swapped
between a check and the open cannot slip through), then read normally.

:func:`same_file` says whether two names are one file (also through a symbolic or a hard
link), for the rule that no command writes over its own input or writes two outputs to
one file (:func:`queenslab.outfile.check_distinct`).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from . import validate
from .errors import QueensError

__all__ = ["open_regular", "same_file"]


def open_regular(path: object, what: str, *, error: type[QueensError] = QueensError) -> BinaryIO:
    """Open ``path`` for reading in binary mode if it is a regular file.

    Parameters
    ----------
    path : str, bytes or path-like
        The file to read.
    what : str
        What the file is, for messages (``"the trace file"``).
    error : type of QueensError
        The error raised (``InvalidProblem`` for a problem file, ...).

    Returns
    -------
    file object
        Open for reading (blocking reads), positioned at the start; the caller closes it.

    Raises
    ------
    QueensError
        (``error``) An empty name, a file that does not exist or cannot be read, a
        directory, a pipe, a device or a socket -- the last three before anything waits.

    Examples
    --------
    >>> import os
    >>> open_regular(os.devnull, "the trace file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: the trace file '/dev/null' is not a regular file (a pipe, a device or a socket); give ...
    """
    p = validate.path(path, what, error=error)
    shown = f"{what} {str(p)!r}"
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as e:
        raise error(f"cannot read {shown}: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{shown} is a directory; give the name of a file")
        if not stat.S_ISREG(mode):
            raise error(
                f"{shown} is not a regular file (a pipe, a device or a socket); give the name of a file on disk"
            )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def same_file(a: object, b: object) -> bool:
    """Whether the names ``a`` and ``b`` are one file: the same path once links and
    ``..`` are resolved, or the same existing file (a hard link).

    Examples
    --------
    >>> same_file("q.svg", "./q.svg"), same_file("a.svg", "b.svg")
    (True, False)
    """
    x, y = os.fsdecode(a), os.fsdecode(b)  # type: ignore[arg-type]
    if os.path.realpath(x) == os.path.realpath(y):
        return True
    try:
        return os.path.samefile(x, y)
    except (OSError, ValueError):  # one of them does not exist (yet)
        return False
