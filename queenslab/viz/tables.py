"""Results as small HTML tables, for a notebook (``_repr_html_``)."""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["count_html", "crosscheck_html", "estimate_html"]

_STYLE = "border-collapse:collapse;font-size:small"
_CELL = "border:1px solid #ccc;padding:2px 8px;text-align:{align}"


def _row(cells: list[Any], header: bool = False) -> str:
    tag = "th" if header else "td"
    out = []
    for c in cells:
        align = "right" if isinstance(c, (int, float)) and not isinstance(c, bool) else "left"
        text = f"{c:,}" if isinstance(c, int) and not isinstance(c, bool) else f"{c:.3f}" if isinstance(c, float) else c
        out.append(f'<{tag} style="{_CELL.format(align=align)}">{escape(str("" if text is None else text))}</{tag}>')
    return "<tr>" + "".join(out) + "</tr>"


def _table(caption: str, header: list[str], rows: list[list[Any]]) -> str:
    body = [_row(header, header=True)] + [_row(r) for r in rows]
    return (
        f'<table style="{_STYLE}"><caption style="text-align:left">{escape(caption)}</caption>'
        + "".join(body)
        + "</table>"
    )


def count_html(result: Any) -> str:
    """A :class:`~queenslab.result.CountResult` as a one-row table.

    >>> from queenslab.result import CountResult
    >>> "<td" in count_html(CountResult(92, 12, backend="native", seconds=0.01))
    True
    """
    count = result.count if result.complete else f"≥ {result.count:,}" if result.count is not None else None
    rows = [[count, result.unique, result.backend, result.method, result.seconds, result.nodes]]
    caption = "count" + ("" if result.complete else " (stopped by a limit: a lower bound)")
    if result.note:
        caption += f"; {result.note}"
    return _table(caption, ["solutions", "unique", "backend", "method", "seconds", "nodes"], rows)


def crosscheck_html(check: Any) -> str:
    """A :class:`~queenslab.backends.crosscheck.Crosscheck` as a table, one row per count
    (a backend, and the method of each of its independent counts)."""
    rows = []
    for r in check.rows:
        status = r.error if r.error is not None else "complete" if r.complete else "stopped by a limit"
        rows.append([r.backend, r.method, r.count, r.unique if check.unique else None, r.seconds, status])
    caption = f"{check.problem.describe()}: {check.verdict}"
    return _table(caption, ["backend", "method", "solutions", "unique", "seconds", "status"], rows)


def estimate_html(e: Any) -> str:
    """An :class:`~queenslab.estimate.Estimate` as a one-row table: the estimate, its
    interval, the known count when there is one, and how it was made.

    >>> from queenslab import Problem
    >>> from queenslab.estimate import estimate
    >>> html = estimate_html(estimate(Problem(8), samples=100))
    >>> "exactly" in html and "92" in html
    True
    """
    if e.exact:
        value, interval = e.count, "exact"
    elif e.estimate == 0:
        value, interval = 0, "no probe reached a solution"
    else:
        value, interval = f"{e.estimate:.4g}", f"{e.low:.4g} .. {e.high:.4g} ({100 * e.confidence:g}%)"
    known = None if e.known is None else f"{e.known:,} ({e.known_source})"
    caption = f"{e.problem.describe()}: " + ("exactly" if e.exact else "estimated") + " solutions"
    if e.note:
        caption += f"; {e.note}"
    rows = [[value, interval, known, e.method, e.probes, e.seconds]]
    return _table(caption, ["solutions", "interval", "known", "method", "probes", "seconds"], rows)
