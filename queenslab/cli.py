"""The ``queenslab`` command line (click).

Every command takes ``--json`` and prints one JSON object with documented keys
(placements inside JSON are 1-based lists). Bad input prints ``error: ...`` on stderr
and exits with status 2, never a traceback. Heavy modules (numba, solvers) are imported
inside the commands so that ``queenslab --help`` starts fast.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Callable

import click

from . import __version__
from .errors import QueensError, TooLarge, UnsupportedProblem
from .problem import Problem

from .clitools import (
    Progress as _Progress,
    emit_json as _emit_json,
    json_option,
    make_problem as _make_problem,
    placement_arg as _placement_arg,
    variant_options,
)


# ----------------------------------------------------------------------------- commands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="queenslab")
def cli() -> None:
    """queenslab: count, enumerate, check and draw n-queens solutions.

    Rows and columns on the command line are 1-based. Every command takes --json.
    """


def solver_options(fn: Callable) -> Callable:
    """Options of the solver backends (passed only when given; a backend that does not
    know one refuses it)."""
    fn = click.option("--limit", "limit", type=click.IntRange(min=1), default=None, metavar="K",
                      help="cpsat/sat: stop after K solutions (the count is then reported as incomplete).")(fn)
    fn = click.option("--time-limit", "time_limit", type=click.FloatRange(min=0, min_open=True), default=None,
                      metavar="S", help="cpsat: stop after S seconds (reported as incomplete).")(fn)
    fn = click.option("--sat-solver", "sat_solver", default=None, metavar="NAME",
                      help="sat: the pysat solver (default cadical195).")(fn)
    fn = click.option("--encoding", default=None, metavar="E",
                      help="sat/ganak: cardinality encoding (pairwise, seqcounter, ladder, totalizer, ...).")(fn)
    fn = click.option("--formulation", type=click.Choice(["integer", "boolean"]), default=None,
                      help="cpsat: integer (q[r]) or boolean (x[r][c]) model.")(fn)
    return fn


def _backend_options(**given) -> dict:
    rename = {"sat_solver": "solver"}
    return {rename.get(k, k): v for k, v in given.items() if v is not None and v is not False}


@cli.command("count")
@click.argument("n", type=int)
@click.option("--unique", is_flag=True, help="Also count fundamental solutions (orbits under the problem's symmetries).")
@click.option("--backend", default=None, metavar="B", help="native (default), cpsat, sat or ganak.")
@variant_options
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="T",
              help="native: threads (default: all cores).")
@click.option("--method", type=click.Choice(["auto", "symmetric", "general"]), default=None,
              help="native: symmetric (standard problem) or general (every variant) search.")
@click.option("--force", is_flag=True, help="native: allow n above the practical limit of the exact count.")
@solver_options
@json_option
def count_cmd(n, unique, backend, toroidal, knight, block, fix, threads, method, force,
              formulation, encoding, sat_solver, time_limit, limit, as_json):
    """Count the solutions of the N-queens problem (or a variant).

    Compares with the known value (OEIS A000170 / A002562) for the standard problem
    and exits 1 if they disagree, or if a limit stopped the count (then it is only a
    lower bound).

    \b
    Examples:
      queenslab count 12 --unique
      queenslab count 8 --toroidal --block 1,1 --json
      queenslab count 9 --unique --backend cpsat --formulation boolean
      queenslab count 8 --backend sat --encoding seqcounter
    """
    from .backends import get_backend
    from .data import known_total, known_unique

    problem = _make_problem(n, toroidal, knight, block, fix)
    be = get_backend(backend)
    opts = _backend_options(threads=threads, method=method, force=force, formulation=formulation,
                            encoding=encoding, sat_solver=sat_solver, time_limit=time_limit, limit=limit)
    progress = _Progress(not as_json and be.name == "native", f"count {n}")
    if be.name == "native":
        opts["progress"] = progress
    t0 = time.perf_counter()
    try:
        res = be.counts(problem, unique=unique, **opts)
    finally:
        progress.close()
    seconds = time.perf_counter() - t0
    known = known_total(n) if problem.is_standard else None
    known_u = known_unique(n) if problem.is_standard else None
    agree = (not res.complete) or (
        (known is None or res.total == known) and (not unique or known_u is None or res.unique == known_u)
    )
    if as_json:
        out = {
            "n": n,
            "count": res.total,
            "backend": res.backend or be.name,
            "seconds": round(seconds, 6),
            "known": known,
        }
        if unique:
            out["unique"] = res.unique
            out["known_unique"] = known_u
        out.update({"complete": res.complete, "method": res.method, "nodes": res.nodes})
        if be.name == "native":
            from .native.engine import default_threads

            out["threads"] = threads or default_threads()
        out.update({"agrees": agree, "problem": problem.to_dict(one_based=True)})
        _emit_json(out)
    else:
        pre = "" if res.complete else "at least "
        line = f"{pre}{res.total} solution{'' if res.total == 1 else 's'} of {problem.describe()}"
        if unique:
            line += f" ({pre}{res.unique} unique)"
        click.echo(line)
        detail = f"backend {res.backend or be.name}"
        if res.method:
            detail += f" ({res.method})"
        detail += f", {seconds:.3f} s"
        if not res.complete:
            detail += "; stopped by a limit: not a final count"
        elif known is not None:
            detail += f"; known value {known}" + (f" / {known_u} unique" if unique else "")
            detail += ": agrees" if agree else ": DISAGREES"
        click.echo(detail)
    if not agree:
        click.echo("error: the count disagrees with the known value", err=True)
        return 1
    return 0 if res.complete else 1


@cli.command("crosscheck")
@click.argument("n", type=int)
@variant_options
@click.option("--backends", default=None, metavar="B,B,...",
              help="Comma-separated backends (default: all; a missing optional one is reported, not fatal).")
@click.option("--no-unique", is_flag=True, help="Compare totals only (skip the symmetry-reduced counts).")
@json_option
def crosscheck_cmd(n, toroidal, knight, block, fix, backends, no_unique, as_json):
    """Count one problem on several backends, side by side; exit 1 if they disagree.

    \b
    Examples:
      queenslab crosscheck 8
      queenslab crosscheck 7 --toroidal --knight --block 1,1 --backends native,sat
    """
    from .backends import crosscheck

    problem = _make_problem(n, toroidal, knight, block, fix)
    names = None if backends is None else [b.strip() for b in backends.split(",") if b.strip()]
    res = crosscheck(problem, names, unique=not no_unique, strict=names is not None)
    if as_json:
        _emit_json(
            {
                "n": n,
                "problem": problem.to_dict(one_based=True),
                "agree": res.agree,
                "rows": [
                    {"backend": r.backend, "count": r.total, "unique": r.unique, "seconds": round(r.seconds, 6),
                     "complete": r.complete, "error": r.error}
                    for r in res.rows
                ],
            }
        )
    else:
        click.echo(f"{problem.describe()}")
        click.echo(f"{'backend':<10} {'count':>14} {'unique':>12} {'seconds':>9}")
        for r in res.rows:
            if r.error:
                click.echo(f"{r.backend:<10} {'-':>14} {'-':>12} {'-':>9}  {r.error}")
            else:
                u = "-" if r.unique is None else str(r.unique)
                click.echo(f"{r.backend:<10} {r.total:>14} {u:>12} {r.seconds:>9.3f}")
        click.echo("all backends agree" if res.agree else "BACKENDS DISAGREE")
    return 0 if res.agree else 1


@cli.command("export")
@click.argument("kind", type=click.Choice(["cnf", "cpsat"]))
@click.argument("n", type=int)
@variant_options
@click.option("--encoding", default="pairwise", show_default=True, metavar="E", help="cnf: cardinality encoding.")
@click.option("--formulation", type=click.Choice(["integer", "boolean"]), default="integer", show_default=True,
              help="cpsat: model formulation.")
@click.option("--symmetry", type=click.Choice(["none", "lex-leader"]), default="none", show_default=True,
              help="Add lex-leader symmetry-breaking constraints.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None, metavar="F",
              help="Write to file F instead of standard output.")
@json_option
def export_cmd(kind, n, toroidal, knight, block, fix, encoding, formulation, symmetry, out, as_json):
    """Export the model: DIMACS CNF with a cell-variable map, or CP-SAT's text proto.

    \b
    Examples:
      queenslab export cnf 8 --out q8.cnf
      queenslab export cpsat 8 --symmetry lex-leader
    """
    problem = _make_problem(n, toroidal, knight, block, fix)
    sym = None if symmetry == "none" else symmetry
    if kind == "cnf":
        from .models.cnf import to_dimacs

        text = to_dimacs(problem, encoding=encoding, symmetry=sym)
    else:
        from .models.cpsat import export_text

        text = export_text(problem, formulation=formulation, symmetry=sym)
    if out:
        with open(out, "w") as fh:
            fh.write(text)
    if as_json:
        obj = {"kind": kind, "n": n, "symmetry": symmetry, "out": out}
        if kind == "cnf":
            header = next(line for line in text.splitlines() if line.startswith("p cnf"))
            obj.update({"encoding": encoding, "variables": int(header.split()[2]), "clauses": int(header.split()[3])})
        else:
            obj["formulation"] = formulation
        if not out:
            obj["text"] = text
        _emit_json(obj)
    elif not out:
        click.echo(text, nl=False)
    else:
        click.echo(f"wrote {kind} model of {problem.describe()} to {out}", err=True)
    return 0


@cli.command("solutions")
@click.argument("n", type=int)
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="K", help="At most K solutions.")
@click.option("--offset", type=click.IntRange(min=0), default=0, metavar="R", help="Skip the first R solutions.")
@click.option("--format", "fmt", type=click.Choice(["spaces", "digits", "json", "npy"]), default="spaces",
              help="spaces: '2 4 1 3'; digits: '2413' (n <= 9); json: one list per line; npy: a numpy file (needs --out).")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None, metavar="F",
              help="Write to file F instead of standard output.")
@variant_options
@json_option
def solutions_cmd(n, limit, offset, fmt, out, toroidal, knight, block, fix, as_json):
    """Enumerate solutions in lexicographic order (1-based columns), streaming.

    \b
    Examples:
      queenslab solutions 8 --limit 3
      queenslab solutions 10 --offset 99 --limit 1     # the 100th solution (unranked, not enumerated)
      queenslab solutions 12 --format npy --out s12.npy
    """
    from .native import engine
    from .solution import format_placement

    problem = _make_problem(n, toroidal, knight, block, fix)
    if fmt == "digits" and n > 9:
        raise QueensError(f"--format digits needs n <= 9, got n = {n}; use spaces or json")
    if fmt == "npy" and out is None:
        raise QueensError("--format npy writes a binary file: give --out FILE.npy")
    if as_json and fmt == "npy":
        raise QueensError("--json prints JSON on standard output; it cannot be combined with --format npy")
    def stream():
        if offset:
            from .ranking.lex import batches_from, total

            if offset >= total(problem):
                return
            source = batches_from(problem, offset)
        else:
            source = engine.solution_batches(problem)
        left = limit
        for arr in source:
            if left is not None:
                arr = arr[:left]
                left -= len(arr)
            if len(arr):
                yield arr
            if left == 0:
                return

    if fmt == "npy":
        import numpy as np

        total = engine.count(problem, force=True) if limit is None else None
        if total is None:
            # the file's shape is needed first: count only as far as the limit reaches
            total = sum(len(a) for a in stream())
        else:
            total = max(0, total - offset)
        arr_out = np.lib.format.open_memmap(out, mode="w+", dtype=np.int64, shape=(total, n))
        i = 0
        for arr in stream():
            arr_out[i : i + len(arr)] = arr + 1
            i += len(arr)
        arr_out.flush()
        del arr_out
        if as_json:
            _emit_json({"n": n, "count": i, "out": out, "format": "npy"})
        else:
            click.echo(f"wrote {i} solutions (1-based, int64) to {out}", err=True)
        return 0

    if as_json:
        sols = [(a + 1).tolist() for a in stream()]
        flat = [s for part in sols for s in part]
        _emit_json({"n": n, "offset": offset, "count": len(flat), "solutions": flat})
        return 0

    fh = open(out, "w") if out else sys.stdout
    try:
        for arr in stream():
            if fmt == "json":
                lines = [json.dumps(row) for row in (arr + 1).tolist()]
            else:
                lines = [format_placement(row, fmt) for row in arr.tolist()]
            fh.write("\n".join(lines) + "\n")
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return 0
    finally:
        if out:
            fh.close()
    return 0


@cli.command("check")
@click.argument("placement", nargs=-1)
@variant_options
@json_option
def check_cmd(placement, toroidal, knight, block, fix, as_json):
    """Check whether PLACEMENT is a solution and say why not.

    PLACEMENT lists the 1-based column of each row: '2 4 1 3', 2,4,1,3 or 2413.
    Exits 0 for a solution, 1 otherwise.

    \b
    Examples:
      queenslab check 2 8 10 4 1 5 9 6 3 7
      queenslab check 15863724 --json
    """
    from .solution import conflicts, parse_placement

    p = parse_placement(_placement_arg(placement))
    problem = _make_problem(len(p), toroidal, knight, block, fix)
    found = conflicts(problem, p)
    if as_json:
        _emit_json(
            {
                "n": problem.n,
                "placement": [c + 1 for c in p],
                "solution": not found,
                "conflicts": [
                    {"kind": c.kind, "cells": [[r + 1, col + 1] for r, col in c.cells], "message": c.message()}
                    for c in found
                ],
            }
        )
    elif not found:
        click.echo(f"a solution of {problem.describe()}")
    else:
        click.echo(f"not a solution of {problem.describe()}:")
        for c in found:
            click.echo(f"  {c.message()}")
    return 0 if not found else 1


#: Largest board ``show`` draws as text; larger ones need --png.
TEXT_BOARD_MAX_N = 100


@cli.command("show")
@click.argument("placement", nargs=-1)
@click.option("--from", "from_file", type=click.Path(dir_okay=False), default=None, metavar="F",
              help="Read the placement from F: F.npy (1-based array, as `solve --out` writes) or text '2, 4, 1, 3'.")
@click.option("--png", "png", type=click.Path(dir_okay=False, writable=True), default=None, metavar="OUT",
              help="Write a PNG picture (white queens on black) instead of the text board; boards up to 20,000.")
@click.option("--scale", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="--png: pixels per cell side (n * K <= 20,000).")
@variant_options
@json_option
def show_cmd(placement, from_file, png, scale, toroidal, knight, block, fix, as_json):
    """Draw PLACEMENT as a text board (Q queen, . empty, # blocked, F missing fixed queen),
    or as a PNG with one pixel per cell (--png), and say whether it is a solution.

    Text boards are drawn up to n = 100. A PNG takes any board up to 20,000 x 20,000
    (like document 002's picture of 10,000 queens); large placements come from a file.

    \b
    Examples:
      queenslab show 2 4 1 3
      queenslab show 2 4 1 3 --png q4.png --scale 20
      queenslab solve 10000 --method minconflicts --out q.npy && queenslab show --from q.npy --png q.png
    """
    from .solution import board_text, conflicts, parse_placement

    if from_file is not None:
        if placement:
            raise QueensError("give the placement either as arguments or with --from F, not both")
        from .placement_file import read_placement

        p = read_placement(from_file)
    else:
        p = parse_placement(_placement_arg(placement))
    n = len(p)
    if scale != 1 and png is None:
        raise QueensError("--scale applies to --png pictures only")
    if png is None and n > TEXT_BOARD_MAX_N:
        raise TooLarge(
            f"a {n} x {n} board is too large to draw as text (n <= {TEXT_BOARD_MAX_N}); "
            "write a picture with --png F.png"
        )
    variant = toroidal or knight or block or fix
    if variant or n <= TEXT_BOARD_MAX_N:
        if n > TEXT_BOARD_MAX_N:
            raise UnsupportedProblem(
                f"variant flags are checked on boards up to n = {TEXT_BOARD_MAX_N}; drop them to check a "
                f"{n}-queens placement in O(n)"
            )
        problem = _make_problem(n, toroidal, knight, block, fix)
        found = conflicts(problem, p)
        why = found[0].message() if found else None
        text = board_text(problem, p)
    else:
        from .heuristics import find_conflict

        first = find_conflict(p)
        why = first.message() if first is not None else None
        text = None
    result: dict = {"n": n, "solution": why is None, "conflict": why}
    if n <= 1000:
        result["placement"] = [int(c) + 1 for c in p]
    if png is not None:
        from .viz import write_png

        width, height = write_png(p, png, scale=scale)
        result.update(png=png, pixels=[width, height])
    elif text is not None:
        result["board"] = text.splitlines()
    if as_json:
        _emit_json(result)
        return 0
    if png is None:
        click.echo(text)
    else:
        click.echo(f"wrote {png} ({width} x {height} pixels, {n} queens)")
        click.echo("a solution" if why is None else f"not a solution: {why}")
    return 0


def index_options(fn: Callable) -> Callable:
    fn = click.option("--no-index", is_flag=True, help="Never use a persistent index.")(fn)
    fn = click.option("--index", "index_path", default=None, metavar="PATH",
                      help=f"Index directory or file (default: ${'{'}QUEENSLAB_INDEX_DIR{'}'} or the user cache).")(fn)
    return fn


def _index_choice(index_path, no_index, problem):
    if no_index:
        if index_path:
            raise QueensError("--index and --no-index contradict each other")
        return None
    if index_path is None:
        return "auto"
    from pathlib import Path

    from .ranking.index import PrefixIndex, find_index

    p = Path(index_path)
    if p.is_dir() or not p.suffix:
        found = find_index(problem, p)
        if found is None:
            raise QueensError(f"no complete index for {problem.describe()} in {p}; build one with `queenslab index build`")
        return found
    return PrefixIndex.open(p, problem)


@cli.command("rank")
@click.argument("n", type=int)
@click.argument("placement", nargs=-1, required=True)
@variant_options
@index_options
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="T", help="Threads (default: all cores).")
@json_option
def rank_cmd(n, placement, toroidal, knight, block, fix, index_path, no_index, threads, as_json):
    """Print the 1-based lexicographic rank of a solution (without enumerating).

    \b
    Example:
      queenslab rank 10 "2 8 10 4 1 5 9 6 3 7"      # 100
    """
    from .ranking.lex import rank
    from .solution import parse_placement

    problem = _make_problem(n, toroidal, knight, block, fix)
    p = parse_placement(_placement_arg(placement), n)
    t0 = time.perf_counter()
    idx = _index_choice(index_path, no_index, problem)
    r = rank(problem, p, index=idx, threads=threads)
    if as_json:
        _emit_json({"n": n, "placement": [c + 1 for c in p], "rank": r + 1, "seconds": round(time.perf_counter() - t0, 6)})
    else:
        click.echo(r + 1)
    return 0


@cli.command("unrank")
@click.argument("n", type=int)
@click.argument("r", type=int)
@variant_options
@index_options
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="T", help="Threads (default: all cores).")
@json_option
def unrank_cmd(n, r, toroidal, knight, block, fix, index_path, no_index, threads, as_json):
    """Print the R-th solution (1-based) in lexicographic order.

    \b
    Example:
      queenslab unrank 10 100                        # 2 8 10 4 1 5 9 6 3 7
    """
    from .ranking.lex import unrank
    from .solution import format_placement

    problem = _make_problem(n, toroidal, knight, block, fix)
    t0 = time.perf_counter()
    idx = _index_choice(index_path, no_index, problem)
    s = unrank(problem, r - 1, index=idx, threads=threads)
    if as_json:
        _emit_json({"n": n, "rank": r, "solution": [c + 1 for c in s], "seconds": round(time.perf_counter() - t0, 6)})
    else:
        click.echo(format_placement(s))
    return 0


@cli.command("sample")
@click.argument("n", type=int)
@click.argument("k", type=click.IntRange(min=0))
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed: the same seed, the same sample.")
@variant_options
@index_options
@json_option
def sample_cmd(n, k, seed, toroidal, knight, block, fix, index_path, no_index, as_json):
    """Print K uniformly random solutions (exactly uniform: random ranks, unranked).

    \b
    Example:
      queenslab sample 12 5 --seed 7
    """
    from .ranking.lex import unrank
    from .ranking.sampling import sample_ranks
    from .solution import format_placement

    problem = _make_problem(n, toroidal, knight, block, fix)
    idx = _index_choice(index_path, no_index, problem)
    ranks = sample_ranks(problem, k, seed=seed, index=idx)
    sols = [unrank(problem, r, index=idx) for r in ranks]
    if as_json:
        _emit_json({"n": n, "seed": seed, "samples": [{"rank": r + 1, "solution": [c + 1 for c in s]} for r, s in zip(ranks, sols)]})
    else:
        for s in sols:
            click.echo(format_placement(s))
    return 0


@cli.group("index")
def index_group() -> None:
    """The persistent prefix-count index that makes rank / unrank fast."""


@index_group.command("build")
@click.argument("n", type=int)
@click.option("--depth", type=click.IntRange(min=1), default=None, metavar="D",
              help="Prefix depth (default max(2, n // 2 - 4): 4 for n=16, 5 for 18, 6 for 20).")
@variant_options
@click.option("--index", "index_path", default=None, metavar="PATH",
              help="Index directory, or a .sqlite file (default: $QUEENSLAB_INDEX_DIR or the user cache).")
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="T", help="Threads (default: all cores).")
@click.option("--rebuild", is_flag=True, help="Discard an existing (partial or corrupt) file and start afresh.")
@json_option
def index_build_cmd(n, depth, toroidal, knight, block, fix, index_path, threads, rebuild, as_json):
    """Build (or resume) the index of a problem. Interrupt with Ctrl-C; run again to resume.

    \b
    Example:
      queenslab index build 16
    """
    from pathlib import Path

    from .ranking.index import build_index

    problem = _make_problem(n, toroidal, knight, block, fix)
    kw = {}
    if index_path is not None:
        p = Path(index_path)
        kw = {"path": p} if p.suffix == ".sqlite" else {"directory": p}
    progress = _Progress(not as_json, f"index {n}")
    t0 = time.perf_counter()
    try:
        idx = build_index(problem, depth, threads=threads, progress=progress, rebuild=rebuild, **kw)
    finally:
        progress.close()
    info = idx.info()
    info["seconds"] = round(time.perf_counter() - t0, 3)
    if as_json:
        _emit_json(info)
    else:
        click.echo(
            f"index of {problem.describe()}: depth {info['depth']}, {info['rows']} prefixes, "
            f"{info['total']} solutions, {info['bytes'] / 1e6:.1f} MB, {info['seconds']:.1f} s\n{info['path']}"
        )
    return 0


@index_group.command("info")
@click.option("--index", "index_path", default=None, metavar="DIR", help="Index directory (default: $QUEENSLAB_INDEX_DIR or the user cache).")
@json_option
def index_info_cmd(index_path, as_json):
    """List the indexes: n, depth, status, size on disk, total."""
    from .ranking.index import index_dir, list_indexes

    entries = list_indexes(index_path)
    if as_json:
        _emit_json({"directory": str(index_dir(index_path)), "indexes": entries})
        return 0
    click.echo(f"index directory: {index_dir(index_path)}")
    if not entries:
        click.echo("no indexes")
    for e in entries:
        if "n" not in e:
            click.echo(f"  {e['path']}: {e['status']}")
            continue
        prob = Problem(e["problem"]["n"], e["problem"]["toroidal"], e["problem"]["knight"],
                       [(r - 1, c - 1) for r, c in e["problem"]["blocked"]], [(r - 1, c - 1) for r, c in e["problem"]["fixed"]])
        total = "-" if e.get("total") is None else e["total"]
        click.echo(f"  {prob.describe()}: depth {e['depth']}, total {total}, {e['bytes'] / 1e6:.2f} MB, {e['status']}")
    return 0


@cli.group("experiment")
def experiment_group() -> None:
    """Reproducible experiments from the source documents (see docs/experiments.md)."""


#: Modules whose ``register(cli, experiment)`` adds their commands.
COMMAND_MODULES: tuple[str, ...] = ("queenslab.commands.symmetry", "queenslab.commands.heuristics")


def _register_commands() -> None:
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(cli, experiment_group)


_register_commands()


# ----------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 negative answer, 2 bad input)."""
    try:
        rv = cli.main(args=argv, prog_name="queenslab", standalone_mode=False)
    except click.exceptions.UsageError as e:
        hint = f" (see 'queenslab {e.ctx.command.name} --help')" if e.ctx and e.ctx.command.name != "cli" else ""
        click.echo(f"error: {e.format_message()}{hint}", err=True)
        return 2
    except QueensError as e:
        click.echo(f"error: {e}", err=True)
        return 2
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("interrupted", err=True)
        return 130
    except click.exceptions.Exit as e:
        return e.exit_code
    return rv if isinstance(rv, int) else 0


def run() -> None:  # console-script entry point
    sys.exit(main())
