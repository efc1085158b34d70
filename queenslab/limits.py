"""Practical limits: how large a request may be before it must be forced.

A *practical limit* bounds a request that would run for a long time (minutes to days) or
grow without bound, although it is well defined. Each limit is declared once, next to the
function it guards (``ALTERNATING = limits.declare(...)``), and checked by :func:`check`, which
raises :class:`~queenslab.errors.TooLarge` with one message shape: what was asked, the limit,
what it costs beyond it, and how to go ahead anyway. The registry :data:`DECLARED` lets the
command line's ``--force`` help and docs/reliability.md read the limits instead of keeping
their own copies.

Examples
--------
>>> lim = declare("example search", 30, "n", "each further n doubles the time")
>>> check(lim, 30)
30
>>> check(lim, 31)
Traceback (most recent call last):
...
queenslab.errors.TooLarge: example search for n = 31 is beyond its practical limit n <= 30 (each further n doubles the time); pass force=True (--force) to run it anyway
>>> check(lim, 31, force=True)
31
>>> _ = DECLARED.pop("example search")
"""

from __future__ import annotations

import importlib
import pkgutil
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from .errors import TooLarge

__all__ = ["Limit", "DECLARED", "declare", "check", "every_limit"]


@dataclass(frozen=True)
class Limit:
    """One practical limit.

    Attributes
    ----------
    name : str
        What is limited, as the message names it (``"counting every solution"``).
    largest : int
        The largest size allowed without ``force``.
    unit : str
        What the size measures (``"n"``, ``"tasks"``, ``"samples"``).
    cost : str
        What a request beyond the limit costs, or why it is refused.
    forceable : bool
        Whether ``force=True`` lifts the limit (False: a hard limit).
    """

    name: str
    largest: int
    unit: str
    cost: str
    forceable: bool = True

    def describe(self) -> str:
        """``"<name>: <unit> <= <largest> (<cost>)"``, for help texts and docs."""
        return f"{self.name}: {self.unit} <= {self.largest:,} ({self.cost})"


#: Every declared limit, by name, in declaration order.
DECLARED: dict[str, Limit] = {}


def declare(name: str, largest: int, unit: str, cost: str, *, forceable: bool = True) -> Limit:
    """Declare (and register) a practical limit; returns it for the owner to keep."""
    limit = Limit(name, int(largest), unit, cost, forceable)
    DECLARED[name] = limit
    return limit


def check(limit: Limit, size: int, force: bool = False, *, hint: str = "", request: str = "", cost: str = "") -> int:
    """Return ``size`` if it is within ``limit`` (or ``force`` lifts it); else raise.

    Parameters
    ----------
    limit : Limit
    size : int
        The request's size, in the limit's unit.
    force : bool, default False
        Go ahead beyond a forceable limit.
    hint : str, optional
        Another way to get what was wanted, put before the ``force`` advice.
    request : str, optional
        The request as the message names it, instead of ``"<name> for <unit> = <size>"``.
    cost : str, optional
        What this request would cost (an estimate for its size), instead of the limit's
        general ``cost``.

    Raises
    ------
    TooLarge
        Naming the request, the limit, its cost and the way to go ahead.
    """
    if size <= limit.largest or (force and limit.forceable):
        return size
    sep = "" if limit.unit == "n" else ","  # board sizes are written plainly, counts with separators
    shown = f"{size:{sep}}" if size < 10**30 else f"about 10**{len(str(size)) - 1}"
    ways = [hint] if hint else []
    if limit.forceable:
        ways.append("pass force=True (--force) to run it anyway")
    tail = "; " + ", or ".join(ways) if ways else ""
    request = request or f"{limit.name} for {limit.unit} = {shown}"
    kind = "practical limit" if limit.forceable else "limit"
    raise TooLarge(f"{request} is beyond its {kind} {limit.unit} <= {limit.largest:{sep}} ({cost or limit.cost}){tail}")


def every_limit() -> list[Limit]:
    """Every practical limit of the package, in declaration order.

    The limits are declared by the modules that own them, so every module of the package
    (the command line aside) is imported first; this loads numba and takes a second or two.
    A module whose optional dependency is missing is skipped.

    Examples
    --------
    >>> names = [lim.name for lim in every_limit()]
    >>> "counting every solution" in names and "counting with the cpsat backend" in names
    True
    """
    for info in pkgutil.walk_packages([str(Path(__file__).parent)], "queenslab."):
        if info.name.startswith(("queenslab.cli", "queenslab.__main__")) or info.name.endswith(".TEMPLATE"):
            continue
        with suppress(ImportError):
            importlib.import_module(info.name)
    return list(DECLARED.values())
