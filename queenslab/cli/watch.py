"""``queenslab watch`` and ``queenslab replay``: a search drawn step by step, and a trace file read back.

``watch`` runs the search with :func:`queenslab.trace.recording` (the package's own
algorithm, so the same seed gives the same steps and ends on the board ``solve`` gives)
in a worker thread and draws its steps on the terminal with rich's live display while it
runs: the board, the step, the queens attacking each other and the solutions found. The
search hands over its steps in chunks (:mod:`queenslab.trace.stream`: the native walk
:data:`LIVE_CHUNK` steps at a time, the local searches a try at a time) and never waits
for the display; ``--record`` writes the same file as without a terminal. Boards up to n = 20 are drawn one
line per row, up to n = 40 two rows per line (half blocks), larger ones summarised, so
the display fits an 80x24 terminal. Colours only on a terminal; without one the command
prints nothing but its final line (or its JSON object). Ctrl-C stops the search and the
display (exit 130; no trace file is written).

``replay`` reads a trace file (:mod:`queenslab.trace.fileformat`) and prints its
summary, an animated SVG (``--svg``) or GIF (``--gif``), an MP4 video (``--mp4``), a
strip of frames (``--frames``)
and a backtracking trace's search tree (``--tree``).
"""

from __future__ import annotations

import math
import queue
import sys
import threading
import time
from typing import Any, NamedTuple

import click
import numpy as np

from .. import interrupt
from ..errors import QueensError, TooLarge
from ..outfile import staged
from ..problem import Problem
from ..reports import ReplayReport, WatchReport
from ..solution import format_placement
from ..trace import METHODS, RANDOMISED, Recording, Step, Trace, attacking_pairs, read_trace, recording, write_trace
from ..trace.steps import apply
from ..viz.scene import MAX_N, scene
from .app import Command, emit_json
from .options import (
    INT64_MAX,
    InputPath,
    OutputPath,
    force_option,
    json_option,
    number_option,
    out_option,
    problem_options,
)

__all__ = ["watch_cmd", "replay_cmd", "DRAW_MAX_N", "HALF_MAX_N"]

#: Boards drawn one line per row up to this n, two rows per line up to HALF_MAX_N;
#: larger boards are summarised (an 80x24 terminal holds them).
DRAW_MAX_N = 20
HALF_MAX_N = 40
#: Placements printed in the final line up to this n.
PRINT_MAX_N = 1000
#: Display refreshes per second when the steps come faster.
_FPS = 20
#: The default step cap of ``watch``.
WATCH_MAX_STEPS = 10_000
#: Steps per chunk of the backtracking walk drawn live (a call of the native walk).
LIVE_CHUNK = 1024


