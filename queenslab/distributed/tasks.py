"""The function a worker runs: one task of a split count, with who ran it and how long."""

from __future__ import annotations

import time

from ..problem import Problem

__all__ = ["run_task", "run_batch", "worker_name"]


def worker_name() -> str:
    """The Dask worker's address when called on a worker, else ``"thread"``."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "thread"


def run_task(
    problem: Problem, method: str, task: tuple[int, ...], unique: bool, force: bool = False
) -> tuple[int, int | None, int, str, float, str]:
    """Count one task: ``(count, unique, nodes, worker, seconds, version)``.

    Module-level and importable, so that a Dask worker process can run it; the numba
    kernels come from their on-disk cache, compiled once before the workers started.
    """
    from .. import __version__
    from ..native import engine

    t0 = time.perf_counter()
    found, orbits, nodes = engine.count_task(problem, method, task, unique=unique, force=force)
    return found, orbits, nodes, worker_name(), time.perf_counter() - t0, __version__


def run_batch(
    problem: Problem, method: str, tasks: list[tuple[int, ...]], unique: bool, force: bool = False
) -> list[tuple[int, int | None, int, str, float, str]]:
    """:func:`run_task` on each of ``tasks`` in turn: one Dask task for several of the
    split's tasks, so that the scheduler's round trip is paid once per batch."""
    return [run_task(problem, method, task, unique, force) for task in tasks]
