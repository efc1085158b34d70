"""``rank``, ``unrank``, ``sample`` and ``index``: lexicographic ranks and the index.

The ranking modules load the numba kernels, so they are imported inside the commands.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..problem import Problem
from ..solution import format_placement, parse_placement
from .app import cli, emit_json
from .options import Progress, index_options, json_option, number_option, placement_arg, problem_options

_THREADS = number_option("--threads", 1, "T", "Threads (default: every core).")


def _index_path(index) -> str | None:
    return str(index.path) if hasattr(index, "path") else None


@cli.command("rank")
@problem_options
@click.argument("placement", nargs=-1, required=True)
@index_options
@_THREADS
@json_option
def rank_cmd(problem: Problem, placement, index, threads, as_json) -> int:
    """Print the 1-based lexicographic rank of a solution (without enumerating).

    \b
    JSON keys: n, problem, placement, rank (1-based), seconds, index (the index file
    used, or null).

    \b
    Example:
      queenslab rank 10 "2 8 10 4 1 5 9 6 3 7"      # 100
    """
    from ..ranking.lex import rank

    p = parse_placement(placement_arg(placement), problem.n)
    t0 = time.perf_counter()
    r = rank(problem, p, index=index, threads=threads)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "placement": [c + 1 for c in p],
                "rank": r + 1,
                "seconds": round(time.perf_counter() - t0, 6),
                "index": _index_path(index),
            }
        )
    else:
        click.echo(r + 1)
    return 0


@cli.command("unrank")
@problem_options
@click.argument("r", type=int)
@index_options
@_THREADS
@json_option
def unrank_cmd(problem: Problem, r: int, index, threads, as_json) -> int:
    """Print the R-th solution (1-based) in lexicographic order.

    \b
    JSON keys: n, problem, rank, solution (1-based), seconds, index.

    \b
    Example:
      queenslab unrank 10 100                        # 2 8 10 4 1 5 9 6 3 7
    """
    from ..ranking.lex import unrank

    t0 = time.perf_counter()
    s = unrank(problem, r - 1, index=index, threads=threads)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "rank": r,
                "solution": [c + 1 for c in s],
                "seconds": round(time.perf_counter() - t0, 6),
                "index": _index_path(index),
            }
        )
    else:
        click.echo(format_placement(s))
    return 0


@cli.command("sample")
@problem_options
@click.argument("k", type=click.IntRange(min=0))
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed: the same seed, the same sample.")
@index_options
@json_option
def sample_cmd(problem: Problem, k: int, seed: int, index, as_json) -> int:
    """Print K uniformly random solutions (exactly uniform: random ranks, unranked).

    \b
    JSON keys: n, problem, seed, samples (each: rank, solution), index.

    \b
    Example:
      queenslab sample 12 5 --seed 7
    """
    from ..ranking.lex import unrank
    from ..ranking.sampling import sample_ranks

    ranks = sample_ranks(problem, k, seed=seed, index=index)
    sols = [unrank(problem, r, index=index) for r in ranks]
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "seed": seed,
                "samples": [{"rank": r + 1, "solution": [c + 1 for c in s]} for r, s in zip(ranks, sols)],
                "index": _index_path(index),
            }
        )
    else:
        for s in sols:
            click.echo(format_placement(s))
    return 0


@cli.group("index")
def index_group() -> None:
    """The persistent prefix-count index that makes rank / unrank fast."""


@index_group.command("build")
@problem_options
@number_option("--depth", 1, "D", "Prefix depth (default max(2, n // 2 - 4): 4 for n=16, 5 for 18, 6 for 20).")
@click.option(
    "--index",
    "index_path",
    default=None,
    metavar="PATH",
    help="Index directory, or a .sqlite file (default: $QUEENSLAB_INDEX_DIR or the user cache).",
)
@_THREADS
@click.option("--rebuild", is_flag=True, help="Discard an existing (partial or corrupt) file and start afresh.")
@json_option
def index_build_cmd(problem: Problem, depth, index_path, threads, rebuild, as_json) -> int:
    """Build (or resume) the index of a problem. Interrupt with Ctrl-C; run again to resume.

    \b
    JSON keys: path, n, depth, total, rows, bytes, problem, built, seconds, status.

    \b
    Example:
      queenslab index build 16
    """
    from ..ranking.index import build_index

    kw = {}
    if index_path is not None:
        p = Path(index_path)
        kw = {"path": p} if p.suffix == ".sqlite" else {"directory": p}
    progress = Progress(not as_json, f"index {problem.n}")
    t0 = time.perf_counter()
    try:
        idx = build_index(problem, depth, threads=threads, progress=progress, rebuild=rebuild, **kw)
    finally:
        progress.close()
    info = idx.info()
    info["seconds"] = round(time.perf_counter() - t0, 3)
    if as_json:
        emit_json(info)
    else:
        click.echo(
            f"index of {problem.describe()}: depth {info['depth']}, {info['rows']} prefixes, "
            f"{info['total']} solutions, {info['bytes'] / 1e6:.1f} MB, {info['seconds']:.1f} s\n{info['path']}"
        )
    return 0


@index_group.command("info")
@click.option(
    "--index",
    "index_path",
    default=None,
    metavar="DIR",
    help="Index directory (default: $QUEENSLAB_INDEX_DIR or the user cache).",
)
@json_option
def index_info_cmd(index_path, as_json) -> int:
    """List the indexes: n, depth, status, size on disk, total.

    \b
    JSON keys: directory, indexes (each: path, bytes, status, n, depth, total, rows,
    problem, built; null where a file could not be read).
    """
    from ..ranking.index import index_dir, list_indexes

    entries = list_indexes(index_path)
    if as_json:
        emit_json({"directory": str(index_dir(index_path)), "indexes": entries})
        return 0
    click.echo(f"index directory: {index_dir(index_path)}")
    if not entries:
        click.echo("no indexes")
    for e in entries:
        if e["problem"] is None:
            click.echo(f"  {e['path']}: {e['status']}")
            continue
        prob = Problem.from_dict(e["problem"])
        total = "-" if e.get("total") is None else e["total"]
        click.echo(f"  {prob.describe()}: depth {e['depth']}, total {total}, {e['bytes'] / 1e6:.2f} MB, {e['status']}")
    return 0
