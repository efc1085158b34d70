"""Keeping a Dask cluster's own output off the terminal: one line per event, the rest in a log file.

A count on ``--dask local:K`` or ``--dask ADDRESS`` tells the user what happens in one
line per event, on stderr (:func:`say`): where the cluster's log is, a worker lost and
how many tasks went out again, an interrupt. The log output and the tracebacks of the
cluster's own machinery go to that log file (:class:`ClusterLog`), never to the terminal:

* in this process, the console handlers of Dask's logging configuration (the handler
  ``distributed`` installs on its loggers and on ``tornado`` and ``bokeh``) write to the
  file while the cluster is in use (:meth:`ClusterLog.capture`); the levels are Dask's
  (``logging`` in the Dask configuration);
* each worker process of a ``local:K`` cluster starts with SIGINT blocked
  (:func:`sigint_blocked`) and runs :func:`dask_setup`, a Dask worker preload: its
  standard output and error go to the file, and it ignores SIGINT. Ctrl-C in a terminal
  (which signals the whole foreground process group) reaches only the process that runs
  the count, which then stops the cluster;
* multiprocessing's resource tracker, which the worker processes share, is started with
  the file as its standard error (:meth:`ClusterLog.start_tracker`).

The file is ``dask-<date>-<time>-<pid>.log`` in ``$QUEENSLAB_LOG_DIR`` or else in the user
log directory of queenslab (``platformdirs.user_log_dir``: ``~/.local/state/queenslab/log``
on Linux); the newest :data:`KEEP` such files are kept.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["ClusterLog", "say", "log_dir", "sigint_blocked", "dask_setup", "LOG_DIR_VAR", "LOG_FILE_VAR", "KEEP"]

#: The environment variable naming the directory of the log files (default: the user log directory).
LOG_DIR_VAR = "QUEENSLAB_LOG_DIR"
#: The environment variable that tells a worker process of a ``local:K`` cluster its log file.
LOG_FILE_VAR = "QUEENSLAB_DASK_LOG"
#: How many log files of earlier runs are kept (the oldest are removed).
KEEP = 20

#: The loggers whose console handlers Dask's logging configuration installs.
_DASK_LOGGERS = ("distributed", "tornado", "tornado.application", "bokeh")
#: The roots of those loggers.
_TOP_LOGGERS = ("distributed", "tornado", "bokeh")


def _log_format() -> str:
    """The format of Dask's log lines (``distributed.admin.log-format``)."""
    try:
        import dask

        return str(dask.config.get("distributed.admin.log-format"))
    except Exception:  # dask absent or its configuration without the key
        return "%(asctime)s - %(name)s - %(levelname)s - %(message)s"


def say(line: str) -> None:
    """One line for the user on stderr (above a progress bar, if one is drawn)."""
    from tqdm import tqdm

    with contextlib.suppress(OSError, ValueError):  # no stderr to write to: the count goes on
        tqdm.write(line, file=sys.stderr)


def log_dir() -> Path:
    """``$QUEENSLAB_LOG_DIR``, else the user log directory of queenslab."""
    if os.environ.get(LOG_DIR_VAR):
        return Path(os.environ[LOG_DIR_VAR])
    import platformdirs

    return Path(platformdirs.user_log_dir("queenslab"))


def _prune(directory: Path) -> None:
    """Remove all but the newest :data:`KEEP` log files of earlier runs."""
    try:
        old = sorted(directory.glob("dask-*.log"), key=lambda p: p.stat().st_mtime)
        for p in old[:-KEEP]:
            p.unlink()
    except OSError:  # another run removing the same files, or a read-only directory: keep them
        pass


