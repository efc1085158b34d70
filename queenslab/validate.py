"""The one home of argument checks: sizes, seeds, limits, threads, seconds, flags, choices.

One rule everywhere: Python and numpy integers are accepted (``operator.index``), bools
are refused where a number is meant, and the error says what is allowed.
"""

from __future__ import annotations

import enum
import operator
import os
from collections.abc import Collection
from typing import SupportsIndex, TypeVar, cast

import numpy as np

from .errors import QueensError

__all__ = ["whole_number", "optional_whole_number", "threads", "positive_seconds", "flag", "member", "choice"]


def whole_number(value: object, what: str, *, minimum: int = 1, error: type[QueensError] = QueensError) -> int:
    """``value`` as an ``int`` if it is an integer ``>= minimum``, else raise ``error``.

    Parameters
    ----------
    value : object
        The argument to check.
    what : str
        Its name, for the message (``"seed"``, ``"n"``).
    minimum : int, default 1
        The least value allowed.
    error : type, default QueensError
        The :class:`QueensError` subclass to raise.

    Examples
    --------
    >>> whole_number(np.int32(5), "n")
    5
    >>> whole_number(True, "seed", minimum=0)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: seed must be an integer >= 0, got True
    >>> whole_number(0, "n")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: n must be at least 1, got 0
    """
    if isinstance(value, (bool, np.bool_)):
        raise error(f"{what} must be an integer >= {minimum}, got {value!r}")
    try:
        v = operator.index(cast(SupportsIndex, value))  # anything else raises TypeError
    except TypeError:
        raise error(f"{what} must be an integer >= {minimum}, got {value!r}") from None
    if v < minimum:
        raise error(f"{what} must be at least {minimum}, got {v}")
    return v


def optional_whole_number(value: object, what: str, *, minimum: int = 0) -> int | None:
    """None, or ``value`` checked by :func:`whole_number` (a ``limit``: None = no limit).

    Examples
    --------
    >>> optional_whole_number(None, "limit") is None, optional_whole_number(3, "limit")
    (True, 3)
    """
    return None if value is None else whole_number(value, what, minimum=minimum)


def threads(value: object) -> int:
    """A thread count: None means every core this process may use.

    Examples
    --------
    >>> threads(2)
    2
    """
    if value is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - not Linux
            return max(1, os.cpu_count() or 1)
    return whole_number(value, "threads")


def positive_seconds(value: object, what: str = "time_limit") -> float | None:
    """None, or a positive number of seconds as a float.

    Examples
    --------
    >>> positive_seconds(2)
    2.0
    >>> positive_seconds(0)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: time_limit must be a positive number of seconds, got 0
    """
    if value is None:
        return None
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not value > 0
    ):
        raise QueensError(f"{what} must be a positive number of seconds, got {value!r}")
    return float(value)


def flag(value: object, what: str) -> bool:
    """``value`` as a bool if it is True or False (or 0 / 1), else an error naming ``what``.

    Examples
    --------
    >>> flag(1, "unique")
    True
    >>> flag("yes", "unique")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: unique must be True or False, got 'yes'
    """
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
        return bool(value)
    raise QueensError(f"{what} must be True or False, got {value!r}")


E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")


def member(enum_type: type[E], value: object, what: str) -> E:
    """The member of ``enum_type`` named by ``value`` (a member, or its value as a string).

    Examples
    --------
    >>> class Colour(enum.Enum):
    ...     RED = "red"
    >>> member(Colour, "red", "colour")
    <Colour.RED: 'red'>
    >>> member(Colour, "blue", "colour")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: unknown colour 'blue'; use one of 'red'
    """
    if isinstance(value, enum_type):
        return value
    for m in enum_type:
        if m.value == value:
            return m
    raise QueensError(f"unknown {what} {value!r}; use one of {', '.join(repr(m.value) for m in enum_type)}")


def choice(value: T, allowed: Collection[object], what: str) -> T:
    """``value`` if it is one of ``allowed``, else an error listing them.

    Examples
    --------
    >>> choice("auto", ("auto", "general"), "method")
    'auto'
    """
    if value not in allowed:
        raise QueensError(f"unknown {what} {value!r}; use one of {', '.join(map(str, allowed))}")
    return value
