"""Recounting the native split: the SAT enumeration against d4, task by task.

``crosscheck --split`` has one solver count every prefix task of the native split (the
lex-leaders of each task, or its solutions with ``--totals``). This script takes a sample
of the tasks of one n (every k-th, so that heavy and empty tasks are both in it) and
counts each with both solvers in turn (sat, d4, sat, d4, ...: one machine state for both),
in this process, one core. It prints each solver's seconds over the sample and the ratio
d4 / sat: the default of ``--split-with`` is the faster one.

Usage: ``python benchmarks/recount.py [--n 16] [--sample 60] [--totals] [--quick]``
"""

from __future__ import annotations

import argparse
import os
import time

from common import print_metadata, run_metadata

from queenslab.backends import recount
from queenslab.native import engine
from queenslab.problem import Problem


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--sample", type=int, default=60, help="tasks timed (every k-th of the split)")
    ap.add_argument("--totals", action="store_true", help="count each task's solutions, not its lex-leaders")
    ap.add_argument("--quick", action="store_true", help="n = 9, 12 tasks: a smoke test")
    args = ap.parse_args()
    n, sample = (9, 12) if args.quick else (args.n, args.sample)
    print_metadata(run_metadata(threads=1))
    print(f"# load average: {os.getloadavg()[0]:.2f}")
    problem = Problem(n)
    counted = recount.SOLUTIONS if args.totals else recount.ORBITS
    _, depth, tasks = engine.split_tasks(problem, method="general")
    step = max(1, len(tasks) // sample)
    chosen = tasks[::step][:sample]
    print(f"n = {n}: {len(tasks)} tasks of depth {depth}, {len(chosen)} timed (every {step}th); counting {counted}")
    seconds = {backend: 0.0 for backend in recount.RECOUNT_BACKENDS}
    found = {backend: 0 for backend in recount.RECOUNT_BACKENDS}
    for backend in recount.RECOUNT_BACKENDS:  # build each model once, untimed
        recount.count_prefix(problem, backend, counted, chosen[0])
    for task in chosen:
        for backend in recount.RECOUNT_BACKENDS:
            t0 = time.perf_counter()
            found[backend] += recount.count_prefix(problem, backend, counted, task)
            seconds[backend] += time.perf_counter() - t0
    if len(set(found.values())) != 1:
        raise SystemExit(f"the solvers disagree over the sample: {found}")
    print(f"{'solver':<8} {'seconds':>9} {'per task':>9} {counted:>10}")
    for backend in recount.RECOUNT_BACKENDS:
        print(f"{backend:<8} {seconds[backend]:>9.2f} {seconds[backend] / len(chosen):>9.3f} {found[backend]:>10}")
    sat, d4 = seconds["sat"], seconds["d4"]
    print(f"d4 / sat: {d4 / sat:.2f} (the default, {recount.DEFAULT_RECOUNT_BACKEND}, is the first solver)")


if __name__ == "__main__":
    main()
