"""``solutions`` and ``show``: placements enumerated and drawn.

Modules that load the numba kernels are imported inside the commands that run them, so
that ``queenslab --help`` and the light commands start without the compiler.
"""

from __future__ import annotations

import json
import sys

import click

from .. import interrupt
from ..errors import QueensError, TooLarge, UnsupportedProblem
from ..outfile import NpyRows, atomic_output, free_bytes
from ..problem import Problem, leaper_name
from ..solution import board_text, conflicts, format_placement, parse_placement, why_not_solution
from ..viz.bits import MAX_PNG_SIDE
from .app import Command, emit_json
from .options import InputPath, force_option, json_option, number_option, out_option, placement_arg, problem_options


@click.command("solutions", cls=Command)
@problem_options(optional_n=True)
@number_option("--limit", 0, "K", "At most K solutions.")
@number_option("--offset", 0, "R", "Skip the first R solutions.", default=0)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["spaces", "digits", "json", "board", "npy"]),
    default="spaces",
    help="spaces: '2 4 1 3'; digits: '2413' (n <= 9); json: one list per line (these three 1-based); board: "
    "each solution drawn as a text board (n <= 100), after a line 'solution K:'; npy: a numpy file of 0-based "
    "columns, one row per solution, as numpy and the Python API hold them, streamed (needs --out).",
)
@out_option("Write to file F instead of standard output, whole or not at all (an interrupted run leaves F as it was).")
@force_option(
    "counting (an --offset without an index, an .npy file of every solution) and of the search for the first solution"
)
@json_option
def solutions_cmd(problem, limit, offset, fmt, out, force, as_json):
    """Enumerate solutions in lexicographic order (1-based columns), streaming.

    Text and JSON are 1-based; --format npy writes 0-based columns (an int64 array of
    shape (k, N)), so that numpy.load gives the Python API's placements.

    \b
    JSON keys: n, problem, offset, limit, listed (how many solutions were written),
    format, out, solutions (the list of 1-based placements; null when they go to a file).

    \b
    Examples:
      queenslab solutions 8 --limit 3
      queenslab solutions 10 --offset 99 --limit 1     # the 100th solution (unranked, not enumerated)
      queenslab solutions 12 --format npy --out s12.npy
      queenslab solutions 6 --format board
    """
    n = problem.n
    if fmt == "digits" and n > 9:
        raise QueensError(f"--format digits needs n <= 9, got n = {n}; use spaces or json")
    if fmt == "board" and n > TEXT_BOARD_MAX_N:
        raise QueensError(f"--format board draws boards up to n = {TEXT_BOARD_MAX_N}, got n = {n}; use spaces or json")
    if fmt == "npy" and out is None:
        raise QueensError("--format npy writes a binary file: give --out FILE.npy")

    def stream():
        from ..ranking.lex import solution_batches

        return solution_batches(problem, offset=offset, limit=limit, force=force)

    def report(listed: int, sols) -> None:
        from ..reports import SolutionsReport

        emit_json(SolutionsReport(n, problem, offset, limit, listed, fmt, out, sols))

    if fmt == "npy":
        if limit is None:  # every solution from the offset on: refuse early what cannot fit on the disk
            from ..backends import count

            _check_room(out, max(0, count(problem, force=force) - offset), n)
        with atomic_output(out, "wb", what="--out") as fh:
            rows = NpyRows(fh, n)
            for arr in stream():
                interrupt.check()  # Ctrl-C (seen by the main thread) stops the writing too
                rows.write(arr)
            written = rows.finish()
        if as_json:
            report(written, None)
        else:
            click.echo(f"wrote {written} solutions (0-based, int64) to {out}", err=True)
        return 0

    if as_json and out is None:
        flat = tuple(tuple(s) for a in stream() for s in a.tolist())
        report(len(flat), flat)
        return 0

    def write_lines(fh) -> int:
        written = 0
        for arr in stream():
            interrupt.check()
            written += len(arr)
            if fmt == "json":  # 1-based, null for an empty row
                lines = [json.dumps([c + 1 if c >= 0 else None for c in row]) for row in arr.tolist()]
            elif fmt == "board":
                first = offset + written - len(arr) + 1
                lines = [f"solution {first + k}:\n{board_text(problem, row)}\n" for k, row in enumerate(arr.tolist())]
            else:
                lines = [format_placement(row, fmt, problem.columns) for row in arr.tolist()]
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


#: Largest board ``show`` draws as text; larger ones need --png.
TEXT_BOARD_MAX_N = 100


