"""Boards as SVG: a checkerboard with queens, blocked and fixed cells, the cells of
constraint regions and, optionally, the cells one queen attacks.

The picture is plain SVG 1.1 text, written here without a browser, a font file or the
network: one pattern draws the checkerboard (so a board of n = 2000 costs as much as
its queens and marked cells, not n² squares), one symbol the queen, and every marked
cell carries a class (``queen``, ``blocked``, ``fixed``, ``region``, ``attacked``) for
styling and tests.
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Any

from .. import validate
from ..outfile import atomic_output
from ..problem import Problem
from .scene import Scene, scene

__all__ = ["LIGHT", "DARK", "REGION_COLOURS", "cell_size", "board_svg", "write_svg"]

#: The checkerboard's colours (light, dark).
LIGHT, DARK = "#f0d9b5", "#b58863"
#: One colour per region, in order (then again from the first).
REGION_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#ff7f0e", "#8c564b", "#e377c2", "#bcbd22")
BLOCKED, FIXED, ATTACKED, QUEEN, ATTACKER = "#4a4a4a", "#0b63c5", "#d62728", "#111111", "#c0392b"

#: The queen's crown in a unit cell: (x, y) points of its outline, and its base.
CROWN = (
    (0.2, 0.78),
    (0.13, 0.33),
    (0.32, 0.55),
    (0.4, 0.22),
    (0.5, 0.5),
    (0.6, 0.22),
    (0.68, 0.55),
    (0.87, 0.33),
    (0.8, 0.78),
)
CROWN_BASE = (0.2, 0.8, 0.6, 0.09)  # x, y, width, height


def cell_size(n: int) -> int:
    """Pixels per cell side by default: 48 for small boards, down to 3 from n = 160 on,
    so a board is about 400-500 pixels wide up to n = 160, and every cell stays visible.

    >>> cell_size(8), cell_size(100), cell_size(1000)
    (48, 5, 3)
    """
    n = validate.whole_number(n, "n", minimum=1)
    return max(3, min(48, round(480 / n)))


def _fmt(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _cells(cells, cls: str, fill: str, opacity: float | None = None, title: str | None = None) -> list[str]:
    op = f' fill-opacity="{_fmt(opacity)}"' if opacity is not None else ""
    out = [f'<g class="{cls}" fill="{fill}"{op}>']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out += [f'<rect class="{cls.split()[0]}" x="{c}" y="{r}" width="1" height="1"/>' for r, c in cells]
    out.append("</g>")
    return out


def board_svg(
    problem: Problem | None = None,
    placement: Any = None,
    *,
    attacks_of: int | None = None,
    cell: int | None = None,
    labels: bool | None = None,
) -> str:
    """The board as an SVG document.

    Parameters
    ----------
    problem : Problem, optional
        Its blocked cells, fixed queens and regions are marked (default: the standard
        problem of the placement's size).
    placement : sequence of int, optional
        0-based columns by row; None draws the constraints alone.
    attacks_of : int, optional
        A 0-based row: the cells its queen attacks are tinted red.
    cell : int, optional
        Pixels per cell side (default :func:`cell_size`); the picture scales freely.
    labels : bool, optional
        Number the rows and columns 1..n (default: for n <= 26).

    Returns
    -------
    str
        A standalone SVG document (``<svg ...>...</svg>``).

    Raises
    ------
    QueensError
        For bad arguments (see :func:`~queenslab.viz.scene.scene`).

    Examples
    --------
    >>> from queenslab import Problem
    >>> svg = board_svg(Problem(4, blocked=[(0, 0)]), (1, 3, 0, 2))
    >>> svg.startswith("<svg") and svg.count('<use class="queen"'), svg.count('<rect class="blocked"')
    (4, 1)
    """
    return render(scene(problem, placement, attacks_of=attacks_of), cell=cell, labels=labels)


def render(s: Scene, *, cell: int | None = None, labels: bool | None = None) -> str:
    """The SVG text of a :class:`~queenslab.viz.scene.Scene`."""
    n, m = s.n, s.width
    px = cell_size(max(n, m)) if cell is None else validate.whole_number(cell, "cell", minimum=1, maximum=512)
    labels = max(n, m) <= 26 if labels is None else validate.flag(labels, "labels")
    margin = 0.6 if labels else 0.0
    side, across = n + margin, m + margin
    key = hashlib.blake2b(repr(s).encode(), digest_size=4).hexdigest()  # ids unique per board on one page
    ck, qn = f"ql-{key}-ck", f"ql-{key}-q"
    crown = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in CROWN)
    bx, by, bw, bh = CROWN_BASE
    small = px < 10  # a crown of a few pixels reads as a dot: draw a dot
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="{round(across * px)}" height="{round(side * px)}" viewBox="{_fmt(-margin)} {_fmt(-margin)} '
        f'{_fmt(across)} {_fmt(side)}" role="img" aria-label="{escape(s.title, quote=True)}">',
        f"<title>{escape(s.title)}</title>",
        "<defs>",
        f'<pattern id="{ck}" width="2" height="2" patternUnits="userSpaceOnUse">'
        f'<rect width="2" height="2" fill="{LIGHT}"/><rect x="1" width="1" height="1" fill="{DARK}"/>'
        f'<rect y="1" width="1" height="1" fill="{DARK}"/></pattern>',
        f'<symbol id="{qn}" viewBox="0 0 1 1">'
        + (
            '<circle cx="0.5" cy="0.5" r="0.36"/>'
            if small
            else f'<polygon points="{crown}"/><rect x="{bx}" y="{by}" width="{bw}" height="{bh}"/>'
        )
        + "</symbol>",
        "</defs>",
        f'<rect class="board" width="{m}" height="{n}" fill="url(#{ck})"/>',
    ]
    for i, (cells, words, _) in enumerate(s.regions):
        colour = REGION_COLOURS[i % len(REGION_COLOURS)]
        out += _cells(cells, f"region region-{i}", colour, 0.45, f"region {i + 1}: {words}")
    if s.blocked:
        out += _cells(s.blocked, "blocked", BLOCKED, None, "blocked: no queen")
        cross = " ".join(f"M{c + 0.25},{r + 0.25}l0.5,0.5m0,-0.5l-0.5,0.5" for r, c in s.blocked)
        out.append(f'<path d="{cross}" stroke="#bbbbbb" stroke-width="0.06" fill="none"/>')
    if s.attacked:
        out += _cells(s.attacked, "attacked", ATTACKED, 0.4, f"attacked by the queen at {_one_based(s.attacker)}")
    if s.fixed:
        out.append(f'<g class="fixed" fill="none" stroke="{FIXED}" stroke-width="0.1"><title>fixed queen</title>')
        out += [f'<rect class="fixed" x="{c + 0.05}" y="{r + 0.05}" width="0.9" height="0.9"/>' for r, c in s.fixed]
        out.append("</g>")
    if s.queens:
        stroke = "" if small else ' stroke="#ffffff" stroke-width="0.035"'
        out.append(f'<g fill="{QUEEN}"{stroke}>')
        for r, c in s.queens:
            fill = f' fill="{ATTACKER}"' if (r, c) == s.attacker else ""
            out.append(
                f'<use class="queen" xlink:href="#{qn}" x="{c}" y="{r}" width="1" height="1"{fill}>'
                f"<title>queen at {_one_based((r, c))}</title></use>"
            )
        out.append("</g>")
    if s.regions and px >= 12:  # each region's bound in its first cell, where it can be read
        out.append('<g class="region-labels" font-family="sans-serif" font-size="0.3" font-weight="bold">')
        for i, (cells, words, label) in enumerate(s.regions):
            r, c = cells[0]  # the first in row order: the region's top-left-most cell
            out.append(
                f'<text class="region-label" x="{c + 0.06}" y="{r + 0.3}" fill="#1a1a1a" stroke="#ffffff" '
                f'stroke-width="0.05" paint-order="stroke"><title>region {i + 1}: {escape(words)}</title>'
                f"{escape(label)}</text>"
            )
        out.append("</g>")
    out.append(
        f'<rect width="{m}" height="{n}" fill="none" stroke="#5a4632" stroke-width="{_fmt(min(0.08, 2 / px))}"/>'
    )
    if labels:
        size = 0.36
        out.append(f'<g font-family="sans-serif" font-size="{size}" fill="#888888" text-anchor="middle">')
        out += [f'<text x="{k + 0.5}" y="-0.18">{k + 1}</text>' for k in range(m)]
        out += [f'<text x="-0.3" y="{k + 0.63}">{k + 1}</text>' for k in range(n)]
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _one_based(cell) -> str:
    return f"({cell[0] + 1},{cell[1] + 1})" if cell is not None else ""


def write_svg(
    path,
    problem: Problem | None = None,
    placement: Any = None,
    *,
    attacks_of: int | None = None,
    cell: int | None = None,
    labels: bool | None = None,
) -> str:
    """Write :func:`board_svg` to ``path`` (whole or not at all); returns the path."""
    text = board_svg(problem, placement, attacks_of=attacks_of, cell=cell, labels=labels)
    with atomic_output(path, "w") as fh:
        fh.write(text)
    return str(path)
