"""``queenslab optimize``: the fewest queens that dominate a board, the most that attack no
other (:func:`queenslab.optimize.optimize`)."""

from __future__ import annotations

import click

from ..constraints import Holes
from ..problem import Problem
from ..reports import OptimiserRun, OptimumReport
from .app import Group, emit_json
from .options import Seconds, json_option, parse_cells, problem_options

#: What each objective's result is called in words.
_WORDS = {
    "dominate": "the fewest queens that occupy or attack every cell",
    "independence": "the most queens that attack no other",
}
#: The largest board drawn as text.
DRAW_MAX_N = 40
#: Seconds each optimiser may take unless --time-limit says otherwise: the exhaustive
#: search proves gamma(Q_n) up to n = 17 well within it, while CP-SAT and MaxSAT, which
#: prove n = 13 in about 100 s, stop with the bound they reached.
DEFAULT_TIME_LIMIT = 60.0


@click.group("optimize", cls=Group)
def optimize() -> None:
    """Optimise the number of queens on a board: domination and independence.

    Each objective is solved by independent optimisers that must agree: CP-SAT and MaxSAT
    (pysat's RC2) for both, and for domination the native engine's exhaustive search,
    which refutes 1, 2, 3, ... queens in turn up to the board's symmetries. The optimum is
    proved when one of them proves it (CP-SAT's OPTIMAL status, RC2 refuting every better
    value, the search's exhaustion). The variant flags say which cells may hold a queen and
    how queens attack (a torus, leapers).
    """


def _command(objective: str, summary: str, examples: str) -> None:
    @optimize.command(objective, help=f"{summary}\n\n{_HELP}\n\n\b\nExamples:\n{examples}")
    @problem_options
    @click.option(
        "--holes",
        "holes",
        multiple=True,
        metavar="R,C",
        help="A hole at row R, column C (1-based; repeatable): no queen there, no cover needed, and every line of "
        "attack stops at it, so more queens than rows can fit.",
    )
    @click.option(
        "--solver",
        type=click.Choice(["all", "search", "maxsat", "cpsat", "mip", "both"]),
        default="all",
        show_default=True,
        help="The optimisers to run. all: every optimiser of the objective (the exhaustive search, for domination "
        "without regions, then MaxSAT, CP-SAT and, with the extra queenslab[mip], the MIP solver HiGHS), each "
        "held to the others; both: MaxSAT and CP-SAT.",
    )
    @click.option(
        "--time-limit",
        type=Seconds(),
        default=DEFAULT_TIME_LIMIT,
        show_default=True,
        metavar="S",
        help="Seconds each optimiser may take; one stopped by it reports its best value and proved bound.",
    )
    @json_option
    def command(problem: Problem, holes: tuple[str, ...], solver: str, time_limit: float | None, as_json: bool) -> int:
        from ..optimize import optimize as solve

        if holes:
            problem = Problem(problem.n, constraints=[*problem.constraints, Holes(parse_cells(holes, "holes"))])

        chosen = {"all": None, "both": ("maxsat", "cpsat")}.get(solver, (solver,))
        r = solve(problem, objective, solvers=chosen, time_limit=time_limit)
        if as_json:
            emit_json(
                OptimumReport(
                    objective=objective,
                    n=problem.n,
                    problem=problem,
                    optimum=r.optimum,
                    proved=r.proved,
                    agrees=r.agrees,
                    queens=r.queens,
                    runs=tuple(OptimiserRun(x.solver, x.value, x.bound, x.proved, x.seconds) for x in r.runs),
                    time_limit=time_limit,
                )
            )
        else:
            click.echo("\n".join(_lines(r)))
        if r.agrees is False:
            click.echo("error: the optimisers disagree", err=True)
            return 1
        return 0 if r.proved else 1


_HELP = """The optimum, whether it is proved, each optimiser's value, proved bound and time, and
a witness board (1-based cells; drawn up to n = 40, Q a queen, # a hole). Exit 0 for a proved optimum on which
the optimisers agree, 1 when none proved it in time or they disagree.

\b
JSON keys: objective, n, problem, optimum (null when nothing was found), proved, agrees
(null with one optimiser), queens (the witness, 1-based [row, column] cells), runs (each
optimiser's solver, value, bound, proved and seconds), time_limit."""


def _lines(r) -> list[str]:  # r: queenslab.optimize.Optimum
    status = "proved" if r.proved else "not proved"
    agreement = {True: "; the optimisers agree", False: "; THE OPTIMISERS DISAGREE", None: ""}[r.agrees]
    out = [
        f"{r.problem.describe()}: {_WORDS[r.objective]}: "
        f"{'-' if r.optimum is None else r.optimum} ({status}{agreement})"
    ]
    for x in r.runs:
        value = "-" if x.value is None else str(x.value)
        bound = "-" if x.bound is None else str(x.bound)
        how = "proved" if x.proved else f"bound {bound}"
        out.append(f"  {x.solver:<7} {value:>4}  {how:<10} {x.seconds:8.2f} s")
    if r.queens:
        out.append("queens at " + " ".join(f"({a + 1},{b + 1})" for a, b in r.queens))
        n = r.problem.n
        if n <= DRAW_MAX_N:
            on = set(r.queens)
            holes = {cell for c in r.problem.constraints if isinstance(c, Holes) for cell in c.cells}
            mark = lambda cell: "Q" if cell in on else "#" if cell in holes else "."
            out += ["".join(mark((row, col)) for col in range(n)) for row in range(n)]
    return out


_command(
    "dominate",
    "The fewest queens that occupy or attack every cell of the board (gamma(Q_n), OEIS A075458).",
    "  queenslab optimize dominate 8\n  queenslab optimize dominate 15 --solver search     # gamma = 9, in seconds\n"
    "  queenslab optimize dominate 11 --solver cpsat --json\n  queenslab optimize dominate 9 --toroidal\n"
    "  queenslab optimize dominate 10 --solver mip",
)
_command(
    "independence",
    "The most queens no two of which attack each other (n on the standard board from n = 4; fewer where "
    "cells are blocked).",
    "  queenslab optimize independence 8 --block 1,1 --block 8,8\n  queenslab optimize independence 6 --knight\n"
    "  queenslab optimize independence 6 --holes 2,2 --holes 2,5 --holes 5,2 --holes 5,5 --holes 3,3 --holes 3,4 "
    "--holes 4,3 --holes 4,4   # 8 queens",
)
