"""Options shared by the commands: the problem (variant flags, built into a ``Problem``
once), ``--json``, the backends' own options (derived from the registry), the index
choice, progress bars and placement arguments."""

from __future__ import annotations

import functools
import math
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..errors import InvalidPlacement, QueensError
from ..problem import Problem
from ..solution import board_placement, parse_placement
from ..validate import MAX_SECONDS, MAX_SOLVER_SEED, MAX_THREADS

if TYPE_CHECKING:
    from ..backends.interface import Option

__all__ = [
    "problem_options",
    "json_option",
    "dask_option",
    "backend_option",
    "solver_options",
    "index_options",
    "choice_option",
    "number_option",
    "out_option",
    "OutputPath",
    "InputPath",
    "Seconds",
    "Progress",
    "placement_arg",
    "parse_cells",
    "INT64_MAX",
    "SEED_MAX",
    "THREADS_MAX",
]


#: The largest value of an integer option unless it says otherwise: a 64-bit integer.
INT64_MAX = 2**63 - 1
#: Seeds: 0..2**31 - 1 (CP-SAT's random seed is a 32-bit integer; one range for every method).
SEED_MAX = MAX_SOLVER_SEED
#: Threads and solver workers: 1..1024.
THREADS_MAX = MAX_THREADS
#: The largest value of the backends' integer options, by name (else :data:`INT64_MAX`).
_MAXIMUM = {"seed": SEED_MAX, "threads": THREADS_MAX, "workers": THREADS_MAX}

_CELL = re.compile(r"\s*([0-9]+)\s*[,;]\s*([0-9]+)\s*", re.ASCII)
#: More digits than this cannot be a row or column of any board.
_MAX_DIGITS = 18


def parse_cells(values: tuple[str, ...], what: str) -> list[tuple[int, int]]:
    """1-based ``ROW,COL`` strings as 0-based cells.

    Parameters
    ----------
    values : tuple of str
        Each ``ROW,COL`` (``ROW;COL`` also), ROW and COL written in the ASCII digits
        0-9; spaces around them are allowed, nothing else.
    what : str
        The option's name (``block``), for messages.

    Returns
    -------
    list of (int, int)
        0-based cells (whether they lie on the board is checked with n).

    Raises
    ------
    QueensError
        For anything else: signs, decimals, other digits than 0-9, a missing or extra
        part, a number of more than 18 digits.

    Examples
    --------
    >>> parse_cells(("1,3", " 2 , 4 "), "block")
    [(0, 2), (1, 3)]
    >>> parse_cells(("1,,3",), "fix")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: --fix expects ROW,COL: two 1-based numbers (digits 0-9) separated by a comma, for example --fix 1,3; got '1,,3'
    """
    cells = []
    for v in values:
        m = _CELL.fullmatch(v) if isinstance(v, str) else None
        if m is None:
            raise QueensError(
                f"--{what} expects ROW,COL: two 1-based numbers (digits 0-9) separated by a comma, "
                f"for example --{what} 1,3; got {v!r}"
            )
        if any(len(g.lstrip("0")) > _MAX_DIGITS for g in m.groups()):
            raise QueensError(
                f"--{what} {v.strip()[:40]!r}: a row or column of {_MAX_DIGITS + 1}+ digits is off any board; "
                "rows and columns are 1..n"
            )
        r, c = (int(g) for g in m.groups())
        cells.append((r - 1, c - 1))
    return cells


def _board_size(value: int | None, what: str, least: int) -> int | None:
    if value is not None and value < least:
        raise QueensError(
            f"--{what} {value}: give {'a number of columns >= 1' if least else 'a number of queens >= 0'}"
        )
    return value


