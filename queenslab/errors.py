"""Exceptions raised by queenslab.

Every error caused by bad input is a :class:`QueensError` (a ``ValueError``) whose
message says what was wrong and what is allowed. The command line turns these into
``error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

__all__ = [
    "QueensError",
    "InvalidProblem",
    "InvalidPlacement",
    "UnsupportedProblem",
    "UnknownOption",
    "TooLarge",
    "MissingDependency",
    "Incomplete",
    "InvalidIndex",
    "InvalidTrace",
]


class QueensError(ValueError):
    """Base class of every queenslab input error."""


class InvalidProblem(QueensError):
    """A :class:`~queenslab.problem.Problem` was described inconsistently."""


class InvalidPlacement(QueensError):
    """A placement could not be parsed or does not fit the board."""


class UnsupportedProblem(QueensError):
    """A backend cannot handle a feature of the problem; the message names it."""


class UnknownOption(QueensError):
    """A backend was given an option it does not know (options are never ignored)."""


class TooLarge(QueensError):
    """The request is beyond what the method can do (exactly, or in practical time)."""


class MissingDependency(QueensError):
    """An optional package is not installed; the message names the pip extra."""


class Incomplete(QueensError):
    """A search stopped (a time or solution limit) before it could give a final answer.

    ``found`` is what it had when it stopped: a lower bound for a count.
    """

    def __init__(self, message: str, found: int = 0):
        super().__init__(message)
        self.found = found


class InvalidIndex(QueensError):
    """A persistent index is incomplete, inconsistent, modified or for another problem;
    it is never served. The message says how to rebuild it."""


class InvalidTrace(QueensError):
    """A trace file that cannot be read or replayed: not a trace, another format version,
    cut short, corrupt, or a step that the method it names cannot take."""
