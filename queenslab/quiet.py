"""Silencing what native code prints: C++ solvers write to file descriptor 1 directly,
where ``contextlib.redirect_stdout`` does not reach, and their output would end up inside
the command line's (even its JSON)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["quiet_stdout"]


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence what the counter's C++ code prints on file descriptor 1 (it would end up
    inside the command line's output, even its JSON)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        fd = 1
    sys.stdout.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), fd)
            yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)
