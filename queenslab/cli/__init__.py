"""The ``queenslab`` command line: a thin shell over the library.

One module per command family, each declaring its commands on the groups of
:mod:`.app` with the shared options of :mod:`.options` (the problem built once from the
variant flags, ``--json``, the backends' options derived from the registry):

* :mod:`.counting` -- ``count``, ``crosscheck``, ``export``;
* :mod:`.placements` -- ``solutions``, ``show``;
* :mod:`.check` -- ``check``;
* :mod:`.ranking` -- ``rank``, ``unrank``, ``sample``, ``index build|info``;
* :mod:`.symmetry` -- ``orbits``, ``symmetry table|orbit``, ``experiment signature|orbit-search``;
* :mod:`.heuristics` -- ``solve``;
* :mod:`.watch` -- ``watch``, ``replay``;
* :mod:`.estimate` -- ``estimate``;
* :mod:`.growth` -- ``experiment growth``;
* :mod:`.completion` -- ``experiment completion``;
* :mod:`.qqueens` -- ``experiment q-queens``;
* :mod:`.warm` -- ``warm``.
"""

from .app import cli, main, run

__all__ = ["cli", "main", "run"]
