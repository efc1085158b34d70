"""Public N-Queens counters against queenslab: CPU time of fresh processes, interleaved.

Runs, for each n (default 16 and 17), ``python -m queenslab count N --unique --threads T``
(T from ``--threads``, default 1; with ``--force`` beyond n = 18, which it otherwise refuses) as a fresh process (after one untimed run, so that the numba cache is warm) and each public
counter that has been built (with T threads where it takes a thread count; one that runs
on one thread only is left out when T > 1), round robin for ``--rounds`` rounds (queenslab, counter A,
counter B, ..., queenslab, A, B, ...). Every run is a child process; its CPU time is the
user + system time the child used (``resource.getrusage(RUSAGE_CHILDREN)`` deltas around
the run), and a program's figure is the minimum over the rounds. Each run's printed count
is parsed and checked against OEIS A000170 (and A002562 where the program prints the
unique count): a program that prints a wrong count, prints none or fails is flagged with
the reason and not timed further. Nothing is subtracted from queenslab's time (interpreter
start, imports, loading the compiled kernels from the cache are part of it, as process
start is part of the others'); the same count is also timed in this process
(``engine.count_both(Problem(n), unique=True, threads=T)``, CPU time by
``time.process_time``) and reported on its own row, as the kernel's time without start-up.

The counters (see :data:`COUNTERS`) are built outside the repository by
``benchmarks/ref/build_counters.sh`` from their public sources into one directory, given
by ``--counters DIR`` or ``$QUEENSLAB_COUNTERS``; ``--counter NAME=PATH`` points at one
program elsewhere (``{n}`` in PATH stands for the board size of a per-n build). A counter
with no build is skipped, and the reason printed.

Prints the run's metadata, the CPU and its vector flags, the load average before and after,
the build lines the build script recorded, every round, and a markdown table: program,
method, what it counts, and per n the minimum CPU time with its ratio to queenslab's fresh
process (program / queenslab: above 1 the program is slower); then the same for wall time,
which on a shared machine is less reliable.

Usage: ``python benchmarks/counters.py [--ns 16 17] [--rounds 3] [--threads 1] [--counters DIR]
[--counter NAME=PATH ...] [--timeout S] [--quick]``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from common import add_rounds_options, check_rounds_options, print_metadata, run_metadata

from queenslab.data import known_total, known_unique

#: Why a program that runs on one thread only is left out of a run with ``--threads`` above 1.
ONE_THREAD = "runs on one thread only"

#: The environment variable naming the directory of built counters.
COUNTERS_ENV = "QUEENSLAB_COUNTERS"


@dataclass(frozen=True)
class Parsed:
    """What a program printed: its total and, when it prints one, its unique count."""

    total: int
    unique: int | None = None


def _numbers(text: str) -> int:
    return int(text.replace(",", ""))


def parse_queenslab(out: str, n: int) -> Parsed:
    """``14772512 solutions of 16-queens (1846955 unique)`` (thousands separators allowed)."""
    m = re.search(r"^\s*([\d,]+) solutions of (\d+)-queens \(([\d,]+) unique\)", out, re.M)
    if not m or int(m.group(2)) != n:
        raise ValueError(f"no line '<total> solutions of {n}-queens (<unique> unique)'")
    return Parsed(_numbers(m.group(1)), _numbers(m.group(3)))


def parse_kluev(out: str, n: int) -> Parsed:
    """``Result: 14772512`` (the board size is compiled in, so n is not printed)."""
    m = re.search(r"^Result:\s*(\d+)\s*$", out, re.M)
    if not m:
        raise ValueError("no line 'Result: <total>'")
    return Parsed(int(m.group(1)))


def _table_row(out: str, n: int) -> list[int]:
    """The numbers of the row ``n: a b ...`` of a table printed one board size a line."""
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+):\s+(\d+)\s+(\d+)\b", line)
        if m and int(m.group(1)) == n:
            return [int(m.group(2)), int(m.group(3))]
    raise ValueError(f"no table row '{n}: <total> <unique> ...'")


def parse_takaken(out: str, n: int) -> Parsed:
    """``16:        14772512          1846955            1.43`` (total and unique)."""
    total, unique = _table_row(out, n)
    return Parsed(total, unique)


def parse_suzuki(out: str, n: int) -> Parsed:
    """``16:         14772512               0     000:00:00:04.07``: the unique column is
    always 0 (not counted), so only the total is taken."""
    return Parsed(_table_row(out, n)[0])


def parse_mqueens(out: str, n: int) -> Parsed:
    """``PASS N 16, Solutions           14772512, Expected ...`` (its own check is ignored)."""
    m = re.search(r"\bN\s+(\d+), Solutions\s+(\d+)", out)
    if not m or int(m.group(1)) != n:
        raise ValueError(f"no line 'N {n}, Solutions <total>'")
    return Parsed(int(m.group(2)))


def parse_nqueensfaf(out: str, n: int) -> Parsed:
    """``CpuSolver found 14772512 solutions in 8612 ms for N=16`` (after progress lines)."""
    m = re.search(r"CpuSolver found (\d+) solutions in \d+ ms for N=(\d+)", out)
    if not m or int(m.group(2)) != n:
        raise ValueError(f"no line 'CpuSolver found <total> solutions in <t> ms for N={n}'")
    return Parsed(int(m.group(1)))


@dataclass(frozen=True)
class Counter:
    """A public counter: how to find its build, run it on T threads, and read its count.

    Attributes
    ----------
    name : str
        The file name of its build (``NAME-nN`` when ``per_n``, else ``NAME``).
    title : str
        Its author and name, for the table.
    method : str
        Its algorithm, in a few words.
    per_n : bool
        The board size is compiled in: one build per n.
    args : callable
        (n, T) -> the command-line arguments after the program, for T threads.
    stdin : callable or None
        (n, T) -> what to write to its standard input.
    parse : callable
        (output, n) -> :class:`Parsed`; raises ValueError when the count is not found.
    threaded : bool
        It takes a thread count (else it runs on one thread only).
    """

    name: str
    title: str
    method: str
    per_n: bool
    args: Callable[[int, int], list[str]]
    parse: Callable[[str, int], Parsed]
    stdin: Callable[[int, int], str] | None = None
    threaded: bool = False


#: The public counters, in the order of the table (sources: see build_counters.sh).
COUNTERS = (
    Counter(
        "kluev",
        "E. Kluev, N-Queens-Count-Sol",
        "quarter-board join, bit-sliced counting",
        True,
        lambda n, t: [str(t)],  # its thread count
        parse_kluev,
        threaded=True,
    ),
    Counter(
        "takaken",
        "Takaken, N-Queens Solutions ver3.1",
        "symmetric backtracking (total and unique in one pass)",
        True,
        lambda n, t: [],
        parse_takaken,
    ),
    Counter(
        "suzuki-constellations",
        "I. Suzuki, 004GCC_constellation.c",
        "constellations: four border queens pre-placed under D4",
        True,
        lambda n, t: [],
        parse_suzuki,
    ),
    Counter(
        "nqueensfaf",
        "O. and T. Pöschl, NQueensFAF CpuSolver (Java)",
        "constellations: four border queens pre-placed under D4",
        False,
        lambda n, t: [],
        parse_nqueensfaf,
        lambda n, t: f"{n}\n{t}\n",  # N, then the thread count
        threaded=True,
    ),
    Counter(
        "m-queens",
        "sudden6, m-queens",
        "mirror half, bitboard backtracking with look-ahead pruning",
        False,
        lambda n, t: [str(n)],
        parse_mqueens,
    ),
)
BY_NAME = {c.name: c for c in COUNTERS}


def check(parsed: Parsed, n: int) -> str | None:
    """None if the printed counts are OEIS's, else what is wrong."""
    if parsed.total != known_total(n):
        return f"printed {parsed.total} solutions for n = {n}, OEIS A000170 gives {known_total(n)}"
    if parsed.unique is not None and parsed.unique != known_unique(n):
        return f"printed {parsed.unique} unique for n = {n}, OEIS A002562 gives {known_unique(n)}"
    return None


