"""Reproduce the Wirth-variants paper's Tables 2 and 4 for queenslab's seed algorithms.

"The N queens problem - new variants of the Wirth algorithm" times
five counting algorithms in Java (Table 2) and gives the ratio of the basic
backtracking time to each other algorithm's (Table 4). This script measures our
numba versions of them (:mod:`queenslab.native.seeds`) in one run, plus the plain
backtracking of the ranking and backtracking papers, a bitmask backtracker and, as the last column,
the package's symmetric engine counting fundamental solutions on one thread.

Every count is checked against OEIS A000170 (the engine's against A002562); a
wrong count aborts the run. Kernels are compiled (or loaded from numba's cache)
on a small board first, so compile time is excluded; each time is the best of
``--repeat`` calls after one checking call.

``--plot F`` draws the ratios time(basic) / time(algorithm) at --max-n as bars.

Usage::

    python benchmarks/algorithms.py [--min-n 10] [--max-n 15] [--repeat 3] [--quick] [--plot F]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))  # run from a source checkout without installing
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

from common import add_plot_option, best_time, check_plot, print_metadata, run_metadata, save_plot  # noqa: E402

from queenslab.data import known_total, known_unique  # noqa: E402
from queenslab.native.seeds import SeedAlgorithm, count_with  # noqa: E402

ENGINE = "symmetric engine"


def _engine_counter():
    """Return ``f(n)`` counting fundamental solutions with the engine, or None."""
    try:
        from queenslab.native import engine
        from queenslab.problem import Problem

        count = engine.count
    except (ImportError, AttributeError):
        return None

    def run(n: int) -> int:
        return count(Problem(n), unique=True, threads=1)

    return run


def _fail(message: str) -> None:
    print(f"\nFATAL: {message}", file=sys.stderr)
    raise SystemExit(1)


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    fmt = lambda cells: "| " + " | ".join(c.rjust(w) for c, w in zip(cells, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 1) + ":" for w in widths) + "|"
    return "\n".join([fmt(header), sep, *(fmt(r) for r in rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-n", type=int, default=10, help="smallest board (default 10)")
    parser.add_argument("--max-n", type=int, default=15, help="largest board (default 15)")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per cell (default 3)")
    parser.add_argument("--quick", action="store_true", help="smoke test: n = 8..10, repeat 1")
    add_plot_option(parser, "the ratios time(basic) / time(algorithm) at --max-n")
    args = parser.parse_args(argv)
    check_plot(parser, args.plot)
    if args.quick:
        args.min_n, args.max_n, args.repeat = 8, 10, 1
    if not 1 <= args.min_n <= args.max_n <= 32:
        parser.error("need 1 <= --min-n <= --max-n <= 32")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    print_metadata(run_metadata(threads=1))
    print(f"# repeat: {args.repeat} (best of; after one checking call)")
    print()

    algorithms = list(SeedAlgorithm)
    engine = _engine_counter()
    columns = [a.value for a in algorithms] + [ENGINE]

    # Compile (or load from numba's cache) before timing anything.
    for a in algorithms:
        count_with(a, 6)
    if engine is not None:
        engine(6)

    sizes = list(range(args.min_n, args.max_n + 1))
    times: dict[int, dict[str, float | None]] = {}
    for n in sizes:
        row: dict[str, float | None] = {}
        for a in algorithms:
            got = count_with(a, n)
            if got != known_total(n):
                _fail(f"{a.value} counted {got} solutions for n = {n}, expected {known_total(n)}")
            row[a.value] = best_time(lambda a=a: count_with(a, n), args.repeat, warmup=False)
            print(f"  n={n} {a.value}: {row[a.value] * 1e3:.3f} ms", file=sys.stderr, flush=True)
        if engine is not None:
            got = engine(n)
            if got != known_unique(n):
                _fail(f"{ENGINE} counted {got} fundamental solutions for n = {n}, expected {known_unique(n)}")
            row[ENGINE] = best_time(lambda: engine(n), args.repeat, warmup=False)
        else:
            row[ENGINE] = None
        times[n] = row

    header = ["n", *columns]
    ms_rows = [
        [str(n)] + [("n/a" if times[n][c] is None else f"{times[n][c] * 1e3:.3f}") for c in columns] for n in sizes
    ]
    ratio_rows = [
        [str(n)] + [("n/a" if times[n][c] is None else f"{times[n]['basic'] / times[n][c]:.3f}") for c in columns]
        for n in sizes
    ]
    print("## Times in ms (the Wirth-variants paper, Table 2)")
    print()
    print(_table(header, ms_rows))
    print()
    print("## Ratio time(basic) / time(algorithm) (the Wirth-variants paper, Table 4)")
    print()
    print(_table(header, ratio_rows))
    print()
    print("Columns:")
    for a in algorithms:
        print(f"* {a.value}: {a.description}")
    if engine is None:
        print(f"* {ENGINE}: n/a (queenslab.native.engine.count is not importable)")
    else:
        print(f"* {ENGINE}: engine.count(Problem(n), unique=True, threads=1) -- counts fundamental solutions")
    if args.plot:
        from queenslab.plot import ratios

        n = sizes[-1]
        rows = [(c, times[n]["basic"] / t) for c in columns if (t := times[n][c]) is not None]
        title = f"The Wirth-variants paper's algorithms: time(basic) / time(algorithm), n = {n}"
        save_plot(ratios(rows, title=title), args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
