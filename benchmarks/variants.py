"""Edited variants on every backend: the native engine against CP-SAT and SAT.

For each n and each variant (bounds on regions of cells, a camel leaper), in one run:
the time to count all solutions with the native engine (one thread), CP-SAT (integer
formulation) and SAT enumeration (pysat, pairwise encoding), measured interleaved
(native, cpsat, sat, native, cpsat, sat, ...) and reported as medians, with the ratios
cpsat / native and sat / native. Every count is checked against the native one: a
disagreement stops the run.

``--plot F`` draws the ratios cpsat / native and sat / native of the last n as bars.

``--join-variants`` measures instead the native engine's two counters of blocked cells
and fixed queens: the half-board join against the general search, one thread each, CPU
time, interleaved (join, general, then general, join, ...), the minimum of the rounds; the
join's row splits and quarter tables are built again for every count. Every count is
checked against the other.

Usage: ``python benchmarks/variants.py [--ns 8 9 10 11 12] [--repeat 3] [--quick] [--plot F]``
or ``python benchmarks/variants.py --join-variants [--ns 14 15 16] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

from queenslab.backends import get_backend
from queenslab.models import cnf, cpsat
from queenslab.native import engine, join
from queenslab.problem import Problem, Region

BACKENDS = [
    ("native", lambda p: engine.count(p, threads=1)),
    ("cpsat", lambda p: get_backend("cpsat").count(p, model=cpsat.build(p))),
    ("sat", lambda p: get_backend("sat").count(p, model=cnf.build(p))),
]


def variants(n: int) -> list[tuple[str, Problem]]:
    """The edited problems of size n: three region constraints and a leaper."""
    half = n // 2
    diagonals = Region([(i, i) for i in range(n)] + [(i, n - 1 - i) for i in range(n)], at_most=0)
    quadrant = Region([(r, c) for r in range(half) for c in range(half)], at_least=2, at_most=2)
    first_row = Region([(0, c) for c in range(1, n, 2)], at_least=1)
    return [
        ("no queen on a main diagonal", Problem(n, regions=[diagonals])),
        ("exactly 2 in the top-left quadrant", Problem(n, regions=[quadrant])),
        ("first row's queen in an even column", Problem(n, regions=[first_row])),
        ("camel leaper (1, 3)", Problem(n, leapers=[(1, 3)])),
    ]


def join_variants(n: int) -> list[tuple[str, Problem]]:
    """Blocked and fixed cells of size n: random cells (seeded by n), fixed queens of a
    solution, and the corners (kept by every symmetry: the join's reduced row splits)."""
    rng = random.Random(n)
    cells = [(r, c) for r in range(n) for c in range(n)]
    solution = engine.solve(Problem(n))
    assert solution is not None
    last = n - 1
    return [
        ("3 random cells blocked", Problem(n, blocked=rng.sample(cells, 3))),
        (f"{n} random cells blocked", Problem(n, blocked=rng.sample(cells, n))),
        ("1 fixed queen", Problem(n, fixed=[(1, n // 3)])),
        ("3 fixed queens of a solution", Problem(n, fixed=[(r, solution[r]) for r in (1, n // 2, n - 2)])),
        ("the 4 corners blocked", Problem(n, blocked=[(0, 0), (0, last), (last, 0), (last, last)])),
    ]


def _cpu(fn, p: Problem) -> tuple[int, float]:
    t0 = time.process_time()
    found = fn(p)
    return found, time.process_time() - t0


def _by_join(p: Problem) -> int:
    join._masked_prepared.cache_clear()  # every count builds its tables
    return join.problem_total(p, threads=1, force=True)


def _by_general(p: Problem) -> int:
    return engine.count_both(p, unique=False, method="general", threads=1, force=True).count


def main_join_variants(ns: list[int], repeat: int) -> None:
    """The join against the general search on blocked and fixed cells (see the module docstring)."""
    print_metadata(run_metadata(1))
    for p in (Problem(8, blocked=[(0, 1)]), Problem(9, fixed=[(0, 1)])):  # compilation outside the timings
        _by_join(p), _by_general(p)
    print()
    print(f"CPU seconds to count the total (one thread), minimum of {repeat} interleaved rounds;")
    print(f"auto picks the join from {engine.JOIN_VARIANTS_FROM} rows without a fixed queen.")
    print()
    print("| n | constraints | solutions | join (s) | general (s) | general / join | auto |")
    print("|---|---|---|---|---|---|---|")
    for n in ns:
        for name, p in join_variants(n):
            times: dict[str, list[float]] = {"join": [], "general": []}
            counts = {}
            for r in range(repeat):
                order = [("join", _by_join), ("general", _by_general)]
                for method, fn in order if r % 2 == 0 else order[::-1]:
                    counts[method], t = _cpu(fn, p)
                    times[method].append(t)
            if counts["join"] != counts["general"]:
                raise SystemExit(f"n = {n}, {name}: the join and the general search disagree: {counts}")
            tj, tg = min(times["join"]), min(times["general"])
            print(
                f"| {n} | {name} | {counts['join']:,} | {tj:.4f} | {tg:.4f} | {tg / tj:.1f} | "
                f"{engine.chosen_method(p, threads=1)} |",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=None, help="default 8..12 (--join-variants: 14 15 16)")
    ap.add_argument(
        "--join-variants", action="store_true", help="the join against the general search on blocked and fixed cells"
    )
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds per problem (medians are reported)")
    ap.add_argument("--quick", action="store_true", help="n = 6, 7, one round: a smoke test")
    add_plot_option(ap, "the ratios cpsat / native and sat / native of the last n")
    args = ap.parse_args()
    if args.join_variants:
        main_join_variants(args.ns or [14, 15, 16], args.repeat)
        return
    args.ns = args.ns or [8, 9, 10, 11, 12]
    check_plot(ap, args.plot)
    if args.quick:
        args.ns, args.repeat = [6, 7], 1
    print_metadata(run_metadata(1))
    for _, fn in BACKENDS:  # imports and compilation outside the timings
        for _, p in variants(6):
            fn(p)
    print()
    print("Median seconds to count every solution of an edited variant (one thread / one worker),")
    print(f"{args.repeat} interleaved rounds; ratio = backend time / native time.")
    print()
    print("| n | variant | solutions | native (s) | cpsat (s) | sat (s) | cpsat / native | sat / native |")
    print("|---|---|---|---|---|---|---|---|")
    slowest_ratio = float("inf")
    last: list[tuple[str, float]] = []
    for n in args.ns:
        last = []
        for name, p in variants(n):
            times: dict[str, list[float]] = {b: [] for b, _ in BACKENDS}
            counts: dict[str, int] = {}
            for _ in range(args.repeat):
                for backend, fn in BACKENDS:
                    t0 = time.perf_counter()
                    counts[backend] = fn(p)
                    times[backend].append(time.perf_counter() - t0)
            if len(set(counts.values())) != 1:
                raise SystemExit(f"n = {n}, {name}: the backends disagree: {counts}")
            med = {b: statistics.median(ts) for b, ts in times.items()}
            r_cpsat, r_sat = med["cpsat"] / med["native"], med["sat"] / med["native"]
            slowest_ratio = min(slowest_ratio, r_cpsat, r_sat)
            last += [(f"{name}: cpsat / native", r_cpsat), (f"{name}: sat / native", r_sat)]
            print(
                f"| {n} | {name} | {counts['native']} | {med['native']:.4f} | {med['cpsat']:.4f} | "
                f"{med['sat']:.4f} | {r_cpsat:.1f} | {r_sat:.1f} |",
                flush=True,
            )
    print()
    verdict = "fastest on every problem" if slowest_ratio > 1 else "NOT the fastest on every problem"
    print(f"native: {verdict} (smallest ratio of a solver to native: {slowest_ratio:.1f})")
    if args.plot:
        from queenslab.plot import ratios

        title = f"Edited variants, n = {args.ns[-1]}: solver time / native time (> 1: native faster)"
        save_plot(ratios(last, title=title), args.plot)


if __name__ == "__main__":
    main()
