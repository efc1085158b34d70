"""The native split recounted task by task by a solver (``crosscheck --split``): each
task's count against the brute-force oracle, Burnside's total, a disagreement named by
its task, the ledger, and the command line."""

from __future__ import annotations

import importlib.util
import json

import naive
import pytest
from clirun import run_cli

from queenslab import Problem
from queenslab.backends import recount as recount_module
from queenslab.backends.recount import recount
from queenslab.distributed.ledger import InvalidLedger


def _solutions_with_prefix(solutions, prefix):
    return sum(1 for s in solutions if s[: len(prefix)] == tuple(prefix))


def test_each_tasks_lex_leaders_are_the_orbits_whose_least_solution_begins_with_it():
    r = recount(Problem(8), "sat", threads=1)
    assert r.counted == "orbits" and r.agrees and r.verdict == "agree"
    for t in r.tasks:
        assert t.solver == sum(naive.orbits_by_least_prefix(8, t.task).values()), t.task
    assert (r.total, r.unique) == naive.counts_and_orbits(Problem(8))
    assert (r.native_total, r.native_unique) == (r.total, r.unique)
    assert r.derivation == "total = 8 x 12 orbits - 4 (rotate-180) = 92 (Burnside's lemma)"


@pytest.mark.parametrize(
    "problem",
    [Problem(7, toroidal=True), Problem(7, blocked=((0, 0),)), Problem(8, leapers=((1, 4),))],
    ids=lambda p: p.describe(),
)
def test_variants_in_processes_agree_with_the_oracle(problem):
    r = recount(problem, "sat", threads=2)
    assert r.agrees and r.workers == 2
    assert (r.total, r.unique) == naive.counts_and_orbits(problem)


def test_totals_counts_each_tasks_solutions():
    p = Problem(7)
    r = recount(p, "sat", threads=1, totals=True)
    assert r.counted == "solutions" and r.derivation is None and r.unique is None
    solutions = naive.all_solutions(p)
    for t in r.tasks:
        assert t.solver == _solutions_with_prefix(solutions, t.task)
    assert r.total == len(solutions)


def test_a_problem_without_symmetries_counts_solutions_per_task():
    p = Problem(7, fixed=((0, 1),))
    assert len(p.symmetries()) == 1
    r = recount(p, "sat", threads=1)
    assert r.counted == "solutions" and (r.total, r.unique) == naive.counts_and_orbits(p)


@pytest.mark.skipif(importlib.util.find_spec("aspmc") is None, reason="d4 comes with aspmc (queenslab[d4])")
def test_d4_recounts_too():
    r = recount(Problem(7), "d4", threads=2)
    assert r.agrees and r.backend == "d4" and (r.total, r.unique) == naive.counts_and_orbits(Problem(7))


def test_a_disagreement_names_its_task(monkeypatch, capsys):
    real = recount_module.count_prefix
    wrong = (1, 3)

    def off_by_one(problem, backend, counted, task):
        return real(problem, backend, counted, task) + (task == wrong)

    monkeypatch.setattr(recount_module, "count_prefix", off_by_one)
    r = recount(Problem(6), "sat", threads=1, depth=2)
    assert r.verdict == "disagree" and [t.task for t in r.disagreements] == [wrong]
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 6, "--split", "--threads", 1, "--depth", 2)
    assert code == 1 and "first rows' columns 2 4" in out and "DISAGREE" in out


def test_a_ledger_keeps_the_solver_counts(tmp_path):
    path = tmp_path / "recount.sqlite"
    first = recount(Problem(7), "sat", threads=1, ledger=path)
    again = recount(Problem(7), "sat", threads=1, ledger=path)
    assert first.from_ledger == 0 and again.from_ledger == len(again.tasks)
    assert [t.solver for t in again.tasks] == [t.solver for t in first.tasks] and again.agrees


def test_a_ledger_of_another_split_is_refused(tmp_path):
    from queenslab import distributed

    path = tmp_path / "count.sqlite"
    distributed.count(Problem(7), ledger=str(path))
    with pytest.raises(InvalidLedger):
        recount(Problem(7), "sat", threads=1, ledger=path)


def test_the_command_line(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 8, "--split", "--threads", 1, "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "agree" and data["task_counts"] == "orbits"
    assert (data["count"], data["unique"]) == naive.counts_and_orbits(Problem(8))
    assert data["tasks_agreeing"] == data["tasks"] and data["disagreements"] == []
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", 8, "--split", "--threads", 1)
    assert code == 0 and "agree, subtotal by subtotal" in out and "Burnside's lemma" in out
    code, _, err = run_cli(capsys, monkeypatch, "crosscheck", 8, "--split", "--backends", "sat")
    assert code == 2 and "--split recounts with one solver" in err
    code, _, err = run_cli(capsys, monkeypatch, "crosscheck", 8, "--threads", 2)
    assert code == 2 and "--threads go(es) with --split only" in err


def test_a_problem_without_solutions_has_no_task():
    r = recount(Problem(7, leapers=((1, 3),)), "sat", threads=2)
    assert naive.counts_and_orbits(Problem(7, leapers=((1, 3),))) == (0, 0)
    assert r.tasks == () and r.agrees and (r.total, r.unique) == (0, 0)