@dataclass
class Run:
    """One run of a program: CPU seconds (user + system of the child), wall seconds, exit
    code and output."""

    cpu: float
    wall: float
    returncode: int
    out: str
    err: str


def run_child(argv: list[str], stdin: str | None = None, timeout: float | None = None) -> Run:
    """Run ``argv`` to its end and measure it.

    The CPU time is the difference of ``getrusage(RUSAGE_CHILDREN)`` around the run, which
    holds the user and system time of every child reaped meanwhile (and of their own
    children); the benchmark runs one child at a time, so it is this one's.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=timeout)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:  # killed and reaped by subprocess.run
        code, out, err = -9, _text(e.stdout), f"timed out after {timeout} s"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(cpu, wall, code, out, err)


def _text(data: bytes | str | None) -> str:
    if isinstance(data, bytes):
        return data.decode(errors="replace")
    return data or ""


@dataclass
class Entry:
    """A program in the comparison: its command per n, its times, or why it is out."""

    key: str
    title: str
    method: str
    counts: str
    command: Callable[[int], list[str] | None]
    stdin: Callable[[int], str] | None
    parse: Callable[[str, int], Parsed]
    cpu: dict[int, list[float]] = field(default_factory=dict)
    wall: dict[int, list[float]] = field(default_factory=dict)
    why: dict[int, str] = field(default_factory=dict)

    def measure(self, n: int, timeout: float | None) -> str | None:
        """Run once at n, check the count and record the times; None, or why not timed."""
        argv = self.command(n)
        if argv is None:
            return self.why.get(n, "no build")
        run = run_child(argv, self.stdin(n) if self.stdin else None, timeout)
        if run.returncode != 0:
            tail = (run.err or run.out).strip().splitlines()[-1:] or ["no output"]
            return f"exited with {run.returncode}: {tail[0][:200]}"
        try:
            parsed = self.parse(run.out, n)
        except ValueError as e:
            return f"output not understood ({e})"
        wrong = check(parsed, n)
        if wrong:
            return f"WRONG COUNT: {wrong}"
        self.cpu.setdefault(n, []).append(run.cpu)
        self.wall.setdefault(n, []).append(run.wall)
        return None


def locate(counter: Counter, n: int, directory: Path | None, overrides: dict[str, str]) -> tuple[Path | None, str]:
    """(the build of ``counter`` for board size n, "") or (None, why there is none)."""
    if counter.name in overrides:
        path = Path(overrides[counter.name].replace("{n}", str(n)))
        where = f"--counter {counter.name}={overrides[counter.name]}"
    elif directory is not None:
        path = directory / (f"{counter.name}-n{n}" if counter.per_n else counter.name)
        where = f"{directory}"
    else:
        return None, f"no --counters DIR nor ${COUNTERS_ENV} (build with benchmarks/ref/build_counters.sh)"
    if not path.is_file():
        return None, f"no {path} ({where}; build it with benchmarks/ref/build_counters.sh)"
    if not os.access(path, os.X_OK):
        return None, f"{path} is not executable"
    return path, ""


def counter_entry(counter: Counter, directory: Path | None, overrides: dict[str, str], threads: int = 1) -> Entry:
    """The :class:`Entry` of a public counter on ``threads`` threads, its builds looked up
    per n when measured."""
    stdin = counter.stdin
    entry = Entry(
        counter.name,
        counter.title,
        counter.method,
        "total + unique" if counter.parse is parse_takaken else "total",
        lambda n: None,
        None if stdin is None else (lambda n: stdin(n, threads)),
        counter.parse,
    )

    def command(n: int) -> list[str] | None:
        if threads > 1 and not counter.threaded:
            entry.why[n] = ONE_THREAD
            return None
        path, why = locate(counter, n, directory, overrides)
        if path is None:
            entry.why[n] = why
            return None
        return [str(path), *counter.args(n, threads)]

    entry.command = command
    return entry


def beyond_limit(n: int) -> bool:
    """n is beyond queenslab's practical limit of a count (``engine.PRACTICAL_LIMIT``, 18
    now), which ``count N`` refuses without ``--force`` (and ``count_both`` without
    ``force=True``); forcing changes nothing else."""
    from queenslab.native.engine import PRACTICAL_LIMIT

    return n > PRACTICAL_LIMIT


def force(n: int) -> list[str]:
    """``["--force"]`` for an n beyond queenslab's practical limit of a count, else ``[]``."""
    return ["--force"] if beyond_limit(n) else []


