"""Counting on every backend, with and without lex-leader symmetry breaking.

For each n (standard problem), in one run: the time to count all solutions with the
native engine, CP-SAT (integer and boolean formulations), SAT enumeration with pysat
(two cardinality encodings) and exact #SAT with Ganak; then the same with lex-leader
constraints (which count orbits); and the ratio plain / lex-leader for each.

``--plot F`` draws the ratios plain / unique of the last n as bars (with the target of
docs/benchmarks.md, lex-leader >= 4x faster for CP-SAT, when that n is 12).

Usage: ``python benchmarks/backends.py [--ns 8 9 10 11 12] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import time

from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

from queenslab.backends import get_backend
from queenslab.data import known_total, known_unique
from queenslab.models import cnf, cpsat
from queenslab.native import engine
from queenslab.problem import Problem


def _on(backend: str, p: Problem, unique: bool, build, **how) -> int:
    """A count through the backend of a model built here: with lex-leader constraints for
    the orbits (one search, as the models count them), plain for the total."""
    return get_backend(backend).count(
        p, unique=unique, model=build(p, symmetry="lex-leader" if unique else None, **how)
    )


CONFIGS = [
    ("native", lambda p, u: engine.count(p, unique=u, threads=1)),
    ("cpsat-integer", lambda p, u: _on("cpsat", p, u, cpsat.build, formulation="integer")),
    ("cpsat-boolean", lambda p, u: _on("cpsat", p, u, cpsat.build, formulation="boolean")),
    ("sat-pairwise", lambda p, u: _on("sat", p, u, cnf.build, encoding="pairwise")),
    ("sat-seqcounter", lambda p, u: _on("sat", p, u, cnf.build, encoding="seqcounter")),
    ("ganak", lambda p, u: _on("ganak", p, u, cnf.build)),
]
#: The target (docs/benchmarks.md): lex-leader makes CP-SAT count at least this much faster at n = 12.
TARGET_N, CPSAT_TARGET = 12, 4.0


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=[8, 9, 10, 11, 12])
    ap.add_argument("--quick", action="store_true", help="n = 6, 7: a smoke test")
    add_plot_option(ap, "the ratios plain / unique of the last n")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.ns = [6, 7]
    print_metadata(run_metadata(1))
    for _, fn in CONFIGS:  # imports and compilation outside the timings
        fn(Problem(5), False)
        fn(Problem(5), True)
    print()
    print("Seconds to count all solutions (plain) and all orbits (unique: lex-leader constraints;")
    print("the native engine counts orbits with its symmetric search instead); ratio = plain / unique.")
    print()
    print("| n | backend | plain (s) | unique (s) | plain / unique |")
    print("|---|---|---|---|---|")
    last: list[tuple[str, float, float | None]] = []
    for n in args.ns:
        last = []
        p = Problem(n)
        for name, fn in CONFIGS:
            total, t_plain = timed(fn, p, False)
            orbits, t_lex = timed(fn, p, True)
            if total != known_total(n) or orbits != known_unique(n):
                raise SystemExit(f"{name} n={n}: got {total}/{orbits}, known {known_total(n)}/{known_unique(n)}")
            print(f"| {n} | {name} | {t_plain:.3f} | {t_lex:.3f} | {t_plain / t_lex:.2f} |", flush=True)
            target = CPSAT_TARGET if n == TARGET_N and name.startswith("cpsat") else None
            last.append((name, t_plain / t_lex, target))
    if args.plot:
        from queenslab.plot import ratios

        title = f"Counting all solutions / all orbits (lex-leader), n = {args.ns[-1]}: time plain / unique"
        save_plot(ratios(last, title=title), args.plot)


if __name__ == "__main__":
    main()
