"""The XCSP3 model of a Problem, written by pycsp3 from the linear description (:mod:`.linear`).

``x[r][c]`` (0-based, as XCSP3 arrays are) is a 0/1 cell variable; every sum of the
linear description is a ``sum`` constraint and lex-leader symmetry breaking is the
``lex`` global (``Y <=lex X``, pycsp3's ``LexIncreasing``), so the XCSP3 solvers (ACE,
Choco, and every entrant of the XCSP competitions) read the problem with its symmetry
breaking.

pycsp3 is a modelling library meant for scripts: it reads the command line when it is
imported and compiles the model it holds when the process ends. :func:`to_xcsp3` imports
it as a console would (no command line read), builds the model in a fresh state and marks
it compiled whatever happens, so nothing is written behind the caller's back. It needs
the optional extra ``queenslab[xcsp3]``.

Examples
--------
>>> text = to_xcsp3(Problem(4))
>>> text.splitlines()[2]
'<instance format="XCSP3" type="CSP">'
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import threading
from typing import Any

from ..errors import MissingDependency
from ..problem import Problem
from .linear import LinearModel, linear_model

__all__ = ["to_xcsp3", "pycsp3_module"]

#: pycsp3 holds one model per process: one build at a time.
_LOCK = threading.Lock()


def pycsp3_module() -> Any:  # the package pycsp3
    """pycsp3, imported as in a console (it then reads no command line), its model marked
    compiled (it then writes nothing when the process ends)."""
    if sys.modules.get("pycsp3") is not None:
        return sys.modules["pycsp3"]
    argv = sys.argv
    sys.argv = [""]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import pycsp3
    except ImportError as e:
        raise MissingDependency(f'the XCSP3 export needs pycsp3 ({e}); pip install "queenslab[xcsp3]"') from None
    finally:
        sys.argv = argv
    from pycsp3.compiler import Compilation

    Compilation.done = True  # its exit hook compiles a model not marked compiled
    return pycsp3


def to_xcsp3(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> str:
    """XCSP3 text (XML) of ``problem``'s linear model, written by pycsp3.

    Parameters
    ----------
    problem : Problem
    symmetry : {None, "lex-leader"}
    force : bool, default False
        Build a model beyond :data:`queenslab.models.linear.BUILD` all the same.

    Raises
    ------
    MissingDependency
        Without pycsp3.
    """
    m = linear_model(problem, symmetry, force=force)
    p = pycsp3_module()
    from pycsp3.compiler import Compilation

    with _LOCK, tempfile.TemporaryDirectory(prefix="queenslab-xcsp3-") as tmp:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                p.clear()
                _post(p, m)
                path, _ = p.compile(os.path.join(tmp, "model"), verbose=-1)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        finally:
            p.clear()
            Compilation.done = True  # never compiled again when the process ends
    header = (
        f"<!-- queenslab XCSP3 model: {problem.describe()}; problem {problem.fingerprint()} -->\n"
        "<!-- x[r][c] = 1: a queen stands on row r, column c (0-based) -->\n"
    )
    if m.lex:
        header += f"<!-- lex-leader constraints keep one solution per orbit under the group {{{m.group_names()}}} -->\n"
    return header + text


def _post(p: Any, m: LinearModel) -> None:
    """The constraints of ``m`` in the pycsp3 model."""
    n, cols = m.problem.n, m.problem.columns
    x = p.VarArray(size=[n, cols], dom={0, 1}, id="x")

    def terms(cells):
        return [x[r][c] for r, c in cells]

    for s in m.sums:
        total = p.Sum(terms(s.cells))
        if s.at_least == s.at_most:
            p.satisfy(total == s.at_most)
        elif s.at_least == 0:
            p.satisfy(total <= s.at_most)
        else:
            p.satisfy(total in range(s.at_least, s.at_most + 1))
    for pair in m.lex:
        p.satisfy(p.LexIncreasing(terms(pair.right), terms(pair.left)))  # Y <=lex X
