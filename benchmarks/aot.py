"""The join's kernels built ahead of time against the same kernels compiled just in time:
the whole standard count of each n in this process, interleaved.

For each n (default 16, 17 and 18) and each of ``--rounds`` rounds, the join's count of
every task (``join_count`` over all of ``join_tasks``, the quarter tables built once) runs
with the module of :mod:`queenslab.native.aot` and with :mod:`queenslab.native.join_kernels`
(numba's just-in-time dispatchers), one after the other, on one thread; each count is
checked against OEIS A000170. Prints the CPU seconds (``time.process_time``) of every run,
then per n the minimum of each and the ratio ahead-of-time / just-in-time (below 1 the
build ahead of time is faster). Both compile the same numba source with LLVM for this
machine's CPU, named and with its feature list as LLVM reads them; the build ahead of
time is one module, position-independent, and its wrappers are numba's for an extension
module.

Usage: ``python benchmarks/aot.py [--ns 16 17 18] [--rounds 5] [--quick]``
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from common import add_rounds_options, check_rounds_options, print_metadata, run_metadata

from queenslab.data import known_total
from queenslab.native import aot, join_kernels as JK


def timed(kernels: Any, n: int, prepared: tuple[np.ndarray, ...]) -> float:
    """CPU seconds of the join's count of every task of n by ``kernels``, its total checked."""
    tasks, words, offs, bases = prepared
    halt = np.zeros(1, np.int64)
    c0 = time.process_time()
    total = kernels.join_count(n, tasks, 0, len(tasks), words, offs, bases, halt)[0]
    cpu = time.process_time() - c0
    if total != known_total(n):
        raise SystemExit(f"n = {n}: {total} solutions, OEIS A000170 says {known_total(n)}")
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_rounds_options(ap, [16, 17, 18], 5)
    args = ap.parse_args()
    check_rounds_options(ap, args, 4, 19)
    built = aot.load()
    if built is None:
        reason = aot.build() if aot.enabled() else f"{aot.ENV}=0 in the environment"
        built = aot.load()
        if built is None:
            why = f"the join's kernels cannot be built ahead of time here: {reason}"
            if args.quick:  # a smoke test where there is no C compiler: nothing to compare
                print(f"# skipped: {why}")
                return
            raise SystemExit(why)
    print_metadata(run_metadata(1))
    print(f"# the module built ahead of time: {aot.path()}")
    print()
    print("| n | round | ahead of time, CPU s | just in time, CPU s |")
    print("|---|---|---|---|")
    best: dict[int, tuple[float, float]] = {}
    halt = np.zeros(1, np.int64)
    for n in args.ns:
        prepared = (JK.join_tasks(n), *JK.quarter_tables(n, halt))
        timed(JK, n, prepared)  # compiles or loads the just-in-time kernels
        for r in range(1, args.rounds + 1):
            ahead, jit = timed(built, n, prepared), timed(JK, n, prepared)
            print(f"| {n} | {r} | {ahead:.3f} | {jit:.3f} |", flush=True)
            a, j = best.get(n, (float("inf"), float("inf")))
            best[n] = (min(a, ahead), min(j, jit))
    print()
    print("| n | ahead of time, min CPU s | just in time, min CPU s | ratio |")
    print("|---|---|---|---|")
    for n, (a, j) in best.items():
        print(f"| {n} | {a:.3f} | {j:.3f} | {a / j:.2f}x |")


if __name__ == "__main__":
    main()
