"""Shared helpers of the benchmark scripts: run metadata and timing.

Every benchmark prints :func:`run_metadata` first (as ``# key: value`` lines, see
:func:`print_metadata`) so that a table can be traced to the code, the libraries
and the machine that produced it.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["REPO_ROOT", "run_metadata", "print_metadata", "best_time"]

#: The repository root (the parent of ``benchmarks/``).
REPO_ROOT = Path(__file__).resolve().parents[1]


def _package_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return "unknown"
    try:
        return version("queenslab")
    except PackageNotFoundError:
        return "unknown"


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def _module_version(name: str) -> str:
    try:
        module = __import__(name)
    except ImportError:
        return "not installed"
    return str(getattr(module, "__version__", "unknown"))


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Processor", "cpu model", "Hardware") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _default_threads() -> int:
    try:
        import numba

        return int(numba.get_num_threads())
    except Exception:
        return os.cpu_count() or 1


def run_metadata(threads: int | None = None) -> dict:
    """Describe this benchmark run.

    Parameters
    ----------
    threads : int, optional
        Number of threads the benchmark uses; default numba's thread count.

    Returns
    -------
    dict
        Keys ``package``, ``commit``, ``python``, ``numpy``, ``numba``,
        ``threads``, ``machine``, ``cpu``, ``cpu_count`` and ``date`` (UTC, ISO
        8601). Values that cannot be found are ``"unknown"``.
    """
    return {
        "package": _package_version(),
        "commit": _git_commit(),
        "python": platform.python_version(),
        "numpy": _module_version("numpy"),
        "numba": _module_version("numba"),
        "threads": threads if threads is not None else _default_threads(),
        "machine": platform.machine() or "unknown",
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count() or "unknown",
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


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
