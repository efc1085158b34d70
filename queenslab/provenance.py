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


def environment() -> dict:
    """What an experiment's output records so that a number can be traced."""

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
        "threads": validate.threads(None),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "system": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
