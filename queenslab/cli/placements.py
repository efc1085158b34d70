"""``solutions``, ``check`` and ``show``: placements enumerated, checked and drawn.

Modules that load the numba kernels are imported inside the commands that run them, so
that ``queenslab --help`` and the light commands start without the compiler.
"""

from __future__ import annotations

import json
import sys

import click

from .. import interrupt
from ..backends import count
from ..errors import QueensError, TooLarge, UnsupportedProblem
from ..outfile import NpyRows, atomic_output, free_bytes
from ..placement_file import read_placement
from ..problem import Problem, leaper_name
from ..solution import board_text, conflicts, format_placement, parse_placement
from ..viz import MAX_PNG_SIDE
from .app import cli, emit_json
from .options import json_option, number_option, out_option, placement_arg, problem_options


@cli.command("solutions")
@problem_options(optional_n=True)
@number_option("--limit", 0, "K", "At most K solutions.")
@number_option("--offset", 0, "R", "Skip the first R solutions.", default=0)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["spaces", "digits", "json", "npy"]),
    default="spaces",
    help="spaces: '2 4 1 3'; digits: '2413' (n <= 9); json: one list per line; npy: a numpy file, streamed "
    "(needs --out).",
)
@out_option("Write to file F instead of standard output, whole or not at all (an interrupted run leaves F as it was).")
@click.option(
    "--force",
    is_flag=True,
    help="Go ahead for n above the practical limit (18) where the command must count: an --offset "
    "without an index, or an .npy file of every solution.",
)
@json_option
def solutions_cmd(problem, limit, offset, fmt, out, force, as_json):
    """Enumerate solutions in lexicographic order (1-based columns), streaming.

    \b
    JSON keys: n, problem, offset, limit, count, format, out, solutions (the list of
    1-based placements; null when they go to a file).

    \b
    Examples:
      queenslab solutions 8 --limit 3
      queenslab solutions 10 --offset 99 --limit 1     # the 100th solution (unranked, not enumerated)
      queenslab solutions 12 --format npy --out s12.npy
    """
    n = problem.n
    if fmt == "digits" and n > 9:
        raise QueensError(f"--format digits needs n <= 9, got n = {n}; use spaces or json")
    if fmt == "npy" and out is None:
        raise QueensError("--format npy writes a binary file: give --out FILE.npy")

    def stream():
        from ..ranking.lex import solution_batches

        return solution_batches(problem, offset=offset, limit=limit, force=force)

    def report(count: int, sols) -> None:
        emit_json(
            {
                "n": n,
                "problem": problem.to_dict(one_based=True),
                "offset": offset,
                "limit": limit,
                "count": count,
                "format": fmt,
                "out": out,
                "solutions": sols,
            }
        )

    if fmt == "npy":
        if limit is None:  # every solution from the offset on: refuse early what cannot fit on the disk
            _check_room(out, max(0, count(problem, force=force) - offset), n)
        with atomic_output(out, "wb", what="--out") as fh:
            rows = NpyRows(fh, n)
            for arr in stream():
                interrupt.check()  # Ctrl-C (seen by the main thread) stops the writing too
                rows.write(arr + 1)
            written = rows.finish()
        if as_json:
            report(written, None)
        else:
            click.echo(f"wrote {written} solutions (1-based, int64) to {out}", err=True)
        return 0

    if as_json and out is None:
        flat = [s for a in stream() for s in (a + 1).tolist()]
        report(len(flat), flat)
        return 0

    def write_lines(fh) -> int:
        written = 0
        for arr in stream():
            interrupt.check()
            written += len(arr)
            if fmt == "json":
                lines = [json.dumps(row) for row in (arr + 1).tolist()]
            else:
                lines = [format_placement(row, fmt) for row in arr.tolist()]
            fh.write("\n".join(lines) + "\n")
        return written

    if out is None:
        try:
            written = write_lines(sys.stdout)
        except BrokenPipeError:  # e.g. piped into head
            sys.stderr.close()
            return 0
    else:
        with atomic_output(out, "w", what="--out") as fh:
            written = write_lines(fh)
    if as_json:
        report(written, None)
    return 0


def _check_room(out: str, rows: int, n: int) -> None:
    """Refuse an ``.npy`` file of ``rows`` rows that the disk has no room for."""
    need = NpyRows.HEADER_BYTES + rows * n * 8
    free = free_bytes(out)
    if free is not None and need > free:
        raise TooLarge(
            f"--out {out}: {rows:,} solutions of {n} int64 columns need {_size(need)} and {_size(free)} is free "
            "there; give --limit K (and --offset R) to write a part, or write to a larger disk"
        )


def _size(b: int) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= scale:
            return f"{b / scale:.1f} {unit}"
    return f"{b} bytes"