class _Delay(click.ParamType):
    """Seconds between two steps: a finite number >= 0."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = math.nan
        if not (math.isfinite(seconds) and 0 <= seconds <= 60):
            self.fail(f"{value!r} is not a delay: give seconds between 0 and 60, for example 0.05", param, ctx)
        return seconds


class _FramesPerSecond(click.ParamType):
    """Frames per second of an animation: a finite number 0.5..60 (nan is refused, which a
    plain float range lets through)."""

    name = "fps"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            fps = float(value)
        except (TypeError, ValueError, OverflowError):
            fps = math.nan
        if not (math.isfinite(fps) and 0.5 <= fps <= 60):
            self.fail(
                f"{value!r} is not a frame rate: give frames per second from 0.5 to 60, for example 10", param, ctx
            )
        return fps


def _one_based_text(board: np.ndarray) -> str:
    return " ".join(str(int(c) + 1) if c >= 0 else "." for c in board)


def _conflicted(problem: Problem, board: np.ndarray) -> set[int]:
    """Rows whose queen another queen attacks (the standard rules; variants are traced by
    backtracking, whose boards never hold an attack)."""
    if not problem.is_standard:
        return set()
    rows = np.flatnonzero(board >= 0)
    cols = board[rows]
    hit: set[int] = set()
    for line in (cols, rows - cols, rows + cols):
        _, inverse, counts = np.unique(line, return_inverse=True, return_counts=True)
        hit.update(int(r) for r in rows[counts[inverse] > 1])
    return hit


def _board_text(problem: Problem, board: np.ndarray, blocked: set[tuple[int, int]]) -> Any:
    """The board as rich Text: one line per row (n <= 20), two rows per line (n <= 40)."""
    from rich.text import Text

    n = problem.n
    hit = _conflicted(problem, board)
    text = Text()
    if n <= DRAW_MAX_N:
        for r in range(n):
            for c in range(n):
                light = (r + c) % 2 == 0
                bg = "on #f0d9b5" if light else "on #b58863"
                if board[r] == c:
                    text.append("♛ ", style=("bold red " if r in hit else "bold black ") + bg)
                elif (r, c) in blocked:
                    text.append("x ", style="#4a4a4a " + bg)
                else:
                    text.append("· ", style="#9a8060 " + bg)
            text.append("\n")
        return text
    for r in range(0, n, 2):
        for c in range(n):
            top = board[r] == c
            bottom = r + 1 < n and board[r + 1] == c
            glyph = "█" if top and bottom else "▀" if top else "▄" if bottom else "·"
            red = (top and r in hit) or (bottom and r + 1 in hit)
            text.append(glyph, style="red" if red else "" if glyph != "·" else "dim")
        text.append("\n")
    return text


def _status(rec: Recording, done: int, received: int, ended: bool, pairs: int, found: int) -> str:
    seed = f", seed {rec.seed}" if rec.seed is not None else ""
    where = f"step {done}/{received}" if ended else f"step {done} of {received} so far (the search is running)"
    return (
        f"{rec.method}{seed} on {rec.problem.describe()}\n{where}   attacking pairs {pairs}   solutions found {found}"
    )


#: Seconds of steps still to draw beyond which the display says how to skip them.
LAG_HINT_SECONDS = 10.0


def _lag_hint(behind: int, delay: float) -> str:
    """A line for a display that plays steps ``delay`` seconds apart while ``behind``
    steps wait: how long they will take and how to skip them; empty when that is short.

    Examples
    --------
    >>> _lag_hint(10_000, 0.05)
    '10,000 steps still to draw, 0.05 s each (about 8 min): --delay 0 draws the newest board at full speed'
    >>> _lag_hint(100, 0.05), _lag_hint(10_000, 0.0)
    ('', '')
    """
    wait = behind * delay
    if delay <= 0 or wait <= LAG_HINT_SECONDS:
        return ""
    shown = f"{wait:.0f} s" if wait < 120 else f"{wait / 60:.0f} min" if wait < 7200 else f"{wait / 3600:.0f} h"
    return f"{behind:,} steps still to draw, {delay:g} s each (about {shown}): --delay 0 draws the newest board at full speed"


class _End(NamedTuple):
    """The search's last word on the queue: its trace and seconds, or what it raised."""

    trace: Trace | None
    seconds: float
    error: BaseException | None


def _search(rec: Recording, out: queue.SimpleQueue, stop: threading.Event, record_path: str | None) -> None:
    """Run the recording, putting its chunks on ``out`` (never waiting for the display),
    then write the trace file and put the :class:`_End`."""
    try:
        t0 = time.perf_counter()
        for chunk in rec:
            out.put(chunk)
            if stop.is_set():
                return
        seconds = time.perf_counter() - t0
        trace = rec.trace()
        if record_path is not None and not stop.is_set():
            write_trace(trace, record_path)
        out.put(_End(trace, seconds, None))
    except BaseException as e:  # handed to the display's thread, raised there
        out.put(_End(None, 0.0, e))


