"""Options shared by the commands: the problem (variant flags, built into a ``Problem``
once), ``--json``, the backends' own options (derived from the registry), the index
choice, progress bars and placement arguments."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import click

from ..backends.interface import Option
from ..backends.registry import BACKENDS, backend_options
from ..errors import QueensError
from ..outfile import check_output_path
from ..problem import Problem

__all__ = [
    "problem_options",
    "json_option",
    "backend_option",
    "solver_options",
    "index_options",
    "choice_option",
    "number_option",
    "out_option",
    "OutputPath",
    "Progress",
    "placement_arg",
    "parse_cells",
]


def parse_cells(values: tuple[str, ...], what: str) -> list[tuple[int, int]]:
    """1-based ``ROW,COL`` strings as 0-based cells."""
    cells = []
    for v in values:
        parts = [p for p in v.replace(";", ",").split(",") if p.strip()]
        try:
            r, c = (int(p) for p in parts)
        except ValueError:
            raise QueensError(
                f"--{what} expects ROW,COL with 1-based integers (for example --{what} 1,3), got {v!r}"
            ) from None
        cells.append((r - 1, c - 1))
    return cells


def _problem(n: int, toroidal: bool, knight: bool, block: tuple[str, ...], fix: tuple[str, ...]) -> Problem:
    blocked, fixed = parse_cells(block, "block"), parse_cells(fix, "fix")
    for r, c in blocked + fixed:
        if not (0 <= r < n and 0 <= c < n):
            raise QueensError(f"cell {r + 1},{c + 1} is outside the {n}x{n} board; rows and columns are 1..{n}")
    return Problem(n, toroidal=toroidal, knight=knight, blocked=blocked, fixed=fixed)


class Variant:
    """The variant flags of a command whose n comes from a placement: ``variant(n)`` is
    the ``Problem``; ``variant.given`` says whether any flag was set."""

    def __init__(self, toroidal: bool, knight: bool, block: tuple[str, ...], fix: tuple[str, ...]):
        self._flags = (toroidal, knight, block, fix)
        self.given = bool(toroidal or knight or block or fix)

    def __call__(self, n: int) -> Problem:
        return _problem(n, *self._flags)


def problem_options(fn: Callable | None = None, *, n_argument: bool = True) -> Callable:
    """Add the variant flags and hand the command one ``Problem``.

    With ``n_argument`` (the default) the decorator also adds the ``N`` argument and the
    command receives ``problem``; without it (a placement gives n) the command receives
    ``variant``, a :class:`Variant`.
    """

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(**kw: Any) -> Any:
            flags = (kw.pop("toroidal"), kw.pop("knight"), kw.pop("block"), kw.pop("fix"))
            if n_argument:
                kw["problem"] = _problem(kw.pop("n"), *flags)
            else:
                kw["variant"] = Variant(*flags)
            return f(**kw)

        w: Callable = wrapper
        w = click.option(
            "--fix",
            "fix",
            multiple=True,
            metavar="R,C",
            help="A queen fixed on row R, column C (1-based; repeatable): n-queens completion.",
        )(w)
        w = click.option(
            "--block", "block", multiple=True, metavar="R,C", help="No queen on row R, column C (1-based; repeatable)."
        )(w)
        w = click.option("--knight", is_flag=True, help="Superqueens: queens also move like knights.")(w)
        w = click.option("--toroidal", is_flag=True, help="Moves wrap around the board edges.")(w)
        if n_argument:
            w = click.argument("n", type=int)(w)
        return w

    return decorate(fn) if fn is not None else decorate


def json_option(fn: Callable) -> Callable:
    """``--json``: print one JSON object with the command's documented keys."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object (documented keys).")(fn)


def backend_option(fn: Callable) -> Callable:
    """``--backend B``, its choices from the registry (the first is the default)."""
    names = list(BACKENDS)
    lines = "; ".join(f"{name}: {cls.summary}" for name, cls in BACKENDS.items())
    return click.option(
        "--backend",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help=f"Which backend answers. {lines}.",
    )(fn)


