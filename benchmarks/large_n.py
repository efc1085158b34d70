"""Large boards: time to one verified solution by every method, the large-n targets,
success rates over seeds, and N. Gupta's n -> n+1 extension pattern.

Prints, in one run:

* **Table A** -- time to one verified solution for every method of ``queenslab solve``
  (construct, minconflicts, selfcorrect, ga, ga --improve, aco, backtrack, cpsat, sat) as
  n grows (8 ... 10**7). Each method runs in its own worker process, warmed up first
  (numba kernels loaded or compiled, solver imported), which then solves every n in
  turn; the time includes the O(n) verification (``find_conflict``). A randomised method
  whose budget runs out (``Incomplete``) is restarted with the next seed (0, 1, 2, ...)
  and the time counts every seed. A method stops going up in n after a run that takes
  longer than ``--cap`` seconds (the worker is killed at the cap plus one second), runs
  out of memory (``--mem-limit`` GB of RSS) or reaches the method's size limit.
* **Performance targets** of the large-n work, each measured in a fresh process: construct +
  verify at n = 10**7 (< 2 s), its peak RSS (< 1 GB), min-conflicts at 10**6 (< 10 s) and
  at 10**4 (< 0.5 s; the self-correcting Queens program's run took 20 h 40 min) -- plus, for context,
  the self-correcting Queens program's own method at n = 10**4, and the numba compile time of a first process
  (empty cache) against the load time with a warm cache.
* **Table B** -- success rate over seeds 0 .. K-1 of the randomised methods at small n,
  within each method's default budget, with median times.
* **Table C** -- N. Gupta's n -> n+1 extension pattern (section 2.1): for which n
  the board it builds is a solution (``find_conflict``), by ``n mod 6``; the closed form
  is checked against repeated :func:`~queenslab.heuristics.extend` steps.

``--plot F`` draws the large-n targets as bars of limit / worst measured (> 1: met).

Usage: ``python benchmarks/large_n.py [--cap 20] [--seeds 20] [--repeat 3]
[--mem-limit 4] [--json FILE] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from common import add_plot_option, check_plot, print_metadata, run_metadata, save_plot

#: Columns of Table A: name -> (method of ``queenslab solve``, extra options).
METHODS = {
    "construct": ("construct", {}),
    "minconflicts": ("minconflicts", {}),
    "selfcorrect": ("selfcorrect", {}),
    "ga": ("ga", {}),
    "ga --improve": ("ga", {"improve": True}),
    "aco": ("aco", {}),
    "backtrack": ("backtrack", {}),
    "cpsat": ("cpsat", {}),
    "sat": ("sat", {}),
}
#: Restarted with the next seed when their budget runs out.
RESTARTED = ("minconflicts", "selfcorrect", "ga", "ga --improve", "aco")
FULL_NS = (8, 16, 32, 64, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000)
QUICK_NS = (8, 16, 100, 1000, 100_000)
#: Only these methods are tried at n = 10**7 (the others stop long before).
HUGE_METHODS = ("construct", "minconflicts")
SUCCESS_NS = (8, 10, 12, 20)
BUDGETS = {
    "minconflicts": "50n+500 steps per try, 100 restarts",
    "selfcorrect": "n*n moves per try, 1000 restarts",
    "ga": "10000 generations of 100",
    "ga --improve": "10000 generations of 100",
    "aco": "1000 iterations of 20 ants",
}


# ----------------------------------------------------------------------------- helpers


def fmt_s(seconds: float) -> str:
    """Seconds with three significant digits, never in exponent notation."""
    return np.format_float_positional(seconds, precision=3, unique=False, fractional=False, trim="-")


def solve_once(name: str, n: int, seed: int):
    """One run of Table A's method ``name`` (raises Incomplete / TooLarge as the method does)."""
    from queenslab.heuristics import solve

    method, opts = METHODS[name]
    return solve(n, method, seed=seed if name in RESTARTED else None, **opts)


