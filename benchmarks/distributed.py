"""Counting on a Dask cluster against the native engine, at equal cores.

For each n (the standard problem, orbits counted too), in one run and interleaved
(native 1 thread, native 2 threads, cluster of 1 worker, cluster of 2 workers, then the
next round):

* the native engine alone, ``engine.count_both(Problem(n), unique=True, threads=T,
  method=M)`` on 1 and 2 threads;
* ``queenslab.distributed.count(Problem(n), client, unique=True, method=M)`` on a
  ``LocalCluster`` of 1 worker and one of 2 workers (processes with one thread each, on
  127.0.0.1, no dashboard, with the Dask settings of ``--dask local:K``,
  ``runner.COUNTING_CONFIG``), both started before any timing and each warmed up by one
  count;

where ``M`` is ``--method``: ``auto`` (the default) counts and splits the standard
problem by the half-board join from n = 14 (slices of its row splits, largest estimated
work first; the orbits by Burnside's lemma), ``symmetric`` by the symmetric search.

and prints the median seconds over ``--repeat`` rounds, every round's seconds, the
overhead of Dask at equal cores (2 workers / 2 native threads; target <= 1.15 at n = 17)
and the scaling from 1 to 2 workers (target >= 1.8 at n = 17; for the join's split,
>= 1.85 at n = 18). Every count and orbit count is
checked against the known values (OEIS A000170 / A002562): a mismatch stops the run.
The load average is printed before and after each n. ``--plot F`` draws the overhead,
the scaling and native 1 / 2 threads of each n as bars, with the targets at n = 17.

``--timeline 18`` counts n once more on each cluster inside Dask's task stream and prints,
per worker, when its first batch started, its busy seconds, the number of batches and the
idle gaps between them, and when its last batch ended: where the wall time of a split
count goes besides counting.

``--shares 18 19 20 21`` prints, for each n, the largest task's share of the join
split's estimated work (``join_kernels.task_costs`` of the slices of
``engine.split_tasks(..., method="join")``): no count can take less than its largest task,
so 1 / share bounds the speed-up of any number of workers.

Usage: ``python benchmarks/distributed.py [--ns 16 17] [--repeat 3] [--method auto|symmetric]
[--shares N ...] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

from queenslab import distributed as qdist
from queenslab.data import known_total, known_unique
from queenslab.native import engine
from queenslab.problem import Problem

#: The n at which the targets are stated.
TARGET_N = 17
OVERHEAD_TARGET = 1.15
SCALING_TARGET = 1.8
#: The scaling stated for the join's split (its tasks are shorter: n = 17 is over in 1-2 s).
JOIN_TARGET_N = 18
JOIN_SCALING_TARGET = 1.85


def unshadow() -> None:
    """Move this script's directory to the end of the import path.

    This file is called ``distributed.py``, like the package of ``dask.distributed``:
    with its directory first on ``sys.path`` (as Python puts it), ``import distributed``
    -- here, in queenslab's runner and in the worker processes, which inherit the path --
    would import this script instead. At the end, ``common`` is still found.
    """
    here = Path(__file__).resolve().parent
    mine = [p for p in sys.path if Path(p or ".").resolve() == here]
    sys.path[:] = [p for p in sys.path if p not in mine] + [str(here)]
    shadow = sys.modules.get("distributed")
    if shadow is not None and Path(getattr(shadow, "__file__", "") or "").resolve().parent == here:
        del sys.modules["distributed"]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def start_cluster(workers: int):
    """A LocalCluster of ``workers`` one-thread processes on loopback, and its Client,
    with the Dask settings ``--dask local:K`` starts its clusters with
    (``runner.COUNTING_CONFIG``: the processes' periodic housekeeping made rare)."""
    import dask
    from distributed import Client, LocalCluster

    from queenslab.distributed.runner import COUNTING_CONFIG

    with dask.config.set(COUNTING_CONFIG):  # the nannies hand it to their worker processes
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,  # no dashboard; the scheduler's plain HTTP routes on loopback, any free port:
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.ERROR,
        )
    client = Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client


#: (solutions, orbits, workers that ran tasks: 0 for the native engine alone)
Counted = tuple[int | None, int | None, int]


def native(problem: Problem, threads: int, method: str = "auto") -> Counted:
    r = engine.count_both(problem, unique=True, threads=threads, method=method)
    return r.count, r.unique, 0


def on_dask(problem: Problem, client, method: str = "auto") -> Counted:
    r = qdist.count(problem, client, unique=True, method=method)
    return r.count, r.unique, len(r.workers)


