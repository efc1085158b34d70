"""A solver program as a child process: stopped on Ctrl-C or a crosscheck's time limit,
killed when its parent dies.

The backends that run a program rather than a library (``d4``, the XCSP3 solvers) start
it here: the wait polls :func:`queenslab.interrupt.check` five times a second and kills the
child on a stop, and on Linux the child asks the kernel to kill it when its parent ends
(``PR_SET_PDEATHSIG``), so a crosscheck that terminates a backend's process leaves no
solver running.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Sequence

from .. import interrupt

__all__ = ["run"]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    import ctypes

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run(argv: Sequence[str]) -> tuple[int, str, str]:
    """Run ``argv`` to its end; returns ``(returncode, stdout, stderr)``.

    Raises
    ------
    KeyboardInterrupt
        On a stop (the child is killed first).
    """
    proc = subprocess.Popen(
        list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
    )
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=0.2)
                return proc.returncode, out, err
            except subprocess.TimeoutExpired:
                interrupt.check()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
