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

import ast
import importlib
import operator
import pkgutil
import sys
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from .errors import TooLarge, setting

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


def declare(name: str, largest: int, unit: str, cost: str, *, forceable: bool = True, owner: str = "") -> Limit:
    """Declare (and register) a practical limit; returns it for the owner to keep.
    ``owner``: the module that declares it (default: the caller's)."""
    limit = Limit(name, int(largest), unit, cost, forceable)
    DECLARED[name] = limit
    _OWNERS[name] = owner or sys._getframe(1).f_globals.get("__name__", "")
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
        ways.append(f"pass {setting('force=True', '--force')} to run it anyway")
    tail = "; " + ", or ".join(ways) if ways else ""
    request = request or f"{limit.name} for {limit.unit} = {shown}"
    kind = "practical limit" if limit.forceable else "limit"
    raise TooLarge(f"{request} is beyond its {kind} {limit.unit} <= {limit.largest:{sep}} ({cost or limit.cost}){tail}")


def every_limit() -> list[Limit]:
    """Every practical limit of the package, modules in the package's order, each module's
    in declaration order.

    The limits are declared by the modules that own them, a third of which load numba. So
    a module's ``declare(...)`` calls are read from its source when their arguments are
    constants (numbers, strings, arithmetic on them and names bound to such at the top of
    the module), without importing it (:func:`declared_in`); a module with any other
    declaration is imported, as are the backends, whose classes declare their reach
    (``Backend.__init_subclass__``). A module whose optional dependency is missing is
    skipped. A test holds the result to the limits the imported modules declare.

    Examples
    --------
    >>> names = [lim.name for lim in every_limit()]
    >>> "counting every solution" in names and "counting with the cpsat backend" in names
    True
    """
    found: dict[str, Limit] = {}
    for name, source in _sources(Path(__file__).parent, "queenslab"):
        if name.startswith(("queenslab.cli", "queenslab.__main__")) or name.endswith(".TEMPLATE"):
            continue
        read = None if name.startswith("queenslab.backends.") else declared_in(source.read_text(encoding="utf-8"))
        if read is None:
            with suppress(ImportError):
                importlib.import_module(name)
                read = [lim for key, lim in DECLARED.items() if _OWNERS.get(key) == name]  # imported now or before
        for lim in read or ():
            found.setdefault(lim.name, lim)
    return list(found.values())


def _sources(folder: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    """``(module name, source file)`` of the package in ``folder`` and its modules and
    subpackages, in :func:`pkgutil.walk_packages` order, found on disk: walking packages
    with :mod:`pkgutil` imports each (and with them numba)."""
    yield prefix, folder / "__init__.py"
    for info in sorted(pkgutil.iter_modules([str(folder)]), key=lambda i: i.name):
        if info.ispkg:
            yield from _sources(folder / info.name, f"{prefix}.{info.name}")
        else:
            yield f"{prefix}.{info.name}", folder / f"{info.name}.py"


#: The module that declared each limit (by name), for :func:`every_limit`.
_OWNERS: dict[str, str] = {}


def declared_in(source: str) -> list[Limit] | None:
    r"""The limits a module's source declares (its ``declare(...)`` calls with constant
    arguments), or None when one has an argument that is not a constant (the module must
    then be imported to know it).

    Examples
    --------
    >>> declared_in('SIZE = 2 ** 10\nLIM = limits.declare("x", SIZE, "n", "slow")')
    [Limit(name='x', largest=1024, unit='n', cost='slow', forceable=True)]
    >>> declared_in('LIM = limits.declare(name(), 3, "n", "slow")') is None
    True
    """
    if "declare(" not in source:
        return []  # most modules: not worth parsing
    tree = ast.parse(source)
    constants: dict[str, object] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                with suppress(ValueError):
                    constants[target.id] = _constant(statement.value, constants)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "declare") and not (
            isinstance(func, ast.Name) and func.id == "declare"
        ):
            continue
        try:
            args = [_constant(a, constants) for a in node.args]
            kwargs = {k.arg: _constant(k.value, constants) for k in node.keywords if k.arg}
        except ValueError:
            return None
        name, largest, unit, cost = args
        out.append(Limit(name, int(largest), unit, cost, bool(kwargs.get("forceable", True))))  # type: ignore[arg-type, call-overload]
    return out


def _constant(node: ast.expr, names: dict[str, object]) -> object:
    """The value of a constant expression: literals, names in ``names``, and ``+ - * //
    ** <<`` and unary minus on them; ValueError for anything else."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant(node.operand, names)  # type: ignore[operator]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_constant(node.left, names), _constant(node.right, names))
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values)  # type: ignore[attr-defined]
    raise ValueError(f"not a constant: {ast.unparse(node)}")


_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
}
