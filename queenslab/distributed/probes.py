"""Estimates on a Dask cluster: the estimator's seeded tasks of probes, run by the workers.

:func:`estimate` is :func:`queenslab.estimate.estimate` with its probes on a Dask
cluster (``local:K``, a scheduler's address, or a ``distributed.Client`` of the
caller's) instead of this machine's threads. The plan is the same: the strata, the
allocation, the sweeps and their tasks of :data:`~queenslab.estimate.CHUNK` probes,
each seeded from the user's seed by ``(sweep, task)``; only where the tasks run
differs. They go to the workers in batches (:class:`~queenslab.distributed.runner.Batcher`,
in task order), each worker runs the same kernel on the same tables, and the results
are added here in task order, so the same seed gives the same estimate, bit for bit,
on threads and on a cluster.

With a time limit the sweeps are larger than on threads (:data:`TIMED_TASKS` tasks per
worker thread, so that a sweep is not mostly round trips), and the limit counts from
the call: starting or connecting to the cluster uses part of it. A sweep is kept only
if it finished before the deadline, as on threads.

A worker lost mid-run is Dask's to handle: the batches it held are run again on
another worker (a task's result depends on its seed only, so the estimate is
unchanged) and one line on stderr says so; a cluster left with no worker at all for
:data:`~queenslab.distributed.runner.WORKERLESS_SECONDS` is an error. Ctrl-C cancels
the batches sent and reports nothing.

Examples
--------
>>> from queenslab import Problem, distributed
>>> e = distributed.estimate(Problem(20), dask="local:2", samples=10**7, seed=3)  # doctest: +SKIP
>>> from queenslab.estimate import estimate
>>> e.estimate == estimate(Problem(20), samples=10**7, seed=3).estimate  # doctest: +SKIP
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from typing import Any, cast

import numpy as np

from .. import estimate as _estimate
from ..errors import QueensError
from ..estimate import Estimate, Request, run_request
from ..problem import Problem
from .runner import Batcher, DaskSpec, cluster_client, finished, worker_slots
from .tasks import worker_name

__all__ = ["estimate", "probe_batch", "TIMED_TASKS"]

#: Tasks per worker thread in a sweep under a time limit: twice the threads' 8, about 0.2 s
#: of probes per worker thread at n = 20, so that a sweep is a few batches rather than one
#: round trip per task, and the unfinished sweep discarded at the deadline stays short.
TIMED_TASKS = 16

#: A batch of tasks as sent to a worker: ``((sweep, task), prefixes, probes)`` each,
#: ``prefixes`` the rows of the task's strata and ``probes`` the probes of each.
Item = tuple[tuple[int, int], np.ndarray, np.ndarray]


def probe_batch(
    problem: Problem, width: np.ndarray, seed: int, items: list[Item]
) -> tuple[list[np.ndarray], str, list[float]]:
    """Run a batch of the estimator's tasks on a worker: ``(outputs, worker, seconds)``,
    one kernel output and one duration per task, in the batch's order.

    Module-level and importable, so that a Dask worker process can run it; the kernel
    comes from numba's on-disk cache (compiled here before the cluster started) and the
    problem's tables from :func:`~queenslab.compiled.compile_problem`'s cache after a
    batch's first task."""
    outs: list[np.ndarray] = []
    seconds: list[float] = []
    for key, prefixes, probes in items:
        t0 = time.perf_counter()
        runner = _estimate.ProbeRunner(problem, width, prefixes, seed)
        _, _, out = runner.run(key, np.arange(len(prefixes), dtype=np.int64), probes)
        outs.append(out)
        seconds.append(time.perf_counter() - t0)
    return outs, worker_name(), seconds


def _warm_up() -> None:
    """Compile (or load from the on-disk cache) the probe kernel here, before any worker
    starts, so that workers on this machine load it instead of each compiling it."""
    small = Problem(6)
    runner = _estimate.ProbeRunner(small, _estimate.stratum_widths(6, "knuth"), np.zeros((1, 0), np.int64), 0)
    runner.run((0,), np.zeros(1, np.int64), np.full(1, 2, np.int64))


