"""queenslab watch draws the search while it runs: the trace file it records is the one
the record-then-print path writes, the display starts before the search ends, and
Ctrl-C stops both."""

from __future__ import annotations

import threading

import pytest
from clirun import run_cli

from queenslab import interrupt
from queenslab.cli import watch
from queenslab.trace import read_trace, record

CASES = [
    ("backtrack", 8, ["--solutions", 0]),
    ("backtrack", 9, ["--block", "1,1", "--fix", "2,5"]),
    ("selfcorrect", 8, ["--seed", 3]),
    ("minconflicts", 30, ["--seed", 2]),
    ("ga", 7, ["--seed", 1]),
    ("orbit-search", 8, []),
]


def _terminal(monkeypatch):
    monkeypatch.setattr(watch.sys.stdout, "isatty", lambda: True, raising=False)


@pytest.mark.parametrize("method, n, flags", CASES, ids=lambda c: str(c))
@pytest.mark.parametrize("delay", [0, 0.01])
def test_the_live_display_records_the_file_the_plain_path_writes(
    capsys, monkeypatch, tmp_path, method, n, flags, delay
):
    plain = tmp_path / "plain.jsonl"
    code, out, _ = run_cli(capsys, monkeypatch, "watch", n, "--method", method, *flags, "--record", plain)
    assert code == 0 and len(out.splitlines()) == 1  # no terminal: the final line only
    _terminal(monkeypatch)
    if delay:
        monkeypatch.setattr(watch.time, "sleep", lambda _s: None)  # every step is drawn, without waiting
    live = tmp_path / "live.jsonl"
    code, out, _ = run_cli(
        capsys, monkeypatch, "watch", n, "--method", method, *flags, "--delay", delay, "--record", live
    )
    assert code == 0 and "step " in out
    assert live.read_bytes() == plain.read_bytes()
    trace = read_trace(live)
    options = {"seed": trace.seed} if trace.seed is not None else {}
    if method == "backtrack":
        options["solutions"] = trace.options["solutions"]
    # and both are the trace record gives (independently of the command line)
    assert trace == record(trace.problem, method, max_steps=watch.WATCH_MAX_STEPS, **options)
    assert out.rstrip().endswith(out.rstrip().splitlines()[-1]) and "last board" in out.splitlines()[-1]


def test_the_board_is_drawn_before_the_search_ends(capsys, monkeypatch):
    """The search is held after its first chunk until the display has drawn a queen: a
    display that waited for the whole trace would never draw it, and the hold would time out."""
    _terminal(monkeypatch)
    drawn = threading.Event()
    real_recording, real_board = watch.recording, watch._board_text
    waited: list[bool] = []

    def board_text(problem, board, blocked):
        if (board >= 0).any():
            drawn.set()
        return real_board(problem, board, blocked)

    class Held:
        def __init__(self, rec):
            self.rec = rec
            self.__dict__.update({k: getattr(rec, k) for k in ("method", "problem", "seed")})

        def __iter__(self):
            for i, chunk in enumerate(self.rec):
                yield chunk
                if i == 0:
                    waited.append(drawn.wait(10))

        def trace(self):
            return self.rec.trace()

    monkeypatch.setattr(watch, "recording", lambda *a, **k: Held(real_recording(*a, **k)))
    monkeypatch.setattr(watch, "_board_text", board_text)
    code, out, _ = run_cli(capsys, monkeypatch, "watch", 8, "--method", "ga", "--seed", 1, "--delay", 0)
    assert code == 0 and waited == [True]


@pytest.mark.parametrize("delay", [0, 0.01])
def test_ctrl_c_stops_the_display_and_the_search_and_writes_no_file(capsys, monkeypatch, tmp_path, delay):
    """Ctrl-C (the stop flag, raised here by the display's first pause) ends the display;
    the search, held after its first chunk until the display has told it to stop, then
    stops at once: two generations of the 885 this search takes, and no trace file."""
    _terminal(monkeypatch)
    stops: list[threading.Event] = []

    class Event(threading.Event):
        def __init__(self):
            super().__init__()
            stops.append(self)

    searched: list[int] = []
    real_recording = watch.recording

    def held(*a, **k):
        rec = real_recording(*a, **k)
        chunks = rec._chunks

        def run():
            for chunk in chunks:
                searched.append(len(chunk.steps))
                yield chunk
                stops[0].wait(10)
            return True

        rec._chunks = run()
        return rec

    monkeypatch.setattr(watch.threading, "Event", Event)
    monkeypatch.setattr(watch, "recording", held)
    monkeypatch.setattr(watch.time, "sleep", lambda _s: interrupt.request())
    path = tmp_path / "t.jsonl"
    try:
        code, _, err = run_cli(
            capsys, monkeypatch, "watch", 8, "--method", "ga", "--seed", 5, "--delay", delay, "--record", path
        )
        for thread in threading.enumerate():
            if thread.name == "queenslab-search":
                thread.join(10)  # the search has ended: what it did is all it will do
    finally:
        interrupt.clear()
    assert code == 130 and "interrupted" in err
    assert len(searched) <= 2 < len(record(8, "ga", seed=5))
    assert list(tmp_path.iterdir()) == []


def test_a_long_replay_says_how_to_skip_it(capsys, monkeypatch):
    """At the default delay a whole search of 8 queens (thousands of steps) takes minutes
    to play: the display's status says so while it lags, and that --delay 0 draws at full
    speed (the frames that show it are drawn live, so the status lines are collected).

    Each pause waits for the search to end instead of sleeping, so the display lags by the
    whole search however busy the machine is (a pause of no time let a slow search thread
    fall behind the display, and the lag never showed)."""
    _terminal(monkeypatch)

    def pause_until_searched(_seconds):
        for thread in threading.enumerate():
            if thread.name == "queenslab-search":
                thread.join(60)

    monkeypatch.setattr(watch.time, "sleep", pause_until_searched)
    hints = []
    lag_hint = watch._lag_hint
    monkeypatch.setattr(watch, "_lag_hint", lambda behind, delay: hints.append(lag_hint(behind, delay)) or hints[-1])
    code, out, _ = run_cli(capsys, monkeypatch, "watch", 8, "--solutions", 0)
    assert code == 0 and "3469 steps (complete)" in out.splitlines()[-1]
    assert any(h.endswith("steps still to draw, 0.05 s each (about 3 min): --delay 0 draws the newest board at full speed")
               for h in hints if h.startswith("3,46"))  # fmt: skip
    hints.clear()
    code, out, _ = run_cli(capsys, monkeypatch, "watch", 8, "--solutions", 0, "--delay", 0)
    assert code == 0 and not any(hints)
