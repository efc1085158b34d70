"""Estimated counts: the relative standard error each estimator reaches per second.

For each n (standard problem) and each method of :func:`queenslab.estimate.estimate`, on
one thread and on every core, the estimator runs for a time limit; the table gives the
probes made, the estimate against the exact count where one is known (queenslab.data,
n <= 27), the relative standard error reached, and that error scaled to 1 s and to 10 s
(the error of a mean falls as one over the square root of the time spent:
``rse * sqrt(seconds / t)``). Beside it, the time of the exact count where it is practical
(measured at n = 16). The CPU model, its vector flags and the load (``uptime``) come first:
the machine may be shared.

n = 100 and beyond run on the wide kernels (:mod:`queenslab.native.wide_estimate`).

Usage: ``python benchmarks/estimate.py [--seconds S] [--ns 16 20 30 60 100] [--quick]
[--growth] [--paths N --samples K --rounds R]``;
``--quick`` (n = 16 and 20, 1 s per run, every core only) takes well under 30 s.
``--growth`` estimates n = 28, 32, ..., 128 (``--seconds`` each, every core) and compares
them with Simkin's asymptotics (M. Simkin, "The number of n-queens configurations",
2021): ``Q(n) = ((1 + o(1)) n exp(-alpha))**n`` with ``alpha = 1.942``, so that
``ln(Q(n)) / n - ln(n)`` tends to ``-alpha`` (slowly: the o(1) term is of order 1/n).
``--paths N`` runs the stratified estimator at n = N (at most 64) on the 64-bit and on the
wide kernels, one thread, ``K`` probes per run, interleaved 64-bit, wide, 64-bit, ... for
``R`` rounds: the two give the same estimate bit for bit, so the CPU time alone tells
their precision per second (``rse * sqrt(cpu seconds)``, the relative standard error one
CPU-second would reach).
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
    parser.add_argument("--ns", type=int, nargs="+", default=[16, 20, 30, 60, 100])
    parser.add_argument("--quick", action="store_true", help="n = 16, 20 for 1 s each on every core: a smoke test")
    parser.add_argument("--growth", action="store_true", help="estimates up to n = 128 against Simkin's asymptotics")
    parser.add_argument("--paths", type=int, default=None, metavar="N", help="64-bit against wide kernels at n = N")
    parser.add_argument("--samples", type=int, default=400_000, help="probes per run of --paths")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --paths")
    args = parser.parse_args()
    if args.growth:
        growth(args.seconds)
        return
    if args.paths is not None:
        paths(args.paths, args.samples, args.rounds)
        return
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
        f"{'rse':>9} {'rse@1s':>9} {'rse@10s':>9} {'rse@60s':>9} {'seconds':>7}"
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
                    f"{rse * math.sqrt(e.seconds / 60):>9.3%} {e.seconds:>7.2f}",
                    flush=True,
                )
    print(f"# load after: {load()}")


#: Simkin's constant (2021): the number of n-queens solutions is ((1 + o(1)) n e**-ALPHA)**n
#: with ALPHA = 1.942 +- 0.003 (queenslab.growth.ALPHA).
ALPHA = 1.942


def paths(n: int, samples: int, rounds: int) -> None:
    """The stratified estimator at n on the 64-bit and the wide kernels, interleaved."""
    import queenslab.estimate as E

    print_metadata(run_metadata(1))
    model, wide = cpu()
    print(f"# cpu model: {model}")
    print(f"# vector flags: {wide}")
    print(f"# load: {load()}")
    for force in (False, True):  # both kernels compiled before timing
        E._FORCE_WIDE = force
        estimate(Problem(n), samples=20_000, seed=0, threads=1)
    print(f"# n = {n}, stratified, {samples:,} probes per run, one thread; cpu = process CPU seconds")
    print(f"{'round':>5} {'kernels':>8} {'estimate':>11} {'rse':>8} {'cpu':>7} {'rse@1cpu-s':>10}")
    try:
        for r in range(rounds):
            for force in (False, True):
                E._FORCE_WIDE = force
                t0 = time.process_time()
                e = estimate(Problem(n), samples=samples, seed=r, threads=1, method="stratified")
                cpu_s = time.process_time() - t0
                rse = e.relative_stderr
                print(
                    f"{r:>5} {'wide' if force else '64-bit':>8} {e.estimate:>11.4e} {rse:>8.3%} {cpu_s:>7.2f} "
                    f"{rse * math.sqrt(cpu_s):>10.3%}",
                    flush=True,
                )
    finally:
        E._FORCE_WIDE = False
    print(f"# load after: {load()}")


def growth(seconds: float) -> None:
    """Estimates of Q(n) for n = 28..128 beside Simkin's asymptotics."""
    cores = len(os.sched_getaffinity(0))
    print_metadata(run_metadata(cores))
    print(f"# each n: --time-limit {seconds:g} s on {cores} threads; alpha = {ALPHA}")
    print(f"{'n':>3} {'estimate':>11} {'rse':>8} {'ln(Q)/n - ln(n)':>16} {'(n e^-alpha)^n':>15} {'ratio^(1/n)':>11}")
    for n in range(28, 129, 4):
        e = estimate(Problem(n), time_limit=seconds, seed=1)
        c = math.log(e.estimate) / n - math.log(n)
        print(
            f"{n:>3} {e.estimate:>11.4e} {e.relative_stderr:>8.3%} {c:>16.4f} "
            f"{(n * math.exp(-ALPHA)) ** n:>15.4e} {math.exp(c + ALPHA):>11.4f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
