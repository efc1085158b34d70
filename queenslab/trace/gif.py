"""An animated GIF of a trace: the colour PNG board of :mod:`queenslab.viz.png`, frame by frame.

For a slide or a chat message, where an SVG does not play. The board (blocked cells,
fixed queens, regions) is drawn once by :func:`queenslab.viz.png.board_image`; each
frame adds the queens (red when attacked) and, on a solution, a green frame. The frames
are those of the animated SVG (:func:`queenslab.trace.animate.frames`: at most
:data:`~queenslab.trace.animate.MAX_FRAMES` unless ``every`` says otherwise), the last
one held. Pillow is a dependency of queenslab.

The frames are sized before any is drawn (:func:`queenslab.trace.animate.check_frames`):
besides the frames and the queens, the pixels drawn (frames times the board's pixels) are
held to a practical limit, :data:`PIXELS` (``force=True`` goes beyond it), and the memory
the picture takes is estimated and refused beyond what is available. The frames are made
one at a time and the stop flag is looked at between them, so Ctrl-C stops the drawing.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from .. import interrupt, limits, validate
from ..errors import MissingDependency
from ..viz import svg
from ..viz.png import board_image, draw_queen
from .animate import attacked_rows, check_board, check_frames, frames, solved_frames, write_drawing
from .steps import Trace

__all__ = ["PIXELS", "trace_gif", "write_trace_gif", "frame_images", "frame_side"]

_SOLVED = "#2ca02c"

#: The practical limit of the raster pictures of a trace (the animated GIF, the MP4 video):
#: every frame is drawn, quantised and encoded pixel by pixel. Measured on a 2-core
#: machine busy with other work: 400 frames of a 480-pixel board (92 million pixels) take
#: about 9 s as a GIF and 5 s as a video; 868 frames (200 million) 21 s as a GIF.
PIXELS = limits.declare(
    "the pixels of an animated GIF or video",
    100_000_000,
    "pixels",
    "every frame is drawn, quantised and encoded pixel by pixel: 400 frames of a 480-pixel board (up to n = 160; 92 "
    "million pixels) take about 9 s as a GIF and 5 s as an MP4 video on a busy 2-core machine; a board of n = 1000 "
    "is 3000 pixels a side, 9 million a frame",
)


def frame_side(trace: Trace) -> int:
    """Pixels of a side of a frame: n times :func:`~queenslab.viz.svg.cell_size`."""
    return trace.n * svg.cell_size(trace.n)


def trace_gif(
    trace: Trace, *, every: int | None = None, frame_seconds: float = 0.2, hold: float = 2.0, force: bool = False
) -> bytes:
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
    force : bool, default False
        Draw beyond the practical limits (:data:`PIXELS`,
        :data:`~queenslab.trace.animate.FRAMES`, :data:`~queenslab.trace.animate.QUEENS`).

    Raises
    ------
    QueensError
        A trace without steps, bad arguments.
    TooLarge
        Before any frame is drawn: a board beyond the pictures (n > 2000), frames beyond
        the practical limits (with the smallest ``every`` that fits), or a GIF beyond the
        memory available (naming the memory needed and available).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).

    Examples
    --------
    >>> from queenslab.trace import record
    >>> trace_gif(record(6, "backtrack"))[:6]
    b'GIF89a'
    """
    frame_seconds = validate.real(frame_seconds, "frame_seconds", minimum=0.01, maximum=60.0)
    hold = validate.real(hold, "hold", minimum=0.0, maximum=600.0)
    side = sized_frames(trace, "an animated GIF")
    area = side * side
    # Pillow's writer keeps every frame as palette pixels (a byte each) and the changes
    # between two frames, while the RGB frame being drawn and the board it starts from
    # are freed as it goes
    _, count = check_frames(
        trace, every, "an animated GIF", force=force, frame_pixels=area, frame_bytes=2 * area, fixed_bytes=9 * area,
        pixels=PIXELS,
    )  # fmt: skip
    # the frames are drawn as the writer takes them (the stop flag looked at between two)
    images = (image.convert("P", palette=1, colors=32) for image in gif_frames(trace, every, force))  # 1: ADAPTIVE
    durations = [round(frame_seconds * 1000)] * count
    durations[-1] += round(hold * 1000)
    buffer = io.BytesIO()
    first = next(images)
    first.save(buffer, format="GIF", save_all=True, append_images=images, duration=durations, loop=0)
    interrupt.check()
    return buffer.getvalue()


def sized_frames(trace: Trace, what: str) -> int:
    """The side of a frame in pixels, once the board is known to be drawn (n <= 2000)."""
    check_board(trace, what)
    return frame_side(trace)


def frame_images(trace: Trace, every: int | None = None, *, force: bool = False) -> list[Any]:
    """The frames of the animation as RGB Pillow images: the board of
    :func:`~queenslab.viz.png.board_image` with the queens of each frame (red when
    attacked) and a green frame on a solution; the frames of
    :func:`~queenslab.trace.animate.frames`.

    Raises
    ------
    QueensError
        A trace without steps, a bad ``every``.
    TooLarge
        Before any frame is drawn: a board beyond the pictures, frames beyond the
        practical limits (unless ``force``), or frames beyond the memory available (three
        bytes a pixel).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).
    """
    side = sized_frames(trace, "the frames of a trace")
    area = side * side
    check_frames(
        trace, every, "the frames of a trace", force=force, frame_pixels=area, frame_bytes=3 * area,
        fixed_bytes=6 * area, pixels=PIXELS,
    )  # fmt: skip
    return list(gif_frames(trace, every, force))


def gif_frames(trace: Trace, every: int | None, force: bool) -> Iterator[Any]:
    """The frames of :func:`frame_images`, one at a time (the caller has sized them)."""
    picked, boards = frames(trace, every, force=force)
    try:
        from PIL import ImageDraw
    except ImportError:  # pragma: no cover - Pillow is a dependency
        raise MissingDependency("drawing the frames needs Pillow: pip install pillow") from None
    n = trace.n
    px = svg.cell_size(n)
    base = board_image(trace.problem, None, cell=px).convert("RGB")
    solved = solved_frames(trace, picked, boards)
    for k, board in enumerate(boards):
        interrupt.check()
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
        yield image


def _attacked(trace: Trace, board):
    return attacked_rows(board) if trace.problem.is_standard else [False] * trace.n


def write_trace_gif(trace: Trace, path: object, **options: object) -> str:
    """Write :func:`trace_gif` to ``path`` (whole or not at all); returns the path.

    ``options`` are :func:`trace_gif`'s (``every``, ``frame_seconds``, ``hold``,
    ``force``); the path and the options are checked before anything is drawn.

    Raises
    ------
    QueensError
        An unusable path, an unknown option, and as :func:`trace_gif`.
    """
    return write_drawing(trace, path, trace_gif, options, "animated GIF", "write_trace_gif")
