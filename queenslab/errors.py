"""Exceptions raised by queenslab.

Every error caused by bad input is a :class:`QueensError` (a ``ValueError``) whose
message says what was wrong and what is allowed. The command line turns these into
``error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import re

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


def setting(argument: str, flag: str) -> str:
    """How a message names a setting that would help: ``argument (flag)``, the Python
    argument and the command-line flag, e.g. ``force=True (--force)`` or
    ``time_limit=S (--time-limit S)``. The command line shows the flag alone
    (:func:`in_flags`).

    Examples
    --------
    >>> setting("force=True", "--force")
    'force=True (--force)'
    >>> in_flags("pass " + setting("force=True", "--force") + " to run it anyway")
    'pass --force to run it anyway'

    Only ``name=value (--flag ...)`` is rewritten: prose beside a flag in brackets stays.

    >>> in_flags("an option of the heuristics (--method ga)")
    'an option of the heuristics (--method ga)'
    """
    if not _ARGUMENT.fullmatch(argument) or not _FLAG.fullmatch(flag):
        raise ValueError(f"not an argument and a flag: {argument!r}, {flag!r}")
    return f"{argument} ({flag})"


_ARGUMENT = re.compile(r"[a-z_]+=[^\s(),;]+")
_FLAG = re.compile(r"--[a-z][a-z-]*(?: [A-Za-z0-9_.:]+)?")
_SETTING = re.compile(rf"(?<![\w-]){_ARGUMENT.pattern} \(({_FLAG.pattern})\)")


def in_flags(message: str) -> str:
    """``message`` as the command line says it: every :func:`setting` by its flag alone."""
    return _SETTING.sub(r"\1", message)


class QueensError(ValueError):
    """Base class of every queenslab input error."""

    def for_command_line(self) -> str:
        """The message in the command line's terms: flags instead of Python arguments."""
        return in_flags(str(self))


class InvalidProblem(QueensError):
    """A :class:`~queenslab.problem.Problem` was described inconsistently."""


class InvalidPlacement(QueensError):
    """A placement could not be parsed or does not fit the board."""


class UnsupportedProblem(QueensError):
    """A backend cannot handle a feature of the problem; the message names it."""


class UnknownOption(QueensError):
    """A backend was given an option it does not know (options are never ignored).

    ``flags_message``, when given, is the message in flags (the options the command line
    offers), which :meth:`for_command_line` returns.
    """

    def __init__(self, message: str, flags_message: str | None = None):
        super().__init__(message)
        self.flags_message = flags_message

    def for_command_line(self) -> str:
        return self.flags_message or super().for_command_line()


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
