"""The Pumpkin constraint solver as a backend: a lazy-clause-generation CP solver (Delft),
written in Rust, that can log proofs of its conclusions.

Pumpkin reads the problem's linear description (:mod:`queenslab.models.linear`): a 0/1
variable per cell, each sum as Pumpkin's ``Equals`` or ``LessThanOrEquals``, and the
lex-leader constraints as clauses over the cells and the "equal so far" variables, which
the cells determine. It has no enumeration of its own: a count solves, blocks the cells of
the solution found with a clause, and solves again until the model is unsatisfiable (about
200 solutions a second here, so its practical limit is small). It needs the optional extra
``queenslab[pumpkin]`` (the ``pumpkin-solver`` package).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

from .. import interrupt
from ..constraints import KINDS
from ..errors import MissingDependency, QueensError
from ..models.linear import LinearModel, linear_model
from ..problem import Problem
from .interface import FORCE, LIMIT, Backend, CountResult

__all__ = ["PumpkinBackend"]


class PumpkinBackend(Backend):
    name = "pumpkin"
    kinds = KINDS
    hooks = ("compile",)
    boards = True
    summary = (
        "Pumpkin: the proof-logging CP solver, solving again with each solution blocked (extra queenslab[pumpkin])"
    )
    options = (LIMIT, FORCE)
    # measured on the standard problem: n = 8 in 0.3 s, n = 10 (724 + 92 solutions) in 21 s
    practical_limit = 9
    practical_note = "it solves once per solution, a few hundred a second; n = 10 takes 20 s, n = 11 minutes"
    # solutions and orbits a second on the standard problem of n = 10, measured on this machine
    # with another process holding one of its two cores (a cautious figure)
    enumeration_rate = 40
    rate_n = 10
    start_seconds = 0.2

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        limit, force = opts.get("limit"), opts.get("force", False)
        total = sum(1 for _ in _enumerate(linear_model(problem, force=force), limit))
        complete = limit is None or total < limit
        orbits = None
        if unique:
            orbits = sum(1 for _ in _enumerate(linear_model(problem, "lex-leader", force=force), limit))
            complete = complete and (limit is None or orbits < limit)
        return CountResult(total, orbits, None, self.name, "blocking", complete)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        return _enumerate(linear_model(problem, force=opts.get("force", False)), limit)


def _pumpkin() -> tuple[Any, Any]:
    """The packages ``pumpkin_solver`` and its ``constraints``."""
    try:
        pumpkin_solver = importlib.import_module("pumpkin_solver")
        # the extension registers its submodule in sys.modules only, not as an attribute
        constraints = importlib.import_module("pumpkin_solver.constraints")
    except ImportError as e:
        raise MissingDependency(
            f'the pumpkin backend needs pumpkin-solver ({e}); pip install "queenslab[pumpkin]"'
        ) from None
    return pumpkin_solver, constraints


def _enumerate(lm: LinearModel, limit: int | None) -> Iterator[tuple[int, ...]]:
    """At most ``limit`` solutions of ``lm`` (placements, -1 for an empty row)."""
    pk, con = _pumpkin()
    model = pk.Model()
    x = {cell: model.new_boolean_variable() for cell in lm.cells}

    def post(constraint_type: Any, *args: Any) -> None:
        model.add_constraint(constraint_type(*args, model.new_constraint_tag()))

    for s in lm.sums:
        terms = [x[cell].as_integer() for cell in s.cells]
        if s.at_least == s.at_most:
            post(con.Equals, terms, s.at_most)
            continue
        if s.at_most < len(terms):
            post(con.LessThanOrEquals, terms, s.at_most)
        if s.at_least > 0:
            post(con.LessThanOrEquals, [t.scaled(-1) for t in terms], -s.at_least)
    aux: dict[tuple, Any] = {}

    def literal(positive: bool, key: tuple) -> Any:
        b = x[key[1:]] if key[0] == "x" else aux.setdefault(key, model.new_boolean_variable())
        return b if positive else b.negate()

    for clause in lm.lex_clauses:
        post(con.Clause, [literal(positive, key) for positive, key in clause])
    n, m = lm.problem.n, lm.problem.columns
    found = 0
    while limit is None or found < limit:
        interrupt.check()
        match model.satisfy():
            case pk.SatisfactionResult.Satisfiable(solution):
                on = {cell for cell in lm.cells if solution.bool_value(x[cell])}
                found += 1
                yield tuple(next((c for c in range(m) if (r, c) in on), -1) for r in range(n))
                post(con.Clause, [x[cell].negate() if cell in on else x[cell] for cell in lm.cells])
            case pk.SatisfactionResult.Unsatisfiable():
                return
            case other:
                raise QueensError(f"pumpkin gave neither a solution nor a proof of none: {other!r}")
