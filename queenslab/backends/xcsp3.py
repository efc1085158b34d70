"""The XCSP3 solvers as a backend: ACE or Choco count and enumerate the XCSP3 model.

The model is the one ``queenslab export xcsp3`` writes (:mod:`queenslab.models.xcsp3`,
pycsp3); the solvers are the ACE and Choco builds that pycsp3 ships as Java archives. A
count enumerates every solution (ACE with ``-s=all``, Choco with ``-a``), and the orbits
are the solutions of the model with lex-leader constraints. The solutions come from ACE,
which prints each in XML as it finds it (``-xe``). The optional extra ``queenslab[xcsp3]``
and a Java runtime are needed; each solver runs as a child process (:mod:`.child`), so
a stop or a crosscheck's time limit ends it.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..constraints import KINDS
from ..errors import MissingDependency, QueensError
from ..models.xcsp3 import to_xcsp3
from ..problem import Problem
from . import child
from .interface import FORCE, LIMIT, Backend, CountResult, Option

__all__ = ["Xcsp3Backend", "SOLVERS", "solver_jar"]

#: The XCSP3 solvers pycsp3 ships, by name: the folder and the start of the archive's name.
SOLVERS = {"ace": ("ace", "ACE"), "choco": ("choco", "choco-parsers")}
_EXTRA = 'pip install "queenslab[xcsp3]"'
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Xcsp3Backend(Backend):
    name = "xcsp3"
    kinds = KINDS
    hooks = ("compile",)
    boards = True
    summary = "ACE or Choco (Java) on the XCSP3 model written by pycsp3 (extra queenslab[xcsp3])"
    options = (
        Option("xcsp3_solver", "choice", "the XCSP3 solver that counts", default="ace", choices=tuple(SOLVERS)),
        LIMIT,
        FORCE,
    )
    # both enumerate: n = 11 takes 4 to 6 s, n = 12 9 to 12 s (ACE, Choco), each n about 4 times more
    practical_limit = 12
    practical_note = "ACE and Choco enumerate every solution, a few thousand a second; n = 13 takes a minute"
    # solutions and orbits a second on the standard problem of n = 12, measured on this machine
    # with another process holding one of its two cores (a cautious figure)
    enumeration_rate = 840
    rate_n = 12
    start_seconds = 3.0

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        solver = opts.get("xcsp3_solver", "ace")
        limit = opts.get("limit")
        total, complete = _count(problem, None, solver, limit, opts.get("force", False))
        orbits = None
        if unique:
            orbits, done = _count(problem, "lex-leader", solver, limit, opts.get("force", False))
            complete = complete and done
        return CountResult(total, orbits, None, self.name, solver, complete)

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        out = _run("ace", problem, None, limit, opts.get("force", False), each=True)
        yield from _placements(out, problem)


def solver_jar(name: str) -> Path:
    """The Java archive of the XCSP3 solver ``name`` that pycsp3 ships, found without
    importing pycsp3.

    Raises
    ------
    MissingDependency
        Without pycsp3, its archive, or a ``java`` on the PATH.
    """
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency(f"the xcsp3 backend needs pycsp3 and the solvers it ships; {_EXTRA}")
    folder, stem = SOLVERS[name]
    jars = sorted(Path(next(iter(spec.submodule_search_locations)), "solvers", folder).glob(f"{stem}*.jar"))
    if not jars:
        raise MissingDependency(f"pycsp3 is installed but ships no {name} archive; {_EXTRA}")
    if shutil.which("java") is None:
        raise MissingDependency(f"the xcsp3 backend runs {name}, a Java program: install a Java runtime (11 or newer)")
    return jars[-1]


def _run(
    solver: str, problem: Problem, symmetry: str | None, limit: int | None, force: bool, each: bool = False
) -> str:
    """The solver's output on the XCSP3 model of ``problem`` (every solution, or ``limit``)."""
    jar = solver_jar(solver)
    with tempfile.TemporaryDirectory(prefix="queenslab-xcsp3-") as tmp:
        path = Path(tmp, "model.xml")
        path.write_text(to_xcsp3(problem, symmetry=symmetry, force=force))
        if solver == "ace":
            argv = ["java", "-jar", str(jar), str(path), f"-s={'all' if limit is None else limit}"]
            if each:
                argv += ["-xe", "-xc=false"]
        else:
            argv = ["java", "-jar", str(jar), str(path), "-a" if limit is None else f"-limit=[{limit}sols]"]
        returncode, out, err = child.run(argv)
    out = _ANSI.sub("", out)
    if returncode != 0 or not re.search(r"^s ", out, re.M):
        raise QueensError(f"{solver} ended with exit status {returncode} and no answer: {(err or out)[-500:].strip()}")
    return out


def _count(problem: Problem, symmetry: str | None, solver: str, limit: int | None, force: bool) -> tuple[int, bool]:
    """The solutions the solver found, and whether it explored the whole space."""
    out = _run(solver, problem, symmetry, limit, force)
    if re.search(r"^s UNSATISFIABLE", out, re.M):
        return 0, True
    found = re.search(r"^d FOUND SOLUTIONS\s+([\d,]+)", out, re.M)
    if found is None:
        raise QueensError(f"{solver} gave no number of solutions: {out[-500:].strip()}")
    k = int(found.group(1).replace(",", ""))
    if solver == "ace":
        complete = bool(re.search(r"^d COMPLETE EXPLORATION", out, re.M))
    else:  # Choco with -a and no limit ends only when the search is complete
        complete = limit is None or k < limit
    return k, complete


def _placements(out: str, problem: Problem) -> Iterator[tuple[int, ...]]:
    """The placements in ACE's XML solutions (``x[][]`` in row-major order)."""
    m = problem.columns
    seen = set()
    for match in re.finditer(r"<instantiation id='(sol\d+)'[^>]*>.*?<values>([^<]*)</values>", out, re.S):
        if match.group(1) in seen:  # the last solution is printed again at the end
            continue
        seen.add(match.group(1))
        values = [int(v) for v in match.group(2).split()]
        if len(values) != problem.n * m:
            raise QueensError(f"ace printed {len(values)} values for a {problem.n} x {m} board")
        yield tuple(next((c for c in range(m) if values[r * m + c]), -1) for r in range(problem.n))
