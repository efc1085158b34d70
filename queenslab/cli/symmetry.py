"""Commands of Zhang and Zhang: orbits, the PO group's table, signatures and the orbit search.

The commands:

* ``queenslab orbits N`` -- fundamental solutions with their orbit sizes (``--burnside``
  adds Burnside's count from the fixed-point counts, cross-checked natively);
* ``queenslab symmetry table`` -- the multiplication table of PO (Zhang and Zhang, Table 1);
* ``queenslab symmetry orbit PLACEMENT`` -- one placement's images, stabiliser, canonical
  form and orbit signature;
* ``queenslab experiment signature --max-n N`` -- are orbit signatures unique?
* ``queenslab experiment orbit-search N`` -- the orbit-based search and its coverage.

Everything is 1-based on the command line and in JSON. Heavy modules (numba, sympy) are
imported inside the commands.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import click

from .. import limits
from ..errors import QueensError
from ..provenance import environment
from ..reports import (
    BurnsideReport,
    Certified,
    Element,
    Orbit,
    OrbitSearchReport,
    OrbitsReport,
    SearchStep,
    SignatureReport,
    SignatureRow,
    SymmetryOrbitReport,
    SymmetryTableReport,
)
from .app import Command, Group, emit_json
from .options import (
    Progress,
    choice_option,
    force_option,
    json_option,
    number_option,
    out_option,
    placement_arg,
    problem_options,
)


def _text(p) -> str:
    return " ".join(str(int(c) + 1) for c in p)


def _check_n(n: int, lo: int = 1) -> None:
    if n < lo:
        raise QueensError(f"N must be at least {lo}, got {n}")


def _plot_option(what: str) -> Callable:
    """``--plot F``: draw the experiment's figure to F (.png or .svg)."""
    return out_option(
        f'Also draw {what} to F: a .png or .svg file (needs matplotlib: pip install "queenslab[plot]").',
        flag="--plot",
    )


def _check_plot(path: str | None) -> None:
    """Refuse an unusable --plot file (its type, or no matplotlib) before the experiment runs."""
    if path is not None:
        from ..plot import check_path

        check_path(path, "--plot")


# ----------------------------------------------------------------------------- orbits


@click.command("orbits", cls=Command)
@problem_options(optional_n=True)
@number_option("--limit", 0, "K", "At most K orbits.")
@click.option(
    "--burnside",
    is_flag=True,
    help="Also count the orbits by Burnside's lemma (fixed points of each element) and cross-check.",
)
@force_option("listing every orbit and of the search for the first solution")
@json_option
def orbits_cmd(problem, limit, burnside, force, as_json):
    """List the fundamental solutions (one per orbit) with their orbit sizes.

    The representative of each orbit is its lexicographically least member; they come in
    lexicographic order. The orbits are those of the problem's symmetry group (all of PO
    for the standard problem). For the standard problem the counts are compared with OEIS
    A002562 / A000170 and the command exits 1 if they disagree.

    \b
    JSON keys: n, orbits (each: solution, size), unique (the orbits listed), count (their
    solutions), complete, group, known_unique, agrees, problem, burnside (null without
    --burnside; else fixed, unique, native_unique, agrees).

    \b
    Examples:
      queenslab orbits 8
      queenslab orbits 10 --limit 5 --json
      queenslab orbits 8 --burnside
      queenslab orbits 7 --fix 1,1
    """
    from ..data import known_total, known_unique
    from ..symmetry.orbits import burnside as burnside_count, fundamental_solutions

    n = problem.n
    if burnside and limit is not None:
        raise QueensError("--burnside counts every orbit; it cannot be combined with --limit")
    orbits = []
    count = total = 0
    for f in fundamental_solutions(problem, limit=limit, force=force):
        count += 1
        total += f.size
        if as_json:
            orbits.append(Orbit(tuple(f.solution), f.size))
        else:
            click.echo(f"{_text(f.solution)}  size {f.size}")
    complete = limit is None or count < limit
    known_u = known_unique(n) if problem.is_standard and complete else None
    known_t = known_total(n) if problem.is_standard and complete else None
    agree = (known_u is None or count == known_u) and (known_t is None or total == known_t)
    b = burnside_count(problem, force=force) if burnside else None
    if b is not None:
        agree = agree and b.agrees and b.orbits == count
    if as_json:
        emit_json(
            OrbitsReport(
                n=n,
                orbits=tuple(orbits),
                unique=count,
                count=total,
                complete=complete,
                group=tuple(g.po for g in problem.symmetries()),
                known_unique=known_u,
                agrees=agree,
                problem=problem,
                burnside=None if b is None else BurnsideReport(b.by_name(), b.orbits, b.native_unique, b.agrees),
            )
        )
    else:
        what = "orbit" if count == 1 else "orbits"
        line = f"{count} {what} ({total} solutions) of {problem.describe()}"
        if not complete:
            line = f"first {line}"
        elif known_u is not None:
            line += f"; known {known_u} / {known_t}: " + ("agrees" if agree else "DISAGREES")
        click.echo(line)
        if b is not None:
            fixed = ", ".join(f"{k} {v}" for k, v in b.by_name().items())
            click.echo(f"fixed points: {fixed}")
            click.echo(
                f"Burnside: {sum(b.fixed)} / {len(b.fixed)} = {b.orbits} orbits; native count "
                f"{b.native_unique}: " + ("agrees" if b.agrees else "DISAGREES")
            )
    if not agree:
        click.echo("error: the orbit counts disagree", err=True)
        return 1
    return 0