def _click_type(opt: Option) -> Any:
    if opt.kind == "int":
        return click.IntRange(min=int(opt.minimum or 0))
    if opt.kind == "float":
        return click.FloatRange(min=opt.minimum or 0, min_open=opt.open_minimum)
    if opt.kind == "choice":
        return click.Choice(list(opt.choices))
    return str


def solver_options(question: str) -> Callable:
    """Add a flag for every command-line option some backend takes for ``question``
    (``counts``, ``solutions`` or ``solve``), as the registry declares them; the command
    receives them gathered in ``backend_opts`` (only those given)."""
    declared = backend_options(question)

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(**kw: Any) -> Any:
            given = {name: kw.pop(name) for name in declared}
            kw["backend_opts"] = {k: v for k, v in given.items() if v is not None and v is not False}
            return f(**kw)

        w: Callable = wrapper
        for name, (opt, users) in reversed(list(declared.items())):
            text = f"[{', '.join(users)}] {opt.help}"
            if opt.default not in (None, False):
                text += f" (default {opt.default})"
            if opt.kind == "flag":
                w = click.option(opt.flag, name, is_flag=True, default=False, help=text)(w)
            else:
                w = click.option(
                    opt.flag,
                    name,
                    type=_click_type(opt),
                    default=None,
                    metavar=opt.metavar or ("X" if opt.kind != "choice" else None),
                    help=text,
                )(w)
        return w

    return decorate


def choice_option(flag: str, choices: list[str], default: str, help: str) -> Callable:
    """An option taking one of ``choices`` (default shown in the help)."""
    return click.option(flag, type=click.Choice(choices), default=default, show_default=True, help=help)


def number_option(flag: str, minimum: int, metavar: str, help: str, default: int | None = None) -> Callable:
    """An integer option with a lower bound (None when not given, unless ``default``)."""
    return click.option(flag, type=click.IntRange(min=minimum), default=default, metavar=metavar, help=help)


class OutputPath(click.ParamType):
    """A file the command will write: checked before the work starts (not empty, not
    a directory or a device, in an existing directory where a file can be created;
    see :func:`queenslab.outfile.check_output_path`)."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            return check_output_path(value)
        except QueensError as e:
            self.fail(str(e), param, ctx)


def out_option(
    help: str = "Write to file F instead of standard output.", flag: str = "--out", metavar: str = "F"
) -> Callable:
    """``--out F``: where a command writes its file (written whole or not at all)."""
    name = flag.lstrip("-").replace("-", "_")
    return click.option(flag, name, type=OutputPath(), default=None, metavar=metavar, help=help)


def index_options(fn: Callable) -> Callable:
    """``--index PATH`` / ``--no-index``; the command receives ``index`` as the ranking
    functions take it (``"auto"``, None, or an opened index)."""

    @functools.wraps(fn)
    def wrapper(**kw: Any) -> Any:
        from ..ranking.index import resolve

        kw["index"] = resolve(kw["problem"], kw.pop("index_path"), no_index=kw.pop("no_index"))
        return fn(**kw)

    w: Callable = click.option("--no-index", is_flag=True, help="Never use a persistent index.")(wrapper)
    return click.option(
        "--index",
        "index_path",
        default=None,
        metavar="PATH",
        help="Index directory or .sqlite file (default: $QUEENSLAB_INDEX_DIR or the user cache).",
    )(w)


class Progress:
    """A tqdm bar on stderr when it is a terminal and output is not JSON; else nothing."""

    def __init__(self, enabled: bool, desc: str):
        self.bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=0, desc=desc, unit="task", file=sys.stderr, leave=False)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.total = total
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def placement_arg(words: tuple[str, ...]) -> str:
    """The words of a placement argument as one string (an error when there are none)."""
    if not words:
        raise QueensError("give a placement, e.g. '2 4 1 3' or 2413 (1-based columns by row)")
    return " ".join(words)
