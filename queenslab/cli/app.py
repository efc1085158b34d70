"""The root of the command line: the ``queenslab`` group, the ``experiment`` group and
the entry point that turns errors into ``error: ...`` (or a JSON error) and exit codes.

Exit codes: 0 success, 1 a negative answer (not a solution, counts disagree, a count
stopped by a limit), 2 bad input, 130 interrupted, 141 standard output closed by its reader
(as for a command that SIGPIPE stops). With ``--json`` an error is printed as
``{"error": "...", "kind": "..."}`` on standard output as well.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys

import click

from .. import interrupt
from ..errors import QueensError

__all__ = ["cli", "experiment", "main", "run", "emit_json", "Command", "Group", "LazyGroup"]


class Command(click.Command):
    """A queenslab command: before it runs, the files it writes are checked against the
    files it reads and against each other (:func:`queenslab.outfile.check_distinct`), so
    that no command overwrites its own input or writes two outputs to one file.

    A parameter is a file read or written by its type's ``role`` (``"input"`` or
    ``"output"``: :class:`~queenslab.cli.options.InputPath`,
    :class:`~queenslab.cli.options.OutputPath`).
    """

    def invoke(self, ctx: click.Context) -> object:
        files: dict[str, dict[str, object]] = {"input": {}, "output": {}}
        for param in self.params:
            role = getattr(param.type, "role", None)
            value = ctx.params.get(param.name or "")
            if role in files and value is not None:
                shown = max(param.opts, key=len) if isinstance(param, click.Option) else param.human_readable_name
                files[role][shown] = value
        if files["output"]:
            from ..outfile import check_distinct

            check_distinct(files["input"], files["output"])
        return super().invoke(ctx)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The options under headings: the problem, the command's own, the backend, the
        output (:class:`~queenslab.cli.options.SectionOption`), in that order."""
        from .options import OWN, SECTIONS

        sections: dict[str, list[tuple[str, str]]] = {title: [] for title in SECTIONS}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and not isinstance(param, click.Argument):
                sections[getattr(param, "section", OWN)].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


class Group(click.Group):
    """A queenslab group: its commands and groups are queenslab's (:class:`Command`)."""

    command_class = Command
    group_class = type  # a group made by a group's .group() is of the parent's class


