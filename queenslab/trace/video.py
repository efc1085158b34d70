"""An MP4 video of a trace: the frames of the animated GIF, encoded by ffmpeg.

For a talk or a web page that plays video: the same frames as :mod:`.gif` (the colour PNG
board of :mod:`queenslab.viz.png`, queens red when attacked, a green frame on a
solution), ``fps`` frames a second, the last one held for ``hold`` seconds. The frames are
padded with white to a multiple of 16 pixels on each side (H.264's macroblocks, so that
every player shows them unscaled) and encoded as H.264 in ``yuv420p`` by imageio's ffmpeg
plugin, which the ``video`` extra installs (``pip install "queenslab[video]"``, imported
only here). The file is encoded in a temporary directory next to the target and copied
into place whole (:func:`queenslab.outfile.atomic_output`): a failed or interrupted
export leaves nothing behind.

The video is sized before any frame is drawn, as the GIF is (the frames, the queens and
the pixels drawn held to their practical limits, :data:`~queenslab.trace.gif.PIXELS`
among them; the memory estimated): its frames are drawn and encoded one at a time, and
the stop flag is looked at between them, so Ctrl-C stops the export.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import numpy as np

from .. import interrupt, validate
from ..errors import MissingDependency, QueensError
from ..outfile import atomic_output, check_output_path, output_target
from .animate import check_frames
from .gif import PIXELS, gif_frames, sized_frames
from .steps import Trace

__all__ = ["MACRO_BLOCK", "video_size", "write_trace_mp4"]

#: Frames are padded to a multiple of this many pixels on each side.
MACRO_BLOCK = 16
_INSTALL = 'pip install "queenslab[video]"'


def _imageio() -> Any:
    """imageio's v2 API with its ffmpeg plugin, or an error naming the extra."""
    try:
        import imageio.v2 as iio
        import imageio_ffmpeg
    except ImportError:
        raise MissingDependency(f"writing an MP4 video needs imageio and imageio-ffmpeg: {_INSTALL}") from None
    try:
        imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as e:  # installed, but without an ffmpeg binary for this platform
        raise MissingDependency(f"writing an MP4 video needs an ffmpeg binary ({e}); {_INSTALL}") from None
    return iio


def video_size(width: int, height: int) -> tuple[int, int]:
    """A frame's size in the video: each side rounded up to a multiple of :data:`MACRO_BLOCK`.

    >>> video_size(477, 477)
    (480, 480)
    """
    return tuple(-(-side // MACRO_BLOCK) * MACRO_BLOCK for side in (width, height))  # type: ignore[return-value]


def _padded(image: Any, size: tuple[int, int]) -> np.ndarray:
    pixels = np.asarray(image, np.uint8)
    out = np.full((size[1], size[0], 3), 255, np.uint8)
    out[: pixels.shape[0], : pixels.shape[1]] = pixels[..., :3]
    return out


def write_trace_mp4(
    trace: Trace, path: object, *, every: int | None = None, fps: float = 5.0, hold: float = 2.0, force: object = False
) -> str:
    """Write the trace as an MP4 video (H.264) to ``path``, whole or not at all.

    Parameters
    ----------
    trace : Trace
    path : str or path-like
    every : int, optional
        Draw every ``every``-th step (the last always); default: at most
        :data:`~queenslab.trace.animate.MAX_FRAMES` frames.
    fps : float, default 5.0
        Frames per second (0.5 to 60).
    hold : float, default 2.0
        Seconds the last frame stays: ``round(hold * fps)`` more copies of it.
    force : bool, default False
        Draw beyond the practical limits (:data:`~queenslab.trace.gif.PIXELS`,
        :data:`~queenslab.trace.animate.FRAMES`, :data:`~queenslab.trace.animate.QUEENS`).

    Returns
    -------
    str
        The path.

    Raises
    ------
    MissingDependency
        Without imageio and imageio-ffmpeg (naming the ``video`` extra).
    QueensError
        An unusable path, a trace without steps, bad arguments.
    TooLarge
        Before any frame is drawn: a board beyond the pictures (n > 2000), frames beyond
        the practical limits (with the smallest ``every`` that fits), or frames beyond the
        memory available (naming the memory needed and available).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C); the
        target is then left as it was.

    Examples
    --------
    >>> import os, tempfile
    >>> from queenslab.trace import record
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = write_trace_mp4(record(6, "backtrack"), os.path.join(d, "t.mp4"), hold=0)
    ...     os.listdir(d)
    ['t.mp4']
    """
    fps = validate.real(fps, "fps", minimum=0.5, maximum=60.0)
    hold = validate.real(hold, "hold", minimum=0.0, maximum=600.0)
    check_output_path(path, "MP4 video")
    iio = _imageio()
    force = validate.flag(force, "force")
    side = sized_frames(trace, "an MP4 video")
    padded = video_size(side, side)
    # one frame at a time: the board it starts from, the frame, its array and its padded copy
    check_frames(
        trace, every, "an MP4 video", force=force, frame_pixels=side * side,
        fixed_bytes=9 * side * side + 6 * padded[0] * padded[1], pixels=PIXELS,
    )  # fmt: skip
    images = gif_frames(trace, every, force)
    target = output_target(path, "MP4 video")
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".queenslab-video-") as scratch:
        encoded = os.path.join(scratch, "trace.mp4")
        try:
            writer = iio.get_writer(
                encoded,
                format="FFMPEG",
                fps=fps,
                codec="libx264",
                pixelformat="yuv420p",
                macro_block_size=MACRO_BLOCK,
                ffmpeg_log_level="error",
            )
            try:
                last = None
                for image in images:
                    last = _padded(image, padded)
                    writer.append_data(last)
                for _ in range(round(hold * fps)):
                    interrupt.check()
                    writer.append_data(last)
            finally:
                writer.close()
        except QueensError:  # a refusal of the frames (a ValueError too), not ffmpeg's failure
            raise
        except (OSError, RuntimeError, ValueError) as e:
            raise QueensError(f"cannot write the MP4 video {str(path)!r}: ffmpeg failed ({e})") from None
        with atomic_output(path, "wb", what="MP4 video") as fh, open(encoded, "rb") as src:
            shutil.copyfileobj(src, fh)
    return str(path)
