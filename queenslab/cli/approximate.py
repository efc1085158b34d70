"""How ``count`` and ``crosscheck`` print an approximate count: the estimate with its
bounds and guarantee, held against an exact count where there is one.

An estimate is never compared for equality: ``agrees`` stays null for it, and
``within_bounds`` says whether the known (or the exact backends') count lies within its
bounds. An estimate outside its bounds is reported but fails no command by itself: the
guarantee allows it with probability at most ``delta``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..backends.approximate import ApproximateCount
from ..backends.crosscheck import Crosscheck, CrosscheckRow
from ..data import Known, compare
from ..problem import Problem
from ..result import CountResult

__all__ = ["known_for", "report_fields", "count_lines", "range_marks", "row_line", "bounds_lines"]


def known_for(problem: Problem, res: CountResult, unique: bool) -> Known:
    """The known values of ``problem`` held against ``res``: equality for an exact count;
    for an estimate the known values alone (``agrees`` None: see :func:`report_fields`)."""
    assert res.count is not None  # a problem is counted, never a model with lex-leader constraints alone
    known = compare(problem, res.count, res.unique if unique else None, complete=res.complete)
    return replace(known, agrees=None) if isinstance(res, ApproximateCount) else known


def _within(res: ApproximateCount, known: Known, unique: bool) -> bool | None:
    return res.within(known.count, known.unique if unique else None)


def report_fields(res: CountResult, unique: bool, known: Known) -> dict[str, Any]:
    """The approximate count's keys of a ``count`` report (empty for an exact count)."""
    if not isinstance(res, ApproximateCount):
        return {}
    return {
        "approximate": True,
        "epsilon": res.epsilon,
        "delta": res.delta,
        "count_bounds": res.count_bounds,
        "unique_bounds": res.unique_bounds if unique else None,
        "within_bounds": _within(res, known, unique),
    }


def _verdict(within: bool | None, delta: float) -> str:
    if within is None:
        return ""
    if within:
        return "within bounds"
    return f"OUTSIDE bounds (the guarantee allows this with probability at most {delta:g})"


def count_lines(problem: Problem, res: ApproximateCount, unique: bool, known: Known) -> list[str]:
    """``queenslab count``'s text for an estimate."""
    low, high = res.count_bounds or (0, 0)
    line = f"approximately {res.count} solution{'' if res.count == 1 else 's'} of {problem.describe()}"
    line += f" (between {low} and {high})"
    if unique and res.unique_bounds is not None:
        ulow, uhigh = res.unique_bounds
        line += f", approximately {res.unique} unique (between {ulow} and {uhigh})"
    guarantee = (
        f"each bound holds with probability at least {1 - res.delta:g} (epsilon {res.epsilon:g}, "
        f"delta {res.delta:g}): an estimate, not an exact count"
    )
    detail = f"backend {res.backend}" + (f" ({res.method})" if res.method else "") + f", {res.seconds or 0.0:.3f} s"
    within = _within(res, known, unique)
    if within is not None:
        detail += f"; known value {known.count}" + (f" / {known.unique} unique" if unique else "")
        detail += ": " + _verdict(within, res.delta)
    lines = [line, guarantee, detail]
    if res.note:
        lines.append(f"note: no solutions, as {res.note}")
    return lines


def range_marks(res: CountResult, known: Known, unique: bool) -> tuple[str, str] | None:
    """The prefix of the numbers (``~``) and the verdict of a ``count A..B`` row for an
    estimate; None for an exact count."""
    if not isinstance(res, ApproximateCount):
        return None
    within = _within(res, known, unique)
    low, high = res.count_bounds or (0, 0)
    text = _verdict(within, res.delta) or f"approximate, between {low} and {high}"
    return "~", text


def row_line(r: CrosscheckRow, width: int = 22) -> str:
    """A ``crosscheck`` table line for an approximate row with an estimate (the method
    column ``width`` characters wide)."""
    how = r.method or "-"
    u = "-" if r.unique is None else f"~{r.unique}"
    low, high = r.count_bounds or (0, 0)
    bounds = f"bounds {low}..{high}"
    if r.unique_bounds is not None:
        bounds += f", unique {r.unique_bounds[0]}..{r.unique_bounds[1]}"
    verdict = _verdict(r.within_bounds, r.delta or 0.0) or "no exact answer to hold it against"
    return f"{r.backend:<10} {how:<{width}} {'~' + str(r.count):>14} {u:>12} {r.seconds:>9.3f}  {bounds}: {verdict}"


def bounds_lines(res: Crosscheck) -> list[str]:
    """The ``crosscheck`` summary of its approximate rows (none without them)."""
    lines = []
    for r in res.estimated:
        if r.within_bounds is None:
            lines.append(f"{r.backend}: an estimate with no exact answer to hold it against (it decides nothing)")
        elif r.within_bounds:
            lines.append(
                f"{r.backend}: the exact answer is within the estimate's bounds "
                f"(epsilon {r.epsilon:g}, delta {r.delta:g}); estimates decide no agreement"
            )
        else:
            lines.append(
                f"{r.backend}: the exact answer is OUTSIDE the estimate's bounds (epsilon {r.epsilon:g}, "
                f"delta {r.delta:g}): possible with probability at most {r.delta:g}, not a disagreement of exact counts"
            )
    return lines
