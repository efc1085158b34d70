"""The one home of argument checks: sizes, seeds, limits, threads, seconds, flags, choices,
problems, callbacks and the memory a request needs.

The rules (docs/reliability.md states them for users):

* **Integers** are Python ints, numpy integer scalars, or anything with ``__index__``
  (``operator.index``). Floats are never integers here, not even ``4.0``; bools are refused
  where a number is meant. A value handed to a numba kernel must fit in a signed 64-bit
  integer (:data:`INT64_MAX`); seeds are ``0 .. INT64_MAX``.
* **Real numbers** (probabilities, weights) are ints or floats (numpy ones too), never
  text or bools, and never NaN or infinite.
* **A Problem is a Problem**: a parameter called ``problem`` takes a
  :class:`~queenslab.problem.Problem`; an int is refused with a message that says to
  write ``Problem(n)``. A parameter called ``n`` takes a board size (and, in the
  heuristics, a standard Problem).
* **Memory** is estimated before large arrays are allocated; a request that needs more
  than the machine has available is refused (:class:`~queenslab.errors.TooLarge`) with
  both numbers.

Every error is a :class:`~queenslab.errors.QueensError` that says what was wrong and what
is allowed.
"""

from __future__ import annotations

import enum
import math
import operator
import os
import sys
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, SupportsIndex, TypeGuard, TypeVar, cast

from .errors import QueensError, TooLarge
from .progress import ProgressBar

__all__ = [
    "INT64_MAX",
    "MAX_THREADS",
    "MAX_SOLVER_SEED",
    "whole_number",
    "integer_like",
    "numpy_array",
    "optional_whole_number",
    "int64",
    "seed",
    "real",
    "threads",
    "positive_seconds",
    "MAX_SECONDS",
    "flag",
    "member",
    "choice",
    "callback",
    "path",
    "available_memory",
    "memory",
    "format_bytes",
    "brief",
]

#: The largest signed 64-bit integer: the bound of every count, budget and seed a kernel takes.
INT64_MAX = 2**63 - 1
#: The most threads a count may ask for.
MAX_THREADS = 1024
#: The largest random seed of a solver (CP-SAT's seed is a 32-bit integer).
MAX_SOLVER_SEED = 2**31 - 1


def _numpy_scalar(value: object, *kinds: str) -> bool:
    """Whether ``value`` is a numpy scalar of one of ``kinds`` (``"bool_"``, ``"integer"``,
    ``"floating"``). Only a loaded numpy can have made one, so this never imports it: a
    command that reads plain Python numbers does not pay numpy's start-up."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, tuple(getattr(np, k) for k in kinds))


def _is_bool(value: object) -> bool:
    return isinstance(value, bool) or _numpy_scalar(value, "bool_")


def _is_int(value: object) -> bool:
    return isinstance(value, int) or _numpy_scalar(value, "integer")


def _is_float(value: object) -> bool:
    return isinstance(value, float) or _numpy_scalar(value, "floating")


def numpy_array(value: object) -> bool:
    """Whether ``value`` is a numpy array (without importing numpy: only a loaded numpy
    can have made one)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def integer_like(value: object) -> bool:
    """Whether ``value`` is an integer of Python or numpy (a bool is not)."""
    return _is_int(value) and not _is_bool(value)


def _is_real(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) or _numpy_scalar(value, "integer", "floating")


