"""``count N --estimate-cost``: the predicted cost of an exact count, printed instead of
counting (:func:`queenslab.cost.estimate_cost`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..errors import QueensError
from ..problem import Problem
from .app import emit_json

#: The count's options a prediction takes (the native backend's).
TAKES = ("threads", "method", "force")


def cost_options(fn: Callable) -> Callable:
    """``--estimate-cost`` and ``--cores K`` (repeatable) for ``count``."""
    fn = click.option(
        "--cores",
        type=int,
        multiple=True,
        metavar="K",
        help="With --estimate-cost: predict the wall time on K cores (repeat for several; default 1, 2, 64 and 1024).",
    )(fn)
    return click.option(
        "--estimate-cost",
        is_flag=True,
        help="Predict the exact count's work and time (on this machine's cores and on K cores) from a "
        "calibration of a few seconds, instead of counting (native backend).",
    )(fn)


def _text(c: Any) -> list[str]:
    """The prediction as lines of text."""
    from ..cost import METHOD_NAMES, format_duration

    err = "" if c.relative_error is None else f" (calibration's standard error {100 * c.relative_error:.2g}%)"
    # the nodes apart only when the work is counted in something else (the join's row pairs)
    shown = c.predicted_nodes is not None and not (c.work_unit == "nodes" and c.predicted_nodes == c.work)
    nodes = f"{c.predicted_nodes:.3g} nodes, " if shown else ""
    lines = [
        f"{c.problem.describe()}: counted by {METHOD_NAMES[c.method]}",
        f"predicted work: {nodes}{c.work:.3g} {c.work_unit} at {c.rate:.3g} per core-second measured here",
        f"the counting work on one core (set-up excluded): {format_duration(c.core_seconds)}{err}",
        f"on this machine's {c.local_cores} core{'s' if c.local_cores != 1 else ''}, set-up included: "
        f"about {format_duration(c.predicted_seconds)}",
        f"largest of the split's {c.split_tasks} tasks: {format_duration(c.largest_task_seconds)}",
    ]
    for t in c.per_cores:
        bound = " (its largest task)" if t.limited_by == "largest task" else ""
        lines.append(f"{t.cores:>8,} core{'s' if t.cores != 1 else ' '}: {format_duration(t.predicted_seconds)}{bound}")
    lines.append(f"calibration: {c.calibration}; {c.calibration_seconds:.1f} s")
    return lines


def estimate_cost_cmd(
    problem: Problem,
    *,
    asked: bool,
    cores: tuple[int, ...],
    ranged: bool,
    backend: str,
    backend_opts: dict,
    split: bool,
    as_json: bool,
) -> int:
    """Print the prediction of ``count`` (``--estimate-cost``) and return the exit code."""
    if not asked:
        raise QueensError("--cores K gives the cores of a predicted count: add --estimate-cost")
    if ranged:
        raise QueensError("--estimate-cost predicts one count: give a single N, not a range A..B")
    from ..backends.registry import get_backend

    if not get_backend(backend).can_split:  # a capability, never a name: the engine's count
        raise QueensError(
            f"--estimate-cost predicts the native engine's count (split into its tasks), not the {backend} backend's"
        )
    if split:
        raise QueensError(
            "--estimate-cost predicts without counting; --ledger and --dask run a count: drop one of them "
            "(--cores K gives the time on K cores of a split count)"
        )
    other = sorted(set(backend_opts) - set(TAKES))
    if other:
        flags = ", ".join("--" + name.replace("_", "-") for name in other)
        raise QueensError(f"--estimate-cost takes --threads, --method and --force of the count; not {flags}")
    from ..cost import estimate_cost

    c = estimate_cost(
        problem,
        cores=sorted(set(cores)) or None,  # each number of cores once
        threads=backend_opts.get("threads"),
        method=backend_opts.get("method", "auto"),
    )
    if as_json:
        emit_json(c)  # a CostEstimate's fields are the JSON keys
    else:
        click.echo("\n".join(_text(c)))
    return 0
