"""``queenslab solve``: one solution by a heuristic or a backend, verified in O(n).

The method dispatch is the library's (:func:`queenslab.heuristics.solve`); the
heuristics load numba kernels, so they are imported inside the command.
"""

from __future__ import annotations

import time

import click

from ..errors import Incomplete
from ..placement_file import write_placement
from .app import cli, emit_json
from .options import Progress, force_option, json_option, number_option, out_option

__all__ = ["solve_cmd", "PRINT_MAX_N", "METHODS"]

#: Placements are printed (and put in JSON) only up to this n.
PRINT_MAX_N = 1000

#: The methods (kept here too so that building the command does not load the kernels;
#: a test checks it equals ``queenslab.heuristics.METHODS``).
METHODS = ("construct", "minconflicts", "selfcorrect", "ga", "aco", "backtrack", "cpsat", "sat")
_SEEDED = ("minconflicts", "selfcorrect", "ga", "aco", "cpsat")


@cli.command("solve")
@click.argument("n", type=int)
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="construct",
    show_default=True,
    help="construct (O(n), any n), minconflicts (large n), selfcorrect (ronybc's self-correcting search), "
    "ga / aco (the genetic and ant-colony methods surveyed by N. Gupta, small n), backtrack (native, lexicographically first), cpsat, sat.",
)
@number_option("--seed", 0, "S", "Random seed of minconflicts, selfcorrect, ga, aco, cpsat (default 0).")
@number_option(
    "--max-steps",
    1,
    "K",
    "minconflicts: steps per try; selfcorrect: moves per try (default n*n); ga: generations; aco: iterations.",
)
@number_option("--restarts", 0, "R", "minconflicts, selfcorrect: further tries after a try runs out of steps.")
@click.option("--improve", is_flag=True, help="ga: apply the minimal-conflict operator to every child.")
@force_option("the searches of backtrack, cpsat and sat")
@out_option("Write the placement (1-based) to F: F.npy (int64 array) or text '2, 4, 1, 3'.")
@json_option
def solve_cmd(n, method, seed, max_steps, restarts, improve, force, out, as_json):
    """Find one solution of N-queens and verify it (O(n) check).

    Prints the placement (1-based columns by row) for N <= 1000; larger ones go to --out.
    N = 2 and N = 3 have no solution: the command says so and exits 1; so does a
    randomised method that runs out of steps.

    \b
    JSON keys: n, method, seed (null for a deterministic method), seconds, verified,
    solution (1-based; null for N > 1000 or when there is none), out, error (null on
    success).

    \b
    Examples:
      queenslab solve 8
      queenslab solve 1000000 --method minconflicts --seed 1 --out q.npy
      queenslab solve 10000 --method construct --out q10000.txt
      queenslab solve 8 --method ga --seed 3 --json
    """
    from ..heuristics import find_conflict, solve

    progress = Progress(not as_json, f"solve {n} ({method})")
    t0 = time.perf_counter()
    error = None
    try:
        placement = solve(
            n,
            method,
            seed=seed,
            max_steps=max_steps,
            restarts=restarts,
            improve=improve,
            progress=progress,
            force=force,
        )
    except Incomplete as e:
        placement, error = None, str(e)
    finally:
        progress.close()
    seconds = time.perf_counter() - t0
    effective_seed = (0 if seed is None else seed) if method in _SEEDED else None
    result = {"n": n, "method": method, "seed": effective_seed, "seconds": round(seconds, 6)}
    if placement is None:
        reason = error or f"{n}-queens has none (n = 2 and n = 3 are the only board sizes without a solution)"
        if as_json:
            emit_json({**result, "verified": False, "solution": None, "out": None, "error": reason})
        else:
            click.echo(f"no solution: {reason}", err=True)
        return 1
    conflict = find_conflict(placement)
    if conflict is not None:  # a defect, never bad input
        message = f"{method} returned a placement that is not a solution: {conflict.message()}"
        if as_json:
            emit_json({**result, "verified": False, "solution": None, "out": None, "error": message})
        else:
            click.echo(f"error: {message}", err=True)
        return 1
    if out:
        fmt = write_placement(placement, out)
    result.update(
        verified=True, solution=[int(c) + 1 for c in placement] if n <= PRINT_MAX_N else None, out=out, error=None
    )
    if as_json:
        emit_json(result)
        return 0
    if n <= PRINT_MAX_N:
        click.echo(" ".join(map(str, result["solution"])))
    click.echo(f"{method}: a solution of {n}-queens in {seconds:.3f} s, verified", err=True)
    if out:
        click.echo(f"wrote the placement (1-based, {fmt}) to {out}", err=True)
    elif n > PRINT_MAX_N:
        click.echo(f"(placements are printed for n <= {PRINT_MAX_N}; give --out F.npy or F.txt to keep it)", err=True)
    return 0
