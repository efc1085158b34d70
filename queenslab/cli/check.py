"""``check``: a placement held to a problem's rules, each broken rule named.

It reads only the problem and the placement, so a fresh ``queenslab check`` loads
neither numpy nor numba.
"""

from __future__ import annotations

import click

from ..solution import conflicts
from .app import Command, emit_json
from .options import json_option, placement_arg, problem_options


@click.command("check", cls=Command)
@click.argument("placement", nargs=-1)
@problem_options(n_argument=False)
@json_option
def check_cmd(placement, variant, as_json):
    """Check whether PLACEMENT is a solution and say why not.

    PLACEMENT lists the 1-based column of each row: '2 4 1 3', 2,4,1,3 or 2413.
    Exits 0 for a solution, 1 otherwise.

    \b
    JSON keys: n, problem, placement, valid, conflicts (each: rule, cells, message).

    \b
    Examples:
      queenslab check 2 8 10 4 1 5 9 6 3 7
      queenslab check 15863724 --json
    """
    problem, p = variant.placement(placement_arg(placement))
    found = conflicts(problem, p)
    if as_json:
        from ..reports import BrokenRule, CheckReport

        emit_json(
            CheckReport(
                n=problem.n,
                problem=problem,
                placement=tuple(p),
                valid=not found,
                conflicts=tuple(BrokenRule(c.rule, tuple(c.cells), c.message) for c in found),
            )
        )
    elif not found:
        click.echo(f"a solution of {problem.describe()}")
    else:
        click.echo(f"not a solution of {problem.describe()}:")
        for c in found:
            click.echo(f"  {c.message}")
    return 0 if not found else 1