def time_to_solution(name: str, n: int, cap: float) -> dict:
    """Solve and verify once, restarting a randomised method with seeds 0, 1, ... until
    a solution or ``cap`` seconds; the result as a dict (``status`` ok / cap / too-large / error)."""
    from queenslab.errors import Incomplete, TooLarge
    from queenslab.heuristics import find_conflict

    t0 = time.perf_counter()
    seed = 0
    while True:
        try:
            p = solve_once(name, n, seed)
        except TooLarge as e:
            return {"status": "too-large", "message": str(e)}
        except Incomplete as e:
            seed += 1
            elapsed = time.perf_counter() - t0
            if name not in RESTARTED or elapsed > cap:
                return {
                    "status": "cap" if elapsed > cap else "error",
                    "seconds": elapsed,
                    "seeds": seed,
                    "message": str(e),
                }
            continue
        if p is None:
            return {"status": "error", "message": f"no solution returned for n = {n}"}
        t1 = time.perf_counter()
        conflict = find_conflict(p)
        t2 = time.perf_counter()
        if conflict is not None:
            return {"status": "error", "message": f"not a solution: {conflict.message}"}
        return {"status": "ok", "seconds": t2 - t0, "verify_seconds": t2 - t1, "seeds": seed + 1}


def worker(name: str, cap: float, repeat: int) -> None:
    """``--worker NAME``: warm up, then answer one JSON line per n read from stdin."""
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything a library prints goes to stderr, not into the protocol
    t0 = time.perf_counter()
    for n in (5, 6):
        time_to_solution(name, n, cap)  # loads the kernels of the method and of the verifier
    proto.write(json.dumps({"ready": True, "warmup_seconds": time.perf_counter() - t0}) + "\n")
    proto.flush()
    for line in sys.stdin:
        n = int(line)
        res = time_to_solution(name, n, cap)
        if res["status"] == "ok" and res["seconds"] < 1.0 and repeat > 1:
            runs = [res] + [time_to_solution(name, n, cap) for _ in range(repeat - 1)]
            if all(r["status"] == "ok" for r in runs):
                res = dict(
                    res,
                    first_seconds=res["seconds"],
                    seconds=statistics.median(r["seconds"] for r in runs),
                    verify_seconds=statistics.median(r["verify_seconds"] for r in runs),
                    runs=len(runs),
                )
        proto.write(json.dumps(dict(res, n=n)) + "\n")
        proto.flush()


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MB (0 if unknown)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Worker:
    """A ``--worker`` subprocess for one method, with a time and a memory watchdog."""

    def __init__(self, name: str, cap: float, repeat: int, mem_limit_mb: float):
        self.name, self.cap, self.mem_limit_mb = name, cap, mem_limit_mb
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", name, "--cap", str(cap), "--repeat", str(repeat)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        self.buf = b""
        hello = self._read(timeout=600.0)
        self.warmup_seconds = hello["warmup_seconds"] if hello and "ready" in hello else None

    def _read(self, timeout: float) -> dict | None:
        deadline = time.perf_counter() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            now = time.perf_counter()
            if now > deadline:
                self.close()
                return {"status": "killed"}
            if self.mem_limit_mb and rss_mb(self.proc.pid) > self.mem_limit_mb:
                self.close()
                return {"status": "memory"}
            ready, _, _ = select.select([fd], [], [], min(0.1, deadline - now))
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    self.close()
                    return {"status": "error", "message": f"worker exited with code {self.proc.returncode}"}
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def run(self, n: int) -> dict:
        if self.proc.poll() is not None:
            return {"status": "error", "message": "worker not running"}
        self.proc.stdin.write(f"{n}\n".encode())
        res = self._read(timeout=self.cap + 1.0)
        return dict(res, n=n)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def cell(res: dict | None, cap: float, mem_limit_gb: float) -> str:
    if res is None:
        return "—"
    status = res["status"]
    if status == "ok":
        text = fmt_s(res["seconds"])
        return text + (f" ({res['seeds']} seeds)" if res.get("seeds", 1) > 1 else "")
    if status == "cap":
        return f"> {cap:g} ({res['seeds']} seeds, none solved)"
    if status == "killed":
        return f"> {cap:g}"
    if status == "memory":
        return f"> {mem_limit_gb:g} GB"
    if status == "too-large":
        return "n/a"
    return "ERROR"