# ----------------------------------------------------------------------------- symmetry group


@click.group("symmetry", cls=Group)
def symmetry_group() -> None:
    """The permutation operation group PO = D4 (Zhang and Zhang)."""


@symmetry_group.command("table")
@json_option
def table_cmd(as_json):
    """Print the multiplication table of the permutation operation group PO (Table 1).

    Row po_i, column po_j holds the operation "apply po_i, then po_j", the reading of
    Table 1 of Zhang and Zhang's "An Algebraic Method for the N-Queens Problem Based on
    Permutation Operation Group".

    \b
    Examples:
      queenslab symmetry table
      queenslab symmetry table --json

    \b
    JSON keys: table, reading, elements (each: name, definition, geometry,
    document_geometry, flags, inverse).
    """
    from ..d4 import PO, multiplication_table

    table = multiplication_table()
    reading = "row i, column j: apply po_i first, then po_j (po_j composed with po_i)"
    if as_json:
        emit_json(
            SymmetryTableReport(
                table=tuple(tuple(g.po for g in row) for row in table),
                reading=reading,
                elements=tuple(
                    Element(g.po, g.operations, g.name, g.document_geometry, tuple(g.flags), g.inverse().po) for g in PO
                ),
            )
        )
        return 0
    click.echo(f"Table 1 of Zhang and Zhang ({reading})")
    click.echo("      " + " ".join(f"{g.po:>4}" for g in PO))
    for g, row in zip(PO, table):
        click.echo(f"{g.po:>4}  " + " ".join(f"{h.po:>4}" for h in row))
    click.echo("")
    for g in PO:
        click.echo(f"{g.po}  {g.operations:<18} {g.name:<24} inverse {g.inverse().po}")
    return 0


@symmetry_group.command("orbit")
@click.argument("placement", nargs=-1)
@json_option
def orbit_cmd(placement, as_json):
    """Show the orbit of PLACEMENT under PO: images, stabiliser, canonical form, signature.

    PLACEMENT lists the 1-based column of each row: '2 4 1 3', 2,4,1,3 or 2413. It need not
    be a solution.

    \b
    JSON keys: n, placement, valid, images, orbit, size, stabilizer, canonical,
    raw_signature, signature.

    \b
    Examples:
      queenslab symmetry orbit 1 6 8 3 7 4 2 5
      queenslab symmetry orbit 2413 --json
    """
    from ..d4 import PO, as_permutation
    from ..problem import Problem
    from ..solution import is_solution, parse_placement
    from ..symmetry.orbits import canonical, orbit, stabilizer
    from ..symmetry.signature import raw_signature, signature

    p = parse_placement(placement_arg(placement))
    as_permutation(p)  # parse_placement checks the range; a permutation is also needed
    members = orbit(p)
    stab = stabilizer(p)
    canon = canonical(p)
    sol = is_solution(Problem(len(p)), p)
    sig = signature(p)
    if as_json:
        emit_json(
            SymmetryOrbitReport(
                n=len(p),
                placement=tuple(p),
                valid=sol,
                images={g.po: tuple(g.apply(p)) for g in PO},
                orbit=tuple(tuple(m) for m in members),
                size=len(members),
                stabilizer=tuple(g.po for g in stab),
                canonical=tuple(canon),
                raw_signature=raw_signature(p),
                signature=sig,
            )
        )
        return 0
    click.echo(f"{_text(p)}: {'a solution' if sol else 'not a solution'}; orbit of {len(members)} under PO")
    for g in PO:
        click.echo(f"  {g.po} {g.operations:<18} {g.name:<24} {_text(g.apply(p))}")
    click.echo(f"stabiliser: {', '.join(g.po for g in stab)}")
    click.echo(f"canonical:  {_text(canon)}")
    sx, sy = raw_signature(p)
    click.echo(f"Sig_x: {' '.join(str(t).replace(' ', '') for t in sx)}")
    click.echo(f"Sig_y: {' '.join(str(t).replace(' ', '') for t in sy)}")
    return 0


