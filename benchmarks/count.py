"""Native counting speed: the symmetric engine against a mirror-halved bitboard counter.

Prints, for each n, in one run:

* the textbook baseline -- a numba bitboard backtracker that puts the first-row queen in
  the left half only and doubles (plus the middle column for odd n), written here;
* the engine's symmetric counter on one thread and on all threads;
* the ratios baseline / engine(1 thread) and engine(1) / engine(all);
* the node counts of both searches;

and the wall time of ``queenslab count 8`` as a fresh process with the numba cache warm.

Then the comparison with C: ``benchmarks/ref/takaken.c``, the same symmetry-classifying
algorithm (Takaken's: total and unique in one pass) written in C, is compiled with
``cc -O3 -march=native`` (or ``gcc``) and run against ``count_both(Problem(n), unique=True,
threads=1)`` interleaved (C, engine, C, engine, ... for ``--rounds`` rounds), at
``--c-ns`` (default n = 16, 17); the table gives every round, the medians, the ratio
engine / C (target <= 0.8, docs/performance.md) and the node counts of both. Without a C
compiler this section says so and is skipped.

Then the join against E. Kluev's N-Queens-Count-Sol (the quarter-board join counter whose
idea :mod:`queenslab.native.join` follows): the program is built outside the repository,
once per n with its default settings, by ``benchmarks/ref/build_counters.sh`` into the
directory of public counters that ``benchmarks/counters.py`` also uses, given by
``--counters DIR`` (or ``$QUEENSLAB_COUNTERS``; the builds are ``kluev-n16``, ...). It is run
on one thread against ``join.join_total(n, threads=1)`` interleaved (Kluev, join, Kluev,
join, ... for ``--rounds`` rounds) at ``--join-ns`` (default n = 16, 17, 18); the table gives
every round (wall and, for Kluev, CPU time), the medians of the wall times and the ratio
join / Kluev (target <= 1.0, aiming at 0.8), naming the CPU and its vector extensions.
Without a build for some n, the Kluev side is skipped with the reason, and the join is
timed alone.

``--plot F`` draws the ratios of the run as bars, with the targets of docs/benchmarks.md at
n = 16 (the engine >= 2.2x the baseline on one thread; two threads >= 1.7x one) and the
C comparison drawn as C / engine (target >= 1 / 0.8 = 1.25).

Usage: ``python benchmarks/count.py [--ns 14 15 16] [--repeat 3] [--c-ns 16 17] [--rounds 3]
[--no-c] [--counters DIR] [--join-ns 16 17 18] [--no-join] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import counters
from common import add_plot_option, best_time, check_plot, print_metadata, run_metadata, save_plot

from queenslab.data import known_total, known_unique
from queenslab.native import engine, join
from queenslab.native.methods import host_features
from queenslab.native.seeds import bitwise_with_nodes
from queenslab.problem import Problem

#: The targets (docs/benchmarks.md), stated at n = 16: engine(1) against the baseline, and
#: two threads against one.
TARGET_N, SYMMETRIC_TARGET, THREADS_TARGET = 16, 2.2, 1.7
#: The target against C (docs/performance.md): engine(1 thread) / C at most this.
C_TARGET = 0.8
#: The C reference: Takaken's symmetric counter, single-threaded.
C_SOURCE = Path(__file__).resolve().parent / "ref" / "takaken.c"
C_FLAGS = ["-O3", "-march=native"]
#: The join's target against E. Kluev's program: join / Kluev at most this (aim: 0.8).
JOIN_TARGET, JOIN_AIM = 1.0, 0.8


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


def c_compiler() -> str | None:
    """The C compiler to use (``$CC``, ``cc`` or ``gcc``), or None."""
    for name in (os.environ.get("CC"), "cc", "gcc"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def build_c(outdir: str) -> tuple[str, str, str] | None:
    """Compile the C reference twice (timed build; a build that also counts nodes).

    Returns (compiler command line, timed binary, node-counting binary), or None without
    a compiler."""
    cc = c_compiler()
    if cc is None:
        return None
    timed = os.path.join(outdir, "takaken")
    counting = os.path.join(outdir, "takaken_nodes")
    subprocess.run([cc, *C_FLAGS, "-o", timed, str(C_SOURCE)], check=True)
    subprocess.run([cc, *C_FLAGS, "-DNODES_ON", "-o", counting, str(C_SOURCE)], check=True)
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()
    return f"{cc} {' '.join(C_FLAGS)} ({version[0] if version else 'unknown version'})", timed, counting


def simd_features() -> str:
    """The vector instruction sets LLVM sees on this CPU (the symmetric counter's lanes are
    vectorised with them; without AVX2 the engine runs its scalar search)."""
    try:
        features = host_features()
    except RuntimeError:  # llvmlite cannot read the features on some platforms
        return "unknown"
    found = [f for f in ("avx512f", "avx512vl", "avx2", "sse4.2", "neon") if features.get(f)]
    return ", ".join(found) or "none of avx2, avx512f, neon"


def run_c(binary: str, n: int, *extra: str) -> tuple[float, list[int]]:
    """(wall seconds, the numbers printed) of one run of the C reference."""
    t0 = time.perf_counter()
    out = subprocess.run([binary, str(n), *extra], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, [int(x) for x in out.split()]


def compare_with_c(ns: list[int], rounds: int) -> list[tuple[str, float, float | None]]:
    """Print the C section: rounds interleaved C / engine, medians, ratios, node counts."""
    print()
    print("## The engine against C (the same algorithm, one thread)")
    print()
    with tempfile.TemporaryDirectory(prefix="queenslab-cref-") as tmp:
        built = build_c(tmp)
        if built is None:
            print("no C compiler found (tried $CC, cc, gcc): the comparison with C is skipped")
            return []
        flags, timed, counting = built
        print(f"# C reference: {C_SOURCE.relative_to(C_SOURCE.parents[2])}, built with {flags}")
        print(f"# rounds: {rounds}, interleaved C, engine, C, engine, ...; the C time includes process start")
        print(f"# SIMD the engine's lanes can use (LLVM's host features): {simd_features()}")
        print(f"# the engine's symmetric kernel on this machine: {engine.SYM_KERNEL}")
        print()
        print("| n | round | C (s) | engine 1 thread (s) | engine / C |")
        print("|---|---|---|---|---|")
        summary = []
        ratios = []
        for n in ns:
            _, (c_total, c_unique, c_nodes) = run_c(counting, n, "--nodes")
            res = engine.count_both(Problem(n), unique=True, threads=1, method="symmetric")  # also warms the kernels
            expect = (known_total(n), known_unique(n))
            if (c_total, c_unique) != expect or (res.count, res.unique) != expect:
                raise SystemExit(
                    f"count mismatch at n={n}: C {c_total}/{c_unique}, engine {res.count}/{res.unique}, "
                    f"known {expect[0]}/{expect[1]}"
                )
            t_c, t_e = [], []
            for r in range(rounds):
                dt, out = run_c(timed, n)
                if out != [c_total, c_unique]:
                    raise SystemExit(f"C reference at n={n} printed {out}")
                t_c.append(dt)
                t0 = time.perf_counter()
                engine.count_both(Problem(n), unique=True, threads=1, method="symmetric")
                t_e.append(time.perf_counter() - t0)
                print(f"| {n} | {r + 1} | {t_c[-1]:.3f} | {t_e[-1]:.3f} | {t_e[-1] / t_c[-1]:.2f} |", flush=True)
            mc, me = statistics.median(t_c), statistics.median(t_e)
            summary.append((n, mc, me, c_nodes, res.nodes))
            # drawn as a speed-up like the other bars: C / engine, target 1 / C_TARGET
            ratios.append((f"n = {n}: time, C / engine (1 thread)", mc / me, 1 / C_TARGET))
        print()
        print(f"| n | C median (s) | engine median (s) | engine / C (target <= {C_TARGET}) | nodes C | nodes engine |")
        print("|---|---|---|---|---|---|")
        for n, mc, me, cn, en in summary:
            print(f"| {n} | {mc:.3f} | {me:.3f} | {me / mc:.2f} | {cn:,} | {en:,} |")
        if any(mc < 0.05 for _, mc, _, _, _ in summary):
            print()
            print("(below ~0.05 s the C time is mostly process start: those ratios only show that both run)")
        return ratios


def run_kluev(binary: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, the total printed) of one single-threaded run of Kluev's
    program."""
    run = counters.run_child([binary, "1"])
    if run.returncode != 0:
        raise SystemExit(f"Kluev's program exited with {run.returncode}: {run.err.strip()[-300:]}")
    try:
        total = counters.parse_kluev(run.out, 0).total
    except ValueError as e:
        raise SystemExit(f"Kluev's program: {e}: {run.out!r}") from None
    return run.wall, run.cpu, total


