"""Figures for papers and the documentation, drawn with matplotlib (the ``plot`` extra).

Each function takes plain data (numbers, mappings, rows of tuples), checks it, and returns
a :class:`matplotlib.figure.Figure`:

* :func:`counts` -- solution counts against n on a log scale (total, fundamental,
  toroidal, superqueens);
* :func:`ratios` -- benchmark ratios as horizontal bars, with a line at 1 and the targets;
* :func:`orbit_coverage` -- the share of orbits Zhang and Zhang's orbit-based search
  reaches, by n;
* :func:`orbit_generations` -- one orbit search: the orbits found at each generation of
  moves, against the true number of orbits;
* :func:`signatures` -- orbits and distinct orbit signatures by n (collisions stand out);
* :func:`rank_times` -- rank and unrank times by n, log scale;
* :func:`minconflicts_steps` -- min-conflicts repair steps against n, log-log, median and
  spread over seeds;
* :func:`growth` -- ``log Q(n) / n`` by n with error bars, against the asymptotics
  (``queenslab experiment growth``).

:func:`save` writes a figure to a ``.png`` or ``.svg`` file (whole or not at all, like every
output file); :func:`render` gives the bytes. SVG output has its text as paths, no external
DTD and no date, so the same figure gives the same bytes.

Every figure is drawn in a :func:`style`: ``"light"`` (the default: a white background,
black text, as matplotlib draws) or ``"dark"`` (a transparent background, light text, axes
and grid, for dark pages and notebook themes; the data keep their colours). ``with
plot.style("dark"): fig = plot.counts()`` draws one figure dark; the environment variable
``QUEENSLAB_PLOT_STYLE`` sets the default (the documentation site draws each figure in both,
one for each colour scheme).

matplotlib is imported inside the functions only: ``import queenslab.plot`` stays light,
and without matplotlib every function raises
:class:`~queenslab.errors.MissingDependency` naming the extra to install. pyplot is never
used, so no display or GUI backend is needed.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import itertools
import math
import os
import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from . import validate
from .errors import MissingDependency, QueensError, TooLarge
from .outfile import atomic_output, check_output_path

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "COUNT_KINDS",
    "COUNT_LIMIT",
    "SUFFIXES",
    "counts",
    "ratios",
    "orbit_coverage",
    "orbit_generations",
    "signatures",
    "rank_times",
    "minconflicts_steps",
    "STYLES",
    "STYLE_ENV",
    "Style",
    "style",
    "current_style",
    "growth",
    "render",
    "save",
    "check_path",
]

#: The kinds of count :func:`counts` draws, and where each comes from.
COUNT_KINDS = {
    "total": "all solutions (OEIS A000170)",
    "unique": "fundamental solutions (OEIS A002562)",
    "toroidal": "toroidal board, counted (OEIS A051906)",
    "superqueens": "superqueens, counted (OEIS A051223)",
}
#: The largest n :func:`counts` counts itself (toroidal, superqueens): about a second at 16.
COUNT_LIMIT = 16
#: The file types :func:`save` writes.
SUFFIXES = (".png", ".svg")
#: At most this many bars in one :func:`ratios` chart, points in the other figures.
MAX_BARS = 200
MAX_POINTS = 100_000

_INSTALL = 'pip install "queenslab[plot]"'
_DPI = 150


# ----------------------------------------------------------------------------- styles


@dataclass(frozen=True)
class Style:
    """The colours of a figure's parts that are not data (the data keep theirs).

    Attributes
    ----------
    name : str
        ``"light"`` or ``"dark"``.
    rc : dict
        matplotlib settings while the figure is drawn (background, text, axes, ticks);
        empty for ``"light"``, which leaves matplotlib's (and the user's) own settings.
    grid, reference, muted, neutral, label : str
        Colours of the grid, of reference lines and their labels (a line at 1, "every
        orbit"), of notes, of a data line without a colour of its own, and of a value
        printed above a bar.
    """

    name: str
    rc: dict[str, str] = field(default_factory=dict)
    grid: str = "0.88"
    reference: str = "0.25"
    muted: str = "0.4"
    neutral: str = "0.3"
    label: str = "black"


_DARK_TEXT = "#d0d3dc"
#: The styles :func:`style` knows. ``"dark"`` is drawn for Material's slate scheme (a
#: background near ``#1e2029``) and reads on any dark background: it has none of its own.
STYLES = {
    "light": Style("light"),
    "dark": Style(
        "dark",
        rc={
            "figure.facecolor": "none",
            "axes.facecolor": "none",
            "savefig.facecolor": "none",
            "text.color": _DARK_TEXT,
            "axes.labelcolor": _DARK_TEXT,
            "axes.edgecolor": "#9a9eaa",
            "xtick.color": "#9a9eaa",
            "ytick.color": "#9a9eaa",
            "xtick.labelcolor": _DARK_TEXT,
            "ytick.labelcolor": _DARK_TEXT,
            "legend.labelcolor": _DARK_TEXT,
        },
        grid="#3a3e4c",
        reference="#b8bcc8",
        muted="#9a9eaa",
        neutral="#c8ccd6",
        label=_DARK_TEXT,
    ),
}
#: The environment variable naming the default style (unset: ``"light"``).
STYLE_ENV = "QUEENSLAB_PLOT_STYLE"
_STYLE: contextvars.ContextVar[Style | None] = contextvars.ContextVar("queenslab_plot_style", default=None)


def current_style() -> Style:
    """The style figures are drawn in now: the innermost :func:`style`, else the one named
    by ``$QUEENSLAB_PLOT_STYLE``, else ``"light"``.

    Raises
    ------
    QueensError
        When ``$QUEENSLAB_PLOT_STYLE`` names no style.

    Examples
    --------
    >>> with style("dark"):
    ...     current_style().name
    'dark'
    """
    chosen = _STYLE.get()
    if chosen is not None:
        return chosen
    name = os.environ.get(STYLE_ENV, "").strip() or "light"
    return STYLES[validate.choice(name, STYLES, f"the plot style (${STYLE_ENV})")]


@contextlib.contextmanager
def style(name: str) -> Iterator[Style]:
    """Draw the figures made inside the ``with`` block in the style ``name``.

    Parameters
    ----------
    name : {"light", "dark"}
        ``"light"``: white background, black text (matplotlib's own look, the default).
        ``"dark"``: transparent background with light text, axes and grid, for a dark page
        or notebook theme.

    Yields
    ------
    Style

    Raises
    ------
    QueensError
        For another name.

    Examples
    --------
    >>> with style("dark"):
    ...     fig = orbit_coverage({8: 100.0})
    >>> fig.get_facecolor()[3], fig.axes[0].yaxis.label.get_color()
    (0.0, '#d0d3dc')
    >>> orbit_coverage({8: 100.0}).get_facecolor()
    (1.0, 1.0, 1.0, 1.0)
    """
    token = _STYLE.set(STYLES[validate.choice(name, STYLES, "plot style")])
    try:
        yield _STYLE.get()  # type: ignore[misc]
    finally:
        _STYLE.reset(token)


_F = TypeVar("_F", bound=Callable[..., Any])


def _styled(function: _F) -> _F:
    """Draw ``function``'s figure with the current style's matplotlib settings."""

    @functools.wraps(function)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        chosen = current_style()
        if not chosen.rc:
            return function(*args, **kwargs)
        with _matplotlib().rc_context(chosen.rc):
            return function(*args, **kwargs)

    return drawn  # type: ignore[return-value]


# ----------------------------------------------------------------------------- matplotlib


def _matplotlib() -> Any:
    """The ``matplotlib`` module, or :class:`MissingDependency` naming the extra."""
    try:
        import matplotlib
        import matplotlib.figure
        import matplotlib.ticker
    except ImportError:
        raise MissingDependency(f"figures need matplotlib: {_INSTALL}") from None
    return matplotlib


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    mpl = _matplotlib()
    fig = mpl.figure.Figure(figsize=(width, height), dpi=_DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, which="major", color=current_style().grid, linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return fig, ax


def _integer_ticks(ax: Axes) -> None:
    ax.xaxis.set_major_locator(_matplotlib().ticker.MaxNLocator(integer=True))


# ----------------------------------------------------------------------------- input checks


def _iterable(value: object, what: str, items: str) -> Iterable:
    """``value`` if it can be a list of ``items`` (not text, not a number, not a 0-d array)."""
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Iterable)
        or (isinstance(value, np.ndarray) and value.ndim == 0)
    ):
        raise QueensError(f"{what} must be a list of {items}, got {validate.brief(value)}")
    return value


def _rows(rows: object, what: str, shape: str, lengths: tuple[int, ...], limit: int = MAX_POINTS) -> list[tuple]:
    """``rows`` as a non-empty list of tuples whose lengths are in ``lengths``."""
    out = []
    for i, row in enumerate(itertools.islice(_iterable(rows, what, shape), limit + 1)):
        if i == limit:
            raise TooLarge(f"{what} has more than {limit} rows; a figure shows at most {limit}")
        if isinstance(row, np.ndarray) and row.ndim == 1:
            row = tuple(row.tolist())
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) not in lengths:
            raise QueensError(f"{what}[{i}] must be {shape}, got {validate.brief(row)}")
        out.append(tuple(row))
    if not out:
        raise QueensError(f"{what} is empty: give at least one row of {shape}")
    return out


def _mapping_rows(data: object, what: str, shape: str, width: int) -> list[tuple]:
    """A mapping ``n -> value`` (or ``n -> (values...)``) as rows ``(n, values...)``."""
    if not isinstance(data, Mapping):
        return _rows(data, what, shape, (width,))
    if len(data) > MAX_POINTS:
        raise TooLarge(f"{what} has more than {MAX_POINTS} entries; a figure shows at most {MAX_POINTS}")
    rows = []
    for key, value in data.items():
        if width > 2 and isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
            rows.append((key, *value))
        else:
            rows.append((key, value))
    return _rows(rows, what, shape, (width,))


def _n(value: object, what: str) -> int:
    return validate.whole_number(value, what, minimum=1, maximum=validate.INT64_MAX)


def _whole(value: object, what: str, *, minimum: int = 0, maximum: int = validate.INT64_MAX) -> int:
    return validate.whole_number(value, what, minimum=minimum, maximum=maximum)


def _positive(value: object, what: str) -> float:
    """A ratio or a time: a finite number > 0, at most 10**12 (beyond that a figure means nothing)."""
    return validate.real(value, what, minimum=0, maximum=1e12, open_minimum=True)


def _label(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise QueensError(f"{what} must be a non-empty text label, got {validate.brief(value)}")
    return value


def _times(ratio: float, target: float | None) -> str:
    """``ratio`` to three significant digits (four when it is within 1 % of its target)."""
    digits = 4 if target is not None and abs(ratio - target) < 0.01 * target else 3
    return f"{ratio:.{digits}g}×"


def _title(value: object) -> str | None:
    return None if value is None else _label(value, "title")


# ----------------------------------------------------------------------------- counts


def _count_ns(ns: object, kind: str) -> list[int]:
    from .data import MAX_KNOWN

    tabled = kind in ("total", "unique")
    top = MAX_KNOWN if tabled else COUNT_LIMIT
    if ns is None:
        return list(range(1, top + 1))
    out = sorted({_n(n, "each n of ns") for n in itertools.islice(_iterable(ns, "ns", "board sizes"), MAX_POINTS + 1)})
    if not out:
        raise QueensError("ns is empty: give at least one board size")
    if len(out) > MAX_POINTS:
        raise TooLarge(f"ns has more than {MAX_POINTS} board sizes")
    if out[-1] > top:
        why = (
            f"the known sequence is tabulated for n <= {MAX_KNOWN}"
            if tabled
            else f"they are counted when drawn, which takes more than seconds beyond n = {COUNT_LIMIT}"
        )
        raise TooLarge(f"{kind} counts go up to n = {top} ({why}), got n = {out[-1]}")
    return out


def _count(kind: str, n: int) -> int:
    from .data import known_total, known_unique

    if kind == "total":
        return known_total(n) or 0
    if kind == "unique":
        return known_unique(n) or 0
    from .backends import count
    from .problem import Problem

    return count(Problem(n, toroidal=kind == "toroidal", knight=kind == "superqueens"))


@_styled
def counts(ns: Iterable[int] | None = None, kinds: Iterable[str] = tuple(COUNT_KINDS)) -> Figure:
    """Solution counts against n, on a log scale: one line per kind of count.

    ``total`` and ``unique`` come from the OEIS sequences A000170 and A002562 held in
    :mod:`queenslab.data` (n <= 27); ``toroidal`` and ``superqueens`` are counted by the
    native engine (n <= :data:`COUNT_LIMIT`; the test-suite checks those counts against
    OEIS A051906 and A051223). A count of 0 (no solution) has no place on a log scale and is
    left out; a note on the figure says so.

    Parameters
    ----------
    ns : iterable of int, optional
        Board sizes (>= 1). Default: every n the kind has, 1..27 for the tabulated kinds and
        1..16 for the counted ones.
    kinds : iterable of str
        Some of ``"total"``, ``"unique"``, ``"toroidal"``, ``"superqueens"``
        (:data:`COUNT_KINDS`), in the order of the legend.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        For an unknown kind, an empty list, or a board size that is not an integer >= 1.
    TooLarge
        For n beyond the table (27) or, for a counted kind, beyond :data:`COUNT_LIMIT`.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = counts(range(4, 13), kinds=("total", "unique"))
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['all solutions (OEIS A000170)', 'fundamental solutions (OEIS A002562)']
    """
    given = itertools.islice(_iterable(kinds, "kinds", f"kinds of count ({', '.join(COUNT_KINDS)})"), 100)
    chosen = list(dict.fromkeys(validate.choice(k, COUNT_KINDS, "kind of count") for k in given))
    if not chosen:
        raise QueensError(f"kinds is empty: give some of {', '.join(COUNT_KINDS)}")
    if ns is not None:  # an iterator is read once, for every kind
        ns = list(itertools.islice(_iterable(ns, "ns", "board sizes"), MAX_POINTS + 1))
    series = {kind: [(n, _count(kind, n)) for n in _count_ns(ns, kind)] for kind in chosen}
    fig, ax = _figure(6.4, 4.2)
    markers = {"total": "o", "unique": "s", "toroidal": "^", "superqueens": "D"}
    for kind, values in series.items():  # a 0 is a gap in the line: log scales have no 0
        ax.plot(
            [n for n, _ in values],
            [v if v > 0 else math.nan for _, v in values],
            marker=markers[kind],
            markersize=4,
            label=COUNT_KINDS[kind],
        )
    ax.set_yscale("log")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("number of solutions")
    ax.set_title("N-Queens solution counts")
    _integer_ticks(ax)
    ax.legend(frameon=False)
    if any(v == 0 for values in series.values() for _, v in values):
        ax.text(
            0.99,
            0.02,
            "n without a solution is left out",
            transform=ax.transAxes,
            ha="right",
            fontsize=8,
            color=current_style().muted,
        )
    return fig


# ----------------------------------------------------------------------------- ratios


@_styled
def ratios(
    rows: Iterable[tuple[str, float] | tuple[str, float, float | None]],
    target: float | None = None,
    title: str | None = None,
) -> Figure:
    """Benchmark ratios as a horizontal bar chart, with a line at 1 and the targets.

    The first row is drawn at the top, each bar labelled with its value. The ratio axis is
    logarithmic when the values span more than a factor of 10, else linear from 0.

    Parameters
    ----------
    rows : iterable of tuple
        ``(label, ratio)`` or ``(label, ratio, target)``: a text label, a ratio > 0 (how
        many times faster, say) and, optionally, the target it is held against (> 0, or
        None for no target). At most 200 rows.
    target : float, optional
        The target of every row that does not give its own.
    title : str, optional
        Default ``"Benchmark ratios"``.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        For an empty list, a row that is not such a tuple, a label that is not text, or a
        ratio or target that is not a finite number > 0.
    TooLarge
        For more than 200 rows.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = ratios([("lex-leader, n = 12", 6.6, 4.0), ("two threads", 1.79)], target=1.7)
    >>> len(fig.axes[0].patches)
    2
    """
    checked = []
    common = None if target is None else _positive(target, "target")
    for i, row in enumerate(_rows(rows, "rows", "(label, ratio) or (label, ratio, target)", (2, 3), MAX_BARS)):
        label = _label(row[0], f"the label of rows[{i}]")
        ratio = _positive(row[1], f"the ratio of rows[{i}]")
        own = row[2] if len(row) == 3 else common
        checked.append((label, ratio, None if own is None else _positive(own, f"the target of rows[{i}]")))
    longest = max(len(label) for label, _, _ in checked)
    fig, ax = _figure(max(7.0, 4.0 + 0.075 * longest), 1.4 + 0.38 * len(checked))
    ys = np.arange(len(checked))
    values = [r for _, r, _ in checked]
    bars = ax.barh(ys, values, height=0.6, color="#4c72b0", label="measured")
    ax.bar_label(bars, labels=[_times(v, t) for _, v, t in checked], padding=3, fontsize=8)
    ax.set_yticks(ys, [label for label, _, _ in checked])
    ax.invert_yaxis()
    ax.axvline(1.0, color=current_style().reference, linewidth=1, linestyle="--", label="1 (equal)")
    targets = [(t, y) for (_, _, t), y in zip(checked, ys) if t is not None]
    if targets:
        ax.scatter(
            [t for t, _ in targets],
            [y for _, y in targets],
            marker="|",
            s=300,
            linewidths=2.5,
            color="#c44e52",
            zorder=3,
            label="target",
        )
    everything = values + [t for t, _ in targets] + [1.0]
    if max(everything) / min(everything) > 10:
        ax.set_xscale("log")
        ax.set_xlim(min(everything) / 1.6, max(everything) * 2.5)
        ax.xaxis.set_major_formatter(_matplotlib().ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    else:
        ax.set_xlim(0, max(everything) * 1.18)
    ax.grid(False, axis="y")
    ax.set_xlabel("ratio (×)")
    fig.suptitle(_title(title) or "Benchmark ratios")
    fig.legend(frameon=False, loc="outside lower center", ncols=3, fontsize=8)
    return fig


# ----------------------------------------------------------------------------- orbits and signatures


@_styled
def orbit_coverage(coverage: Mapping[int, float]) -> Figure:
    """The share of orbits Zhang and Zhang's orbit-based search reaches, by n.

    ``queenslab experiment orbit-search N`` computes one value (its ``coverage`` times
    100); docs/experiments.md records n = 5..12.

    Parameters
    ----------
    coverage : mapping of int to float
        Board size (>= 1) -> percent of the orbits reached (0..100).

    Returns
    -------
    matplotlib.figure.Figure
        One bar per n, labelled with its percentage, and a line at 100 %.

    Raises
    ------
    QueensError
        If ``coverage`` is not a non-empty mapping of board sizes to percentages.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = orbit_coverage({8: 100.0, 9: 97.8, 10: 91.3})
    >>> len(fig.axes[0].patches)
    3
    """
    if not isinstance(coverage, Mapping):
        raise QueensError(f"coverage must be a mapping n -> percent, got {validate.brief(coverage)}")
    rows = _mapping_rows(coverage, "coverage", "n -> percent", 2)
    points = sorted(
        (_n(n, "n"), validate.real(pct, f"the coverage of n = {n}", minimum=0, maximum=100)) for n, pct in rows
    )
    fig, ax = _figure(6.4, 3.8)
    xs = [n for n, _ in points]
    ax.bar(xs, [p for _, p in points], width=0.65, color="#4c72b0")
    for x, p in points:  # the value inside the bar's top, or above a short bar
        inside = p >= 15
        ax.text(
            x,
            p - 2 if inside else p + 1,
            f"{p:.3g} %",
            ha="center",
            va="top" if inside else "bottom",
            color="white" if inside else current_style().label,
            fontsize=8,
        )
    reference = current_style().reference
    ax.axhline(100, color=reference, linewidth=1, linestyle="--")
    ax.text(
        1.0,
        101,
        "every orbit",
        transform=ax.get_yaxis_transform(),
        ha="right",
        va="bottom",
        fontsize=8,
        color=reference,
    )
    ax.set_ylim(0, 110)
    ax.set_xticks(xs)
    ax.grid(False, axis="x")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("orbits reached (%)")
    ax.set_title("Orbit-based search (Zhang and Zhang): coverage")
    return fig


@_styled
def orbit_generations(generations: Iterable[int], total: int, *, n: int | None = None) -> Figure:
    """One run of the orbit-based search: the new orbits found at each generation of moves.

    Generation 0 is step 1 (``Inc`` on the solutions of order n-1); an orbit of generation
    k was reached from one of generation k-1 by a ``Mov`` (step 2). Bars show the new
    orbits of each generation, a line the orbits found so far, a dashed line the true
    number of orbits.

    Parameters
    ----------
    generations : iterable of int
        One entry (>= 0) per orbit found (none when the search found nothing).
    total : int
        The true number of orbits (>= the number found).
    n : int, optional
        The board size, for the title.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        For a generation that is not an integer >= 0, or a total smaller than the number
        of orbits found.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = orbit_generations([0, 0, 0, 1, 1, 2], total=6, n=7)
    >>> len(fig.axes[0].patches), fig.axes[0].get_title()
    (3, 'Orbit-based search, n = 7: 6 of 6 orbits (100 %)')
    """
    given = list(itertools.islice(_iterable(generations, "generations", "integers >= 0"), MAX_POINTS + 1))
    if len(given) > MAX_POINTS:
        raise TooLarge(f"generations has more than {MAX_POINTS} entries; a figure shows at most {MAX_POINTS}")
    deepest = max(len(given) - 1, 0)  # generation k needs an orbit of every generation before it
    found = [validate.whole_number(g, f"generations[{i}]", minimum=0, maximum=deepest) for i, g in enumerate(given)]
    total = _whole(total, "total", minimum=len(found))
    title_n = "" if n is None else f", n = {_n(n, 'n')}"
    per_generation = np.bincount(np.array(found, dtype=np.int64), minlength=1)
    xs = np.arange(per_generation.size)
    fig, ax = _figure(6.4, 3.8)
    ax.bar(xs, per_generation, width=0.65, color="#4c72b0", label="new orbits")
    ax.plot(xs, np.cumsum(per_generation), marker="o", markersize=4, color="#dd8452", label="orbits found so far")
    ax.axhline(total, color=current_style().reference, linewidth=1, linestyle="--", label=f"all orbits ({total})")
    ax.set_ylim(0, total * 1.12 + 1)
    ax.set_xticks(xs)
    ax.grid(False, axis="x")
    ax.set_xlabel("generation (0: Inc on n-1 queens; k: k Mov steps on)")
    ax.set_ylabel("orbits")
    if total:
        ax.set_title(f"Orbit-based search{title_n}: {len(found)} of {total} orbits ({100 * len(found) / total:.3g} %)")
    else:
        ax.set_title(f"Orbit-based search{title_n}: no solutions, so no orbits")
    ax.legend(frameon=False, loc="center right", fontsize=8)
    return fig


@_styled
def signatures(rows: Iterable[tuple]) -> Figure:
    """Orbits and distinct orbit signatures by n (``queenslab experiment signature``).

    Zhang and Zhang claim that no two orbits share a signature: then the points of every
    criterion lie on the orbits' line. A collision (fewer signatures than orbits) is marked
    and counted in the title.

    Parameters
    ----------
    rows : iterable of tuple
        ``(n, orbits, signatures)`` or ``(n, orbits, signatures, criterion)``: the board
        size, its number of orbits, the number of distinct signatures (<= orbits, >= 1
        when there is an orbit), and the criterion's name (default ``"document"``).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        For an empty list, a row that is not such a tuple, or counts that do not fit.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = signatures([(8, 12, 12, "document"), (8, 12, 12, "oriented"), (9, 46, 46, "document")])
    >>> len(fig.axes[0].get_lines())
    3
    """
    checked = []
    for i, row in enumerate(_rows(rows, "rows", "(n, orbits, signatures[, criterion])", (3, 4))):
        n = _n(row[0], f"the n of rows[{i}]")
        orbits = _whole(row[1], f"the orbits of rows[{i}]")
        sigs = _whole(row[2], f"the signatures of rows[{i}]", minimum=min(orbits, 1), maximum=orbits)
        criterion = _label(row[3], f"the criterion of rows[{i}]") if len(row) == 4 else "document"
        checked.append((n, orbits, sigs, criterion))
    fig, ax = _figure(6.4, 4.0)
    orbit_points = sorted({(n, o) for n, o, _, _ in checked})  # no orbits: a gap in the line
    ax.plot(
        [n for n, _ in orbit_points],
        [o if o > 0 else math.nan for _, o in orbit_points],
        color=current_style().neutral,
        linewidth=1.2,
        label="orbits",
    )
    markers = itertools.cycle(["o", "x", "^", "s"])
    for criterion in dict.fromkeys(c for *_, c in checked):
        points = sorted((n, s) for n, _, s, c in checked if c == criterion and s > 0)
        ax.plot(
            [n for n, _ in points],
            [s for _, s in points],
            linestyle="none",
            marker=next(markers),
            markersize=6,
            fillstyle="none",
            label=f"distinct signatures, {criterion} criterion",
        )
    collisions = [(n, o, s) for n, o, s, _ in checked if s < o]
    if collisions:
        ax.scatter(
            [n for n, _, _ in collisions],
            [s for _, _, s in collisions],
            s=90,
            color="#c44e52",
            zorder=3,
            label="collision",
        )
    ax.set_yscale("log")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("orbits, distinct signatures")
    _integer_ticks(ax)
    if collisions:
        ax.set_title(
            f"Orbit signatures: collisions at n = {', '.join(str(n) for n in sorted({c[0] for c in collisions}))}"
        )
    else:
        ax.set_title("Orbit signatures: no two orbits share one")
    ax.legend(frameon=False, fontsize=8)
    return fig


# ----------------------------------------------------------------------------- times and steps


def _by_n(points: Sequence[tuple[int, float]]) -> dict[int, list[float]]:
    grouped: dict[int, list[float]] = {}
    for n, v in sorted(points):
        grouped.setdefault(n, []).append(v)
    return grouped


@_styled
def rank_times(rows: Mapping[int, tuple[float, float]] | Iterable[tuple[int, float, float]]) -> Figure:
    """Rank and unrank times by n, on a log scale.

    Every query is a point; a line joins the medians of each n.

    Parameters
    ----------
    rows : mapping or iterable
        ``n -> (rank_seconds, unrank_seconds)``, or rows ``(n, rank_seconds,
        unrank_seconds)`` (several rows per n allowed: one per query). Times are > 0.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        For empty input, a row that is not such a tuple, or a time that is not a finite
        number > 0.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = rank_times([(8, 0.0002, 0.0004), (10, 0.0004, 0.0007), (10, 0.0003, 0.0005)])
    >>> fig.axes[0].get_yscale(), len(fig.axes[0].get_lines())
    ('log', 2)
    """
    checked = []
    for i, row in enumerate(_mapping_rows(rows, "rows", "(n, rank_seconds, unrank_seconds)", 3)):
        n = _n(row[0], f"the n of rows[{i}]")
        checked.append(
            (n, _positive(row[1], f"the rank time of rows[{i}]"), _positive(row[2], f"the unrank time of rows[{i}]"))
        )
    fig, ax = _figure(6.4, 4.0)
    for column, (name, colour, marker) in enumerate((("rank", "#4c72b0", "o"), ("unrank", "#dd8452", "s")), start=1):
        points = [(row[0], row[column]) for row in checked]
        ax.scatter([n for n, _ in points], [t for _, t in points], s=14, alpha=0.45, color=colour, marker=marker)
        medians = {n: statistics.median(ts) for n, ts in _by_n(points).items()}
        ax.plot(
            list(medians), list(medians.values()), color=colour, marker=marker, markersize=4, label=f"{name} (median)"
        )
    ax.set_yscale("log")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("seconds per query")
    _integer_ticks(ax)
    ax.set_title("Lexicographic rank and unrank without an index")
    ax.legend(frameon=False, fontsize=8)
    return fig


@_styled
def minconflicts_steps(rows: Iterable[tuple[int, int]]) -> Figure:
    """Min-conflicts repair steps against n, log-log: the median of each n and the spread.

    Parameters
    ----------
    rows : iterable of (int, int)
        ``(n, steps)``, several per n allowed (one per seed): a board size >= 1 and the
        repair steps the search took (>= 0). When some run took 0 steps (its start was
        already a solution) the step axis is symmetric-log, linear below 1, so the 0
        shows.

    Returns
    -------
    matplotlib.figure.Figure
        A line through the medians and a band from the fewest to the most steps.

    Raises
    ------
    QueensError
        For empty input, a row that is not an ``(n, steps)`` pair, or counts that are not
        integers in range.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = minconflicts_steps([(100, 22), (100, 14), (1000, 67), (1000, 61), (10000, 81)])
    >>> ax = fig.axes[0]
    >>> ax.get_xscale(), ax.get_yscale(), len(ax.get_lines())
    ('log', 'log', 1)
    """
    points = []
    for i, row in enumerate(_rows(rows, "rows", "(n, steps)", (2,))):
        points.append((_n(row[0], f"the n of rows[{i}]"), _whole(row[1], f"the steps of rows[{i}]")))
    grouped = _by_n(points)
    ns = list(grouped)
    fig, ax = _figure(6.4, 4.0)
    ax.fill_between(
        ns,
        [min(v) for v in grouped.values()],
        [max(v) for v in grouped.values()],
        color="#4c72b0",
        alpha=0.2,
        label="fewest to most",
    )
    ax.scatter([n for n, _ in points], [s for _, s in points], s=10, color="#4c72b0", alpha=0.5)
    ax.plot(
        ns, [statistics.median(v) for v in grouped.values()], color="#4c72b0", marker="o", markersize=4, label="median"
    )
    ax.set_xscale("log")
    if any(s == 0 for _, s in points):
        ax.set_yscale("symlog", linthresh=1.0, linscale=0.5)
        ax.set_ylim(0, max(s for _, s in points) * 2)
    else:
        ax.set_yscale("log")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("repair steps")
    seeds = max(len(v) for v in grouped.values())
    ax.set_title(f"Min-conflicts: steps to a solution ({seeds} seed{'s' if seeds > 1 else ''} per n)")
    ax.legend(frameon=False, fontsize=8, loc="upper left")
    return fig


# ----------------------------------------------------------------------------- growth


_GROWTH_KINDS = ("standard", "toroidal")


@_styled
def growth(
    estimates: Iterable[tuple[int, float, float, str]],
    exact: Iterable[tuple[int, float, str]] = (),
) -> Figure:
    """``log Q(n) / n`` against n (``queenslab experiment growth``): the estimates with their
    error bars, the exact values, and the asymptotics ``ln n - alpha``.

    The upper panel shows ``log Q(n) / n`` with Simkin's ``ln n - 1.942`` (and
    ``ln n - 3`` when there are toroidal points); the lower one the difference from it (the
    ``o(1)`` term), where the error bars can be seen, with the band of Simkin's
    ``+- 0.003`` around 0.

    Parameters
    ----------
    estimates : iterable of tuple
        ``(n, log_q_per_n, stderr, kind)``: a board size, the estimate of ``log Q(n) / n``,
        its standard error (>= 0; drawn as a 95% bar, 1.96 of them) and ``"standard"`` or
        ``"toroidal"``. May be empty when ``exact`` is not.
    exact : iterable of tuple
        ``(n, log_q_per_n, kind)``: exact values (a published or counted Q(n)).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    QueensError
        When both lists are empty, or for a row that is not such a tuple.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> fig = growth([(40, 1.80, 0.0001, "standard")], [(8, 0.5652, "standard")])
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['log Q(n) / n', 'difference from ln n − α']
    """
    from .data import SIMKIN_ALPHA as ALPHA, SIMKIN_ALPHA_ERROR as ALPHA_ERROR, TOROIDAL_ALPHA

    est = [] if estimates is None else list(itertools.islice(_iterable(estimates, "estimates", "rows"), MAX_POINTS + 1))
    exa = [] if exact is None else list(itertools.islice(_iterable(exact, "exact", "rows"), MAX_POINTS + 1))
    points, known = [], []
    if est:
        for i, row in enumerate(_rows(est, "estimates", "(n, log_q_per_n, stderr, kind)", (4,))):
            n = _n(row[0], f"the n of estimates[{i}]")
            value = validate.real(row[1], f"the value of estimates[{i}]", minimum=-1e6, maximum=1e6)
            error = validate.real(row[2], f"the stderr of estimates[{i}]", minimum=0, maximum=1e6)
            points.append((n, value, error, validate.choice(row[3], _GROWTH_KINDS, "kind")))
    if exa:
        for i, row in enumerate(_rows(exa, "exact", "(n, log_q_per_n, kind)", (3,))):
            n = _n(row[0], f"the n of exact[{i}]")
            value = validate.real(row[1], f"the value of exact[{i}]", minimum=-1e6, maximum=1e6)
            known.append((n, value, validate.choice(row[2], _GROWTH_KINDS, "kind")))
    if not points and not known:
        raise QueensError("nothing to draw: give some estimates or exact values")
    alphas = {"standard": ALPHA, "toroidal": TOROIDAL_ALPHA}
    mpl = _matplotlib()
    fig = mpl.figure.Figure(figsize=(6.8, 6.2), dpi=_DPI, layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 2))
    for ax in (top, bottom):
        ax.grid(True, which="major", color=current_style().grid, linewidth=0.8)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    colours = {"standard": "#4c72b0", "toroidal": "#c44e52"}
    names = {
        "standard": ("Simkin: ln n − 1.942", "standard board"),
        "toroidal": ("ln n − 3 (Luria; Bowtell and Keevash)", "toroidal board"),
    }
    ns = [p[0] for p in points] + [k[0] for k in known]
    grid = np.linspace(max(1.0, min(ns) - 1), max(ns) + 1, 200)
    for kind in _GROWTH_KINDS:
        mine = sorted(p for p in points if p[3] == kind)
        theirs = sorted(k for k in known if k[2] == kind)
        if not mine and not theirs:
            continue
        alpha, colour = alphas[kind], colours[kind]
        curve, board = names[kind]
        top.plot(
            grid,
            np.log(grid) - alpha,
            color=colour,
            linewidth=1.2,
            linestyle="-" if kind == "standard" else "--",
            label=curve,
        )
        if theirs:
            xs = [k[0] for k in theirs]
            ys = [k[1] for k in theirs]
            label = f"exact ({'OEIS A000170' if kind == 'standard' else 'counted'}), {board}"
            for ax, yy in ((top, ys), (bottom, [y - (math.log(x) - alpha) for x, y in zip(xs, ys)])):
                ax.plot(
                    xs,
                    yy,
                    linestyle="none",
                    marker="s",
                    markersize=6,
                    fillstyle="none",
                    color=current_style().neutral if kind == "standard" else colour,
                    label=label if ax is top else None,
                )
        if mine:
            xs = [p[0] for p in mine]
            ys = [p[1] for p in mine]
            bars = [1.96 * p[2] for p in mine]
            for ax, yy in ((top, ys), (bottom, [y - (math.log(x) - alpha) for x, y in zip(xs, ys)])):
                ax.errorbar(
                    xs,
                    yy,
                    yerr=bars,
                    linestyle="none",
                    marker="o",
                    markersize=3.5,
                    capsize=2.5,
                    color=colour,
                    label=f"estimate (95% bar), {board}" if ax is top else None,
                )
    if any(p[3] == "standard" for p in points) or any(k[2] == "standard" for k in known):
        bottom.axhspan(
            -ALPHA_ERROR, ALPHA_ERROR, color=colours["standard"], alpha=0.15, linewidth=0, label="Simkin's ± 0.003"
        )
        bottom.legend(frameon=False, fontsize=8, loc="upper right")
    bottom.axhline(0, color=current_style().reference, linewidth=1)
    top.set_ylabel("log Q(n) / n")
    top.set_title("Growth of the number of solutions: log Q(n) / n")
    top.legend(frameon=False, fontsize=8, loc="lower right")
    bottom.set_ylabel("difference from ln n − α")
    bottom.set_xlabel("n (board size)")
    _integer_ticks(bottom)
    return fig


# ----------------------------------------------------------------------------- output


def _suffix(path: object, what: str | None) -> str:
    name = validate.path(path, what or "the figure's path")
    suffix = name.suffix.lower()
    if suffix not in SUFFIXES:
        shown = f"{what} {str(name)!r}" if what else repr(str(name))
        raise QueensError(f"{shown}: cannot tell the file type; name a {' or '.join(SUFFIXES)} file")
    return suffix


def check_path(path: object, what: str | None = None) -> str:
    """Check, before the work, that a figure can be written at ``path``.

    The suffix must be ``.png`` or ``.svg``, the file writable (see
    :func:`queenslab.outfile.check_output_path`) and matplotlib installed.

    Parameters
    ----------
    path : str or path-like
    what : str, optional
        How the user gave it (``"--plot"``), for messages.

    Returns
    -------
    str
        ``path`` as a string.

    Raises
    ------
    QueensError
        For another suffix or an unusable path.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> check_path("figure.pdf", "--plot")
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: --plot 'figure.pdf': cannot tell the file type; name a .png or .svg file
    """
    _suffix(path, what)
    checked = check_output_path(path, what)
    _matplotlib()
    return checked


def render(figure: Figure, format: str = "svg") -> bytes:
    """The bytes of ``figure`` as a PNG or SVG file.

    SVG text is drawn as paths (no fonts needed), element ids are fixed, and the metadata
    (date, creator) and the external DTD reference are left out: the same figure gives the
    same bytes, and the file refers to nothing outside itself (the only URLs left are the
    XML namespace names of SVG and XLink, which are identifiers, never fetched).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    format : {"svg", "png"}

    Returns
    -------
    bytes

    Raises
    ------
    QueensError
        If ``figure`` is not a matplotlib Figure or ``format`` another type.
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> render(orbit_coverage({8: 100.0}), "png")[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    mpl = _matplotlib()
    if not isinstance(figure, mpl.figure.Figure):
        raise QueensError(f"expected a matplotlib Figure, got {type(figure).__name__} {validate.brief(figure)}")
    validate.choice(format, ("svg", "png"), "figure format")
    buffer = io.BytesIO()
    with mpl.rc_context({"svg.fonttype": "path", "svg.hashsalt": "queenslab"}):
        if format == "svg":
            figure.savefig(buffer, format="svg", metadata=dict.fromkeys(("Date", "Creator", "Format", "Type")))
        else:
            figure.savefig(buffer, format="png", dpi=_DPI)
    data = buffer.getvalue()
    if format == "svg":
        start = data.find(b"<!DOCTYPE")
        if start >= 0:
            data = data[:start] + data[data.index(b">", start) + 1 :].lstrip(b"\n")
    return data


def save(figure: Figure, path: object) -> str:
    """Write ``figure`` to ``path``: a PNG or SVG file by the suffix (whole or not at all).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    path : str or path-like
        Ends in ``.png`` or ``.svg`` (any case).

    Returns
    -------
    str
        ``path`` as a string.

    Raises
    ------
    QueensError
        If ``figure`` is not a Figure, the suffix is another, or the path cannot be
        written (a directory, a missing directory, a device).
    MissingDependency
        Without matplotlib.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = save(counts(range(4, 9), kinds=["total"]), os.path.join(d, "counts.svg"))
    ...     open(out, "rb").read(5)
    b'<?xml'
    """
    suffix = _suffix(path, None)
    data = render(figure, suffix[1:])
    with atomic_output(path, "wb") as fh:
        fh.write(data)
    return os.fsdecode(path)  # type: ignore[arg-type]