def queenslab_entry(threads: int = 1) -> Entry:
    """queenslab as a fresh process on ``threads`` threads, as a user runs it."""
    return Entry(
        "queenslab",
        f"queenslab `count N --unique --threads {threads}` (fresh process)",
        "half-board join from n = 14 (symmetric backtracking below)",
        "total + unique",
        lambda n: [
            sys.executable,
            "-m",
            "queenslab",
            "count",
            str(n),
            "--unique",
            "--threads",
            str(threads),
            *force(n),
        ],
        None,
        parse_queenslab,
    )


def time_in_process(n: int, threads: int = 1) -> tuple[float, float]:
    """(CPU s, wall s) of ``engine.count_both(Problem(n), unique=True, threads=threads)``
    here, its counts checked."""
    from queenslab.native import engine
    from queenslab.problem import Problem

    c0, t0 = time.process_time(), time.perf_counter()
    res = engine.count_both(Problem(n), unique=True, threads=threads, force=beyond_limit(n))
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    wrong = check(Parsed(res.count, res.unique), n)
    if wrong:
        raise SystemExit(f"queenslab in process: {wrong}")
    return cpu, wall


def cpu_line() -> str:
    """The CPU's model name and its AVX2 / AVX-512 flags, from /proc/cpuinfo."""
    name, flags = "unknown CPU", set[str]()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and name == "unknown CPU":
                    name = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        return f"{name} (no /proc/cpuinfo)"
    vector = sorted(f for f in flags if f == "avx2" or f.startswith("avx512"))
    return f"{name}, {os.cpu_count()} logical cores; vector flags: {', '.join(vector) or 'no AVX2 / AVX-512'}"


