"""The 0/1 integer program of a Problem, written by HiGHS as LP (CPLEX LP format) or MPS,
from the linear description (:mod:`.linear`).

The columns ``x_R_C`` (1-based row and column) are binary cell variables, then the
binary auxiliary variables ``lex_G_K`` of the lex-leader clauses; every sum is a row
with its bounds, every clause the row "at least one literal true" (``1 - x`` for a
negated literal). There is no objective: any feasible point is a solution, and with
lex-leader constraints there is one feasible point per orbit (the auxiliary variables are
determined by the cell variables). Written by highspy (the optional extra ``queenslab[mip]``), the format is the one
HiGHS, CPLEX, Gurobi, SCIP and CBC read.

Examples
--------
>>> text = to_lp(Problem(4), "lp")
>>> [line for line in text.splitlines() if line.startswith(" row_1")]
[' row_1: +1 x_1_1 +1 x_1_2 +1 x_1_3 +1 x_1_4 = +1']
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any

from .. import validate
from ..errors import MissingDependency
from ..problem import Problem
from ..quiet import quiet_stdout
from .linear import LinearModel, linear_model

__all__ = ["FORMATS", "to_lp", "to_mps", "highs"]

#: The file formats HiGHS writes a model in, by their file extension.
FORMATS = ("lp", "mps")


def highs() -> Any:
    """A silent ``highspy.Highs`` instance."""
    try:
        import highspy
    except ImportError as e:
        raise MissingDependency(f'HiGHS is needed here ({e}); pip install "queenslab[mip]"') from None
    with quiet_stdout():  # HiGHS writes its banner to the process's stdout when it is made
        h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


def to_lp(problem: Problem, fmt: str = "lp", *, symmetry: str | None = None, force: bool = False) -> str:
    """LP or MPS text of ``problem``'s 0/1 integer program, written by HiGHS.

    Parameters
    ----------
    problem : Problem
    fmt : {"lp", "mps"}
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model beyond :data:`queenslab.models.linear.BUILD` all the same.
    """
    validate.choice(fmt, FORMATS, "format")
    m = linear_model(problem, symmetry, force=force)
    h = highs()
    post(h, m)
    with tempfile.TemporaryDirectory(prefix="queenslab-lp-") as tmp:
        path = os.path.join(tmp, f"model.{fmt}")
        h.writeModel(path)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    marker = "\\" if fmt == "lp" else "*"
    header = [
        f"{marker} queenslab 0/1 integer program: {problem.describe()}",
        f"{marker} problem {problem.fingerprint()}",
        f"{marker} x_R_C = 1: a queen stands on row R, column C (1-based)",
    ]
    if m.lex:
        header += [
            f"{marker} lex-leader constraints keep one solution per orbit under the group {{{m.group_names()}}}",
            f"{marker} lex_G_K (agreement so far) are determined by the x_R_C: one feasible point per solution",
        ]
    return "\n".join(header) + "\n" + text


def post(h: Any, m: LinearModel) -> dict[tuple, int]:
    """Add ``m``'s columns and rows to the HiGHS model ``h``; returns each key's column."""
    import numpy as np

    inf = float("inf")
    keys = [("x", *cell) for cell in m.cells] + list(m.auxiliaries)
    column = {key: i for i, key in enumerate(keys)}
    k = len(keys)
    h.addVars(k, np.zeros(k), np.ones(k))
    h.changeColsIntegrality(k, np.arange(k, dtype=np.int32), np.ones(k, dtype=np.uint8))
    for key, i in column.items():
        h.passColName(i, f"x_{key[1] + 1}_{key[2] + 1}" if key[0] == "x" else f"lex_{key[1] + 1}_{key[2] + 1}")
    names: set[str] = set()

    def name_row(what: str) -> None:
        name = re.sub(r"[^A-Za-z0-9]+", "_", what).strip("_")
        if not name[:1].isalpha():  # the LP format's names start with a letter
            name = "r_" + name
        if name in names:  # e.g. two broken diagonals of a torus between the same cells
            name += f"_{h.getNumRow()}"
        names.add(name)
        h.passRowName(h.getNumRow() - 1, name)

    for s in m.sums:
        idx = np.array([column[("x", *cell)] for cell in s.cells], dtype=np.int32)
        # a sum of binaries is never negative: no lower row for "at most"
        h.addRow(float(s.at_least) if s.at_least else -inf, float(s.at_most), len(idx), idx, np.ones(len(idx)))
        name_row(s.what)
    for i, clause in enumerate(m.lex_clauses):
        idx = np.array([column[key] for _, key in clause], dtype=np.int32)
        coef = np.array([1.0 if positive else -1.0 for positive, _ in clause])
        negated = sum(not positive for positive, _ in clause)
        h.addRow(float(1 - negated), inf, len(idx), idx, coef)
        name_row(f"lex {i + 1}")
    return column


def to_mps(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> str:
    """MPS text of ``problem``'s 0/1 integer program (:func:`to_lp` with ``fmt="mps"``)."""
    return to_lp(problem, "mps", symmetry=symmetry, force=force)
