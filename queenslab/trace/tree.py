"""The search tree of a backtracking trace, drawn with matplotlib.

Backtracking places one queen per row, top-down: each ``place`` or ``move`` step of row r
opens a node (the queen's column) under the current node of row r - 1. :func:`search_tree`
rebuilds the tree from the steps; :func:`tree_figure` draws it with the root on top, a
row per level and the leaves left to right in the order the search reached them (the
lexicographic order), solutions green, dead ends (a leaf that is no solution) red.
:func:`write_tree` saves the figure as PNG or SVG through :func:`queenslab.plot.save`.

The tree is sized before it is drawn: at most :data:`MAX_TREE_NODES` nodes
(:data:`TREE_NODES`) and :data:`MAX_TREE_ROWS` rows (:data:`TREE_ROWS`, the boards a
backtracking trace is recorded on), and the memory of the figure's pixels is estimated
and refused beyond what is available. Rebuilding the tree looks at the stop flag as it
goes, so Ctrl-C stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import interrupt, limits, validate
from ..errors import MissingDependency, QueensError, setting
from .rules import checked
from .steps import Trace

__all__ = [
    "MAX_TREE_NODES",
    "MAX_TREE_ROWS",
    "TREE_NODES",
    "TREE_ROWS",
    "Node",
    "search_tree",
    "tree_figure",
    "write_tree",
]

#: The most nodes drawn: beyond, the picture is a smear (record fewer steps). Measured on
#: a shared 2-core machine: 3000 nodes of 12 or 64 queens take about 2 s as PNG or SVG.
TREE_NODES = limits.declare(
    "drawing a search tree",
    3000,
    "nodes",
    "every node is a marker and an edge of one figure at most 16 inches wide: beyond 3000 nodes they merge into a "
    "smear; 3000 nodes take about 2 s",
    forceable=False,
)
MAX_TREE_NODES = TREE_NODES.largest
#: The most rows drawn: backtracking is traced on the native engine's 64-bit rows, and the
#: figure is 0.45 inches a row (a tree of n = 20000 would be a figure 9000 inches high).
TREE_ROWS = limits.declare(
    "the rows of a search tree",
    64,
    "n",
    "backtracking is traced on the native engine's 64-bit rows; the figure is 0.45 inches a row, and a taller one "
    "takes minutes to lay out and more pixels than a picture holds",
    forceable=False,
)
MAX_TREE_ROWS = TREE_ROWS.largest
#: Steps looked at between two looks at the stop flag.
_CHECK_EVERY = 1 << 14
#: Dots per inch of the PNG (:func:`queenslab.plot.save`) and bytes a pixel takes while
#: it is drawn and encoded (RGBA, and the PNG's copy).
_DPI = 150
_PIXEL_BYTES = 8
#: Bytes a node takes in the figure (its marker, edge and colour, as matplotlib keeps them).
_NODE_BYTES = 2048


@dataclass
class Node:
    """One queen placed by the search: its row, column, parent node (-1: the empty board)
    and whether the board it completes is a solution."""

    row: int
    col: int
    parent: int
    solution: bool = False
    children: int = 0


def search_tree(trace: Trace) -> list[Node]:
    """The nodes of a backtracking trace's search tree, in the order the search opened them.

    Raises
    ------
    QueensError
        For a trace of another method (those move queens on a full board: no tree), or
        what is not a trace whose steps its method can take
        (:func:`~queenslab.trace.rules.checked`).
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).

    Examples
    --------
    >>> from queenslab.trace import record
    >>> [(v.row, v.col, v.parent, v.solution) for v in search_tree(record(4, "backtrack"))][-4:]
    [(0, 1, -1, False), (1, 3, 4, False), (2, 0, 5, False), (3, 2, 6, True)]
    """
    if checked(trace).method != "backtrack":
        raise QueensError(
            f"the search tree is drawn for backtracking traces; {trace.method} moves queens on a whole board "
            "(use the animation or the frames)"
        )
    nodes: list[Node] = []
    path: list[int] = []  # the node of each row on the current branch
    for i, step in enumerate(trace.steps):
        if i % _CHECK_EVERY == 0:
            interrupt.check()
        if step.op in ("place", "move"):
            del path[step.row :]
            parent = path[-1] if path else -1
            nodes.append(Node(step.row, step.col, parent))
            if parent >= 0:
                nodes[parent].children += 1
            path.append(len(nodes) - 1)
        elif step.op == "remove":
            del path[step.row :]
        elif step.op == "solution" and path:
            nodes[path[-1]].solution = True
    return nodes


def _layout(nodes: list[Node]) -> list[float]:
    """x of every node: leaves 0, 1, 2, ... in order, a parent midway over its children."""
    x = [0.0] * len(nodes)
    span: list[list[float]] = [[] for _ in nodes]
    leaf = 0
    for i, node in enumerate(nodes):
        if node.children == 0:
            x[i] = float(leaf)
            leaf += 1
    for i in range(len(nodes) - 1, -1, -1):  # children come after their parent
        if nodes[i].children:
            x[i] = (min(span[i]) + max(span[i])) / 2
        if nodes[i].parent >= 0:
            span[nodes[i].parent].append(x[i])
    return x


def tree_figure(trace: Trace) -> Any:
    """The search tree of a backtracking trace as a matplotlib figure.

    Raises
    ------
    QueensError
        A trace of another method, or without steps.
    TooLarge
        Before the tree is built: more than :data:`MAX_TREE_NODES` nodes or
        :data:`MAX_TREE_ROWS` rows; before it is drawn, a figure beyond the memory
        available (naming the memory needed and available).
    MissingDependency
        Without matplotlib.
    KeyboardInterrupt
        :class:`~queenslab.interrupt.Interrupted` when a stop is requested (Ctrl-C).
    """
    _check_size(trace)
    nodes = search_tree(trace)
    if not nodes:
        raise QueensError("the trace has no steps to draw")
    leaves = sum(1 for v in nodes if v.children == 0)
    n = trace.n
    size = (min(16.0, 2.0 + 0.12 * leaves), 1.0 + 0.45 * n)
    pixels = round(size[0] * _DPI) * round(size[1] * _DPI)
    validate.memory(
        pixels * _PIXEL_BYTES + len(nodes) * _NODE_BYTES,
        f"the search tree of {len(nodes)} nodes ({round(size[0] * _DPI)} x {round(size[1] * _DPI)} pixels)",
        f"record fewer steps, {setting('max_steps=K', '--max-steps K')}, or fewer solutions",
    )
    try:
        from matplotlib.collections import LineCollection
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - the plot extra is installed in the tests
        raise MissingDependency("the search tree needs matplotlib: pip install 'queenslab[plot]'") from None
    x = _layout(nodes)
    fig = Figure(figsize=size)
    ax = fig.add_subplot()
    root = (max(x) + min(x)) / 2 if nodes else 0.0
    # the edges as one collection: a line each would be an artist of its own, drawn one by one
    edges = []
    for i, v in enumerate(nodes):
        px, py = (x[v.parent], v.row - 1) if v.parent >= 0 else (root, -1)
        edges.append([(px, py), (x[i], v.row)])
    ax.add_collection(LineCollection(edges, colors="#9a8f80", linewidths=0.6, zorder=1))
    interrupt.check()
    colours = ["#2ca02c" if v.solution else "#d62728" if v.children == 0 else "#3f51b5" for v in nodes]
    ax.scatter(x, [v.row for v in nodes], s=12 if len(nodes) > 200 else 24, c=colours, zorder=2, linewidths=0)
    ax.scatter([root], [-1], s=24, c="#111111", zorder=2)
    if len(nodes) <= 80:
        for i, v in enumerate(nodes):
            ax.annotate(str(v.col + 1), (x[i], v.row), xytext=(3, 2), textcoords="offset points", fontsize=6)
    ax.set_ylim(n - 0.5, -1.5)
    ax.set_yticks(range(n), [str(r + 1) for r in range(n)])
    ax.set_ylabel("row")
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    found = sum(v.solution for v in nodes)
    ax.set_title(
        f"backtracking on {trace.problem.describe()}: {len(nodes)} queens placed, {found} solution"
        f"{'' if found == 1 else 's'} (green), dead ends red",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def _check_size(trace: Trace) -> None:
    """Refuse a tree beyond :data:`TREE_ROWS` or :data:`TREE_NODES`, before it is built."""
    if checked(trace).method != "backtrack":
        search_tree(trace)  # the error for a trace of another method
    n = trace.n
    limits.check(TREE_ROWS, n, request=f"the search tree of a trace of {n} queens")
    nodes = 0
    for i, step in enumerate(trace.steps):
        if i % _CHECK_EVERY == 0:
            interrupt.check()
        nodes += step.op in ("place", "move")
    limits.check(
        TREE_NODES,
        nodes,
        request=f"the search tree of {nodes:,} nodes",
        hint=f"record fewer steps, {setting('max_steps=K', '--max-steps K')}, or fewer solutions",
    )


def write_tree(path: object, trace: Trace) -> str:
    """Write :func:`tree_figure` to ``path`` (``.png`` or ``.svg``; whole or not at all).

    Raises
    ------
    QueensError, TooLarge, MissingDependency, KeyboardInterrupt
        As :func:`tree_figure`, and for a path that cannot be written.
    """
    from .. import plot

    plot.check_path(path, "search tree")
    return plot.save(tree_figure(trace), path)
