"""A template for a new backend: copy this file, fill in the three marked places, and add
the class to ``BACKENDS`` in :mod:`queenslab.backends.registry`. That is all: the command
line then offers ``--backend mysolver`` with the options declared below, ``crosscheck``
runs it beside the others (an exact backend always; one whose counts are estimates,
``approximate = True``, when asked), and the test suite's registry checks cover it.

What the base class already does for you (see :mod:`queenslab.backends.interface`):
checking the problem, refusing options you did not declare, validating the declared
ones (types, bounds, choices), timing the count, and deriving ``count`` (which raises
``Incomplete`` on an incomplete count) and ``solve`` (the first solution).

The meaning is the same for every backend:

* ``_counts`` returns a :class:`CountResult`: ``count`` solutions and, when ``unique``,
  ``unique`` = the number of orbits under ``problem.symmetries()``; if a limit stopped the
  search, ``complete=False`` (the numbers are then lower bounds).
* ``_solutions`` yields 0-based tuples (``p[r]`` is the column of row ``r``'s queen), at
  most ``limit`` of them (None means all; 0 never reaches you).
* Every backend accepts every :class:`Problem`, or raises ``UnsupportedProblem`` naming
  the feature it lacks. Read the variant from its compiled form
  (:func:`queenslab.compiled.compile_problem`), never from the flags.
* Import optional packages inside the methods and raise ``MissingDependency`` naming the
  pip extra when one is missing, so that registering the backend costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..compiled import compile_problem
from ..constraints import KINDS
from ..errors import MissingDependency
from ..problem import Problem
from .interface import LIMIT, Backend, CountResult, Option


class TemplateBackend(Backend):
    # (1) the registry name, one line for --help, and the options (shared ones such as
    # LIMIT, TIME_LIMIT, THREADS, SEED come from the interface module)
    name = "template"
    summary = "one line saying what this backend is"
    # the constraint kinds it counts: the built-in ones and any kind said in the compiled
    # form it reads (add "encode_<solver>" if it posts a kind's own encoding); a problem
    # with another kind is refused by the base class, never counted without it
    kinds = KINDS
    hooks = ("compile",)
    options = (
        Option("strategy", "choice", "how the solver searches", default="fast", choices=("fast", "thorough")),
        LIMIT,
    )
    # optional: ``practical_limit`` (the largest n counted without force) with its
    # ``practical_note``, and -- for a backend that counts by enumerating every solution --
    # ``enumeration_rate`` (solutions a second, measured at n = ``rate_n``), by which a
    # crosscheck lets it count a problem beyond that limit when the problem is cheap for it

    # (2) counting
    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        solver = _solver_package()
        compiled = compile_problem(problem)
        found, complete = solver.count(compiled, limit=opts.get("limit"))
        orbits = None
        if unique:
            orbits, done = solver.count_orbits(compiled, compiled.group)
            complete = complete and done
        return CountResult(found, orbits, method=opts.get("strategy", "fast"), complete=complete)

    # (3) enumeration
    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        solver = _solver_package()
        for k, placement in enumerate(solver.enumerate(compile_problem(problem))):
            if limit is not None and k >= limit:
                return
            yield tuple(placement)


def _solver_package() -> Any:  # the solver's module (untyped)
    try:
        import mysolver
    except ImportError:
        raise MissingDependency('the template backend needs mysolver: pip install "queenslab[mysolver]"') from None
    return mysolver