def _problem(
    n: int | None,
    toroidal: bool,
    knight: bool,
    block: tuple[str, ...],
    fix: tuple[str, ...],
    file: str | None,
    columns: int | None = None,
    queens: int | None = None,
) -> Problem:
    """The Problem of the variant flags, merged into the problem file's when one is given:
    the flags add their constraints to the file's (a flag never removes one); ``--columns``
    and ``--queens`` set the board (the file's unless given)."""
    base = None
    if file is not None:
        from ..problem_file import read_problem  # here: only a problem file needs it

        base = read_problem(file)
    if n is None:
        if base is None:
            raise QueensError("give the board size N, or a problem file with --problem FILE")
        n = base.n
    elif base is not None and base.n != n:
        raise QueensError(f"N is {n} but the problem file {file} says n = {base.n}; give the same size, or leave N out")
    columns, queens = _board_size(columns, "columns", 1), _board_size(queens, "queens", 0)
    if base is not None:
        columns = base.columns if columns is None else columns
        queens = base.queens if queens is None else queens
    m = n if columns is None else columns
    blocked, fixed = parse_cells(block, "block"), parse_cells(fix, "fix")
    for r, c in blocked + fixed:
        if not (0 <= r < n and 0 <= c < m):
            raise QueensError(
                f"cell {r + 1},{c + 1} is outside the {n}x{m} board; rows are 1..{n} and columns 1..{m}"
                if m != n
                else f"cell {r + 1},{c + 1} is outside the {n}x{n} board; rows and columns are 1..{n}"
            )
    if base is None:
        return Problem(
            n, toroidal=toroidal, knight=knight, blocked=blocked, fixed=fixed, columns=columns, queens=queens
        )
    return Problem(
        n,
        toroidal=base.toroidal or toroidal,
        knight=base.knight or knight,
        blocked=[*base.blocked, *blocked],
        fixed=[*base.fixed, *fixed],
        leapers=base.leapers,
        regions=base.regions,
        columns=columns,
        queens=queens,
        constraints=base.own_constraints,  # the file's holes
    )


class Variant:
    """The variant flags of a command whose n comes from a placement: ``variant(n)`` is
    the ``Problem``; ``variant.given`` says whether any flag (or a problem file) was set,
    ``variant.file`` is the problem file's problem, if any."""

    def __init__(
        self,
        toroidal: bool,
        knight: bool,
        block: tuple[str, ...],
        fix: tuple[str, ...],
        file: str | None,
        columns: int | None = None,
        queens: int | None = None,
    ):
        self._flags = (toroidal, knight, block, fix, file, columns, queens)
        self.given = bool(toroidal or knight or block or fix or file or columns is not None or queens is not None)
        self.file = file
        #: Whether --columns or --queens set a board other than n queens on n x n.
        self.board = columns is not None or queens is not None

    def __call__(self, n: int | None) -> Problem:
        return _problem(n, *self._flags)

    def placement(self, text: str) -> tuple[Problem, tuple[int, ...]]:
        """The problem of a placement's text (as :func:`placement_arg` gives it; its rows
        are the board's) and the placement, 0-based (-1: an empty row)."""
        if not self.board:
            p = parse_placement(text)
            return self(len(p)), p
        tokens = [t for t in _PLACEMENT_WORDS.split(text) if t]
        problem = self(len(tokens))
        return problem, tuple(int(c) for c in board_placement(problem, text))


#: The headings of a command's help, in order; a command's own options come under
#: "Options", after the problem's.
PROBLEM, OWN, BACKEND, OUTPUT = "Problem", "Options", "Backend", "Output"
SECTIONS = (PROBLEM, OWN, BACKEND, OUTPUT)


