"""``queenslab limits``: every practical limit of the package, read from its declarations."""

from __future__ import annotations

from dataclasses import replace

import click

from ..reports import LimitsReport
from .app import Command, emit_json
from .options import json_option


@click.command("limits", cls=Command)
@json_option
def limits_cmd(as_json: bool) -> int:
    """List every practical limit: what it bounds, the largest size allowed without --force,
    and what a request beyond it costs.

    Each limit is declared once, beside the function it guards; a request beyond one is
    refused with this text unless --force (force=True in Python). They are read from the
    declarations in the package's source (numba is not loaded).

    \b
    JSON keys: limits (each: name, largest, unit, cost, forceable).

    \b
    Examples:
      queenslab limits
      queenslab limits --json
    """
    from ..errors import in_flags
    from ..limits import every_limit

    found = every_limit()
    if as_json:
        emit_json(LimitsReport(tuple(replace(lim, cost=in_flags(lim.cost)) for lim in found)))
        return 0
    width = max(len(lim.name) for lim in found)
    for lim in found:
        bound = f"{lim.unit} <= {lim.largest:,}" + ("" if lim.forceable else " (no --force)")
        click.echo(f"{lim.name:<{width}}  {bound:<22} {in_flags(lim.cost)}")
    return 0
