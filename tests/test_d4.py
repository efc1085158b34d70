"""The d4 backend: exact counts by knowledge compilation, against the brute-force oracle,
and the refusals that keep its unprojected counting exact."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time

import naive
import pytest

from queenslab import Problem, Region, backends, interrupt
from queenslab.errors import MissingDependency, UnknownOption, UnsupportedProblem
from queenslab.models import cnf

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("aspmc") is None or not sys.platform.startswith("linux"),
    reason="the d4 binary comes with aspmc (queenslab[d4]), built for Linux x86-64",
)

PROBLEMS = [
    Problem(7),
    Problem(8),
    Problem(7, toroidal=True),
    Problem(6, blocked=((0, 1),)),
    Problem(6, fixed=((0, 1),)),
    Problem(6, leapers=((1, 3),)),
    Problem(5, regions=(Region([(0, 0), (1, 1), (2, 2)], at_least=1),)),
    Problem(5, columns=7, queens=5),  # every row full, columns at most one
    Problem(6, columns=8, queens=6),  # d4's projected mode gave 122 orbits here, and 291 solutions with seqcounter
]


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.describe())
def test_d4_counts_as_the_oracle(problem):
    r = backends.counts(problem, unique=True, backend="d4")
    assert (r.count, r.unique) == naive.counts_and_orbits(problem)
    assert r.complete and r.backend == "d4"


def test_an_edited_model_is_counted_as_it_is():
    p = Problem(8)
    m = cnf.build(p)
    m.cnf.append([m.var(0, c) for c in range(1, 8, 2)])  # the first queen in an even column (1-based)
    want = sum(1 for s in naive.all_solutions(p) if s[0] % 2 == 1)
    assert backends.count(p, model=m, backend="d4") == want


def test_models_with_undetermined_auxiliary_variables_are_refused():
    """d4 counts every variable: a cardinality encoding's auxiliary variables would be
    counted as solutions."""
    with pytest.raises(UnsupportedProblem, match="auxiliary variables of a cardinality encoding.*ganak or sat"):
        backends.counts(Problem(5, columns=8, queens=4), backend="d4")  # k queens below rows and columns
    with pytest.raises(UnsupportedProblem, match="auxiliary variables"):
        backends.counts(Problem(6, regions=(Region([(0, 0), (1, 1), (2, 2), (3, 3)], at_most=2),)), backend="d4")
    with pytest.raises(UnsupportedProblem, match=r"auxiliary variables.*\(totalizer\)"):
        backends.count(Problem(6), model=cnf.build(Problem(6), encoding="totalizer"), backend="d4")
    with pytest.raises(UnknownOption, match="encoding"):
        backends.counts(Problem(6), backend="d4", encoding="totalizer")


def test_solutions_come_from_the_same_model():
    p = Problem(6, blocked=((0, 1),))
    assert sorted(backends.solutions(p, backend="d4")) == sorted(naive.all_solutions(p))


def test_a_missing_aspmc_names_the_extra(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "aspmc" else real(name, *a))
    with pytest.raises(MissingDependency, match=r'pip install "queenslab\[d4\]"'):
        backends.counts(Problem(6), backend="d4")


def _d4_processes() -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"d4_static" in fh.read().split(b"\0")[0]:
                    found.append(int(pid))
        except (FileNotFoundError, PermissionError, ProcessLookupError, ValueError):
            continue
    return found


def test_a_stop_kills_the_d4_process():
    before = set(_d4_processes())
    box: dict = {}

    def work():
        try:
            box["value"] = backends.count(Problem(15), backend="d4", force=True)
        except KeyboardInterrupt as e:
            box["error"] = e

    t = threading.Thread(target=work)
    t.start()
    deadline = time.monotonic() + 30
    while not set(_d4_processes()) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert set(_d4_processes()) - before, "d4 never started"
    interrupt.request()
    t.join(10)
    interrupt.clear()
    assert not t.is_alive() and "value" not in box and isinstance(box["error"], KeyboardInterrupt)
    assert not set(_d4_processes()) - before
