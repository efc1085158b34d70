"""The processes the solver backends count in: one multiprocessing context for all.

:func:`~queenslab.backends.crosscheck.crosscheck` runs each backend in a process of its
own (killed at its time limit), and ApproxMC counts in one (killed on Ctrl-C); both take
their processes from :func:`context`.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

__all__ = ["context"]


def context() -> Any:
    """The multiprocessing context of the backends' processes: ``forkserver`` (each
    process forks from a server that has imported the backends once; no thread of this
    process is copied) where the platform has it, else ``spawn``."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["queenslab.backends", "queenslab.native.engine", "queenslab.models.cnf"])
        return ctx
    return multiprocessing.get_context("spawn")
