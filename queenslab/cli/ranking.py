"""``rank``, ``unrank``, ``sample`` and ``index``: lexicographic ranks and the index.

The ranking modules load the numba kernels, so they are imported inside the commands.
The work runs through :func:`queenslab.interrupt.run`, so Ctrl-C stops it within about a
second (exit 130); an interrupted ``index build`` keeps its finished tasks.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click

from .. import interrupt
from ..errors import QueensError
from ..problem import Problem
from ..reports import (
    IndexBuildReport,
    IndexEntry,
    IndexInfoReport,
    IndexVerifyReport,
    RankReport,
    Sample,
    SampleReport,
    UnrankReport,
    to_json,
)
from ..solution import format_placement, parse_placement
from .app import Command, Group, emit_json
from .options import (
    INT64_MAX,
    Progress,
    force_option,
    index_options,
    json_option,
    number_option,
    placement_arg,
    problem_options,
)

_THREADS = number_option("--threads", 1, "T", "Threads (default: every core).")
_FORCE = force_option("ranking without an index (days to years of counting)")


def _index_path(index) -> str | None:
    return str(index.path) if hasattr(index, "path") else None


def _note(message: str) -> None:
    click.echo(f"note: {message}", err=True)


@click.command("rank", cls=Command)
@problem_options
@click.argument("placement", nargs=-1, required=True)
@index_options
@_THREADS
@_FORCE
@json_option
def rank_cmd(problem: Problem, placement, index, threads, force, as_json) -> int:
    """Print the 1-based lexicographic rank of a solution (without enumerating).

    A complete index of the problem is used when there is one. Without one, n above 18
    is refused (the subtree counts would take days or more) unless --force.

    \b
    JSON keys: n, problem, placement, rank (1-based), seconds, index (the index file
    used, or null).

    \b
    Example:
      queenslab rank 10 "2 8 10 4 1 5 9 6 3 7"      # 100 (1-based: ...)
    """
    from ..ranking.lex import rank

    p = parse_placement(placement_arg(placement), problem.n)
    t0 = time.perf_counter()
    r = interrupt.run(rank, problem, p, index=index, threads=threads, force=force)
    if as_json:
        emit_json(RankReport(problem.n, problem, tuple(p), r, time.perf_counter() - t0, _index_path(index)))
    else:
        click.echo(f"{r + 1} (1-based: the first solution in lexicographic order is rank 1)")
    return 0


@click.command("unrank", cls=Command)
@problem_options
@click.argument("r", type=click.IntRange(min=1, max=INT64_MAX))
@index_options
@_THREADS
@_FORCE
@json_option
def unrank_cmd(problem: Problem, r: int, index, threads, force, as_json) -> int:
    """Print the R-th solution (1-based) in lexicographic order.

    A complete index of the problem is used when there is one. Without one, n above 18
    is refused (the subtree counts would take days or more) unless --force.

    \b
    JSON keys: n, problem, rank, solution (1-based), seconds, index.

    \b
    Example:
      queenslab unrank 10 100                        # 2 8 10 4 1 5 9 6 3 7
    """
    from ..ranking.lex import unrank

    t0 = time.perf_counter()
    s = interrupt.run(unrank, problem, r - 1, index=index, threads=threads, force=force)
    if as_json:
        emit_json(UnrankReport(problem.n, problem, r - 1, tuple(s), time.perf_counter() - t0, _index_path(index)))
    else:
        click.echo(format_placement(s))
    return 0


@click.command("sample", cls=Command)
@problem_options
@click.argument("k", type=click.IntRange(min=0, max=INT64_MAX))
@number_option("--seed", 0, "S", "Random seed: the same seed, the same sample (default 0).", default=0)
@click.option(
    "--distinct", is_flag=True, help="Without replacement: every solution at most once (K <= number of solutions)."
)
@index_options
@_THREADS
@force_option("sampling: without an index, and the number of samples")
@json_option
def sample_cmd(problem: Problem, k: int, seed: int, distinct: bool, index, threads, force, as_json) -> int:
    """Print K uniformly random solutions (exactly uniform: random ranks, unranked).

    Each solution is printed as soon as it is drawn; on a terminal a bar on stderr shows
    how many are drawn and the time left. Draws are independent (with replacement)
    unless --distinct. Without an index, n above 18 is refused unless --force, and so
    is K above 10,000 (each sample is unranked by counting subtrees).

    \b
    JSON keys: n, problem, seed, samples (each: rank, solution), index. The one JSON
    object is streamed: its samples list grows as they are drawn.

    \b
    Examples:
      queenslab sample 12 5 --seed 7
      queenslab sample 8 10 --distinct
    """
    from ..ranking.sampling import iter_samples

    draws = iter_samples(problem, k, seed=seed, index=index, threads=threads, distinct=distinct, force=force)

    def stream() -> None:
        if not as_json:
            progress = Progress(True, f"sample {problem.n}", unit="sample")
            progress(0, k)
            try:
                for i, (_, s) in enumerate(draws):
                    progress.echo(format_placement(s))
                    progress(i + 1, k)
            finally:
                progress.close()
            return
        # the report is written as the samples are drawn: its head, then each sample
        head = json.dumps(to_json(SampleReport(problem.n, problem, seed, _index_path(index))))
        click.echo(head[: -len("[]}")] + "[", nl=False)
        try:
            for i, (r, s) in enumerate(draws):
                item = json.dumps(to_json(Sample(r, tuple(s))))
                click.echo(item if i == 0 else ", " + item, nl=False)
        except QueensError:
            click.echo("")  # the error object follows on its own line
            raise
        click.echo("]}")

    interrupt.run(stream)
    return 0


@click.group("index", cls=Group)
def index_group() -> None:
    """The persistent prefix-count index that makes rank / unrank fast."""


def _build_target(index_path: str | None) -> dict:
    if index_path is None:
        return {}
    p = Path(index_path)
    return {"path": p} if p.suffix == ".sqlite" or os.path.isfile(p) else {"directory": p}


def _counted(info: dict) -> dict:
    """An index's description with its number of solutions under the report's key."""
    info = dict(info)
    info["count"] = info.pop("total")
    return info


@index_group.command("build")
@problem_options(optional_n=True)
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
@force_option("a build, which counts every solution")
@click.option(
    "--dask",
    metavar="local:K|tcp://H:P",
    default=None,
    help="Count the build's tasks on a Dask cluster (local:K worker processes on loopback, or a "
    "scheduler's address); the index is written here, resumable as on threads. Needs the extra 'dask'.",
)
@json_option
def index_build_cmd(problem: Problem, depth, index_path, threads, rebuild, force, dask, as_json) -> int:
    """Build (or resume) the index of a problem. Interrupt with Ctrl-C; run again to resume.

    The build works in FILE.partial (resumable; a resumed build re-checks the tasks it
    finds and recomputes any that fail) and renames the finished index into place, so
    the index file only ever exists complete. A second build of the same index waits
    for the first ("being built by PID ...") and returns its result.

    \b
    JSON keys: path, n, depth, count (the number of solutions), rows, bytes, problem,
    built, seconds, status.

    \b
    Examples:
      queenslab index build 16
      queenslab index build 12 --toroidal --depth 3
      queenslab index build 17 --dask local:2
    """
    import contextlib

    from ..ranking.index import build_index

    progress = Progress(not as_json, f"index {problem.n}")
    t0 = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            client = None
            if dask is not None:
                from ..distributed.runner import connect

                client = stack.enter_context(connect(dask))
            idx = interrupt.run(
                build_index,
                problem,
                depth,
                threads=threads,
                progress=progress,
                rebuild=rebuild,
                force=force,
                note=_note,
                client=client,
                **_build_target(index_path),
            )
    finally:
        progress.close()
    info = idx.info()
    idx.close()
    info["seconds"] = round(time.perf_counter() - t0, 3)
    if as_json:
        emit_json(IndexBuildReport(**_counted(info)))
    else:
        click.echo(
            f"index of {problem.describe()}: depth {info['depth']}, {info['rows']} prefixes, "
            f"{info['total']} solutions, {info['bytes'] / 1e6:.1f} MB, {info['seconds']:.1f} s\n{info['path']}"
        )
    return 0


@index_group.command("verify")
@problem_options(optional_n=True)
@number_option("--depth", 1, "D", "Which index of the problem (default: the deepest complete one).")
@click.option(
    "--index",
    "index_path",
    default=None,
    metavar="PATH",
    help="Index directory, or the index file (default: $QUEENSLAB_INDEX_DIR or the user cache).",
)
@number_option("--recount", 0, "K", "Also recount K random prefixes with the engine.", default=0)
@number_option("--seed", 0, "S", "Which prefixes --recount picks (default 0).", default=0)
@_THREADS
@json_option
def index_verify_cmd(problem: Problem, depth, index_path, recount, seed, threads, as_json) -> int:
    """Check an index completely: every row's check, the cum chain, the total, the
    table digest, SQLite's integrity check; with --recount K also K prefix counts.

    Exit 0 when every check passes; a failed check is an error (exit 2) that says what
    is wrong and how to rebuild the index.

    \b
    JSON keys: path, n, depth, count (the number of solutions), rows, problem, checks,
    recounted, seconds, status.

    \b
    Example:
      queenslab index verify 16 --recount 100
    """
    from ..errors import InvalidIndex
    from ..ranking.index import PrefixIndex, find_index, index_dir, index_path as path_of

    t0 = time.perf_counter()
    p = Path(index_path) if index_path is not None else None
    if p is not None and os.path.isfile(p):
        idx = PrefixIndex.open(p, problem)
    elif depth is not None:
        idx = PrefixIndex.open(path_of(problem, depth, p), problem)
    else:
        found = find_index(problem, p)
        if found is None:
            raise InvalidIndex(
                f"no complete index for {problem.describe()} in {index_dir(p)}; "
                f"build one with `queenslab index build {problem.n}`"
            )
        idx = found
    with idx:
        progress = Progress(not as_json, f"verify {problem.n}")
        try:
            report = interrupt.run(idx.verify, recount=recount, seed=seed, threads=threads, progress=progress)
        finally:
            progress.close()
        out = IndexVerifyReport(
            path=str(idx.path),
            n=problem.n,
            depth=idx.depth,
            count=report["total"],
            rows=report["rows"],
            problem=problem,
            checks=tuple(report["checks"]),
            recounted=report["recounted"],
            seconds=time.perf_counter() - t0,
            status="ok",
        )
    if as_json:
        emit_json(out)
    else:
        click.echo(
            f"index of {problem.describe()} (depth {out.depth}, {out.rows} prefixes, {out.count} "
            f"solutions) is consistent: {', '.join(out.checks)}\n{out.path}"
        )
    return 0


@index_group.command("info")
@click.option(
    "--index",
    "index_path",
    default=None,
    metavar="PATH",
    help="Index directory, or one index file (default: $QUEENSLAB_INDEX_DIR or the user cache).",
)
@json_option
def index_info_cmd(index_path, as_json) -> int:
    """List the indexes and partial builds: n, depth, status, size on disk, total.

    Only the cheap checks are run here; `queenslab index verify` checks everything.

    \b
    Examples:
      queenslab index info
      queenslab index info --index ./indexes --json

    \b
    JSON keys: directory, indexes (each: path, bytes, status, n, depth, count, rows,
    problem, built; null where unknown or unreadable).
    """
    from ..ranking.index import index_dir, list_indexes

    entries = list_indexes(index_path)
    if as_json:
        found = tuple(IndexEntry(**_counted(e)) for e in entries)
        emit_json(IndexInfoReport(str(index_dir(index_path)), found))
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