def largest_shares(ns: list[int]) -> None:
    """The largest task's share of the join split's estimated work, for each n."""
    import numpy as np

    from queenslab.native import join, join_kernels

    print("The join split: the largest task's share of the estimated work (join_kernels.task_costs)")
    print()
    print("| n | tasks | largest task | 5 largest | mean task | bound on the speed-up (1 / largest) |")
    print("|---|---|---|---|---|---|")
    for n in ns:
        _, _, spans = engine.split_tasks(Problem(n), method="join", force=True)
        rows, _, offs, bases = join._prepared(n)  # the row splits the slices cut
        cost = np.concatenate([[0], np.cumsum(join_kernels.task_costs(n, rows, offs, bases))])
        work = [int(cost[b] - cost[a]) for a, b in spans]
        whole = sum(work)
        top = sorted(work, reverse=True)
        assert work == top, "the split's tasks are not largest first"
        print(
            f"| {n} | {len(spans)} | {top[0] / whole:.2%} | {sum(top[:5]) / whole:.2%} | {1 / len(spans):.2%} "
            f"| {whole / top[0]:.0f}x |",
            flush=True,
        )
    print()


def timeline(n: int, client, method: str) -> None:
    """Count n on ``client``'s cluster inside Dask's task stream; print where the time went."""
    from distributed import get_task_stream

    with get_task_stream(client) as stream:
        t0 = time.time()
        found, orbits, _ = on_dask(Problem(n), client, method)
        wall = time.time() - t0
    check(n, "timeline", found, orbits)
    spans: dict[str, list[tuple[float, float]]] = {}
    for record in stream.data:
        for part in record["startstops"]:
            if part["action"] == "compute":
                spans.setdefault(record["worker"], []).append((part["start"] - t0, part["stop"] - t0))
    print(f"n = {n} on {len(spans)} worker(s): {wall:.3f} s from the call to the result, {len(stream.data)} batches")
    for worker, parts in sorted(spans.items()):
        parts.sort()
        gaps = [b[0] - a[1] for a, b in itertools.pairwise(parts)]
        busy = sum(b - a for a, b in parts)
        print(
            f"  {worker}: first batch at {parts[0][0]:.3f} s, busy {busy:.3f} s in {len(parts)} batches, "
            f"idle between them {sum(gaps):.3f} s (largest gap {max(gaps, default=0):.3f} s), "
            f"last batch ended at {parts[-1][1]:.3f} s"
        )


