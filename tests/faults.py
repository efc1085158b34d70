"""Faults injected by the tests: a worker that records a wrong result."""


def wrong_worker(monkeypatch, bad_task):
    """Make the runner's workers record one wrong result (a faulty machine), with a valid check."""
    from queenslab.distributed import runner

    honest = runner.run_task

    def faulty(problem, method, task, unique, force=False):
        out = honest(problem, method, task, unique, force)
        return (out[0] + 8, *out[1:]) if tuple(task) == bad_task else out

    monkeypatch.setattr(runner, "run_task", faulty)
