"""The join counter's kernels for the standard problem, compiled ahead of time into an
extension module that a fresh process loads without numba.

A fresh process that counts n = 16 spends most of its time before the count: importing
numba and loading the kernels from numba's cache take longer than the count itself. The
kernels that count the standard problem by the half-board join (:data:`EXPORTS`, from
:mod:`queenslab.native.join_kernels`) are therefore also built, by numba's ahead-of-time
compiler (``numba.pycc``), into an extension module kept in the user cache directory of
queenslab (``platformdirs.user_cache_dir``, folder ``aot``). Its machine code is the
same LLVM output as the just-in-time kernels', for this machine's CPU; its Python
wrappers release the GIL as the ``nogil`` kernels do, so the counts run on threads and
Ctrl-C stops them the same way. Importing it takes a millisecond and needs only numpy.

The module's folder is named by a digest of everything its code depends on: the source of
the join's kernels, numba's, llvmlite's and numpy's versions (the module is built against
numpy's C interface), the Python version, this machine's CPU (model and features) and
numba's CPU settings (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``). A change to any of them
finds no module, and the next standard count by the join builds one (:func:`build`, with
the measured notice of every first compile; ``queenslab warm`` builds it beforehand). Building needs a C compiler (numba
compiles the module's glue code with it): where none is found, or the build fails for
another reason, the reason is kept beside the module's place, the join's kernels are
compiled just in time as before, and only ``queenslab warm`` tries again.

``QUEENSLAB_AOT=0`` in the environment turns the module off (neither built nor loaded).

``numba.pycc`` is pending deprecation in numba (its replacement is not yet released); the
numba versions this module is tested on are those of :data:`queenslab.native.jit.NUMBA_TESTED`,
and where ``numba.pycc`` is missing the build fails with that reason and the kernels run
just in time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

__all__ = ["ENV", "EXPORTS", "NAME", "build", "enabled", "failure", "key", "load", "path"]

#: The extension module's name (its ``PyInit_`` symbol).
NAME = "queenslab_join_aot"

#: The exported kernels of :mod:`queenslab.native.join_kernels` and the one signature each
#: is compiled for: the argument types the join passes (int64 scalars, C-contiguous int64
#: arrays).
EXPORTS = {
    "join_tasks": "i8[:, ::1](i8)",
    "quarter_size": "UniTuple(i8, 3)(i8)",
    "quarter_tables": "UniTuple(i8[::1], 3)(i8, i8[::1])",
    "task_costs": "i8[::1](i8, i8[:, ::1], i8[::1], i8[::1])",
    "join_count": "UniTuple(i8, 3)(i8, i8[:, ::1], i8, i8, i8[::1], i8[::1], i8[::1], i8[::1])",
    "fixed_counts": "UniTuple(i8, 3)(i8, i8[::1])",
}

#: The environment variable that turns the module off: ``0`` (or ``no``, ``off``,
#: ``false``).
ENV = "QUEENSLAB_AOT"

#: The file, in the module's folder, that holds why the last build failed.
FAILED = "build-failed.txt"

_HERE = Path(__file__).resolve().parent
#: The sources the module's code comes from (read, not imported, for the digest).
_SOURCES = ("join_kernels.py", "join_layout.py", "jit.py")


def enabled() -> bool:
    """Whether the module may be built and loaded (``QUEENSLAB_AOT`` not set to off)."""
    return os.environ.get(ENV, "").strip().lower() not in ("0", "no", "off", "false")


def _cpu() -> str:
    """This machine's CPU as the digest names it: the model and feature flags the kernel
    reports (Linux), else what :mod:`platform` says."""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
        wanted = {"model name", "flags", "cpu family", "model", "vendor_id", "Features", "CPU part"}
        seen: dict[str, str] = {}
        for line in fh:
            name, _, value = line.partition(":")
            name = name.strip()
            if not name and seen:
                break  # the first processor's block is enough
            if name in wanted:
                seen.setdefault(name, value.strip())
        if seen:
            return repr(sorted(seen.items()))
    return f"{platform.machine()} {platform.processor()}"


def _version_file(package: str, name: str) -> bytes:
    """The text of ``package``'s version file ``name`` (found without importing the package)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return b"missing"
    try:
        return (Path(next(iter(spec.submodule_search_locations))) / name).read_bytes()
    except OSError:
        return b"unreadable"