def _live(rec: Recording, delay: float, record_path: str | None) -> tuple[Trace, float]:
    """Draw the search as it runs: the search in a worker thread, the display here.

    The worker puts the recording's chunks on an unbounded queue and never waits for the
    display (the trace is kept whole anyway, for ``--record`` and the final line; the step
    cap bounds it). With ``delay > 0`` the display plays every step, ``delay`` seconds
    apart, behind the search; with ``delay == 0`` it draws the newest board at most
    :data:`_FPS` times a second from the chunks' own boards, so it does no work per
    step. Ctrl-C (the stop flag) ends the display and tells the search to stop after its
    current chunk; the trace file is then not written.

    Returns
    -------
    (Trace, float)
        The trace and the search's seconds.
    """
    from rich.console import Console, Group
    from rich.live import Live
    from rich.text import Text

    console = Console(stderr=False)
    problem = rec.problem
    n = problem.n
    # blocked cells, and the cells of regions that allow no queen, as the pictures mark them
    blocked = set(scene(problem).blocked) if n <= HALF_MAX_N else set()
    steps: list[Step] = []
    board = np.full(n, -1, np.int64)
    state = {"done": 0, "found": 0}
    end: _End | None = None

    def view() -> Any:
        pairs = attacking_pairs(problem, board)
        found = state["found"]
        solved = found if rec.method == "backtrack" else int(pairs == 0 and bool((board >= 0).all()))
        hint = _lag_hint(len(steps) - state["done"], delay)
        status = Text(
            _status(rec, state["done"], len(steps), end is not None, pairs, solved) + (f"\n{hint}" if hint else "")
        )
        if n <= HALF_MAX_N:
            return Group(_board_text(problem, board, blocked), status)
        placed = int((board >= 0).sum())
        summary = Text(f"{n} x {n} board (drawn up to n = {HALF_MAX_N}): {placed} queens placed\n")
        return Group(summary, status)

    chunks: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    # a daemon: a search that does not stop in time must not keep the process alive
    worker = threading.Thread(target=_search, args=(rec, chunks, stop, record_path), name="queenslab-search")
    worker.daemon = True

    def take(wait: float) -> None:
        """Move what the search has delivered into ``steps`` (waiting up to ``wait``
        seconds for the first item when nothing is there)."""
        nonlocal end
        timeout = wait
        while end is None:
            try:
                item = chunks.get(timeout=timeout) if timeout > 0 else chunks.get_nowait()
            except queue.Empty:
                return
            timeout = 0.0
            if isinstance(item, _End):
                end = item
                if item.error is not None:
                    raise item.error
                return
            steps.extend(item.steps)
            if delay == 0:  # jump to the newest board: no work per step
                board[:] = item.board
                state["done"] = len(steps)
                state["found"] += item.solutions

    worker.start()
    try:
        with Live(view(), console=console, auto_refresh=False, transient=False) as live:
            if delay > 0:
                while True:
                    interrupt.check()  # Ctrl-C: the command runs off the main thread, which sets the flag
                    take(0.0 if state["done"] < len(steps) else 1 / _FPS)
                    if state["done"] < len(steps):
                        step = steps[state["done"]]
                        apply(board, step)
                        state["done"] += 1
                        state["found"] += step.op == "solution"
                        live.update(view(), refresh=True)
                        time.sleep(delay)
                    elif end is not None:
                        break
            else:
                while end is None:
                    interrupt.check()
                    time.sleep(1 / _FPS)
                    take(0.0)
                    live.update(view(), refresh=True)
            live.update(view(), refresh=True)
    finally:
        stop.set()
    assert end is not None and end.trace is not None
    return end.trace, end.seconds


def _summary(trace: Trace) -> tuple[dict[str, Any], str]:
    """What watch and replay say of a trace: the fields their JSON reports share, and the
    final line (steps, solutions found, the last board)."""
    final = trace.final()
    pairs = attacking_pairs(trace.problem, final)
    if trace.method == "backtrack":
        found = len(trace.solutions())
    elif trace.method == "orbit-search":
        found = len(trace.steps)  # every orbit's generator is a solution
    else:
        found = int(trace.solved)
    shown = trace.n <= PRINT_MAX_N
    fields = {
        "n": trace.n,
        "problem": trace.problem,
        "method": trace.method,
        "seed": trace.seed,
        "steps": len(trace.steps),
        "complete": trace.complete,
        "solutions_found": found,
        "attacking_pairs": pairs,
        "final": tuple(int(c) if c >= 0 else None for c in final) if shown else (),
        "solution": tuple(int(c) for c in final) if trace.solved and shown else None,
    }
    return fields, _final_line(trace, final, pairs, found)


def _final_line(trace: Trace, final: np.ndarray, pairs: int, found: int) -> str:
    what = "complete" if trace.complete else "cut by the step cap"
    board = "solved" if trace.solved else f"{pairs} attacking pair{'' if pairs == 1 else 's'}"
    steps = len(trace.steps)
    text = f"{trace.method}: {steps} step{'' if steps == 1 else 's'} ({what}), {found} solution{'' if found == 1 else 's'} found; "
    text += f"last board ({board})"
    if trace.n <= PRINT_MAX_N:
        text += ": " + (format_placement(final.tolist()) if (final >= 0).all() else _one_based_text(final))
    return text


