"""Traces: the steps a search takes, recorded by the package's own algorithms.

A trace is the sequence of steps of one search -- a queen placed, moved or removed, two
queens swapped, a whole board set (a try's start, a generation's best individual, an
orbit's generator), a solution reached -- recorded by the same algorithm the package runs,
so the same seed gives the same trace and a complete trace ends on the board the
un-traced method returns:

=================  ======================================================================
method             what is recorded
=================  ======================================================================
``backtrack``      the native engine's lexicographic search over the compiled tables
                   (any variant); its ``solution`` steps in ``queenslab.solutions`` order
``selfcorrect``    the self-correcting Queens program's search: every move of a queen
``minconflicts``   min-conflicts: the greedy start, then every swap
``ga``             the genetic algorithm: the best individual of every generation
``orbit-search``   Zhang and Zhang's orbit search: every orbit reached, by generation
=================  ======================================================================

* :func:`record` -- record a search (with a step cap checked against memory);
  :func:`recording` the same search delivered chunk by chunk while it runs (:mod:`.stream`);
* :class:`Trace`, :class:`Step` -- the trace and its steps; :meth:`Trace.boards` replays it;
* :func:`write_trace` / :func:`read_trace` -- the JSON-lines file (:mod:`.fileformat`);
* :func:`trace_svg` / :func:`write_trace_svg` -- an animated SVG of a trace (:mod:`.animate`);
  :func:`trace_gif` / :func:`write_trace_gif` an animated GIF (:mod:`.gif`);
  :func:`~.strip.frame_strip` a strip of frames for a paper (:mod:`.strip`, matplotlib);
  :func:`~.video.write_trace_mp4` an MP4 video (:mod:`.video`, the ``video`` extra);
* :meth:`Trace.widget` -- a player in a notebook (:mod:`.widget`, the ``notebook`` extra).

The command line has ``queenslab watch`` (draw a search as it runs) and ``queenslab
replay`` (a trace file's summary and pictures).

Examples
--------
>>> from queenslab import Problem, solutions
>>> t = record(Problem(6), "backtrack", solutions=0)
>>> t.solutions() == [tuple(s) for s in solutions(Problem(6))]
True
"""

from . import steps as _steps, widget as _widget
from .animate import trace_svg, write_trace_svg
from .fileformat import FORMAT, VERSION, InvalidTrace, read_trace, write_trace
from .gif import trace_gif, write_trace_gif
from .record import DEFAULT_MAX_STEPS, RANDOMISED, VARIANT_METHODS, memory_estimate, record, recording
from .rules import check_steps, checked
from .steps import METHODS, Step, Trace, attacking_pairs
from .stream import Chunk, Recording

__all__ = [
    "METHODS",
    "RANDOMISED",
    "VARIANT_METHODS",
    "DEFAULT_MAX_STEPS",
    "Step",
    "Trace",
    "record",
    "recording",
    "Recording",
    "Chunk",
    "memory_estimate",
    "attacking_pairs",
    "checked",
    "check_steps",
    "FORMAT",
    "VERSION",
    "InvalidTrace",
    "write_trace",
    "read_trace",
    "trace_svg",
    "write_trace_svg",
    "trace_gif",
    "write_trace_gif",
]

# Trace.widget() returns the notebook player, which draws with modules above the steps
_steps.PLAYER = _widget.trace_widget
