"""Every long call stops on Ctrl-C, and rendering a trace is sized before it allocates.

* ApproxMC counts in a process of its own, killed on Ctrl-C; its estimate is the one an
  in-process count with the same seed gives, and what it raises there is raised here.
* The self-correcting search runs its tries in resumable pieces, looking at the stop flag
  between them: the same seed gives the same moves, boards and traces as one kernel call
  per try.
* The renderers of a trace (tree, strip of frames, animated SVG, GIF, MP4, the notebook
  player) estimate their memory and their size before they draw, and refuse beyond it
  with ``TooLarge``.

The real-process tests send SIGINT to ``python -m queenslab`` once it is working on a case
that would take minutes, and allow a generous deadline for the exit, so that they hold on
a machine whose cores are busy with other work.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from queenslab import Problem, get_backend, interrupt, limits, validate
from queenslab.backends import approxmc
from queenslab.errors import InvalidProblem, QueensError, TooLarge
from queenslab.heuristics import kernels as K, selfcorrect
from queenslab.heuristics.minconflicts import rng_state
from queenslab.models.cnf import LEX_LEADER, build
from queenslab.trace import (
    Step,
    Trace,
    animate,
    gif,
    local,
    record,
    strip,
    trace_gif,
    trace_svg,
    tree,
    video,
    widget,
    write_trace,
)

#: Seconds from SIGINT to the exit allowed in the real-process tests: generous, for a busy
#: machine (the stops measured on an idle one take well under a second).
STOP_DEADLINE = 10.0


# ----------------------------------------------------------------------------- helpers


def _start(*args, **popen):
    """``python -m queenslab ARGS`` that takes SIGINT as a terminal's foreground job does."""
    return subprocess.Popen(
        [sys.executable, "-m", "queenslab", *map(str, args)],
        stdout=popen.pop("stdout", subprocess.PIPE),
        stderr=popen.pop("stderr", subprocess.PIPE),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


def _interrupt(proc) -> tuple[int, float, str]:
    """Send SIGINT; return (exit code, seconds from the signal to the exit, stderr)."""
    assert proc.poll() is None, "the command ended before the interrupt: the case is too small"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the command was still running a minute after SIGINT")
    return proc.returncode, time.monotonic() - sent, (err or b"").decode()


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                kids.setdefault(int(fields[1]), []).append(int(entry))
    return kids


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _running(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _working_grandchild(proc, cpu: float = 0.5, timeout: float = 180.0) -> int:
    """Wait until a grandchild of ``proc`` (a process the forkserver started) has used
    ``cpu`` seconds of CPU: the count is under way. Returns its pid."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
        kids = _children()
        for child in kids.get(proc.pid, []):
            for grandchild in kids.get(child, []):
                if _cpu_seconds(grandchild) >= cpu:
                    return grandchild
        time.sleep(0.1)
    pytest.fail("the count's process did not start working within three minutes")


@pytest.fixture
def _sigint_raises():
    """The test process takes SIGINT as KeyboardInterrupt (it may have inherited SIG_IGN)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def _settled(timeout: float = 30.0) -> bool:
    """Wait until interrupted work has ended; True when the stop flag is down again."""
    t0 = time.monotonic()
    while interrupt.abandoned() and time.monotonic() - t0 < timeout:
        time.sleep(0.05)
    return not interrupt.requested()


def _stopped_in_thread(work, after: float = 0.5) -> tuple[BaseException | None, float]:
    """Run ``work()`` in a thread, request a stop after ``after`` s; return what it raised
    and the seconds from the request to its end."""
    box: dict = {}

    def target():
        try:
            box["value"] = work()
        except BaseException as e:
            box["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(after)
    assert thread.is_alive(), "the work ended before the stop: the case is too small"
    asked = time.monotonic()
    interrupt.request()
    try:
        thread.join(60)
    finally:
        interrupt.clear()
    assert not thread.is_alive() and "value" not in box
    return box.get("error"), time.monotonic() - asked


# ----------------------------------------------------------------------------- ApproxMC


def _in_process_estimate(model, seed, epsilon=0.8, delta=0.2) -> int:
    """ApproxMC's estimate made here, without queenslab's process: the reference."""
    import pyapproxmc

    counter = pyapproxmc.Counter(seed=seed, epsilon=epsilon, delta=delta)
    counter.add_clauses(model.cnf.clauses)
    cells, hashes = counter.count(model.cell_variables())
    return int(cells) * 2 ** int(hashes)


def test_the_estimate_from_its_own_process_is_the_in_process_one():
    pytest.importorskip("pyapproxmc")
    p = Problem(9)  # 352 solutions: beyond what ApproxMC enumerates at once, so the seed's hashes decide
    r = get_backend("approxmc").counts(p, seed=3)
    assert r.count == _in_process_estimate(build(p, encoding="pairwise"), 3)
    assert (r.backend, r.method, r.complete, r.unique, r.epsilon, r.delta) == (
        "approxmc",
        "pairwise",
        True,
        None,
        0.8,
        0.2,
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 7])
def test_the_estimates_from_their_own_processes_are_the_in_process_ones(seed):
    pytest.importorskip("pyapproxmc")
    p = Problem(9)
    r = get_backend("approxmc").counts(p, unique=True, seed=seed)
    assert r.count == _in_process_estimate(build(p, encoding="pairwise"), seed)
    assert r.unique == _in_process_estimate(build(p, encoding="pairwise", symmetry=LEX_LEADER), seed)
    again = get_backend("approxmc").counts(p, encoding="ladder", epsilon=0.5, delta=0.1, seed=seed)
    assert again.count == _in_process_estimate(build(p, encoding="ladder"), seed, 0.5, 0.1)


def test_what_the_count_raises_in_its_process_is_raised_here_as_it_was():
    # a QueensError of queenslab's own, and an error of pyapproxmc's binding: the same
    # type and message as when called here
    for fn, args in ((Problem, (-1,)), (approxmc._count, ([[1, "x"]], [1], 0.8, 0.2, 1))):
        with pytest.raises(Exception) as here:
            fn(*args)
        with pytest.raises(type(here.value)) as there:
            approxmc._elsewhere(fn, *args)
        assert str(there.value) == str(here.value)
    with pytest.raises(InvalidProblem):
        approxmc._elsewhere(Problem, 0)
    # a process that dies without an answer is a QueensError, not a hang
    with pytest.raises(QueensError, match="ended without an answer .exit code 3"):
        approxmc._elsewhere(os._exit, 3)


def test_bad_options_are_refused_before_any_process_starts(monkeypatch):
    pytest.importorskip("pyapproxmc")
    monkeypatch.setattr(approxmc, "_elsewhere", lambda *a: pytest.fail("a process was started"))
    for opts in ({"epsilon": 0}, {"delta": 1}, {"seed": -1}, {"seed": 1.5}):
        with pytest.raises(QueensError):
            get_backend("approxmc").counts(Problem(6), **opts)


@pytest.mark.slow
def test_an_api_count_stops_on_a_stop_request():
    pytest.importorskip("pyapproxmc")
    error, after = _stopped_in_thread(
        lambda: get_backend("approxmc").counts(Problem(13), force=True, seed=1), after=3.0
    )
    assert isinstance(error, interrupt.Interrupted) and after < STOP_DEADLINE
    assert _settled()


@pytest.mark.slow
def test_ctrl_c_stops_an_approxmc_count_and_its_process():
    pytest.importorskip("pyapproxmc")
    # n = 13 is beyond the practical limit (n = 12 takes about a minute): many minutes
    proc = _start("count", 13, "--backend", "approxmc", "--force")
    counting = _working_grandchild(proc)
    code, after, err = _interrupt(proc)
    assert code == 130 and "interrupted" in err and "Traceback" not in err, err[-2000:]
    assert after < STOP_DEADLINE, f"exited {after:.1f} s after SIGINT"
    deadline = time.monotonic() + STOP_DEADLINE
    while _running(counting) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(counting), "the count's process outlived the command"


# ----------------------------------------------------------------------------- the self-correcting search


def _one_call_per_try(n: int, seed: int, max_steps: int) -> tuple[list[Step], bool]:
    """The self-correcting search's trace made with one kernel call per try (the
    un-chunked kernel :func:`K.self_correct`), as the trace recorded it before its tries
    were cut into pieces: the reference."""
    rng = rng_state(seed)
    q, t = np.empty(n, np.int64), np.empty(n, np.int64)
    lines, out = np.empty(5 * n, np.int32), np.zeros(2, np.int64)
    ev = np.empty((max_steps, 3), np.int64)
    steps: list[Step] = []
    for _ in range(local.SELF_CORRECT_RESTARTS + 1):
        if len(steps) == max_steps:
            return steps, False
        K.self_correct_start(n, rng, q)
        steps.append(Step("start", board=tuple(q.tolist())))
        status = K.self_correct(n, n * n, True, q, t, lines, out, ev[: max_steps - len(steps)])
        steps += [Step("move", int(r), int(c)) for _, r, c in ev[: out[1]]]
        if status == K.FULL:
            return steps, False
        if status == K.SOLVED:
            break
    return steps, True


CASES = [(8, 1, 10**5), (30, 2, 10**5), (57, 7, 30_000), (100, 5, 77), (200, 3, 20_000), (13, 4, 1)]


@pytest.mark.parametrize(("n", "seed", "cap"), CASES)
def test_the_trace_in_pieces_is_the_trace_of_one_call_per_try(n, seed, cap, monkeypatch):
    expected = _one_call_per_try(n, seed, cap)
    for piece, turns in ((None, None), (7, None), (1000, 50), (1, 1)):
        if piece == 1 and len(expected[0]) > 10_000:
            continue  # a chunk per step: slow, and the small traces show the same
        if piece is not None:
            monkeypatch.setattr(local, "SELF_CORRECT_PIECE", piece)
        if turns is not None:
            monkeypatch.setattr(selfcorrect, "PIECE_TURNS", turns)
        t = record(Problem(n), "selfcorrect", seed=seed, max_steps=cap)
        assert (list(t.steps), t.complete) == expected, (piece, turns)


def test_the_pieces_of_a_try_make_the_moves_of_one_call():
    rng = np.random.default_rng(5)
    for trial in range(60):
        n = int(rng.integers(4, 40 if trial % 3 else 13))  # no limit: a complete search, kept small
        limit = [0, n * n, int(rng.integers(1, 3 * n * n))][trial % 3]
        start = rng.integers(0, n - 1, n).astype(np.int64)
        for counted in (True, False):
            q, out = start.copy(), np.zeros(2, np.int64)
            whole_ev = np.empty((10**6, 3), np.int64)
            lines = np.empty(5 * n if counted else 1, np.int32)
            status = K.self_correct(n, limit, counted, q, np.empty(n, np.int64), lines, out, whole_ev)
            expected = (status, q.tolist(), int(out[0]), whole_ev[: out[1]].tolist())
            # the same try in pieces of random budgets, with a small event buffer
            q, t, state = start.copy(), np.empty(n, np.int64), np.zeros(K.STATE_SIZE, np.int64)
            ev = np.empty((int(rng.integers(1, 9)), 3), np.int64)
            events: list[list[int]] = []
            piece = K.RUNNING
            while piece in (K.RUNNING, K.FULL):
                piece = K.self_correct_piece(n, limit, counted, q, t, lines, state, int(rng.integers(1, 30)), ev)
                events += ev[: state[K.STATE_EVENTS]].tolist()
            assert (piece, q.tolist(), int(state[K.STATE_ITERATIONS]), events) == expected


def test_the_untraced_search_in_pieces_finds_what_one_call_per_try_finds(monkeypatch):
    def one_call_per_try(n, seed, check):
        rng, q, t = rng_state(seed), np.empty(n, np.int64), np.empty(n, np.int64)
        lines, out = np.empty(5 * n, np.int32), np.zeros(1, np.int64)
        tries = iterations = 0
        while True:
            K.self_correct_start(n, rng, q)
            status = K.self_correct(n, n * n, check == "counts", q, t, lines, out)
            tries, iterations = tries + 1, iterations + int(out[0])
            if status == K.SOLVED:
                return q.tolist(), {"tries": tries, "iterations": iterations}

    cases = [(8, 1, "counts"), (60, 2, "scan"), (200, 4, "counts"), (100, 9, "scan")]
    expected = [one_call_per_try(*case) for case in cases]
    for turns in (selfcorrect.PIECE_TURNS, 1000, 3):
        monkeypatch.setattr(selfcorrect, "PIECE_TURNS", turns)
        for (n, seed, check), want in zip(cases, expected):
            if turns == 3 and n > 60:
                continue  # a kernel call per few turns: slow, and the small boards show the same
            p, stats = selfcorrect.self_correct(n, seed=seed, check=check, return_stats=True)
            assert (p.tolist(), stats) == want, (n, seed, check, turns)


#: Steps of the large self-correcting traces stopped below: a minute or more of recording.
LONG_TRACE = 8_000_000


def _room_for_a_long_trace():
    from queenslab import validate
    from queenslab.trace.record import memory_estimate

    need = memory_estimate("selfcorrect", 3000, LONG_TRACE)
    available = validate.available_memory()
    if available is not None and available < 2 * need:
        pytest.skip(f"a trace of {LONG_TRACE} steps needs about {need / 1e9:.1f} GB; this machine has less to spare")


def test_a_large_self_correcting_search_stops_on_a_stop_request():
    # n = 5000: tries of up to 25 million moves, and a solution after a minute or more
    error, after = _stopped_in_thread(lambda: selfcorrect.self_correct(5000, seed=1))
    assert isinstance(error, interrupt.Interrupted) and after < STOP_DEADLINE
    _room_for_a_long_trace()
    error, after = _stopped_in_thread(lambda: record(Problem(3000), "selfcorrect", seed=1, max_steps=LONG_TRACE))
    assert isinstance(error, interrupt.Interrupted) and after < STOP_DEADLINE


@pytest.mark.slow
def test_ctrl_c_stops_watching_a_large_self_correcting_search():
    _room_for_a_long_trace()  # a minute or more of recording without a terminal
    proc = _start("watch", 3000, "--method", "selfcorrect", "--max-steps", LONG_TRACE)
    time.sleep(5.0)
    code, after, err = _interrupt(proc)
    assert code == 130 and "interrupted" in err and "Traceback" not in err, err[-2000:]
    assert after < STOP_DEADLINE, f"exited {after:.1f} s after SIGINT"


@pytest.mark.slow
def test_ctrl_c_stops_the_live_display_of_a_large_self_correcting_search():
    pty = pytest.importorskip("pty")
    _room_for_a_long_trace()
    controller, terminal = pty.openpty()
    proc = _start(
        "watch", 3000, "--method", "selfcorrect", "--max-steps", LONG_TRACE, "--delay", 0,
        stdout=terminal, stderr=terminal, stdin=terminal,
    )  # fmt: skip
    os.close(terminal)
    shown = bytearray()

    def drain():  # the display must never block on a full terminal
        while True:
            try:
                data = os.read(controller, 65536)
            except OSError:
                return
            if not data:
                return
            shown.extend(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while b"so far" not in shown and time.monotonic() < deadline:  # the display is up
            assert proc.poll() is None, bytes(shown[-2000:])
            time.sleep(0.1)
        time.sleep(2.0)
        code, after, _ = _interrupt(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        reader.join(5)
        os.close(controller)
    assert code == 130 and b"interrupted" in shown and b"Traceback" not in shown, bytes(shown[-2000:])
    assert after < STOP_DEADLINE, f"exited {after:.1f} s after SIGINT"


# ----------------------------------------------------------------------------- rendering a trace

#: The memory a pinned machine has: far less than the refused pictures need.
PINNED = 10**6
BOARD_INDEX = widget.BoardIndex

RENDERERS = {
    "svg": lambda path, t: animate.write_trace_svg(t, path),
    "gif": lambda path, t: gif.write_trace_gif(t, path),
    "mp4": lambda path, t: video.write_trace_mp4(t, path),
    "frames": lambda path, t: strip.write_frame_strip(path, t),
}


def _needed(message: str) -> float:
    """The bytes a refusal says a request needs (``needs about 2.6 MB of memory``)."""
    found = re.search(
        r"needs about ([0-9.]+) (B|kB|MB|GB|TB|PB) of memory, but only ([0-9.]+ [kMGTP]?B) is available", message
    )
    assert found, message
    scale = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}[found.group(2)]
    return float(found.group(1)) * scale


def _boom(*args, **kwargs):
    raise AssertionError("allocated before the memory was checked")


@pytest.fixture
def pinned(monkeypatch):
    """A machine with 1 MB available, where replaying a trace's boards, drawing a figure or
    a player's board copies would be a defect: every such allocation point fails."""
    monkeypatch.setattr(validate, "available_memory", lambda: PINNED)
    monkeypatch.setattr(Trace, "boards", _boom)
    monkeypatch.setattr(widget, "BoardIndex", _boom)
    import matplotlib.figure

    monkeypatch.setattr(matplotlib.figure, "Figure", _boom)


@pytest.mark.parametrize("kind", list(RENDERERS))
def test_a_picture_beyond_the_memory_available_is_refused_before_any_board(kind, tmp_path, request):
    pytest.importorskip("imageio_ffmpeg") if kind == "mp4" else None
    # 200 frames of 100 queens, within the practical limits: their boards alone take
    # 200 * 100 * 8 bytes, the GIF's and the video's frames 500 x 500 pixels each
    t = record(Problem(100), "selfcorrect", seed=1, max_steps=200)
    every = None if kind != "frames" else 5
    request.getfixturevalue("pinned")
    path = tmp_path / f"t.{'png' if kind == 'frames' else kind}"
    with pytest.raises(TooLarge) as refused:
        RENDERERS[kind](path, t) if every is None else strip.write_frame_strip(path, t, every)
    message = str(refused.value)
    count = math.ceil(len(t.steps) / (every or 1))
    assert _needed(message) >= count * t.n * 8 and "only 1.0 MB is available" in message
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_search_tree_and_a_player_beyond_the_memory_available_are_refused(tmp_path, pinned):
    t = record(Problem(12), "backtrack", solutions=0, max_steps=2000)
    with pytest.raises(TooLarge) as refused:
        tree.write_tree(tmp_path / "t.png", t)
    # the figure is at least 2 inches wide and 1 + 0.45 n high, at 150 dots per inch
    assert _needed(str(refused.value)) >= 2 * 150 * (1 + 0.45 * 12) * 150 and not (tmp_path / "t.png").exists()
    with pytest.raises(TooLarge) as refused:
        BOARD_INDEX(t)  # the class itself: the fixture replaced the module's name
    assert _needed(str(refused.value)) >= widget.INDEX_BYTES


HUGE = 2**31 - 1


@pytest.mark.parametrize("n", [20_000, HUGE])
def test_pictures_of_a_board_too_large_to_draw_are_refused_at_once(n, tmp_path):
    # a try's start on n = 20000; no step at all on n = 2**31 - 1 (a board of it would take 17 GB)
    steps = (Step("start", board=tuple(range(n))),) if n < HUGE else ()
    t = Trace("selfcorrect", Problem(n), 0, steps, False)
    for kind, render in RENDERERS.items():
        t0 = time.monotonic()
        path = tmp_path / f"t.{'png' if kind == 'frames' else kind}"
        with pytest.raises(TooLarge, match=f"{n} queens"):
            render(path, t)
        assert time.monotonic() - t0 < 5 and not path.exists(), kind
    for call in (lambda: trace_svg(t, force=True), lambda: trace_gif(t, force=True), lambda: widget.trace_widget(t)):
        with pytest.raises(TooLarge, match="drawn cell by cell up to n = 2000"):
            call()
    backtrack = Trace("backtrack", Problem(n), None, (Step("place", 0, 0), Step("place", 1, 2)), False)
    t0 = time.monotonic()
    with pytest.raises(QueensError, match=f"n <= 64.* {n}|{n} queens is beyond its limit n <= 64"):
        tree.write_tree(tmp_path / "tree.png", backtrack)
    assert time.monotonic() - t0 < 5 and not (tmp_path / "tree.png").exists()


@pytest.mark.slow
def test_replaying_a_large_board_under_an_address_space_cap_is_an_error_not_a_memory_error(tmp_path):
    import resource

    path = tmp_path / "t.jsonl"
    write_trace(record(Problem(20_000), "minconflicts", seed=0, max_steps=30), path)
    cap = 4 * 2**30

    def limit():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    for flag in ("--frames", "--tree", "--svg", "--gif"):
        out = tmp_path / ("out.png" if flag in ("--frames", "--tree") else f"out.{flag[2:]}")
        run = subprocess.run(
            [sys.executable, "-m", "queenslab", "replay", str(path), flag, str(out)],
            preexec_fn=limit,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 2, (flag, run.stderr[-2000:])
        assert run.stderr.startswith("error: ") and "Traceback" not in run.stderr and "MemoryError" not in run.stderr
        assert not out.exists()


def test_the_limits_of_the_pictures_are_declared_and_listed(capsys):
    from queenslab.cli import main

    names = {
        animate.FRAMES.name, animate.QUEENS.name, gif.PIXELS.name, strip.STRIP_BOARDS.name, tree.TREE_NODES.name,
        tree.TREE_ROWS.name,
    }  # fmt: skip
    assert names <= set(limits.DECLARED)
    assert main(["limits"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in names), listed


def test_frames_beyond_a_practical_limit_are_refused_with_the_every_that_fits(monkeypatch):
    t = record(Problem(8), "backtrack", solutions=0)  # every solution: 2,000 steps or so
    total = len(t.steps)
    small = limits.Limit(animate.FRAMES.name, 100, "frames", animate.FRAMES.cost)
    monkeypatch.setattr(animate, "FRAMES", small)
    monkeypatch.setattr(Trace, "boards", _boom)  # refused before any board is replayed
    with pytest.raises(TooLarge) as refused:
        trace_svg(t, every=1)
    message = str(refused.value)
    assert f"{total:,} frames of 8 queens" in message and "frames <= 100" in message
    least = int(re.search(r"every=([0-9]+) \(--every \1\) or more", message).group(1))
    assert "force=True" in message
    monkeypatch.undo()
    monkeypatch.setattr(animate, "FRAMES", small)
    # the every the message names is the smallest that fits, and force goes beyond the limit
    assert len(animate.frames(t, least)[0]) <= 100 < len(animate.frames(t, least - 1, force=True)[0])
    forced = trace_svg(t, every=1, force=True)
    assert f"{total} steps, {total} frames" in forced


def test_the_pixels_of_a_gif_are_held_to_their_limit(monkeypatch):
    from PIL import Image

    t = record(Problem(10), "backtrack", solutions=0, max_steps=600)
    first = Image.open(io.BytesIO(trace_gif(record(Problem(10), "backtrack", max_steps=3))))
    area = first.size[0] * first.size[1]  # a frame's pixels, as the GIF writes them
    most = gif.PIXELS.largest // area
    assert len(t.steps) > most  # more frames than the limit lets through
    with pytest.raises(TooLarge) as refused:
        trace_gif(t, every=1)
    least = int(re.search(r"every=([0-9]+) ", str(refused.value)).group(1))
    assert len(animate.frames(t, least)[0]) <= most < len(animate.frames(t, least - 1, force=True)[0])
    with pytest.raises(TooLarge, match="pixels <= "):
        gif.frame_images(t, 1)
    # a limit of 20 frames' pixels: the every the message names fits it
    monkeypatch.setattr(gif, "PIXELS", limits.Limit(gif.PIXELS.name, 20 * area, "pixels", gif.PIXELS.cost))
    with pytest.raises(TooLarge) as refused:
        trace_gif(t, every=2)
    every = int(re.search(r"every=([0-9]+) ", str(refused.value)).group(1))
    assert len(animate.frames(t, every - 1, force=True)[0]) > 20
    image = Image.open(io.BytesIO(trace_gif(t, every=every)))
    assert image.n_frames <= 20


def test_junk_is_refused_as_what_it_is_not(tmp_path):
    for render in (*RENDERERS.values(), lambda path, t: tree.write_tree(path, t)):
        for junk in (0.0, "trace", None):
            with pytest.raises(QueensError, match="must be a queenslab Trace"):
                render(tmp_path / "x.png", junk)
    assert list(tmp_path.iterdir()) == []


def test_a_search_tree_beyond_its_nodes_is_refused_before_it_is_built(monkeypatch):
    t = record(Problem(12), "backtrack", solutions=0, max_steps=7000)
    nodes = sum(s.op in ("place", "move") for s in t.steps)
    assert nodes > tree.MAX_TREE_NODES
    monkeypatch.setattr(tree, "search_tree", _boom)
    with pytest.raises(TooLarge, match=f"search tree of {nodes:,} nodes is beyond its limit nodes <= 3,000"):
        tree.tree_figure(t)


def test_the_video_keeps_a_refusal_of_its_frames(tmp_path, monkeypatch):
    pytest.importorskip("imageio_ffmpeg")
    t = record(Problem(10), "backtrack", solutions=0, max_steps=600)
    with pytest.raises(TooLarge, match="an MP4 video of 600 frames of 10 queens"):
        video.write_trace_mp4(t, tmp_path / "t.mp4", every=1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["svg", "gif", "mp4", "player"])
def test_a_forced_picture_stops_on_a_stop_request(kind, tmp_path):
    if kind == "mp4":
        pytest.importorskip("imageio_ffmpeg")
    if kind == "player":  # 20,000 steps of backtracking through every solution of 10 queens
        t = record(Problem(10), "backtrack", solutions=0, max_steps=20_000)
    else:
        t = record(
            Problem(500 if kind == "svg" else 100), "selfcorrect", seed=1, max_steps=20_000 if kind == "svg" else 1500
        )
    work = {
        # 20,000 frames of 500 queens as an SVG, 1,500 frames of 500 x 500 pixels as a GIF
        # or a video: half a minute or more each
        "svg": lambda: trace_svg(t, every=1, force=True),
        "gif": lambda: trace_gif(t, every=1, force=True),
        "mp4": lambda: video.write_trace_mp4(t, tmp_path / "t.mp4", every=1, force=True),
        # a player's board copies of 20,000 steps take a few hundredths of a second: made
        # again and again, the stop comes while the steps of one of them are replayed
        "player": lambda: [widget.BoardIndex(t) for _ in range(10**6)],
    }[kind]
    error, after = _stopped_in_thread(work, after=1.0)
    assert isinstance(error, interrupt.Interrupted) and after < STOP_DEADLINE
    assert list(tmp_path.iterdir()) == []


def _ledger_rows(ledger) -> tuple[int, int]:
    """(rows, tasks in all) of a ledger, read as an outsider reads it."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True, timeout=5)) as db:
        rows = db.execute("select count(*) from tasks").fetchone()[0]
        tasks = int(db.execute("select value from meta where key = 'tasks'").fetchone()[0])
    return rows, tasks


def _wait_for_tasks(proc, ledger, least: int) -> None:
    import sqlite3

    deadline = time.monotonic() + 180
    recorded = 0
    while recorded < least:
        assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
        assert time.monotonic() < deadline, "no task was recorded within three minutes"
        time.sleep(0.2)
        if ledger.exists():
            with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(ledger, timeout=1)) as db:
                recorded = db.execute("select count(*) from tasks").fetchone()[0]


def test_ctrl_c_on_a_ledgered_count_says_what_the_ledger_keeps(tmp_path):
    """Ctrl-C on a count with a ledger: after "interrupted", how many of its tasks the
    ledger keeps (as many as it holds, read afterwards), the solutions in them, and that
    the same command finishes the count."""
    ledger = tmp_path / "q18.sqlite"
    proc = _start("count", 18, "--ledger", ledger, "--threads", 1)
    _wait_for_tasks(proc, ledger, 3)
    code, _, err = _interrupt(proc)
    rows, tasks = _ledger_rows(ledger)
    assert code == 130 and rows >= 3, err
    lines = err.strip().splitlines()
    assert lines[-2:] == [
        "interrupted",
        f"the ledger {ledger} keeps {rows:,} of {tasks:,} tasks ("
        + lines[-1].split("(")[1].split(")")[0]
        + "); the same command finishes the count",
    ], err
    assert re.fullmatch(r"[0-9,]+ solutions in them", lines[-1].split("(")[1].split(")")[0]), err


@pytest.mark.slow
def test_sigterm_stops_a_ledgered_count_as_ctrl_c_does_and_a_rerun_finishes_it(tmp_path):
    """A batch scheduler or ``kill`` sends SIGTERM (and a script's background job ignores
    SIGINT): the command stops as on Ctrl-C, the ledger keeps the finished tasks, and the
    same command again counts only the rest."""
    import json

    from queenslab.data import known_total

    ledger = tmp_path / "q18.sqlite"
    proc = _start("count", 18, "--ledger", ledger, "--threads", 1, "--json")
    _wait_for_tasks(proc, ledger, 3)
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.monotonic() - sent < STOP_DEADLINE, err.decode()[-2000:]
    rows, tasks = _ledger_rows(ledger)
    assert f"interrupted\nthe ledger {ledger} keeps {rows:,} of {tasks:,} tasks" in err.decode()
    again = subprocess.run(
        [sys.executable, "-m", "queenslab", "count", "18", "--ledger", str(ledger), "--threads", "1", "--json"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    report = json.loads(again.stdout)
    assert report["count"] == known_total(18) and report["from_ledger"] >= 3
