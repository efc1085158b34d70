"""Stopping long work on Ctrl-C within about a second, everywhere.

Python runs its signal handlers in the main thread, between bytecodes; a numba kernel
or a solver's C++ search running in the main thread would not see Ctrl-C until it
returned, which may be hours. So long work runs in a worker thread (:func:`run`) while
the main thread waits; on ``KeyboardInterrupt`` the main thread raises the stop flag
and calls the stop hooks of running solvers, and the work unwinds:

* numba kernels take :data:`FLAG` (an ``int64[1]`` array) and return early when
  ``FLAG[0]`` is set; their Python wrappers then call :func:`check`, which raises
  :class:`Interrupted`;
* CP-SAT and SAT solvers register a hook with :func:`stopping` (``StopSearch``,
  pysat's ``interrupt``) for the time they run.

A partial result is never returned: an interrupted call raises. :class:`Interrupted` is
a ``KeyboardInterrupt``, so ``except Exception`` does not swallow it and the command
line exits with status 130.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

    FLAG: np.ndarray

__all__ = [
    "FLAG",
    "Interrupted",
    "GRACE_SECONDS",
    "requested",
    "abandoned",
    "check",
    "request",
    "clear",
    "stopping",
    "run",
]

#: The stop flag read by the kernels (``FLAG``, an int64 array of one element:
#: ``FLAG[0] != 0`` means "return now") is made when a kernel first asks for it, so that
#: a command that runs no kernel does not load numpy; until then the flag is ``_raised``.
_FLAG: Any = None
_raised = False


def __getattr__(name: str) -> Any:
    if name == "FLAG":
        return _kernel_flag()
    raise AttributeError(f"module 'queenslab.interrupt' has no attribute {name!r}")


def _kernel_flag() -> Any:
    global _FLAG
    with _lock:
        if _FLAG is None:
            import numpy as np

            flag = np.zeros(1, np.int64)
            flag[0] = _raised
            _FLAG = flag
    return _FLAG


def _get() -> bool:
    return bool(_FLAG[0]) if _FLAG is not None else _raised


def _set(value: bool) -> None:
    global _raised
    _raised = value
    if _FLAG is not None:
        _FLAG[0] = value


#: How long :func:`run` waits for interrupted work to unwind before giving up on it.
GRACE_SECONDS = 1.0

_hooks: list[Callable[[], None]] = []
_abandoned: list[threading.Event] = []
_lock = threading.Lock()

T = TypeVar("T")


class Interrupted(KeyboardInterrupt):
    """Work was stopped by Ctrl-C (or :func:`request`) before it finished.

    ``kept`` says what the stopped work left kept, one line each (a ledger's finished
    tasks and how to finish the count; see :func:`keeping`): the command line prints
    them after "interrupted".
    """

    def __init__(self, *args: object, kept: tuple[str, ...] = ()):
        super().__init__(*args)
        self.kept = kept


#: What running work would leave kept if stopped now (:func:`keeping`), newest last.
_kept: list[Callable[[], str | None]] = []


@contextmanager
def keeping(note: Callable[[], str | None]) -> Iterator[None]:
    """While the block runs, a stop by :func:`run` asks ``note()`` what the work leaves
    kept (a ledger's finished tasks, read after the work has unwound) and hands the
    answer to the command line in :attr:`Interrupted.kept`; None says nothing."""
    with _lock:
        _kept.append(note)
    try:
        yield
    finally:
        with _lock:
            if note in _kept:
                _kept.remove(note)


def _kept_lines(notes: list[Callable[[], str | None]]) -> tuple[str, ...]:
    lines = []
    for note in notes:
        try:
            line = note()
        except Exception:  # a note that cannot be read is left out, never raised over the stop
            line = None
        if line:
            lines.append(line)
    return tuple(lines)


def requested() -> bool:
    """Whether a stop has been requested."""
    return _get()


def check() -> None:
    """Raise :class:`Interrupted` if a stop has been requested.

    Call it after every kernel call that takes :data:`FLAG` (the kernel may have
    returned early with a partial result) and in long Python loops.
    """
    if _get():
        raise Interrupted("interrupted")


def request() -> None:
    """Ask all running work to stop: raise the flag and call the solvers' stop hooks."""
    _set(True)
    with _lock:
        hooks = list(_hooks)
    for hook in hooks:
        with contextlib.suppress(Exception):  # a solver that already finished may refuse to stop
            hook()


def abandoned() -> bool:
    """Whether interrupted work that did not stop within the grace period still runs."""
    with _lock:
        return bool(_abandoned)


def _wait_for_abandoned() -> None:
    """Let interrupted work that is still ending finish before new work starts (it holds
    the stop flag up, which would stop the new work at once)."""
    while True:
        with _lock:
            pending = list(_abandoned)
        if not pending:
            return
        for done in pending:
            while not done.wait(0.25):  # bounded waits: Ctrl-C is seen between them
                pass


def clear() -> None:
    """Lower the stop flag (done by :func:`run` once interrupted work has unwound)."""
    _set(False)


class Stopper:
    """What :func:`stopping` yields: ``fired`` tells whether the hook was called."""

    def __init__(self, hook: Callable[[], None]):
        self._hook = hook
        self.fired = False

    def __call__(self) -> None:
        self.fired = True
        self._hook()

    def check(self) -> None:
        """Raise :class:`Interrupted` if the hook was called (even if the flag has been
        lowered since: the solver's answer is partial either way)."""
        if self.fired:
            raise Interrupted("interrupted")


@contextmanager
def stopping(hook: Callable[[], None]) -> Iterator[Stopper]:
    """Register ``hook`` (a solver's stop method) for the duration of the block.

    If a stop was requested before the block, the hook is called at once. Call the
    yielded :class:`Stopper`'s ``check()`` after the solver returns.
    """
    stopper = Stopper(hook)
    with _lock:
        _hooks.append(stopper)
    try:
        if _get():
            stopper()
        yield stopper
    finally:
        with _lock:
            _hooks.remove(stopper)


def run(fn: Callable[..., T], *args, **kwargs) -> T:
    """Call ``fn(*args, **kwargs)`` so that Ctrl-C stops it within about a second.

    In the main thread (and not already inside :func:`run`), ``fn`` runs in a worker
    thread while the main thread waits; ``KeyboardInterrupt`` then requests a stop,
    waits up to :data:`GRACE_SECONDS` for the work to unwind and re-raises. Elsewhere
    ``fn`` is simply called: the thread that owns the main thread handles Ctrl-C.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (an :class:`Interrupted` when the work unwound in time).
    """
    if threading.current_thread() is not threading.main_thread() or getattr(_state, "active", False):
        return fn(*args, **kwargs)
    _wait_for_abandoned()
    box: dict = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as e:  # handed to the main thread, re-raised there
            box["error"] = e
        finally:
            with _lock:
                done.set()
                if box.get("abandoned"):
                    _abandoned.remove(done)
                    if not _abandoned:
                        clear()  # the last interrupted work has ended: lower the flag

    worker = threading.Thread(target=target, name="queenslab-work", daemon=True)
    _state.active = True
    try:
        worker.start()
        try:
            # An Event, not Thread.join: a join interrupted by Ctrl-C can mark a running
            # thread as finished (CPython 3.11), and the work would be abandoned unstopped.
            while not done.wait(0.25):
                pass
        except KeyboardInterrupt:
            with _lock:
                notes = list(_kept)
            request()
            done.wait(GRACE_SECONDS)
            raise Interrupted("interrupted", kept=_kept_lines(notes)) from None
    finally:
        _state.active = False
        with _lock:
            if done.is_set():
                if not _abandoned:
                    clear()
            else:
                # work slow to stop (a C++ counter without a stop API): it ends in the
                # background, its result discarded; the flag stays up until it has ended
                box["abandoned"] = True
                _abandoned.append(done)
    if "error" in box:
        raise box["error"]
    return box["value"]


_state = threading.local()
