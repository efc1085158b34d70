"""``queenslab warm``: compile the native engine's kernels ahead of the first count."""

from __future__ import annotations

import click

from ..reports import WarmedSet, WarmReport
from .app import Command, emit_json
from .options import json_option


@click.command("warm", cls=Command)
@json_option
def warm_cmd(as_json: bool) -> int:
    """Compile the native engine's counting kernels now, so that no count waits for them.

    numba compiles each kernel the first time a count needs it and keeps it in its cache
    (next to the package, or under NUMBA_CACHE_DIR): the first count by each method
    (symmetric search, half-board join, general search) would otherwise start with a
    compile of a few seconds. Run this once after installing or upgrading queenslab.
    Kernel sets already compiled are left alone; each compile is timed, its notice goes
    to standard error, and the time is recorded for the notices of later compiles.

    It also builds the join counter's kernels ahead of time: an extension module, in
    queenslab's user cache directory, that a count of the standard problem loads without
    numba (a fresh `queenslab count 16` then starts several times faster). The build
    needs a C compiler; where it fails, the reason is shown and the counts compile the
    kernels with numba instead. QUEENSLAB_AOT=0 turns the module off.

    \b
    JSON keys: kernels (each: method, compiled, seconds, cpu_seconds), ahead_of_time
    (enabled, ready, compiled, seconds, cpu_seconds, path, error).

    \b
    Examples:
      queenslab warm
      queenslab warm --json
    """
    from .. import warm

    done = warm.warm()
    sets = tuple(WarmedSet(s.name, c.compiled, c.seconds, c.cpu_seconds) for s, c in done)
    ahead = warm.warm_ahead()
    if as_json:
        emit_json(WarmReport(sets, ahead))
        return 0
    label = "join, ahead of time"
    width = max(len(label), *(len(s.method) for s in sets))
    for s in sets:
        how = f"compiled in {s.seconds:.1f} s ({s.cpu_seconds:.1f} s CPU)" if s.compiled else "already compiled"
        click.echo(f"{s.method:<{width}}  {how}")
    if not ahead.enabled:
        how = f"turned off ({warm.AOT_ENV}=0)"
    elif ahead.error is not None:
        how = f"not built: {ahead.error}"
    else:
        how = f"built in {ahead.seconds:.1f} s ({ahead.cpu_seconds:.1f} s CPU)" if ahead.compiled else "already built"
    click.echo(f"{label:<{width}}  {how}")
    return 0
