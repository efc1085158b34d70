"""Provenance: what an output records so that a number can be traced to the code, the
libraries and the machine that produced it.

:func:`environment` is the one place that gathers it; the benchmarks, the experiments
and ``count --json`` (under the key ``provenance``) all record its dictionary.
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version as _dist_version
from importlib.resources import files

from . import validate

__all__ = ["LIBRARIES", "environment", "commit", "package_version"]

#: The libraries whose versions are recorded: key -> distribution name. Read from the
#: installed metadata, so that recording them imports none of them.
LIBRARIES = {
    "numpy": "numpy",
    "numba": "numba",
    "sympy": "sympy",
    "ortools": "ortools",
    "python_sat": "python-sat",
    "pyganak": "pyganak",
    "pyapproxmc": "pyapproxmc",
    "dask": "dask",
    "distributed": "distributed",
}

#: The file a build writes the git commit into (see setup.py), for installs without git.
COMMIT_FILE = "_commit.txt"


def _version(dist: str) -> str | None:
    try:
        return _dist_version(dist)
    except PackageNotFoundError:
        return None


def package_version() -> str:
    """queenslab's installed version (``"0.0.0+unknown"`` when run from a source tree)."""
    return _version("queenslab") or "0.0.0+unknown"


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


def _git(*args: str) -> str | None:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def commit() -> str:
    """The git commit of this copy of queenslab: from git when the package runs from a
    work tree (with ``+dirty`` for uncommitted changes), else the commit recorded when
    the package was built, else ``"unknown"``.

    >>> isinstance(commit(), str)
    True
    """
    here = os.path.dirname(os.path.abspath(__file__))
    top = _git("rev-parse", "--show-toplevel")
    # only a work tree that holds this package: an install inside some other repository is not it
    if top is not None and os.path.commonpath([os.path.realpath(top), os.path.realpath(here)]) == os.path.realpath(top):
        head = _git("rev-parse", "--short", "HEAD")
        if head:
            dirty = _git("status", "--porcelain", "--untracked-files=no")
            return head + ("+dirty" if dirty else "")
    try:
        recorded = files("queenslab").joinpath(COMMIT_FILE).read_text(encoding="utf-8").strip()
    except (OSError, FileNotFoundError):
        recorded = ""
    return recorded or "unknown"


def environment(threads: int | None = None) -> dict:
    """What an experiment's or a benchmark's output records so that a number can be traced.

    Parameters
    ----------
    threads : int, optional
        The threads the run uses (default: every core this process may use).

    Returns
    -------
    dict
        ``package``, ``commit`` (see :func:`commit`), ``python``, the versions of
        :data:`LIBRARIES` (None for one not installed), ``threads``, ``machine``, ``cpu``,
        ``cpu_count``, ``system``, ``date`` (UTC).

    Examples
    --------
    >>> env = environment(threads=1)
    >>> env["threads"], sorted(k for k in env if k in LIBRARIES)[:3]
    (1, ['dask', 'distributed', 'numba'])
    """
    return {
        "package": package_version(),
        "commit": commit(),
        "python": platform.python_version(),
        **{key: _version(dist) for key, dist in LIBRARIES.items()},
        "threads": validate.threads(threads),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "system": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
