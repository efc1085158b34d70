"""The d4 knowledge compiler as a backend: exact (projected) model counting of the CNF model.

d4 (Lagniez and Marquis, "An Improved Decision-DNNF Compiler") compiles a CNF into a
decision-DNNF and counts its models; with ``-fpv`` it counts the models projected on a set
of variables. This backend writes the CNF model that :mod:`queenslab.models.cnf` builds
(or a model you built and edited, ``model=m``) as DIMACS and counts it with the static d4
binary that the ``aspmc`` package ships (the optional extra ``queenslab[d4]``; Linux on
x86-64), projected on the cell variables whenever the formula has auxiliary variables
(a cardinality encoding's, the lex-leader constraints'). It is a second exact model
counter beside Ganak, of another design: a knowledge compiler, not a search with
component caching.

d4 runs as a child process (:mod:`.child`) that dies with its parent and is killed on Ctrl-C.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..constraints import KINDS
from ..errors import MissingDependency, QueensError, UnsupportedProblem
from ..models.cnf import CnfModel, to_dimacs
from ..problem import Problem
from . import child
from .interface import ASSUME_SYMMETRIC, FORCE, Backend, CountResult
from .sat import MODEL, TOTAL_BY, cnf_solutions, model_counts

__all__ = ["D4Backend", "d4_binary", "count_dimacs", "check_determined"]

#: Where the aspmc package keeps its d4 build, below the package directory.
_IN_ASPMC = Path("external", "d4", "d4_static")
_EXTRA = 'pip install "queenslab[d4]"'


class D4Backend(Backend):
    name = "d4"
    kinds = KINDS
    hooks = ("compile", "encode_cnf")
    boards = True
    summary = "d4: exact projected model counting by knowledge compilation of the CNF model (extra queenslab[d4])"
    options = (FORCE, TOTAL_BY, MODEL, ASSUME_SYMMETRIC)
    # measured on the standard problem (pairwise, one core): n = 12 3 s, n = 13 19 s, n = 14 2 min 16 s
    practical_limit = 13
    practical_note = "knowledge compilation grows steeply with n; n = 13 takes 20 s, n = 14 two minutes"

    def _counts(self, problem: Problem, unique: bool, **opts: Any) -> CountResult:
        binary = d4_binary()
        return model_counts(self.name, problem, unique, opts, lambda m: (_d4_count(binary, m), True))

    def _solutions(self, problem: Problem, limit: int | None, **opts: Any) -> Iterator[tuple[int, ...]]:
        # d4 counts; the solutions of the same CNF model come from the SAT solver.
        return cnf_solutions(problem, limit, opts)


def d4_binary() -> Path:
    """The d4 binary shipped by aspmc, found without importing aspmc (which loads clingo).

    Raises
    ------
    MissingDependency
        Without aspmc, or where its binary cannot run (it is built for Linux on x86-64).
    """
    spec = importlib.util.find_spec("aspmc")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency(f"the d4 backend needs the d4 binary of the aspmc package; {_EXTRA}")
    binary = Path(next(iter(spec.submodule_search_locations))) / _IN_ASPMC
    if not binary.is_file():
        raise MissingDependency(f"aspmc is installed but holds no d4 binary at {binary}; {_EXTRA}")
    if not sys.platform.startswith("linux") or os.uname().machine not in ("x86_64", "AMD64"):
        raise MissingDependency(f"aspmc's d4 binary runs on Linux x86-64 only, not {sys.platform} {os.uname().machine}")
    if not os.access(binary, os.X_OK):
        binary.chmod(binary.stat().st_mode | 0o111)  # pip keeps the mode, some installers do not
    return binary


def _d4_count(binary: Path, m: CnfModel) -> int:
    """The number of models of ``m`` (one per solution: refused otherwise), by d4."""
    check_determined(m)
    return count_dimacs(binary, to_dimacs(m.problem, model=m))


def count_dimacs(binary: Path, text: str) -> int:
    """d4's model count of the DIMACS ``text`` (written to a temporary file), run as a
    child process; a run without a count raises a :class:`QueensError` with its output's tail."""
    with tempfile.TemporaryDirectory(prefix="queenslab-d4-") as tmp:
        cnf = Path(tmp, "model.cnf")
        cnf.write_text(text)
        returncode, out, err = child.run([str(binary), str(cnf), "-mc"])
    answer = re.search(r"^s (\d+)\s*$", out, re.M)
    if returncode != 0 or answer is None:
        tail = (err or out)[-500:].strip()
        raise QueensError(f"d4 ended with exit status {returncode} and no count: {tail}")
    return int(answer.group(1))


def check_determined(m: CnfModel) -> None:
    """Refuse a model with auxiliary variables that the cell variables do not determine
    (it has more models than solutions, and d4's projection cannot be trusted)."""
    free = m.undetermined
    if free > 0:
        raise UnsupportedProblem(
            f"{m.problem.describe()}: its CNF model has {free} auxiliary variables of a cardinality encoding "
            f"({m.encoding.value}), which the cells do not determine, and d4 counts without projection (its "
            "projected mode miscounts): the d4 backend counts pairwise models without bounds above one queen or "
            "below the rows; count this one with ganak or sat"
        )
