"""The XCSP3 model of a Problem, written by pycsp3 from the linear description (:mod:`.linear`).

``x[r][c]`` (0-based, as XCSP3 arrays are) is a 0/1 cell variable; every sum of the
linear description is a ``sum`` constraint and lex-leader symmetry breaking is the
``lex`` global (``Y <=lex X``, pycsp3's ``LexIncreasing``), so the XCSP3 solvers (ACE,
Choco, and every entrant of the XCSP competitions) read the problem with its symmetry
breaking.

pycsp3 is a modelling library meant for scripts: it reads the command line when it is
imported, compiles the model it holds when the process ends, and changes Python's
built-in types for the whole process. So it never runs in the caller's process: the
linear model goes as JSON to a child process (:mod:`.xcsp3_writer`), which prints the
text. It needs the optional extra ``queenslab[xcsp3]``.

Examples
--------
>>> text = to_xcsp3(Problem(4))
>>> text.splitlines()[2]
'<instance format="XCSP3" type="CSP">'
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from ..errors import MissingDependency, QueensError
from ..problem import Problem
from .linear import LinearModel, linear_model

__all__ = ["to_xcsp3", "pycsp3_installed"]

_EXTRA = 'pip install "queenslab[xcsp3]"'


def pycsp3_installed() -> bool:
    """Whether pycsp3 can be imported (found without importing it)."""
    try:
        return importlib.util.find_spec("pycsp3") is not None
    except ValueError:  # sys.modules holds None for it: it is taken as missing
        return False


def to_xcsp3(problem: Problem, *, symmetry: str | None = None, force: bool = False) -> str:
    """XCSP3 text (XML) of ``problem``'s linear model, written by pycsp3 in a child process.

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
    if not pycsp3_installed():
        raise MissingDependency(f"the XCSP3 export needs pycsp3; {_EXTRA}")
    done = subprocess.run(
        [sys.executable, "-m", "queenslab.models.xcsp3_writer"],
        input=json.dumps(_message(m)),
        capture_output=True,
        text=True,
    )
    if done.returncode == 3:
        raise MissingDependency(f"the XCSP3 export needs pycsp3 ({done.stderr.strip()}); {_EXTRA}")
    if done.returncode != 0 or not done.stdout.startswith("<instance"):
        raise QueensError(f"pycsp3 wrote no XCSP3 (exit status {done.returncode}): {done.stderr.strip()[-500:]}")
    header = (
        f"<!-- queenslab XCSP3 model: {problem.describe()}; problem {problem.fingerprint()} -->\n"
        "<!-- x[r][c] = 1: a queen stands on row r, column c (0-based) -->\n"
    )
    if m.lex:
        header += f"<!-- lex-leader constraints keep one solution per orbit under the group {{{m.group_names()}}} -->\n"
    return header + done.stdout


def _message(m: LinearModel) -> dict:
    """The linear model as the writer process reads it."""
    return {
        "n": m.problem.n,
        "columns": m.problem.columns,
        "sums": [[list(map(list, s.cells)), s.at_least, s.at_most] for s in m.sums],
        "lex": [[list(map(list, pair.left)), list(map(list, pair.right))] for pair in m.lex],
    }
