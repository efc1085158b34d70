"""Hypothesis profiles (the suite draws the same examples on every run unless asked to
explore), and the fixtures several modules share.

* ``dev`` (the default) and ``ci`` (when ``CI`` is set) are *derandomized*: every property
  test draws a fixed sequence of examples, so a run is green or red for the code, not for the
  luck of the draw. Examples that once failed are kept as explicit regression tests.
* ``explore`` (``HYPOTHESIS_PROFILE=explore``) draws fresh random examples, more of them,
  and prints the seed of a failing run (``--hypothesis-seed=S`` replays it).
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=30, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=200, deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="module")
def cluster_logs(tmp_path_factory):
    """A directory of the module's own for the log files of the Dask clusters it starts."""
    from queenslab.distributed import noise

    folder = tmp_path_factory.mktemp("logs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(noise.LOG_DIR_VAR, str(folder))
        yield folder
