"""The solver models: CP-SAT (:mod:`.cpsat`) and CNF (:mod:`.cnf`), with lex-leader
symmetry breaking described once for both (:mod:`.breaking`)."""

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
