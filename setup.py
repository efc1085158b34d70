"""Build hook: record the git commit in the package (queenslab/_commit.txt), so that an
installed copy without git still knows which commit it was built from (see
queenslab.provenance.commit). Everything else is in pyproject.toml."""

import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCommit(build_py):
    def run(self):
        super().run()
        try:
            out = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=os.path.dirname(os.path.abspath(__file__)),
                capture_output=True,
                text=True,
                timeout=10,
            )
        except (OSError, subprocess.SubprocessError):
            return
        if out.returncode == 0 and out.stdout.strip():
            target = os.path.join(self.build_lib, "queenslab", "_commit.txt")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(out.stdout.strip() + "\n")


setup(cmdclass={"build_py": BuildWithCommit})