def whole_number(
    value: object,
    what: str,
    *,
    minimum: int = 1,
    maximum: int | None = None,
    error: type[QueensError] = QueensError,
    why: str = "",
) -> int:
    """``value`` as an ``int`` if it is an integer in ``minimum .. maximum``, else raise ``error``.

    Parameters
    ----------
    value : object
        The argument to check.
    what : str
        Its name, for the message (``"seed"``, ``"n"``).
    minimum : int, default 1
        The least value allowed.
    maximum : int, optional
        The largest value allowed (None: no bound).
    error : type, default QueensError
        The :class:`QueensError` subclass to raise.
    why : str, optional
        The reason for ``maximum``, added to the message.

    Examples
    --------
    >>> import numpy as np
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
    >>> whole_number(4.0, "n")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: n must be an integer >= 1, got 4.0 (a float is never taken as an integer)
    """
    if _is_bool(value):
        raise error(f"{what} must be an integer >= {minimum}, got {value!r}")
    try:
        v = operator.index(cast(SupportsIndex, value))  # anything else raises TypeError
    except TypeError:
        hint = " (a float is never taken as an integer)" if _is_float(value) else ""
        raise error(f"{what} must be an integer >= {minimum}, got {brief(value)}{hint}") from None
    if v < minimum:
        raise error(f"{what} must be at least {minimum}, got {brief(v)}")
    if maximum is not None and v > maximum:
        reason = f" ({why})" if why else ""
        raise error(f"{what} must be at most {maximum}{reason}, got {brief(v)}")
    return v


