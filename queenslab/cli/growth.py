"""``queenslab experiment growth``: log Q(n) / n from calibrated estimates, against Simkin's
asymptotics (and the toroidal board's, with ``--toroidal``).

The library is :mod:`queenslab.growth`; this module parses the board sizes, runs it,
and prints the table, writes the table, the JSON record and the figure under ``--out``,
or prints the JSON report.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click

from ..errors import QueensError
from ..estimate import MAX_SAMPLES, METHODS
from ..growth import (
    ALPHA,
    ALPHA_ERROR,
    CONFIDENCE,
    DEFAULT_N_MAX,
    DEFAULT_TIME_PER_N,
    MAX_N,
    MAX_RELATIVE_STDERR,
    GrowthRow,
    check_ns,
    default_ns,
    figure as growth_figure,
    growth,
    table,
)
from ..provenance import environment
from ..reports import GrowthReport, to_json
from .app import Command, emit_json
from .options import Progress, Seconds, choice_option, json_option, number_list, number_option

#: The files ``--out DIR`` writes.
TABLE_FILE, JSON_FILE, FIGURE_FILE = "growth.md", "growth.json", "growth.svg"


def parse_ns(text: str) -> list[int]:
    """``"8,12,16..20"`` as ``[8, 12, 16, 17, 18, 19, 20]`` (commas, ``a..b`` ranges)."""
    return number_list(text, "--ns", "a board size", "8,12,16..20")


def _out_dir(path: str) -> Path:
    """``--out DIR``, created if missing; refused when empty, a file or not writable."""
    if not path.strip():
        raise QueensError(
            "--out '' is an empty directory name; give the directory to write "
            f"{TABLE_FILE}, {JSON_FILE} and {FIGURE_FILE} in (--out . for the working directory)"
        )
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise QueensError(
            f"--out {path!r} is a file; give a directory to write {TABLE_FILE}, {JSON_FILE}, {FIGURE_FILE}"
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise QueensError(f"--out {path!r}: cannot create the directory ({e.strerror})") from None
    if not os.access(target, os.W_OK):
        raise QueensError(f"--out {path!r}: the directory is not writable")
    return target


@click.command("growth", cls=Command)
@click.option(
    "--ns",
    default=None,
    metavar="LIST",
    help="Board sizes, as 8,12,16..20 (default: the grids of --n-max). With --toroidal each must be odd and "
    "not divisible by 3.",
)
@click.option(
    "--n-max",
    "n_max",
    type=click.IntRange(1, MAX_N),
    default=None,
    metavar="N",
    help=f"The default grids up to N (at most {MAX_N}, the estimator's limit; default {DEFAULT_N_MAX}).",
)
@click.option(
    "--time-per-n",
    "time_per_n",
    type=Seconds(),
    default=None,
    metavar="S",
    help=f"Seconds of probing per board size (default {DEFAULT_TIME_PER_N:g} when no --samples).  [finite, x>0]",
)
@number_option(
    "--samples", 2, "K", "Probes per board size (with --time-per-n too, whichever comes first).", maximum=MAX_SAMPLES
)
@number_option(
    "--seed", 0, "S", "Random seed of every estimate (with --samples the same seed gives the same table).", 0
)
@number_option("--threads", 1, "T", "Threads (default: every core).")
@choice_option("--method", ["auto", *METHODS], "auto", "The estimator (see 'queenslab estimate --help').")
@click.option(
    "--toroidal",
    is_flag=True,
    help="Also the toroidal board, at odd n not divisible by 3 (the only n with toroidal solutions), against ln n - 3.",
)
@click.option(
    "--out",
    default=None,
    metavar="DIR",
    help=f"Write {TABLE_FILE} (the table with its provenance), {JSON_FILE} (the JSON report) and {FIGURE_FILE} "
    '(the figure; needs matplotlib: pip install "queenslab[plot]") into DIR, created if missing.',
)
@json_option
def growth_cmd(ns, n_max, time_per_n, samples, seed, threads, method, toroidal, out, as_json):
    """How fast does the number of solutions grow? log Q(n)/n from estimates, against Simkin.

    M. Simkin, "The number of n-queens configurations" (2021): Q(n) = ((1 +- o(1)) n
    e^-alpha)^n with alpha = 1.942 +- 0.003, so log Q(n)/n = ln n - alpha + o(1). Each
    board size is estimated (queenslab estimate; n <= 200) and log Q(n)/n given with the
    estimator's own error bar, stderr / (estimate * n). The published counts (OEIS A000170,
    n <= 27) and the estimator's exact counts of small trees are shown beside the
    estimates. An estimate with a relative standard error above 25% (or of 0) is "too
    uncertain": it gives no digits.

    --toroidal adds the toroidal board (against ln n - 3: Luria's bound, proved tight by
    Bowtell and Keevash). Without --ns the standard board takes n = 8, 10, ..., 26, 27,
    28, 32, ..., 128 and the toroidal every n = 1, 5 mod 6 from 7, up to --n-max (default
    128; the grids go on every fourth n and every n = 1, 5 mod 6 to 200).

    \b
    JSON keys: experiment, results (each: n, toroidal, estimate, stderr, low, high,
    relative_stderr, probes, method, exact, known, log_q_per_n, log_q_per_n_stderr (a
    number, or "too uncertain"), known_log_q_per_n, asymptote, uncertain, seconds), alpha,
    alpha_error, max_relative_stderr, confidence, samples_per_n, time_per_n, seed,
    threads, method, out, plot, seconds, provenance.

    \b
    Examples:
      queenslab experiment growth --n-max 40 --time-per-n 1
      queenslab experiment growth --ns 20,30,40 --samples 200000 --seed 1 --json
      queenslab experiment growth --toroidal --time-per-n 5 --threads 2 --out growth/
    """
    if ns is not None and n_max is not None:
        raise QueensError("give --ns or --n-max, not both (--n-max bounds the default grids)")
    given = None if ns is None else parse_ns(ns)
    series = [False, True] if toroidal else [False]
    chosen = {t: check_ns(given, t) if given is not None else default_ns(t, n_max or DEFAULT_N_MAX) for t in series}
    for t, sizes in chosen.items():
        if not sizes:
            raise QueensError(f"--n-max {n_max} leaves no {'toroidal ' if t else ''}board size of the default grid")
    directory = None if out is None else _out_dir(out)
    if directory is not None:
        from ..plot import check_path

        check_path(directory / FIGURE_FILE, "--out")
    if samples is None and time_per_n is None:
        time_per_n = DEFAULT_TIME_PER_N
    t0 = time.perf_counter()
    rows: list[GrowthRow] = []
    total = sum(len(s) for s in chosen.values())
    bar = Progress(not as_json, "growth", unit="n")
    try:
        for t, sizes in chosen.items():
            done = len(rows)
            rows += growth(
                sizes,
                toroidal=t,
                samples=samples,
                time_per_n=time_per_n,
                seed=seed,
                threads=threads,
                method=method,
                progress=lambda d, _, done=done: bar(done + d, total),
            )
    finally:
        bar.close()
    provenance = environment(threads)
    figure = None if directory is None else str(directory / FIGURE_FILE)
    report = GrowthReport(
        experiment="growth",
        results=tuple(rows),
        alpha=ALPHA,
        alpha_error=ALPHA_ERROR,
        max_relative_stderr=MAX_RELATIVE_STDERR,
        confidence=CONFIDENCE,
        samples_per_n=samples,
        time_per_n=time_per_n,
        seed=seed,
        threads=provenance["threads"],
        method=method,
        out=None if directory is None else str(directory),
        plot=figure,
        seconds=time.perf_counter() - t0,
        provenance=provenance,
    )
    settings = {
        "command": "queenslab experiment growth "
        + " ".join(
            f"--{k} {v}"
            for k, v in (("ns", ns), ("n-max", n_max), ("time-per-n", time_per_n), ("samples", samples))
            if v is not None
        )
        + f" --seed {seed} --method {method}"
        + (f" --threads {threads}" if threads else "")
        + (" --toroidal" if toroidal else ""),
        "rule": f"an estimate with a relative standard error above {MAX_RELATIVE_STDERR:.0%} is too uncertain "
        "to give log Q(n)/n",
        "provenance": provenance,
    }
    text = table(rows, settings)
    if directory is not None:
        from .. import plot as figures
        from ..outfile import atomic_output

        with atomic_output(directory / TABLE_FILE, what="--out") as fh:
            fh.write(text)
        with atomic_output(directory / JSON_FILE, what="--out") as fh:
            fh.write(json.dumps(to_json(report), indent=1) + "\n")
        figures.save(growth_figure(rows), figure)
    if as_json:
        emit_json(report)
        return 0
    click.echo(text, nl=False)
    if directory is not None:
        click.echo(f"written: {directory / TABLE_FILE}, {directory / JSON_FILE}, {figure}")
    return 0
