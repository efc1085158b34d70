"""``queenslab crosscheck --split``: the native split recounted task by task by a solver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from ..backends.recount import recount
from ..problem import Problem
from .app import emit_json
from .options import Progress

__all__ = ["split_recount", "SplitRecountReport"]

#: Disagreeing tasks listed in the text output (all of them in the JSON).
SHOWN = 10


@dataclass(frozen=True)
class SplitRecountReport:
    """``queenslab crosscheck --split``: the native split recounted by a solver."""

    n: int
    problem: Problem
    backend: str
    task_counts: str
    depth: int
    tasks: int
    tasks_agreeing: int
    disagreements: tuple[dict[str, Any], ...]
    native: int
    native_unique: int | None
    count: int
    unique: int | None
    derivation: str | None
    from_ledger: int
    processes: int
    seconds: float
    verdict: str
    agrees: bool


def split_recount(
    problem: Problem,
    backend: str,
    threads: int | None,
    depth: int | None,
    totals: bool,
    ledger: str | None,
    as_json: bool,
) -> int:
    """Run :func:`~queenslab.backends.recount.recount` and print it; 0 when every task
    agrees, 1 otherwise."""
    # the command line's bar: drawn only on a terminal, so a log of the run holds no bar
    bar = Progress(not as_json, f"recount {problem.n} ({backend})")
    try:
        res = recount(problem, backend, threads=threads, depth=depth, totals=totals, ledger=ledger, progress=bar)
    finally:
        bar.close()
    wrong: tuple[dict[str, Any], ...] = tuple(
        {"task_id": t.task_id, "task": [c + 1 for c in t.task], "native": t.native, "solver_count": t.solver}
        for t in res.disagreements
    )
    if as_json:
        emit_json(
            SplitRecountReport(
                n=problem.n,
                problem=problem,
                backend=res.backend,
                task_counts=res.counted,
                depth=res.depth,
                tasks=len(res.tasks),
                tasks_agreeing=res.tasks_agreeing,
                disagreements=wrong,
                native=res.native_total,
                native_unique=res.native_unique,
                count=res.total,
                unique=res.unique,
                derivation=res.derivation,
                from_ledger=res.from_ledger,
                processes=res.workers,
                seconds=round(res.seconds, 3),
                verdict=res.verdict,
                agrees=res.agrees,
            )
        )
        return 0 if res.agrees else 1
    what = "lex-leaders (orbits)" if res.counted == "orbits" else "solutions"
    click.echo(f"{problem.describe()}: the native split recounted by {res.backend}")
    click.echo(
        f"{len(res.tasks):,} tasks (the placements of the first {res.depth} rows), each counted natively and by "
        f"{res.backend}: its {what}"
        + (f"; {res.from_ledger:,} solver counts read from the ledger" if res.from_ledger else "")
    )
    click.echo(f"tasks agreeing: {res.tasks_agreeing:,} of {len(res.tasks):,}")
    for t in wrong[:SHOWN]:
        prefix = " ".join(str(c) for c in t["task"])
        click.echo(
            f"  task {t['task_id']} (first rows' columns {prefix}): native {t['native']:,}, {res.backend} {t['solver_count']:,}"
        )
    if len(wrong) > SHOWN:
        click.echo(f"  ... and {len(wrong) - SHOWN:,} more (--json lists them all)")
    if res.unique is not None:
        click.echo(f"orbits: native {res.native_unique:,}, {res.backend} {res.unique:,} (the sum over the tasks)")
    click.echo(f"total: native {res.native_total:,}, {res.backend} {res.total:,}")
    if res.derivation:
        click.echo(f"{res.backend}: {res.derivation}")
    verdict = "agree, subtotal by subtotal" if res.agrees else "DISAGREE"
    click.echo(f"{verdict}; {res.seconds:.1f} s on {res.workers} process(es)")
    return 0 if res.agrees else 1
