"""Native counting speed: the symmetric engine against a mirror-halved bitboard counter.

Prints, for each n, in one run:

* the textbook baseline -- a numba bitboard backtracker that puts the first-row queen in
  the left half only and doubles (plus the middle column for odd n), written here;
* the engine's symmetric counter on one thread and on all threads;
* the ratios baseline / engine(1 thread) and engine(1) / engine(all);
* the node counts of both searches;

and the wall time of ``queenslab count 8`` as a fresh process with the numba cache warm.
``--plot F`` draws the ratios of the run as bars, with the targets of docs/benchmarks.md at
n = 16 (the engine >= 2.2x the baseline on one thread; two threads >= 1.7x one).

Usage: ``python benchmarks/count.py [--ns 14 15 16] [--repeat 3] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time

import numpy as np
from common import add_plot_option, best_time, check_plot, print_metadata, run_metadata, save_plot
from numba import njit

from queenslab.data import known_total
from queenslab.native import engine
from queenslab.problem import Problem

#: The targets (docs/benchmarks.md), stated at n = 16: engine(1) against the baseline, and
#: two threads against one.
TARGET_N, SYMMETRIC_TARGET, THREADS_TARGET = 16, 2.2, 1.7


@njit(cache=True, nogil=True)
def mirror_halved(n):
    """(solutions, nodes): left-half first-row queens, doubled; middle column once."""
    mask = (1 << n) - 1
    ld = np.zeros(n + 1, np.int64)
    dn = np.zeros(n + 1, np.int64)
    rd = np.zeros(n + 1, np.int64)
    bm = np.zeros(n + 1, np.int64)
    total = 0
    nodes = 0
    for half in range(2):
        if half == 0:
            first = (1 << (n // 2)) - 1  # columns 0 .. n/2 - 1, counted twice
        elif n % 2 == 1:
            first = 1 << (n // 2)  # the middle column, counted once
        else:
            break
        sub = 0
        y = 0
        bm[0] = first
        while y >= 0:
            m = bm[y]
            if m == 0:
                y -= 1
                continue
            bit = m & -m
            bm[y] = m ^ bit
            nodes += 1
            if y == n - 1:
                sub += 1
                continue
            ld[y + 1] = ((ld[y] | bit) << 1) & mask
            dn[y + 1] = dn[y] | bit
            rd[y + 1] = (rd[y] | bit) >> 1
            bm[y + 1] = mask & ~(ld[y + 1] | dn[y + 1] | rd[y + 1])
            y += 1
        total += 2 * sub if half == 0 else sub
    return total, nodes


def fresh_process_seconds(repeat: int) -> float:
    exe = shutil.which("queenslab")
    cmd = [exe] if exe else [sys.executable, "-m", "queenslab"]
    cmd = cmd + ["count", "8"]
    subprocess.run(cmd, check=True, capture_output=True)  # warms the numba cache
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=[14, 15, 16])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="n = 10, 11 once: a smoke test")
    add_plot_option(ap, "the ratios of the run")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.ns, args.repeat = [10, 11], 1
    threads = engine.default_threads()
    print_metadata(run_metadata(threads))
    mirror_halved(6)
    engine.count(Problem(6), threads=1)
    print()
    print(
        f"| n | mirror-halved (s) | engine 1 thread (s) | engine {threads} threads (s) | baseline / engine(1) | engine(1) / engine({threads}) | nodes baseline / engine |"
    )
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for n in args.ns:
        base_count, base_nodes = mirror_halved(n)
        res = engine.count_both(Problem(n), threads=1)
        if not (base_count == res.count == known_total(n)):
            raise SystemExit(
                f"count mismatch at n={n}: baseline {base_count}, engine {res.count}, known {known_total(n)}"
            )
        t_base = best_time(lambda: mirror_halved(n), args.repeat, warmup=False)
        t_one = best_time(lambda: engine.count(Problem(n), threads=1), args.repeat, warmup=False)
        t_all = best_time(lambda: engine.count(Problem(n), threads=threads), args.repeat, warmup=False)
        print(
            f"| {n} | {t_base:.3f} | {t_one:.3f} | {t_all:.3f} | {t_base / t_one:.2f} | "
            f"{t_one / t_all:.2f} | {base_nodes / res.nodes:.2f} |",
            flush=True,
        )
        at_target = n == TARGET_N
        ratios += [
            (
                f"n = {n}: time, mirror-halved / engine (1 thread)",
                t_base / t_one,
                SYMMETRIC_TARGET if at_target else None,
            ),
            (
                f"n = {n}: time, engine 1 thread / {threads} threads",
                t_one / t_all,
                THREADS_TARGET if at_target and threads == 2 else None,
            ),
            (f"n = {n}: nodes, mirror-halved / engine", base_nodes / res.nodes, None),
        ]
    print()
    print(
        f"fresh process `queenslab count 8` (numba cache warm), best of {max(3, args.repeat)}: "
        f"{fresh_process_seconds(max(3, args.repeat)):.2f} s"
    )
    if args.plot:
        from queenslab.plot import ratios as ratio_chart

        save_plot(
            ratio_chart(ratios, title="Native counting: the symmetric engine against a mirror-halved counter"),
            args.plot,
        )


if __name__ == "__main__":
    main()
