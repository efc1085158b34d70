"""Hypothesis profiles: the suite draws the same examples on every run unless asked to explore.

* ``dev`` (the default) and ``ci`` (when ``CI`` is set) are *derandomized*: every property
  test draws a fixed sequence of examples, so a run is green or red for the code, not for the
  luck of the draw. Examples that once failed are kept as explicit regression tests.
* ``explore`` (``HYPOTHESIS_PROFILE=explore``) draws fresh random examples, more of them,
  and prints the seed of a failing run (``--hypothesis-seed=S`` replays it).
"""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=30, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=200, deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
