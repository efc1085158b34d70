"""What every native count shares: the practical limit of an exact count and the thread
pool its tasks run on.

The engine's searches (:mod:`queenslab.native.engine`) and the half-board join
(:mod:`queenslab.native.join`) both split a count into tasks that run ``nogil`` kernels on
Python threads, and both refuse a count beyond :data:`COUNT` unless ``force``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .. import interrupt, limits

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

__all__ = ["COUNT", "Progress", "check_count", "run_tasks", "threads_pool"]

#: The practical limit of an exact count (every count that may need the whole tree): the
#: half-board join counts n = 18 in seconds and n = 19 in under a minute on 2 cores, and
#: each further unit of n multiplies the time by about eight (the cost model predicts a
#: given count: ``queenslab count N --estimate-cost``).
COUNT = limits.declare(
    "counting every solution",
    18,
    "n",
    "n = 19 takes under a minute on 2 cores and each further n about eight times longer",
)

#: ``progress(done, total)``, called after each finished task.
Progress = Callable[[int, int], None]


def check_count(n: int, force: bool, cost: str = "") -> None:
    """Refuse an exact count of size ``n`` beyond :data:`COUNT` unless ``force``.

    ``cost`` is the count's predicted cost for the message; the callers above the engine
    that can predict it (the native backend, the Dask runner) ask
    :func:`queenslab.cost.refusal_cost` and check first, so that the kernels below never
    call up to the cost model.
    """
    limits.check(COUNT, n, force, cost=cost)


def run_tasks(tasks: list, fn: Callable[[Any], Any], threads: int, progress: Progress | None) -> list:
    """Run ``fn`` on every task, on ``threads`` threads; results in task order.

    The tasks run off the main thread even on one thread, so that Ctrl-C there stops the
    kernels (through :data:`queenslab.interrupt.FLAG`) and the queued tasks are dropped.
    """
    results: list = [None] * len(tasks)
    total = len(tasks)
    if threads == 1 or total <= 1:

        def serial() -> list:
            for i, t in enumerate(tasks):
                results[i] = fn(t)
                if progress:
                    progress(i + 1, total)
            return results

        return interrupt.run(serial)  # off the main thread, so that Ctrl-C stops it
    from concurrent.futures import as_completed

    with threads_pool(threads) as pool:
        futures = {pool.submit(fn, t): i for i, t in enumerate(tasks)}
        for done, fut in enumerate(as_completed(futures), start=1):
            results[futures[fut]] = fut.result()
            if progress:
                progress(done, total)
    return results


@contextmanager
def threads_pool(threads: int, name: str = "queenslab") -> Iterator[ThreadPoolExecutor]:
    """A pool of ``threads`` threads for ``nogil`` kernels, shut down on leaving (the
    queued tasks dropped).

    On Ctrl-C in this thread (the API called from the main thread) the running kernels
    are stopped through :data:`queenslab.interrupt.FLAG` before the pool is shut down,
    and the flag is lowered again if it was raised here.
    """
    # imported here: a count on one thread needs no pool (and concurrent.futures imports
    # logging, a hundredth of a second of a fresh process)
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
    try:
        yield pool
    except KeyboardInterrupt:
        own = not interrupt.requested()
        interrupt.request()
        pool.shutdown(wait=True, cancel_futures=True)
        if own:
            interrupt.clear()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
