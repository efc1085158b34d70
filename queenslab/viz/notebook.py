"""How Jupyter shows queenslab's objects: problems as boards, counts and cross-checks as tables.

IPython chooses an object's rich display through its display formatters, which take a
function per type (``for_type``). :func:`register` gives the running IPython shell these
functions; ``import queenslab`` calls it, so that in a notebook a :class:`Problem` shows
as its board, a :class:`CountResult` or :class:`Crosscheck` as a table and a
:class:`~queenslab.trace.Trace` as a player (:func:`~queenslab.trace.widget.trace_widget`:
Play, a step slider, the board at that step) beside its animated board, while the
library's own types know nothing of drawing. The player is offered in a Jupyter kernel
with ipywidgets installed; a front end without widgets, a static page of the notebook and
a kernel without ipywidgets show the animated SVG. A :class:`~queenslab.viz.Board` (a problem
with a placement) draws itself. Outside IPython nothing happens. Where queenslab was
imported before IPython started, ``%load_ext queenslab.viz.notebook`` registers them.
"""

from __future__ import annotations

import sys
from typing import Any

from ..backends.crosscheck import Crosscheck
from ..errors import QueensError
from ..problem import Problem
from ..result import CountResult
from ..trace.animate import trace_svg
from ..trace.steps import Trace
from ..trace.widget import trace_widget
from .board import problem_html, problem_svg
from .tables import count_html, crosscheck_html, estimate_html

__all__ = ["register", "load_ipython_extension", "trace_picture", "trace_player"]


def trace_picture(trace: Trace) -> str | None:
    """A trace's animated board (:func:`~queenslab.trace.animate.trace_svg`), or None (IPython
    then shows its text) for a trace without steps or of a board too large to draw."""
    try:
        return trace_svg(trace)
    except QueensError:
        return None


def trace_player(trace: Trace) -> dict[str, Any] | None:
    """A trace's player as a mime bundle (the widget's view, a one-line ``text/plain``),
    or None (IPython then shows the animated SVG of :func:`trace_picture`) without
    ipywidgets or for a board too large to draw."""
    try:
        import ipywidgets  # noqa: F401  (only whether it is there)
    except ImportError:
        return None
    try:
        player = trace_widget(trace)
    except QueensError:
        return None
    bundle = dict(player._repr_mimebundle_())
    bundle["text/plain"] = f"{trace.method} on {trace.problem.describe()}: {len(trace.steps)} steps"
    return bundle


def register(shell: Any = None) -> bool:
    """Give IPython's display formatters queenslab's pictures and tables.

    Parameters
    ----------
    shell : IPython.core.interactiveshell.InteractiveShell, optional
        Default: the running shell, if any.

    Returns
    -------
    bool
        Whether there was a shell to register with.
    """
    if shell is None:
        ipython = sys.modules.get("IPython")  # never import IPython: only a running shell matters
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
    formatters = shell.display_formatter.formatters
    formatters["image/svg+xml"].for_type(Problem, problem_svg)
    formatters["text/html"].for_type(Problem, problem_html)
    formatters["text/html"].for_type(CountResult, count_html)
    formatters["text/html"].for_type(Crosscheck, crosscheck_html)
    # by name: the estimators (and the engine they load) are imported when an estimate is made
    formatters["text/html"].for_type_by_name("queenslab.estimate", "Estimate", estimate_html)
    formatters["image/svg+xml"].for_type(Trace, trace_picture)
    if getattr(shell, "kernel", None) is not None:  # a Jupyter kernel: a front end that may show widgets
        shell.display_formatter.mimebundle_formatter.for_type(Trace, trace_player)
    return True


def load_ipython_extension(shell: Any) -> None:
    """``%load_ext queenslab.viz.notebook``: :func:`register` with this shell."""
    register(shell)
