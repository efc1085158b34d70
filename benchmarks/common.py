"""Shared helpers of the benchmark scripts: run metadata and timing.

Every benchmark prints :func:`run_metadata` first (as ``# key: value`` lines, see
:func:`print_metadata`) so that a table can be traced to the code, the libraries
and the machine that produced it.

``--plot F`` (:func:`add_plot_option`, :func:`check_plot`, :func:`save_plot`) draws the
run's figure with :mod:`queenslab.plot` to a ``.png`` or ``.svg`` file; without it the
output is the same as ever.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "REPO_ROOT",
    "run_metadata",
    "print_metadata",
    "best_time",
    "add_rounds_options",
    "check_rounds_options",
    "add_plot_option",
    "check_plot",
    "save_plot",
]

#: The repository root (the parent of ``benchmarks/``).
REPO_ROOT = Path(__file__).resolve().parents[1]


def run_metadata(threads: int | None = None) -> dict:
    """Describe this benchmark run: :func:`queenslab.provenance.environment` (package,
    commit, library versions, threads, machine, cpu, date).

    Parameters
    ----------
    threads : int, optional
        Number of threads the benchmark uses; default every core.
    """
    from queenslab.provenance import environment

    return environment(threads)


def print_metadata(meta: dict) -> None:
    """Print ``meta`` as ``# key: value`` lines."""
    for key, value in meta.items():
        print(f"# {key}: {value}")


def best_time(fn: Callable[[], object], repeat: int = 3, *, warmup: bool = True) -> float:
    """Best (minimum) wall time of ``fn()`` over ``repeat`` calls, in seconds.

    Parameters
    ----------
    fn : callable
        Called without arguments; its result is ignored.
    repeat : int
        Number of timed calls (at least 1).
    warmup : bool
        Make one untimed call first (compilation, caches). Pass False when the
        caller has just called ``fn`` itself, e.g. to check its result.

    Returns
    -------
    float
        The smallest of the measured times (``time.perf_counter``).
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    if warmup:
        fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def add_rounds_options(parser: argparse.ArgumentParser, ns: list[int], rounds: int) -> None:
    """Add ``--ns`` (board sizes, default ``ns``), ``--rounds`` (interleaved rounds, the
    minimum reported; default ``rounds``) and ``--quick`` (n = 12, one round)."""
    shown = " ".join(map(str, ns))
    parser.add_argument("--ns", type=int, nargs="+", default=ns, help=f"board sizes (default {shown})")
    parser.add_argument(
        "--rounds", type=int, default=rounds, help=f"interleaved rounds (default {rounds}); the minimum is reported"
    )
    parser.add_argument("--quick", action="store_true", help="n = 12, one round: a smoke test")


def check_rounds_options(
    parser: argparse.ArgumentParser, args: argparse.Namespace, smallest: int, largest: int
) -> None:
    """Apply ``--quick`` and refuse rounds below 1 and board sizes outside ``smallest..largest``."""
    if args.quick:
        args.ns, args.rounds = [12], 1
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for n in args.ns:
        if not smallest <= n <= largest:
            parser.error(f"--ns: n must be between {smallest} and {largest}, got {n}")


def add_plot_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--plot F``: after the run, draw ``what`` to F (.png or .svg)."""
    parser.add_argument(
        "--plot",
        metavar="F",
        default=None,
        help=f'after the run, draw {what} to F, a .png or .svg file (needs matplotlib: pip install "queenslab[plot]")',
    )


def check_plot(parser: argparse.ArgumentParser, path: str | None) -> None:
    """Refuse an unusable ``--plot`` file (its type, its directory, no matplotlib) before the run."""
    if path is None:
        return
    from queenslab.errors import QueensError
    from queenslab.plot import check_path

    try:
        check_path(path, "--plot")
    except QueensError as e:
        parser.error(str(e))


def save_plot(figure: object, path: str) -> None:
    """Write ``figure`` (a matplotlib Figure from :mod:`queenslab.plot`) to ``path`` and say so."""
    from queenslab.plot import save

    print(f"# figure: {save(figure, path)}")