# ----------------------------------------------------------------------------- experiments


def _certify(n: int, force: bool) -> Certified:
    """The ambiguous solutions of order n grouped into orbits and by document signature."""
    from ..symmetry.orbits import canonical
    from ..symmetry.signature import ambiguous_solutions, signature

    t0 = time.perf_counter()
    amb = ambiguous_solutions(n, force=force)
    groups: dict = {}
    for p in amb:
        groups.setdefault(signature(p), set()).add(canonical(p))
    collisions = [sorted(g) for g in groups.values() if len(g) > 1]
    return Certified(
        n=n,
        ambiguous_solutions=len(amb),
        ambiguous_orbits=len({canonical(p) for p in amb}),
        collisions=tuple(tuple(g) for g in sorted(collisions)),
        seconds=time.perf_counter() - t0,
    )


@click.command("signature", cls=Command)
@click.option("--max-n", "max_n", type=int, required=True, metavar="N", help="Largest board size.")
@click.option("--min-n", "min_n", type=int, default=4, show_default=True, metavar="M", help="Smallest board size.")
@click.option(
    "--criterion",
    type=click.Choice(["document", "oriented", "both"]),
    default="document",
    show_default=True,
    help="How signatures are compared.",
)
@click.option(
    "--certify-to",
    "certify_to",
    type=int,
    default=None,
    metavar="P",
    help="Then check n = max-n+1 .. P through the ambiguous solutions only.",
)
@_plot_option("the orbits and distinct signatures by n (log scale, collisions marked)")
@force_option("--max-n and --certify-to")
@json_option
def signature_cmd(max_n, min_n, criterion, certify_to, plot, force, as_json):
    """Are orbit signatures unique? Zhang and Zhang claim no two orbits share one.

    For every n from --min-n to --max-n, every orbit of the standard problem is taken
    once and its signature computed (Zhang and Zhang, Sequential-Reverse criterion;
    --criterion oriented for the stricter variant, both for both). Reports the number of
    orbits, of distinct signatures, and every collision. Exits 1 if there is a collision.

    --certify-to P goes on from --max-n + 1 to P without enumerating the orbits: only
    orbits whose Sig_x and Sig_y are both alternating can share a signature under the paper's criterion signature
    (docs/symmetry.md), and those solutions are few and found directly.

    --plot F draws the number of orbits and of distinct signatures of each criterion
    against n (log scale; a collision is marked) to F, a .png or .svg file.

    \b
    JSON keys: experiment, min_n, max_n, results (each: n, criterion, unique, known_unique,
    signatures, collisions, ambiguous, seconds), certified (each: n, ambiguous_solutions,
    ambiguous_orbits, collisions, seconds), distinct_signatures (whether no two orbits
    share a signature), plot, provenance.

    \b
    Examples:
      queenslab experiment signature --max-n 12
      queenslab experiment signature --max-n 14 --criterion both --json
      queenslab experiment signature --max-n 14 --certify-to 30
      queenslab experiment signature --max-n 12 --criterion both --plot signatures.svg
    """
    from ..data import known_unique
    from ..symmetry.signature import AMBIGUOUS, COLLISIONS, signature_collisions

    if min_n < 1:
        raise QueensError(f"--min-n must be at least 1, got {min_n}")
    if max_n < min_n:
        raise QueensError(f"--max-n ({max_n}) must be at least --min-n ({min_n})")
    limits.check(COLLISIONS, max_n, force)
    if certify_to is not None:
        limits.check(AMBIGUOUS, certify_to, force)
    _check_plot(plot)
    criteria = ("document", "oriented") if criterion == "both" else (criterion,)
    rows = []
    bar = Progress(not as_json, "signatures")
    try:
        for n in range(min_n, max_n + 1):
            for crit in criteria:
                r = signature_collisions(n, crit, progress=bar)
                rows.append(r)
    finally:
        bar.close()
    certified = [_certify(n, force) for n in range(max_n + 1, (certify_to or 0) + 1)]
    any_collision = any(r.collisions for r in rows) or any(c.collisions for c in certified)
    if plot is not None:
        from .. import plot as figures

        figures.save(figures.signatures([(r.n, r.orbits, r.signatures, r.criterion) for r in rows]), plot)
    if as_json:
        emit_json(
            SignatureReport(
                experiment="signature",
                min_n=min_n,
                max_n=max_n,
                results=tuple(
                    SignatureRow(
                        n=r.n,
                        criterion=r.criterion,
                        unique=r.orbits,
                        known_unique=known_unique(r.n),
                        signatures=r.signatures,
                        collisions=tuple(tuple(tuple(p) for p in g) for g in r.collisions),
                        ambiguous=r.ambiguous if r.criterion == "document" else None,
                        seconds=r.seconds,
                    )
                    for r in rows
                ),
                certified=tuple(certified),
                distinct_signatures=not any_collision,
                plot=plot,
                provenance=environment(),
            )
        )
    else:
        click.echo(
            f"{'n':>3} {'criterion':<9} {'orbits':>9} {'signatures':>11} {'collisions':>10} {'ambiguous':>9} {'seconds':>8}"
        )
        for r in rows:
            amb = str(r.ambiguous) if r.criterion == "document" else "-"
            click.echo(
                f"{r.n:>3} {r.criterion:<9} {r.orbits:>9} {r.signatures:>11} {len(r.collisions):>10} {amb:>9} {r.seconds:>8.2f}"
            )
            for g in r.collisions:
                click.echo("      shared by: " + " | ".join(_text(p) for p in g))
        if certified:
            click.echo("beyond the enumeration: only orbits whose Sig_x and Sig_y are both alternating can collide")
            click.echo(f"{'n':>3} {'ambiguous solutions':>20} {'orbits':>7} {'collisions':>10} {'seconds':>8}")
            for c in certified:
                click.echo(
                    f"{c.n:>3} {c.ambiguous_solutions:>20} {c.ambiguous_orbits:>7} "
                    f"{len(c.collisions):>10} {c.seconds:>8.2f}"
                )
        click.echo(
            "no two orbits share a signature" if not any_collision else "COLLISIONS: some orbits share a signature"
        )
        if plot is not None:
            click.echo(f"figure: {plot}")
    return 1 if any_collision else 0


