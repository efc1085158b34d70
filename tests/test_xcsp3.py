"""The xcsp3 backend: ACE and Choco on the XCSP3 model, against the brute-force oracle."""

from __future__ import annotations

import importlib.util
import shutil

import naive
import pytest

from queenslab import Problem, Region, backends
from queenslab.errors import MissingDependency

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pycsp3") is None or shutil.which("java") is None,
    reason="the xcsp3 backend needs pycsp3 (queenslab[xcsp3]) and a Java runtime",
)


@pytest.mark.parametrize(
    "problem",
    [
        Problem(7, toroidal=True),
        Problem(6, blocked=((0, 1),), leapers=((1, 3),)),
        Problem(5, columns=6, queens=4, regions=(Region([(0, 0), (1, 1)], at_least=1),)),
    ],
    ids=lambda p: p.describe(),
)
def test_ace_counts_as_the_oracle(problem):
    r = backends.counts(problem, unique=True, backend="xcsp3")
    assert (r.count, r.unique) == naive.counts_and_orbits(problem) and r.complete and r.method == "ace"


def test_choco_counts_as_the_oracle():
    problem = Problem(7, fixed=((0, 1),))
    r = backends.counts(problem, unique=True, backend="xcsp3", xcsp3_solver="choco")
    assert (r.count, r.unique) == naive.counts_and_orbits(problem) and r.complete and r.method == "choco"


def test_solutions_and_a_limit():
    problem = Problem(4, columns=5, queens=3)
    assert sorted(backends.solutions(problem, backend="xcsp3")) == sorted(naive.board_solutions(problem))
    r = backends.counts(Problem(8), backend="xcsp3", limit=5)
    assert r.count == 5 and not r.complete


def test_a_missing_java_says_so(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MissingDependency, match="Java runtime"):
        backends.counts(Problem(5), backend="xcsp3")
