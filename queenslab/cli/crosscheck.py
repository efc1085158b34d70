"""``crosscheck``: one problem counted on several backends side by side, or the native
engine's split recounted task by task by a solver."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from ..backends.crosscheck import DEFAULT_TIME_LIMIT, crosscheck, skip_reason
from ..backends.recount import DEFAULT_RECOUNT_BACKEND, RECOUNT_BACKENDS
from ..data import Known
from ..errors import QueensError, in_flags
from ..problem import Problem
from ..reports import CrosscheckReport
from . import approximate as approx
from .app import Command, emit_json
from .counting import known_text
from .options import Seconds, choice_option, json_option, number_option, problem_options
from .recount import split_recount


@click.command("crosscheck", cls=Command)
@problem_options(optional_n=True)
@click.option(
    "--backends",
    default=None,
    metavar="B,B,...",
    help="Comma-separated backends (default: all; a missing optional one is reported, not fatal).",
)
@click.option("--no-unique", is_flag=True, help="Compare counts only (skip the symmetry-reduced counts).")
@click.option(
    "--approximate",
    is_flag=True,
    help="Also run the approximate backends (approxmc): each estimate is held against the exact answer (within or "
    "outside its bounds) and decides nothing.",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=DEFAULT_TIME_LIMIT,
    show_default=True,
    metavar="S",
    help="Seconds each backend may count for; one that runs out is stopped and reported, and the others "
    "decide.  [finite, x>0]",
)
@click.option(
    "--split",
    is_flag=True,
    help="Recount the native engine's prefix split task by task with one solver (--split-with) and compare "
    "subtotal by subtotal: each task's lex-leaders (orbits), the total by Burnside's lemma.",
)
@choice_option("--split-with", list(RECOUNT_BACKENDS), DEFAULT_RECOUNT_BACKEND, "The solver of --split's tasks.")
@number_option("--threads", 1, "T", "Processes of --split (default: every core).")
@number_option("--depth", 1, "D", "Prefix depth of --split's tasks (default: the least with 256 tasks or more).")
@click.option(
    "--totals",
    is_flag=True,
    help="With --split: count each task's solutions, not its lex-leaders (slower by about the group's order).",
)
@click.option(
    "--ledger",
    metavar="FILE",
    default=None,
    help="With --split: record each task's solver count in this ledger (SQLite); a re-run with it counts only "
    "the tasks missing.",
)
@json_option
def crosscheck_cmd(
    problem: Problem,
    backends: str | None,
    no_unique: bool,
    approximate: bool,
    time_limit: float,
    split: bool,
    split_with: str,
    threads: int | None,
    depth: int | None,
    totals: bool,
    ledger: str | None,
    as_json: bool,
) -> int:
    """Count one problem on several backends, side by side; exit 1 if they disagree.

    \b
    Each backend counts in a process of its own, stopped when it runs out of
    --time-limit (default 60 s); its row then says so. The native backend counts the
    standard problem twice, by the half-board join and by the symmetric search (two
    rows; independent algorithms, one engine). A row stopped by a limit, a
    backend that ran out of time or could not run is never part of an agreement.
    Verdicts and exit codes: agree (0) needs two or more complete answers, all alike,
    one of them from a backend other than native, and no lower bound among the rows
    (a backend that ran out holds none: the others decide); disagree (1); native only
    (3): the answers agree but only the native engine gave them (the text names the
    independent backends that did not answer and why); inconclusive (3): fewer than two
    complete answers, or a lower bound. Ctrl-C exits 130. A solver beyond its
    practical limit (a limit on n) still counts when its predicted cost for this
    problem -- from the solutions the native engine found and the rate the solver
    enumerates at -- fits in half the time limit; its row's reach says so.
    An approximate backend (approxmc: named in --backends, or added by --approximate)
    gives no answer: its estimate is within or outside bounds of the exact answer and
    changes neither the verdict nor the exit code (outside bounds is reported; the
    guarantee allows it with probability at most delta). Where the count is known (OEIS
    for the standard problem, toroidal queens and superqueens; Pólya's zeros), the
    answers are held to it too: a difference exits 1.

    \b
    JSON keys: n, problem, compared_unique (whether orbits were compared), time_limit,
    agrees, verdict (agree, disagree, native only or inconclusive), results (each: backend, count, unique,
    seconds, complete, error, timed_out, method, approximate, epsilon, delta, count_bounds,
    unique_bounds, within_bounds, reach, derivation), note (why contradicting constraints leave no
    solutions, else null), known, known_unique, known_source (the known counts and where
    they come from; null when nothing is known), known_agrees (whether the answers equal
    them; null when nothing is known or nothing answered).

    \b
    --split recounts the native engine's split instead: every prefix task (the
    placements of the first rows) is counted natively and by one solver (sat:
    CaDiCaL enumerating, the default and the faster per task; d4), subtotal by
    subtotal. On a problem with symmetries a task's solver count is its lex-leaders
    (the orbits whose least solution begins with the prefix) and the total follows
    by Burnside's lemma from the summed orbits and the solutions each symmetry fixes
    (counted by the same solver); --totals counts each task's solutions instead.
    A disagreement names the task (exit 1). The tasks run in --threads processes;
    --ledger keeps each solver count, so a stopped run resumes. JSON keys (--split):
    n, problem, backend, task_counts (orbits or solutions), depth, tasks,
    tasks_agreeing, disagreements (each: task_id, task, native, solver_count),
    native, native_unique, count, unique, derivation, from_ledger, processes,
    seconds, verdict, agrees.

    \b
    Examples:
      queenslab crosscheck 8
      queenslab crosscheck 13 --toroidal --time-limit 20
      queenslab crosscheck 7 --toroidal --knight --block 1,1 --backends native,sat
      queenslab crosscheck 9 --backends native,approxmc
      queenslab crosscheck 16 --split
      queenslab crosscheck 12 --split --split-with d4 --ledger recount12.sqlite
    """
    if split:
        given = [flag for flag, on in (("--backends", backends), ("--approximate", approximate)) if on]
        if given:
            raise QueensError(f"--split recounts with one solver (--split-with), not with {' or '.join(given)}")
        return split_recount(problem, split_with, threads, depth, totals, ledger, as_json)
    unused = [
        flag
        for flag, on in (("--threads", threads), ("--depth", depth), ("--totals", totals), ("--ledger", ledger))
        if on
    ]
    if unused:
        raise QueensError(f"{', '.join(unused)} go(es) with --split only")
    names = None if backends is None else [b.strip() for b in backends.split(",") if b.strip()]
    res = crosscheck(
        problem, names, unique=not no_unique, strict=names is not None, time_limit=time_limit, approximate=approximate
    )
    known = _crosscheck_known(problem, res, not no_unique)
    if as_json:
        emit_json(
            CrosscheckReport(
                n=problem.n,
                problem=problem,
                compared_unique=not no_unique,
                time_limit=time_limit,
                agrees=res.agree,
                verdict=res.verdict,
                results=tuple(replace(r, error=in_flags(r.error)) if r.error else r for r in res.rows),
                note=problem.contradiction,
                known=known.count,
                known_unique=known.unique if not no_unique else None,
                known_source=known.source if known.count is not None else None,
                known_agrees=known.agrees,
            )
        )
    else:
        click.echo(f"{problem.describe()}")
        if problem.contradiction:
            click.echo(f"note: no solutions, as {problem.contradiction}")
        # the method column as wide as its longest entry (a decomposition names itself)
        w = max([22] + [len(r.method or "-") for r in res.rows])
        click.echo(f"{'backend':<10} {'method':<{w}} {'count':>14} {'unique':>12} {'seconds':>9}")
        for r in res.rows:
            how = r.method or "-"
            if r.error:
                click.echo(f"{r.backend:<10} {how:<{w}} {'-':>14} {'-':>12} {'-':>9}  {in_flags(r.error)}")
            elif r.approximate:
                click.echo(approx.row_line(r, w))
            else:
                u = "-" if r.unique is None else str(r.unique)
                limited = "" if r.complete else "  stopped by a limit: a lower bound, not compared"
                click.echo(f"{r.backend:<10} {how:<{w}} {r.count:>14} {u:>12} {r.seconds:>9.3f}{limited}")
        answered = ", ".join(r.backend + (f" ({r.method})" if r.method else "") for r in res.answered)
        if res.verdict == "agree":
            click.echo(f"all {len(res.answered)} complete answers agree ({answered})")
        elif res.verdict == "disagree":
            click.echo("BACKENDS DISAGREE")
        elif res.verdict == "native only":
            click.echo(
                f"native only: the {len(res.answered)} complete answers agree but all come from the native engine "
                f"({answered}); no independent backend confirmed them"
            )
        else:
            click.echo(
                f"inconclusive: {len(res.answered)} complete answer(s) ({answered or 'none'}); "
                "an agreement needs two or more, and no lower bound among the rows"
            )
        for r in res.rows:
            if r.reach:
                click.echo(f"{r.backend}: {r.reach}")
            if r.derivation:
                click.echo(f"{r.backend}: {r.derivation}")
        if not res.independent and res.skipped:
            reasons = "; ".join(f"{r.backend}: {skip_reason(r)}" for r in res.skipped)
            click.echo(f"independent backends without an answer: {reasons}")
        for line in approx.bounds_lines(res):
            click.echo(line)
        if known.agrees is not None:
            verdict = "every answer equals it" if known.agrees else "an answer DIFFERS from it"
            click.echo(f"{known_text(known, not no_unique, source=True)}: {verdict}")
    if res.verdict == "disagree" or known.agrees is False:
        return 1
    return 0 if res.agree else UNCONFIRMED


#: The exit code of a crosscheck that confirmed nothing (native only, or inconclusive):
#: no answer was found wrong, and none was confirmed by an independent backend.
UNCONFIRMED = 3


def _crosscheck_known(problem: Problem, res: Any, unique: bool) -> Known:
    """The known values held against a crosscheck's answers: every complete exact answer
    must equal them (``agrees`` None when nothing is known or nothing answered)."""
    from ..data import compare  # the tables, read once there are answers

    answers = [r for r in res.answered if not r.approximate]
    if not answers:
        return replace(compare(problem, 0), agrees=None)
    checks = [compare(problem, r.count, r.unique if unique else None) for r in answers]
    verdicts = [k.agrees for k in checks]
    agrees = None if verdicts[0] is None else all(verdicts)
    return replace(checks[0], agrees=agrees)
