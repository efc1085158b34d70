"""Predicted against measured: the cost of counting the standard problem, n = 16..23.

For each n the prediction of :func:`queenslab.cost.estimate_cost` (the method the count
would use, its work, its time on one core and on this machine's cores, and on 64 and
1,024 cores of a split count) goes in a markdown table; for n = 16..18 (and 19 with
``--n19``) the real count is run too, on one thread and on every core, and its time set
beside the prediction (the count's CPU time on one thread, so that other programs' load
does not enter; wall time on every core). Nothing heavy runs unless asked: the
predictions of n = 20..23 take a few seconds each, the counts of n = 16..18 about 10 s
together, n = 19 about a minute.

Usage: ``python benchmarks/cost.py [--ns 16 ... 23] [--n19] [--seconds S] [--quick]``;
``--quick`` predicts n = 16..20 with a short calibration and counts n = 16 and 17 (well
under a minute).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import print_metadata, run_metadata

from queenslab import Problem
from queenslab.cost import estimate_cost, format_duration
from queenslab.data import known_total
from queenslab.native import engine


def measured(n: int, threads: int) -> tuple[float, float]:
    """``(wall seconds, process CPU seconds)`` of the real count of n on ``threads``."""
    w0, c0 = time.perf_counter(), time.process_time()
    total = engine.count(Problem(n), threads=threads, force=True)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    known = known_total(n)
    if known is not None and total != known:
        raise SystemExit(f"n = {n}: counted {total}, OEIS says {known}")
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ns", type=int, nargs="+", default=list(range(16, 24)))
    ap.add_argument("--n19", action="store_true", help="also count n = 19 (about a minute)")
    ap.add_argument("--seconds", type=float, default=2.0, help="calibration per n")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    ns, seconds, count_to = args.ns, args.seconds, 19 if args.n19 else 18
    if args.quick:
        ns, seconds, count_to = list(range(16, 21)), 0.5, 17
    meta = run_metadata()
    print_metadata(meta)
    cores = engine.default_threads()
    print(f"# calibration: {seconds} s per n; counted: n <= {count_to} (one thread: CPU time, {cores} threads: wall)")
    print()
    print(
        f"| n | method | predicted work | predicted 1 core | measured 1 core (CPU) | predicted {cores} cores "
        f"| measured {cores} cores (wall) | 64 cores | 1,024 cores | split's tasks |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    engine.count(Problem(12))  # the kernels loaded before any timing
    for n in ns:
        c = estimate_cost(Problem(n), cores=[64, 1024], seconds=seconds)
        one = here = "-"
        if n <= count_to:
            _, cpu1 = measured(n, 1)
            wall, _ = measured(n, cores)
            one, here = f"{format_duration(cpu1)}", f"{format_duration(wall)}"
        err = f" ± {100 * c.relative_error:.0f}%" if c.relative_error else ""
        k64, k1024 = c.per_cores
        mark = {"work": "", "largest task": " (largest task)"}
        print(
            f"| {n} | {c.method} | {c.work:.3g} {c.work_unit} | {format_duration(c.core_seconds)}{err} | {one} "
            f"| {format_duration(c.predicted_seconds)} | {here} "
            f"| {format_duration(k64.predicted_seconds)}{mark[k64.limited_by]} "
            f"| {format_duration(k1024.predicted_seconds)}{mark[k1024.limited_by]} | {c.split_tasks} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
