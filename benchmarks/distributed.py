"""Counting on a Dask cluster against the native engine, at equal cores.

For each n (the standard problem, orbits counted too), in one run and interleaved
(native 1 thread, native 2 threads, cluster of 1 worker, cluster of 2 workers, then the
next round):

* the native engine alone, ``engine.count_both(Problem(n), unique=True, threads=T)`` --
  the symmetric search that ``engine.count(Problem(n), unique=True, threads=T)`` runs --
  on 1 and 2 threads;
* ``queenslab.distributed.count(Problem(n), client, unique=True)`` on a ``LocalCluster``
  of 1 worker and one of 2 workers (processes with one thread each, on 127.0.0.1, no
  dashboard), both started before any timing and each warmed up by one count;

and prints the median seconds over ``--repeat`` rounds, every round's seconds, the
overhead of Dask at equal cores (2 workers / 2 native threads; target <= 1.15 at n = 17)
and the scaling from 1 to 2 workers (target >= 1.8). Every count and orbit count is
checked against the known values (OEIS A000170 / A002562): a mismatch stops the run.
The load average is printed before and after each n. ``--plot F`` draws the overhead,
the scaling and native 1 / 2 threads of each n as bars, with the targets at n = 17.

Usage: ``python benchmarks/distributed.py [--ns 16 17] [--repeat 3] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
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
    """A LocalCluster of ``workers`` one-thread processes on loopback, and its Client."""
    from distributed import Client, LocalCluster

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


def native(problem: Problem, threads: int) -> Counted:
    r = engine.count_both(problem, unique=True, threads=threads)
    return r.count, r.unique, 0


def on_dask(problem: Problem, client) -> Counted:
    r = qdist.count(problem, client, unique=True)
    return r.count, r.unique, len(r.workers)


def check(n: int, what: str, count: int | None, unique: int | None) -> None:
    if (count, unique) != (known_total(n), known_unique(n)):
        raise SystemExit(
            f"n = {n}, {what}: counted {count} / {unique} unique, known {known_total(n)} / {known_unique(n)}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=[16, 17])
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds per n (medians are reported)")
    ap.add_argument("--quick", action="store_true", help="n = 12, one round: a smoke test")
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
    print(f"# load average before the clusters start: {load()}")
    engine.count_both(Problem(8), unique=True, threads=1)  # compiles or loads the kernels here
    clusters = {}
    try:
        for k in (1, 2):
            clusters[k] = start_cluster(k)
        for k, (_, client) in clusters.items():  # the workers load the kernels and the package
            found, orbits, _ = on_dask(Problem(12), client)
            check(12, f"warm-up on {k} worker(s)", found, orbits)
        print(f"# load average after starting both clusters: {load()}")
        print()
        runs: list[tuple[str, Callable[[Problem], Counted]]] = [
            ("native 1 thread", lambda p: native(p, 1)),
            ("native 2 threads", lambda p: native(p, 2)),
            ("dask 1 worker", lambda p: on_dask(p, clusters[1][1])),
            ("dask 2 workers", lambda p: on_dask(p, clusters[2][1])),
        ]
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