@click.command("orbit-search", cls=Command)
@click.argument("n", type=int)
@choice_option("--strategy", ["bfs", "dfs"], "bfs", "Order in which step 2 extends the orbits.")
@choice_option("--key", ["signature", "canonical"], "signature", "How a new orbit is recognised.")
@force_option("the search")
@_plot_option("the orbits found at each generation of moves against the true number")
@json_option
def orbit_search_cmd(n, strategy, key, force, plot, as_json):
    """Run Zhang and Zhang's orbit-based search for N queens and report its coverage.

    Step 1 applies Inc at every pair of gaps to every solution of N-1 queens; step 2
    applies Mov to every queen of every solution on each orbit found (breadth-first or
    depth-first) until no orbit is left to extend. Prints the trajectory (which orbit and
    which operation produced each new orbit, in the paper's notation) and the number
    of orbits found against the true number. Orbits are numbered 1.. by the lexicographic
    order of their least members (the paper's numbering); "solution k" is the k-th
    solution in lexicographic order.

    Exits 0 whether or not every orbit is reached (the coverage is the result).

    --plot F draws the run to F, a .png or .svg file: the new orbits of each generation
    (0: found by Inc in step 1; k: reached by k Mov steps from those), the orbits found so
    far, and the true number of orbits.

    \b
    JSON keys: experiment, n, strategy, key, step1_solutions, step1_orbits, found, unique
    (the true number of orbits), complete, coverage, trajectory (each: orbit_number, step,
    parent, operation, source, source_rank, generator, generator_rank, size, canonical),
    missing, seconds, plot, provenance.

    \b
    Examples:
      queenslab experiment orbit-search 8
      queenslab experiment orbit-search 10 --strategy dfs --json
      queenslab experiment orbit-search 10 --plot orbit-search-10.svg
    """
    from ..backends import solutions
    from ..problem import Problem
    from ..symmetry.operators import search_orbits

    _check_n(n)
    _check_plot(plot)
    bar = Progress(not as_json, f"orbit search {n}")
    try:
        res = search_orbits(n, strategy=strategy, key=key, force=force, progress=bar)
    finally:
        bar.close()
    ranks = {}
    if n <= 13:
        for k, s in enumerate(solutions(Problem(n))):
            ranks[s] = k + 1
        if n > 1:
            for k, s in enumerate(solutions(Problem(n - 1))):
                ranks[s] = k + 1

    def label(d):
        return res.rank(d.canonical) + 1

    trajectory = []
    for d in res.discoveries:
        parent = None if d.parent is None else label(res.discoveries[d.parent])
        op = d.operation
        item = SearchStep(
            orbit_number=label(d),
            step=d.step,
            parent=parent,
            operation=op.document(),
            source=tuple(d.source),
            source_rank=ranks.get(d.source),
            generator=tuple(d.generator),
            generator_rank=ranks.get(d.generator),
            size=d.size,
            canonical=tuple(d.canonical),
        )
        trajectory.append(item)
    missing = tuple(tuple(c) for c in res.missing())
    if plot is not None:
        from .. import plot as figures

        generation = []  # Mov steps from a step-1 orbit, along the search's own path
        for d in res.discoveries:
            generation.append(0 if d.parent is None else generation[d.parent] + 1)
        figures.save(figures.orbit_generations(generation, res.total, n=n), plot)
    if as_json:
        emit_json(
            OrbitSearchReport(
                experiment="orbit-search",
                n=n,
                strategy=strategy,
                key=key,
                step1_solutions=res.step1_solutions,
                step1_orbits=len(res.step1),
                found=res.found,
                unique=res.total,
                complete=res.complete,
                coverage=res.found / res.total if res.total else None,
                trajectory=tuple(trajectory),
                missing=missing,
                seconds=res.seconds,
                plot=plot,
                provenance=environment(),
            )
        )
        return 0
    click.echo(
        f"orbit search for {n} queens ({strategy}, orbits recognised by {key}); "
        "operations in Zhang and Zhang's notation: Inc(Row, Col), Mov(OldRow, OldCol, NewRow, NewCol), "
        "Row = value, Col = position, 1-based"
    )
    click.echo(f"step 1: Inc on the {res.step1_solutions} solutions of {n - 1} queens found {len(res.step1)} orbits")
    for t in trajectory:
        if t.step == 1:
            click.echo(f"  orbit {t.orbit_number}: {t.operation} on ({_text(t.source)}) gives ({_text(t.generator)})")
    if any(t.step == 2 for t in trajectory):
        click.echo("step 2: Mov")
    for t in trajectory:
        if t.step == 2:
            sr = f", solution {t.source_rank}" if t.source_rank else ""
            gr = f", solution {t.generator_rank}" if t.generator_rank else ""
            click.echo(
                f"  orbit {t.orbit_number} <- orbit {t.parent}: {t.operation} on ({_text(t.source)}{sr}) "
                f"gives ({_text(t.generator)}{gr})"
            )
    pct = 100.0 * res.found / res.total if res.total else 0.0
    click.echo(f"coverage: {res.found} of {res.total} orbits ({pct:.1f}%), {res.seconds:.2f} s")
    if missing:
        shown = missing[:20]
        click.echo(
            "not reached: "
            + "; ".join(_text(m) for m in shown)
            + (f"; ... ({len(missing) - len(shown)} more)" if len(missing) > len(shown) else "")
        )
    if plot is not None:
        click.echo(f"figure: {plot}")
    return 0
