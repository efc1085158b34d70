"""The solver models: CP-SAT (:mod:`.cpsat`), CNF (:mod:`.cnf`) and CPMpy (:mod:`.cpmpy`),
with lex-leader symmetry breaking described once for all (:mod:`.breaking`).

A model module builds: its ``build`` function returns the model of a
:class:`~queenslab.problem.Problem` with its variables, which you may edit (add
constraints) and export. Counting, enumerating and solving a model -- the one it builds
itself or the one you edited -- is the backends' work, with the backends' declared
options (:mod:`queenslab.backends`)::

    m = cpsat.build(Problem(8))
    m.model.Add(m.q[0] != 0)
    get_backend("cpsat").counts(Problem(8), model=m)   # or counts(Problem(8), model=m)
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..errors import QueensError
from ..problem import Problem

M = TypeVar("M")


def given_model(model: Any, kind: type[M], problem: Problem) -> M:
    """``model`` if it is a ``kind`` built for ``problem`` (an edited model a user passes in)."""
    if not isinstance(model, kind):
        raise QueensError(f"model must come from {kind.__module__}.build, got {type(model).__name__}")
    if model.problem != problem:  # type: ignore[attr-defined]
        raise QueensError("the model was built for a different problem")
    return model
