"""The pumpkin backend: Pumpkin solving again with each solution blocked, against the
brute-force oracle."""

from __future__ import annotations

import importlib.util
import sys

import naive
import pytest

from queenslab import Problem, Region, backends
from queenslab.errors import MissingDependency

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pumpkin_solver") is None, reason="needs pumpkin-solver (queenslab[pumpkin])"
)


@pytest.mark.parametrize(
    "problem",
    [
        Problem(1),
        Problem(7),
        Problem(7, toroidal=True),
        Problem(6, blocked=((0, 1),), leapers=((1, 3),)),
        Problem(6, fixed=((0, 1),)),
        Problem(5, columns=6, queens=4, regions=(Region([(0, 0), (1, 1)], at_least=1),)),
        Problem(5, regions=(Region([(0, 0), (1, 1), (2, 2), (3, 3)], at_least=2, at_most=3),)),
    ],
    ids=lambda p: p.describe(),
)
def test_pumpkin_counts_and_enumerates_as_the_oracle(problem):
    r = backends.counts(problem, unique=True, backend="pumpkin")
    assert (r.count, r.unique) == naive.counts_and_orbits(problem) and r.complete
    want = sorted(naive.all_solutions(problem) if problem.is_plain_board else naive.board_solutions(problem))
    assert sorted(backends.solutions(problem, backend="pumpkin")) == want


def test_a_limit_gives_a_lower_bound():
    r = backends.counts(Problem(8), backend="pumpkin", limit=7)
    assert r.count == 7 and not r.complete


def test_a_missing_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pumpkin_solver", None)
    with pytest.raises(MissingDependency, match=r'pip install "queenslab\[pumpkin\]"'):
        backends.counts(Problem(5), backend="pumpkin")
