"""Faults injected by the tests: a worker that records a wrong result."""

import pytest


def wrong_worker(monkeypatch, bad_task):
    """Make the runner's workers record one wrong result (a faulty machine), with a valid check."""
    from queenslab.distributed import runner

    honest = runner.run_task

    def faulty(problem, method, task, unique, force=False):
        out = honest(problem, method, task, unique, force)
        return (out[0] + 8, *out[1:]) if tuple(task) == bad_task else out

    monkeypatch.setattr(runner, "run_task", faulty)


def wrong_ledger(problem, ledger, method=None):
    """Count ``problem`` into ``ledger`` with a faulty worker that adds 8 to the first task
    holding a solution (split by ``method``, default the runner's); returns the wrong
    result, the split's tasks and the bad task."""
    from queenslab import distributed
    from queenslab.native import engine

    found, _, tasks = engine.split_tasks(problem, method=method)
    bad = next(t for t in tasks if engine.count_task(problem, found, t)[0] > 0)
    with pytest.MonkeyPatch.context() as m:
        wrong_worker(m, bad)
        wrong = distributed.count(problem, ledger=ledger, threads=2, method=found)
    return wrong, tasks, bad
