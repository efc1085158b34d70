"""Exporting a model as text by its format's name: DIMACS CNF (``"cnf"``) and CP-SAT's text
proto (``"cpsat"``), each with the one build setting it takes, and the linear description
(:mod:`.linear`) as MiniZinc (``"minizinc"``), XCSP3 (``"xcsp3"``, written by pycsp3), OPB
(``"opb"``) and a 0/1 integer program (``"lp"``, ``"mps"``, written by HiGHS)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .. import validate
from ..errors import QueensError
from ..problem import Problem

__all__ = ["EXPORTS", "ModelText", "export"]

#: Format name -> (module, its export function, the build setting it takes or None, that
#: setting's default).
EXPORTS: dict[str, tuple[str, str, str | None, str | None]] = {
    "cnf": ("cnf", "to_dimacs", "encoding", "pairwise"),
    "cpsat": ("cpsat", "export_text", "formulation", "integer"),
    "minizinc": ("minizinc", "to_minizinc", None, None),
    "xcsp3": ("xcsp3", "to_xcsp3", None, None),
    "opb": ("opb", "to_opb", None, None),
    "lp": ("lp", "to_lp", None, None),
    "mps": ("lp", "to_mps", None, None),
}
#: The optional extra each format needs beyond the base install (the others need none).
EXTRAS = {"xcsp3": "xcsp3", "lp": "mip", "mps": "mip"}
#: The symmetry breaking a model can be exported with.
SYMMETRIES = ("none", "lex-leader")


@dataclass(frozen=True)
class ModelText:
    """A model written as text, with what it was built with.

    ``encoding`` belongs to the CNF model and ``formulation`` to the CP-SAT model (None for
    the others); ``variables`` and ``clauses`` are read from a DIMACS header (None without one).
    """

    model: str
    symmetry: str
    encoding: str | None
    formulation: str | None
    variables: int | None
    clauses: int | None
    text: str


def export(
    problem: Problem,
    model: str,
    *,
    symmetry: str = "none",
    encoding: str | None = None,
    formulation: str | None = None,
    force: bool = False,
) -> ModelText:
    """The model ``model`` of ``problem`` as text.

    Parameters
    ----------
    problem : Problem
    model : {"cnf", "cpsat", "minizinc", "xcsp3", "opb", "lp", "mps"}
    symmetry : {"none", "lex-leader"}
    encoding : str, optional
        The CNF model's cardinality encoding (default ``"pairwise"``); refused for cpsat.
    formulation : str, optional
        The CP-SAT model's formulation (default ``"integer"``); refused for cnf.
    force : bool
        Build a model beyond its practical size.

    Raises
    ------
    QueensError
        For an unknown model, or a setting the model does not take (it would be silently ignored).
    MissingDependency
        For xcsp3 without pycsp3, lp and mps without highspy.

    Examples
    --------
    >>> m = export(Problem(4), "cnf")
    >>> m.variables, m.encoding, m.formulation
    (16, 'pairwise', None)
    >>> export(Problem(4), "minizinc").text.splitlines()[0]
    '% queenslab MiniZinc model: 4-queens'
    """
    validate.choice(model, tuple(EXPORTS), "model")
    validate.choice(symmetry, SYMMETRIES, "symmetry")
    module, function, setting, default = EXPORTS[model]
    given = {"encoding": encoding, "formulation": formulation}
    for other, given_value in given.items():
        if other != setting and given_value is not None:
            takes = f"takes {setting}" if setting else "takes neither"
            raise QueensError(f"{other} is not an option of the {model} model; the {model} model {takes}")
    settings = {}
    value = None
    if setting is not None:
        # an empty setting is refused with the allowed values by the model, never read as the default
        value = default if given[setting] is None else given[setting]
        if setting == "formulation" and given[setting] is None:
            from .cpsat import default_formulation

            value = default_formulation(problem)  # a board with empty rows takes the Boolean one
        settings[setting] = value
    build = getattr(importlib.import_module(f"{__package__}.{module}"), function)
    text = build(problem, **settings, symmetry=None if symmetry == "none" else symmetry, force=force)
    header = next((line.split() for line in text.splitlines() if line.startswith("p cnf")), None)
    return ModelText(
        model=model,
        symmetry=symmetry,
        encoding=value if setting == "encoding" else None,
        formulation=value if setting == "formulation" else None,
        variables=int(header[2]) if header else None,
        clauses=int(header[3]) if header else None,
        text=text,
    )
