"""Boards as colour PNG pictures: the same scene as the SVG (:mod:`~queenslab.viz.svg`),
drawn with numpy and Pillow (imported only here, when a picture is written)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import validate
from ..errors import MissingDependency, TooLarge
from ..outfile import atomic_output
from ..problem import Problem
from . import svg
from .bits import MAX_PNG_SIDE
from .scene import scene

__all__ = ["MAX_SIDE", "board_image", "draw_queen", "write_board_png"]

#: Largest side of a colour board picture, in pixels (192 MB of RGB); the 1-bit picture
#: (:mod:`~queenslab.viz.bits`) goes to 20,000.
MAX_SIDE = 8000


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[k : k + 2], 16) for k in (1, 3, 5)], np.float64)


def _tint(img: np.ndarray, cells, colour: str, opacity: float, px: int) -> None:
    rgb = _rgb(colour)
    for r, c in cells:
        block = img[r * px : (r + 1) * px, c * px : (c + 1) * px]
        block[:] = (block * (1 - opacity) + rgb * opacity).round().astype(np.uint8)


def board_image(problem: Problem | None = None, placement: Any = None, *, attacks_of: int | None = None, cell=None):
    """The board as a Pillow ``Image`` (RGB), ``cell`` pixels per cell side (default
    :func:`~queenslab.viz.svg.cell_size`).

    Raises
    ------
    TooLarge
        If ``n * cell`` exceeds :data:`MAX_SIDE`.
    MissingDependency
        Without Pillow.
    """
    s = scene(problem, placement, attacks_of=attacks_of)
    n, m = s.n, s.width
    px = svg.cell_size(max(n, m)) if cell is None else validate.whole_number(cell, "cell", minimum=1, maximum=512)
    if max(n, m) * px > MAX_SIDE:
        raise TooLarge(
            f"a {m * px} x {n * px} pixel board picture is too large: n * cell <= {MAX_SIDE} is allowed "
            f"(the 1-bit picture takes up to {MAX_PNG_SIDE})"
        )
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise MissingDependency("writing PNG pictures needs Pillow: pip install pillow") from None
    squares = np.array([_rgb(svg.LIGHT), _rgb(svg.DARK)], np.uint8)
    parity = np.add.outer(np.arange(n), np.arange(m)) & 1
    img = np.repeat(np.repeat(squares[parity], px, axis=0), px, axis=1)
    for i, (cells, _, _) in enumerate(s.regions):
        _tint(img, cells, svg.REGION_COLOURS[i % len(svg.REGION_COLOURS)], 0.45, px)
    _tint(img, s.blocked, svg.BLOCKED, 1.0, px)
    _tint(img, s.attacked, svg.ATTACKED, 0.4, px)
    image = Image.fromarray(img, "RGB")
    draw = ImageDraw.Draw(image)
    line = max(1, px // 10)
    for r, c in s.blocked:
        if px >= 8:
            x, y = c * px, r * px
            draw.line([(x + px // 4, y + px // 4), (x + 3 * px // 4, y + 3 * px // 4)], fill="#bbbbbb", width=line)
            draw.line([(x + 3 * px // 4, y + px // 4), (x + px // 4, y + 3 * px // 4)], fill="#bbbbbb", width=line)
    for r, c in s.fixed:
        draw.rectangle([c * px, r * px, (c + 1) * px - 1, (r + 1) * px - 1], outline=svg.FIXED, width=line)
    for r, c in s.queens:
        draw_queen(draw, r, c, px, svg.ATTACKER if (r, c) == s.attacker else svg.QUEEN)
    if px >= 16 and s.regions:  # each region's bound in its first cell, where it can be read
        font = _label_font(max(10, px * 3 // 10))
        for cells, _, label in s.regions:
            r, c = cells[0]
            ascii_label = label.replace("≤", "<=").replace("≥", ">=").replace("–", "-")  # any font has these
            xy = (c * px + px * 0.06, r * px + px * 0.04)
            draw.text(xy, ascii_label, fill="#1a1a1a", font=font, stroke_width=max(1, px // 24), stroke_fill="#ffffff")
    return image


def draw_queen(draw: Any, r: int, c: int, px: int, colour: str) -> None:
    """Draw the queen of cell ``(r, c)`` with a Pillow ``ImageDraw``: the SVG's crown, or
    a dot on cells under 10 pixels, where the crown would be a blur."""
    x, y = c * px, r * px
    if px < 10:
        draw.ellipse([x + px * 0.14, y + px * 0.14, x + px * 0.86, y + px * 0.86], fill=colour)
        return
    draw.polygon([(x + a * px, y + b * px) for a, b in svg.CROWN], fill=colour, outline="#ffffff")
    bx, by, bw, bh = svg.CROWN_BASE
    draw.rectangle([x + bx * px, y + by * px, x + (bx + bw) * px, y + (by + bh) * px], fill=colour)


def _label_font(size: int):
    """Pillow's default font at ``size`` pixels (a fixed small bitmap font on old Pillow)."""
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has no sized default font
        return ImageFont.load_default()


def write_board_png(
    path, problem: Problem | None = None, placement: Any = None, *, attacks_of: int | None = None, cell=None
) -> tuple[int, int]:
    """Write :func:`board_image` as a PNG (whole or not at all); returns (width, height)."""
    image = board_image(problem, placement, attacks_of=attacks_of, cell=cell)
    with atomic_output(path, "wb") as fh:
        image.save(fh, format="PNG", optimize=False)
    return image.size