def brief(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages (huge ints, long
    texts and arrays stay readable).

    Examples
    --------
    >>> brief(10**500)
    'an integer of 501 digits'
    >>> brief(tuple(range(100)))[-10:]
    ' 20, 21...'
    """
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
            return f"an integer of {len(str(abs(value)))} digits" if value.bit_length() < 10**5 else "a huge integer"
        text = repr(value)
    except Exception:  # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def optional_whole_number(value: object, what: str, *, minimum: int = 0) -> int | None:
    """None, or ``value`` checked by :func:`whole_number` (a ``limit``: None = no limit).

    Examples
    --------
    >>> optional_whole_number(None, "limit") is None, optional_whole_number(3, "limit")
    (True, 3)
    """
    return None if value is None else whole_number(value, what, minimum=minimum)


def int64(value: object, what: str, *, minimum: int = 0) -> int:
    """An integer ``minimum .. INT64_MAX``: a budget, a step count or a limit a kernel takes.

    Examples
    --------
    >>> int64(10, "max_steps", minimum=1)
    10
    >>> int64(2**70, "max_steps", minimum=1)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: max_steps must be at most 9223372036854775807 (a signed 64-bit integer), got 1180591620717411303424
    """
    return whole_number(value, what, minimum=minimum, maximum=INT64_MAX, why="a signed 64-bit integer")


def seed(value: object, what: str = "seed") -> int:
    """A random seed: an integer ``0 .. INT64_MAX``.

    Examples
    --------
    >>> import numpy as np
    >>> seed(np.uint8(7))
    7
    """
    return int64(value, what, minimum=0)


def real(
    value: object,
    what: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_minimum: bool = False,
    open_maximum: bool = False,
) -> float:
    """A finite real number (int or float, numpy ones too) in the given range, as a float
    (``open_minimum`` / ``open_maximum``: the bound itself is outside it).

    Text, bools, NaN and infinities are refused.

    Examples
    --------
    >>> import numpy as np
    >>> real(np.float32(0.5), "pc", minimum=0, maximum=1)
    0.5
    >>> real("0.5", "pc", minimum=0, maximum=1)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: pc must be a number in [0, 1], got '0.5'
    """
    lo = "-inf" if minimum is None else f"{minimum:g}"
    hi = "inf" if maximum is None else f"{maximum:g}"
    closed_top = maximum is not None and not open_maximum
    span = f"{'(' if open_minimum or minimum is None else '['}{lo}, {hi}{']' if closed_top else ')'}"
    wrong = QueensError(f"{what} must be a number in {span}, got {brief(value)}")
    if _is_bool(value) or not _is_real(value):
        raise wrong
    try:
        v = float(value)
    except (OverflowError, ValueError, TypeError):
        raise wrong from None
    if not math.isfinite(v):
        raise wrong
    if minimum is not None and (v < minimum or (open_minimum and v == minimum)):
        raise wrong
    if maximum is not None and (v > maximum or (open_maximum and v == maximum)):
        raise wrong
    return v


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
    return whole_number(value, "threads", maximum=MAX_THREADS, why="threads beyond the cores only cost memory")


#: The longest time limit taken, in seconds (about 31.7 years): a limit is turned into
#: milliseconds and solver deadlines, which a larger (or infinite) number would overflow.
MAX_SECONDS = 10**9


def positive_seconds(value: object, what: str = "time_limit") -> float | None:
    """None, or a positive, finite number of seconds up to :data:`MAX_SECONDS`, as a float.

    Examples
    --------
    >>> positive_seconds(2)
    2.0
    >>> positive_seconds(0)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: time_limit must be a positive number of seconds up to 1e+09 (about 31 years), got 0
    >>> positive_seconds(1e308)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: time_limit must be a positive number of seconds up to 1e+09 (about 31 years), got 1e+308
    """
    if value is None:
        return None
    if _is_bool(value) or not _is_real(value) or not 0 < value <= MAX_SECONDS:
        raise QueensError(
            f"{what} must be a positive number of seconds up to {MAX_SECONDS:.0e} (about 31 years), got {brief(value)}"
        )
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
    if _is_bool(value) or (_is_int(value) and value in (0, 1)):
        return bool(value)
    raise QueensError(f"{what} must be True or False, got {brief(value)}")


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
        if _equal(m.value, value):
            return m
    raise QueensError(f"unknown {what} {brief(value)}; use one of {', '.join(repr(m.value) for m in enum_type)}")


def did_you_mean(word: object, choices: Collection[str]) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to a misspelt ``word`` (difflib's
    ratio at least 0.6), or ``""`` when none is close.

    Examples
    --------
    >>> did_you_mean("toroidl", ["toroidal", "knight"])
    " (did you mean 'toroidal'?)"
    >>> did_you_mean("colour", ["toroidal", "knight"])
    ''
    """
    import difflib  # here: only a misspelt name needs it

    if not isinstance(word, str):
        return ""
    near = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _equal(a: object, b: object) -> bool:
    """``a == b`` as a plain bool; False where the comparison fails or is not a bool (arrays)."""
    try:
        result = a == b
        return result if isinstance(result, bool) else False
    except Exception:
        return False


def choice(value: T, allowed: Collection[object], what: str) -> T:
    """``value`` if it is one of ``allowed``, else an error listing them.

    Examples
    --------
    >>> choice("auto", ("auto", "general"), "method")
    'auto'
    """
    if not any(_equal(a, value) for a in allowed):
        raise QueensError(f"unknown {what} {brief(value)}; use one of {', '.join(map(str, allowed))}")
    return value


def callback(value: Callable[..., Any] | bool | None, what: str = "progress") -> Callable[..., Any] | None:
    """None, or ``value`` if it is callable (a progress callback); ``progress=True`` is a
    :class:`~queenslab.progress.ProgressBar` (a notebook or text bar), False is None.

    Examples
    --------
    >>> callback(None) is None, callback(print) is print, callback(False) is None
    (True, True, True)
    >>> type(callback(True)).__name__
    'ProgressBar'
    >>> callback(5)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: progress must be a callable such as progress(done, total), True (a progress bar) or None; got 5
    """
    if value is True and what == "progress":
        return ProgressBar()
    if value is False and what == "progress":
        return None
    if value is not None and not callable(value):
        bar = ", True (a progress bar)" if what == "progress" else ","
        raise QueensError(f"{what} must be a callable such as {what}(done, total){bar} or None; got {brief(value)}")
    return value


def columns(value: object, what: str, error: type[QueensError]) -> list[int]:
    """The 0-based column numbers of a placement given as a sequence, as ints (not yet
    checked against a board): text, bools and floats refused with ``error``.

    >>> import numpy as np
    >>> columns((1, np.int8(3), 0), "placement", QueensError)
    [1, 3, 0]
    """
    if isinstance(value, (str, bytes)):
        raise error(
            f"{what} must be a sequence of 0-based columns, got the text {brief(value)} "
            "(parse text with queenslab.parse_placement)"
        )
    try:
        items = list(cast(Collection[object], value))
    except TypeError:
        raise error(f"{what} must be a sequence of 0-based columns, got {brief(value)}") from None
    out = []
    for r, x in enumerate(items):
        if _is_bool(x):
            raise error(f"{what}: row {r} holds {x!r}, not a column number")
        try:
            out.append(operator.index(cast(SupportsIndex, x)))
        except TypeError:
            hint = " (a float is never taken as a column)" if _is_float(x) else ""
            raise error(f"{what}: row {r} holds {brief(x)}, not an integer column{hint}") from None
    return out


def path(value: object, what: str = "path", *, error: type[QueensError] = QueensError) -> Path:
    """``value`` as a :class:`~pathlib.Path` if it names a file or directory: a non-empty
    ``str``, ``bytes`` or path-like object.

    Examples
    --------
    >>> path("index/q.sqlite").name
    'q.sqlite'
    >>> path(5, "index")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: index must be a file or directory name (a str or path), got int 5
    >>> path("", "index")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: index is an empty name; give the name of a file or directory
    """
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise error(
            f"{what} must be a file or directory name (a str or path), got {type(value).__name__} {brief(value)}"
        )
    try:
        text = os.fsdecode(value)
    except (TypeError, UnicodeDecodeError):
        raise error(f"{what} must be a file or directory name, got {brief(value)}") from None
    if not text.strip():
        raise error(f"{what} is an empty name; give the name of a file or directory")
    if "\x00" in text:
        raise error(f"{what} contains a NUL character, which no file name may hold: {brief(text)}")
    return Path(text)


def _meminfo() -> dict[str, int]:
    out = {}
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, rest = line.partition(":")
                parts = rest.split()
                if parts and parts[0].isdigit():
                    out[key] = int(parts[0]) * (1024 if parts[1:2] == ["kB"] else 1)
    except OSError:
        pass
    return out


def _cgroup_room() -> int | None:
    """Bytes this process's cgroup (v2) may still allocate, or None without a limit."""
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read().strip())
        return max(0, int(limit) - used)
    except (OSError, ValueError):
        return None


