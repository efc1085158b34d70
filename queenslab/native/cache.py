"""Whether the numba kernels a count needs are already compiled, and the notice of a
first compile: measured, never guessed.

numba keeps each compiled kernel in an on-disk cache (``cache=True``), next to the
module or under ``NUMBA_CACHE_DIR``; a kernel without a fresh index (none yet, or one
written for another source file, numba or CPU) is compiled on its first call. The check
reads numba's cache object of each dispatcher.

How long a compile takes depends on the machine and on how busy it is, so the notice
gives no fixed figure: each compile is timed, and the time is recorded in the user cache
directory of queenslab (``platformdirs.user_cache_dir``, file ``compile-times.json``)
under a key naming the kernel set, queenslab's and numba's versions and the CPU. The next
notice for the same key quotes that record; without one it says there is none. A record
that cannot be read is ignored (and replaced by the next compile).

Several processes may compile the same kernels at once (``queenslab warm`` beside a
count): each compiles for itself, numba writes its cache files by atomic renames, and the
record is replaced the same way; measured on a shared ``NUMBA_CACHE_DIR``, every process
counted right and later processes found every kernel cached.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "RECORD_FILE",
    "CompileReport",
    "is_cached",
    "record_path",
    "record_key",
    "recorded",
    "record",
    "compile_once",
    "announced",
]

#: The file, in the user cache directory of queenslab, holding the measured compile times.
RECORD_FILE = "compile-times.json"


@dataclass(frozen=True)
class CompileReport:
    """What :func:`compile_once` did: ``compiled`` False when every kernel was cached
    (``seconds`` and ``cpu_seconds`` 0), else True with the wall-clock and CPU seconds of
    the compile."""

    compiled: bool
    seconds: float
    cpu_seconds: float


def is_cached(kernel: Any) -> bool:
    """Whether ``kernel`` (a numba dispatcher with ``cache=True``) has a fresh on-disk
    cache for this machine: an index written for its current source, numba version and
    CPU. True when numba's cache cannot be inspected (nothing is announced then); False
    when the index cannot be read (numba compiles then)."""
    try:
        cache = kernel._cache
        index = cache._cache_file._load_index  # {} when missing or written for other source
        probe = cache._index_key(None, kernel.targetctx.codegen())
    except AttributeError:
        return True
    try:
        overloads = index()
    except Exception:  # a damaged index: numba compiles anew and overwrites it
        return False
    # a key is (signature, CPU and target, hashes of the byte code): any signature will do
    return any(key[1:] == probe[1:] for key in overloads)


def record_path() -> Path:
    """Where the measured compile times are kept: ``compile-times.json`` in the user cache
    directory of queenslab."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("queenslab")) / RECORD_FILE


def record_key(what: str) -> str:
    """The record's key of the kernel set ``what`` on this machine: the set, queenslab's
    and numba's versions and the CPU LLVM compiles for (name and features)."""
    import numba
    from numba.core import config

    from ..provenance import package_version  # package metadata: read only for a compile

    cpu = getattr(config, "CPU_NAME", None) or _host_cpu()
    features = getattr(config, "CPU_FEATURES", None) or ""
    return f"{what} | queenslab {package_version()} | numba {numba.__version__} | {cpu}{' ' + features if features else ''}"


def _host_cpu() -> str:
    import llvmlite.binding as llvm

    return str(llvm.get_host_cpu_name())


def _read(path: Path) -> dict[str, Any]:
    """The record file's entries; {} when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def recorded(key: str, path: Path | None = None) -> float | None:
    """The wall-clock seconds of the last compile recorded under ``key``; None without a
    usable record (no file, a damaged file, no entry, an entry that is not a positive
    number of seconds)."""
    entry = _read(record_path() if path is None else path).get(key)
    seconds = entry.get("seconds") if isinstance(entry, dict) else None
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 < seconds < 1e6:
        return float(seconds)
    return None


def record(key: str, seconds: float, cpu_seconds: float, path: Path | None = None) -> bool:
    """Record a measured compile under ``key`` (other keys kept, a damaged file replaced);
    returns whether it was written (a read-only cache directory is no error)."""
    path = record_path() if path is None else path
    data = _read(path)
    data[key] = {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new
    except OSError:
        return False
    return True


def compile_once(
    kernels: Iterable[Any],
    what: str,
    compile_: Callable[[], object],
    stream: Any = None,
    path: Path | None = None,
) -> CompileReport:
    """Run ``compile_`` (a call that compiles ``kernels``, e.g. a tiny count), announcing
    it on ``stream`` (standard error) when one of ``kernels`` is not compiled yet.

    The notice quotes the last recorded compile of ``what`` on this machine, or says that
    none is recorded; after the compile it gives the measured time, and the time is
    recorded for the next notice. When every kernel is cached nothing is run or said
    (numba loads them at their first call).

    Returns
    -------
    CompileReport
        Whether it compiled, and the wall-clock and CPU seconds ``compile_`` took (0
        when it did not run).
    """
    if all(is_cached(k) for k in kernels):
        return CompileReport(False, 0.0, 0.0)
    return announced(what, compile_, stream, path)


def announced(what: str, compile_: Callable[[], object], stream: Any = None, path: Path | None = None) -> CompileReport:
    """Run ``compile_``, a compile of ``what``, with the notices of :func:`compile_once`
    (the last recorded time before, the measured time after, recorded for the next).
    Where ``compile_`` raises, the exception propagates: nothing more is said or recorded."""
    stream = stream or sys.stderr
    key = record_key(what)
    last = recorded(key, path)
    said = f"took {last:.1f} s last time on this machine" if last else "not yet timed on this machine"
    print(f"compiling {what}, once ({said})", file=stream, flush=True)
    t0, c0 = time.perf_counter(), time.process_time()
    compile_()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"compiled {what} in {seconds:.1f} s", file=stream, flush=True)
    record(key, seconds, cpu, path)
    return CompileReport(True, seconds, cpu)
