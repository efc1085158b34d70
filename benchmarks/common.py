"""Shared helpers of the benchmark scripts: run metadata and timing.

Every benchmark prints :func:`run_metadata` first (as ``# key: value`` lines, see
:func:`print_metadata`) so that a table can be traced to the code, the libraries
and the machine that produced it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["REPO_ROOT", "run_metadata", "print_metadata", "best_time"]

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
