"""``queenslab experiment q-queens``: q queens on n x n for n = 1 .. N, the quasipolynomial
of a period fitted through the counts and compared with the published one.

The library is :mod:`queenslab.qqueens`; this module parses the options, runs it and
prints the table and the fit, or the JSON report.
"""

from __future__ import annotations

import click

from ..qqueens import MAX_N, MAX_Q, default_n_max, published, qqueens_experiment
from .app import Command, emit_json
from .options import Progress, json_option, number_option

#: What each status says, for the text output.
STATUS_WORDS = {
    "checked": "checked on the further points",
    "unchecked": "fits, but no further point checks it",
    "undetermined": "too few points",
    "refuted": "refuted",
}


@click.command("q-queens", cls=Command)
@click.argument("q", type=click.IntRange(1, MAX_Q))
@number_option(
    "--period", 1, "P", "The quasipolynomial's period (default: the published one's, q <= 3).", maximum=10_000
)
@click.option(
    "--n-max",
    "n_max",
    type=click.IntRange(1, MAX_N),
    default=None,
    metavar="N",
    help="Count n = 1 .. N (at most 64; default: enough for 2q + 2 points per residue class).",
)
@click.option("--force", is_flag=True, help="Count beyond the board search's practical limit.")
@json_option
def qqueens_cmd(q, period, n_max, force, as_json):
    """Count q queens on n x n and fit the quasipolynomial of a period through the counts.

    Chaiken, Hanusa and Zaslavsky (A q-queens problem. I. General theory) prove that the
    number of ways to place q non-attacking queens on an n x n board is a quasipolynomial
    in n of degree 2q. The counts for n = 1 .. N come from the native engine's board
    search; for each residue of n modulo the period the polynomial through the first
    2q + 1 points is found exactly and checked on the others. A class with too few
    points is undetermined, and one whose further points miss the polynomial refutes the
    period. Where a published formula exists (q = 2: OEIS A036464; q = 3: Landau's, OEIS
    A047659) the fit is compared with it.

    Exit 0 when the fit is determined (and agrees with the published one, where there is
    one), 1 otherwise.

    \b
    JSON keys: experiment, q, period, n_max, results (each: n, count), status
    (determined, undetermined or refuted), constituents (each: residue, points, status,
    polynomial, refuted_at), published (the formula's source, or null), agrees (null
    without a published formula or a determined fit), seconds, provenance.

    \b
    Examples:
      queenslab experiment q-queens 3
      queenslab experiment q-queens 3 --period 1      # refuted: the counts need period 2
      queenslab experiment q-queens 4 --period 6 --n-max 30 --json
    """
    known = published(q)
    chosen = period if period is not None else (known[1] if known else None)
    last = n_max if n_max is not None else (default_n_max(q, chosen) if chosen else None)
    bar = Progress(not as_json and last is not None, f"{q} queens")
    try:
        report = qqueens_experiment(q, period=period, n_max=n_max, force=force, progress=bar)
    finally:
        bar.close()
    ok = report.status == "determined" and report.agrees is not False
    if as_json:
        emit_json(report)
        return 0 if ok else 1
    click.echo(f"{q} queens on n x n, n = 1..{report.n_max}:")
    for row in report.results:
        click.echo(f"  {row['n']:>3} {row['count']:>22,}")
    click.echo(f"quasipolynomial of period {report.period}, degree {2 * q}: {report.status}")
    for c in report.constituents:
        words = STATUS_WORDS[c["status"]] + (f" at n = {c['refuted_at']}" if c["refuted_at"] else "")
        click.echo(f"  n = {c['residue']} (mod {report.period}), {c['points']} points, {words}")
        if c["polynomial"]:
            click.echo(f"    {c['polynomial']}")
    if report.published:
        verdict = {True: "agrees with", False: "differs from", None: f"is {report.status}, so not compared with"}
        click.echo(f"the fit {verdict[report.agrees]} the published formula: {report.published}")
    click.echo(f"{report.seconds:.1f} s")
    return 0 if ok else 1