class _Cluster:
    """Sweeps of an estimate on a Dask cluster (the :class:`~queenslab.estimate.Sweeps`
    of :func:`estimate`): each sweep's tasks sent in batches, in order, three per worker
    thread in flight, the results added in task order."""

    threads = None

    def __init__(self, client: Any):
        self.client = client
        self.slots = worker_slots(client)
        self.seen: set[str] = set()

    @property
    def workers(self) -> tuple[str, ...]:
        return tuple(sorted(self.seen))

    def timed_tasks(self) -> int:
        return TIMED_TASKS * self.slots

    def run(
        self,
        runner: Any,
        tasks: list[tuple[np.ndarray, np.ndarray]],
        phase: int,
        acc: Any,
        deadline: float | None,
        tick: Callable[[int], None],
    ) -> bool:
        batcher = Batcher(list(range(len(tasks))), self.slots, shuffle=False)
        groups: list[list[int]] = []
        outs: dict[int, np.ndarray] = {}
        nxt = 0

        def late() -> bool:
            return deadline is not None and time.perf_counter() >= deadline

        def submit(count: int) -> list[Any]:
            sent: list[Any] = []
            while len(sent) < count and not late():
                group = batcher.next()
                if not group:
                    break
                groups.append(group)
                items = [((phase, i), runner.prefixes[tasks[i][0]], tasks[i][1]) for i in group]
                sent.append(
                    self.client.submit(probe_batch, runner.problem, runner.width, runner.seed, items, pure=False)
                )
            return sent

        stream = cast(  # a generator: closing it cancels the batches still out
            Generator[tuple[int, Any], None, None],
            finished(self.client, submit(3 * self.slots), refill=lambda: submit(1), weight=lambda k: len(groups[k])),
        )
        with closing(stream):
            for k, (results, worker, seconds) in stream:
                self.seen.add(worker)
                batcher.learn(seconds)
                for i, out in zip(groups[k], results):
                    outs[i] = out
                    tick(int(tasks[i][1].sum()))
                while nxt in outs:  # in task order, as on threads: the same sums, bit for bit
                    idx, cnt = tasks[nxt]
                    acc.add(idx, cnt, outs.pop(nxt))
                    nxt += 1
                if batcher.left and late():
                    return False  # tasks left unsent at the deadline: this sweep cannot finish
        return nxt == len(tasks)


def estimate(
    problem: Problem,
    client: Any = None,
    *,
    dask: DaskSpec | str | None = None,
    samples: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    threads: int | None = None,
    method: str = "auto",
    confidence: float = 0.95,
    progress: Callable[[int, int], None] | None = None,
) -> Estimate:
    """Estimate the solutions (and search nodes) of ``problem`` on a Dask cluster.

    The arguments and the answer are those of :func:`queenslab.estimate.estimate`, and so
    is the estimate for the same seed and samples, bit for bit: the same tasks run on the
    workers and are added in the same order.

    Parameters
    ----------
    problem : Problem
        Any variant the native engine accepts (n <= 64).
    client : distributed.Client, optional
        A Dask client of the caller's; the caller closes it.
    dask : DaskSpec or str, optional
        ``"local:K"`` or a scheduler's address (as ``queenslab.distributed.count``'s);
        not with ``client``. Neither: the probes run on ``threads`` of this machine.
    samples, time_limit, seed, method, confidence, progress
        As :func:`queenslab.estimate.estimate`. With ``time_limit`` the limit counts
        from the call (starting or connecting to the cluster uses part of it), each
        sweep holds :data:`TIMED_TASKS` tasks per worker thread, and a sweep counts only
        if it finished in time.
    threads : int, optional
        Threads of this machine, without a cluster only.

    Returns
    -------
    Estimate
        ``threads`` is None and ``workers`` lists the workers that returned probes (empty
        when the answer needed none: a small tree counted here, a contradiction).

    Raises
    ------
    QueensError
        For a bad argument, a ``dask`` that is neither ``local:K`` nor a scheduler's
        address, an address that does not answer as a Dask scheduler, ``threads`` with a
        cluster, a cluster without a worker for
        :data:`~queenslab.distributed.runner.WORKERLESS_SECONDS`.
    MissingDependency
        Without the optional extra ``dask``.
    """
    if client is None and dask is None:
        return _estimate.estimate(
            problem,
            samples=samples,
            time_limit=time_limit,
            seed=seed,
            threads=threads,
            method=method,
            confidence=confidence,
            progress=progress,
        )
    request = Request.of(problem, samples, time_limit, seed, method, confidence, progress)
    if client is not None and dask is not None:
        raise QueensError("give a Dask client or a --dask address, not both")
    if client is not None and not callable(getattr(client, "submit", None)):
        raise QueensError(f"client must be a distributed.Client, got {type(client).__name__}")
    if threads is not None:
        raise QueensError(
            f"threads ({threads!r}) are this machine's: on a Dask cluster the workers' threads probe; "
            "give threads or a cluster, not both"
        )
    spec = DaskSpec.parse(dask) if dask is not None else None

    @contextmanager
    def where() -> Iterator[_Cluster]:
        _warm_up()
        if client is not None:
            yield _Cluster(client)
            return
        assert spec is not None
        with cluster_client(spec) as own:
            yield _Cluster(own)

    return run_request(request, None, (), where)