class LazyGroup(Group):
    """A group whose commands live in modules imported only when one of them is asked
    for, so that a fresh ``queenslab check`` loads the check command's module and not
    the compiler, the solvers or the drawing of the others.

    ``lazy`` maps each command's name to ``("module:attribute", summary)``: the module
    relative to :mod:`queenslab.cli`, and the first sentence of the command's help, which
    the group's ``--help`` lists without importing the command (``tests/test_cli.py``
    holds each summary to its command's own help).
    """

    def __init__(self, *args: object, lazy: dict[str, tuple[str, str]] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, attribute = self.lazy[cmd_name][0].split(":")
            command = getattr(importlib.import_module(f"queenslab.cli.{module}"), attribute)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as click lists them, without importing the
        commands not yet loaded."""
        names = [name for name in self.list_commands(ctx) if name in self.lazy or not self.commands[name].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = [
            (
                name,
                self.commands[name].get_short_help_str(limit)
                if name in self.commands
                else click.Command(name, help=self.lazy[name][1]).get_short_help_str(limit),
            )
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    lazy={
        "count": (
            "counting:count_cmd",
            "Count the solutions of N queens (or a variant), or of every size in a range A..B.",
        ),
        "crosscheck": (
            "crosscheck:crosscheck_cmd",
            "Count one problem on several backends, side by side; exit 1 if they disagree.",
        ),
        "export": (
            "export:export_cmd",
            "Export the model in FORMAT, for another solver to read.",
        ),
        "solutions": (
            "placements:solutions_cmd",
            "Enumerate solutions in lexicographic order (1-based columns), streaming.",
        ),
        "check": ("check:check_cmd", "Check whether PLACEMENT is a solution and say why not."),
        "show": (
            "placements:show_cmd",
            "Draw PLACEMENT as a text board (Q queen, . empty, # blocked, F missing fixed queen, a, b, ... region cells), or as a picture (--png, --svg), and say whether it is a solution: exits 0 for a solution, 1 otherwise.",
        ),
        "rank": ("ranking:rank_cmd", "Print the 1-based lexicographic rank of a solution (without enumerating)."),
        "unrank": ("ranking:unrank_cmd", "Print the R-th solution (1-based) in lexicographic order."),
        "sample": (
            "ranking:sample_cmd",
            "Print K uniformly random solutions (exactly uniform: random ranks, unranked).",
        ),
        "index": ("ranking:index_group", "The persistent prefix-count index that makes rank / unrank fast."),
        "orbits": ("symmetry:orbits_cmd", "List the fundamental solutions (one per orbit) with their orbit sizes."),
        "symmetry": ("symmetry:symmetry_group", "The permutation operation group PO = D4 (Zhang and Zhang)."),
        "solve": ("heuristics:solve_cmd", "Find one solution of N-queens (or a variant) and verify it."),
        "watch": ("watch:watch_cmd", "Watch a search solve N-queens: the board drawn step by step as the search runs."),
        "replay": (
            "watch:replay_cmd",
            "Read a trace file (written by queenslab watch --record) back: its summary, and pictures of it.",
        ),
        "estimate": (
            "estimate:estimate_cmd",
            "Estimate the number of solutions of N queens (or a variant) where counting is out of reach.",
        ),
        "optimize": ("optimize:optimize", "Optimise the number of queens on a board: domination and independence."),
        "limits": (
            "limits:limits_cmd",
            "List every practical limit: what it bounds, the largest size allowed without --force, and what a request beyond it costs.",
        ),
        "warm": ("warm:warm_cmd", "Compile the native engine's counting kernels now, so that no count waits for them."),
    },
)
@click.version_option(package_name="queenslab", prog_name="queenslab", version=None)
def cli() -> None:
    """queenslab: count, enumerate, rank, check and draw n-queens solutions and variants.

    Rows and columns on the command line are 1-based. Every command takes --json and then
    prints one JSON object with documented keys.
    """


@cli.group(
    "experiment",
    cls=LazyGroup,
    lazy={
        "growth": (
            "growth:growth_cmd",
            "How fast does the number of solutions grow? log Q(n)/n from estimates, against Simkin.",
        ),
        "completion": (
            "completion:completion_cmd",
            "n-queens completion: random partial placements, decided and counted by every backend.",
        ),
        "q-queens": (
            "qqueens:qqueens_cmd",
            "Count q queens on n x n and fit the quasipolynomial of a period through the counts.",
        ),
        "signature": (
            "symmetry:signature_cmd",
            "Are orbit signatures unique? Zhang and Zhang claim no two orbits share one.",
        ),
        "orbit-search": (
            "symmetry:orbit_search_cmd",
            "Run Zhang and Zhang's orbit-based search for N queens and report its coverage.",
        ),
    },
)
def experiment() -> None:
    """Reproducible experiments from the literature (see the experiments page of the docs)."""


def emit_json(report: object) -> None:
    """Print a report (a dataclass of :mod:`queenslab.reports`) as one JSON object on
    standard output."""
    from ..reports import to_json

    click.echo(json.dumps(to_json(report)))


def _error(message: str, kind: str, as_json: bool) -> int:
    if as_json:
        from ..reports import ErrorReport

        emit_json(ErrorReport(message, kind))
    click.echo(f"error: {message}", err=True)
    return 2


def _wants_json(args: list[str]) -> bool:
    return "--json" in args[: args.index("--")] if "--" in args else "--json" in args


def _invoke(args: list[str]) -> object:
    """Parse ``args`` and run the command, as ``cli.main(standalone_mode=False)`` does, but
    without click's handling of an interrupt (it prints an empty line before our
    ``interrupted``): the exceptions reach :func:`main` as they are."""
    with cli.make_context("queenslab", args) as ctx:
        return cli.invoke(ctx)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 negative answer, 2 bad input)."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(args)
    try:
        # the command runs off the main thread, so that Ctrl-C stops kernels and solvers
        rv: object = interrupt.run(_invoke, args)
    except click.exceptions.UsageError as e:
        name = e.ctx.command_path if e.ctx is not None and e.ctx.parent is not None else None
        hint = f" (see '{name} --help')" if name else ""
        return _error(f"{e.format_message()}{hint}", "UsageError", as_json)
    except QueensError as e:
        return _error(e.for_command_line(), type(e).__name__, as_json)
    except BrokenPipeError:
        # the reader of standard output went away (`queenslab limits | head -1`): stop
        # quietly, as a command killed by SIGPIPE does, without a traceback at exit
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141
    except MemoryError:
        # a last resort: every large array is estimated against the memory available first,
        # but a limit the estimate cannot see may still stop an allocation
        return _error(
            "ran out of memory (the request needed more than this process may allocate); "
            "try a smaller size, or raise the process's memory limit",
            "TooLarge",
            as_json,
        )
    except (KeyboardInterrupt, click.exceptions.Abort) as e:
        click.echo("interrupted", err=True)
        for line in getattr(e, "kept", ()):
            click.echo(line, err=True)
        return 130
    except click.exceptions.Exit as e:
        return e.exit_code
    return rv if isinstance(rv, int) else 0


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # stop as Ctrl-C does: a ledger keeps every finished task


def run() -> None:  # console-script entry point
    # No command uses a parallel BLAS (the kernels are numba's, the fits tiny): one
    # OpenBLAS thread spares the idle threads it would start when numpy loads, a twentieth
    # of a second of CPU in every fresh process. A value the user set is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # SIGTERM (a batch scheduler's stop, `kill`) stops the command as Ctrl-C does; a job
    # started in the background by a script has SIGINT ignored, so it is the signal that
    # reaches it
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminated)
    code = main()
    if code == 130 and interrupt.abandoned():
        # interrupted work that did not stop within the grace period: do not wait for it
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