def compare_with_kluev(ns: list[int], rounds: int, where: str | None) -> list[tuple[str, float, float | None]]:
    """Print the join section: rounds interleaved Kluev / join on one thread, medians, ratios."""
    print()
    print("## The join against E. Kluev's N-Queens-Count-Sol (one thread, totals only)")
    print()
    print(f"# CPU: {counters.cpu_line()}")
    print(f"# load average (1, 5, 15 min): {counters.load_line()}")
    directory = Path(where) if where else None
    binaries: dict[int, str] = {}
    for n in ns:
        binary, why = counters.locate(counters.BY_NAME["kluev"], n, directory, {})
        if binary is None:
            print(f"# Kluev's program is skipped at n = {n}: {why}; the join is timed alone")
        else:
            binaries[n] = str(binary)
    info = directory / "BUILD-INFO" if directory else None
    if binaries and info is not None and info.is_file():
        for line in info.read_text().splitlines():
            if line.startswith("kluev:"):
                print(f"# Kluev's program: {directory}, {line}")
    print(f"# rounds: {rounds}, interleaved Kluev, join, Kluev, join, ...; the ratios are of wall times")
    ratios = []
    summary = []
    print()
    print("| n | round | Kluev wall (s) | Kluev CPU (s) | join 1 thread (s) | join / Kluev |")
    print("|---|---|---|---|---|---|")
    for n in ns:
        got = join.join_total(n, threads=1, force=True)  # also compiles the kernels
        if got != known_total(n):
            raise SystemExit(f"join count mismatch at n={n}: {got}, known {known_total(n)}")
        t_k, t_j = [], []
        for r in range(rounds):
            cpu = None
            if n in binaries:
                dt, cpu, total = run_kluev(binaries[n])
                if total != known_total(n):
                    raise SystemExit(f"Kluev's program at n={n} printed {total}, known {known_total(n)}")
                t_k.append(dt)
            t0 = time.perf_counter()
            join.join_total(n, threads=1, force=True)
            t_j.append(time.perf_counter() - t0)
            k = f"{t_k[-1]:.3f} | {cpu:.3f}" if t_k and cpu is not None else "- | -"
            ratio = f"{t_j[-1] / t_k[-1]:.2f}" if t_k else "-"
            print(f"| {n} | {r + 1} | {k} | {t_j[-1]:.3f} | {ratio} |", flush=True)
        mk = statistics.median(t_k) if t_k else None
        mj = statistics.median(t_j)
        summary.append((n, mk, mj))
        if mk:
            ratios.append((f"n = {n}: time, Kluev / join (1 thread)", mk / mj, 1 / JOIN_TARGET))
    print()
    print(f"| n | Kluev median (s) | join median (s) | join / Kluev (target <= {JOIN_TARGET}, aim {JOIN_AIM}) |")
    print("|---|---|---|---|")
    for n, mk, mj in summary:
        print(f"| {n} | {f'{mk:.3f}' if mk else '-'} | {mj:.3f} | {f'{mj / mk:.2f}' if mk else '-'} |")
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=[14, 15, 16])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--c-ns", type=int, nargs="+", default=[16, 17], help="n of the comparison with C")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the comparison with C")
    ap.add_argument("--no-c", action="store_true", help="skip the comparison with C")
    ap.add_argument(
        "--counters",
        metavar="DIR",
        help=f"directory of the public counters' builds, Kluev's kluev-nN among them (or ${counters.COUNTERS_ENV})",
    )
    ap.add_argument("--join-ns", type=int, nargs="+", default=[16, 17, 18], help="n of the join against Kluev")
    ap.add_argument("--no-join", action="store_true", help="skip the join against Kluev's program")
    ap.add_argument(
        "--quick", action="store_true", help="n = 10, 11 once, C at n = 11, 12, the join at n = 12: a smoke test"
    )
    add_plot_option(ap, "the ratios of the run")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.ns, args.repeat = [10, 11], 1
        args.c_ns, args.rounds = [11, 12], 2
        args.join_ns = [12]
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    threads = engine.default_threads()
    print_metadata(run_metadata(threads))
    bitwise_with_nodes(6)
    engine.count(Problem(6), threads=1)
    print()
    print(
        f"| n | mirror-halved (s) | engine 1 thread (s) | engine {threads} threads (s) | baseline / engine(1) | engine(1) / engine({threads}) | nodes baseline / engine |"
    )
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for n in args.ns:
        base_count, base_nodes = bitwise_with_nodes(n)
        res = engine.count_both(Problem(n), threads=1, method="symmetric")
        if not (base_count == res.count == known_total(n)):
            raise SystemExit(
                f"count mismatch at n={n}: baseline {base_count}, engine {res.count}, known {known_total(n)}"
            )
        t_base = best_time(lambda: bitwise_with_nodes(n), args.repeat, warmup=False)
        t_one = best_time(lambda: engine.count(Problem(n), threads=1, method="symmetric"), args.repeat, warmup=False)
        t_all = best_time(
            lambda: engine.count(Problem(n), threads=threads, method="symmetric"), args.repeat, warmup=False
        )
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
    if not args.no_c:
        ratios += compare_with_c(args.c_ns, args.rounds)
    if not args.no_join:
        ratios += compare_with_kluev(args.join_ns, args.rounds, args.counters or os.environ.get(counters.COUNTERS_ENV))
    if args.plot:
        from queenslab.plot import ratios as ratio_chart

        save_plot(
            ratio_chart(
                ratios,
                title="Native counting: the symmetric engine against a mirror-halved counter"
                + ("" if args.no_c else " and C"),
            ),
            args.plot,
        )


if __name__ == "__main__":
    main()