def _pictures(problem: Problem | None, p, png, svg, scale, bits, attacks) -> dict:
    """Write the pictures asked for; returns the JSON keys ``png``, ``svg``, ``pixels``."""
    n = problem.n if problem is not None else len(p)
    out: dict = {"png": png, "svg": svg, "pixels": None}
    row = None
    if attacks is not None:
        if p is None:
            raise QueensError("--attacks R tints the cells attacked by the queen of row R: give a placement")
        if attacks > n:
            raise QueensError(f"--attacks takes a row 1..{n}, got {attacks}")
        row = attacks - 1
    if (png is None and svg is None) and (scale is not None or bits or attacks is not None):
        raise QueensError("--scale, --bits and --attacks shape a picture: give --png F or --svg F")
    if bits and (png is None or attacks is not None):
        raise QueensError("--bits draws the 1-bit PNG (white queens on black): give --png F, without --attacks")
    from ..viz.scene import MAX_N

    if svg is not None:
        if n > MAX_N:
            raise TooLarge(f"an SVG board is drawn up to n = {MAX_N}; write a 1-bit PNG with --png F --bits")
        from ..viz.svg import write_svg

        write_svg(svg, problem, p, attacks_of=row, cell=scale)
    if png is not None:
        if bits or n > MAX_N:
            if p is None:
                raise QueensError("the 1-bit PNG draws a placement; give one")
            if row is not None:
                raise QueensError(f"--attacks is drawn on boards up to n = {MAX_N}, not on the 1-bit PNG")
            from ..viz.bits import write_png

            out["pixels"] = tuple(write_png(p, png, scale=scale or 1))
        else:
            from ..viz.png import write_board_png

            out["pixels"] = tuple(write_board_png(png, problem, p, attacks_of=row, cell=scale))
    return out


def _show_problem(problem: Problem, png, svg, scale, attacks, as_json: bool) -> int:
    """``show --problem FILE`` without a placement: the board with its constraints marked."""
    if problem.n > TEXT_BOARD_MAX_N and png is None and svg is None:
        raise TooLarge(f"a {problem.n} x {problem.n} board is too large to draw as text (n <= {TEXT_BOARD_MAX_N})")
    pictures = _pictures(problem, None, png, svg, scale, False, attacks)
    text = board_text(problem) if problem.n <= TEXT_BOARD_MAX_N else None
    if as_json:
        from ..reports import ShowReport

        emit_json(
            ShowReport(
                n=problem.n,
                problem=problem,
                placement=None,
                valid=None,
                conflict=None,
                board=tuple(text.splitlines()) if text is not None and png is None and svg is None else None,
                **pictures,
            )
        )
        return 0
    if png is not None or svg is not None:
        _say_written(pictures, problem.n)
        return 0
    assert text is not None
    click.echo(f"{problem.describe()}: # blocked cell, F fixed queen, a, b, ... the cells of region 1, 2, ...")
    for i, region in enumerate(problem.regions):
        click.echo(f"region {i + 1}: {region.describe()}")
    if problem.leaps:
        click.echo("queens also jump as " + ", ".join(f"{leaper_name(x)} {x}" for x in problem.leaps))
    click.echo(text)
    return 0


def _show_board(problem: Problem, p: tuple[int, ...], png, svg, scale, attacks, as_json: bool) -> int:
    """``show`` of a placement of k queens on an r x c board (--columns, --queens): the
    text board (``.`` for an empty row's cells) or its pictures, and whether it solves the problem."""
    if max(problem.n, problem.columns) > TEXT_BOARD_MAX_N and png is None and svg is None:
        raise TooLarge(f"a {problem.n} x {problem.columns} board is too large to draw as text; write --svg F")
    if attacks is not None and attacks <= problem.n and p[attacks - 1] < 0:
        raise QueensError(f"--attacks {attacks}: row {attacks} holds no queen")
    pictures = _pictures(problem, p, png, svg, scale, False, attacks)
    why = why_not_solution(problem, p)
    text = board_text(problem, p) if png is None and svg is None else None
    if as_json:
        from ..reports import ShowReport

        emit_json(
            ShowReport(
                n=problem.n,
                problem=problem,
                placement=p,
                valid=why is None,
                conflict=why,
                board=tuple(text.splitlines()) if text is not None else None,
                **pictures,
            )
        )
        return 0
    if text is None:
        _say_written(pictures, problem.n, problem.columns)
    else:
        click.echo(text)
    click.echo(f"a solution of {problem.describe()}" if why is None else f"not a solution: {why}", err=True)
    return 0


def _say_written(pictures: dict, n: int, m: int | None = None) -> None:
    m = n if m is None else m
    if pictures["svg"] is not None:
        click.echo(f"wrote {pictures['svg']} (SVG, {n} x {m} board)")
    if pictures["png"] is not None:
        width, height = pictures["pixels"]
        click.echo(f"wrote {pictures['png']} ({width} x {height} pixels, {n} x {m} board)")