def table_a(ns, names, cap: float, repeat: int, mem_limit_gb: float) -> dict:
    results: dict = {}
    warmups: dict = {}
    for name in names:
        w = Worker(name, cap, repeat, mem_limit_gb * 1024)
        warmups[name] = w.warmup_seconds
        results[name] = {}
        try:
            for n in ns:
                if n >= 10**7 and name not in HUGE_METHODS:
                    break
                res = w.run(n)
                results[name][n] = res
                print(f"  {name} n={n}: {cell(res, cap, mem_limit_gb)}", file=sys.stderr, flush=True)
                if res["status"] != "ok" or res["seconds"] > cap:
                    break
        finally:
            w.close()
    print(f"\n## Table A: seconds to one verified solution (cap {cap:g} s per run)\n")
    runs = f"the median of {repeat} runs" if repeat > 1 else "one run"
    print(
        f"Solve + O(n) verification in one warmed-up worker process per method; a cell under 1 s is "
        f"{runs}. A randomised method starts at seed 0 and restarts with the next seed "
        f"when its default budget runs out; the time counts every seed.\n"
    )
    print("| n | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(names))
    for n in ns:
        print(f"| {n:,} | " + " | ".join(cell(results[m].get(n), cap, mem_limit_gb) for m in names) + " |")
    print()
    print(
        "Warm-up (first calls at n = 5 and 6 in the worker, verified; numba kernels loaded from the cache or compiled, "
        "solvers imported), s: " + ", ".join(f"{m} {fmt_s(t) if t is not None else '?'}" for m, t in warmups.items())
    )
    notes = []
    for m in names:
        for n, res in results[m].items():
            if res["status"] == "too-large":
                notes.append(f"{m}: n/a from n = {n:,}: {res['message']}")
            elif res["status"] == "error":
                notes.append(f"{m} n = {n:,}: ERROR: {res.get('message')}")
    c7 = results.get("construct", {}).get(10**7)
    if c7 and c7["status"] == "ok":
        first = f"; first run {fmt_s(c7['first_seconds'])} s" if "first_seconds" in c7 else ""
        notes.append(
            f"construct n = 10,000,000: of {fmt_s(c7['seconds'])} s, verification (find_conflict) "
            f"{fmt_s(c7['verify_seconds'])} s{first}"
        )
    for note in notes:
        print(f"- {note}")
    return {"results": {m: {str(n): r for n, r in d.items()} for m, d in results.items()}, "warmup": warmups}


# ----------------------------------------------------------------------------- targets (fresh processes)

TARGET_SNIPPET = r"""
import json, resource, statistics, sys, time
t_start = time.perf_counter()
from queenslab.heuristics import construct, find_conflict, min_conflicts, self_correct
what, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if what == "construct":
    assert find_conflict(construct(8)) is None
else:
    assert find_conflict(min_conflicts(8)) is None and find_conflict(self_correct(8)) is None
base = peak_mb()
total, solve_s, verify_s, extra = [], [], [], {}
for i in range(runs):
    t0 = time.perf_counter()
    if what == "construct":
        p = construct(n)
    elif what == "minconflicts":
        p, st = min_conflicts(n, seed=i, return_stats=True)
        extra.setdefault("tries", []).append(st["tries"])
    else:
        p, st = self_correct(n, seed=i, return_stats=True)
        extra.setdefault("tries", []).append(st["tries"])
        extra.setdefault("iterations", []).append(st["iterations"])
    t1 = time.perf_counter()
    ok = find_conflict(p) is None
    t2 = time.perf_counter()
    assert ok, "not a solution"
    del p
    total.append(t2 - t0); solve_s.append(t1 - t0); verify_s.append(t2 - t1)
print(json.dumps({"what": what, "n": n, "runs": runs, "total": total, "solve": solve_s, "verify": verify_s,
                  "baseline_peak_mb": base, "peak_mb": peak_mb(), "process_seconds": time.perf_counter() - t_start,
                  **extra}))
"""

COMPILE_SNIPPET = r"""
import json, time
t = time.perf_counter()
import queenslab.heuristics as H
from queenslab.native import engine
from queenslab.problem import Problem
out = {"import": time.perf_counter() - t}
for name, fn in [("construct + find_conflict", lambda: H.find_conflict(H.construct(8))),
                 ("min_conflicts", lambda: H.min_conflicts(8)),
                 ("self_correct", lambda: H.self_correct(8)),
                 ("genetic", lambda: H.genetic(8, improve=True)),
                 ("ant_colony", lambda: H.ant_colony(6, seed=3)),
                 ("native engine.solve", lambda: engine.solve(Problem(8)))]:
    t = time.perf_counter()
    fn()
    out[name] = time.perf_counter() - t
print(json.dumps(out))
"""


def fresh(snippet: str, *args, env=None, timeout: float = 900.0) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", snippet, *map(str, args)], capture_output=True, text=True, env=env, timeout=timeout
    )
    if out.returncode != 0:
        raise SystemExit(f"fresh process {args} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def targets(repeat: int, quick: bool) -> dict:
    c = fresh(TARGET_SNIPPET, "construct", 10**7, repeat)
    m6 = fresh(TARGET_SNIPPET, "minconflicts", 10**6, repeat)
    m4 = fresh(TARGET_SNIPPET, "minconflicts", 10**4, 3 if quick else 10)
    rows = [
        ("construct + verify, n = 10,000,000", "< 2 s", c["total"], 2.0, "s"),
        ("min-conflicts + verify, n = 1,000,000", "< 10 s", m6["total"], 10.0, "s"),
        ("min-conflicts + verify, n = 10,000", "< 0.5 s", m4["total"], 0.5, "s"),
    ]
    print("\n## Large-n performance targets (each in a fresh process, after one warm-up call at n = 8)\n")
    print("| target | limit | first run | median | worst | runs (seeds) | verdict (worst run) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, limit, times, lim, _ in rows:
        worst = max(times)
        print(
            f"| {label} | {limit} | {fmt_s(times[0])} s | {fmt_s(statistics.median(times))} s | {fmt_s(worst)} s "
            f"| {len(times)} | {'PASS' if worst < lim else 'FAIL'} |"
        )
    peak = c["peak_mb"]
    print(
        f"| peak RSS of that process (construct + verify, n = 10,000,000) | < 1 GB | | | {peak:.0f} MB | "
        f"{len(c['total'])} | {'PASS' if peak < 1024 else 'FAIL'} |"
    )
    print()
    print(
        f"- construct n = 10,000,000: construct {fmt_s(statistics.median(c['solve']))} s + verify "
        f"{fmt_s(statistics.median(c['verify']))} s (medians); the whole fresh process (imports, warm-up, "
        f"{len(c['total'])} run{'s' if len(c['total']) > 1 else ''}) {fmt_s(c['process_seconds'])} s; peak RSS after imports and warm-up "
        f"{c['baseline_peak_mb']:.0f} MB, so the 10**7 board adds {peak - c['baseline_peak_mb']:.0f} MB."
    )
    print(
        f"- min-conflicts n = 1,000,000: solve {fmt_s(statistics.median(m6['solve']))} s + verify "
        f"{fmt_s(statistics.median(m6['verify']))} s (medians); tries per seed {m6['tries']}; "
        f"peak RSS {m6['peak_mb']:.0f} MB."
    )
    print(
        f"- min-conflicts n = 10,000: times {', '.join(fmt_s(t) for t in m4['total'])} s; tries per seed {m4['tries']}."
    )
    out = {"construct_1e7": c, "minconflicts_1e6": m6, "minconflicts_1e4": m4}
    if not quick:
        d = fresh(TARGET_SNIPPET, "selfcorrect", 10**4, 1)
        out["selfcorrect_1e4"] = d
        print(
            f"- for context, the self-correcting Queens program's own method (`self_correct`, seed 0, its default budget) at "
            f"n = 10,000: {fmt_s(d['total'][0])} s, {d['tries'][0]} tr{'y' if d['tries'][0] == 1 else 'ies'}, "
            f"{d['iterations'][0]:,} moves (the self-correcting Queens program's C program: 20 h 40 min)."
        )
        with tempfile.TemporaryDirectory(prefix="large_n_numba_") as cache:
            cold = fresh(COMPILE_SNIPPET, env=dict(os.environ, NUMBA_CACHE_DIR=cache))
        warm = fresh(COMPILE_SNIPPET)
        out["compile"] = {"cold": cold, "warm": warm}
        print("\nFirst calls in a fresh process, s: empty numba cache (compiles) / warm cache (loads):\n")
        print("| step | empty cache | warm cache |")
        print("|---|---:|---:|")
        for key in cold:
            print(f"| {key} | {fmt_s(cold[key])} | {fmt_s(warm[key])} |")
        print(f"| total | {fmt_s(sum(cold.values()))} | {fmt_s(sum(warm.values()))} |")
    return out


# ----------------------------------------------------------------------------- table B


def table_b(ns, seeds: int) -> dict:
    from queenslab.errors import Incomplete
    from queenslab.heuristics import find_conflict

    names = list(RESTARTED)
    for m in names:  # warm up (kernels of the method and of the verifier)
        time_to_solution(m, 6, 60.0)
    rows = []
    for m in names:
        for n in ns:
            times, solved = [], []
            for s in range(seeds):
                t0 = time.perf_counter()
                try:
                    p = solve_once(m, n, s)
                    ok = find_conflict(p) is None
                    if not ok:
                        raise SystemExit(f"{m} n={n} seed={s}: not a solution")
                except Incomplete:
                    ok = False
                times.append(time.perf_counter() - t0)
                solved.append(ok)
            good = [t for t, ok in zip(times, solved) if ok]
            rows.append(
                {
                    "method": m,
                    "n": n,
                    "seeds": seeds,
                    "solved": sum(solved),
                    "median_all": statistics.median(times),
                    "median_solved": statistics.median(good) if good else None,
                    "max": max(times),
                }
            )
            print(f"  {m} n={n}: {sum(solved)}/{seeds}", file=sys.stderr, flush=True)
    print(f"\n## Table B: success over seeds 0..{seeds - 1} within the default budget\n")
    print("| method | budget | n | solved | rate | median s (all runs) | median s (solved runs) | max s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ms = fmt_s(r["median_solved"]) if r["median_solved"] is not None else "—"
        print(
            f"| {r['method']} | {BUDGETS[r['method']]} | {r['n']} | {r['solved']}/{r['seeds']} | "
            f"{r['solved'] / r['seeds']:.0%} | {fmt_s(r['median_all'])} | {ms} | {fmt_s(r['max'])} |"
        )
    return {"rows": rows}


# ----------------------------------------------------------------------------- table C


def table_c(max_n: int) -> dict:
    from queenslab.heuristics import extend, extension_pattern, extension_pattern_works, find_conflict
    from queenslab.heuristics.construct import PATTERN_BASE

    per_n = {}
    board = np.array(PATTERN_BASE, np.int64)
    closed_form_ok = True
    rule_ok = True
    for n in range(4, max_n + 1):
        if n > 4:
            board = extend(board)  # the pattern as described: one step at a time from the 4x4 board
        p = extension_pattern(n)
        closed_form_ok &= bool(np.array_equal(p, board))
        conflict = find_conflict(board)
        works = conflict is None
        rule_ok &= works == extension_pattern_works(n)
        per_n[n] = {"works": works, "conflict": None if works else conflict.message}
    big = [n0 + k for n0 in (1000, 10**6) for k in range(6)]
    big_ok = {n: find_conflict(extension_pattern(n)) is None for n in big}
    rule_ok_big = all(big_ok[n] == extension_pattern_works(n) for n in big)
    print(f"\n## Table C: N. Gupta's n -> n+1 extension pattern, n = 4..{max_n}\n")
    print("| n mod 6 | a solution for | not a solution for | first conflict at the smallest failing n |")
    print("|---:|---|---|---|")
    for r in range(6):
        ns = [n for n in per_n if n % 6 == r]
        yes = [n for n in ns if per_n[n]["works"]]
        no = [n for n in ns if not per_n[n]["works"]]
        first = per_n[no[0]]["conflict"] + f" (n = {no[0]})" if no else "—"
        print(f"| {r} | {', '.join(map(str, yes)) or '—'} | {', '.join(map(str, no)) or '—'} | {first} |")
    works_res = sorted({n % 6 for n in per_n if per_n[n]["works"]})
    print()
    print(
        f"- a solution exactly when n mod 6 is in {works_res} "
        f"({sum(v['works'] for v in per_n.values())} of {len(per_n)} boards)"
    )
    print(
        f"- the closed form extension_pattern(n) equals {max_n - 4} repeated extend() steps from 3 1 4 2: "
        f"{'yes' if closed_form_ok else 'NO'}; find_conflict agrees with extension_pattern_works for every n: "
        f"{'yes' if rule_ok else 'NO'}"
    )
    print(
        f"- also checked (closed form, find_conflict) at n = {', '.join(f'{n:,}' for n in big)}: "
        f"solutions for {', '.join(f'{n:,}' for n in big if big_ok[n])}; rule agrees: "
        f"{'yes' if rule_ok_big else 'NO'}"
    )
    return {
        "per_n": {str(n): v for n, v in per_n.items()},
        "residues": works_res,
        "closed_form_equals_extend": closed_form_ok,
        "rule_agrees": rule_ok and rule_ok_big,
        "large": {str(n): v for n, v in big_ok.items()},
    }


# ----------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=None, help="board sizes of Table A")
    ap.add_argument(
        "--methods",
        nargs="+",
        default=None,
        choices=list(METHODS),
        metavar="M",
        help=f"columns of Table A (default all: {', '.join(METHODS)})",
    )
    ap.add_argument("--cap", type=float, default=20.0, help="seconds per run before a method stops (default 20)")
    ap.add_argument("--mem-limit", type=float, default=4.0, help="GB of RSS before a worker is killed (default 4)")
    ap.add_argument("--seeds", type=int, default=20, help="seeds per cell of Table B (default 20)")
    ap.add_argument(
        "--repeat", type=int, default=3, help="runs (median) of a Table A cell under 1 s and of each target (default 3)"
    )
    ap.add_argument("--pattern-max", type=int, default=60, help="largest n of Table C (default 60)")
    ap.add_argument("--json", metavar="FILE", default=None, help="also write every result as JSON to FILE")
    ap.add_argument("--quick", action="store_true", help="small sizes, 2 s cap, 3 seeds: a smoke test (< 1 min)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    add_plot_option(ap, "the large-n targets as limit / worst measured")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.worker:
        worker(args.worker, args.cap, args.repeat)
        return
    if args.quick:
        args.cap, args.seeds, args.repeat, args.pattern_max = 2.0, 3, 1, 30
    ns = args.ns or (QUICK_NS if args.quick else FULL_NS)
    names = args.methods or list(METHODS)
    meta = run_metadata()
    meta.update(
        cap_seconds=args.cap,
        seeds=args.seeds,
        repeat=args.repeat,
        load_average=os.getloadavg()[0],
        memory_gb=round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    )
    print_metadata(meta)
    t_all = time.perf_counter()
    report = {"meta": meta}
    report["table_a"] = table_a(ns, names, args.cap, args.repeat, args.mem_limit)
    report["targets"] = targets(args.repeat, args.quick)
    report["table_b"] = table_b(SUCCESS_NS[:1] if args.quick else SUCCESS_NS, args.seeds)
    report["table_c"] = table_c(args.pattern_max)
    report["seconds"] = time.perf_counter() - t_all
    print(f"\n# total benchmark time: {report['seconds']:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1, default=str)
    if args.plot:
        save_plot(target_chart(report["targets"]), args.plot)


def target_chart(measured: dict):
    """The large-n targets as a bar chart: limit / worst run (> 1: met, the margin)."""
    from queenslab.plot import ratios

    c, m6, m4 = measured["construct_1e7"], measured["minconflicts_1e6"], measured["minconflicts_1e4"]
    rows = [
        ("construct + verify, n = 10^7 (< 2 s)", 2.0 / max(c["total"]), 1.0),
        ("min-conflicts + verify, n = 10^6 (< 10 s)", 10.0 / max(m6["total"]), 1.0),
        ("min-conflicts + verify, n = 10^4 (< 0.5 s)", 0.5 / max(m4["total"]), 1.0),
        ("peak RSS, construct n = 10^7 (< 1 GB)", 1024 / c["peak_mb"], 1.0),
    ]
    return ratios(rows, title="Large-n targets: limit / worst measured (> 1: met)")


if __name__ == "__main__":
    main()
