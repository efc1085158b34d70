"""Whether the numba kernels a count needs are already compiled, so that the first run
after an install can say it is compiling instead of looking hung.

numba keeps each compiled kernel in an on-disk cache (``cache=True``), next to the
module or under ``NUMBA_CACHE_DIR``; a kernel whose index file is missing is compiled
on its first call. The check reads numba's cache object of each dispatcher.
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["is_cached", "announce_compile"]


def is_cached(kernel: Any) -> bool:
    """Whether ``kernel`` (a numba dispatcher with ``cache=True``) has an on-disk cache
    index; True when numba's cache cannot be inspected (nothing is announced then)."""
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:
        return True


def announce_compile(kernels: list[Any], what: str, seconds: float, stream: Any = None) -> bool:
    """Write ``compiling WHAT, once: ~S s`` to ``stream`` (standard error) when one of
    ``kernels`` is not compiled yet; returns whether it wrote."""
    if all(is_cached(k) for k in kernels):
        return False
    print(f"compiling {what}, once: ~{seconds:.0f} s", file=stream or sys.stderr, flush=True)
    return True
