"""Every ``$ queenslab`` console sample of the README and the docs, run as a reader runs
it: in a shell, from a folder holding a copy of ``examples/``, each page's commands in
order (a later command reads the ledger or trace an earlier one wrote). Its output must
match what the page prints under it by the rule of :mod:`console` (``...`` elides, decimal
numbers such as timings may differ, counts may not). A sample printed without output
must run and exit as a command that worked.

A few samples need what a reader made first (a ledger edited by hand, a forged trace, a
server that is not Dask's): :data:`SETUP` makes it. The samples in :data:`NOT_RUN` are
named with the reason and where their behaviour is tested instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

import console
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))

#: Samples not run, by (page, command): why, and what tests the behaviour they show.
NOT_RUN = {
    ("docs/distributed.md", "queenslab count 17 --method symmetric --dask local:2 --ledger q17.ledger"): (
        "shows a run in which a worker died; tests/test_distributed.py kills a worker and checks the line"
    ),
}
#: The experiments' full runs, shown without their output (their figures and tables are
#: drawn from them): minutes each (the seconds measured on 2 cores), so their own tests run
#: them at smaller sizes (tests/test_growth.py, test_signature.py, test_completion.py).
_LONG = {
    "queenslab experiment growth --toroidal --time-per-n 6 --threads 2 --seed 1 --out growth/": 438,
    "queenslab experiment signature --min-n 13 --max-n 16 --criterion both --certify-to 40 --json": 306,
    "queenslab experiment completion 8": 158,
    "queenslab experiment completion 10 --instances 10 --plot completion-10.svg": 305,
    "queenslab experiment completion 14 --backend native --backend cpsat --time-limit 30": 455,
    "queenslab experiment completion 10 --ks 0..6 --instances 10": 226,
}
_LONG_PAGES = {"docs/estimating.md", "docs/experiments.md", "docs/literature.md"}
NOT_RUN.update(
    {
        (page, command): f"a full experiment run, {seconds} s"
        for command, seconds in _LONG.items()
        for page in _LONG_PAGES
    }
)

#: Commands the walk gives a longer time than the default (the experiments' full runs).
TIMEOUT = 900


def _edited_ledger(folder: Path) -> None:
    """A ledger of 14 queens whose task 7 was changed by hand after the count."""
    _run(folder, "queenslab count 14 --ledger edited.ledger")
    with sqlite3.connect(folder / "edited.ledger") as db:
        db.execute("UPDATE tasks SET count = count + 1 WHERE id = 7")


def _forged_trace(folder: Path) -> None:
    """A backtracking trace of 8 queens whose second step puts a queen where the first
    one attacks it."""
    _run(folder, "queenslab watch 8 --solutions 1 --record forged.jsonl --delay 0")
    lines = (folder / "forged.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[1]) == ["place", 0, 0] and json.loads(lines[2])[0] == "place"
    lines[2] = json.dumps(["place", 1, 1])
    (folder / "forged.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _server(port: int, answer: bytes | None) -> str | None:
    """A TCP server on ``port`` of the loopback that answers every connection with
    ``answer`` (or keeps silent), for as long as the test process runs; why not, when the
    port is taken."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
    except OSError as error:
        return f"port {port}, which the sample names, is taken on this machine: {error}"
    listener.listen()

    def serve() -> None:
        held = []
        while True:
            connection, _ = listener.accept()
            if answer is not None:
                connection.sendall(answer)
            held.append(connection)  # never closed: the client decides what it makes of it

    threading.Thread(target=serve, daemon=True).start()
    return None


#: What a reader made before a sample, by (page, command): run in the page's folder; a
#: setup that cannot be made here says why, and the sample is left out with a warning.
SETUP: dict[tuple[str, str], Callable[[Path], str | None]] = {
    ("docs/distributed.md", "queenslab count 14 --ledger edited.ledger"): _edited_ledger,
    ("docs/watching.md", "queenslab replay forged.jsonl"): _forged_trace,
    ("docs/distributed.md", "queenslab count 17 --dask tcp://127.0.0.1:8000"): lambda _f: _server(8000, None),
    ("docs/distributed.md", "queenslab count 17 --dask tcp://127.0.0.1:9999"): lambda _f: _server(
        9999, b"\x00garbage\xff" * 64
    ),
}


#: The lines a kernel's first compilation on a machine adds (queenslab.native.cache): a
#: page shows a run on a machine where the kernels were compiled before.
FIRST_RUN = re.compile(r"(compiling .*, once \(.*\)|compiled .* in [0-9.]+ s)")

#: The home folder the pages show; the walk's own (a folder of its own, so that an index
#: or a cluster's log it writes stays out of the user's) is printed as this.
HOME = "/home/me"


def _run(folder: Path, command: str) -> subprocess.CompletedProcess:
    """Run ``command`` in a shell in ``folder``, with this environment's ``queenslab``
    first on the PATH, ``folder/home`` as the home folder and a terminal 100 columns wide."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    (folder / "home").mkdir(exist_ok=True)
    env.update(COLUMNS="100", HOME=str(folder / "home"))
    for variable in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "QUEENSLAB_INDEX_DIR"):
        env.pop(variable, None)
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.mark.slow  # the experiments' samples run for minutes
@pytest.mark.parametrize("page", [p for p in PAGES if console.samples(ROOT, [p])])
def test_every_console_sample_prints_what_the_page_shows(page, tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    mismatches = []
    for sample in console.samples(ROOT, [page]):
        key = (sample.page, sample.command)
        if key in NOT_RUN:
            continue
        why_not = SETUP[key](tmp_path) if key in SETUP else None
        if why_not is not None:
            warnings.warn(f"{sample.id} not run: {why_not}", stacklevel=1)
            continue
        done = _run(tmp_path, sample.command)
        printed = (done.stdout + done.stderr).replace(str(tmp_path / "home"), HOME).splitlines()
        printed = [line for line in printed if not FIRST_RUN.fullmatch(line)]
        if sample.output:
            ok = console.matches(sample.output, printed)
        else:  # a command shown without its output: it must run to its end (exit 1 is a
            # result, such as a refuted fit; a traceback is not)
            ok = done.returncode in (0, 1) and "Traceback" not in done.stderr
        if not ok:
            mismatches.append(
                f"{sample.id}: $ {sample.command}  (exit {done.returncode})\n"
                + "  the page shows:\n"
                + "".join(f"    {line}\n" for line in sample.output)
                + "  the command printed:\n"
                + "".join(f"    {line}\n" for line in printed[:60])
            )
    assert not mismatches, "\n".join(mismatches)


def test_the_samples_not_run_and_the_setups_name_samples_that_exist():
    """A sample renamed on its page must not leave its exception behind."""
    every = {(s.page, s.command) for s in console.samples(ROOT, PAGES)}
    assert set(SETUP) <= every
    assert {command for _page, command in NOT_RUN} <= {command for _page, command in every}
