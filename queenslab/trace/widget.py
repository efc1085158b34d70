"""A trace in a notebook as a player: a Play button and a step slider over its board.

:func:`trace_widget` builds an ipywidgets ``VBox``: a ``Play`` and an ``IntSlider`` over
the steps (0, the empty board, to the last), linked in the browser (``jslink``, so
playing needs no round trip to the kernel for the slider), and an ``HTML`` widget showing
the board after the slider's step, redrawn when it moves. The board is not replayed from
the start for each frame: :class:`BoardIndex` keeps a copy every ``stride`` steps and
replays at most ``stride - 1`` steps from the nearest, and :class:`FramePainter` draws
the static board (:func:`queenslab.viz.svg.render`) once and only the queens per frame;
the last frames drawn are cached. Without ipywidgets (``pip install
"queenslab[notebook]"``) :func:`trace_widget` gives the animated SVG of
:mod:`queenslab.trace.animate` instead. ``Trace.widget()`` calls it, and a trace shown in
a Jupyter kernel is this player (:mod:`queenslab.viz.notebook`).

The player is sized before it is built: its board must be one that is drawn cell by cell
(n <= :data:`~queenslab.viz.scene.MAX_N`), and its memory (the board copies, at most
:data:`INDEX_BYTES` and one board; the frames it keeps drawn) is estimated and refused
beyond what is available. Replaying the steps looks at the stop flag as it goes.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import numpy as np

from .. import interrupt, validate
from ..errors import MissingDependency
from ..viz.scene import scene
from ..viz.svg import ATTACKER, QUEEN, cell_size, render
from .animate import SOLVED, attacked_rows, check_board, trace_svg
from .rules import checked
from .steps import Trace, apply, attacking_pairs

__all__ = ["BoardIndex", "FramePainter", "trace_widget"]

#: Memory the board copies of a :class:`BoardIndex` may take.
INDEX_BYTES = 32 * 2**20
#: Frames a player keeps drawn.
CACHED_FRAMES = 512
#: Bytes of a drawn frame besides its queens (the static board's SVG, its status line).
_FRAME_BYTES = 4096
#: Bytes a queen takes in a drawn frame (its ``<use>`` element).
_QUEEN_BYTES = 120
#: Steps replayed between two looks at the stop flag.
_CHECK_EVERY = 1 << 14


class BoardIndex:
    """The board after any step of a trace, without replaying the trace from its start.

    A copy of the board is kept every ``stride`` steps (at least 64 steps apart, more for
    long traces of large boards, so that the copies stay within :data:`INDEX_BYTES`);
    :meth:`at` replays fewer than ``stride`` steps from the nearest copy.

    Examples
    --------
    >>> from queenslab.trace import record
    >>> t = record(6, "backtrack")
    >>> index = BoardIndex(t)
    >>> all(index.at(k + 1).tolist() == b.tolist() for k, b in enumerate(t.boards()))
    True
    """

    def __init__(self, trace: Trace):
        self.trace = trace = checked(trace)
        total = len(trace.steps)
        self.stride = max(64, math.ceil((total + 1) * trace.n * 8 / INDEX_BYTES))
        # the copies (at most INDEX_BYTES and one board), the board replayed and the array made of them
        validate.memory(
            2 * (INDEX_BYTES + 2 * trace.n * 8),
            f"the board copies of a trace of {trace.n} queens",
            "replay a trace of a smaller board",
        )
        board = np.full(trace.n, -1, np.int64)
        copies = [board.copy()]
        for k, step in enumerate(trace.steps, 1):
            if k % _CHECK_EVERY == 0:
                interrupt.check()
            apply(board, step)
            if k % self.stride == 0:
                copies.append(board.copy())
        self._copies = np.array(copies, np.int64)

    def at(self, k: int) -> np.ndarray:
        """The board after the first ``k`` steps (0: the empty board), a new array."""
        k = validate.whole_number(k, "step", minimum=0, maximum=len(self.trace.steps))
        base = k // self.stride
        board = self._copies[base].copy()
        for step in self.trace.steps[base * self.stride : k]:
            apply(board, step)
        return board


class FramePainter:
    """SVG frames of a trace's boards: the problem's board drawn once, the queens per frame.

    A frame is the static board of :func:`queenslab.viz.svg.render` (blocked cells, fixed
    queens, regions, coordinates) with a ``<use class="queen">`` per queen at ``x`` =
    column, ``y`` = row (red when another queen attacks it, on the standard board), and a
    green frame when the board is a solution.
    """

    def __init__(self, trace: Trace):
        self.trace = trace = checked(trace)
        n = trace.n
        static = render(scene(trace.problem), cell=cell_size(n), labels=n <= 26)
        symbol = re.search(r'<symbol id="([^"]+)"', static)
        assert symbol is not None  # render always defines the queen symbol
        self._queen = symbol.group(1)
        self._static = static.rsplit("</svg>", 1)[0]

    def svg(self, board: np.ndarray, solved: bool) -> str:
        """The frame of ``board`` (-1: an empty row)."""
        n = self.trace.n
        hit = attacked_rows(board) if self.trace.problem.is_standard else np.zeros(n, bool)
        out = [self._static, '<g class="trace-queens" stroke="#ffffff" stroke-width="0.035">']
        for r in np.flatnonzero(board >= 0).tolist():
            fill = ATTACKER if hit[r] else QUEEN
            out.append(
                f'<use class="queen" xlink:href="#{self._queen}" x="{int(board[r])}" y="{r}" width="1" height="1" '
                f'fill="{fill}"/>'
            )
        out.append("</g>")
        if solved:
            out.append(
                f'<rect class="solved" width="{n}" height="{n}" fill="none" stroke="{SOLVED}" stroke-width="0.12"/>'
            )
        out.append("</svg>")
        return "\n".join(out)


def _solved(trace: Trace, k: int, board: np.ndarray) -> bool:
    """Whether the board after step ``k`` is a solution (as the animated SVG marks it)."""
    if k == 0 or not bool((board >= 0).all()):
        return False
    if trace.method == "backtrack":
        return trace.steps[k - 1].op == "solution"
    return trace.problem.is_standard and not attacked_rows(board).any()


def _status(trace: Trace, k: int, board: np.ndarray) -> str:
    pairs = attacking_pairs(trace.problem, board)
    what = f"{trace.method} on {trace.problem.describe()}: step {k} of {len(trace.steps)}"
    if k:
        step = trace.steps[k - 1]
        what += f" ({step.op})"
    return f"{what}, attacking pairs {pairs}" + (", solved" if _solved(trace, k, board) else "")


def trace_widget(trace: Trace, *, interval: int = 200) -> Any:
    """The trace as a player: Play, a step slider and the board at the slider's step.

    Parameters
    ----------
    trace : Trace
    interval : int, default 200
        Milliseconds between two steps while playing.

    Returns
    -------
    ipywidgets.VBox or IPython.display.SVG
        The player, whose attributes ``play``, ``slider``, ``board`` (the ``HTML`` with
        the frame's SVG), ``status`` (a ``Label``) and ``link`` (the ``jslink`` of play
        and slider) are its parts; without ipywidgets the animated SVG of the trace.

    Raises
    ------
    MissingDependency
        Neither ipywidgets nor IPython installed (naming the ``notebook`` extra).
    QueensError
        A bad ``interval``; without ipywidgets, a trace without steps.
    TooLarge
        Before the player is built: a board beyond the SVG pictures (n > 2000), or a
        player beyond the memory available (naming the memory needed and available).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).
    """
    interval = validate.whole_number(interval, "interval", minimum=1, maximum=60_000)
    check_board(trace, "a player")
    try:
        import ipywidgets as widgets
    except ImportError:
        return _fallback(trace)
    n = trace.n
    validate.memory(
        2 * (INDEX_BYTES + 2 * n * 8) + CACHED_FRAMES * (_FRAME_BYTES + n * _QUEEN_BYTES),
        f"a player of a trace of {n} queens",
        "replay a trace of a smaller board",
    )
    index = BoardIndex(trace)
    painter = FramePainter(trace)

    @lru_cache(maxsize=CACHED_FRAMES)
    def frame(k: int) -> tuple[str, str]:
        board = index.at(k)
        return painter.svg(board, _solved(trace, k, board)), _status(trace, k, board)

    total = len(trace.steps)
    play = widgets.Play(value=0, min=0, max=total, step=1, interval=interval, description="play")
    slider = widgets.IntSlider(value=0, min=0, max=total, step=1, description="step", continuous_update=True)
    link = widgets.jslink((play, "value"), (slider, "value"))
    svg, text = frame(0)
    board = widgets.HTML(value=svg)
    status = widgets.Label(value=text)

    def show(change: dict) -> None:
        board.value, status.value = frame(int(change["new"]))

    slider.observe(show, names="value")
    box = widgets.VBox([widgets.HBox([play, slider]), board, status])
    box.play, box.slider, box.board, box.status, box.link = play, slider, board, status, link
    return box


def _fallback(trace: Trace) -> Any:
    """The animated SVG, as IPython displays it."""
    try:
        from IPython.display import SVG
    except ImportError:
        raise MissingDependency(
            'a trace player needs ipywidgets (pip install "queenslab[notebook]"); write the animated SVG with '
            "queenslab.trace.write_trace_svg instead"
        ) from None
    return SVG(data=trace_svg(trace))
