"""The runner of a split count: tasks on threads or on a Dask cluster, results in a ledger.

:func:`count` splits a count into tasks (:func:`queenslab.native.engine.split_tasks`),
skips those a ledger already holds, runs the rest -- on this machine's threads, on a
``LocalCluster`` it starts (``local:K``), on a running scheduler (``tcp://HOST:PORT``,
``tls://...``) or on a ``distributed.Client`` the caller made -- records each finished
task in the ledger at once, and adds the results up. The numbers are exactly those of
the single-machine count.

On a cluster it connects to or starts (``dask=``), the user sees one line per event on
stderr (the cluster's log file, a lost worker, an interrupt) and the cluster's own log
output goes to that file (:mod:`queenslab.distributed.noise`); an address that does not
answer as a Dask scheduler within :data:`CONNECT_SECONDS` is a QueensError.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from .. import cost, interrupt, validate, warm
from ..errors import MissingDependency, QueensError, setting
from ..native import engine
from ..native.methods import REGISTRY, CountMethod
from ..problem import Problem, as_problem
from ..result import CountResult
from . import noise
from .ledger import Ledger, Split, TaskResult, check_ledger, recorded_split
from .tasks import run_batch, run_task

__all__ = ["count", "connect", "finished", "DistributedResult", "DaskSpec", "Disagreement", "VERIFY_METHODS"]

#: A result a worker returns: (count, unique, nodes, worker, seconds, version).
Outcome = tuple[int, "int | None", int, str, float, str]
Progress = Callable[[int, int], None]

#: Seconds of work per batch of tasks sent to a Dask worker (see :class:`Batcher`).
BATCH_SECONDS = 0.2
#: Seconds between two looks for finished futures: the delay a result can wait before it
#: is recorded and the next batch sent (a join split's tasks at n = 18 take 10-30 ms).
POLL_SECONDS = 0.01

#: Dask settings of a counting cluster: its processes' periodic housekeeping made rare.
#: By default every scheduler, nanny and worker wakes every 20 ms (the event loop's tick),
#: a nanny reads its worker's memory every 100 ms, the system monitor samples every
#: 500 ms and the profiler samples the running task every 10 ms: on two cores counting
#: flat out these wake-ups cost the counting threads several percent (measured on a
#: 2-core AMD EPYC, n = 18 on 2 one-thread workers: 2.61 s with the defaults, 2.25-2.30 s
#: with these; benchmarks/distributed.py). What is given up: a late warning of a blocked
#: event loop, the memory limit enforced within a second instead of 0.1 s, the dashboard's
#: system and profile pages. ``--dask local:K`` starts its cluster with them; for a
#: cluster of your own see docs/distributed.md.
COUNTING_CONFIG: dict[str, object] = {
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.profile.enabled": False,
}

#: How ``verify`` recomputes a task: by its own method, or by the general search (not a
#: join task: a slice of row splits is no subtree the general search could walk).
VERIFY_METHODS = ("task", "general")
#: The splits :func:`count` takes (``method=``): ``"auto"`` resumes the split a ledger
#: records, else splits as a single-process count chooses its method.
SPLIT_METHODS = ("auto", *engine.SPLIT_METHODS)

_LOCAL = re.compile(r"local:([0-9]{1,4})", re.ASCII)
_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx)://\S+", re.ASCII)


@dataclass(frozen=True)
class DaskSpec:
    """Where a count runs on Dask: ``local:K`` (a ``LocalCluster`` of K worker processes,
    listening on 127.0.0.1 only, started and stopped for the run) or the address of a
    running scheduler (``tcp://HOST:PORT``; ``tls://HOST:PORT`` with the TLS settings of
    the Dask configuration, see docs/distributed.md).

    Examples
    --------
    >>> DaskSpec.parse("local:2")
    DaskSpec(workers=2, address=None)
    >>> DaskSpec.parse("tcp://127.0.0.1:8786").address
    'tcp://127.0.0.1:8786'
    """

    workers: int | None = None
    address: str | None = None

    @classmethod
    def parse(cls, text: object) -> DaskSpec:
        """``local:K`` or a scheduler address; a QueensError otherwise."""
        if isinstance(text, DaskSpec):
            return text
        if isinstance(text, str):
            m = _LOCAL.fullmatch(text.strip())
            if m:
                k = validate.whole_number(int(m.group(1)), "the number of local workers", maximum=validate.MAX_THREADS)
                return cls(workers=k)
            if _ADDRESS.fullmatch(text.strip()):
                return cls(address=text.strip())
        raise QueensError(
            f"--dask takes local:K (K worker processes on this machine) or a scheduler address such as "
            f"tcp://HOST:PORT or tls://HOST:PORT; got {validate.brief(text)}"
        )


@dataclass(frozen=True)
class Disagreement:
    """A recorded task whose recomputation gave another result."""

    task_id: int
    task: tuple[int, ...]
    recorded: tuple[int, int | None]
    recomputed: tuple[int, int | None]
    method: str = "task"


@dataclass(frozen=True)
class DistributedResult(CountResult):
    """A :class:`~queenslab.result.CountResult` with what the split run did.

    Attributes
    ----------
    tasks : int
        Tasks in the split.
    from_ledger : int
        Tasks found done in the ledger (not computed again).
    workers : tuple of str
        The workers that computed tasks in this run (``"thread"`` for local threads).
    verified : int
        Recorded tasks recomputed to check them.
    disagreements : tuple of Disagreement
        Recomputed tasks that disagreed with the ledger (empty when all agreed).
    split : str
        ``"symmetric"``, ``"join"`` (slices of the half-board join's row splits) or
        ``"general@D"`` (prefixes of D rows).
    """

    tasks: int = 0
    from_ledger: int = 0
    workers: tuple[str, ...] = ()
    verified: int = 0
    disagreements: tuple[Disagreement, ...] = ()
    split: str = ""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingDependency(
            'counting on a Dask cluster needs dask.distributed, the optional extra "dask": '
            'pip install "queenslab[dask]"'
        ) from None
    return distributed


def _warm_up(method: str) -> None:
    """Compile (or load from the on-disk cache) the kernels the tasks of ``method`` run,
    here, before any worker starts: workers then load them from the cache instead of
    compiling each (:func:`queenslab.warm.ensure`, with its notice)."""
    warm.ensure(method)


#: Seconds a ``--dask`` address has to answer as a Dask scheduler (connecting included).
CONNECT_SECONDS = 20.0

_HOW = (
    "--dask takes local:K (K worker processes on this machine) or the address of a running Dask scheduler, "
    "the one `dask scheduler` prints (tcp://HOST:PORT, port 8786 by default)"
)


def _ask_identity(address: str, seconds: float, connection_args: dict[str, Any]) -> Any:
    """What the Dask server at ``address`` says it is (Dask's ``identity`` call), asked on
    an event loop of its own and given up after ``seconds``; an exception is returned,
    not raised. Nothing it sends is unpickled."""
    import asyncio

    from distributed.comm import connect

    async def ask() -> Any:
        # Dask's connect() bounds its attempts to connect but not the wait for the
        # peer's handshake: a server that accepts and stays silent would hold it forever
        comm = await connect(address, timeout=0.75 * seconds, deserialize=False, **connection_args)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(ask(), seconds)

    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["answer"] = asyncio.run(bounded())
        except BaseException as e:  # garbage from a server that is not Dask's: any error at all
            box["answer"] = e

    probe = threading.Thread(target=target, name="queenslab-dask-probe", daemon=True)
    probe.start()
    deadline = time.monotonic() + seconds + 10
    while probe.is_alive() and time.monotonic() < deadline:
        probe.join(0.1)
        interrupt.check()
    return box.get("answer", TimeoutError())


def _check_scheduler(address: str, seconds: float, log: noise.ClusterLog | None = None) -> None:
    """Return once ``address`` has answered as a Dask scheduler within ``seconds``; a
    QueensError saying what it is otherwise (the error met, if any, written to ``log``)."""
    import asyncio

    d = _distributed()
    try:
        args = d.Security().get_connection_args("client")
    except (OSError, TypeError, ValueError) as e:
        raise QueensError(f"the TLS settings of the Dask configuration cannot be used: {e}") from None
    if address.startswith("tls://") and args.get("ssl_context") is None:
        raise QueensError(
            f"cannot connect to the Dask scheduler at {address}: a tls:// address needs the TLS settings of the "
            "Dask configuration (DASK_CONFIG, see docs/distributed.md), and none were found"
        )
    answer = _ask_identity(address, seconds, args)
    if type(answer) is OSError or (isinstance(answer, OSError) and "Timed out trying to connect" in str(answer)):
        raise QueensError(f"cannot reach a Dask scheduler at {address}: {answer}; {_HOW}")
    if isinstance(answer, (TimeoutError, asyncio.TimeoutError)):
        raise QueensError(
            f"{address} gave no Dask answer within {seconds:g} s: it is not a Dask scheduler (another kind of "
            f"server, such as an HTTP server, waits for a request of its own), or a scheduler too busy to answer; {_HOW}"
        )
    if isinstance(answer, BaseException):
        if log is not None:
            log.write(f"asking {address} what it is: {type(answer).__name__}: {answer}")
        raise QueensError(
            f"{address} is not a Dask scheduler: what it sent is not Dask's protocol (another kind of server, "
            f"such as the dashboard's, port 8787?); {_HOW}"
        )
    kind = answer.get("type") if isinstance(answer, dict) else None
    if not isinstance(kind, str):
        raise QueensError(f"{address} is not a Dask scheduler: it does not say what it is when asked; {_HOW}")
    if kind in ("Worker", "Nanny"):
        raise QueensError(f"{address} is a Dask {kind.lower()}, not a scheduler; {_HOW}")


def _connect(address: str, log: noise.ClusterLog) -> Any:
    """A Client of the scheduler at ``address``, after :func:`_check_scheduler`."""
    d = _distributed()
    _check_scheduler(address, CONNECT_SECONDS, log)
    try:
        return d.Client(address, timeout=f"{CONNECT_SECONDS:g}s")
    except (OSError, TimeoutError) as e:
        raise QueensError(f"cannot reach the Dask scheduler at {address}: {e}; {_HOW}") from None
    except (TypeError, ValueError) as e:
        raise QueensError(f"cannot connect to the Dask scheduler at {address}: {e}; {_HOW}") from None


def _local_cluster(workers: int, log: noise.ClusterLog) -> Any:
    """A LocalCluster of ``workers`` one-thread processes on loopback, quiet (see
    :mod:`queenslab.distributed.noise`), with :data:`COUNTING_CONFIG`."""
    d = _distributed()
    import dask

    log.start_tracker()  # first: starting it unblocks SIGINT in the thread that starts it
    # the nannies hand the configuration of this moment to their worker processes
    with noise.sigint_blocked(), dask.config.set(COUNTING_CONFIG):
        return d.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",  # loopback only: nothing outside this machine can connect
            dashboard_address=None,
            # the scheduler's small HTTP server still starts: on loopback, on a free port
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            # warnings and errors, into the log file: a worker's first INFO lines come
            # before its preload sends its output there
            silence_logs=logging.WARNING,
            preload=[noise.__name__],
            env={noise.LOG_FILE_VAR: str(log.path)},
        )


@contextmanager
def cluster_client(spec: DaskSpec) -> Iterator[Any]:
    """A Client for ``spec``; a LocalCluster started for it is stopped afterwards.

    The cluster's own log output and tracebacks go to a log file, whose path is said
    once on stderr when the cluster is ready (or when it failed to start and wrote
    there); an interrupt is said in one line (:mod:`queenslab.distributed.noise`)."""
    _distributed()
    what = f"--dask {spec.address}" if spec.address is not None else f"--dask local:{spec.workers}"
    log = noise.ClusterLog.open(what)
    try:
        with log.capture(), ExitStack() as stack:
            try:
                if spec.address is not None:
                    client = _connect(spec.address, log)
                else:
                    assert spec.workers is not None
                    cluster = _local_cluster(spec.workers, log)
                    stack.callback(cluster.close)
                    client = _distributed().Client(cluster)
                stack.callback(client.close)
            except BaseException:
                log.announce(only_if_written=True)
                raise
            log.announce()
            try:
                yield client
            except KeyboardInterrupt:
                noise.say(
                    "interrupted: stopping the cluster"
                    if spec.address is None
                    else "interrupted: cancelling the tasks sent to the cluster"
                )
                raise
    finally:
        log.close()


def _on_threads(
    problem: Problem, method: str, tasks: list[tuple[int, ...]], todo: list[int], unique: bool, threads: int
) -> Iterator[tuple[int, Outcome]]:
    """Run the tasks ``todo`` on threads (the kernels release the GIL); yield each as it ends."""
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queenslab-task") as pool:
        pending = {pool.submit(run_task, problem, method, tasks[i], unique, True): i for i in todo}
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                interrupt.check()
                for f in finished:
                    i = pending.pop(f)
                    yield i, f.result()
            interrupt.check()  # Ctrl-C while the last tasks ended: still a stop
        finally:
            for f in pending:
                f.cancel()


#: Seconds a run waits on a cluster with no worker at all before it gives up.
WORKERLESS_SECONDS = 60.0


class _Workerless:
    """Gives up on a cluster left without a worker: Dask keeps the tasks waiting for one to
    join, for ever, so a run whose workers all died (or never came) would hang."""

    def __init__(self, client: Any):
        self.client = client
        self.seconds = WORKERLESS_SECONDS
        self.since: float | None = None
        self.next = 0.0

    def check(self) -> None:
        """Ask the scheduler at most once a second; raise once it has had no worker for
        :data:`WORKERLESS_SECONDS`."""
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + 1.0
        try:
            workers = len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # no answer: the lost-scheduler case is Dask's own to report
            return
        if workers:
            self.since = None
            return
        self.since = now if self.since is None else self.since
        if now - self.since >= self.seconds:
            raise QueensError(
                f"the Dask cluster has had no worker for {self.seconds:.0f} s and the tasks wait for one; "
                "start workers (dask worker ADDRESS) or use --dask local:K; the finished tasks are in the "
                "ledger, if one was given"
            )


class _Losses:
    """The workers the scheduler removes while a run waits for its futures, from Dask's
    events (topic ``"all"``), each reported in one line with the tasks sent again."""

    def __init__(self, client: Any):
        self.client = client
        self.events: deque[dict[str, Any]] = deque()
        handlers = getattr(client, "_event_handlers", None)
        previous = handlers.get("all") if isinstance(handlers, dict) else None
        while isinstance(getattr(previous, "__self__", None), _Losses):  # an earlier run's, left in place
            previous = previous.__self__.previous  # type: ignore[union-attr]
        self.previous = previous  # the caller's own handler of the topic, called on
        try:
            client.subscribe_topic("all", self._on_event)
            self.subscribed = True
        except Exception:  # a client without Dask's events: the tasks are sent again all the same, unreported
            self.subscribed = False

    def _on_event(self, event: Any) -> Any:
        """Called on the client's event loop: note a removed worker, pass every event on."""
        msg = event[1] if isinstance(event, tuple) and len(event) == 2 else None
        if self.subscribed and isinstance(msg, dict) and msg.get("action") == "remove-worker":
            self.events.append(msg)
        return self.previous(event) if self.previous is not None else None

    def report(self, pending: dict[Any, tuple[Any, int]], weight: Callable[[int], int]) -> None:
        """One line per worker removed since the last call: how many of the tasks still
        awaited (``pending``: key to future and position, each weighing
        ``weight(position)`` tasks) were on it, so that Dask sends them again."""
        while self.events:
            msg = self.events.popleft()
            keys = _keys(msg.get("processing-tasks")) | _keys(msg.get("lost-computed-tasks"))
            again = sum(weight(i) for key, (_, i) in list(pending.items()) if key in keys)
            how = "left" if msg.get("expected") else "lost"
            noise.say(f"worker {how}, {again} task{'' if again == 1 else 's'} sent again ({msg.get('worker')})")

    def close(self) -> None:
        """Stop listening: the caller's own handler of the topic, if any, is put back;
        else Dask is told to stop sending the topic, and events already on their way
        meet this handler, now silent (Dask's client reports an error for an event of a
        topic without a handler)."""
        if not self.subscribed:
            return
        self.subscribed = False
        try:
            if self.previous is not None:
                self.client.subscribe_topic("all", self.previous)
            else:
                self.client.unsubscribe_topic("all")
        except Exception:  # a client closed meanwhile: nothing to stop
            pass


def _keys(items: Any) -> set[Any]:
    """The task keys of an event (a key that is a tuple arrives as a list)."""
    out: set[Any] = set()
    for key in items or ():
        with suppress(TypeError):  # a key nested deeper than Dask's own: not one of ours
            out.add(tuple(key) if isinstance(key, list) else key)
    return out


def finished(
    client: Any,
    futures: list[Any],
    refill: Callable[[], list[Any]] | None = None,
    weight: Callable[[int], int] | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(position, result)`` of each of ``futures`` as it ends (looked for every
    :data:`POLL_SECONDS`), Ctrl-C seen as soon; the futures still running are cancelled when the caller stops or fails (a lost
    worker's tasks are run again elsewhere by Dask, and said in one line on stderr).

    ``refill``, if given, is called after each result has been handled by the caller and
    returns further futures to wait for (numbered on after ``futures``). ``weight(position)``
    is the number of tasks a future stands for (1 by default), for the lost-worker line.
    A future is let go once its result is handed on, so that a worker lost afterwards
    does not make Dask compute it again."""
    d = _distributed()
    weight = weight if weight is not None else (lambda i: 1)
    pending: dict[Any, tuple[Any, int]] = {}  # key -> (future, position)
    for i, f in enumerate(futures):
        pending[f.key] = (f, i)
    numbered = len(pending)
    ended = d.as_completed([f for f, _ in pending.values()])
    del futures
    losses = _Losses(client)
    watch = _Workerless(client)
    try:
        while not ended.is_empty():
            losses.report(pending, weight)
            batch = ended.next_batch(block=False)
            if not batch:
                interrupt.check()
                watch.check()
                time.sleep(POLL_SECONDS)
                continue
            while batch:
                f = batch.pop(0)
                _, i = pending.pop(f.key)
                result = f.result()
                del f
                yield i, result
                for g in refill() if refill is not None else ():
                    pending[g.key] = (g, numbered)
                    numbered += 1
                    ended.add(g)
            interrupt.check()
        losses.report(pending, weight)
        interrupt.check()  # Ctrl-C while the last tasks ended: still a stop
    finally:
        losses.close()
        if pending and getattr(client, "status", None) not in ("closing", "closed"):
            # best effort: this may run late, when the generator is collected after its
            # client was closed (a caller that stopped iterating on Ctrl-C)
            with suppress(Exception):
                client.cancel([f for f, _ in pending.values()])


def worker_slots(client: Any) -> int:
    """The worker threads of ``client``'s cluster now (1 when none has joined yet)."""
    try:
        return max(1, sum(int(t) for t in client.nthreads().values()))
    except (AttributeError, TypeError, ValueError, OSError):  # batches for one thread are still right
        return 1


class Batcher:
    """Sizes the batches of tasks a cluster runs as one Dask task each.

    Dask's scheduler costs a round trip of about 2 ms per task, whatever its length: the
    split's hundreds of tasks, one Dask task each, cost a short count (n = 17 on two
    cores) 12-17 % of its time. So tasks go out in batches of about :data:`BATCH_SECONDS`
    of work, sized from the seconds the finished tasks took (the first batches hold one
    task each), in an order shuffled by a fixed seed so that a batch mixes long and short
    tasks -- unless ``shuffle`` is False: a join split's tasks come largest first (by
    their estimated work), an order kept so that the longest start first and the short
    ones fill the end. Towards the end a batch takes at most ``1 / (2 * slots)`` of the tasks left, so
    the last batches are single tasks that balance the load; and since a batch is
    recorded when it ends, Ctrl-C loses at most the batches running, about a second of work.

    Examples
    --------
    >>> b = Batcher(list(range(10)), slots=1)
    >>> b.next(), b.next()
    ([7], [8])
    >>> b.learn([0.001] * 2)
    >>> len(b.next())  # 0.2 s of 1 ms tasks, but at most half the 8 left
    4
    """

    def __init__(self, todo: list[int], slots: int, seed: int = 0, shuffle: bool = True):
        import random

        self.left = list(todo)
        if shuffle:
            random.Random(seed).shuffle(self.left)
        self.slots = max(1, slots)
        self.seconds = 0.0
        self.done = 0

    def learn(self, seconds: list[float]) -> None:
        """Account the worker-side seconds of finished tasks."""
        self.seconds += sum(seconds)
        self.done += len(seconds)

    def next(self) -> list[int]:
        """The next batch (empty when every task is out)."""
        k = 1
        if self.done and self.seconds > 0:
            k = int(BATCH_SECONDS / (self.seconds / self.done))
        elif self.done:
            k = len(self.left)
        k = max(1, min(k, -(-len(self.left) // (2 * self.slots))))
        batch, self.left = self.left[:k], self.left[k:]
        return batch


def _on_dask(
    client: Any, problem: Problem, method: str, tasks: list[tuple[int, ...]], todo: list[int], unique: bool
) -> Iterator[tuple[int, Outcome]]:
    """Submit the tasks ``todo`` to ``client`` in batches, keeping three per worker thread
    in flight; yield each task as its batch ends. A join split's tasks go in their order,
    largest first; the others shuffled (:class:`Batcher`)."""
    slots = worker_slots(client)
    batcher = Batcher(todo, slots, shuffle=not REGISTRY[method].largest_first)
    groups: list[list[int]] = []

    def submit(count: int) -> list[Any]:
        out = []
        for _ in range(count):
            group = batcher.next()
            if not group:
                break
            groups.append(group)
            out.append(client.submit(run_batch, problem, method, [tasks[i] for i in group], unique, True, pure=False))
        return out

    for k, outcomes in finished(client, submit(3 * slots), refill=lambda: submit(1), weight=lambda k: len(groups[k])):
        batcher.learn([o[4] for o in outcomes])
        yield from zip(groups[k], outcomes)


def count(
    problem: Problem,
    client: Any = None,
    *,
    unique: bool = False,
    ledger: Any = None,
    dask: DaskSpec | str | None = None,
    depth: int | None = None,
    method: str = "auto",
    threads: int | None = None,
    force: bool = False,
    verify: int = 0,
    verify_method: str = "task",
    seed: int = 0,
    progress: Progress | None = None,
) -> DistributedResult:
    """Count ``problem`` split into tasks, on threads or a Dask cluster, resumable.

    Parameters
    ----------
    problem : Problem
        Any problem the native engine counts (every variant, n <= 64).
    client : distributed.Client, optional
        A Dask client of the caller's (a notebook's own cluster); the caller closes it.
    unique : bool, default False
        Also count orbits under ``problem.symmetries()`` (the symmetric split always does).
    ledger : str or path, optional
        A ledger file (:mod:`~queenslab.distributed.ledger`): tasks it holds are not
        computed again, each finished task is recorded at once. A ledger of another
        problem or split, or one edited by hand, is refused.
    dask : DaskSpec or str, optional
        ``"local:K"`` or a scheduler address, for a cluster this call connects to (or
        starts and stops); not with ``client``. Neither: threads of this machine. The
        cluster's log output goes to a file whose path is said on stderr
        (:mod:`~queenslab.distributed.noise`).
    depth : int, optional
        Split into the prefixes of this many rows (default: see ``method``; for a prefix
        split the smallest depth with at least 256 prefixes).
    method : {"auto", "symmetric", "general", "join"}, default "auto"
        How the count is split. ``"auto"``: the split the ledger records, when it holds
        one (a ledger resumes as it was made); else as a single-process count of the
        native engine chooses its method (:func:`~queenslab.native.engine.chosen_method`
        on one thread per task): the half-board join's slices for the standard problem
        from n = 14 (:func:`~queenslab.native.join.split`: slices of its row splits,
        largest estimated work first, each counting its total only; the orbits follow
        from the summed total by Burnside's lemma), the symmetric search's tasks below,
        prefixes of the first rows for a variant. ``"symmetric"``, ``"join"`` (standard
        problem only) and ``"general"`` (prefixes, any problem) ask for that split; a
        ledger of another split is then refused. ``depth`` implies ``"general"``.
    threads : int, optional
        Threads on this machine (default: every core); not used on a cluster.
    force : bool, default False
        Allow n above the engine's practical limit.
    verify : int, default 0
        Recompute this many recorded tasks, chosen at random by ``seed``, on this
        machine, and report any disagreement (:attr:`DistributedResult.disagreements`).
    verify_method : {"task", "general"}, default "task"
        Recompute by the task's own method, or by the general search: a symmetric task
        is then counted as the orbits whose lexicographically least solution begins
        with the task's rows, a different algorithm from the symmetric kernel's (see
        :func:`~queenslab.native.engine.count_task`). A prefix task is counted by the
        general search either way. A join task (a slice of row splits, not a subtree)
        is recomputed by the join kernel only: ``"general"`` with a join split is
        refused before anything is counted.
    seed : int, default 0
        Chooses the tasks to verify.
    progress : callable, optional
        ``progress(done, total)`` after each finished task (tasks from the ledger count
        as done).

    Returns
    -------
    DistributedResult
        The usual :class:`CountResult` (``count``, ``unique``, ``nodes``, backend
        ``"native"``, method ``"symmetric"``, ``"join"`` or ``"general@D"`` with
        ``dask`` or ``threads``) with ``tasks``, ``from_ledger``, ``workers`` and the
        verification. ``unique`` is filled when asked for (always by the symmetric
        split); ``nodes`` is None for a join split (the join places no queens one by one).

    Raises
    ------
    InvalidLedger
        For a ledger of another problem or split, or a damaged or edited one.
    MissingDependency
        For a cluster without the optional extra ``dask``.
    QueensError
        For a ``dask`` address that does not answer as a Dask scheduler within
        :data:`CONNECT_SECONDS` (an HTTP server, a server that sends something else or
        nothing, a Dask worker, a port where nothing listens); for ``verify_method="general"``
        with a join split; for a ``depth`` with another method than ``"general"``.
    UnsupportedProblem
        For ``method="symmetric"`` or ``"join"`` on a problem they do not split.
    """
    engine.check_problem(as_problem(problem))
    unique = validate.flag(unique, "unique")
    force = validate.flag(force, "force")
    cost.check_count(problem, force)
    threads = validate.threads(threads)
    verify = validate.whole_number(verify, "verify", minimum=0)
    verify_method = validate.choice(verify_method, VERIFY_METHODS, "verify_method")
    seed = validate.seed(seed)
    progress = validate.callback(progress)
    if client is not None and dask is not None:
        raise QueensError("give a Dask client or a --dask address, not both")
    if client is not None and not callable(getattr(client, "submit", None)):
        raise QueensError(f"client must be a distributed.Client, got {type(client).__name__}")
    spec = DaskSpec.parse(dask) if dask is not None else None
    here = spec is None and client is None
    if ledger is not None:  # a ledger that would be refused is refused before the kernels compile
        check_ledger(ledger, problem)
    # a task runs on one thread (a Dask worker's, or one of ours, each counting one task at
    # a time): a method's memory rule as for one thread per task
    chosen, depth = _choose_split(problem, method, depth, ledger, threads if here else 1)
    _check_verify(chosen, verify, verify_method)
    split = _split(problem, chosen, unique, depth, force)
    book = Ledger.open(ledger, problem, split) if ledger is not None else None
    t0 = time.perf_counter()
    try:
        outcomes: dict[int, Outcome3] = {}
        if book is not None:
            outcomes = {i: (r.count, r.unique, r.nodes) for i, r in book.done().items()}
        from_ledger = len(outcomes)
        workers: set[str] = set()
        runner = _run(problem, split, outcomes, book, workers, client, spec, threads, progress)
        total, orbits, nodes = _totals(split, outcomes, book)
        checked, bad = _verify(problem, split, outcomes, verify, verify_method, seed, book)
    finally:
        if book is not None:
            book.close()
    if unique and chosen.task_orbits == "never":
        orbits = chosen.orbits_from_total(problem, total)
    label = f"general@{split.depth}" if split.method == "general" else split.method
    return DistributedResult(
        count=total,
        unique=orbits if unique or chosen.task_orbits == "always" else None,
        nodes=nodes if chosen.subtrees else None,  # a join places no queens one by one
        backend="native",
        method=f"{label} ({runner})",
        complete=True,
        threads=threads if here else None,
        seconds=time.perf_counter() - t0,
        note=problem.contradiction,
        tasks=len(split.tasks),
        from_ledger=from_ledger,
        workers=tuple(sorted(workers)),
        verified=checked,
        disagreements=tuple(bad),
        split=label,
    )


#: A task's (solutions, orbits or None, queens placed).
Outcome3 = tuple[int, int | None, int]


def _choose_split(
    problem: Problem, method: str, depth: int | None, ledger: Any, threads: int
) -> tuple[CountMethod, int | None]:
    """The counting method that splits the count, and the depth: the one named; for
    "auto" the split the ledger records (a ledger resumes as it was made, never by the
    default of today), else the first method of the registry that applies and splits
    the problem. A depth asks for prefixes."""
    wanted = validate.choice(method, SPLIT_METHODS, "method")
    if depth is not None and wanted not in ("auto", "general"):
        raise QueensError(f"a depth splits the count into prefixes (method 'general'), not by method {wanted!r}")
    if wanted == "auto" and depth is not None:
        wanted = "general"
    elif wanted == "auto":
        recorded = recorded_split(ledger, problem) if ledger is not None else None
        if recorded is not None:
            # (a symmetric ledger's depth too: one made before the deeper split of n >= 22)
            wanted, depth = recorded[0], recorded[1] if REGISTRY[recorded[0]].subtrees else None
        else:
            wanted = engine.chosen_method(problem, "auto", threads, split=True)
    return REGISTRY[wanted], depth


def _check_verify(chosen: CountMethod, verify: int, verify_method: str) -> None:
    """Refuse a recount by the general search of tasks that are no subtrees of it."""
    if verify and verify_method == "general" and not chosen.subtrees:
        general = setting("verify_method='general'", "--verify-method general")
        task = setting("verify_method='task'", "--verify-method task")
        symmetric = setting("method='symmetric'", "--method symmetric")
        raise QueensError(
            f"{general} cannot recount a task of the {chosen.name} split: it is not a subtree of the search; use "
            f"{task} (the {chosen.name} method counts the task again), or, for an independent check, compare "
            f"with a count by another method (queenslab crosscheck N, or a ledger of the symmetric split: {symmetric})"
        )


def _split(problem: Problem, chosen: CountMethod, unique: bool, depth: int | None, force: bool) -> Split:
    """The split of the count: its kernels compiled here first (for the join, before the
    split computes the row splits and quarter tables that tasks on threads here use)."""
    _warm_up(chosen.name)
    method, d, tasks = engine.split_tasks(problem, unique=unique, depth=depth, force=force, method=chosen.name)
    orbits = chosen.task_orbits == "always" or (unique and chosen.task_orbits == "unique")
    return Split(method, d, orbits, tuple(tasks))


def _run(
    problem: Problem,
    split: Split,
    outcomes: dict[int, Outcome3],
    book: Any,
    workers: set[str],
    client: Any,
    spec: DaskSpec | None,
    threads: int,
    progress: Progress | None,
) -> str:
    """Count the tasks not in ``outcomes`` on threads here, the caller's Dask client or a
    cluster of ``spec``, recording each as it finishes; returns what ran them."""
    tasks = list(split.tasks)
    todo = [i for i in range(len(tasks)) if i not in outcomes]
    if progress is not None:
        progress(len(outcomes), len(tasks))
    if not todo:
        return "ledger"
    args = (problem, split.method, tasks, todo, split.unique)
    if spec is None and client is None:
        _collect(_on_threads(*args, threads), outcomes, book, workers, len(tasks), progress)
        return f"{threads} thread{'s' if threads > 1 else ''}"
    if client is not None:
        _collect(_on_dask(client, *args), outcomes, book, workers, len(tasks), progress)
        return "dask"
    assert spec is not None
    with cluster_client(spec) as own:
        _collect(_on_dask(own, *args), outcomes, book, workers, len(tasks), progress)
    return "dask"


def _totals(split: Split, outcomes: dict[int, Outcome3], book: Any) -> tuple[int, int | None, int]:
    """The summed (solutions, orbits, queens placed): the ledger's own totals when there is one."""
    if book is not None:
        return book.totals()
    total = sum(o[0] for o in outcomes.values())
    orbits = sum(int(o[1] or 0) for o in outcomes.values()) if split.unique else None
    return total, orbits, sum(o[2] for o in outcomes.values())


def _collect(
    stream: Iterator[tuple[int, Outcome]],
    outcomes: dict[int, Outcome3],
    book: Any,
    workers: set[str],
    total: int,
    progress: Progress | None,
) -> None:
    """Record each finished task in the ledger (at once: Ctrl-C loses nothing recorded)."""
    for i, (found, orbits, nodes, worker, seconds, version) in stream:
        outcomes[i] = (found, orbits, nodes)
        workers.add(worker)
        if book is not None:
            book.record(TaskResult(i, found, orbits, nodes, worker, seconds, version))
        if progress is not None:
            progress(len(outcomes), total)


def _verify(
    problem: Problem,
    split: Split,
    outcomes: dict[int, Outcome3],
    k: int,
    verify_method: str,
    seed: int,
    book: Any,
) -> tuple[int, list[Disagreement]]:
    """Recompute ``k`` recorded tasks here (by ``verify_method``) and compare them with the record."""
    if k == 0:
        return 0, []
    if book is not None:
        ids = book.verify_sample(min(k, len(outcomes)), seed)
    else:
        import random

        ids = sorted(random.Random(seed).sample(sorted(outcomes), min(k, len(outcomes))))
    bad = []
    for i in ids:
        found, orbits, _ = engine.count_task(
            problem, split.method, split.tasks[i], unique=split.unique, force=True, general=verify_method == "general"
        )
        recorded = outcomes[i][:2]
        if (found, orbits) != recorded:
            bad.append(Disagreement(i, split.tasks[i], recorded, (found, orbits), verify_method))
    return len(ids), bad


@contextmanager
def connect(dask: str, method: str = "general", unique: bool = False) -> Iterator[Any]:
    """A Dask client for a ``--dask`` address (``local:K`` or a scheduler's address),
    for work of the engine's ``method`` (the split's kernels are compiled here first, so
    that the workers load them from the cache); a LocalCluster started for it is stopped
    afterwards. The index build on a cluster uses it.

    Raises
    ------
    QueensError
        For an address that is not a Dask scheduler, or without the extra ``dask``.
    """
    spec = DaskSpec.parse(dask)
    _warm_up(method)
    with cluster_client(spec) as client:
        yield client
