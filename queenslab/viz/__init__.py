"""Pictures of boards, drawn here without a browser or the network.

* :func:`board_svg` / :func:`write_svg` -- an SVG board for any problem and placement:
  checkerboard, queens, blocked cells, fixed queens, the cells of constraint regions and
  the cells one queen attacks; legible from n = 4 to a few hundred (n <= 2000);
* :func:`board_image` / :func:`write_board_png` -- the same picture as a colour PNG;
* :func:`png_bits` / :func:`write_png` -- a 1-bit PNG, one pixel per cell, for boards of
  up to 20,000 queens;
* :class:`Board` -- a problem with a placement, shown as a picture in a notebook.

Pillow is imported only when a PNG is written.
"""

from .bits import MAX_PNG_SIDE, png_bits, write_png
from .board import Board
from .png import board_image, write_board_png
from .scene import MAX_N, Scene, scene
from .svg import board_svg, cell_size, write_svg

__all__ = [
    "MAX_N",
    "MAX_PNG_SIDE",
    "Board",
    "Scene",
    "scene",
    "board_svg",
    "cell_size",
    "write_svg",
    "board_image",
    "write_board_png",
    "png_bits",
    "write_png",
]
