"""``estimate``: an estimated number of solutions, with its standard error and interval."""

from __future__ import annotations

from typing import Any

import click

from ..estimate import DEFAULT_SAMPLES, MAX_SAMPLES, METHODS, Estimate, estimate
from ..problem import Problem
from .app import Command, emit_json
from .options import Progress, Seconds, choice_option, dask_option, json_option, number_option, problem_options


def _line(e: Estimate) -> str:
    """The answer as one sentence."""
    if e.exact:
        return (
            f"exactly {e.count:,} solutions (the whole search tree was counted: {e.nodes:,} nodes), "
            f"method {e.method}, {e.seconds:.2f} s"
        )
    if e.estimate == 0 and e.known == 0:  # proved: nothing can hide
        return (
            f"no solutions ({e.known_source}); no probe reached one either, method {e.method}, "
            f"{e.probes:,} samples, {e.seconds:.2f} s"
        )
    if e.estimate == 0:
        return (
            f"no probe reached a solution: 0 estimated, which a rare solution can hide (the interval says "
            f"nothing then), method {e.method}, {e.probes:,} samples, {e.seconds:.2f} s"
        )
    rse = f"{100 * e.relative_stderr:.2g}%"
    return (
        f"about {e.estimate:.3e} solutions ({100 * e.confidence:g}% interval {e.low:.3e} .. {e.high:.3e}; "
        f"relative standard error {rse}), method {e.method}, {e.probes:,} samples, {e.seconds:.2f} s"
    )


def _known_line(e: Estimate) -> str:
    """The known count beside the estimate: within or outside its interval."""
    if e.known == 0:
        return f"known value 0 ({e.known_source}): the estimate is wrong"
    where = "within" if e.within else "OUTSIDE"
    ratio = f"; the estimate is {e.estimate / e.known:.4f} of it" if e.known else ""
    return f"known value {e.known:,} ({e.known_source}): {where} the {100 * e.confidence:g}% interval{ratio}"


@click.command("estimate", cls=Command)
@problem_options(optional_n=True)
@number_option(
    "--samples",
    2,
    "K",
    f"Probes to make (default {DEFAULT_SAMPLES:,} when no --time-limit; with both, whichever comes first).",
    maximum=MAX_SAMPLES,
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=None,
    metavar="S",
    help="Seconds to probe for (the number of probes then depends on the machine).  [finite, x>0]",
)
@number_option(
    "--seed",
    0,
    "S",
    "Random seed: the same seed gives the same estimate on any number of threads, or on a Dask cluster.",
    0,
)
@number_option("--threads", 1, "T", "Threads (default: every core; not with --dask).")
@dask_option("Probe")
@choice_option(
    "--method",
    ["auto", *METHODS],
    "auto",
    "knuth: random root-to-leaf probes (Knuth 1975); partial: Purdom's partial backtracking (1978) on the "
    "last rows; stratified: exact top rows, probes allocated in proportion to the chance that a random "
    "probe reaches each, the last rows counted exactly; auto: count a small tree exactly, else stratified.",
)
@click.option(
    "--confidence", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.95, show_default=True
)
@json_option
def estimate_cmd(
    problem: Problem,
    samples: int | None,
    time_limit: float | None,
    seed: int,
    threads: int | None,
    method: str,
    confidence: float,
    dask: str | None,
    as_json: bool,
) -> int:
    """Estimate the number of solutions of N queens (or a variant) where counting is out of reach.

    Random probes of the search tree give an unbiased estimate of the solutions and of the
    search nodes, with a standard error and a confidence interval (normal approximation).
    A small tree is counted exactly (auto). Ctrl-C stops and prints nothing partial.
    Every variant up to n = 64; the standard and the plain toroidal problem up to n = 200.

    With --dask the same seeded tasks of probes run on a Dask cluster, in batches, and are
    added in the same order: the same seed gives the same estimate as on threads. A
    --time-limit counts from the start (starting the cluster uses part of it). A lost
    worker's probes are run again elsewhere (one line on stderr).

    \b
    JSON keys: n, problem, estimate, stderr, low, high, confidence, probes, method, strata,
    nodes_estimate, nodes_stderr, exact, count and nodes (exact counts, null unless exact),
    seed, threads (null with --dask), seconds, note (why contradicting constraints leave no
    solutions, else null), workers (the Dask workers that probed; null without --dask),
    known and known_source (the published or proved count and where it comes from: OEIS
    for the standard problem, toroidal queens and superqueens, Pólya's theorem for a
    toroidal board of n divisible by 2 or 3; null otherwise), within (whether known lies in
    the interval).

    \b
    Examples:
      queenslab estimate 20
      queenslab estimate 30 --time-limit 10 --threads 2
      queenslab estimate 22 --samples 100000000 --dask local:2
      queenslab estimate 14 --toroidal --method knuth --samples 200000 --seed 7
    """
    # the library reports probes done of --samples, or milliseconds of --time-limit alone
    bar = Progress(not as_json, f"estimate {problem.n}", unit="ms" if samples is None and time_limit else "probe")
    options: dict[str, Any] = dict(
        samples=samples, time_limit=time_limit, seed=seed, threads=threads, method=method, confidence=confidence
    )
    try:
        if dask is None:
            e = estimate(problem, progress=bar, **options)
        else:
            from ..distributed.probes import estimate as on_cluster  # loads dask only when asked for

            e = on_cluster(problem, dask=dask, progress=bar, **options)
    finally:
        bar.close()
    if as_json:
        emit_json(e)  # an Estimate's fields are the JSON keys
        return 0
    click.echo(problem.describe())
    if e.note:
        click.echo(f"note: no solutions, as {e.note}")
    click.echo(_line(e))
    if e.known is not None and not e.exact and not (e.known == 0 and e.estimate == 0):
        click.echo(_known_line(e))
    if e.workers:
        click.echo(f"probed on {len(e.workers)} Dask worker{'s' if len(e.workers) > 1 else ''}")
    if not e.exact:
        click.echo(f"search nodes: about {e.nodes_estimate:.3e} (standard error {e.nodes_stderr:.2e})")
    return 0
