"""Checking the plain integer arguments of the public functions (sizes, seeds, limits).

One rule everywhere: Python and numpy integers are accepted (``operator.index``), bools
and everything else are refused, and the error says what is allowed.
"""

from __future__ import annotations

import operator

import numpy as np

from .errors import QueensError

__all__ = ["whole_number"]


def whole_number(value, what: str, *, minimum: int = 1, error: type[QueensError] = QueensError) -> int:
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
        v = operator.index(value)
    except TypeError:
        raise error(f"{what} must be an integer >= {minimum}, got {value!r}") from None
    if v < minimum:
        raise error(f"{what} must be at least {minimum}, got {v}")
    return v