class SectionOption(click.Option):
    """An option listed under a heading of its command's help (``section``, one of
    :data:`SECTIONS`): the flags shared by many commands say what they are about, the
    problem, the backend or the output; a command's own options have no section."""

    def __init__(self, *args: Any, section: str = OWN, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if section not in SECTIONS:
            raise ValueError(f"unknown help section {section!r}")
        self.section = section


def _option(section: str, *decls: str, **kwargs: Any) -> Callable:
    """``click.option`` under the help heading ``section``."""
    return click.option(*decls, cls=SectionOption, section=section, **kwargs)


def problem_options(fn: Callable | None = None, *, n_argument: bool = True, optional_n: bool = False) -> Callable:
    """Add the variant flags and ``--problem FILE`` and hand the command one ``Problem``.

    With ``n_argument`` (the default) the decorator also adds the ``N`` argument and the
    command receives ``problem``; ``optional_n`` lets a command whose only argument is N
    take N from the problem file. Without ``n_argument`` (a placement gives n) the command
    receives ``variant``, a :class:`Variant`.
    """

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(**kw: Any) -> Any:
            flags = (
                kw.pop("toroidal"),
                kw.pop("knight"),
                kw.pop("block"),
                kw.pop("fix"),
                kw.pop("problem_file"),
                kw.pop("columns"),
                kw.pop("queens"),
            )
            if n_argument:
                kw["problem"] = _problem(kw.pop("n"), *flags)
            else:
                kw["variant"] = Variant(*flags)
            return f(**kw)

        w: Callable = wrapper
        w = _option(
            PROBLEM,
            "--queens",
            "queens",
            type=int,
            default=None,
            metavar="K",
            help="K queens in all (default N): with fewer than N rows may stay empty (k queens on an r x c board, "
            "Kotesovec; Chaiken, Hanusa and Zaslavsky).",
        )(w)
        w = _option(
            PROBLEM,
            "--columns",
            "columns",
            type=int,
            default=None,
            metavar="M",
            help="An N x M board (default square): N rows, M columns.",
        )(w)
        w = _option(
            PROBLEM,
            "--problem",
            "problem_file",
            type=InputPath(),
            metavar="FILE",
            default=None,
            help="A problem file (TOML, 1-based cells: n, columns, queens, toroidal, knight, leapers, blocked, fixed, "
            "[[region]] tables); the variant flags add to it. See docs/variants.md.",
        )(w)
        w = _option(
            PROBLEM,
            "--fix",
            "fix",
            multiple=True,
            metavar="R,C",
            help="A queen fixed on row R, column C (1-based; repeatable): n-queens completion.",
        )(w)
        w = _option(
            PROBLEM,
            "--block",
            "block",
            multiple=True,
            metavar="R,C",
            help="No queen on row R, column C (1-based; repeatable).",
        )(w)
        w = _option(PROBLEM, "--knight", is_flag=True, help="Superqueens: queens also move like knights.")(w)
        w = _option(PROBLEM, "--toroidal", is_flag=True, help="Moves wrap around the board edges.")(w)
        if n_argument:
            w = click.argument("n", type=int, required=not optional_n)(w)
        return w

    return decorate(fn) if fn is not None else decorate


def number_list(text: str, flag: str, noun: str, example: str, minimum: int | None = None) -> list[int]:
    """The numbers of a list option: ``"8,12,16..20"`` as ``[8, 12, 16, 17, 18, 19, 20]``
    (commas, ``a..b`` ranges); ``noun`` names one (``"a board size"``) and ``example``
    shows the form in the message of a bad list.

    >>> number_list("2,4..6", "--ks", "a number of queens", "0..8 or 2,4,6")
    [2, 4, 5, 6]
    """
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        lo, sep, hi = part.partition("..")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise QueensError(
                f"{flag} {text!r}: {part!r} is not {noun} or a range; give numbers and ranges such as {example}"
            ) from None
        if minimum is not None and a < minimum:
            raise QueensError(f"{flag} {text!r}: {part!r} starts below {minimum}")
        if b < a:
            raise QueensError(f"{flag} {text!r}: the range {part!r} is empty (its end is before its start)")
        if b - a > 10_000:
            raise QueensError(f"{flag} {text!r}: the range {part!r} is longer than the experiment can take")
        out.extend(range(a, b + 1))
    return out


def json_option(fn: Callable) -> Callable:
    """``--json``: print one JSON object with the command's documented keys."""
    return _option(OUTPUT, "--json", "as_json", is_flag=True, help="Print one JSON object (documented keys).")(fn)


def backend_option(fn: Callable) -> Callable:
    """``--backend B``, its choices from the registry (the first is the default)."""
    from ..backends.registry import BACKENDS  # here: the commands without --backend load no backend

    names = list(BACKENDS)
    lines = "; ".join(f"{name}: {cls.summary}" for name, cls in BACKENDS.items())
    return _option(
        BACKEND,
        "--backend",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help=f"Which backend answers. {lines}.",
    )(fn)


class Seconds(click.ParamType):
    """A positive number of seconds up to :data:`queenslab.validate.MAX_SECONDS` (``2``,
    ``0.5``, ``1e3``); nan, inf, zero, negative and larger numbers are refused with the
    allowed range."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float) and 0 < value <= MAX_SECONDS:
            return value
        try:
            seconds = float(value)
        except (TypeError, ValueError, OverflowError):
            seconds = math.nan
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
            self.fail(
                f"{value!r} is not a number of seconds: give a number > 0 and at most {MAX_SECONDS:.0e} "
                "(about 31 years), for example 2.5",
                param,
                ctx,
            )
        return seconds


def _click_type(opt: Option) -> Any:
    if opt.kind == "int":
        return click.IntRange(min=int(opt.minimum or 0), max=opt.maximum)
    if opt.kind == "float":
        return Seconds()
    if opt.kind == "real":  # click shows the range in the help and refuses a value outside it
        return click.FloatRange(
            min=opt.minimum, max=opt.real_maximum, min_open=opt.open_minimum, max_open=opt.open_maximum
        )
    if opt.kind == "choice":
        return click.Choice(list(opt.choices))
    return str


def solver_options(question: str) -> Callable:
    """Add a flag for every command-line option some backend takes for ``question``
    (``counts``, ``solutions`` or ``solve``), as the registry declares them; the command
    receives them gathered in ``backend_opts`` (only those given)."""
    from ..backends.registry import backend_options

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
            if opt.kind == "float":
                text += "  [finite, x>0]"
            if opt.kind == "flag":
                w = _option(BACKEND, opt.flag, name, is_flag=True, default=False, help=text)(w)
            else:
                w = _option(
                    BACKEND,
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


def number_option(
    flag: str, minimum: int, metavar: str, help: str, default: int | None = None, maximum: int | None = None
) -> Callable:
    """An integer option in ``minimum..maximum`` (None when not given, unless ``default``).

    ``maximum`` defaults to the backends' maximum for an option of that name
    (``--seed`` :data:`SEED_MAX`, ``--threads`` :data:`THREADS_MAX`), else
    :data:`INT64_MAX`. The range is shown in the help and a value outside it is refused
    with the range.
    """
    if maximum is None:
        maximum = _MAXIMUM.get(flag.lstrip("-").replace("-", "_"), INT64_MAX)
    return click.option(
        flag, type=click.IntRange(min=minimum, max=maximum), default=default, metavar=metavar, help=help
    )


class OutputPath(click.ParamType):
    """A file the command will write: checked before the work starts (not empty, not
    a directory or a device, in an existing directory where a file can be created;
    see :func:`queenslab.outfile.check_output_path`), and never one of the command's
    inputs or another of its outputs (:class:`queenslab.cli.app.Command`)."""

    name = "file"
    role = "output"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            from ..outfile import check_output_path

            return check_output_path(value)
        except QueensError as e:
            self.fail(str(e), param, ctx)


class InputPath(click.ParamType):
    """A file the command will read: a non-empty name, which no output of the command may
    name (:class:`queenslab.cli.app.Command`). The file itself is opened by its reader,
    which refuses anything but a regular file before it can block
    (:func:`queenslab.infile.open_regular`)."""

    name = "file"
    role = "input"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if not text.strip():
            self.fail("an empty file name; give the name of the file to read", param, ctx)
        if "\x00" in text:
            self.fail("a file name cannot hold a NUL character", param, ctx)
        return text


def out_option(
    help: str = "Write to file F instead of standard output.", flag: str = "--out", metavar: str = "F"
) -> Callable:
    """``--out F``: where a command writes its file (written whole or not at all)."""
    name = flag.lstrip("-").replace("-", "_")
    return _option(OUTPUT, flag, name, type=OutputPath(), default=None, metavar=metavar, help=help)


def index_options(fn: Callable) -> Callable:
    """``--index PATH`` / ``--no-index``; the command receives ``index`` as the ranking
    functions take it (``"auto"``, None, or an opened index)."""

    @functools.wraps(fn)
    def wrapper(**kw: Any) -> Any:
        from ..ranking.index_find import resolve

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
    """A tqdm bar on stderr when it is a terminal and output is not JSON; else nothing.

    The bar shows the rate and an estimate of the time left; :meth:`echo` prints a line
    of output above it."""

    def __init__(self, enabled: bool, desc: str, unit: str = "task"):
        self.bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=0, desc=desc, unit=unit, file=sys.stderr, leave=False)

    def echo(self, line: str) -> None:
        """Print ``line`` on standard output, the bar cleared before and drawn after."""
        if self.bar is None:
            click.echo(line)
        else:
            self.bar.write(line, file=sys.stdout)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.total = total
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


_PLACEMENT_CHARS = frozenset("0123456789 \t\n,;[]()")
_PLACEMENT_WORDS = re.compile(r"[ \t\n,;\[\]()]+")
_EMPTY_PART = re.compile(r"(^|[,;])\s*([,;]|$)")


def placement_arg(words: tuple[str, ...]) -> str:
    """The words of a placement argument as one string, checked for what a placement
    may contain.

    Parameters
    ----------
    words : tuple of str
        As the command line gives them.

    Returns
    -------
    str
        The words joined by spaces, for :func:`queenslab.solution.parse_placement`.

    Raises
    ------
    QueensError
        If there are no words, or the text holds anything but column numbers in the
        ASCII digits 0-9 separated by spaces, commas or semicolons (optionally inside
        brackets): no signs, decimals, other digits, empty parts between commas or
        numbers of more than 18 digits.

    Examples
    --------
    >>> placement_arg(("2", "4", "1", "3"))
    '2 4 1 3'
    >>> placement_arg(("2,4,1.5",))
    Traceback (most recent call last):
    ...
    queenslab.errors.InvalidPlacement: '1.5' is not a column number: give the 1-based column of each row in the digits 0-9, separated by spaces or commas, e.g. '2 4 1 3'
    """
    how = "give the 1-based column of each row in the digits 0-9, separated by spaces or commas, e.g. '2 4 1 3'"
    if not words:
        raise InvalidPlacement(f"give a placement: {how} (or 2413 for n <= 9)")
    text = " ".join(words)
    if any(ch not in _PLACEMENT_CHARS for ch in text.replace("-", "")):
        bad = next(t for t in _PLACEMENT_WORDS.split(text) if t and t != "-" and not (t.isascii() and t.isdigit()))
        raise InvalidPlacement(f"{bad[:40]!r} is not a column number: {how}")
    bad = next((t for t in _PLACEMENT_WORDS.split(text) if "-" in t and t != "-"), None)
    if bad is not None:
        raise InvalidPlacement(f"{bad[:40]!r} is not a column number: {how} (- alone is an empty row, with --queens)")
    body = text.strip().strip("[]()").strip()
    if not body:
        raise InvalidPlacement(f"empty placement: {how}")
    if _EMPTY_PART.search(body):
        raise InvalidPlacement(f"{text[:60]!r} has an empty column between commas: {how}")
    if any(len(t.lstrip("0")) > _MAX_DIGITS for t in re.findall(r"[0-9]+", text)):
        raise InvalidPlacement(f"a column number of more than {_MAX_DIGITS} digits is off any board: {how}")
    return text


def dask_option(verb: str) -> Callable:
    """``--dask local:K|tcp://H:P``: run on a Dask cluster (``verb`` says what runs there,
    e.g. "Count"); the value is parsed by :class:`queenslab.distributed.DaskSpec`."""
    return click.option(
        "--dask",
        metavar="local:K|tcp://H:P",
        default=None,
        help=f"{verb} on a Dask cluster: local:K starts K worker processes on this machine (loopback "
        "only), an address uses a running scheduler (tls:// with the Dask configuration's TLS "
        "settings). Needs the extra 'dask'.",
    )


def force_option(what: str) -> Callable:
    """``--force``: go ahead beyond the practical limits of ``what``. The help names no
    number: each limit is declared once in the library, and a refused request's error
    names it (``queenslab limits`` lists them all)."""
    return click.option(
        "--force",
        is_flag=True,
        help=f"Go ahead beyond the practical limits of {what}; a refused request's error names the limit and "
        "its cost (queenslab limits lists them all).",
    )
