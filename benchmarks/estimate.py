"""Estimated counts: the relative standard error each estimator reaches per second.

For each n (standard problem) and each method of :func:`queenslab.estimate.estimate`, on
one thread and on every core, the estimator runs for a time limit; the table gives the
probes made, the estimate against the exact count where one is known (queenslab.data,
n <= 27), the relative standard error reached, and that error scaled to 1 s and to 10 s
(the error of a mean falls as one over the square root of the time spent:
``rse * sqrt(seconds / t)``). Beside it, the time of the exact count where it is practical
(measured at n = 16). The CPU model, its vector flags and the load (``uptime``) come first:
the machine may be shared.

Usage: ``python benchmarks/estimate.py [--seconds S] [--ns 16 20 30 60] [--quick]``;
``--quick`` (n = 16 and 20, 1 s per run, every core only) takes well under 30 s.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import print_metadata, run_metadata

from queenslab import Problem
from queenslab.data import known_total
from queenslab.estimate import METHODS, estimate


def cpu() -> tuple[str, str]:
    """The CPU model and its wide vector flags, from /proc/cpuinfo."""
    model, flags = "unknown", set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model == "unknown":
                model = value.strip()
            if key.strip() == "flags" and not flags:
                flags = set(value.split())
    except OSError:
        pass
    wide = sorted(f for f in flags if f == "avx2" or f.startswith("avx512"))
    return model, " ".join(wide) or "none (no AVX2 / AVX-512)"


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit of each run (default 10)")
    parser.add_argument("--ns", type=int, nargs="+", default=[16, 20, 30, 60])
    parser.add_argument("--quick", action="store_true", help="n = 16, 20 for 1 s each on every core: a smoke test")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    ns, seconds, thread_counts = args.ns, args.seconds, sorted({1, cores})
    if args.quick:
        ns, seconds, thread_counts = [16, 20], 1.0, [cores]
    print_metadata(run_metadata(cores))
    model, wide = cpu()
    print(f"# cpu model: {model}")
    print(f"# vector flags: {wide}")
    print(f"# load: {load()}")
    estimate(Problem(12), method="knuth", samples=1000)  # the kernels loaded before timing

    if 16 in ns:
        from queenslab.native import engine

        t0 = time.perf_counter()
        exact16 = engine.count(Problem(16), threads=cores)
        print(f"# exact count of n = 16 on {cores} threads: {exact16:,} in {time.perf_counter() - t0:.2f} s")
    print(f"# each run: --time-limit {seconds:g} s; rse = relative standard error")
    print(
        f"{'n':>3} {'method':>10} {'threads':>7} {'probes':>12} {'estimate':>11} {'err/se':>7} "
        f"{'rse':>9} {'rse@1s':>9} {'rse@10s':>9} {'seconds':>7}"
    )
    for n in ns:
        known = known_total(n) if n <= 27 else None
        for method in METHODS:
            for threads in thread_counts:
                e = estimate(Problem(n), time_limit=seconds, method=method, threads=threads, seed=1)
                rse = e.relative_stderr
                zs = f"{(e.estimate - known) / e.stderr:+7.2f}" if known and e.stderr else f"{'-':>7}"
                print(
                    f"{n:>3} {method:>10} {threads:>7} {e.probes:>12,} {e.estimate:>11.4e} {zs} "
                    f"{rse:>9.3%} {rse * math.sqrt(e.seconds):>9.3%} {rse * math.sqrt(e.seconds / 10):>9.3%} "
                    f"{e.seconds:>7.2f}",
                    flush=True,
                )
    print(f"# load after: {load()}")


if __name__ == "__main__":
    main()
