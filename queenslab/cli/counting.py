"""``count``, ``crosscheck`` and ``export``: one problem on one or several backends."""

from __future__ import annotations

import json

import click

from ..backends import crosscheck, get_backend
from ..backends.interface import COUNTS
from ..data import compare
from ..errors import QueensError
from ..outfile import atomic_output
from ..problem import Problem
from ..result import CountResult
from .app import cli, emit_json
from .options import (
    Progress,
    backend_option,
    choice_option,
    json_option,
    number_option,
    out_option,
    problem_options,
    solver_options,
)


@cli.command("count")
@problem_options(optional_n=True)
@click.option(
    "--unique", is_flag=True, help="Also count fundamental solutions (orbits under the problem's symmetries)."
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
@click.option(
    "--dask",
    metavar="local:K|tcp://H:P",
    default=None,
    help="Count on a Dask cluster: local:K starts K worker processes on this machine (loopback "
    "only), an address uses a running scheduler (tls:// with the Dask configuration's TLS "
    "settings). Needs the extra 'dask'.",
)
@number_option("--verify", 0, "K", "Recompute K random recorded tasks here and report any disagreement.", default=0)
@choice_option(
    "--verify-method",
    ["task", "general"],
    "task",
    "How --verify recomputes: by the task's own method, or by the general search (an "
    "independent algorithm for the symmetric split's tasks).",
)
@json_option
def count_cmd(
    problem: Problem,
    unique: bool,
    backend: str,
    backend_opts: dict,
    ledger: str | None,
    dask: str | None,
    verify: int,
    verify_method: str,
    as_json: bool,
) -> int:
    """Count the solutions of N queens (or a variant).

    Compares with the known values (OEIS A000170 / A002562) for the standard problem and
    exits 1 if they disagree, or if a limit stopped the count (it is then a lower bound).
    The options in brackets belong to the backends named there; another backend refuses
    them.

    With --ledger or --dask the count is split into tasks (the symmetric search's for the
    standard problem, prefixes of the first rows for a variant) that run on threads or
    on a Dask cluster; each finished task is recorded in the ledger at once, so Ctrl-C
    loses nothing and a re-run finishes the count. A ledger of another problem, or one
    edited by hand, is refused.

    \b
    JSON keys: n, count, unique (null without --unique), backend, method, threads,
    seconds, complete, known, known_unique, agrees (null when nothing is known),
    nodes, problem, note (why a problem whose constraints contradict each other has no
    solutions, else null), tasks, from_ledger, workers, verified, verify_method,
    disagreements (null without --ledger / --dask).

    \b
    Examples:
      queenslab count 12 --unique
      queenslab count 8 --toroidal --block 1,1 --json
      queenslab count 9 --unique --backend cpsat --formulation boolean
      queenslab count 8 --backend sat --encoding seqcounter
      queenslab count 17 --unique --ledger q17.sqlite --dask local:2
      queenslab count 17 --unique --ledger q17.sqlite --verify 20 --verify-method general
    """
    be = get_backend(backend)
    progress = Progress(not as_json, f"count {problem.n}")
    split = ledger is not None or dask is not None
    if verify and not split:
        raise QueensError("--verify recomputes tasks recorded in a ledger: give --ledger FILE (or --dask)")
    if split:
        if backend != "native":
            raise QueensError("--ledger and --dask split the native engine's count; drop --backend " + backend)
        unknown = sorted(set(backend_opts) - {"threads", "force"})
        if unknown:
            raise QueensError(
                f"--ledger / --dask take --threads and --force; not {', '.join('--' + k.replace('_', '-') for k in unknown)}"
            )
    elif be.option("progress") is not None:
        backend_opts["progress"] = progress
    res: CountResult
    try:
        if split:
            from .. import distributed

            res = distributed.count(
                problem,
                unique=unique,
                ledger=ledger,
                dask=dask,
                verify=verify,
                verify_method=verify_method,
                progress=progress,
                **backend_opts,
            )
        else:
            res = be.counts(problem, unique=unique, **backend_opts)
    finally:
        progress.close()
    extra = {
        "tasks": getattr(res, "tasks", None),
        "from_ledger": getattr(res, "from_ledger", None),
        "workers": list(getattr(res, "workers", ())) if split else None,
        "verified": getattr(res, "verified", None),
        "verify_method": verify_method if split else None,
        "disagreements": [
            {
                "task": list(d.task),
                "recorded": list(d.recorded),
                "recomputed": list(d.recomputed),
                "method": d.method,
            }
            for d in getattr(res, "disagreements", ())
        ]
        if split
        else None,
    }
    assert res.count is not None  # a problem is counted, never a model with lex-leader constraints alone
    known = compare(problem, res.count, res.unique if unique else None, complete=res.complete)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "count": res.count,
                "unique": res.unique if unique else None,
                "backend": res.backend,
                "method": res.method,
                "threads": res.threads,
                "seconds": round(res.seconds or 0.0, 6),
                "complete": res.complete,
                "known": known.count,
                "known_unique": known.unique if unique else None,
                "agrees": known.agrees,
                "nodes": res.nodes,
                "problem": problem.to_dict(one_based=True),
                "note": res.note,
                **extra,
            }
        )
    else:
        pre = "" if res.complete else "at least "
        line = f"{pre}{res.count} solution{'' if res.count == 1 else 's'} of {problem.describe()}"
        if unique:
            line += f" ({pre}{res.unique} unique)"
        click.echo(line)
        detail = f"backend {res.backend}" + (f" ({res.method})" if res.method else "") + f", {res.seconds:.3f} s"
        if not res.complete:
            detail += "; stopped by a limit: not a final count"
        elif known.agrees is not None:
            detail += f"; known value {known.count}" + (f" / {known.unique} unique" if unique else "")
            detail += ": agrees" if known.agrees else ": DISAGREES"
        click.echo(detail)
        if res.note:
            click.echo(f"note: no solutions, as {res.note}")
        if split:
            click.echo(
                f"{extra['tasks']} tasks, {extra['from_ledger']} found done in the ledger, "
                f"{len(extra['workers'] or [])} worker(s) this run"
                + (
                    f"; {extra['verified']} recomputed ({verify_method} method), "
                    f"{len(extra['disagreements'] or [])} disagreeing"
                    if verify
                    else ""
                )
            )
    if known.agrees is False:
        click.echo("error: the count disagrees with the known value", err=True)
        return 1
    if split and extra["disagreements"]:
        click.echo("error: recomputed tasks disagree with the ledger: " + json.dumps(extra["disagreements"]), err=True)
        return 1
    return 0 if res.complete else 1