@click.command("watch", cls=Command)
@problem_options(optional_n=True)
@click.option(
    "--method",
    type=click.Choice(list(METHODS)),
    default="backtrack",
    show_default=True,
    help="The search watched: backtrack (the native engine's lexicographic search, any variant), selfcorrect "
    "(the self-correcting Queens program), minconflicts, ga (the genetic algorithm's best individual per "
    "generation), orbit-search (Zhang and Zhang's orbit search, an orbit per step). The heuristics and the orbit "
    "search take the standard problem only.",
)
@number_option("--seed", 0, "S", "selfcorrect, minconflicts, ga: the random seed (default 0).")
@click.option(
    "--delay",
    type=_Delay(),
    default=0.05,
    show_default=True,
    metavar="SECONDS",
    help="Seconds between two steps on the display; 0 draws the newest board 20 times a second while the search "
    "runs at full speed.",
)
@number_option(
    "--max-steps",
    1,
    "K",
    f"The step cap: the search is cut after K steps (default {WATCH_MAX_STEPS}); refused up front when the trace "
    "could outgrow memory.",
    maximum=INT64_MAX,
)
@number_option("--solutions", 0, "K", "backtrack: stop after K solutions (default 1; 0: search the whole tree).")
@click.option(
    "--record",
    "record_path",
    type=OutputPath(),
    default=None,
    metavar="FILE",
    help="Also write the trace to FILE (JSON lines; queenslab replay reads it).",
)
@force_option("the self-correcting search and the orbit search (the board sizes they take in reasonable time)")
@json_option
def watch_cmd(
    problem: Problem,
    method: str,
    seed: int | None,
    delay: float,
    max_steps: int | None,
    solutions: int | None,
    record_path: str | None,
    force: bool,
    as_json: bool,
) -> int:
    """Watch a search solve N-queens: the board drawn step by step as the search runs.

    The steps are recorded by the package's own algorithm (queenslab.trace.record), so the
    same --seed gives the same steps and the last board is the solution queenslab solve
    finds. On a terminal the board is drawn while the search runs, with colours (queens
    under attack red) up to N = 40, summarised beyond; without a terminal only the final
    line is printed. Ctrl-C stops the search and the display (exit 130; --record then
    writes nothing). A long search is drawn at --delay seconds a step: --delay 0 draws
    it at full speed.

    \b
    Examples:
      queenslab watch 8
      queenslab watch 12 --solutions 0 --delay 0
      queenslab watch 30 --method minconflicts --seed 3
      queenslab watch 8 --block 1,1 --record q8.trace
      queenslab replay q8.trace --svg q8.svg
    """
    if seed is not None and method not in RANDOMISED:
        raise QueensError(
            f"--seed: {method} is deterministic and takes no seed; seeds apply to {', '.join(RANDOMISED)}"
        )
    if solutions is not None and method != "backtrack":
        what = (
            "reaches every orbit it can, one step each" if method == "orbit-search" else "stops at its first solution"
        )
        raise QueensError(f"--solutions applies to --method backtrack; {method} {what}")
    source = click.get_current_context().get_parameter_source("delay")
    delay_given = source is not None and source is not click.core.ParameterSource.DEFAULT
    if as_json and delay_given:
        raise QueensError("--delay sets the pace of the drawing on a terminal, and --json draws nothing: drop one")
    t0 = time.perf_counter()
    options: dict[str, Any] = {"max_steps": WATCH_MAX_STEPS if max_steps is None else max_steps}
    if solutions is not None:
        options["solutions"] = solutions
    if method in RANDOMISED:
        options["seed"] = 0 if seed is None else seed
    if force:
        if method not in ("selfcorrect", "orbit-search"):
            raise QueensError(
                f"--force lifts the practical limits of selfcorrect and orbit-search; {method} has none to lift"
            )
        options["force"] = True
    trace_cap = options["max_steps"]
    live = not as_json and sys.stdout is not None and sys.stdout.isatty()
    # on a terminal the walk comes in small chunks, drawn as they come; record's single call otherwise
    if live and method == "backtrack":
        options["chunk"] = LIVE_CHUNK
    rec = recording(problem, method, **options)
    if live:
        trace, seconds = _live(rec, delay, record_path)
    else:
        trace = rec.run()
        seconds = time.perf_counter() - t0
        if record_path is not None:
            write_trace(trace, record_path)
    fields, line = _summary(trace)
    if as_json:
        emit_json(WatchReport(**fields, max_steps=trace_cap, out=record_path, seconds=seconds))
    else:
        click.echo(line)
    return 0


