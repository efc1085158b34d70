"""Ranking: ours (subtree counting, with and without the index) against N. Gupta's
own methods, on the same (n, rank) queries, measured in one run.

Baselines, as N. Gupta's ranking paper describes them:

* **store all, then scan** -- generate every solution in lexicographic order (with the
  native enumerator, the fastest generator we have), store them, and look the rank up
  by scanning the list (unrank: index into it). The time includes the generation.
* **walk the permutations** -- go through all n! permutations in lexicographic order
  (numba, ``next_permutation``), test each, and count solutions until the wanted rank.

Ours: ``unrank`` then ``rank`` of the result, without an index (subtree counts, the
mirror trick on the first row) and with a prefix-count index (built once; its build
time and peak memory are reported in a second table, each build in a fresh process).

``--plot F`` draws our rank and unrank times without an index (every query, and the
median of each n) on a log scale.

Usage: ``python benchmarks/ranking.py [--max-perm-n 11] [--max-store-n 15]
[--build 16 18] [--quick] [--plot F]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

import numpy as np
from common import REPO_ROOT, add_plot_option, check_plot, print_metadata, run_metadata, save_plot
from numba import njit

from queenslab.data import known_total
from queenslab.native import engine
from queenslab.problem import Problem
from queenslab.ranking.index import build_index, find_index
from queenslab.ranking.lex import rank, unrank
from queenslab.solution import is_solution


@njit(cache=True)
def _is_solution(p):
    n = p.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if p[i] == p[j] or abs(p[i] - p[j]) == j - i:
                return False
    return True


@njit(cache=True)
def permutation_walk_unrank(n, r):
    """The r-th (0-based) solution by walking all permutations in lexicographic order."""
    p = np.arange(n)
    seen = 0
    while True:
        if _is_solution(p):
            if seen == r:
                return p.copy()
            seen += 1
        # next permutation
        i = n - 2
        while i >= 0 and p[i] >= p[i + 1]:
            i -= 1
        if i < 0:
            return p[:0].copy()
        j = n - 1
        while p[j] <= p[i]:
            j -= 1
        p[i], p[j] = p[j], p[i]
        p[i + 1 :] = p[i + 1 :][::-1].copy()


def store_all_unrank_rank(problem, r):
    sols = [tuple(x) for a in engine.solution_batches(problem) for x in a.tolist()]
    s = sols[r]
    for i, t in enumerate(sols):  # the document's scan
        if t == s:
            return s, i
    raise AssertionError


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


BUILD_SNIPPET = """
import json, resource, sys, time
from queenslab.problem import Problem
from queenslab.ranking.index import build_index, find_index
from queenslab.solution import is_solution
n, d = int(sys.argv[1]), sys.argv[2]
t0 = time.perf_counter()
idx = build_index(Problem(n), None if d == "auto" else int(d), directory=sys.argv[3], rebuild=True)
seconds = time.perf_counter() - t0
# VmHWM is this process's own peak RSS; ru_maxrss would carry the parent's peak over fork/exec
try:
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) / 1024
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"n": n, "depth": idx.depth, "rows": idx.rows, "bytes": idx.path.stat().st_size,
                  "seconds": seconds, "peak_mb": peak}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=int, nargs="+", default=[8, 10, 12, 14, 15, 16])
    ap.add_argument("--max-perm-n", type=int, default=11)
    ap.add_argument("--max-store-n", type=int, default=15)
    ap.add_argument("--build", type=int, nargs="*", default=[16, 18])
    ap.add_argument("--quick", action="store_true", help="small n only: a smoke test")
    add_plot_option(ap, "the rank and unrank times without an index by n")
    args = ap.parse_args()
    check_plot(ap, args.plot)
    if args.quick:
        args.ns, args.max_perm_n, args.max_store_n, args.build = [8, 10], 9, 10, [10]
    print_metadata(run_metadata(engine.default_threads()))
    permutation_walk_unrank(6, 1)
    unrank(Problem(8), 3, index=None)
    tmp = tempfile.mkdtemp()
    print()
    print("Seconds for one query: ours = unrank, rank (each; the targets are per query) and with an index the")
    print(
        "pair unrank + rank; the baselines (the document's methods) do both at once; ratios = baseline / (unrank + rank)."
    )
    print()
    print(
        "| n | rank (1-based) | unrank, no index | rank, no index | both, index | store all + scan | walk permutations | store / ours | perms / ours |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    times = []  # (n, rank seconds, unrank seconds) of each query, without an index
    for n in args.ns:
        p = Problem(n)
        size = known_total(n)
        idx = build_index(p, directory=tmp)
        # the document's printed examples are the 100th solutions of 10 and 15 queens
        queries = [r for r in (99, size // 4, size // 2, size - 2, size - 1) if 0 <= r < size]
        for r in dict.fromkeys(queries):
            s, t_u = timed(lambda: unrank(p, r, index=None))
            r2, t_r = timed(lambda: rank(p, s, index=None))
            assert r2 == r
            times.append((n, t_r, t_u))
            (_, r3), t_ix = timed(lambda: (idx.unrank(r), idx.rank(s)))
            assert r3 == r
            ours = t_u + t_r
            store = perm = None
            if n <= args.max_store_n:
                (s2, i2), store = timed(store_all_unrank_rank, p, r)
                assert s2 == s and i2 == r
            if n <= args.max_perm_n:
                s3, perm = timed(permutation_walk_unrank, n, r)
                assert tuple(s3) == s
            fmt = lambda x: "-" if x is None else f"{x:.4f}"
            ratio = lambda x: "-" if x is None else f"{x / ours:.1f}"
            print(
                f"| {n} | {r + 1} | {t_u:.4f} | {t_r:.4f} | {t_ix:.4f} | {fmt(store)} | {fmt(perm)} | {ratio(store)} | {ratio(perm)} |",
                flush=True,
            )
        idx.close()
    if args.build:
        print()
        print("Index builds (each in a fresh process, default depth, all threads):")
        print()
        print("| n | depth | prefixes | size (MB) | seconds | peak memory (MB) |")
        print("|---|---|---|---|---|---|")
        for n in args.build:
            out = subprocess.run(
                [sys.executable, "-c", BUILD_SNIPPET, str(n), "auto", tmp],
                capture_output=True,
                text=True,
                check=True,
                cwd=REPO_ROOT,
            )
            b = json.loads(out.stdout)
            print(
                f"| {n} | {b['depth']} | {b['rows']} | {b['bytes'] / 1e6:.1f} | {b['seconds']:.1f} | {b['peak_mb']:.0f} |",
                flush=True,
            )
        print()
        print("Queries on those indexes (this process; unrank then rank, worst of the ranks shown):")
        print()
        print("| n | ranks (1-based) | worst seconds per query pair |")
        print("|---|---|---|")
        for n in args.build:
            p = Problem(n)
            idx = find_index(p, tmp)
            size = idx.total
            queries = [r for r in dict.fromkeys((0, 99, size // 3, size // 2, size - 1)) if 0 <= r < size]
            worst = 0.0
            for r in queries:
                (s, r2), t = timed(lambda: (lambda s: (s, idx.rank(s)))(idx.unrank(r)))
                assert r2 == r and is_solution(p, s)
                worst = max(worst, t)
            idx.close()
            print(f"| {n} | {', '.join(str(r + 1) for r in queries)} | {worst:.4f} |", flush=True)
    if args.plot:
        from queenslab.plot import rank_times

        save_plot(rank_times(times), args.plot)


if __name__ == "__main__":
    main()
