"""``count``: one problem counted by one backend, or every size of a range."""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import click

from .. import interrupt
from ..backends.approximate import ApproximateCount
from ..backends.interface import COUNTS
from ..counting import check_range, count_range, counts as count_problem
from ..data import Known
from ..errors import QueensError
from ..problem import Problem
from ..result import CountResult
from . import approximate as approx
from .app import Command, emit_json
from .cost import cost_options, estimate_cost_cmd
from .options import (
    Progress,
    Variant,
    backend_option,
    choice_option,
    dask_option,
    json_option,
    number_option,
    problem_options,
    solver_options,
)

if TYPE_CHECKING:
    from ..reports import CountReport

#: More digits than this cannot be the size of any board.
_MAX_DIGITS = 18
_RANGE = re.compile(r"([0-9]+)\.\.([0-9]+)", re.ASCII)


@dataclass(frozen=True)
class _Sizes:
    """The sizes ``first..last`` (inclusive) of ``count A..B``."""

    first: int
    last: int


class _SizeOrRange(click.ParamType):
    """``N`` as a whole number (as click's INT reads it) or ``A..B``, an inclusive range."""

    name = "n"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str) or ".." not in value:
            return click.INT.convert(cast(Any, value), param, ctx)
        how = "give N, or a range A..B of board sizes with A <= B, for example 4..17"
        m = _RANGE.fullmatch(value.strip())
        if m is None:
            self.fail(f"{value[:40]!r} is not a range of board sizes: {how}", param, ctx)
        if any(len(g.lstrip("0")) > _MAX_DIGITS for g in m.groups()):
            self.fail(f"{value[:40]!r}: a size of {_MAX_DIGITS + 1}+ digits is off any board; {how}", param, ctx)
        first, last = int(m.group(1)), int(m.group(2))
        if first > last:
            self.fail(f"the range {first}..{last} is empty (reversed): {how}", param, ctx)
        return _Sizes(first, last)


def _n_or_range(f: Callable) -> Callable:
    """Let the ``N`` argument of :func:`problem_options` (below this decorator) also be
    a range ``A..B``: the command then receives the problem of size A, ``sizes`` and a
    :class:`Variant` that builds the problem of each size from the same flags."""
    for param in getattr(f, "__click_params__", []):
        if param.name == "n":
            param.type = _SizeOrRange()

    @functools.wraps(f)
    def wrapper(**kw: Any) -> Any:
        sizes = kw.get("n")
        kw["sizes"] = kw["variant"] = None
        if isinstance(sizes, _Sizes):
            # checked before any problem of the range is built: a range holds one
            # problem at a time, and none beyond what the engine can represent
            check_range(sizes.first, sizes.last)
            if kw.get("problem_file") is not None:
                raise QueensError(
                    f"a range of N counts every size from {sizes.first} to {sizes.last}, but a problem file "
                    "fixes one n: give a single N with --problem, or the variant flags with the range"
                )
            kw["n"], kw["sizes"] = sizes.first, sizes
            kw["variant"] = Variant(
                kw["toroidal"], kw["knight"], kw["block"], kw["fix"], None, kw.get("columns"), kw.get("queens")
            )
        return f(**kw)

    return wrapper


def _count_report(problem: Problem, res: CountResult, unique: bool, known: Any, split: dict) -> CountReport:
    # the reports (a few dozen dataclasses) and the provenance (package metadata) load
    # only for --json: a count in words needs neither
    from ..provenance import environment
    from ..reports import CountReport

    return CountReport(
        n=problem.n,
        count=res.count,
        unique=res.unique if unique else None,
        classes=res.classes,
        backend=res.backend,
        method=res.method,
        threads=res.threads,
        seconds=res.seconds or 0.0,
        complete=res.complete,
        known=known.count,
        known_unique=known.unique if unique else None,
        agrees=known.agrees,
        known_source=known.source if known.count is not None else None,
        nodes=res.nodes,
        problem=problem,
        note=res.note,
        derivation=res.derivation,
        **split,
        provenance=environment(res.threads),
        **approx.report_fields(res, unique, known),
    )


