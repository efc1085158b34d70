"""An animated SVG of a trace: the board of :mod:`queenslab.viz.svg`, its queens moving.

The picture is the board :func:`queenslab.viz.svg.render` draws for the problem (blocked
cells, fixed queens, regions), with one queen per row whose column, visibility and colour
change frame by frame through SMIL ``<animate>`` elements (``calcMode="discrete"``): no
script, so it plays in any browser, also from a file or inside a web page's ``<img>``. A
row's animation lists only the frames where that row changes, so the file grows with the
number of moves, not with frames x rows. Queens that attack another are drawn red; the
board's frame turns green on a frame whose board is a solution. A bar below the board
shows how far the trace has played; the last frame is held before the loop restarts.

Long traces are sampled: every ``every``-th step makes a frame (by default enough for at
most :data:`MAX_FRAMES` frames), and the last step always does.
"""

from __future__ import annotations

import math
import re
from html import escape

import numpy as np

from .. import validate
from ..errors import QueensError
from ..outfile import atomic_output
from ..viz.scene import scene
from ..viz.svg import ATTACKER, QUEEN, cell_size, render
from .steps import Trace

__all__ = ["MAX_FRAMES", "attacked_rows", "frames", "solved_frames", "trace_svg", "write_trace_svg"]

#: Frames of an animation when ``every`` is not given.
MAX_FRAMES = 400
_SOLVED = "#2ca02c"


def attacked_rows(board: np.ndarray) -> np.ndarray:
    """Rows whose queen another queen attacks on a standard board (-1: empty row)."""
    n = board.size
    rows = np.flatnonzero(board >= 0)
    hit = np.zeros(n, bool)
    cols = board[rows]
    for line in (cols, rows - cols, rows + cols):
        _, inverse, counts = np.unique(line, return_inverse=True, return_counts=True)
        hit[rows[counts[inverse] > 1]] = True
    return hit


def solved_frames(trace: Trace, picked: list[int], boards: list[np.ndarray]) -> list[bool]:
    """Which frames show a solution: a backtracking ``solution`` step, or for the other
    searches (the standard problem) a full board without an attack."""
    out = []
    for i, board in zip(picked, boards):
        full = bool((board >= 0).all())
        if trace.method == "backtrack":
            out.append(full and trace.steps[i].op == "solution")
        else:
            out.append(full and trace.problem.is_standard and not attacked_rows(board).any())
    return out


def frames(trace: Trace, every: int | None = None) -> tuple[list[int], list[np.ndarray]]:
    """The steps drawn and the board after each: every ``every``-th step and the last.

    Returns
    -------
    (list of int, list of numpy.ndarray)
        0-based step indices, and copies of the boards after them.

    Raises
    ------
    QueensError
        For a trace without steps, or ``every`` not an integer >= 1.
    """
    total = len(trace.steps)
    if total == 0:
        raise QueensError("the trace has no steps to draw (a board without a solution, or an empty search)")
    k = math.ceil(total / MAX_FRAMES) if every is None else validate.whole_number(every, "every", minimum=1)
    picked, boards = [], []
    for i, board in enumerate(trace.boards()):
        if (i + 1) % k == 0 or i == total - 1:
            picked.append(i)
            boards.append(board.copy())
    return picked, boards


def _changes(series: list[str]) -> list[tuple[int, str]]:
    """(frame, value) where the value differs from the frame before (frame 0 always)."""
    out = [(0, series[0])]
    for f in range(1, len(series)):
        if series[f] != series[f - 1]:
            out.append((f, series[f]))
    return out