def load_line() -> str:
    """The load average, or why there is none."""
    with contextlib.suppress(OSError):
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    return "unknown"


def parse_overrides(items: list[str], parser: argparse.ArgumentParser) -> dict[str, str]:
    """``NAME=PATH`` items as a dict, names checked against :data:`COUNTERS`."""
    found = {}
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not path:
            parser.error(f"--counter expects NAME=PATH, got {item!r}")
        if name not in BY_NAME:
            parser.error(f"--counter: unknown program {name!r} (one of {', '.join(BY_NAME)})")
        found[name] = path
    return found


def short_reason(why: str) -> str:
    """A table cell for a program not timed (the full reason is printed below the table)."""
    if why.startswith("WRONG COUNT"):
        return "**wrong count**, not timed"
    if why.startswith("no ") or "not executable" in why:
        return "not built"
    if why == ONE_THREAD:
        return "one thread only"
    return "failed, not timed"


def summary_table(entries: list[Entry], ns: list[int], times: str, reference: Entry) -> list[str]:
    """The markdown table of minimum ``times`` ("cpu" or "wall") and ratios to ``reference``."""
    label = "CPU" if times == "cpu" else times
    head = "| program | method | counts | " + " | ".join(f"n = {n}: {label} s (/ queenslab)" for n in ns) + " |"
    rows = [head, "|" + "---|" * (3 + len(ns))]
    for e in entries:
        cells = []
        for n in ns:
            mine, ref = getattr(e, times).get(n), getattr(reference, times).get(n)
            if not mine:
                cells.append(short_reason(e.why.get(n, "no run")))
            elif e is reference or not ref:
                cells.append(f"{min(mine):.3f}")
            else:
                cells.append(f"{min(mine):.3f} ({min(mine) / min(ref):.2f}x)")
        rows.append(f"| {e.title} | {e.method} | {e.counts} | " + " | ".join(cells) + " |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_rounds_options(ap, [16, 17], 3)
    ap.add_argument("--counters", metavar="DIR", help=f"directory of built counters (or ${COUNTERS_ENV})")
    ap.add_argument(
        "--counter", metavar="NAME=PATH", action="append", default=[], help="one program's build ({n}: board size)"
    )
    ap.add_argument("--threads", type=int, default=1, help="threads of every program that takes a count (default 1)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds one run may take (default 900)")
    args = ap.parse_args()
    check_rounds_options(ap, args, 4, 21)
    if not 1 <= args.threads <= 256:
        ap.error(f"--threads must be between 1 and 256, got {args.threads}")
    overrides = parse_overrides(args.counter, ap)
    where = args.counters or os.environ.get(COUNTERS_ENV)
    directory = Path(where) if where else None
    if directory is not None and not directory.is_dir():
        ap.error(f"counters directory {directory} does not exist")

    print_metadata(run_metadata(args.threads))
    import queenslab

    print(f"# queenslab imported from: {Path(queenslab.__file__).parent} (the child processes import the same)")
    print(f"# CPU: {cpu_line()}")
    print(f"# load average (1, 5, 15 min) before: {load_line()}")
    print(f"# counters: {directory or f'no directory (--counters DIR or ${COUNTERS_ENV})'}")
    if directory is not None and (directory / "BUILD-INFO").is_file():
        for line in (directory / "BUILD-INFO").read_text().splitlines():
            print(f"#   {line}")
    print(
        f"# rounds: {args.rounds}, round robin over the programs; times: minimum over the rounds of the"
        " child's user + system CPU time (and wall time), process start included"
    )

    ql = queenslab_entry(args.threads)
    entries = [ql, *(counter_entry(c, directory, overrides, args.threads) for c in COUNTERS)]
    in_process: dict[int, tuple[float, float]] = {}
    print()
    print("| n | round | program | CPU (s) | wall (s) |")
    print("|---|---|---|---|---|")
    for n in args.ns:
        warm = ql.measure(n, args.timeout)  # compiles the kernels into the cache if needed
        if warm is not None:
            raise SystemExit(f"queenslab count {n} failed: {warm}")
        ql.cpu[n].clear()
        ql.wall[n].clear()
        time_in_process(n, args.threads)  # compiles (or loads) the kernels in this process
        out: set[str] = set()
        for r in range(1, args.rounds + 1):
            for e in entries:
                if e.key in out:
                    continue
                why = e.measure(n, args.timeout)
                if why is not None:
                    if e is ql:
                        raise SystemExit(f"queenslab count {n} failed: {why}")
                    e.why[n] = why
                    out.add(e.key)
                    print(f"| {n} | {r} | {e.key} | not timed: {why} | |", flush=True)
                    continue
                print(f"| {n} | {r} | {e.key} | {e.cpu[n][-1]:.3f} | {e.wall[n][-1]:.3f} |", flush=True)
            cpu, wall = time_in_process(n, args.threads)
            best = in_process.get(n, (float("inf"), float("inf")))
            in_process[n] = (min(best[0], cpu), min(best[1], wall))
            print(f"| {n} | {r} | queenslab in process | {cpu:.3f} | {wall:.3f} |", flush=True)

    print()
    print(f"# load average (1, 5, 15 min) after: {load_line()}")
    from queenslab.native import engine
    from queenslab.problem import Problem

    methods = ", ".join(f"n = {n}: {engine.chosen_method(Problem(n))}" for n in args.ns)
    print(f"# queenslab's method ({methods}); the ratios are program / queenslab's fresh process")
    print()
    for line in summary_table(entries, args.ns, "cpu", ql):
        print(line)
    cells = " | ".join(f"{in_process[n][0]:.3f} ({in_process[n][0] / min(ql.cpu[n]):.2f}x)" for n in args.ns)
    print(
        f"| queenslab in process: `engine.count_both(Problem(n), unique=True, threads={args.threads})`, no start-up"
        f" | the same | total + unique | {cells} |"
    )
    print()
    for line in summary_table(entries, args.ns, "wall", ql):
        print(line)
    skipped = [(e.key, n, e.why[n]) for e in entries for n in args.ns if n in e.why]
    if skipped:
        print()
        for key, n, why in skipped:
            print(f"# {key} at n = {n}: skipped: {why}")


if __name__ == "__main__":
    main()
