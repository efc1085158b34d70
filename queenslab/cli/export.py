"""``export``: a problem's model written in a solver's format."""

from __future__ import annotations

import click

from ..models.export import EXPORTS, export
from ..outfile import atomic_output
from ..problem import Problem
from ..reports import ExportReport
from .app import Command, emit_json
from .options import choice_option, force_option, json_option, out_option, problem_options


@click.command("export", cls=Command)
@click.argument("model", type=click.Choice(list(EXPORTS)), metavar="FORMAT")
@problem_options(optional_n=True)
@click.option("--encoding", default=None, metavar="E", help="cnf only: cardinality encoding (default pairwise).")
@click.option(
    "--formulation",
    type=click.Choice(["integer", "boolean"]),
    default=None,
    help="cpsat only: model formulation (default integer).",
)
@choice_option("--symmetry", ["none", "lex-leader"], "none", "Add lex-leader symmetry-breaking constraints.")
@force_option("building a model (its estimated size)")
@out_option()
@json_option
def export_cmd(
    model: str,
    problem: Problem,
    encoding: str | None,
    formulation: str | None,
    symmetry: str,
    force: bool,
    out: str | None,
    as_json: bool,
) -> int:
    """Export the model in FORMAT, for another solver to read.

    \b
    FORMAT is one of
      cnf       DIMACS CNF with a cell-variable map (SAT solvers, #SAT counters)
      cpsat     CP-SAT's text proto (OR-Tools)
      minizinc  MiniZinc (Gecode, Chuffed, ...; lex_greatereq for symmetry breaking)
      xcsp3     XCSP3, written by pycsp3 (ACE, Choco; needs queenslab[xcsp3])
      opb       pseudo-Boolean OPB (RoundingSat, Exact, Sat4j)
      lp, mps   0/1 integer program, written by HiGHS (needs queenslab[mip])
    Every format keeps the problem's variant rules; --symmetry lex-leader adds the
    constraints that keep one solution per orbit (with auxiliary variables in cnf,
    opb, lp and mps, determined by the cells: one assignment per orbit).

    \b
    JSON keys: model, n, problem, symmetry, encoding (cnf only, else null), formulation
    (cpsat only, else null), variables and clauses (cnf only, else null), out, text
    (null with --out).

    \b
    Examples:
      queenslab export cnf 8 --out q8.cnf
      queenslab export cpsat 8 --symmetry lex-leader
      queenslab export minizinc 8 --knight --symmetry lex-leader --out q8.mzn
      queenslab export xcsp3 8 --out q8.xml
      queenslab export opb 10 --toroidal
      queenslab export lp 6 --columns 8 --queens 5 --out board.lp
    """
    exported = export(problem, model, symmetry=symmetry, encoding=encoding, formulation=formulation, force=force)
    text = exported.text
    if out:
        with atomic_output(out, "w", what="--out") as fh:
            fh.write(text)
    if as_json:
        emit_json(
            ExportReport(
                model=model,
                n=problem.n,
                problem=problem,
                symmetry=symmetry,
                encoding=exported.encoding,
                formulation=exported.formulation,
                variables=exported.variables,
                clauses=exported.clauses,
                out=out,
                text=None if out else text,
            )
        )
    elif not out:
        click.echo(text, nl=False)
    else:
        click.echo(f"wrote {model} model of {problem.describe()} to {out}", err=True)
    return 0