def trace_svg(trace: Trace, *, every: int | None = None, frame_seconds: float = 0.2, hold: float = 2.0) -> str:
    """The trace as an animated SVG document.

    Parameters
    ----------
    trace : Trace
    every : int, optional
        Draw every ``every``-th step (the last always); default: at most
        :data:`MAX_FRAMES` frames.
    frame_seconds : float, default 0.2
        How long each frame shows.
    hold : float, default 2.0
        Seconds the last frame stays before the animation starts again.

    Returns
    -------
    str

    Raises
    ------
    QueensError
        For a trace without steps, or bad arguments; ``TooLarge`` for a board beyond the
        SVG pictures (n > 2000).

    Examples
    --------
    >>> from queenslab.trace import record
    >>> svg = trace_svg(record(6, "backtrack"))
    >>> svg.startswith("<svg") and "<animate" in svg and "<script" not in svg
    True
    """
    frame_seconds = validate.real(frame_seconds, "frame_seconds", minimum=0.0, open_minimum=True)
    hold = validate.real(hold, "hold", minimum=0.0)
    picked, boards = frames(trace, every)
    n = trace.n
    px = cell_size(n)
    labels = n <= 26
    margin = 0.6 if labels else 0.0
    board = render(scene(trace.problem), cell=px, labels=labels)
    body = board.split("\n", 1)[1]  # the static board's opening tag is replaced below
    queen = re.search(r'<symbol id="([^"]+)"', body)
    assert queen is not None  # render always defines the queen symbol
    count = len(boards)
    total = count * frame_seconds + hold
    # the frames share the cycle; the held last frame fills the rest
    cycle = count * frame_seconds / total
    dur = f"{total:.3f}s"

    bar = 0.25
    side = n + margin
    title = f"{trace.method} on {trace.problem.describe()}: {len(trace.steps)} steps" + (
        "" if trace.complete else " (cut by the step cap)"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="{round(side * px)}" height="{round((side + bar + 0.1) * px)}" viewBox="{-margin:g} {-margin:g} '
        f'{side:g} {side + bar + 0.1:g}" role="img" aria-label="{escape(title, quote=True)}">',
        f"<title>{escape(title)}</title>",
    ]
    body = body.rsplit("</svg>", 1)[0]
    body = re.sub(r"<title>[^<]*</title>", "", body, count=1)  # the static board's own title
    out.append(body)
    standard = trace.problem.is_standard
    solved = solved_frames(trace, picked, boards)
    scale = cycle  # keyTimes are fractions of the whole cycle, held end included

    def times(changes: list[tuple[int, str]]) -> list[tuple[float, str]]:
        return [(f * scale / count, v) for f, v in changes]

    def animate(attribute: str, changes: list[tuple[int, str]]) -> str:
        timed = times(changes)
        keys = ";".join("0" if t == 0 else f"{t:.6f}".rstrip("0").rstrip(".") for t, _ in timed)
        values = ";".join(v for _, v in timed)
        return (
            f'<animate attributeName="{attribute}" calcMode="discrete" values="{values}" keyTimes="{keys}" '
            f'dur="{dur}" repeatCount="indefinite"/>'
        )

    hit = [(attacked_rows(b) if standard else np.zeros(n, bool)) for b in boards]
    out.append(f'<g class="trace-queens" fill="{QUEEN}" stroke="#ffffff" stroke-width="0.035">')
    for r in range(n):
        cols = [int(b[r]) for b in boards]
        if all(c < 0 for c in cols):
            continue
        first = next(c for c in cols if c >= 0)
        xs, last = [], first
        for c in cols:
            last = c if c >= 0 else last
            xs.append(str(last))
        seen = ["visible" if c >= 0 else "hidden" for c in cols]
        fills = [ATTACKER if h[r] else QUEEN for h in hit]
        # the static attributes show the last frame, for a viewer that does not animate
        parts = [
            f'<use class="queen" xlink:href="#{queen.group(1)}" x="{xs[-1]}" y="{r}" width="1" height="1" '
            f'visibility="{seen[-1]}" fill="{fills[-1]}">'
        ]
        for attribute, series in (("x", xs), ("visibility", seen), ("fill", fills)):
            parts.append(animate(attribute, _changes(series)))
        parts.append("</use>")
        out.append("".join(parts))
    out.append("</g>")
    frame = _changes(["1" if s else "0" for s in solved])
    out.append(
        f'<rect class="solved" width="{n}" height="{n}" fill="none" stroke="{_SOLVED}" stroke-width="0.12" '
        f'stroke-opacity="0">{animate("stroke-opacity", frame)}</rect>'
    )
    played = count * frame_seconds
    out.append(f'<rect class="progress-track" x="0" y="{n + 0.1:g}" width="{n}" height="{bar}" fill="#dddddd"/>')
    out.append(
        f'<rect class="progress" x="0" y="{n + 0.1:g}" width="0" height="{bar}" fill="#3f51b5">'
        f'<animate attributeName="width" values="0;{n};{n}" keyTimes="0;{cycle:.6f};1" dur="{dur}" '
        f'repeatCount="indefinite"/></rect>'
    )
    out.append(
        f"<!-- {len(trace.steps)} steps, {count} frames of {frame_seconds:g} s ({played:g} s), held {hold:g} s -->"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_trace_svg(path: object, trace: Trace, **options: object) -> str:
    """Write :func:`trace_svg` to ``path`` (whole or not at all); returns the path."""
    text = trace_svg(trace, **options)  # type: ignore[arg-type]
    with atomic_output(path, "w", what="animated SVG") as fh:
        fh.write(text)
    return str(path)
