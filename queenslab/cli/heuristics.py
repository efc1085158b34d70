"""``queenslab solve``: one solution by an exact backend or a heuristic, verified.

The command takes the problem as every problem command does (N, the variant flags,
``--problem FILE``) and two families of solvers, named apart:

* ``--backend B``: an exact backend of the registry (``native``, ``cpsat``, ``sat``, ...),
  any variant; the command then prints what ``queenslab.solve(problem, backend=B)``
  returns;
* ``--method M``: a heuristic (``construct``, ``minconflicts``, ``selfcorrect``, ``ga``,
  ``aco``), the standard problem of any size; the command prints what
  ``queenslab.solve_large(n, M)`` returns.

With neither, the command solves as ``queenslab.solve(problem)`` does (the native
backend, the lexicographically first solution), except for the standard problem beyond
the native search's practical limit (``engine.FIRST_SOLUTION``, n > 33, without
``--force``), which ``construct`` solves. The heuristics load numba kernels, so they are imported inside the command.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import click

from ..backends.interface import SOLVE
from ..backends.registry import BACKENDS, backend_options, exact_backends
from ..errors import Incomplete, QueensError, in_flags
from ..placement_file import write_placement
from ..problem import Problem
from ..reports import SolveReport
from ..solution import format_placement
from .app import Command, emit_json
from .options import Progress, json_option, number_option, out_option, problem_options, solver_options

__all__ = ["solve_cmd", "PRINT_MAX_N", "METHODS"]

#: Placements are printed (and put in JSON) only up to this n.
PRINT_MAX_N = 1000

#: The heuristics (kept here too so that building the command does not load the kernels;
#: a test checks it equals ``queenslab.heuristics.METHODS``).
METHODS = ("construct", "minconflicts", "selfcorrect", "ga", "aco")
#: The heuristics that take a seed, and the backends that do.
_SEEDED = ("minconflicts", "selfcorrect", "ga", "aco")
_SEEDED_BACKENDS = tuple(backend_options(SOLVE).get("seed", (None, []))[1])
#: The heuristics' own options: flag -> the methods that take it.
_HEURISTIC_OPTIONS = {
    "--max-steps": ("minconflicts", "selfcorrect", "ga", "aco"),
    "--restarts": ("minconflicts", "selfcorrect"),
    "--improve": ("ga",),
}
#: The older names of the exact searches under --method, and the backend each one is.
_FORMER = {"backtrack": "native", **{name: name for name in BACKENDS}}


class _Heuristic(click.Choice):
    """``--method``: one of the heuristics; an exact backend's name is refused with the
    option that takes it."""

    def __init__(self) -> None:
        super().__init__(list(METHODS))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value in _FORMER:
            self.fail(
                f"{value} is an exact backend, not a heuristic: give --backend {_FORMER[value]} "
                f"(--method takes the heuristics {', '.join(METHODS)})",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


def _choose(problem: Problem, method: str | None, backend: str | None, force: bool) -> tuple[str | None, str | None]:
    """(backend, method): the one given, or the default for ``problem``."""
    if method is not None and backend is not None:
        raise QueensError(
            f"give --backend B (an exact backend: {', '.join(exact_backends())}) or --method M (a heuristic: "
            f"{', '.join(METHODS)}), not both"
        )
    if method is not None or backend is not None:
        return backend, method
    from ..heuristics import default_solver

    return default_solver(problem, force)


def _solver_name(backend: str | None, method: str | None, default: bool) -> str:
    what = f"the {backend} backend" if backend is not None else f"the {method} heuristic"
    return f"{what} (the default here)" if default else what


def _check_options(
    backend: str | None,
    method: str | None,
    default: bool,
    seed: int | None,
    force: bool,
    heuristic_opts: dict[str, bool],
    backend_opts: dict[str, Any],
) -> None:
    """Refuse an option of the other family, naming who takes it."""
    who = _solver_name(backend, method, default)
    if seed is not None and (backend or method) not in (*_SEEDED, *_SEEDED_BACKENDS):
        raise QueensError(
            f"--seed: {who} is deterministic and takes no seed; seeds apply to --method "
            f"{', '.join(_SEEDED)} and --backend {', '.join(_SEEDED_BACKENDS)}"
        )
    if backend is not None:
        for flag, on in heuristic_opts.items():
            if on:
                raise QueensError(
                    f"{flag} is an option of the heuristics (--method {', '.join(_HEURISTIC_OPTIONS[flag])}); "
                    f"{who} does not take it"
                )
        return
    declared = backend_options(SOLVE)
    given = ["force"] if force else []
    for name in [*given, *backend_opts]:
        opt, users = declared[name]
        raise QueensError(
            f"{opt.flag} is an option of the exact backends ({', '.join(users)}; give --backend B); "
            f"{who} does not take it"
        )


def _no_solution(problem: Problem) -> str:
    if problem.is_standard:
        return f"{problem.n}-queens has none (n = 2 and n = 3 are the only board sizes without a solution)"
    reason = problem.contradiction
    return f"{problem.describe()} has none" + (f" ({reason})" if reason else "")


@click.command("solve", cls=Command)
@problem_options(optional_n=True)
@click.option(
    "--backend",
    type=click.Choice(list(BACKENDS)),
    default=None,
    help="An exact backend (any variant), as queenslab.solve(problem, backend=B): "
    + "; ".join(f"{name}: {cls.summary}" for name, cls in BACKENDS.items())
    + ". Default: native, except for the standard problem beyond the native search's practical limit "
    "(see above). Not with --method.",
)
@click.option(
    "--method",
    type=_Heuristic(),
    default=None,
    help="A heuristic (the standard problem only, any n), as queenslab.solve_large(n, M): construct (O(n), "
    "any n), minconflicts (large n), selfcorrect (ronybc's self-correcting search), ga / aco (the genetic and "
    "ant-colony methods surveyed by N. Gupta, small n). Not with --backend.",
)
@solver_options(SOLVE)
@number_option(
    "--max-steps",
    1,
    "K",
    "[heuristics] minconflicts: steps per try; selfcorrect: moves per try (default n*n); ga: generations; "
    "aco: iterations.",
)
@number_option(
    "--restarts", 0, "R", "[heuristics] minconflicts, selfcorrect: further tries after a try runs out of steps."
)
@click.option("--improve", is_flag=True, help="[heuristics] ga: apply the minimal-conflict operator to every child.")
@out_option(
    "Write the placement to F: F.npy gets the 0-based columns (an int64 array, as numpy and the Python API "
    "hold them); any other name 1-based text '2, 4, 1, 3'."
)
@json_option
def solve_cmd(
    problem: Problem,
    backend: str | None,
    method: str | None,
    backend_opts: dict,
    max_steps: int | None,
    restarts: int | None,
    improve: bool,
    out: str | None,
    as_json: bool,
) -> int:
    """Find one solution of N-queens (or a variant) and verify it.

    Prints the placement (1-based columns by row) for N <= 1000; larger ones go to --out.
    The problem is given as for every problem command: N, the variant flags, or
    --problem FILE (N may then be left out).

    Two families of solvers, named apart: --backend B runs an exact backend (native,
    cpsat, sat, ganak, cpmpy; any variant) and prints what queenslab.solve(problem,
    backend=B) returns; --method M runs a heuristic (construct, minconflicts,
    selfcorrect, ga, aco; the standard problem only, any n) and prints what
    queenslab.solve_large(N, M) returns. The options in brackets belong to the solvers
    named there; another one refuses them.

    With neither, the command solves as queenslab.solve(problem) does: the native
    backend's lexicographically first solution. The standard problem beyond that
    search's practical limit (queenslab limits lists it), where Python refuses, is
    solved by construct instead, and the command says so; --force (or --backend native
    --force) runs the search anyway.

    A problem without a solution (N = 2, N = 3, contradicting constraints) is said so,
    exit 1; so is a randomised method that runs out of steps, or a search stopped by
    --time-limit.

    \b
    JSON keys: n, problem (1-based cells), backend (null for a heuristic), method (the
    heuristic; null for a backend), seed (null for a deterministic solver), seconds,
    verified, solution (1-based; null for N > 1000 or when there is none), out, error
    (null on success).

    \b
    Examples:
      queenslab solve 8
      queenslab solve 11 --toroidal --backend cpsat
      queenslab solve --problem examples/completion-10.toml
      queenslab solve 1000000 --method minconflicts --seed 1 --out q.npy
      queenslab solve 10000 --out q10000.txt
      queenslab solve 8 --method ga --seed 3 --json
    """
    opts = dict(backend_opts)
    seed = opts.pop("seed", None)
    force = bool(opts.pop("force", False))
    default = method is None and backend is None
    backend, method = _choose(problem, method, backend, force)
    if method is not None:
        from ..heuristics import standard_only

        standard_only(problem, method)
    heuristic_opts = {"--max-steps": max_steps is not None, "--restarts": restarts is not None, "--improve": improve}
    _check_options(backend, method, default, seed, force, heuristic_opts, opts)
    n = problem.n
    name = backend if backend is not None else method
    t0 = time.perf_counter()
    error = None
    try:
        if backend is not None:
            placement = _run_backend(problem, backend, seed, force, opts)
        else:
            assert method is not None
            placement = _run_heuristic(problem, method, seed, max_steps, restarts, improve, as_json)
    except Incomplete as e:
        placement, error = None, str(e)
    seconds = time.perf_counter() - t0
    if backend is not None:
        effective_seed = (seed if seed is not None else 0) if backend in _SEEDED_BACKENDS else None
    else:
        effective_seed = (seed if seed is not None else 0) if method in _SEEDED else None
    report = functools.partial(SolveReport, n, problem, backend, method, effective_seed, seconds)
    if placement is None:
        reason = in_flags(error or _no_solution(problem))  # the command line's words: flags
        if as_json:
            emit_json(report(verified=False, solution=None, out=None, error=reason))
        else:
            click.echo(f"no solution: {reason}", err=True)
        return 1
    why = _why_not(problem, placement, backend is None)
    if why is not None:  # a defect, never bad input
        message = f"{_solver_name(backend, method, default)} returned a placement that is not a solution: {why}"
        if as_json:
            emit_json(report(verified=False, solution=None, out=None, error=message))
        else:
            click.echo(f"error: {message}", err=True)
        return 1
    fmt = write_placement(placement, out) if out else None
    shown = tuple(int(c) for c in placement) if n <= PRINT_MAX_N else None
    if as_json:
        emit_json(report(verified=True, solution=shown, out=out, error=None))
        return 0
    if shown is not None:
        click.echo(format_placement(shown, columns=problem.columns))
    label = f"{name} backend" if backend is not None else name
    click.echo(f"{label}: a solution of {problem.describe()} in {seconds:.3f} s, verified", err=True)
    if default and method is not None:
        click.echo(
            "(construct by default here: the native backend's lexicographic search, which queenslab.solve "
            "runs, is beyond its practical limit; --force runs it)",
            err=True,
        )
    if out:
        base = "0-based, npy" if fmt == "npy" else "1-based, text"
        click.echo(f"wrote the placement ({base}) to {out}", err=True)
    elif n > PRINT_MAX_N:
        click.echo(f"(placements are printed for n <= {PRINT_MAX_N}; give --out F.npy or F.txt to keep it)", err=True)
    return 0


def _run_backend(problem: Problem, backend: str, seed: int | None, force: bool, opts: dict[str, Any]):
    """``queenslab.solve(problem, backend=backend, ...)`` as an int64 array, or None."""
    import numpy as np

    from ..backends.registry import solve

    if seed is not None:
        opts = {**opts, "seed": seed}
    if force:
        opts = {**opts, "force": True}
    found = solve(problem, backend=backend, **opts)
    return None if found is None else np.asarray(found, dtype=np.int64)


def _run_heuristic(
    problem: Problem,
    method: str,
    seed: int | None,
    max_steps: int | None,
    restarts: int | None,
    improve: bool,
    as_json: bool,
):
    """``queenslab.solve_large(problem, method, ...)`` with a progress bar."""
    from ..heuristics import solve

    progress = Progress(not as_json, f"solve {problem.n} ({method})")
    try:
        return solve(
            problem,
            method,
            seed=seed,
            max_steps=max_steps,
            restarts=restarts,
            improve=improve,
            progress=progress,
        )
    finally:
        progress.close()


def _why_not(problem: Problem, placement, heuristic: bool) -> str | None:
    """Why ``placement`` is not a solution of ``problem`` (None: it is one): O(n) for the
    heuristics' large standard boards, the general check for a backend's answer."""
    if heuristic:
        from ..heuristics import find_conflict

        conflict = find_conflict(placement)
        return None if conflict is None else conflict.message
    from ..solution import why_not_solution

    return why_not_solution(problem, placement)


# --seed is declared by the backends (cpsat) and taken by the seeded heuristics too
for _param in solve_cmd.params:
    if isinstance(_param, click.Option) and _param.name == "seed":
        _param.help = (
            f"Random seed of --method {', '.join(_SEEDED)} and --backend {', '.join(_SEEDED_BACKENDS)} (default 0)."
        )