@functools.cache
def key() -> str:
    """The digest naming the module's folder (see the module docstring): 16 hex digits.

    Examples
    --------
    >>> len(key()), key() == key()
    (16, True)
    """
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((_HERE / name).read_bytes())
    for package, name in (("numba", "_version.py"), ("llvmlite", "_version.py"), ("numpy", "version.py")):
        digest.update(_version_file(package, name))
    digest.update(sys.version.encode())
    digest.update(_cpu().encode())
    for setting in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_OPT"):
        digest.update(f"{setting}={os.environ.get(setting, '')}".encode())
    return digest.hexdigest()[:16]


def folder() -> Path:
    """Where this machine's module is kept: ``aot/KEY`` in queenslab's user cache directory."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("queenslab")) / "aot" / key()


def path() -> Path:
    """The module's file (it may not exist yet)."""
    return folder() / (NAME + importlib.machinery.EXTENSION_SUFFIXES[0])


def failure() -> str | None:
    """Why the last build on this machine failed, or None (none failed, or one succeeded since)."""
    try:
        return (folder() / FAILED).read_text(encoding="utf-8").strip() or "unknown reason"
    except OSError:
        return None


@functools.cache
def _loaded(file: Path) -> ModuleType | None:
    if not file.is_file():
        return None
    loader = importlib.machinery.ExtensionFileLoader(NAME, str(file))
    spec = importlib.util.spec_from_file_location(NAME, file, loader=loader)
    if spec is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)  # opens the shared library
        loader.exec_module(module)
    except ImportError:  # a damaged file: built again by the next count
        return None
    if not all(callable(getattr(module, name, None)) for name in EXPORTS):
        return None
    return module


def load() -> ModuleType | None:
    """The built module, loaded once per process; None when it is turned off or not built
    (or cannot be loaded) on this machine.

    Its functions are those of :data:`EXPORTS`, with the same arguments and results as the
    kernels of :mod:`queenslab.native.join_kernels` of the same names.
    """
    if not enabled():
        return None
    return _loaded(path())


@contextlib.contextmanager
def _gil_released() -> Iterator[None]:
    """While inside, numba's ahead-of-time compiler gives the exported functions Python
    wrappers that release the GIL around the call, as ``nogil=True`` does for a
    just-in-time kernel (the compiler has no option for it: it builds its compile flags
    with their defaults)."""
    from numba.core import compiler
    from numba.pycc import compiler as pycc_compiler

    def flags() -> compiler.Flags:
        made = compiler.Flags()
        setattr(made, "release_gil", True)  # noqa: B010  (an Option descriptor mypy cannot see through)
        return made

    saved = pycc_compiler.Flags
    pycc_compiler.Flags = flags  # type: ignore[assignment, misc]
    try:
        yield
    finally:
        pycc_compiler.Flags = saved  # type: ignore[misc]


def _compile(into: Path) -> None:
    """Build the module into the folder ``into`` (raises on failure)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's pending-deprecation warning
        from numba.pycc import CC

    from . import join_kernels as JK

    cc = CC(NAME)
    cc.output_dir = str(into)
    cc.target_cpu = os.environ.get("NUMBA_CPU_NAME") or "host"
    cc.verbose = False
    for name, signature in EXPORTS.items():
        cc.export(name, signature)(getattr(JK, name).py_func)
    with _gil_released():
        cc.compile()


def build() -> str | None:
    """Build the module for this machine (replacing any), and load it; returns None, or
    the reason it could not be built or loaded, which is also kept for :func:`failure`.

    The build is written into a temporary folder beside the module's place and moved
    there whole, so a process loading the module at the same time finds the old one or
    the new one.
    """
    target = folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{key()}-", dir=target.parent))
    try:
        try:
            _compile(tmp)
            built = tmp / path().name
            if not built.is_file():
                raise RuntimeError(f"numba.pycc wrote no {built.name}")
        except Exception as exc:  # no C compiler, no numba.pycc, ...: the kernels run just in time
            reason = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:300]
            target.mkdir(parents=True, exist_ok=True)
            (target / FAILED).write_text(reason + "\n", encoding="utf-8")
            return reason
        old = target.with_name(f".{key()}-old-{os.getpid()}")
        with contextlib.suppress(OSError):  # nothing there, or another build's just moved
            target.rename(old)
        with contextlib.suppress(OSError):  # another process's build got there first: kept
            tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _loaded.cache_clear()
    return None if load() is not None or not enabled() else f"the module built at {path()} does not load"
