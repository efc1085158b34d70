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


class Group(click.Group):
    """A queenslab group: its commands and groups are queenslab's (:class:`Command`)."""

    command_class = Command
    group_class = type  # a group made by a group's .group() is of the parent's class


class LazyGroup(Group):
    """A group whose commands live in modules imported only when one of them is asked
    for, so that a fresh ``queenslab check`` loads the check command's module and not
    the compiler, the solvers or the drawing of the others.

    ``lazy`` maps each command's name to ``"module:attribute"`` (the module relative to
    :mod:`queenslab.cli`). Listing the commands (``--help``) imports every command
    module, which none of them makes heavy: each imports numba, solvers and plotting
    inside the commands that use them.
    """

    def __init__(self, *args: object, lazy: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, attribute = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(f"queenslab.cli.{module}"), attribute)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    lazy={
        "count": "counting:count_cmd",
        "crosscheck": "counting:crosscheck_cmd",
        "export": "counting:export_cmd",
        "solutions": "placements:solutions_cmd",
        "check": "check:check_cmd",
        "show": "placements:show_cmd",
        "rank": "ranking:rank_cmd",
        "unrank": "ranking:unrank_cmd",
        "sample": "ranking:sample_cmd",
        "index": "ranking:index_group",
        "orbits": "symmetry:orbits_cmd",
        "symmetry": "symmetry:symmetry_group",
        "solve": "heuristics:solve_cmd",
        "watch": "watch:watch_cmd",
        "replay": "watch:replay_cmd",
        "estimate": "estimate:estimate_cmd",
        "optimize": "optimize:optimize",
        "limits": "limits:limits_cmd",
        "warm": "warm:warm_cmd",
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
        "growth": "growth:growth_cmd",
        "completion": "completion:completion_cmd",
        "q-queens": "qqueens:qqueens_cmd",
        "signature": "symmetry:signature_cmd",
        "orbit-search": "symmetry:orbit_search_cmd",
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
        return _error(str(e), type(e).__name__, as_json)
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
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("interrupted", err=True)
        return 130
    except click.exceptions.Exit as e:
        return e.exit_code
    return rv if isinstance(rv, int) else 0


def run() -> None:  # console-script entry point
    # No command uses a parallel BLAS (the kernels are numba's, the fits tiny): one
    # OpenBLAS thread spares the idle threads it would start when numpy loads, a twentieth
    # of a second of CPU in every fresh process. A value the user set is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    code = main()
    if code == 130 and interrupt.abandoned():
        # interrupted work that did not stop within the grace period: do not wait for it
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
