"""A strip of a trace's frames for a paper: a grid of small boards, drawn with matplotlib.

:func:`frame_strip` draws every ``every``-th board of a trace (and the last) as a small
checkerboard with its queens, queens in conflict in red, each titled with its step; a
solution's frame is framed in green. :func:`write_frame_strip` saves it as PNG or SVG
through :func:`queenslab.plot.save` (whole or not at all). matplotlib is the ``plot``
extra; without it a :class:`~queenslab.errors.MissingDependency` names the extra.

A strip holds at most :data:`MAX_STRIP_FRAMES` boards of at most :data:`MAX_STRIP_N`
queens (:data:`STRIP_BOARDS`), and its memory (the boards, the checkerboard
image of each frame, the figure's pixels) is estimated and refused beyond what is
available before anything is drawn; the frames are drawn one at a time, the stop flag
looked at between them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import interrupt, limits, validate
from ..errors import MissingDependency, QueensError, setting
from ..viz.svg import ATTACKER, DARK, LIGHT, QUEEN
from .animate import attacked_rows, check_frames, frame_count, frames, least_every, solved_frames
from .rules import checked
from .steps import Trace

__all__ = ["MAX_STRIP_FRAMES", "MAX_STRIP_N", "STRIP_BOARDS", "frame_strip", "write_frame_strip"]

#: The most boards one strip holds (a page's worth).
MAX_STRIP_FRAMES = 48
#: The largest board drawn in a strip: a strip's board is about 200 pixels wide, so beyond
#: a few hundred rows a cell is a fraction of a pixel, while matplotlib still draws each
#: board's n x n cells. Measured on a shared 2-core machine, 48 boards: n = 500 in about
#: 5 s, n = 1000 in 12 s, n = 2000 in 40 s.
STRIP_BOARDS = limits.declare(
    "the boards of a strip of frames",
    500,
    "n",
    "a strip's boards are about 200 pixels wide, so a cell is under half a pixel, and each board's n x n cells are "
    "drawn: 48 boards of n = 500 take about 5 s, of n = 2000 about 40 s",
    forceable=False,
)
MAX_STRIP_N = STRIP_BOARDS.largest
_COLUMNS = 6
#: A queen's square in its cell, as corners offset from (column + 0.15, row + 0.15).
_SQUARE = np.array([[0.0, 0.0], [0.7, 0.0], [0.7, 0.7], [0.0, 0.7]])
#: Bytes per cell of a board that matplotlib's drawing of one frame's checkerboard takes
#: at most (the cells as colours in floating point, resampled to the frame's pixels).
_CELL_BYTES = 40
#: Bytes of the figure's pixels (six boards a row at 150 dpi, RGBA) and its PNG.
_FIGURE_BYTES = 64 * 2**20


def frame_strip(trace: Trace, every: int | None = None) -> Any:
    """The frames of ``trace`` as a matplotlib figure (a grid of boards, six a row).

    Parameters
    ----------
    trace : Trace
    every : int, optional
        Draw every ``every``-th step (the last always); default: about
        :data:`MAX_STRIP_FRAMES` boards evenly spread.

    Returns
    -------
    matplotlib.figure.Figure
        The boards, each titled with its step, under a title naming the method and the
        problem.

    Raises
    ------
    QueensError
        For a trace without steps, or ``every`` that would draw more than
        :data:`MAX_STRIP_FRAMES` boards (the message gives the smallest that fits).
    TooLarge
        Before anything is drawn: a board beyond :data:`MAX_STRIP_N` queens, or a strip
        beyond the memory available (naming the memory needed and available).
    MissingDependency
        Without matplotlib.
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).
    """
    n = checked(trace).n
    limits.check(
        STRIP_BOARDS,
        n,
        request=f"a strip of frames of {n} queens",
        hint="draw the animation (an animated SVG or GIF) or the last board (queenslab show --png)",
    )
    total = len(trace.steps)
    if every is None:
        every = least_every(total, MAX_STRIP_FRAMES)
    every = validate.whole_number(every, "every", minimum=1)
    if frame_count(total, every) > MAX_STRIP_FRAMES:
        least = least_every(total, MAX_STRIP_FRAMES)
        raise QueensError(
            f"every {every} steps draws {frame_count(total, every)} boards of the {total}-step trace; a strip holds "
            f"at most {MAX_STRIP_FRAMES}: give {setting(f'every={least}', f'--every {least}')} or more"
        )
    check_frames(trace, every, "a strip of frames", frame_bytes=n * 32, fixed_bytes=_CELL_BYTES * n * n + _FIGURE_BYTES)
    picked, boards = frames(trace, every, what="a strip of frames")
    try:
        from matplotlib.collections import PolyCollection
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - the plot extra is installed in the tests
        raise MissingDependency("the frame strip needs matplotlib: pip install 'queenslab[plot]'") from None
    cols = min(_COLUMNS, len(boards))
    rows = math.ceil(len(boards) / cols)
    fig = Figure(figsize=(1.6 * cols, 1.8 * rows))
    standard = trace.problem.is_standard
    # the checkerboard in its colours once (a colour map would map every cell for every frame)
    checker = np.array([_rgb(LIGHT), _rgb(DARK)], np.uint8)[np.add.outer(np.arange(n), np.arange(n)) & 1]
    solved_at = solved_frames(trace, picked, boards)
    for k, (i, board, solved) in enumerate(zip(picked, boards, solved_at)):
        interrupt.check()
        ax = fig.add_subplot(rows, cols, k + 1)
        ax.imshow(checker, extent=(0, n, n, 0), interpolation="nearest")
        hit = attacked_rows(board) if standard else np.zeros(n, bool)
        placed = np.flatnonzero(board >= 0)
        # the frame's queens as one collection of squares made in numpy: a patch each
        # would be built and drawn one by one (minutes for thousands of queens)
        corners = np.stack([board[placed] + 0.15, placed + 0.15], axis=1)[:, None, :] + _SQUARE
        colours = np.where(hit[placed], ATTACKER, QUEEN).tolist()
        ax.add_collection(PolyCollection(list(corners), facecolors=colours, edgecolors="none", linewidths=0))
        ax.set_xlim(0, n)
        ax.set_ylim(n, 0)
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_color("#2ca02c" if solved else "#5a4632")
            spine.set_linewidth(2.5 if solved else 0.8)
        ax.set_title(f"step {i + 1}", fontsize=8)
    fig.suptitle(f"{trace.method} on {trace.problem.describe()}", fontsize=9)
    fig.tight_layout()
    return fig


def _rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as its three bytes."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def write_frame_strip(path: object, trace: Trace, every: int | None = None) -> str:
    """Write :func:`frame_strip` to ``path`` (``.png`` or ``.svg``; whole or not at all)."""
    from .. import plot

    plot.check_path(path, "frame strip")
    return plot.save(frame_strip(trace, every), path)
