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
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
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


def _server(port: int, answer: bytes | None) -> None:
    """A TCP server on ``port`` of the loopback that answers every connection with
    ``answer`` (or keeps silent), for as long as the test process runs."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
    except OSError as error:
        pytest.skip(f"port {port}, which the sample names, is taken on this machine: {error}")
    listener.listen()

    def serve() -> None:
        held = []
        while True:
            connection, _ = listener.accept()
            if answer is not None:
                connection.sendall(answer)
            held.append(connection)  # never closed: the client decides what it makes of it

    threading.Thread(target=serve, daemon=True).start()


#: What a reader made before a sample, by (page, command): run in the page's folder.
SETUP: dict[tuple[str, str], Callable[[Path], None]] = {
    ("docs/distributed.md", "queenslab count 14 --ledger edited.ledger"): _edited_ledger,
    ("docs/watching.md", "queenslab replay forged.jsonl"): _forged_trace,
    ("docs/distributed.md", "queenslab count 17 --dask tcp://127.0.0.1:8000"): lambda _f: _server(8000, None),
    ("docs/distributed.md", "queenslab count 17 --dask tcp://127.0.0.1:9999"): lambda _f: _server(
        9999, b"\x00garbage\xff" * 64
    ),
}


def _run(folder: Path, command: str) -> subprocess.CompletedProcess:
    """Run ``command`` in a shell in ``folder``, with this environment's ``queenslab``
    first on the PATH and a terminal 100 columns wide."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["COLUMNS"] = "100"
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
        if key in SETUP:
            SETUP[key](tmp_path)
        done = _run(tmp_path, sample.command)
        printed = (done.stdout + done.stderr).splitlines()
        if sample.output:
            ok = console.matches(sample.output, printed)
        else:  # a command shown without its output: it must work
            ok = done.returncode == 0
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
    assert set(NOT_RUN) <= every and set(SETUP) <= every
