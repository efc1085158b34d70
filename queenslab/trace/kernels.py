"""The events of a recorded search, and how a recording ended.

The searches record themselves: :func:`queenslab.native.kernels.walk` (backtracking),
:func:`queenslab.heuristics.kernels.self_correct` and
:func:`~queenslab.heuristics.kernels.min_conflicts_repair` take an optional event buffer
``ev`` (``int64[cap, 3]``: code, row, column) and write every change of the board into
it; without it numba compiles the recording away, so the un-traced searches run as fast
as before and a trace is the search itself. A search stops when ``ev`` is full and says
so (the local searches return :data:`FULL`, the walk leaves its state RUNNING); the
caller then keeps the steps so far.

Event codes (the ``code`` column of ``ev``):

* PLACE -- a queen is put on an empty row: (row, column);
* REMOVE -- the queen of a row is taken off: (row, -1);
* MOVE -- the queen of a row moves to another column: (row, column);
* SWAP -- the queens of two rows exchange their columns: (row, other row);
* SOLUTION -- the board is a solution: (-1, -1).
"""

from ..heuristics.kernels import FULL
from ..native.kernels import MOVE, PLACE, REMOVE, SOLUTION, SWAP

__all__ = ["PLACE", "REMOVE", "MOVE", "SWAP", "SOLUTION", "FULL"]
