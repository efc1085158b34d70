"""The backends: one contract (:mod:`.interface`), one registry (:mod:`.registry`), and
the side-by-side check of several backends (:mod:`.crosscheck`).

A new backend is one module (copy ``TEMPLATE.py``) and one entry in
``registry.BACKENDS``.
"""

from .crosscheck import Crosscheck, CrosscheckRow, crosscheck
from .interface import Backend, Option
from .registry import BACKENDS, backend_options, count, counts, get_backend, solutions, solve

__all__ = [
    "BACKENDS",
    "Backend",
    "Option",
    "get_backend",
    "backend_options",
    "solve",
    "count",
    "counts",
    "solutions",
    "crosscheck",
    "Crosscheck",
    "CrosscheckRow",
]
