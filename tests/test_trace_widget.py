"""A trace in a notebook: the player widget (Play and a step slider over the board) and
its fallback, the animated SVG, where ipywidgets is not installed."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from queenslab import Problem
from queenslab.trace import record
from queenslab.trace.widget import BoardIndex, trace_widget

ipywidgets = pytest.importorskip("ipywidgets")

SVG = "{http://www.w3.org/2000/svg}"


def _queens(svg: str, n: int) -> list[int]:
    """The board an SVG frame draws: each row's queen column, -1 for none."""
    board = [-1] * n
    for use in ET.fromstring(svg).iter(f"{SVG}use"):
        if use.get("class") == "queen":
            board[int(use.get("y"))] = int(use.get("x"))
    return board


@pytest.mark.parametrize(
    "trace",
    [
        record(8, "selfcorrect", seed=1),
        record(Problem(7, blocked=[(0, 0)], fixed=[(3, 2)]), "backtrack", solutions=0),
        record(12, "minconflicts", seed=3),
    ],
    ids=["selfcorrect", "backtrack-variant", "minconflicts"],
)
def test_the_slider_draws_the_board_of_its_step(trace):
    w = trace_widget(trace, interval=50)
    assert isinstance(w.play, ipywidgets.Play) and isinstance(w.slider, ipywidgets.IntSlider)
    assert w.play.max == w.slider.max == len(trace.steps) and w.play.interval == 50
    assert (w.link.source, w.link.target) == ((w.play, "value"), (w.slider, "value"))
    assert w.play in w.children[0].children and w.board in w.children
    boards = [np.full(trace.n, -1)] + [b.copy() for b in trace.boards()]  # the trace's own replay
    assert _queens(w.board.value, trace.n) == [-1] * trace.n
    steps = sorted({1, 2, len(boards) // 3, len(boards) // 2, len(boards) - 2})
    for k in steps + steps[::-1] + [len(boards) - 1]:  # forwards, backwards (the cached frames), the end
        w.slider.value = k
        assert _queens(w.board.value, trace.n) == boards[k].tolist(), k
        assert f"step {k} of {len(trace.steps)}" in w.status.value
    assert ('class="solved"' in w.board.value) == trace.solved  # the last step is drawn


def test_the_board_index_agrees_with_the_replay_across_its_copies():
    t = record(8, "backtrack", solutions=0, max_steps=3000)
    index = BoardIndex(t)
    assert index.stride == 64 and len(index._copies) == 3000 // 64 + 1
    for k, board in enumerate(t.boards(), 1):
        if k % 7 == 0 or k % 64 in (0, 1, 63):
            assert index.at(k).tolist() == board.tolist()


def test_without_ipywidgets_the_trace_shows_as_its_animated_svg(monkeypatch):
    from IPython.display import SVG

    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import fails as if not installed
    t = record(6, "backtrack")
    fallback = t.widget()
    assert isinstance(fallback, SVG) and "<animate" in fallback.data and "<script" not in fallback.data
    from queenslab.viz.notebook import trace_player

    assert trace_player(t) is None


def test_a_kernel_shows_the_player_and_the_svg_beside_it(monkeypatch):
    from IPython.core.interactiveshell import InteractiveShell

    from queenslab.viz.notebook import register

    shell = InteractiveShell.instance()
    try:
        monkeypatch.setattr(shell, "kernel", object(), raising=False)
        assert register(shell)
        data, _ = shell.display_formatter.format(record(6, "backtrack"))
        assert "application/vnd.jupyter.widget-view+json" in data
        assert data["image/svg+xml"].startswith("<svg") and data["text/plain"].startswith("backtrack on 6-queens")
        monkeypatch.setitem(sys.modules, "ipywidgets", None)
        data, _ = shell.display_formatter.format(record(6, "backtrack"))
        assert "application/vnd.jupyter.widget-view+json" not in data and "<animate" in data["image/svg+xml"]
    finally:
        InteractiveShell.clear_instance()