def _classes_text(sizes: dict[int, int]) -> str:
    return ", ".join(f"{k} of size {size}" for size, k in sizes.items())


def _count_range(rows: Iterable[tuple[Problem, CountResult]], unique: bool, as_json: bool, bar: Progress) -> int:
    """``count A..B``: one row (a table line, or a JSON line) per size, printed as it is
    counted; exit 1 when any row disagrees with a known value or is incomplete."""
    classes = None
    code = 0
    for problem, res in rows:
        sizes = res.classes
        if classes is None:  # the header, once the first row says what it has
            classes = sizes is not None
            if not as_json:
                head = f"{'n':>3} {'solutions':>16}" + (f" {'unique':>14}" if unique else "")
                bar.echo(head + f" {'seconds':>10}  known value" + ("  orbits by size" if classes else ""))
        known = approx.known_for(problem, res, unique)  # an estimate: held against bounds
        if known.agrees is False or not res.complete:
            code = 1
        if as_json:
            emit_json(_count_report(problem, res, unique, known, {}))
            continue
        marks = approx.range_marks(res, known, unique)  # (~, bounds verdict) for an estimate
        pre = marks[0] if marks else "" if res.complete else ">="
        line = f"{problem.n:>3} {pre + str(res.count):>16}"
        if unique:
            line += f" {pre + str(res.unique):>14}"
        if not res.complete:
            verdict = "stopped by a limit"
        elif marks:
            verdict = marks[1]
        elif known.agrees is None:
            verdict = "-"
        else:
            verdict = "agrees" if known.agrees else "DISAGREES"
        line += f" {res.seconds or 0.0:>10.3f}  {verdict}"
        if sizes is not None:
            line += f"  {_classes_text(sizes)}"
        bar.echo(line)
    if code:
        click.echo("error: a count disagrees with its known value or was stopped by a limit", err=True)
    return code


