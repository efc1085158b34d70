"""The join counter's kernels for the standard problem, compiled ahead of time into an
extension module that a fresh process loads without numba.

A fresh process that counts n = 16 spends most of its time before the count: importing
numba and loading the kernels from numba's cache take longer than the count itself. The
kernels that count the standard problem by the half-board join (:data:`EXPORTS`, from
:mod:`queenslab.native.join_kernels`) are therefore also built, by numba's ahead-of-time
compiler (``numba.pycc``), into an extension module kept in the user cache directory of
queenslab (``platformdirs.user_cache_dir``, folder ``aot``). numba and LLVM compile it
from the same source as the just-in-time kernels, for this machine's CPU and its feature
list; its Python wrappers release the GIL as the ``nogil`` kernels do, so the counts run
on threads and Ctrl-C stops them the same way. Importing it takes a millisecond and
needs only numpy.

The module's folder is named by a digest of everything its code depends on: the source of
the join's kernels, numba's, llvmlite's and numpy's versions (the module is built against
numpy's C interface), the Python version, this machine's CPU (model and features),
numba's CPU and optimisation settings (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``,
``NUMBA_OPT``) and this module's own source. A change to any of them finds no module, and
the next standard count by the join builds one (:func:`build`, with the measured notice
of every first compile; ``queenslab warm`` builds it beforehand). Building needs a C
compiler (numba compiles the module's glue code with it): where none is found, or the
build or the module it made fails for another reason, the reason is kept beside the
module's place, the join's kernels are compiled just in time as before, and only
``queenslab warm`` tries again.

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
import threading
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
_SOURCES = ("join_kernels.py", "join_layout.py", "jit.py", "aot.py")


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
    if _failed_here is not None:
        return _failed_here
    try:
        return (folder() / FAILED).read_text(encoding="utf-8").strip() or "unknown reason"
    except OSError:
        return None


def _reason(exc: BaseException) -> str:
    """An exception as one line of a reason."""
    return f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:300]


@functools.cache
def _opened(file: Path) -> tuple[ModuleType | None, str | None]:
    """``(module, None)``: the module at ``file`` loaded (once per process); or ``(None,
    why not)``."""
    if not file.is_file():
        return None, f"no module at {file}"
    loader = importlib.machinery.ExtensionFileLoader(NAME, str(file))
    spec = importlib.util.spec_from_file_location(NAME, file, loader=loader)
    if spec is None:
        return None, f"{file} is not an extension module"
    try:
        module = importlib.util.module_from_spec(spec)  # opens the shared library
        loader.exec_module(module)
    except Exception as exc:  # a damaged file, a numpy it was not built for, a noexec folder
        return None, f"the module at {file} does not load ({_reason(exc)})"
    missing = [name for name in EXPORTS if not callable(getattr(module, name, None))]
    if missing:
        return None, f"the module at {file} lacks {', '.join(missing)}"
    return module, None


def load() -> ModuleType | None:
    """The built module, loaded once per process; None when it is turned off or not built
    (or cannot be loaded) on this machine.

    Its functions are those of :data:`EXPORTS`, with the same arguments and results as the
    kernels of :mod:`queenslab.native.join_kernels` of the same names.
    """
    if not enabled():
        return None
    return _opened(path())[0]


@contextlib.contextmanager
def _compiled_as_the_kernels() -> Iterator[None]:
    """While inside, numba's ahead-of-time compiler builds the module as numba's
    just-in-time compiler builds the kernels:

    * the exported functions' Python wrappers release the GIL around the call, as
      ``nogil=True`` does (the compiler has no option for it: it builds its compile flags
      with their defaults);
    * LLVM is given the CPU's feature list the just-in-time compiler gives it (this
      machine's as LLVM reads them, or ``NUMBA_CPU_FEATURES``), not only the CPU's name,
      from which it would take the features the model has even where a virtual machine
      masks some of them.

    Called under :data:`_BUILD_LOCK` (the changes are to numba's classes)."""
    from numba.core import codegen, compiler
    from numba.pycc import compiler as pycc_compiler

    def flags() -> compiler.Flags:
        made = compiler.Flags()
        setattr(made, "release_gil", True)  # noqa: B010  (an Option descriptor mypy cannot see through)
        return made

    def features(self: codegen.AOTCPUCodegen) -> str:
        return str(self._get_host_cpu_features())

    saved_flags = pycc_compiler.Flags
    saved_features = codegen.AOTCPUCodegen._customize_tm_features
    pycc_compiler.Flags = flags  # type: ignore[assignment, misc]
    codegen.AOTCPUCodegen._customize_tm_features = features  # type: ignore[method-assign]
    try:
        yield
    finally:
        pycc_compiler.Flags = saved_flags  # type: ignore[misc]
        codegen.AOTCPUCodegen._customize_tm_features = saved_features  # type: ignore[method-assign]


def _compile(into: Path) -> None:
    """Build the module into the folder ``into`` (raises on failure; numba's build folder
    in the temporary directory is removed then too)."""
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
    scratch = Path(tempfile.gettempdir())
    before = set(scratch.glob(f"pycc-build-{NAME}-*"))
    try:
        with _compiled_as_the_kernels():
            cc.compile()
    except BaseException:
        for left in set(scratch.glob(f"pycc-build-{NAME}-*")) - before:
            shutil.rmtree(left, ignore_errors=True)
        raise


#: Held while this process builds the module (numba's classes are changed meanwhile).
_BUILD_LOCK = threading.Lock()
#: Why the build failed in this process, where the reason could not be kept on disk (an
#: unwritable cache directory): this process does not try again either.
_failed_here: str | None = None


@contextlib.contextmanager
def _building(directory: Path) -> Iterator[None]:
    """One build at a time: across this process's threads, and across processes by a lock
    on a file in ``directory`` where the platform has ``fcntl``."""
    with _BUILD_LOCK:
        try:
            import fcntl
        except ImportError:  # no file locks: two processes may build at once, each whole
            yield
            return
        with open(directory / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


def _record(reason: str) -> None:
    """Keep why the build failed, for :func:`failure`."""
    global _failed_here
    try:
        folder().mkdir(parents=True, exist_ok=True)
        (folder() / FAILED).write_text(reason + "\n", encoding="utf-8")
    except OSError:
        _failed_here = reason


def build() -> str | None:
    """Build the module for this machine and load it; returns None, or the reason it could
    not be built or loaded, which is also kept for :func:`failure`.

    One process builds at a time (a lock file); one that finds, once it holds the lock,
    a module another built meanwhile keeps it. The build is written into a temporary
    folder and its file moved into place in one step, so a process loading the module at
    the same time finds the old file or the new one.
    """
    global _failed_here
    if not enabled():
        return f"turned off ({ENV}=0)"
    try:
        parent = folder().parent
        parent.mkdir(parents=True, exist_ok=True)
        with _building(parent):
            _opened.cache_clear()
            if load() is not None:
                return None
            reason = _build_into(folder())
    except OSError as exc:  # an unwritable cache directory
        reason = _reason(exc)
    if reason is None:
        _failed_here = None
    else:
        _record(reason)
    return reason


def _build_into(target: Path) -> str | None:
    """Build, move the file into ``target`` and load it: None, or why not."""
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        try:
            _compile(tmp)
        except Exception as exc:  # no C compiler, no numba.pycc, ...: the kernels run just in time
            return _reason(exc)
        built = tmp / path().name
        if not built.is_file():
            return f"numba.pycc wrote no {built.name}"
        target.mkdir(exist_ok=True)
        os.replace(built, path())
        with contextlib.suppress(FileNotFoundError):
            (target / FAILED).unlink()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _opened.cache_clear()
    return _opened(path())[1]
