"""The build lock of an index: one builder at a time per file.

The builder holds an exclusive lock on ``X.sqlite.lock`` (``fcntl.flock``;
``msvcrt.locking`` on Windows) holding its process id; a second builder reports "being
built by PID ..., waiting" and, once the first is done, returns the finished index.
Readers never take the lock: they only ever open complete, immutable files.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .. import interrupt
from ..errors import QueensError
from ..outfile import output_target
from .index_format import Note
from .index_paths import ENV_VAR, lock_path

try:  # POSIX
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows
    _fcntl = None  # type: ignore[assignment]


class BuildLock:
    """The exclusive build lock on ``X.sqlite.lock``, holding the builder's PID.

    ``fcntl.flock`` where it exists (the kernel releases it when the process dies, so a
    killed build never leaves a stale lock), ``msvcrt.locking`` on Windows; where neither
    works the build goes ahead unlocked, with a note.
    """

    def __init__(self, target: Path, note: Note, *, wait: bool = True):
        self.target = target
        self.path = lock_path(target)
        self.note = note
        self.wait = wait
        self.fd: int | None = None
        self.locked = False
        self.waited = False

    def _try(self) -> bool:
        assert self.fd is not None
        if _fcntl is not None:
            try:
                _fcntl.flock(self.fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False
            except OSError as e:  # e.g. a file system without locks
                self.note(f"cannot lock {self.path} ({e.strerror}); building without a lock")
                return True
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            try:
                os.lseek(self.fd, 0, os.SEEK_SET)
                msvcrt.locking(self.fd, msvcrt.LK_NBLCK, 1)
                return True
            except OSError:
                return False
        self.note(f"no file locking on this platform; building {self.target} without a lock")  # pragma: no cover
        return True  # pragma: no cover

    def __enter__(self) -> BuildLock:
        output_target(self.path, "the index's lock file")  # never through a dangling link
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise QueensError(
                f"cannot write the index at {self.target}: {e.strerror} ({self.path}); choose a writable "
                f"directory with --index DIR or ${ENV_VAR}"
            ) from None
        try:
            t0 = time.monotonic()
            told = False
            while not self._try():
                self.waited = True
                if not self.wait:
                    return self
                if not told and time.monotonic() - t0 > 0.2:
                    self.note(
                        f"{self.target} is being built by PID {holder_pid(self.target)}, waiting for it to finish"
                    )
                    told = True
                interrupt.check()
                time.sleep(0.1)
            self.locked = True
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
            os.write(self.fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(self.fd)
            self.fd = None
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is None:
            return
        try:
            if self.locked:
                os.ftruncate(self.fd, 0)
                if _fcntl is not None:
                    _fcntl.flock(self.fd, _fcntl.LOCK_UN)
                elif sys.platform == "win32":  # pragma: no cover
                    import msvcrt

                    os.lseek(self.fd, 0, os.SEEK_SET)
                    msvcrt.locking(self.fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(self.fd)
            self.fd = None


def holder_pid(target: str | os.PathLike) -> int | None:
    """The PID of the process building the index at ``target``, or None if none is.

    Examples
    --------
    >>> holder_pid("/nonexistent/x.sqlite") is None
    True
    """
    lock = lock_path(Path(target))
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        if _fcntl is not None:
            try:
                _fcntl.flock(fd, _fcntl.LOCK_SH | _fcntl.LOCK_NB)
                _fcntl.flock(fd, _fcntl.LOCK_UN)
                return None  # nobody holds it
            except BlockingIOError:
                pass
            except OSError:
                return None
        try:
            text = os.read(fd, 64).decode(errors="replace").strip()
        except OSError:  # pragma: no cover - Windows: the locked byte cannot be read
            return None
        return int(text) if text.isdigit() else None
    finally:
        os.close(fd)
