"""Kernel modules imported at their first use, so that a process loads numba only for the
kernels it runs.

Every kernel module imports numba (:mod:`queenslab.native.jit`), a fifth of a second of a
fresh process. The modules that choose and run kernels (the engine, the counting methods,
the join) hold their kernel modules as :class:`LazyModule` objects: the import happens at
the first attribute read, so a count that runs the join's ahead-of-time build
(:mod:`queenslab.native.aot`) never imports numba, and one that runs the symmetric search
never imports the join's kernels.

The standard library's ``importlib.util.LazyLoader`` does the same for a module object
but, on Python 3.11, a second thread reading an attribute while the first one loads the
module can find it half executed; here the import runs under a lock (the counts run
their tasks on threads).
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import Any

__all__ = ["LazyModule"]


class LazyModule:
    """The module ``name``, imported at the first attribute read (once, under a lock).

    Examples
    --------
    >>> json = LazyModule("json")
    >>> json.dumps([1, 2])
    '[1, 2]'
    >>> json.loaded
    True
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the module has been imported through this object."""
        return self._module is not None

    def _load(self) -> ModuleType:
        with self._lock:
            if self._module is None:
                self._module = importlib.import_module(self._name)
            return self._module

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__") and self._module is None:
            # what introspection asks of any object (``inspect.unwrap``'s ``__wrapped__``,
            # doctest's collection, copy, pickle): not a use of the module
            raise AttributeError(attr)
        module = self._module if self._module is not None else self._load()
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{'' if self.loaded else ' (not yet imported)'}>"
