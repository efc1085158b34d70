"""Building blocks shared by the command-line modules: variant flags, --json, problems
from flags, progress bars, placement arguments.

Command modules (``queenslab.cli`` and those it registers) import these so that every
command parses variant flags, prints JSON and reports errors the same way.
"""

from __future__ import annotations

import json
import sys
from typing import Callable

import click

from .errors import QueensError
from .problem import Problem

__all__ = ["emit_json", "parse_cells", "make_problem", "variant_options", "json_option", "Progress", "placement_arg"]




def emit_json(obj) -> None:
    click.echo(json.dumps(obj))


def parse_cells(values, what: str) -> list[tuple[int, int]]:
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


def make_problem(n: int, toroidal: bool, knight: bool, block, fix) -> Problem:
    blocked = parse_cells(block, "block")
    fixed = parse_cells(fix, "fix")
    for r, c in blocked + fixed:
        if not (0 <= r < n and 0 <= c < n):
            raise QueensError(
                f"cell {r + 1},{c + 1} is outside the {n}x{n} board; rows and columns are 1..{n}"
            )
    return Problem(n, toroidal=toroidal, knight=knight, blocked=blocked, fixed=fixed)


def variant_options(fn: Callable) -> Callable:
    """The variant flags shared by every command that builds a Problem."""
    fn = click.option(
        "--fix", "fix", multiple=True, metavar="R,C",
        help="A queen fixed on row R, column C (1-based; repeatable): n-queens completion.",
    )(fn)
    fn = click.option(
        "--block", "block", multiple=True, metavar="R,C",
        help="No queen on row R, column C (1-based; repeatable).",
    )(fn)
    fn = click.option("--knight", is_flag=True, help="Superqueens: queens also move like knights.")(fn)
    fn = click.option("--toroidal", is_flag=True, help="Moves wrap around the board edges.")(fn)
    return fn


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(fn)


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
    if not words:
        raise QueensError("give a placement, e.g. '2 4 1 3' or 2413 (1-based columns by row)")
    return " ".join(words)
