"""An animated SVG of a trace: the board of :mod:`queenslab.viz.svg`, its queens moving.

The picture is the board :func:`queenslab.viz.svg.render` draws for the problem (blocked
cells, fixed queens, regions), with one queen per row whose column, visibility and colour
change frame by frame through SMIL ``<animate>`` elements (``calcMode="discrete"``): no
script, so it plays in any browser, also from a file or inside a web page's ``<img>``. A
row's animation lists only the frames where that row changes, so the file grows with the
number of moves, not with frames x rows. Queens that attack another are drawn red; the
board's frame turns green on a frame whose board is a solution. A bar below the board
shows how far the trace has played; the last frame is held before the loop restarts.

Long traces are sampled: every ``every``-th step makes a frame (by default enough for at
most :data:`MAX_FRAMES` frames), and the last step always does.

Every picture of a trace's frames (this animation, the GIF and the video of :mod:`.gif`
and :mod:`.video`, the strip of :mod:`.strip`) is sized before anything is drawn
(:func:`check_frames`): the board must be one that is drawn cell by cell (n <=
:data:`~queenslab.viz.scene.MAX_N`), the frames and the queens drawn in them are held to
practical limits (:data:`FRAMES`, :data:`QUEENS`; ``force=True`` goes beyond them), and
the memory the frames take is estimated and refused beyond what is available. Drawing
looks at the stop flag (:mod:`queenslab.interrupt`) as it goes, so Ctrl-C stops it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

import numpy as np

from .. import interrupt, limits, validate
from ..errors import QueensError, TooLarge, setting
from ..outfile import atomic_output, check_output_path
from ..viz.scene import MAX_N, scene
from ..viz.svg import ATTACKER, QUEEN, cell_size, render
from .rules import checked
from .steps import Trace

__all__ = [
    "MAX_FRAMES",
    "FRAMES",
    "QUEENS",
    "attacked_rows",
    "sampling",
    "frame_count",
    "least_every",
    "check_board",
    "check_frames",
    "frames",
    "solved_frames",
    "trace_svg",
    "write_trace_svg",
]

#: Frames of an animation when ``every`` is not given.
MAX_FRAMES = 400
SOLVED = "#2ca02c"

#: The practical limits of the pictures of a trace's frames (animated SVG, GIF, MP4): each
#: frame is a board replayed, checked for attacks and drawn in Python, so the time grows
#: with the frames and with the queens drawn in them (frames times n). Measured as animated
#: SVGs on a 2-core machine busy with other work: 20,000 frames of 10 queens in about 3 s,
#: 1,000 frames of 2000 queens (2,000,000 queens) in 3.5 s, 20,000 frames of 100 in 7 s.
FRAMES = limits.declare(
    "the frames of an animation",
    20_000,
    "frames",
    "each frame is a board replayed, checked for attacks and drawn: 20,000 frames of 10 queens take about 3 s as an "
    "animated SVG, and longer as a GIF or a video; a longer trace is sampled: every=K (--every K)",
)
QUEENS = limits.declare(
    "the queens of an animation",
    2_000_000,
    "queens",
    "the queens drawn are the frames times n, each placed and coloured in Python: 1,000 frames of n = 2000 take about "
    "3.5 s as an animated SVG, 20,000 frames of n = 100 about 7 s, and longer as a GIF or a video",
)
#: Bytes a frame's board takes (int64 columns).
_BOARD_BYTES = 8
#: Bytes of an animated SVG besides its frames: the static board and the document's parts.
_SVG_FIXED_BYTES = 1 << 20
#: Steps replayed between two looks at the stop flag.
_CHECK_EVERY = 1 << 14


def sampling(trace: Trace, every: int | None = None) -> tuple[int, int]:
    """``(k, count)``: a frame every ``k`` steps from the first (steps 1, k + 1, 2k + 1,
    ..., and the last always), ``count`` frames.

    ``every`` None picks the smallest ``k`` that gives at most :data:`MAX_FRAMES` frames.

    Raises
    ------
    QueensError
        For a trace without steps, or ``every`` not an integer >= 1.

    Examples
    --------
    >>> from queenslab.trace import record
    >>> sampling(record(8, "selfcorrect", seed=1)), sampling(record(8, "selfcorrect", seed=1), 5)
    ((1, 52), (5, 12))
    """
    total = len(trace.steps)
    if total == 0:
        raise QueensError("the trace has no steps to draw (a board without a solution, or an empty search)")
    k = least_every(total, MAX_FRAMES) if every is None else validate.whole_number(every, "every", minimum=1)
    return k, frame_count(total, k)


def frame_count(total: int, every: int) -> int:
    """The frames drawn of ``total`` steps, one every ``every`` from the first and the last.

    Examples
    --------
    >>> frame_count(52, 1), frame_count(52, 5), frame_count(51, 5), frame_count(52, 52), frame_count(1, 3)
    (52, 12, 11, 2, 1)
    """
    return -(-(total - 1) // every) + 1


def least_every(total: int, most: int) -> int:
    """The smallest ``every`` that draws at most ``most`` frames (>= 1) of ``total`` steps
    (:func:`frame_count`); 0 when none does (``most`` 1 and more than one step).

    Examples
    --------
    >>> least_every(52, 12), frame_count(52, least_every(52, 12)), frame_count(52, least_every(52, 12) - 1)
    (5, 12, 14)
    >>> least_every(1000, 1), least_every(1, 1)
    (0, 1)
    """
    if total <= 1:
        return 1
    if most < 2:
        return 0
    return max(1, -(-(total - 1) // (most - 1)))


def check_board(trace: Trace, what: str) -> None:
    """Refuse what is not a trace (:func:`~queenslab.trace.rules.checked`: its fields and
    its steps, once), and a board that is not drawn cell by cell (n >
    :data:`~queenslab.viz.scene.MAX_N`), before any board of it is made.

    Raises
    ------
    QueensError
        Not a :class:`~queenslab.trace.steps.Trace`, or one whose steps its method cannot
        take (:class:`~queenslab.errors.InvalidTrace`).
    TooLarge
        Naming the board, the picture and the limit.
    """
    checked(trace)
    n = trace.n
    if n > MAX_N:
        raise TooLarge(
            f"{what} of a trace of {n} queens: boards are drawn cell by cell up to n = {MAX_N}; draw the last board "
            "as a 1-bit PNG instead (queenslab show --png)"
        )


def check_frames(
    trace: Trace,
    every: int | None,
    what: str,
    *,
    force: bool = False,
    frame_pixels: int = 0,
    frame_bytes: int = 0,
    fixed_bytes: int = 0,
    pixels: limits.Limit | None = None,
) -> tuple[int, int]:
    """Size a picture of a trace's frames before anything is drawn; returns
    :func:`sampling`'s ``(k, count)``.

    In order: the board (:func:`check_board`), the frames (:data:`FRAMES`), the queens
    drawn (:data:`QUEENS`, frames times n), the pixels drawn (``pixels``, frames times
    ``frame_pixels``, for the raster pictures), then the memory: the boards of the frames,
    ``frame_bytes`` per frame and ``fixed_bytes`` once, against the memory available.

    Parameters
    ----------
    trace : Trace
    every : int or None
        As for :func:`frames`.
    what : str
        The picture, for messages (``"an animated GIF"``).
    force : bool, default False
        Go beyond the practical limits (not beyond the memory available).
    frame_pixels, frame_bytes, fixed_bytes : int
        Pixels and bytes of each frame, and bytes once, of the picture.
    pixels : Limit, optional
        The practical limit of the pixels drawn.

    Raises
    ------
    TooLarge
        Beyond a limit (with the smallest ``every`` that fits), or beyond the memory
        available (naming the memory needed and available).
    QueensError
        For a trace without steps, or a bad ``every``.
    """
    check_board(trace, what)
    k, count = sampling(trace, every)
    force = validate.flag(force, "force")
    n, total = trace.n, len(trace.steps)
    checks = [(FRAMES, count, 1), (QUEENS, count * n, n)]
    if pixels is not None:
        checks.append((pixels, count * frame_pixels, frame_pixels))
    for limit, size, per_frame in checks:
        if size <= limit.largest or force:
            continue
        most = limit.largest // per_frame  # the frames that fit
        every = least_every(total, most)
        hint = f"draw fewer frames: {setting(f'every={every}', f'--every {every}')} or more" if every else ""
        shown = f"{count:,} frame{'s' if count != 1 else ''} of {n} queens"
        if limit is not FRAMES:
            shown += f" ({size:,} {limit.unit})"
        limits.check(limit, size, force, hint=hint, request=f"{what} of {shown}")
    need = (count + 1) * n * _BOARD_BYTES + count * frame_bytes + fixed_bytes
    validate.memory(
        need, f"{what} of {count:,} frames of {n} queens", f"draw fewer frames: {setting('every=K', '--every K')}"
    )
    return k, count


def attacked_rows(board: np.ndarray) -> np.ndarray:
    """Rows whose queen another queen attacks on a standard board (-1: empty row)."""
    n = board.size
    rows = np.flatnonzero(board >= 0)
    hit = np.zeros(n, bool)
    cols = board[rows]
    for line in (cols, rows - cols, rows + cols):
        _, inverse, counts = np.unique(line, return_inverse=True, return_counts=True)
        hit[rows[counts[inverse] > 1]] = True
    return hit


def solved_frames(trace: Trace, picked: list[int], boards: list[np.ndarray]) -> list[bool]:
    """Which frames show a solution: a backtracking ``solution`` step, or for the other
    searches (the standard problem) a full board without an attack."""
    out: list[bool] = []
    for i, board in zip(picked, boards):
        if len(out) % 256 == 0:
            interrupt.check()
        full = bool((board >= 0).all())
        if trace.method == "backtrack":
            out.append(full and trace.steps[i].op == "solution")
        else:
            out.append(full and trace.problem.is_standard and not attacked_rows(board).any())
    return out


def frames(
    trace: Trace, every: int | None = None, *, force: bool = False, what: str = "the frames"
) -> tuple[list[int], list[np.ndarray]]:
    """The steps drawn and the board after each: every ``every``-th step from the first,
    and the last.

    The frames are sized first (:func:`check_frames`): a board beyond the pictures, or
    frames beyond the practical limits (unless ``force``) or the memory available, are
    refused before any board is made.

    Returns
    -------
    (list of int, list of numpy.ndarray)
        0-based step indices, and copies of the boards after them.

    Raises
    ------
    QueensError
        For a trace without steps, or ``every`` not an integer >= 1.
    TooLarge
        Beyond a limit or the memory available (see :func:`check_frames`).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).
    """
    k, _ = check_frames(trace, every, what, force=force)
    total = len(trace.steps)
    picked, boards = [], []
    for i, board in enumerate(trace.boards()):
        if i % _CHECK_EVERY == 0:
            interrupt.check()
        if i % k == 0 or i == total - 1:
            picked.append(i)
            boards.append(board.copy())
    return picked, boards


def check_options(options: dict[str, object], known: tuple[str, ...], call: str) -> None:
    """Refuse an option a writer does not take, naming those it takes.

    Raises
    ------
    QueensError
        For the first unknown option.
    """
    for name in options:
        if name not in known:
            raise QueensError(f"{call} takes the options {', '.join(known)}, not {validate.brief(name)}")


def _changes(series: list[str]) -> list[tuple[int, str]]:
    """(frame, value) where the value differs from the frame before (frame 0 always)."""
    out = [(0, series[0])]
    for f in range(1, len(series)):
        if series[f] != series[f - 1]:
            out.append((f, series[f]))
    return out


def trace_svg(
    trace: Trace, *, every: int | None = None, frame_seconds: float = 0.2, hold: float = 2.0, force: bool = False
) -> str:
    """The trace as an animated SVG document.

    Parameters
    ----------
    trace : Trace
    every : int, optional
        Draw every ``every``-th step (the last always); default: at most
        :data:`MAX_FRAMES` frames.
    frame_seconds : float, default 0.2
        How long each frame shows.
    hold : float, default 2.0
        Seconds the last frame stays before the animation starts again.
    force : bool, default False
        Draw beyond the practical limits :data:`FRAMES` and :data:`QUEENS`.

    Returns
    -------
    str

    Raises
    ------
    QueensError
        For a trace without steps, or bad arguments.
    TooLarge
        Before anything is drawn: for a board beyond the SVG pictures (n > 2000), frames
        beyond the practical limits (with the smallest ``every`` that fits) or a picture
        beyond the memory available (naming the memory needed and available).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).

    Examples
    --------
    >>> from queenslab.trace import record
    >>> svg = trace_svg(record(6, "backtrack"))
    >>> svg.startswith("<svg") and "<animate" in svg and "<script" not in svg
    True
    """
    frame_seconds = validate.real(frame_seconds, "frame_seconds", minimum=0.0, open_minimum=True)
    hold = validate.real(hold, "hold", minimum=0.0)
    what = "an animated SVG"
    check_board(trace, what)
    # per frame: its attacked rows (n bytes), the rows' animation values while each row is
    # written (a few Python strings a frame) and at most three changes a row in the text
    check_frames(trace, every, what, force=force, frame_bytes=trace.n * 25 + 400, fixed_bytes=_SVG_FIXED_BYTES)
    picked, boards = frames(trace, every, force=force, what=what)
    n = trace.n
    px = cell_size(n)
    labels = n <= 26
    margin = 0.6 if labels else 0.0
    board = render(scene(trace.problem), cell=px, labels=labels)
    body = board.split("\n", 1)[1]  # the static board's opening tag is replaced below
    queen = re.search(r'<symbol id="([^"]+)"', body)
    assert queen is not None  # render always defines the queen symbol
    count = len(boards)
    total = count * frame_seconds + hold
    # the frames share the cycle; the held last frame fills the rest
    cycle = count * frame_seconds / total
    dur = f"{total:.3f}s"

    bar = 0.25
    side = n + margin
    title = f"{trace.method} on {trace.problem.describe()}: {len(trace.steps)} steps" + (
        "" if trace.complete else " (cut by the step cap)"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="{round(side * px)}" height="{round((side + bar + 0.1) * px)}" viewBox="{-margin:g} {-margin:g} '
        f'{side:g} {side + bar + 0.1:g}" role="img" aria-label="{escape(title, quote=True)}">',
        f"<title>{escape(title)}</title>",
    ]
    body = body.rsplit("</svg>", 1)[0]
    body = re.sub(r"<title>[^<]*</title>", "", body, count=1)  # the static board's own title
    out.append(body)
    standard = trace.problem.is_standard
    solved = solved_frames(trace, picked, boards)
    scale = cycle  # keyTimes are fractions of the whole cycle, held end included

    def times(changes: list[tuple[int, str]]) -> list[tuple[float, str]]:
        return [(f * scale / count, v) for f, v in changes]

    def animate(attribute: str, changes: list[tuple[int, str]]) -> str:
        timed = times(changes)
        keys = ";".join("0" if t == 0 else f"{t:.6f}".rstrip("0").rstrip(".") for t, _ in timed)
        values = ";".join(v for _, v in timed)
        return (
            f'<animate attributeName="{attribute}" calcMode="discrete" values="{values}" keyTimes="{keys}" '
            f'dur="{dur}" repeatCount="indefinite"/>'
        )

    hit: list[np.ndarray] = []
    for b in boards:
        if len(hit) % 256 == 0:
            interrupt.check()
        hit.append(attacked_rows(b) if standard else np.zeros(n, bool))
    out.append(f'<g class="trace-queens" fill="{QUEEN}" stroke="#ffffff" stroke-width="0.035">')
    for r in range(n):
        interrupt.check()
        cols = [int(b[r]) for b in boards]
        if all(c < 0 for c in cols):
            continue
        first = next(c for c in cols if c >= 0)
        xs, last = [], first
        for c in cols:
            last = c if c >= 0 else last
            xs.append(str(last))
        seen = ["visible" if c >= 0 else "hidden" for c in cols]
        fills = [ATTACKER if h[r] else QUEEN for h in hit]
        # the static attributes show the last frame, for a viewer that does not animate
        parts = [
            f'<use class="queen" xlink:href="#{queen.group(1)}" x="{xs[-1]}" y="{r}" width="1" height="1" '
            f'visibility="{seen[-1]}" fill="{fills[-1]}">'
        ]
        for attribute, series in (("x", xs), ("visibility", seen), ("fill", fills)):
            parts.append(animate(attribute, _changes(series)))
        parts.append("</use>")
        out.append("".join(parts))
    out.append("</g>")
    frame = _changes(["1" if s else "0" for s in solved])
    out.append(
        f'<rect class="solved" width="{n}" height="{n}" fill="none" stroke="{SOLVED}" stroke-width="0.12" '
        f'stroke-opacity="0">{animate("stroke-opacity", frame)}</rect>'
    )
    played = count * frame_seconds
    out.append(f'<rect class="progress-track" x="0" y="{n + 0.1:g}" width="{n}" height="{bar}" fill="#dddddd"/>')
    out.append(
        f'<rect class="progress" x="0" y="{n + 0.1:g}" width="0" height="{bar}" fill="#3f51b5">'
        f'<animate attributeName="width" values="0;{n};{n}" keyTimes="0;{cycle:.6f};1" dur="{dur}" '
        f'repeatCount="indefinite"/></rect>'
    )
    out.append(
        f"<!-- {len(trace.steps)} steps, {count} frames of {frame_seconds:g} s ({played:g} s), held {hold:g} s -->"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_trace_svg(trace: Trace, path: object, **options: object) -> str:
    """Write :func:`trace_svg` to ``path`` (whole or not at all); returns the path.

    ``options`` are :func:`trace_svg`'s (``every``, ``frame_seconds``, ``hold``,
    ``force``); the path and the options are checked before anything is drawn.

    Raises
    ------
    QueensError
        An unusable path, an unknown option, and as :func:`trace_svg`.
    """
    return write_drawing(trace, path, trace_svg, options, "animated SVG", "write_trace_svg")


def write_drawing(
    trace: Trace, path: object, draw: Callable[..., str | bytes], options: dict[str, object], what: str, name: str
) -> str:
    """Write ``draw(trace, **options)`` (text or bytes) to ``path``, whole or not at all,
    after checking the path and the options (those of an animation: ``every``,
    ``frame_seconds``, ``hold``, ``force``); ``what`` names the file in messages and
    ``name`` the writer."""
    check_output_path(path, what)
    check_options(options, ("every", "frame_seconds", "hold", "force"), name)
    data = draw(trace, **options)
    with atomic_output(path, "w" if isinstance(data, str) else "wb", what=what) as fh:
        fh.write(data)
    return str(path)
