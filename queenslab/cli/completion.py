"""``queenslab experiment completion``: n-queens completion on random partial placements
(Gent, Jefferson and Nightingale's generator), decided and counted by every exact backend.

The library is :mod:`queenslab.completion`; this module parses the numbers of queens,
runs it, and prints the table (or the JSON report) and draws the figure with ``--plot``.
"""

from __future__ import annotations

import dataclasses

import click

from ..backends.registry import exact_backends
from ..completion import DEFAULT_INSTANCES, MAX_INSTANCES, completion_experiment, figure, table
from .app import Command, emit_json
from .options import Progress, Seconds, json_option, number_list, number_option, out_option


def parse_ks(text: str) -> list[int]:
    """``"0..3,6"`` as ``[0, 1, 2, 3, 6]`` (commas, ``a..b`` ranges).

    >>> parse_ks("2,4..6")
    [2, 4, 5, 6]
    """
    return number_list(text, "--ks", "a number of queens", "0..8 or 2,4,6", minimum=0)


@click.command("completion", cls=Command)
@click.argument("n", type=int)
@click.option(
    "--ks",
    default=None,
    metavar="LIST",
    help="Numbers of queens placed in advance, as 0..8 or 2,4,6 (each 0..N; default: every k from 0 to N).",
)
@number_option(
    "--instances", 1, "I", f"Random instances per k (default {DEFAULT_INSTANCES}).", DEFAULT_INSTANCES, MAX_INSTANCES
)
@number_option("--seed", 0, "S", "Random seed of the instances (the same seed gives the same instances).", 0)
@click.option(
    "--backend",
    "backends",
    type=click.Choice(exact_backends()),
    multiple=True,
    help="An exact backend to count with (repeatable; default: every exact backend whose practical limit takes N).",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=None,
    metavar="S",
    help="Seconds each count may take: each backend then counts in a process of its own, stopped at the limit and "
    "reported as out of time (default: no limit, every count to the end).  [finite, x>0]",
)
@out_option(
    "Also draw the phase-transition figure to F, a .png or .svg file: the satisfiable fraction and each backend's "
    'median seconds against k (needs matplotlib: pip install "queenslab[plot]").',
    flag="--plot",
)
@json_option
def completion_cmd(n, ks, instances, seed, backends, time_limit, plot, as_json):
    """n-queens completion: random partial placements, decided and counted by every backend.

    I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens Completion"
    (JAIR 59, 2017): completing k non-attacking queens to a solution is NP-complete.
    For each k, --instances random instances are generated as their published generator
    does (draw a random free row and a random free column, keep the queen if no queen
    stands on its diagonals; rounds of N^2 draws), and each is counted exactly by every
    backend (satisfiable: at least one completion). The table gives per k the
    satisfiable fraction, the mean and median number of completions, each backend's
    median seconds and whether the backends agreed on every instance. A disagreement is
    listed with the instance, the backends and their counts, and exits 1; a count that
    runs out of --time-limit is reported as out of time, not as a disagreement.

    Without --backend every exact backend whose practical limit takes N counts (one
    that cannot run here is listed as skipped); a named backend beyond its limit is
    refused unless --time-limit is given. The seconds are those of a count; with
    --time-limit they count from when the backend's process is ready.

    \b
    JSON keys: experiment, n, ks, instances (per k), backends, seed, time_limit,
    agrees (false when complete counts differ on some instance; null when no instance
    was counted by two backends), results (each: k, instances, decided,
    satisfiable, satisfiable_fraction, mean_count, median_count, timings (each:
    backend, median_seconds, counted, timeouts), compared, agrees, cases (each: k,
    instance, seed, cells, count, answers (each: backend, count, seconds, timed_out,
    error, method), agrees)), disagreements (the cases whose counts differ), skipped
    (each: backend, error), plot, seconds, provenance.

    \b
    Examples:
      queenslab experiment completion 8
      queenslab experiment completion 10 --ks 0..10 --instances 5 --plot completion-10.svg
      queenslab experiment completion 12 --ks 2,4,6 --backend native --backend sat --json
      queenslab experiment completion 14 --backend native --backend cpsat --time-limit 30
    """
    chosen = None if ks is None else parse_ks(ks)
    if plot is not None:
        from ..plot import check_path

        check_path(plot, "--plot")
    bar = Progress(not as_json, "completion", unit="instance")
    try:
        report = completion_experiment(
            n,
            chosen,
            instances=instances,
            backends=list(backends) or None,
            seed=seed,
            time_limit=time_limit,
            progress=bar,
        )
    finally:
        bar.close()
    if plot is not None:
        from .. import plot as figures

        figures.save(figure(report), plot)
        report = dataclasses.replace(report, plot=plot)
    if as_json:
        emit_json(report)
    else:
        click.echo(table(report), nl=False)
        if report.agrees is False:
            click.echo("BACKENDS DISAGREE (see above)")
        if plot is not None:
            click.echo(f"figure: {plot}")
    return 1 if report.agrees is False else 0
