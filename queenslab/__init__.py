"""queenslab: the N-Queens problem as a constraint-programming and SAT modelling subject.

The public API (re-exports only). See the documentation for the full tour.

>>> from queenslab import Problem, count
>>> count(Problem(8)), count(Problem(8), unique=True)
(92, 12)
"""

from importlib.metadata import PackageNotFoundError, version

from .backends import count, counts, get_backend, solutions, solve
from .errors import (
    InvalidPlacement,
    InvalidProblem,
    MissingDependency,
    QueensError,
    TooLarge,
    UnknownOption,
    UnsupportedProblem,
)
from .interface import Backend, CountResult
from .problem import Problem
from .solution import (
    board_text,
    conflicts,
    format_placement,
    is_solution,
    parse_placement,
    why_not_solution,
)
from .d4 import D4, D4Element

try:
    __version__ = version("queenslab")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "Problem",
    "count",
    "counts",
    "solve",
    "solutions",
    "get_backend",
    "Backend",
    "CountResult",
    "parse_placement",
    "format_placement",
    "is_solution",
    "conflicts",
    "why_not_solution",
    "board_text",
    "D4",
    "D4Element",
    "QueensError",
    "InvalidProblem",
    "InvalidPlacement",
    "UnsupportedProblem",
    "UnknownOption",
    "TooLarge",
    "MissingDependency",
    "__version__",
]