@click.command("count", cls=Command)
@_n_or_range
@problem_options(optional_n=True)
@click.option(
    "--unique", is_flag=True, help="Also count fundamental solutions (orbits under the problem's symmetries)."
)
@click.option(
    "--classes",
    is_flag=True,
    help="Break the orbits down by size (the number of orbits of 1, 2, 4 and 8 solutions), from the "
    "counting pass itself (native backend).",
)
@backend_option
@solver_options(COUNTS)
@click.option(
    "--ledger",
    metavar="FILE",
    default=None,
    help="Split the count into tasks and record each finished one in this ledger (SQLite): "
    "a re-run with the same file computes only what is missing (native backend).",
)
@dask_option("Count")
@number_option("--verify", 0, "K", "Recompute K random recorded tasks here and report any disagreement.", default=0)
@choice_option(
    "--verify-method",
    ["task", "general"],
    "task",
    "How --verify recomputes: by the task's own method, or by the general search (an "
    "independent algorithm for the symmetric split's tasks).",
)
@cost_options
@json_option
def count_cmd(
    problem: Problem,
    unique: bool,
    classes: bool,
    backend: str,
    backend_opts: dict,
    ledger: str | None,
    dask: str | None,
    verify: int,
    verify_method: str,
    as_json: bool,
    sizes: _Sizes | None = None,
    variant: Variant | None = None,
    estimate_cost: bool = False,
    cores: tuple[int, ...] = (),
) -> int:
    """Count the solutions of N queens (or a variant), or of every size in a range A..B.

    Compares with the known values (OEIS A000170 / A002562 for the standard problem,
    A051906 for toroidal queens, A051223 / A051224 for superqueens; a toroidal board of n
    divisible by 2 or 3 has no solution, by Pólya's theorem) and exits 1 if they disagree,
    or if a limit stopped the count (it is then a lower bound).
    The options in brackets belong to the backends named there; another backend refuses
    them.

    A range A..B (inclusive, A <= B) counts each size in turn with the same flags and
    prints one row per size: a table (n, solutions, unique with --unique, seconds, known
    value), or with --json one JSON object per line with the keys below. Every size is
    checked as a single count would be before the first is counted (n above 18 needs
    --force); a range cannot be split with --ledger / --dask or read from --problem.

    --classes breaks the orbits down by size: for the standard problem the symmetric
    search classifies each orbit of 2, 4 or 8 solutions as it counts, as Takaken's
    program does (up to n = 13), and the half-board join (from n = 14, --method join)
    takes them by Burnside's lemma from the solutions fixed by the quarter and half
    turns; for a variant the general search takes each canonical solution's stabiliser
    (orbit size = group order / stabiliser size). Native backend only.

    --estimate-cost prints what the count would cost instead of counting: its work and
    its time on one core and on this machine's cores, predicted from a calibration of a
    few seconds (the estimator's nodes and the kernel's measured speed, or the join's
    timed row splits), and on K cores of a split count (--cores K, repeatable; never
    less than the split's largest task). A count refused beyond n = 18 quotes the same
    prediction.

    With --ledger or --dask the count is split into tasks (for the standard problem the
    slices of the half-board join from n = 14, else the symmetric search's; prefixes of
    the first rows for a variant; a ledger keeps the split it was started with; --method
    chooses) that run on threads or
    on a Dask cluster; each finished task is recorded in the ledger at once, so Ctrl-C
    loses nothing and a re-run finishes the count. A ledger of another problem, or one
    edited by hand, is refused.

    \b
    JSON keys: n, count, unique (null without --unique), classes (with --classes an
    object mapping each orbit size to its number of orbits, else null), backend,
    method, threads, seconds, complete, known, known_unique, agrees (null when nothing
    is known), known_source (the OEIS sequences or theorem, null when nothing is known), nodes, problem, note (why a problem whose constraints contradict each
    other has no solutions, else null), tasks, from_ledger, workers, recounted,
    verify_method, disagreements (null without --ledger / --dask), provenance
    (package, commit, library versions, threads, CPU and date).

    \b
    Examples:
      queenslab count 12 --unique
      queenslab count 4..17 --unique
      queenslab count 12 --classes
      queenslab count 8 --toroidal --block 1,1 --json
      queenslab count 9 --unique --backend cpsat --formulation boolean
      queenslab count 8 --backend sat --encoding seqcounter
      queenslab count 17 --unique --ledger q17.sqlite --dask local:2
      queenslab count 17 --unique --method symmetric --ledger q17.sqlite --verify 20 --verify-method general
    """
    split = ledger is not None or dask is not None
    _check_combination(verify, estimate_cost or bool(cores))
    if estimate_cost or cores:
        return estimate_cost_cmd(
            problem,
            asked=estimate_cost,
            cores=cores,
            ranged=sizes is not None,
            backend=backend,
            backend_opts=backend_opts,
            split=split,
            as_json=as_json,
        )
    if sizes is not None:
        assert variant is not None
        return _count_sizes(variant, sizes, split, unique, classes, backend, backend_opts, as_json)
    progress = Progress(not as_json, f"count {problem.n}")
    try:
        with _keeping_ledger(ledger, problem):
            res = count_problem(
                problem,
                unique=unique,
                classes=classes,
                backend=backend,
                ledger=ledger,
                dask=dask,
                verify=verify,
                verify_method=verify_method,
                progress=progress,
                **backend_opts,
            )
    finally:
        progress.close()
    extra = _split_report(res, verify_method) if split else {}
    known = approx.known_for(problem, res, unique)  # an estimate is held against its bounds
    if as_json:
        emit_json(_count_report(problem, res, unique, known, extra))
    elif isinstance(res, ApproximateCount):
        click.echo("\n".join(approx.count_lines(problem, res, unique, known)))
    else:
        click.echo("\n".join(_count_lines(problem, res, unique, known, extra, verify_method if verify else None)))
    return _exit_code(res, known, extra)


def _check_combination(verify: int, predict: bool) -> None:
    """Refuse the options that mean nothing together."""
    source = click.get_current_context().get_parameter_source("verify_method")
    if source is not None and source is not click.core.ParameterSource.DEFAULT and not verify:
        raise QueensError(
            "--verify-method says how --verify K recomputes recorded tasks: add --verify K (with --ledger or --dask)"
        )
    if predict and verify:
        raise QueensError(
            "--estimate-cost predicts a count without running it, and --verify K recomputes tasks of a count that "
            "ran: drop one of them"
        )