class ClusterLog:
    """The log file of one run on a Dask cluster (see the module's docstring).

    Examples
    --------
    >>> import logging, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     log = ClusterLog.open("a test", directory=d)
    ...     with log.capture():
    ...         logging.getLogger("distributed.test").warning("into the file")
    ...     log.close()
    ...     "into the file" in log.path.read_text()
    True
    """

    def __init__(self, path: Path, stream: IO[str]):
        self.path = path
        self.stream = stream
        self.stream.flush()
        self.header = path.stat().st_size
        self.announced = False

    @classmethod
    def open(cls, what: str, directory: str | os.PathLike | None = None) -> ClusterLog:
        """A new log file for a run on ``what`` (a temporary file if the log directory
        cannot be written)."""
        folder = Path(directory) if directory is not None else log_dir()
        stem = f"dask-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _prune(folder)
            for k in itertools.count(1):
                path = folder / (f"{stem}.log" if k == 1 else f"{stem}-{k}.log")
                with contextlib.suppress(FileExistsError):
                    stream = open(path, "x", buffering=1, encoding="utf-8", errors="backslashreplace")  # noqa: SIM115
                    break
        except OSError:
            fd, raw = tempfile.mkstemp(prefix="queenslab-dask-", suffix=".log")
            path = Path(raw)
            stream = open(fd, "a", buffering=1, encoding="utf-8", errors="backslashreplace")  # noqa: SIM115
        from .. import __version__

        stream.write(f"queenslab {__version__}: {what}, pid {os.getpid()}, {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        return cls(path, stream)

    def write(self, line: str) -> None:
        """A line of queenslab's own in the file, with the time."""
        with contextlib.suppress(OSError, ValueError):
            self.stream.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} - queenslab - {line}\n")

    def announce(self, only_if_written: bool = False) -> None:
        """Say the file's path on stderr, once (with ``only_if_written``: only if
        something has been written to it)."""
        if self.announced:
            return
        if only_if_written:
            with contextlib.suppress(OSError, ValueError):
                self.stream.flush()
            try:
                if self.path.stat().st_size <= self.header:
                    return
            except OSError:
                return
        self.announced = True
        say(f"the cluster's log: {self.path}")

    @contextlib.contextmanager
    def capture(self) -> Iterator[None]:
        """While the block runs, the log records of Dask's loggers in this process go to
        the file: the console handlers that Dask's logging configuration installs write
        there, and where Dask installed none (the program had configured logging
        first, so the records go on to its root logger) a handler of the file takes
        their place."""
        swapped: dict[logging.StreamHandler, Any] = {}
        added: list[tuple[logging.Logger, logging.Handler, bool]] = []
        names = [*_DASK_LOGGERS, *(n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed."))]
        for name in names:
            for handler in logging.getLogger(name).handlers:
                if type(handler) is logging.StreamHandler and handler not in swapped:
                    swapped[handler] = handler.setStream(self.stream)
        for name in _TOP_LOGGERS:
            logger = logging.getLogger(name)
            if logger.propagate and not any(type(h) is logging.StreamHandler for h in logger.handlers):
                handler = logging.StreamHandler(self.stream)
                handler.setFormatter(logging.Formatter(_log_format()))
                logger.addHandler(handler)
                added.append((logger, handler, logger.propagate))
                logger.propagate = False
        try:
            yield
        finally:
            for logger, handler, propagate in added:
                logger.removeHandler(handler)
                logger.propagate = propagate
            for handler, stream in swapped.items():
                if handler.stream is self.stream:
                    handler.setStream(stream)

    def start_tracker(self) -> None:
        """Start multiprocessing's resource tracker, if it is not running yet, with the
        log file as its standard error: the worker processes share it, and it warns of
        "leaked semaphore objects" when a run is cut short (Ctrl-C while the cluster stops).

        The tracker inherits the standard error of this process when it starts, so the
        file is put there for that moment only."""
        if os.name != "posix":
            return
        from multiprocessing import resource_tracker

        if getattr(getattr(resource_tracker, "_resource_tracker", None), "_fd", None) is not None:
            return  # running already, with the standard error it had
        self.stream.flush()
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(self.stream.fileno(), 2)
            resource_tracker.ensure_running()
        finally:
            os.dup2(saved, 2)
            os.close(saved)

    def close(self) -> None:
        """Close the file (this process's writes; the worker processes close theirs);
        remove it if it was never said and holds nothing but its header."""
        with contextlib.suppress(OSError):
            self.stream.close()
        if not self.announced:
            with contextlib.suppress(OSError):
                if self.path.stat().st_size <= self.header:
                    self.path.unlink()


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while the block runs: the threads started meanwhile
    (Dask's event loop, and its threads that start the worker processes) inherit the
    block, and so do the processes they start, from their first instruction on. Ctrl-C
    in a terminal then reaches only this process (a thread of it that does not block
    SIGINT: the main thread, when this runs in another) and not the worker processes,
    not even while they start."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _quiet_worker_process(path: str) -> None:
    """This process's standard output and error go to ``path``; it ignores SIGINT."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run by each worker process of a ``local:K`` cluster as it
    starts: its output goes to the run's log file and Ctrl-C is left to the process
    that runs the count (which stops the cluster)."""
    path = os.environ.get(LOG_FILE_VAR)
    if path:
        _quiet_worker_process(path)