def _address_space_room() -> int | None:
    """Bytes this process may still map under its address-space limit (``ulimit -v``,
    ``RLIMIT_AS``), or None without one: under such a cap an allocation fails long before
    the machine's memory runs out."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft < 0:
            return None
        with open("/proc/self/status") as f:
            size = next((int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:")), None)
    except (ImportError, OSError, ValueError, IndexError):
        return None
    return None if size is None else max(0, soft - size)


def available_memory() -> int | None:
    """Bytes of memory available to this process now, or None when it cannot be told.

    ``MemAvailable`` of /proc/meminfo (the kernel's estimate of what can be allocated
    without swapping), lowered to the room left under a cgroup memory limit and under the
    process's address-space limit (``ulimit -v``); elsewhere the free physical pages
    (``os.sysconf``).
    """
    found = _meminfo().get("MemAvailable")
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            found = None
    for room in (_cgroup_room(), _address_space_room()):
        if room is not None:
            found = room if found is None else min(found, room)
    return found


def format_bytes(nbytes: float) -> str:
    """``nbytes`` for people, e.g. ``'17.2 GB'`` (decimal units).

    Examples
    --------
    >>> format_bytes(1234), format_bytes(17.2e9), format_bytes(10**400)
    ('1.2 kB', '17.2 GB', 'over 10**21 bytes')
    """
    try:
        value = float(nbytes)
    except OverflowError:  # an int beyond any float
        value = math.inf
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if value < 1000 or unit == "PB":
            break
        value /= 1000
    if not value < 1e6:
        return "over 10**21 bytes"
    return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"


def memory(nbytes: int, what: str, hint: str = "use a smaller size") -> None:
    """Refuse a request that needs ``nbytes`` of memory when less is available.

    Parameters
    ----------
    nbytes : int
        The estimated peak memory of the request (its arrays).
    what : str
        The request, for the message (``"construct for n = 2147483647"``).
    hint : str
        What to do instead, ending the message.

    Raises
    ------
    TooLarge
        Saying how much the request needs and how much is available.
    """
    available = available_memory()
    if available is not None and nbytes > available:
        need = format_bytes(nbytes)
        need = need if need.startswith("over") else f"about {need}"
        raise TooLarge(
            f"{what} needs {need} of memory, but only {format_bytes(available)} is available on this machine; {hint}"
        )
