"""Run queenslab's command line in-process for the tests (the real group, every command)."""


def run_cli(capsys, monkeypatch, *args):
    """``main(args)`` with the captured output: ``(exit code, stdout, stderr)``.

    ``monkeypatch`` is accepted so that tests can patch the library before the call."""
    from queenslab.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def cpu_seconds(pid):
    """CPU time (user and system, every thread) used so far by process ``pid`` and its
    descendants: the living ones, from ``/proc``, and the ended ones it has waited for
    (their time is added to their parent's); 0.0 for a process that is gone."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    parent, used = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rpartition(")")[2].split()  # after the command's name, which may hold spaces
        except OSError:  # ended meanwhile
            continue
        parent[int(name)] = int(fields[1])
        used[int(name)] = sum(map(int, fields[11:15])) / tick  # utime, stime, cutime, cstime
    family, grown = {pid}, True
    while grown:  # a child's pid may be lower than its parent's: add children until none is new
        new = {p for p, pp in parent.items() if pp in family} - family
        family |= new
        grown = bool(new)
    return sum(used.get(p, 0.0) for p in family)


def wait_until_working(proc, cpu=2.0, seconds=600.0):
    """Wait until ``proc`` (a ``subprocess.Popen``) and its children have used ``cpu``
    seconds of CPU time: it has then loaded and is at work, however busy the machine.

    Python and the package take about 0.6 s of CPU time to load, but on a loaded machine
    that can be many seconds of wall-clock time, so a fixed sleep before a Ctrl-C may
    interrupt the loading instead of the command. Fails if the process ends first (the
    case is too small to interrupt) or nothing is reached within ``seconds``.
    """
    import time

    import pytest

    ends = time.monotonic() + seconds
    while cpu_seconds(proc.pid) < cpu:
        if proc.poll() is not None:
            pytest.fail(f"the command ended (exit {proc.returncode}) before it had used {cpu:g} s of CPU time")
        if time.monotonic() > ends:
            pytest.fail(f"the command had not used {cpu:g} s of CPU time after {seconds:g} s")
        time.sleep(0.05)


class Overrun(AssertionError):
    """A fresh Python that used more CPU time than it was given, or never ended."""


#: A fresh Python given ``cpu`` seconds of CPU time is also stopped after this many times
#: ``cpu`` seconds of wall-clock time (at least :data:`LEAST_WALL`): one that waits for
#: ever uses no CPU time. On a machine whose cores are each shared by five busy processes
#: a run takes about five times its CPU time.
WALL_FACTOR = 20
LEAST_WALL = 300.0


def run_python(code, cpu, env=None, cwd=None):
    """Run ``code`` in a fresh Python (``python -c``) with at most ``cpu`` seconds of CPU
    time, its children's included; returns the ``subprocess.CompletedProcess``.

    A run that uses more is killed and raises :class:`Overrun`, as does one still running
    after ``max(WALL_FACTOR * cpu, LEAST_WALL)`` seconds. The bound is CPU time rather
    than wall-clock time because a busy machine stretches the second and not the first:
    a fresh Python takes about a second of CPU time to load the package, which can be ten
    seconds of wall-clock time when every core is busy several times over.
    """
    import subprocess
    import sys
    import threading
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd
    )
    box = {}
    reader = threading.Thread(target=lambda: box.update(output=proc.communicate()), daemon=True)
    reader.start()
    ends = time.monotonic() + max(WALL_FACTOR * cpu, LEAST_WALL)
    while reader.is_alive():
        used = cpu_seconds(proc.pid)
        if used > cpu or time.monotonic() > ends:
            proc.kill()
            reader.join()
            how = f"used {used:.1f} s of CPU time" if used > cpu else "did not end"
            raise Overrun(f"{how} (allowed: {cpu:g} s of CPU time): {code}")
        reader.join(0.1)
    out, err = box["output"]
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