def _count_sizes(
    variant: Variant,
    sizes: _Sizes,
    split: bool,
    unique: bool,
    classes: bool,
    backend: str,
    backend_opts: dict,
    as_json: bool,
) -> int:
    """Count every size of a range A..B in this process, a row each."""
    if split:
        raise QueensError(
            "a range of N counts each size in this process; --ledger and --dask split one count: give a single N"
        )
    # the whole range is checked up front; each size is built when it is counted
    bar = Progress(not as_json, f"count {sizes.first}..{sizes.last}")
    try:
        rows = count_range(
            variant,
            sizes.first,
            sizes.last,
            unique=unique,
            classes=classes,
            backend=backend,
            progress=bar,
            **backend_opts,
        )
        return _count_range(rows, unique, as_json, bar)
    finally:
        bar.close()


def _keeping_ledger(ledger: str | None, problem: Problem) -> contextlib.AbstractContextManager[None]:
    """With a ledger, a Ctrl-C says what the ledger keeps and how to finish the count."""
    if ledger is None:
        return contextlib.nullcontext()
    from ..distributed.ledger import kept_note

    return interrupt.keeping(lambda: kept_note(ledger, problem))


def _split_report(res: CountResult, verify_method: str) -> dict[str, Any]:
    """The keys of a split count (--ledger, --dask): its tasks, the ledger, the workers, the recount."""
    return {
        "tasks": getattr(res, "tasks", None),
        "from_ledger": getattr(res, "from_ledger", None),
        "workers": tuple(getattr(res, "workers", ())),
        "recounted": getattr(res, "verified", None),
        "verify_method": verify_method,
        "disagreements": tuple(getattr(res, "disagreements", ())),
    }


def _count_lines(
    problem: Problem, res: CountResult, unique: bool, known: Any, extra: dict[str, Any], verified_by: str | None
) -> list[str]:
    """The count in words: solutions (and orbits), the backend and time, the known value,
    a contradiction's note, and a split count's tasks."""
    pre = "" if res.complete else "at least "
    line = f"{pre}{res.count} solution{'' if res.count == 1 else 's'} of {problem.describe()}"
    if unique:
        line += f" ({pre}{res.unique} unique)"
    out = [line]
    if res.classes is not None:
        out.append(f"{sum(res.classes.values())} orbits: {_classes_text(res.classes)}")
    detail = f"backend {res.backend}" + (f" ({res.method})" if res.method else "") + f", {res.seconds:.3f} s"
    if not res.complete:
        detail += "; stopped by a limit: not a final count"
    elif known.agrees is not None:
        detail += "; " + known_text(known, unique, source=not problem.is_standard)
        detail += ": agrees" if known.agrees else ": DISAGREES"
    out.append(detail)
    if res.derivation:
        out.append(res.derivation)
    if res.note:
        out.append(f"note: no solutions, as {res.note}")
    if extra:
        out.append(
            f"{extra['tasks']} tasks, {extra['from_ledger']} found done in the ledger, "
            f"{len(extra['workers'] or [])} worker(s) this run"
            + (
                f"; {extra['recounted']} recomputed ({verified_by} method), "
                f"{len(extra['disagreements'] or [])} disagreeing"
                if verified_by
                else ""
            )
        )
    return out


def _exit_code(res: CountResult, known: Any, extra: dict[str, Any]) -> int:
    """1 when the count disagrees with the known value or a recount, or a limit stopped it; else 0."""
    if known.agrees is False:
        click.echo("error: the count disagrees with the known value", err=True)
        return 1
    if extra and extra["disagreements"]:
        from ..reports import to_json

        disagreeing = [to_json(d) for d in extra["disagreements"]]
        click.echo("error: recomputed tasks disagree with the ledger: " + json.dumps(disagreeing), err=True)
        return 1
    return 0 if res.complete else 1


def known_text(known: Known, unique: bool, source: bool) -> str:
    """``known value T / U unique (source)``: the unique count when asked for and known,
    the source when ``source``."""
    text = f"known value {known.count}"
    if unique and known.unique is not None:
        text += f" / {known.unique} unique"
    return text + (f" ({known.source})" if source and known.source else "")