@cli.command("crosscheck")
@problem_options(optional_n=True)
@click.option(
    "--backends",
    default=None,
    metavar="B,B,...",
    help="Comma-separated backends (default: all; a missing optional one is reported, not fatal).",
)
@click.option("--no-unique", is_flag=True, help="Compare counts only (skip the symmetry-reduced counts).")
@json_option
def crosscheck_cmd(problem: Problem, backends: str | None, no_unique: bool, as_json: bool) -> int:
    """Count one problem on several backends, side by side; exit 1 if they disagree.

    \b
    A row stopped by a limit or a backend that could not run is never part of an
    agreement: exit 0 needs two or more complete answers, all alike; Ctrl-C exits 130.

    \b
    JSON keys: n, problem, unique (whether orbits were compared), agree, verdict (agree,
    disagree or inconclusive), rows (each: backend, count, unique, seconds, complete,
    error), note (why contradicting constraints leave no solutions, else null).

    \b
    Examples:
      queenslab crosscheck 8
      queenslab crosscheck 7 --toroidal --knight --block 1,1 --backends native,sat
    """
    names = None if backends is None else [b.strip() for b in backends.split(",") if b.strip()]
    res = crosscheck(problem, names, unique=not no_unique, strict=names is not None)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "unique": not no_unique,
                "agree": res.agree,
                "verdict": res.verdict,
                "note": problem.contradiction,
                "rows": [
                    {
                        "backend": r.backend,
                        "count": r.count,
                        "unique": r.unique,
                        "seconds": round(r.seconds, 6),
                        "complete": r.complete,
                        "error": r.error,
                    }
                    for r in res.rows
                ],
            }
        )
    else:
        click.echo(f"{problem.describe()}")
        if problem.contradiction:
            click.echo(f"note: no solutions, as {problem.contradiction}")
        click.echo(f"{'backend':<10} {'count':>14} {'unique':>12} {'seconds':>9}")
        for r in res.rows:
            if r.error:
                click.echo(f"{r.backend:<10} {'-':>14} {'-':>12} {'-':>9}  {r.error}")
            else:
                u = "-" if r.unique is None else str(r.unique)
                limited = "" if r.complete else "  stopped by a limit: a lower bound, not compared"
                click.echo(f"{r.backend:<10} {r.count:>14} {u:>12} {r.seconds:>9.3f}{limited}")
        answered = ", ".join(r.backend for r in res.answered)
        if res.verdict == "agree":
            click.echo(f"all {len(res.answered)} complete answers agree ({answered})")
        elif res.verdict == "disagree":
            click.echo("BACKENDS DISAGREE")
        else:
            click.echo(
                f"inconclusive: {len(res.answered)} complete answer(s) ({answered or 'none'}); "
                "an agreement needs two or more, and no row stopped by a limit"
            )
    return 0 if res.agree else 1


