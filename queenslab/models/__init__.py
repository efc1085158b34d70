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

from typing import Any, ClassVar, TypeVar

from ..errors import QueensError
from ..problem import Problem
from ..result import CountResult
from .breaking import LEX_LEADER

M = TypeVar("M")


def given_model(model: Any, kind: type[M], problem: Problem) -> M:
    """``model`` if it is a ``kind`` built for ``problem`` (an edited model a user passes in)."""
    if not isinstance(model, kind):
        raise QueensError(f"model must come from {kind.__module__}.build, got {type(model).__name__}")
    if model.problem != problem:  # type: ignore[attr-defined]
        raise QueensError("the model was built for a different problem")
    return model


class CountedByBackend:
    """``count`` and ``counts`` of a model: shorthands for its backend's count.

    ``m.counts(**opts)`` is ``get_backend(m.backend).counts(m.problem, unique=U, model=m,
    **opts)``, with ``U`` true for a model built with lex-leader constraints (it counts
    orbits) -- the same call, the same option checks, nothing counted here.
    """

    #: The registry name of the backend that counts this kind of model.
    backend: ClassVar[str]
    problem: Problem
    symmetry: str | None

    def counts(self, **opts: Any) -> CountResult:
        """This model counted as it is by its backend (see the class docstring); ``opts``
        are the backend's options (``limit``, ``time_limit``, ``assume_symmetric``, ...)."""
        from ..backends.registry import get_backend  # the backends import the models

        return get_backend(self.backend).counts(self.problem, unique=self.symmetry == LEX_LEADER, model=self, **opts)

    def count(self, **opts: Any) -> int:
        """The number :meth:`counts` finds: solutions, or orbits for a lex-leader model.

        Raises
        ------
        Incomplete
            When a limit stopped the count.
        """
        return self.counts(**opts).value(self.symmetry == LEX_LEADER)
