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


def model_option(problem: Problem, opts: dict[str, Any], kind: type[M], setting: str | None = None) -> M | None:
    """The ``model`` option of a backend's request, checked, or None when none was given.

    Parameters
    ----------
    problem : Problem
        The problem the request is about: the model must have been built for it.
    opts : dict
        The request's options (``model``, ``assume_symmetric``, and ``setting``).
    kind : type
        The model class this backend takes.
    setting : str, optional
        The build setting the model fixes (``"formulation"``, ``"encoding"``): an option of
        that name that differs from the model's is refused (a model is used as it was built).

    Raises
    ------
    QueensError
        For a model of another kind or problem, a setting that contradicts it, or
        ``assume_symmetric`` without a model.
    """
    if opts.get("model") is None:
        if opts.get("assume_symmetric"):
            raise QueensError(
                "assume_symmetric is about the constraints added to a given model (model=...); "
                "without one the backend builds its own, unedited models"
            )
        return None
    m = given_model(opts["model"], kind, problem)
    if setting is not None:
        asked, built = opts.get(setting), getattr(m, setting).value
        if asked is not None and asked != built:
            raise QueensError(
                f"{setting} {asked!r} does not match the given model's ({built}): a model is used as it was built; "
                f"leave {setting} out"
            )
    return m
