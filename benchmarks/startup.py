"""Start-up time of fresh processes: what a user waits for before the first answer.

In one run and interleaved (each command once per round, ``--repeat`` rounds, medians),
each as a new process with the numba cache warm:

* ``python -c pass`` -- the interpreter alone, the floor;
* ``python -c "import numba"`` -- what loading the compiler alone costs;
* ``queenslab --help`` (target < 0.3 s);
* ``queenslab count 8`` (target < 0.6 s; counted in plain Python, no numba);
* ``queenslab count 12`` (the numba engine with its cached kernels loaded).

Every ``queenslab`` command runs through this interpreter (``python -m queenslab``), so
the figures do not depend on the shell's ``PATH``.

Usage: ``python benchmarks/startup.py [--repeat 7] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

#: (label, argv, target seconds or None)
COMMANDS = [
    ("python -c pass", [sys.executable, "-c", "pass"], None),
    ('python -c "import numba"', [sys.executable, "-c", "import numba"], None),
    ("queenslab --help", [sys.executable, "-m", "queenslab", "--help"], 0.3),
    ("queenslab count 8", [sys.executable, "-m", "queenslab", "count", "8"], 0.6),
    ("queenslab count 12", [sys.executable, "-m", "queenslab", "count", "12"], None),
]


def wall(argv: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with exit {done.returncode}: {done.stderr.strip()}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="interleaved rounds (medians are reported)")
    ap.add_argument("--quick", action="store_true", help="two rounds: a smoke test")
    add_plot_option(ap, "each command's median time against its target")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.repeat = 2
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    print_metadata(run_metadata(1))
    print(f"# load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for _, argv, _ in COMMANDS:  # warm the numba cache and the file cache once, untimed
        wall(argv)
    times: dict[str, list[float]] = {label: [] for label, _, _ in COMMANDS}
    for _ in range(args.repeat):
        for label, argv, _ in COMMANDS:
            times[label].append(wall(argv))
    print()
    print(f"Wall seconds of a fresh process, median of {args.repeat} interleaved round(s):")
    print()
    print("| command | median (s) | min (s) | max (s) | target | verdict |")
    print("|---|---|---|---|---|---|")
    rows = []
    for label, _, target in COMMANDS:
        ts = times[label]
        med = statistics.median(ts)
        verdict = "" if target is None else ("met" if med < target else "NOT met")
        goal = "" if target is None else f"< {target} s"
        print(f"| `{label}` | {med:.3f} | {min(ts):.3f} | {max(ts):.3f} | {goal} | {verdict} |")
        if target is not None:
            rows.append((label, target / med, 1.0))
    print()
    print(f"# load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.plot:
        from queenslab.plot import ratios

        save_plot(ratios(rows, title="Start-up: target / median time (> 1: met)"), args.plot)


if __name__ == "__main__":
    main()