@cli.command("export")
@click.argument("kind", type=click.Choice(["cnf", "cpsat"]))
@problem_options(optional_n=True)
@click.option("--encoding", default=None, metavar="E", help="cnf only: cardinality encoding (default pairwise).")
@click.option(
    "--formulation",
    type=click.Choice(["integer", "boolean"]),
    default=None,
    help="cpsat only: model formulation (default integer).",
)
@choice_option("--symmetry", ["none", "lex-leader"], "none", "Add lex-leader symmetry-breaking constraints.")
@out_option()
@json_option
def export_cmd(
    kind: str,
    problem: Problem,
    encoding: str | None,
    formulation: str | None,
    symmetry: str,
    out: str | None,
    as_json: bool,
) -> int:
    """Export the model: DIMACS CNF with a cell-variable map, or CP-SAT's text proto.

    \b
    JSON keys: kind, n, problem, symmetry, encoding (null for cpsat), formulation (null
    for cnf), variables and clauses (null for cpsat), out, text (null with --out).

    \b
    Examples:
      queenslab export cnf 8 --out q8.cnf
      queenslab export cpsat 8 --symmetry lex-leader
    """
    # an option of the other model would be silently ignored: refuse it
    if kind == "cnf" and formulation is not None:
        raise QueensError("--formulation is an option of the cpsat model; the cnf model takes --encoding")
    if kind == "cpsat" and encoding is not None:
        raise QueensError("--encoding is an option of the cnf model; the cpsat model takes --formulation")
    encoding = encoding or "pairwise"
    formulation = formulation or "integer"
    sym = None if symmetry == "none" else symmetry
    if kind == "cnf":
        from ..models.cnf import to_dimacs

        text = to_dimacs(problem, encoding=encoding, symmetry=sym)
    else:
        from ..models.cpsat import export_text

        text = export_text(problem, formulation=formulation, symmetry=sym)
    if out:
        with atomic_output(out, "w", what="--out") as fh:
            fh.write(text)
    if as_json:
        header = next((line for line in text.splitlines() if line.startswith("p cnf")), None)
        emit_json(
            {
                "kind": kind,
                "n": problem.n,
                "problem": problem.to_dict(one_based=True),
                "symmetry": symmetry,
                "encoding": encoding if kind == "cnf" else None,
                "formulation": formulation if kind == "cpsat" else None,
                "variables": int(header.split()[2]) if header else None,
                "clauses": int(header.split()[3]) if header else None,
                "out": out,
                "text": None if out else text,
            }
        )
    elif not out:
        click.echo(text, nl=False)
    else:
        click.echo(f"wrote {kind} model of {problem.describe()} to {out}", err=True)
    return 0
