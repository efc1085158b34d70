"""A fresh interpreter running a snippet: what the start-up tests and the tests of the
join's kernels built ahead of time read from a new process."""

import os
import subprocess
import sys


def python_output(code: str, timeout: float = 300, **env: str) -> str:
    """What a fresh interpreter running ``code`` (``env`` added to the environment) prints
    on standard output (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env={**os.environ, **env}
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
