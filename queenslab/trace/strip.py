"""A strip of a trace's frames for a paper: a grid of small boards, drawn with matplotlib.

:func:`frame_strip` draws every ``every``-th board of a trace (and the last) as a small
checkerboard with its queens, queens in conflict in red, each titled with its step; a
solution's frame is framed in green. :func:`write_frame_strip` saves it as PNG or SVG
through :func:`queenslab.plot.save` (whole or not at all). matplotlib is the ``plot``
extra; without it a :class:`~queenslab.errors.MissingDependency` names the extra.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import validate
from ..errors import MissingDependency, QueensError
from ..viz.svg import ATTACKER, DARK, LIGHT, QUEEN
from .animate import attacked_rows, frames, solved_frames
from .steps import Trace

__all__ = ["MAX_STRIP_FRAMES", "frame_strip", "write_frame_strip"]

#: The most boards one strip holds (a page's worth).
MAX_STRIP_FRAMES = 48
_COLUMNS = 6


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
    MissingDependency
        Without matplotlib.
    """
    total = len(trace.steps)
    if every is None:
        every = max(1, math.ceil(total / MAX_STRIP_FRAMES))
    every = validate.whole_number(every, "every", minimum=1)
    if math.ceil(total / every) + 1 > MAX_STRIP_FRAMES + 1:
        least = math.ceil(total / MAX_STRIP_FRAMES)
        raise QueensError(
            f"every {every} steps draws {math.ceil(total / every)} boards of the {total}-step trace; a strip holds "
            f"at most {MAX_STRIP_FRAMES}: give every >= {least}"
        )
    picked, boards = frames(trace, every)
    try:
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle
    except ImportError:  # pragma: no cover - the plot extra is installed in the tests
        raise MissingDependency("the frame strip needs matplotlib: pip install 'queenslab[plot]'") from None
    n = trace.n
    cols = min(_COLUMNS, len(boards))
    rows = math.ceil(len(boards) / cols)
    fig = Figure(figsize=(1.6 * cols, 1.8 * rows))
    standard = trace.problem.is_standard
    checker = np.indices((n, n)).sum(axis=0) % 2
    solved_at = solved_frames(trace, picked, boards)
    for k, (i, board, solved) in enumerate(zip(picked, boards, solved_at)):
        ax = fig.add_subplot(rows, cols, k + 1)
        ax.imshow(checker, cmap=_cmap(), vmin=0, vmax=1, extent=(0, n, n, 0), interpolation="nearest")
        hit = attacked_rows(board) if standard else np.zeros(n, bool)
        for r in np.flatnonzero(board >= 0):
            c = int(board[r])
            ax.add_patch(Rectangle((c + 0.15, r + 0.15), 0.7, 0.7, color=ATTACKER if hit[r] else QUEEN, linewidth=0))
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


def _cmap() -> Any:
    from matplotlib.colors import ListedColormap

    return ListedColormap([LIGHT, DARK])


def write_frame_strip(path: object, trace: Trace, every: int | None = None) -> str:
    """Write :func:`frame_strip` to ``path`` (``.png`` or ``.svg``; whole or not at all)."""
    from .. import plot

    plot.check_path(path, "frame strip")
    return plot.save(frame_strip(trace, every), path)