@click.command("show", cls=Command)
@click.argument("placement", nargs=-1)
@click.option(
    "--from",
    "from_file",
    type=InputPath(),
    default=None,
    metavar="F",
    help="Read the placement from F: F.npy (a 1-D array of 0-based columns, as `solve --out F.npy` and "
    "numpy.save write it) or text with 1-based columns '2, 4, 1, 3'.",
)
@out_option(
    "Write a PNG picture of the board (checkerboard, queens, marked cells; n <= 2000), or with "
    "--bits a 1-bit picture, white queens on black (boards up to 20,000).",
    flag="--png",
    metavar="OUT",
)
@out_option("Write an SVG picture of the board (n <= 2000).", flag="--svg", metavar="OUT")
@click.option(
    "--scale",
    type=click.IntRange(min=1, max=MAX_PNG_SIDE),
    default=None,
    metavar="K",
    help="Pixels per cell side (default: 48 for small boards down to 3 from n = 160 on; 1 with --bits).",
)
@click.option("--bits", is_flag=True, help="--png: the 1-bit picture, one pixel (or K x K) per cell.")
@click.option(
    "--attacks",
    type=click.IntRange(min=1, max=MAX_PNG_SIDE),
    default=None,
    metavar="R",
    help="Tint the cells the queen of row R (1-based) attacks (--png / --svg).",
)
@problem_options(n_argument=False)
@json_option
def show_cmd(placement, from_file, png, svg, scale, bits, attacks, variant, as_json):
    """Draw PLACEMENT as a text board (Q queen, . empty, # blocked, F missing fixed queen,
    a, b, ... region cells), or as a picture (--png, --svg), and say whether it is a
    solution: exits 0 for a solution, 1 otherwise. With --problem FILE and no placement,
    the problem's constraints are drawn.

    Text boards are drawn up to n = 100, pictures of the board up to n = 2000. The 1-bit
    PNG (--png F --bits, and any --png above n = 2000) takes boards up to 20,000 x 20,000
    pixels (like the self-correcting Queens program's picture of 10,000 queens); large
    placements come from a file (--from F: a .npy file holds 0-based columns, a text
    file 1-based ones; a file of the other base is refused).

    \b
    JSON keys: n, problem (null for a large board checked without variant flags),
    placement (null for n > 1000), valid, conflict, board (text lines; null with a
    picture), png, svg, pixels (the PNG's width and height).

    \b
    Examples:
      queenslab show 2 4 1 3
      queenslab show 1 5 8 6 3 7 2 4 --svg q8.svg --attacks 4
      queenslab show --problem examples/two-in-the-top-left-quadrant.toml --png variant.png
      queenslab solve 10000 --out q.npy && queenslab show --from q.npy --png q.png --bits
    """
    if from_file is not None:
        if placement:
            raise QueensError("give the placement either as arguments or with --from F, not both")
        from ..placement_file import read_placement

        p = read_placement(from_file)
    elif not placement and variant.file is not None:
        return _show_problem(variant(None), png, svg, scale, attacks, as_json)
    elif variant.board:
        board, p = variant.placement(placement_arg(placement))
        return _show_board(board, p, png, svg, scale, attacks, as_json)
    else:
        p = parse_placement(placement_arg(placement))
    n = len(p)
    picture = png is not None or svg is not None
    if not picture and n > TEXT_BOARD_MAX_N:
        raise TooLarge(
            f"a {n} x {n} board is too large to draw as text (n <= {TEXT_BOARD_MAX_N}); "
            "write a picture with --png F.png (or --svg F.svg up to n = 2000)"
        )
    from ..viz.scene import MAX_N

    checkable = n <= TEXT_BOARD_MAX_N or (variant.given and n <= MAX_N)
    problem = variant(n) if n <= TEXT_BOARD_MAX_N or variant.given else None
    if problem is not None and not checkable:
        raise UnsupportedProblem(
            f"variant flags are checked on boards up to n = {MAX_N}; drop them to check a {n}-queens placement in O(n)"
        )
    if problem is not None:
        found = conflicts(problem, p)
        why = found[0].message if found else None
    else:
        from ..heuristics.construct import find_conflict

        first = find_conflict(p)
        why = first.message if first is not None else None
    text = board_text(problem, p) if problem is not None and n <= TEXT_BOARD_MAX_N and not picture else None
    pictures = _pictures(
        problem if problem is not None else Problem(n) if n <= MAX_N else None, p, png, svg, scale, bits, attacks
    )
    if as_json:
        from ..reports import ShowReport

        emit_json(
            ShowReport(
                n=n,
                problem=problem,
                placement=tuple(int(c) for c in p) if n <= 1000 else None,
                valid=why is None,
                conflict=why,
                board=tuple(text.splitlines()) if text is not None else None,
                **pictures,
            )
        )
    elif not picture:
        click.echo(text)
        if why is not None:
            click.echo(f"not a solution: {why}")
    else:
        _say_written(pictures, n)
        click.echo("a solution" if why is None else f"not a solution: {why}")
    return 0 if why is None else 1
