"""Ctrl-C stops every long command within about a second, with exit 130 and nothing
half-done left behind (a partial count is never printed, no output file reads as
complete), and the process can go on working afterwards.

In-process: ``main(argv)`` runs in pytest's main thread and a timer thread sends SIGINT
to this process, as a terminal would. The slow tests do the same to a real
``python -m queenslab`` process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from clirun import wait_until_working

import queenslab
from queenslab import Problem, interrupt, warm
from queenslab.cli import main
from queenslab.data import known_total
from queenslab.native import engine

#: Seconds within which an interrupted command must have returned. Commands stop within
#: about a second; the tests allow ten, so that a machine whose cores are busy several
#: times over (where the stop takes several seconds of wall-clock time) passes them, while
#: a Ctrl-C that was not heeded (every command here runs for minutes) still fails them.
STOP_WITHIN = 10.0


def _interrupted(argv, delay=1.0, ready=None):
    """Run ``main(argv)``, send SIGINT after ``delay`` s (and once ``ready()`` holds, if
    given); return (code, seconds after the signal)."""
    sent = {}
    lock, ended = threading.Lock(), threading.Event()

    def fire():
        if ended.wait(delay):
            return
        patience = time.monotonic() + 600  # then interrupt anyway, and let the test say what is missing
        while ready is not None and not ready() and time.monotonic() < patience:
            if ended.wait(0.02):
                return
        with lock:
            if not ended.is_set():
                sent["t"] = time.perf_counter()
                os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=fire, daemon=True)
    timer.start()
    try:
        code = main([str(a) for a in argv])
    finally:
        with lock:
            ended.set()
        timer.join()
    assert "t" in sent, f"{argv} finished before the interrupt: the case is too small to test"
    return code, time.perf_counter() - sent["t"]


LONG_COMMANDS = [
    ["count", 30, "--force"],
    ["count", 30, "--force", "--threads", 1],
    ["count", 24, "--force", "--toroidal", "--knight"],  # the general walk
    ["count", 19, "--unique", "--force", "--block", "1,1"],  # orbits by canonical forms
    ["solutions", 40, "--limit", 1, "--force"],  # beyond the first-solution limit: forced
    ["orbits", 40, "--limit", 1, "--force"],
    ["count", 14, "--backend", "cpsat"],
    ["count", 14, "--backend", "sat"],
    ["crosscheck", 13],
    ["unrank", 18, 300_000_000, "--no-index"],
]


@pytest.fixture(autouse=True)
def _sigint_raises():
    """The test process takes SIGINT as KeyboardInterrupt (it may have inherited SIG_IGN)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="module", autouse=True)
def _kernels_loaded():
    """Load the kernels first: loading compiled code cannot be interrupted, and on a
    cold cache it may take longer than the grace period (the command still exits 130
    in time, but the loading goes on in the background). Every count method's kernel set
    is compiled (``queenslab warm``): a fresh clone has none in its cache, and compiling
    one on a busy machine can take minutes."""
    warm.warm()
    engine.count_both(Problem(8))
    engine.count_both(Problem(7, toroidal=True, knight=True, blocked=((0, 0),)))
    engine.count_prefix(Problem(8), [0])
    list(engine.fundamental_batches(Problem(6)))


def _settled(timeout=300.0):
    """Wait until interrupted work has ended; True when the stop flag is down again.
    (Work that cannot be stopped, such as loading compiled code, ends in seconds on an
    idle machine; the bound is for one whose cores are busy several times over.)"""
    t0 = time.perf_counter()
    while interrupt.abandoned() and time.perf_counter() - t0 < timeout:
        time.sleep(0.05)
    return not interrupt.requested()


@pytest.mark.parametrize("argv", LONG_COMMANDS, ids=lambda a: " ".join(map(str, a)))
def test_ctrl_c_stops_a_long_command(argv, capsys):
    code, after = _interrupted(argv)
    out, err = capsys.readouterr()
    assert code == 130 and "interrupted" in err
    assert after < STOP_WITHIN, f"stopped {after:.2f} s after Ctrl-C"
    assert "Traceback" not in err
    # nothing that reads as an answer was printed
    assert out.strip() == "" or (argv[0] == "solutions" and out.count("\n") == 0)
    assert _settled()


def test_work_goes_on_after_an_interrupt(capsys):
    code, _ = _interrupted(["count", 30, "--force"])
    assert code == 130 and _settled()
    assert engine.count(Problem(10)) == known_total(10)
    assert main(["count", "9", "--backend", "cpsat", "--json"]) == 0
    assert f'"count": {known_total(9)}' in capsys.readouterr().out


