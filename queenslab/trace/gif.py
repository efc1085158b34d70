"""An animated GIF of a trace: the colour PNG board of :mod:`queenslab.viz.png`, frame by frame.

For a slide or a chat message, where an SVG does not play. The board (blocked cells,
fixed queens, regions) is drawn once by :func:`queenslab.viz.png.board_image`; each
frame adds the queens (red when attacked) and, on a solution, a green frame. The frames
are those of the animated SVG (:func:`queenslab.trace.animate.frames`: at most
:data:`~queenslab.trace.animate.MAX_FRAMES` unless ``every`` says otherwise), the last
one held. Pillow is a dependency of queenslab.
"""

from __future__ import annotations

import io
from typing import Any

from .. import validate
from ..errors import MissingDependency
from ..outfile import atomic_output
from ..viz import svg
from ..viz.png import board_image, draw_queen
from .animate import attacked_rows, frames, solved_frames
from .steps import Trace

__all__ = ["trace_gif", "write_trace_gif", "frame_images"]

_SOLVED = "#2ca02c"


def trace_gif(trace: Trace, *, every: int | None = None, frame_seconds: float = 0.2, hold: float = 2.0) -> bytes:
    """The trace as an animated GIF (bytes), looping.

    Parameters
    ----------
    trace : Trace
    every : int, optional
        Draw every ``every``-th step (the last always).
    frame_seconds : float, default 0.2
        How long each frame shows (GIF counts in hundredths of a second).
    hold : float, default 2.0
        How long the last frame shows.

    Raises
    ------
    QueensError
        A trace without steps, bad arguments; ``TooLarge`` for a board beyond the PNG pictures.

    Examples
    --------
    >>> from queenslab.trace import record
    >>> trace_gif(record(6, "backtrack"))[:6]
    b'GIF89a'
    """
    frame_seconds = validate.real(frame_seconds, "frame_seconds", minimum=0.01, maximum=60.0)
    hold = validate.real(hold, "hold", minimum=0.0, maximum=600.0)
    images = [image.convert("P", palette=1, colors=32) for image in frame_images(trace, every)]  # 1: ADAPTIVE
    durations = [round(frame_seconds * 1000)] * len(images)
    durations[-1] += round(hold * 1000)
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buffer.getvalue()


def frame_images(trace: Trace, every: int | None = None) -> list[Any]:
    """The frames of the animation as RGB Pillow images: the board of
    :func:`~queenslab.viz.png.board_image` with the queens of each frame (red when
    attacked) and a green frame on a solution; the frames of
    :func:`~queenslab.trace.animate.frames`.

    Raises
    ------
    QueensError
        A trace without steps, a bad ``every``; ``TooLarge`` for a board beyond the PNG pictures.
    """
    picked, boards = frames(trace, every)
    try:
        from PIL import ImageDraw
    except ImportError:  # pragma: no cover - Pillow is a dependency
        raise MissingDependency("drawing the frames needs Pillow: pip install pillow") from None
    n = trace.n
    px = svg.cell_size(n)
    base = board_image(trace.problem, None, cell=px).convert("RGB")
    solved = solved_frames(trace, picked, boards)
    images = []
    for k, board in enumerate(boards):
        image = base.copy()
        draw = ImageDraw.Draw(image)
        hit = _attacked(trace, board)
        for r in range(n):
            c = int(board[r])
            if c >= 0:
                draw_queen(draw, r, c, px, svg.ATTACKER if hit[r] else svg.QUEEN)
        if solved[k]:
            width = max(2, px // 8)
            draw.rectangle([0, 0, n * px - 1, n * px - 1], outline=_SOLVED, width=width)
        images.append(image)
    return images


def _attacked(trace: Trace, board):
    return attacked_rows(board) if trace.problem.is_standard else [False] * trace.n


def write_trace_gif(path: object, trace: Trace, **options: object) -> str:
    """Write :func:`trace_gif` to ``path`` (whole or not at all); returns the path."""
    data = trace_gif(trace, **options)  # type: ignore[arg-type]
    with atomic_output(path, "wb", what="animated GIF") as fh:
        fh.write(data)
    return str(path)
