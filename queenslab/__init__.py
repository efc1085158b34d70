"""queenslab: the N-Queens problem as a constraint-programming and SAT modelling subject.

The public API (re-exports only). See the documentation for the full tour.

>>> from queenslab import Problem, count
>>> count(Problem(8)), count(Problem(8), unique=True)
(92, 12)

The heuristic solvers for very large boards (``construct``, ``min_conflicts``,
``self_correct``, ``genetic``, ``ant_colony``, ``solve_large``) and ranking (``rank``,
``unrank``) are loaded on first use, so that ``import queenslab`` stays light.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError as _PackageNotFoundError, version as _version
from typing import Any

from . import errors as _errors
from .backends import (
    Backend,
    Crosscheck,
    CrosscheckRow,
    Option,
    count,
    counts,
    crosscheck,
    get_backend,
    solutions,
    solve,
)
from .compiled import CompiledProblem, Conflict, compile_problem
from .constraints import Constraint
from .d4 import D4, D4Element
from .errors import (  # re-exported: __all__ takes the names from errors.__all__
    Incomplete as Incomplete,
    InvalidIndex as InvalidIndex,
    InvalidPlacement as InvalidPlacement,
    InvalidProblem as InvalidProblem,
    InvalidTrace as InvalidTrace,
    MissingDependency as MissingDependency,
    QueensError as QueensError,
    TooLarge as TooLarge,
    UnknownOption as UnknownOption,
    UnsupportedProblem as UnsupportedProblem,
)
from .problem import Problem, Region
from .result import CountResult
from .solution import (
    board_text,
    conflicts,
    format_placement,
    is_solution,
    parse_placement,
    why_not_solution,
)

try:
    __version__ = _version("queenslab")
except _PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

#: Names loaded on first use: name -> (module, attribute).
_LAZY = {
    "construct": ("queenslab.heuristics", "construct"),
    "min_conflicts": ("queenslab.heuristics", "min_conflicts"),
    "self_correct": ("queenslab.heuristics", "self_correct"),
    "genetic": ("queenslab.heuristics", "genetic"),
    "ant_colony": ("queenslab.heuristics", "ant_colony"),
    "solve_large": ("queenslab.heuristics", "solve"),
    "rank": ("queenslab.ranking.lex", "rank"),
    "unrank": ("queenslab.ranking.lex", "unrank"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'queenslab' has no attribute {name!r}")


__all__ = [
    "Problem",
    "Region",
    "compile_problem",
    "CompiledProblem",
    "Constraint",
    "count",
    "counts",
    "solve",
    "solutions",
    "crosscheck",
    "Crosscheck",
    "CrosscheckRow",
    "get_backend",
    "Backend",
    "Option",
    "CountResult",
    "parse_placement",
    "format_placement",
    "is_solution",
    "conflicts",
    "Conflict",
    "why_not_solution",
    "board_text",
    "D4",
    "D4Element",
    "construct",
    "min_conflicts",
    "self_correct",
    "genetic",
    "ant_colony",
    "solve_large",
    "rank",
    "unrank",
    "__version__",
]
__all__ += _errors.__all__

# In a notebook: problems shown as boards, counts and cross-checks as tables (nothing happens
# outside IPython).
from .viz.notebook import register as _register_notebook_pictures  # noqa: E402

_register_notebook_pictures()
