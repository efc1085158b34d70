"""queenslab: the N-Queens problem as a constraint-programming and SAT modelling subject.

The public API (re-exports only). See the documentation for the full tour.

>>> from queenslab import Problem, count
>>> count(Problem(8)), count(Problem(8), unique=True)
(92, 12)

Every name but the errors is loaded on first use, so that ``import queenslab`` stays
light: a program that reads one module pays for that module only.
"""

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from . import errors as _errors
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

if TYPE_CHECKING:  # what the names are, for type checkers; at run time they load on first use
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
    from .backends.approximate import ApproximateCount
    from .compiled import CompiledProblem, Conflict, compile_problem
    from .constraints import Constraint
    from .d4 import D4, D4Element
    from .estimate import Estimate
    from .heuristics import ant_colony, construct, genetic, min_conflicts, self_correct, solve as solve_large
    from .problem import Problem, Region
    from .ranking.lex import rank, unrank
    from .result import CountResult
    from .solution import (
        board_text,
        conflicts,
        format_placement,
        is_solution,
        parse_placement,
        why_not_solution,
    )

#: Every public name but the errors, loaded on first use: name -> (module, attribute).
#: ``import queenslab`` itself loads only the errors, so that a command or a script
#: that needs one module (the command line's ``check``, say) does not pay for numpy,
#: numba and the backends it never touches.
_LAZY = {
    **dict.fromkeys(
        (
            "Backend",
            "Crosscheck",
            "CrosscheckRow",
            "Option",
            "count",
            "counts",
            "crosscheck",
            "get_backend",
            "solutions",
            "solve",
        ),
        "queenslab.backends",
    ),
    **dict.fromkeys(("CompiledProblem", "Conflict", "compile_problem"), "queenslab.compiled"),
    "Constraint": "queenslab.constraints",
    **dict.fromkeys(("D4", "D4Element"), "queenslab.d4"),
    **dict.fromkeys(("Problem", "Region"), "queenslab.problem"),
    "CountResult": "queenslab.result",
    "ApproximateCount": "queenslab.backends.approximate",
    "Estimate": "queenslab.estimate",
    **dict.fromkeys(
        ("board_text", "conflicts", "format_placement", "is_solution", "parse_placement", "why_not_solution"),
        "queenslab.solution",
    ),
    **dict.fromkeys(("construct", "min_conflicts", "self_correct", "genetic", "ant_colony"), "queenslab.heuristics"),
    "solve_large": "queenslab.heuristics:solve",
    **dict.fromkeys(("rank", "unrank"), "queenslab.ranking.lex"),
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # read from the installed metadata only when asked: importlib.metadata costs a
        # twentieth of a second at start-up
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("queenslab")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            value = "0.0.0+unknown"
    elif name in _LAZY:
        module, _, attribute = _LAZY[name].partition(":")
        value = getattr(import_module(module), attribute or name)
    else:
        raise AttributeError(f"module 'queenslab' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
    "ApproximateCount",
    "Estimate",
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

# In a notebook: problems shown as boards, counts and cross-checks as tables. Only a
# running IPython matters, so the drawing modules load only where IPython is loaded;
# where queenslab came first, ``%load_ext queenslab.viz.notebook`` registers them.
if "IPython" in sys.modules:
    from .viz.notebook import register as _register_notebook_pictures

    _register_notebook_pictures()