def check(n: int, what: str, count: int | None, unique: int | None) -> None:
    if (count, unique) != (known_total(n), known_unique(n)):
        raise SystemExit(
            f"n = {n}, {what}: counted {count} / {unique} unique, known {known_total(n)} / {known_unique(n)}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="*", default=[16, 17], help="board sizes to time (none: only --shares)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds per n (medians are reported)")
    ap.add_argument("--quick", action="store_true", help="n = 12, one round: a smoke test")
    ap.add_argument(
        "--method",
        choices=["auto", "symmetric"],
        default="auto",
        help="auto: the join (count and split) from n = 14; symmetric: the symmetric search",
    )
    ap.add_argument("--shares", type=int, nargs="*", default=[], help="print the join split's largest task share")
    ap.add_argument(
        "--timeline", type=int, nargs="*", default=[], help="after the timing, a timeline of each cluster counting N"
    )
    add_plot_option(ap, "the overhead, scaling and thread ratios of each n")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.ns, args.repeat = [12], 1
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    unshadow()
    t_run = time.perf_counter()
    print_metadata(run_metadata(2))
    if args.shares:
        largest_shares(args.shares)
    if not args.ns:
        return
    method = args.method
    print(f"# load average before the clusters start: {load()}")
    engine.count_both(Problem(8), unique=True, threads=1)  # compiles or loads the kernels here
    clusters = {}
    try:
        for k in (1, 2):
            clusters[k] = start_cluster(k)
        for k, (_, client) in clusters.items():  # the workers load the kernels and the package
            found, orbits, _ = on_dask(Problem(14), client, method)  # 14: the join's kernels too
            check(14, f"warm-up on {k} worker(s)", found, orbits)
        print(f"# load average after starting both clusters: {load()}")
        print()
        runs: list[tuple[str, Callable[[Problem], Counted]]] = [
            ("native 1 thread", lambda p: native(p, 1, method)),
            ("native 2 threads", lambda p: native(p, 2, method)),
            ("dask 1 worker", lambda p: on_dask(p, clusters[1][1], method)),
            ("dask 2 workers", lambda p: on_dask(p, clusters[2][1], method)),
        ]
        print(f"method {method}: " + ", ".join(f"n = {n} {engine.chosen_method(Problem(n), method)}" for n in args.ns))
        print(f"Seconds to count all solutions and orbits, median of {args.repeat} interleaved round(s);")
        print("overhead = dask 2 workers / native 2 threads, scaling = dask 1 worker / dask 2 workers.")
        print()
        header = " | ".join(f"{name} (s)" for name, _ in runs)
        print(f"| n | solutions | {header} | overhead | scaling | native 1 / 2 threads |")
        print("|---|---|---|---|---|---|---|---|---|")
        rounds: dict[int, dict[str, list[float]]] = {}
        loads: dict[int, tuple[str, str]] = {}
        medians: dict[int, dict[str, float]] = {}
        for n in args.ns:
            before = load()
            times: dict[str, list[float]] = {name: [] for name, _ in runs}
            for _ in range(args.repeat):
                for name, fn in runs:
                    t0 = time.perf_counter()
                    found, orbits, workers = fn(Problem(n))
                    times[name].append(time.perf_counter() - t0)
                    check(n, name, found, orbits)
                    want = {"dask 1 worker": 1, "dask 2 workers": 2}.get(name)
                    if want is not None and workers != want:
                        print(f"# note: n = {n}, {name}: the tasks ran on {workers} worker(s)")
            rounds[n], loads[n] = times, (before, load())
            med = medians[n] = {name: statistics.median(ts) for name, ts in times.items()}
            overhead = med["dask 2 workers"] / med["native 2 threads"]
            scaling = med["dask 1 worker"] / med["dask 2 workers"]
            threads = med["native 1 thread"] / med["native 2 threads"]
            cells = " | ".join(f"{med[name]:.3f}" for name, _ in runs)
            print(
                f"| {n} | {known_total(n)} | {cells} | {overhead:.3f} | {scaling:.2f} | {threads:.2f} |",
                flush=True,
            )
        print()
        print("Every round (seconds, in the order measured), and the load average before / after each n:")
        print()
        for n in args.ns:
            for name, _ in runs:
                print(f"  n = {n}, {name}: " + ", ".join(f"{t:.3f}" for t in rounds[n][name]))
            print(f"  n = {n}, load average before: {loads[n][0]}; after: {loads[n][1]}")
        print()
        for n in args.ns:
            core_seconds = medians[n]["native 1 thread"]
            print(
                f"n = {n}: {known_total(n) / core_seconds:,.0f} solutions per core-second "
                f"(native, 1 thread: {core_seconds:.3f} s)"
            )
        if TARGET_N in medians:
            med = medians[TARGET_N]
            overhead = med["dask 2 workers"] / med["native 2 threads"]
            scaling = med["dask 1 worker"] / med["dask 2 workers"]
            ok_o = "met" if overhead <= OVERHEAD_TARGET else "NOT met"
            ok_s = "met" if scaling >= SCALING_TARGET else "NOT met"
            print(f"n = {TARGET_N}: Dask overhead at 2 cores {overhead:.3f}x (target <= {OVERHEAD_TARGET}x): {ok_o}")
            print(f"n = {TARGET_N}: scaling 1 -> 2 workers {scaling:.2f}x (target >= {SCALING_TARGET}x): {ok_s}")
        else:
            print(f"(the targets are stated at n = {TARGET_N}, not measured in this run)")
        if JOIN_TARGET_N in medians and engine.chosen_method(Problem(JOIN_TARGET_N), method) == "join":
            med = medians[JOIN_TARGET_N]
            scaling = med["dask 1 worker"] / med["dask 2 workers"]
            ok_s = "met" if scaling >= JOIN_SCALING_TARGET else "NOT met"
            print(
                f"n = {JOIN_TARGET_N}, the join's split: scaling 1 -> 2 workers {scaling:.2f}x "
                f"(target >= {JOIN_SCALING_TARGET}x): {ok_s}"
            )
        print("(the ratios measure scaling only on otherwise idle cores: see the load averages above)")
        for n in args.timeline:
            print()
            for _, client in clusters.values():
                timeline(n, client, method)
    finally:
        for k in sorted(clusters, reverse=True):  # the first cluster restores the log level it found
            cluster, client = clusters[k]
            client.close()
            cluster.close()
    print(f"whole run: {time.perf_counter() - t_run:.0f} s; load average at the end: {load()}")
    if args.plot:
        from queenslab.plot import ratios

        rows = []
        for n, med in medians.items():
            at_target = n == TARGET_N
            rows += [
                (
                    f"n = {n}: overhead, dask 2 workers / native 2 threads" + (" (≤ target)" if at_target else ""),
                    med["dask 2 workers"] / med["native 2 threads"],
                    OVERHEAD_TARGET if at_target else None,
                ),
                (
                    f"n = {n}: scaling, dask 1 / 2 workers" + (" (≥ target)" if at_target else ""),
                    med["dask 1 worker"] / med["dask 2 workers"],
                    SCALING_TARGET if at_target else None,
                ),
                (f"n = {n}: native, 1 / 2 threads", med["native 1 thread"] / med["native 2 threads"], None),
            ]
        title = f"Counting on a Dask cluster against the native engine (targets at n = {TARGET_N})"
        save_plot(ratios(rows, title=title), args.plot)


if __name__ == "__main__":
    main()