def test_api_count_from_the_main_thread_is_interrupted():
    """Library calls (a notebook's main thread) stop too, raising KeyboardInterrupt."""
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        engine.count(Problem(30), force=True, threads=1)
    assert time.perf_counter() - t0 < 1.0 + STOP_WITHIN
    assert _settled() and engine.count(Problem(8)) == known_total(8)


def test_an_interrupted_kernel_never_returns_a_partial_count():
    """A stop requested from another thread makes the engine raise, not return a number."""
    box = {}

    def work():
        try:
            box["value"] = engine.count(Problem(30), force=True, threads=2)
        except KeyboardInterrupt as e:
            box["error"] = e

    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.5)
    interrupt.request()
    t.join(STOP_WITHIN)
    interrupt.clear()
    assert not t.is_alive() and "value" not in box and isinstance(box["error"], interrupt.Interrupted)


def test_index_build_interrupted_leaves_only_a_resumable_partial_file(tmp_path, monkeypatch):
    monkeypatch.setenv("QUEENSLAB_INDEX_DIR", str(tmp_path))
    # interrupted once the build has started its partial file (on a busy machine that can
    # take longer than the second or two it takes on an idle one)
    code, after = _interrupted(
        ["index", "build", 17, "--depth", 4],
        ready=lambda: any(p.name.endswith(".partial") for p in tmp_path.iterdir()),
    )
    assert code == 130 and after < STOP_WITHIN
    names = sorted(p.name for p in tmp_path.iterdir())
    assert not [n for n in names if n.endswith(".sqlite")], names  # never a final file
    assert [n for n in names if n.endswith(".partial")], names


def _subprocess_interrupt(args, tmp_path, cpu=2.0):
    env = dict(os.environ, QUEENSLAB_INDEX_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "queenslab", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        # a shell's background jobs ignore SIGINT; a terminal's foreground job does not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # past its start-up (a Ctrl-C while `python -m` imports is Python's own business):
    # measured in CPU time, which a busy machine does not stretch as it stretches a sleep
    wait_until_working(proc, cpu)
    assert proc.poll() is None, "the command finished before the interrupt"
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, time.perf_counter() - sent, out.decode(), err.decode()


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["count", 30, "--force"],
        ["solutions", 40, "--limit", 1, "--force"],  # its first solution takes minutes
        ["count", 14, "--backend", "cpsat"],
        ["count", 14, "--backend", "sat"],
        ["crosscheck", 14],
        ["index", "build", 17, "--depth", 4],
        ["solutions", 16, "--format", "npy", "--out", "s.npy"],
    ],
    ids=lambda a: " ".join(map(str, a)),
)
def test_sigint_to_a_real_process(args, tmp_path):
    code, after, out, err = _subprocess_interrupt(args, tmp_path)
    assert code == 130, err
    assert after < STOP_WITHIN, f"stopped {after:.2f} s after SIGINT"
    assert "Traceback" not in err and "interrupted" in err
    assert not err.startswith("\n") and "\n\ninterrupted" not in err  # no empty line before it
    assert not (tmp_path / "s.npy").exists()


@pytest.mark.parametrize("delay", [0.05, 0.1, 0.2, 0.3, 0.5])
def test_ctrl_c_while_the_command_line_loads_is_quiet(tmp_path, delay):
    """The console script's entry (queenslab_launcher.main) turns a Ctrl-C during start-up
    into 'interrupted' and exit 130, as during work: never an import traceback."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import queenslab_launcher; queenslab_launcher.main()", "count", "30", "--force"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=root),
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    # before Python installs its handler the default action ends the process (-SIGINT),
    # after it the launcher or the command says "interrupted" and exits 130; a signal while
    # Python itself starts (its site module, before any queenslab code runs) is Python's own
    # business, so only a traceback through queenslab's code is a defect
    text = err.decode()
    assert proc.returncode in (130, -signal.SIGINT, 1), (proc.returncode, text[-1500:])
    assert not _queenslab_frames(text), text[-1500:]
    if proc.returncode == 1:  # Python's own start-up was interrupted: no queenslab frame at all
        assert "Traceback" in text and text.rstrip().endswith("KeyboardInterrupt")
    assert not out.strip()


def _queenslab_frames(text):
    """The frames of a traceback in ``text`` that are queenslab's code: the package and
    the launcher, wherever they are loaded from. (Not the editable install's import hook,
    ``__editable___queenslab_..._finder.py``, which Python's site module runs at start-up,
    before any queenslab code: a busy machine makes that start-up long enough for a
    Ctrl-C to land in it.)"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = os.path.dirname(os.path.abspath(queenslab.__file__))
    ours = (os.path.join(root, "queenslab") + os.sep, package + os.sep, os.path.join(root, "queenslab_launcher.py"))
    frames = [line.strip() for line in text.partition("Traceback")[2].splitlines() if line.strip().startswith("File ")]
    return [frame for frame in frames if any(f'"{path}' in frame for path in ours)]
