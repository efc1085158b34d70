"""The 1-bit picture of a huge board: a PNG with one pixel (or ``scale`` x ``scale`` pixels) per
cell, white queens on black, for boards up to 20,000 x 20,000 pixels (the self-correcting Queens program (ronybc) draws
its 10,000 queens this way).

The image is built as packed bits with numpy (no per-cell Python loop), so a 20,000-queen
board costs about 50 MB and a second or two. Pillow is needed (``pip install pillow``);
it is imported only when a picture is written.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidPlacement, MissingDependency, TooLarge
from ..outfile import atomic_output
from ..validate import whole_number

__all__ = ["MAX_PNG_SIDE", "png_bits", "write_png"]

#: Largest side of a PNG, in pixels (n * scale).
MAX_PNG_SIDE = 20_000


def _placement(placement) -> np.ndarray:
    if isinstance(placement, str):
        raise InvalidPlacement(
            "expected 0-based columns as a sequence or numpy array; parse text with "
            "queenslab.solution.parse_placement first"
        )
    arr = np.asarray(placement)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        raise InvalidPlacement(
            f"a placement is a non-empty 1-D sequence of integer columns, got shape {arr.shape} ({arr.dtype})"
        )
    n = arr.size
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        r = int(bad[0])
        raise InvalidPlacement(f"row {r}: column {int(arr[r])} is off the board; 0-based columns are 0..{n - 1}")
    return arr.astype(np.int64, copy=False)


def _scale(scale) -> int:
    return whole_number(scale, "scale")


def png_bits(placement, *, scale: int = 1) -> np.ndarray:
    """The picture as packed rows of bits (mode "1" raw data): a uint8 array of shape
    ``(n * scale, ceil(n * scale / 8))``, most significant bit first, 1 = queen.

    Examples
    --------
    >>> png_bits([1, 3, 0, 2])[:, 0] >> 4
    array([4, 1, 8, 2], dtype=uint8)
    """
    p = _placement(placement)
    s = _scale(scale)
    n = p.size
    side = n * s
    if side > MAX_PNG_SIDE:
        raise TooLarge(
            f"a {side} x {side} pixel picture is too large: n * scale <= {MAX_PNG_SIDE} is allowed "
            f"(n = {n}, scale = {s})"
        )
    width = (side + 7) // 8
    rows = np.zeros((n, width), np.uint8)
    r = np.arange(n)
    for k in range(s):
        x = p * s + k
        rows[r, x >> 3] |= (0x80 >> (x & 7)).astype(np.uint8)
    return np.repeat(rows, s, axis=0) if s > 1 else rows


def write_png(placement, path, *, scale: int = 1) -> tuple[int, int]:
    """Write a placement as a 1-bit PNG: row 1 on top, white queens on a black board.

    Parameters
    ----------
    placement : array_like of int
        0-based columns by row (any placement, not only solutions).
    path : str or Path
        The file to write, whole or not at all (see
        :func:`queenslab.outfile.atomic_output`).
    scale : int, default 1
        Pixels per cell side; ``n * scale`` must be at most :data:`MAX_PNG_SIDE`.

    Returns
    -------
    tuple of int
        The picture's (width, height) in pixels.

    Raises
    ------
    InvalidPlacement
        If the placement is malformed.
    TooLarge
        If the picture would exceed :data:`MAX_PNG_SIDE` pixels a side.
    MissingDependency
        If Pillow is not installed.
    QueensError
        If ``path`` cannot be written.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:  # doctest: +SKIP
    ...     write_png([1, 3, 0, 2], os.path.join(d, "q4.png"), scale=10)
    (40, 40)
    """
    bits = png_bits(placement, scale=scale)
    try:
        from PIL import Image
    except ImportError:
        raise MissingDependency("writing PNG pictures needs Pillow: pip install pillow") from None
    side = bits.shape[0]
    image = Image.frombytes("1", (side, side), bits.tobytes())
    with atomic_output(path, "wb") as fh:
        image.save(fh, format="PNG", compress_level=1)
    return side, side