@click.command("replay", cls=Command)
@click.argument("file", metavar="FILE", type=InputPath())
@out_option("Write an animated SVG of the trace (SMIL, no script: it plays in a browser).", "--svg", "OUT")
@out_option("Write an animated GIF of the trace (for slides and messages, where an SVG does not play).", "--gif", "OUT")
@out_option(
    'Write an MP4 video of the trace (H.264; needs the video extra: pip install "queenslab[video]").', "--mp4", "OUT"
)
@out_option("Write a strip of frames (a grid of boards, .png or .svg; needs matplotlib).", "--frames", "OUT")
@out_option("Write the search tree of a backtracking trace (.png or .svg; needs matplotlib).", "--tree", "OUT")
@number_option(
    "--every", 1, "K", "Draw every K-th step from the first (the last always); default: a few hundred frames at most."
)
@click.option(
    "--fps",
    type=_FramesPerSecond(),
    default=None,
    metavar="F",
    help="Frames per second of --svg, --gif and --mp4 (0.5 to 60; default 5).",
)
@force_option("an animation (--svg, --gif, --mp4: its frames, the queens drawn, a GIF's or a video's pixels)")
@json_option
def replay_cmd(
    file: str,
    svg: str | None,
    gif: str | None,
    mp4: str | None,
    frames: str | None,
    tree: str | None,
    every: int | None,
    fps: float | None,
    force: bool,
    as_json: bool,
) -> int:
    """Read a trace file (written by queenslab watch --record) back: its summary, and
    pictures of it.

    Prints the method, the steps and the last board (1-based; a backtracking trace ends at
    its first solution unless it was recorded with --solutions). --svg OUT writes an
    animated SVG of the search, --gif OUT an animated GIF, --mp4 OUT an MP4 video,
    --frames OUT a strip of its boards for a paper, --tree OUT the search tree of a
    backtracking trace.

    The file is checked as input before anything is drawn: its size, nesting and numbers,
    every header field, and every step against the rules of the method that recorded it
    (a step sequence no search can make is refused with its step number, exit 2). No
    output may be FILE itself or another output of the command.

    \b
    Examples:
      queenslab watch 8 --method selfcorrect --seed 1 --record sc.jsonl
      queenslab replay sc.jsonl
      queenslab replay sc.jsonl --svg sc.svg --frames sc.png --every 4
      queenslab replay sc.jsonl --gif sc.gif --fps 10 --json
    """
    if every is not None and svg is None and gif is None and mp4 is None and frames is None:
        raise QueensError("--every sets the frames of --svg, --gif, --mp4 or --frames; give one of them")
    if fps is not None and svg is None and gif is None and mp4 is None:
        raise QueensError("--fps sets the frame rate of --svg, --gif or --mp4; give one of them")
    for flag, path, suffix, kind in (
        ("--svg", svg, ".svg", "an SVG"),
        ("--gif", gif, ".gif", "a GIF"),
        ("--mp4", mp4, ".mp4", "an MP4"),
    ):
        if path is not None and not path.lower().endswith(suffix):
            raise QueensError(f"{flag} writes {kind} file: give a name ending in {suffix}, not {path!r}")
    if force and svg is None and gif is None and mp4 is None:
        raise QueensError("--force lifts the practical limits of --svg, --gif and --mp4; give one of them")
    timing = {} if fps is None else {"frame_seconds": 1 / fps}
    from .. import plot

    for flag, path in (("--frames", frames), ("--tree", tree)):
        if path is not None:
            plot.check_path(path, flag)
    trace = read_trace(file)
    boards = {"--svg": svg, "--gif": gif, "--mp4": mp4, "--frames": frames}
    drawn = [flag for flag, path in boards.items() if path is not None]
    if drawn and trace.n > MAX_N:
        raise TooLarge(
            f"{drawn[0]} draws the trace's boards cell by cell, up to n = {MAX_N}; {file!r} is a trace of n = "
            f"{trace.n}: replay it without {', '.join(drawn)} for its summary"
        )
    # every output is written, or none: a picture refused after another was drawn leaves no file
    with staged({"--tree": tree, "--svg": svg, "--gif": gif, "--mp4": mp4, "--frames": frames}) as temp:
        if tree is not None:
            from ..trace.tree import write_tree

            write_tree(temp["--tree"], trace)
        if svg is not None:
            from ..trace import write_trace_svg

            write_trace_svg(trace, temp["--svg"], every=every, force=force, **timing)
        if gif is not None:
            from ..trace import write_trace_gif

            write_trace_gif(trace, temp["--gif"], every=every, force=force, **timing)
        if mp4 is not None:
            from ..trace.video import write_trace_mp4

            write_trace_mp4(trace, temp["--mp4"], every=every, force=force, **({} if fps is None else {"fps": fps}))
        if frames is not None:
            from ..trace.strip import write_frame_strip

            write_frame_strip(temp["--frames"], trace, every)
    fields, line = _summary(trace)
    if as_json:
        emit_json(
            ReplayReport(path=file, **fields, svg=svg, gif=gif, mp4=mp4, frames=frames, tree=tree, every=every, fps=fps)
        )
    else:
        click.echo(line)
        for what, path in (
            ("animated SVG", svg),
            ("animated GIF", gif),
            ("MP4 video", mp4),
            ("frames", frames),
            ("search tree", tree),
        ):
            if path is not None:
                click.echo(f"{what} written to {path}")
    return 0
