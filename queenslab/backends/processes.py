"""The processes the solvers run in: one multiprocessing context for all, and one way to
call a function in a process of its own.

:func:`~queenslab.backends.crosscheck.crosscheck` runs each backend in a process of its
own (killed at its time limit); ApproxMC counts and the MaxSAT optimiser solves in one
(:func:`run_elsewhere`: killed on Ctrl-C or at a deadline), because their C solvers do
not stop when asked.
"""

from __future__ import annotations

import time
from typing import Any

from .. import interrupt
from ..errors import QueensError

__all__ = ["OutOfTime", "context", "run_elsewhere"]

#: Seconds between two looks at the process (and at the stop flag).
POLL_SECONDS = 0.05


class OutOfTime(Exception):
    """:func:`run_elsewhere` killed the process at its deadline."""


def context() -> Any:
    """The multiprocessing context of the backends' processes: ``forkserver`` (each
    process forks from a server that has imported the backends once; no thread of this
    process is copied) where the platform has it, else ``spawn``."""
    import multiprocessing  # here, not at the top: a fresh count by the engine never needs it

    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["queenslab.backends", "queenslab.native.engine", "queenslab.models.cnf"])
        return ctx
    return multiprocessing.get_context("spawn")


def run_elsewhere(fn: Any, *args: Any, name: str, what: str, seconds: float | None = None) -> Any:
    """``fn(*args)`` in a process of its own, waited for in short polls and killed on
    Ctrl-C (or a stop requested from another thread) or after ``seconds``; ``fn`` and
    ``args`` must pickle.

    Raises
    ------
    OutOfTime
        At the deadline (the process is killed).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` on a stop (the process is killed).
    QueensError
        When the process ends without an answer (killed, crashed); what ``fn`` raised
        there is raised here as it was (as a QueensError naming it, if it cannot be sent).
    """
    ctx = context()
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_call_in_process, args=(fn, args, send, what), daemon=True, name=name)
    started = False
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        proc.start()
        started = True
        send.close()
        while True:
            interrupt.check()  # a stop requested from the main thread: the process is killed below
            if receive.poll(POLL_SECONDS):
                try:
                    status, value = receive.recv()
                except EOFError:
                    break
                if status == "error":
                    raise value
                return value
            if not proc.is_alive() and not receive.poll():
                break
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime(f"{what} ran out of time")
    except KeyboardInterrupt:
        raise interrupt.Interrupted("interrupted") from None
    finally:
        if started:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
        send.close()
        receive.close()
    raise QueensError(f"{what}'s process ended without an answer (exit code {proc.exitcode}); nothing was computed")


def _call_in_process(fn: Any, args: tuple, conn: Any, what: str) -> None:
    """The process of :func:`run_elsewhere`: call, then send ``("ok", value)`` or ``("error", exception)``."""
    import pickle  # imported by the process the backends start, not by every command

    try:
        try:
            conn.send(("ok", fn(*args)))
        except BaseException as e:  # sent to the caller, which raises it
            error: BaseException = e
            try:
                pickle.loads(pickle.dumps(e))  # what the caller will receive
            except Exception:
                error = QueensError(f"{what} failed: {type(e).__name__}: {e}")
            conn.send(("error", error))
    finally:
        conn.close()
