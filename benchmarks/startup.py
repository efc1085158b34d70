"""Start-up time of fresh processes: what a user waits for before the first answer.

In one run and interleaved (each command once per round, ``--repeat`` rounds, medians),
each as a new process with the numba cache warm:

* ``python -c pass`` -- the interpreter alone, the floor;
* ``python -c "import numba"`` -- what loading the compiler alone costs;
* ``queenslab --help`` (target < 0.3 s);
* ``queenslab check 2 4 1 3`` (target < 0.10 s of CPU: it loads neither numpy nor numba);
* ``queenslab count 8`` (target < 0.6 s; counted in plain Python, no numba);
* ``queenslab count 12`` (the numba engine with its cached kernels loaded);
* ``queenslab count 16 --unique --threads 1`` (target < 0.45 s of CPU: numpy, the join's
  kernels built ahead of time and the count itself), and the same with ``QUEENSLAB_AOT=0``:
  numba and the join's kernels loaded from numba's cache;
* ``queenslab count 12 --unique`` with the cache warm, and cold: a fresh
  ``NUMBA_CACHE_DIR`` each time, so that the first run after an install is measured,
  the compile of the symmetric search's kernels included (target < 5 s of CPU time, which
  is the wall-clock time on an idle machine: the compile runs on one thread).

Each figure is the wall-clock time and the CPU time (user + system) of the process; on a
shared machine the CPU time is the steadier of the two. The cold run is repeated
``--cold`` times (each a compile of a few seconds), within the first rounds.

Every ``queenslab`` command runs through this interpreter (``python -m queenslab``), so
the figures do not depend on the shell's ``PATH``.

``--baseline DIR`` runs every ``queenslab`` command a second time per round with
``PYTHONPATH=DIR`` (a checkout of another commit, e.g. made by ``git worktree add``), in
the same interleaved rounds, and prints the ratio of the two CPU medians: the start-up
change measured side by side.

Usage: ``python benchmarks/startup.py [--repeat 7] [--cold 3] [--baseline DIR] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

QUEENSLAB = [sys.executable, "-m", "queenslab"]
#: queenslab with the join's kernels built ahead of time turned off (numba's cache instead)
JUST_IN_TIME = ["env", "QUEENSLAB_AOT=0", *QUEENSLAB]
#: (label, argv, target seconds or None, whether the target is of CPU time): run with the
#: numba cache warm
COMMANDS = [
    ("python -c pass", [sys.executable, "-c", "pass"], None, False),
    ('python -c "import numba"', [sys.executable, "-c", "import numba"], None, False),
    ("queenslab --help", [*QUEENSLAB, "--help"], 0.3, False),
    ("queenslab check 2 4 1 3", [*QUEENSLAB, "check", "2", "4", "1", "3"], 0.10, True),
    ("queenslab count 8", [*QUEENSLAB, "count", "8"], 0.6, False),
    ("queenslab count 12", [*QUEENSLAB, "count", "12"], None, False),
    ("queenslab count 16 --unique --threads 1", [*QUEENSLAB, "count", "16", "--unique", "--threads", "1"], 0.45, True),
    (
        "the same, QUEENSLAB_AOT=0 (numba's cache)",
        [*JUST_IN_TIME, "count", "16", "--unique", "--threads", "1"],
        None,
        True,
    ),
    ("queenslab count 12 --unique", [*QUEENSLAB, "count", "12", "--unique"], None, False),
]
#: The first run after an install: a fresh numba cache. Its target is of CPU seconds.
COLD = ("queenslab count 12 --unique, cold cache", COMMANDS[-1][1], 5.0, True)


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of ``argv`` run as a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # run from a neutral directory: from a checkout's root, python would import that
    # checkout's package first, whatever the installed one or --baseline say
    done = subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tempfile.gettempdir()
    )
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with exit {done.returncode}: {done.stderr.strip()}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold(argv: list[str]) -> tuple[float, float]:
    """:func:`timed` with an empty numba cache of its own (``NUMBA_CACHE_DIR``): every
    kernel the command needs is compiled."""
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as fresh:
        return timed(argv, {**os.environ, "NUMBA_CACHE_DIR": fresh})


def baseline_env(directory: str) -> dict[str, str]:
    """The environment that makes ``python -m queenslab`` import the checkout in
    ``directory`` (its numba cache kept apart from this one's)."""
    root = os.path.abspath(directory)
    if not os.path.isfile(os.path.join(root, "queenslab", "__init__.py")):
        raise SystemExit(f"--baseline {directory}: no queenslab package there (give a checkout's root)")
    return {**os.environ, "PYTHONPATH": root}


def is_queenslab(argv: list[str]) -> bool:
    return argv[: len(QUEENSLAB)] == QUEENSLAB or argv[: len(JUST_IN_TIME)] == JUST_IN_TIME


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="interleaved rounds (medians are reported)")
    ap.add_argument("--cold", type=int, default=3, help="runs with a fresh numba cache (within the first rounds)")
    ap.add_argument(
        "--baseline", metavar="DIR", help="also run each queenslab command from the checkout DIR, interleaved"
    )
    ap.add_argument("--quick", action="store_true", help="two rounds, one cold run: a smoke test")
    add_plot_option(ap, "each command's median time against its target")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.repeat, args.cold = 2, 1
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not 0 <= args.cold <= args.repeat:
        ap.error("--cold must be between 0 and --repeat")
    print_metadata(run_metadata(1))
    print(f"# load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    base = baseline_env(args.baseline) if args.baseline else None
    for _, argv, _, _ in COMMANDS:  # warm the numba cache and the file cache once, untimed
        timed(argv)
        if base is not None and is_queenslab(argv):
            timed(argv, base)
    rows = [*COMMANDS, COLD] if args.cold else COMMANDS
    times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _, _ in rows}
    before: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _, _ in COMMANDS}
    for i in range(args.repeat):
        for label, argv, _, _ in COMMANDS:
            times[label].append(timed(argv))
            if base is not None and is_queenslab(argv):
                before[label].append(timed(argv, base))
        if i < args.cold:
            times[COLD[0]].append(cold(COLD[1]))
    print()
    print(
        f"Seconds of a fresh process, median of {args.repeat} interleaved round(s) "
        f"({args.cold} for the cold cache): wall-clock, and CPU (user + system):"
    )
    print()
    print("| command | wall median (s) | wall min (s) | wall max (s) | CPU median (s) | target | verdict |")
    print("|---|---|---|---|---|---|---|")
    plotted = []
    for label, _, target, of_cpu in rows:
        walls = [w for w, _ in times[label]]
        cpus = [c for _, c in times[label]]
        med, cpu = statistics.median(walls), statistics.median(cpus)
        measured = cpu if of_cpu else med
        verdict = "" if target is None else ("met" if measured < target else "NOT met")
        goal = "" if target is None else f"< {target} s" + (" CPU" if of_cpu else "")
        print(f"| `{label}` | {med:.3f} | {min(walls):.3f} | {max(walls):.3f} | {cpu:.3f} | {goal} | {verdict} |")
        if target is not None:
            plotted.append((label, target / measured, 1.0))
    print()
    if base is not None:
        print(f"Against the checkout {args.baseline}, interleaved (CPU medians; ratio < 1: this one is lighter):")
        print()
        print("| command | baseline CPU (s) | this CPU (s) | ratio |")
        print("|---|---|---|---|")
        for label, measured in before.items():
            if measured:
                old = statistics.median(c for _, c in measured)
                new = statistics.median(c for _, c in times[label])
                print(f"| `{label}` | {old:.3f} | {new:.3f} | {new / old:.2f} |")
        print()
    print(f"# load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.plot:
        from queenslab.plot import ratios

        save_plot(ratios(plotted, title="Start-up: target / median time (> 1: met)"), args.plot)


if __name__ == "__main__":
    main()
