"""Provenance: what an experiment's output records so that a number can be traced."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version as _dist_version

from . import validate

__all__ = ["environment"]


def _package_version() -> str:
    try:
        return _dist_version("queenslab")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"


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


def environment(threads: int | None = None) -> dict:
    """What an experiment's or a benchmark's output records so that a number can be traced.

    Parameters
    ----------
    threads : int, optional
        The threads the run uses (default: every core this process may use).

    Returns
    -------
    dict
        ``package``, ``commit`` (with ``+dirty`` for uncommitted changes), ``python``,
        ``numpy``, ``numba``, ``sympy``, ``threads``, ``machine``, ``cpu``, ``cpu_count``,
        ``system``, ``date`` (UTC).
    """

    def version(mod):
        try:
            return __import__(mod).__version__
        except Exception:  # pragma: no cover - optional module missing
            return None

    commit = "unknown"
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if out.returncode == 0:
            commit = out.stdout.strip()
            dirty = subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                cwd=here,
                capture_output=True,
                text=True,
                timeout=5,
            )
            if dirty.returncode == 0 and dirty.stdout.strip():
                commit += "+dirty"
    except (OSError, subprocess.SubprocessError):  # pragma: no cover - no git
        pass
    return {
        "package": _package_version(),
        "commit": commit,
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "numba": version("numba"),
        "sympy": version("sympy"),
        "threads": validate.threads(threads),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "system": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
