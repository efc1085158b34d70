"""A search being recorded, delivered chunk by chunk while it runs.

:func:`queenslab.trace.recording` starts the same search :func:`~queenslab.trace.record`
runs and hands its steps over as they come, in :class:`Chunk`\\ s: iterating a
:class:`Recording` runs the search a chunk further each time, and once it is exhausted
:meth:`Recording.trace` is the trace ``record`` returns for the same arguments (``record``
is this iteration run to the end). ``queenslab watch`` iterates a recording in a worker
thread and draws the chunks as they arrive.

What a chunk is depends on how the search can be cut:

=================  ======================================================================
method             a chunk
=================  ======================================================================
``backtrack``      up to ``chunk`` steps: the native walk is called again and again on a
                   small event buffer, its state kept between the calls
``selfcorrect``    a piece of a try, at most 65,536 steps (the kernel keeps its state
                   between pieces and resumes where it stopped)
``minconflicts``   one try: the start and the swaps of that try (a kernel call runs a
                   whole try; it cannot be resumed part-way)
``ga``             one generation (its best individual)
``orbit-search``   all orbits, when the search ends (it does not hand out orbits while
                   it runs)
=================  ======================================================================
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from ..errors import QueensError
from ..problem import Problem
from .steps import Step, Trace, mark_checked

__all__ = ["Chunk", "Recording"]


class Chunk(NamedTuple):
    """Steps of a search in the order taken, and where they lead.

    Attributes
    ----------
    steps : tuple of Step
    board : numpy.ndarray
        The board after the chunk's last step (int64, -1 for an empty row): a display
        can draw the latest board without replaying every step.
    solutions : int
        The ``solution`` steps among ``steps``.
    """

    steps: tuple[Step, ...]
    board: np.ndarray
    solutions: int = 0


class Recording:
    """A search being recorded: iterate it for its :class:`Chunk`\\ s, then take :meth:`trace`.

    Parameters
    ----------
    method, problem, seed, options
        What the trace will say it records (see :class:`~queenslab.trace.Trace`).
    chunks : iterator of Chunk
        The search, chunk by chunk; its return value (``StopIteration.value``) says
        whether it ran to its end (``complete``).

    Examples
    --------
    >>> from queenslab.trace import record, recording
    >>> rec = recording(6, "backtrack", solutions=0, chunk=16)
    >>> sizes = [len(c.steps) for c in rec]
    >>> max(sizes) <= 16 and rec.trace() == record(6, "backtrack", solutions=0)
    True
    """

    def __init__(
        self,
        method: str,
        problem: Problem,
        seed: int | None,
        options: dict[str, Any],
        chunks: Iterator[Chunk],
    ):
        self.method = method
        self.problem = problem
        self.seed = seed
        self.options = options
        self._chunks = chunks
        self._steps: list[Step] = []
        self._complete: bool | None = None
        self._started = False

    def __iter__(self) -> Iterator[Chunk]:
        if self._started:
            raise QueensError("a recording runs once: iterate it a single time, or call run()")
        self._started = True
        while True:
            try:
                chunk = next(self._chunks)
            except StopIteration as stop:
                self._complete = bool(stop.value)
                return
            self._steps.extend(chunk.steps)
            yield chunk

    @property
    def done(self) -> bool:
        """Whether the search has ended (the iteration is exhausted)."""
        return self._complete is not None

    def __len__(self) -> int:
        """The steps recorded so far."""
        return len(self._steps)

    def trace(self) -> Trace:
        """The trace of the whole search (once the iteration is exhausted).

        Raises
        ------
        QueensError
            While the search has not ended.
        """
        if self._complete is None:
            raise QueensError("the search is still running: iterate the recording to its end first")
        # the package's own search made these steps (the tests hold every method's traces to its rules)
        return mark_checked(
            Trace(self.method, self.problem, self.seed, tuple(self._steps), self._complete, dict(self.options))
        )

    def run(self) -> Trace:
        """Run the search to its end and return its trace."""
        for _ in self:
            pass
        return self.trace()