def _show_problem(problem: Problem, png: str | None, as_json: bool) -> int:
    """``show --problem FILE`` without a placement: the board with its constraints marked."""
    if png is not None:
        raise QueensError("--png draws a placement; give one (the board of a problem alone is drawn as text)")
    if problem.n > TEXT_BOARD_MAX_N:
        raise TooLarge(f"a {problem.n} x {problem.n} board is too large to draw as text (n <= {TEXT_BOARD_MAX_N})")
    text = board_text(problem)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "placement": None,
                "solution": None,
                "conflict": None,
                "board": text.splitlines(),
                "png": None,
                "pixels": None,
            }
        )
        return 0
    click.echo(f"{problem.describe()}: # no queen, F fixed queen, a, b, ... the cells of region 1, 2, ...")
    for i, region in enumerate(problem.regions):
        click.echo(f"region {i + 1}: {region.describe()}")
    if problem.leaps:
        click.echo("queens also jump as " + ", ".join(f"{leaper_name(x)} {x}" for x in problem.leaps))
    click.echo(text)
    return 0


@cli.command("check")
@click.argument("placement", nargs=-1)
@problem_options(n_argument=False)
@json_option
def check_cmd(placement, variant, as_json):
    """Check whether PLACEMENT is a solution and say why not.

    PLACEMENT lists the 1-based column of each row: '2 4 1 3', 2,4,1,3 or 2413.
    Exits 0 for a solution, 1 otherwise.

    \b
    JSON keys: n, problem, placement, solution, conflicts (each: kind, cells, message).

    \b
    Examples:
      queenslab check 2 8 10 4 1 5 9 6 3 7
      queenslab check 15863724 --json
    """
    p = parse_placement(placement_arg(placement))
    problem = variant(len(p))
    found = conflicts(problem, p)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
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
@click.option(
    "--from",
    "from_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="F",
    help="Read the placement from F: F.npy (1-based array, as `solve --out` writes) or text '2, 4, 1, 3'.",
)
@out_option(
    "Write a PNG picture (white queens on black) instead of the text board; boards up to 20,000.",
    flag="--png",
    metavar="OUT",
)
@click.option(
    "--scale",
    type=click.IntRange(min=1, max=MAX_PNG_SIDE),
    default=1,
    show_default=True,
    metavar="K",
    help="--png: pixels per cell side (n * K <= 20,000).",
)
@problem_options(n_argument=False)
@json_option
def show_cmd(placement, from_file, png, scale, variant, as_json):
    """Draw PLACEMENT as a text board (Q queen, . empty, # blocked, F missing fixed queen),
    or as a PNG with one pixel per cell (--png), and say whether it is a solution:
    exits 0 for a solution, 1 otherwise.

    Text boards are drawn up to n = 100. A PNG takes any board up to 20,000 x 20,000
    (like the self-correcting Queens program's picture of 10,000 queens); large placements come from a file.

    \b
    JSON keys: n, problem (null for a large board checked without variant flags),
    placement (null for n > 1000), solution, conflict, board (text lines; null with
    --png), png, pixels.

    \b
    Examples:
      queenslab show 2 4 1 3
      queenslab show 2 4 1 3 --png q4.png --scale 20
      queenslab solve 10000 --method minconflicts --out q.npy && queenslab show --from q.npy --png q.png
    """
    if from_file is not None:
        if placement:
            raise QueensError("give the placement either as arguments or with --from F, not both")
        p = read_placement(from_file)
    elif not placement and variant.file is not None:
        return _show_problem(variant(None), png, as_json)
    else:
        p = parse_placement(placement_arg(placement))
    n = len(p)
    if scale != 1 and png is None:
        raise QueensError("--scale applies to --png pictures only")
    if png is None and n > TEXT_BOARD_MAX_N:
        raise TooLarge(
            f"a {n} x {n} board is too large to draw as text (n <= {TEXT_BOARD_MAX_N}); "
            "write a picture with --png F.png"
        )
    problem = variant(n) if n <= TEXT_BOARD_MAX_N else None
    if problem is None and variant.given:
        raise UnsupportedProblem(
            f"variant flags are checked on boards up to n = {TEXT_BOARD_MAX_N}; drop them to check a "
            f"{n}-queens placement in O(n)"
        )
    if problem is not None:
        found = conflicts(problem, p)
        why = found[0].message() if found else None
        text = board_text(problem, p)
    else:
        from ..heuristics.construct import find_conflict

        first = find_conflict(p)
        why = first.message() if first is not None else None
        text = None
    result: dict = {
        "n": n,
        "problem": problem.to_dict(one_based=True) if problem is not None else None,
        "placement": [int(c) + 1 for c in p] if n <= 1000 else None,
        "solution": why is None,
        "conflict": why,
        "board": text.splitlines() if text is not None and png is None else None,
        "png": png,
        "pixels": None,
    }
    if png is not None:
        from ..viz import write_png

        result["pixels"] = list(write_png(p, png, scale=scale))
    if as_json:
        emit_json(result)
    elif png is None:
        click.echo(text)
        if why is not None:
            click.echo(f"not a solution: {why}")
    else:
        width, height = result["pixels"]
        click.echo(f"wrote {png} ({width} x {height} pixels, {n} queens)")
        click.echo("a solution" if why is None else f"not a solution: {why}")
    return 0 if why is None else 1
