"""The persistent prefix-count index: SQLite tables of subtree sizes for ranking.

For a problem and a depth ``d``, the index stores, for every valid prefix of ``d`` rows
with at least one completion, its number of solutions ``cnt`` and the number ``cum`` of
solutions under lexicographically smaller prefixes. Then

* ``rank(p) = cum(p[:d]) + (rank of p inside its subtree)``: one table look-up plus the
  left-sibling subtrees of rows ``d..n-1``;
* ``unrank(r)``: the prefix with the largest ``cum <= r`` (an index on ``cum``), then a
  walk down its subtree.

A prefix is keyed by the integer ``sum(p[i] * n**(d-1-i))``, whose numeric order is the
lexicographic order. Files live in the index directory -- ``$QUEENSLAB_INDEX_DIR``, else
the user cache directory (platformdirs), overridable per call -- named by the problem's
fingerprint and the depth.

**Checks inside the file.** Every row of the ``lex`` table carries its own check ``chk``
(63 bits of a keyed BLAKE2b of the problem's fingerprint, the depth, ``code``, ``cum``
and ``cnt``), recomputed on every look-up; an unrank also requires ``0 <= r - cum <
cnt`` of the row it lands on, so a deleted row cannot send it into a wrong subtree. The
``meta`` table holds a digest of itself, the row count, the total and a digest of the
whole table. Opening checks the SQLite header against the file size, the meta digest,
the row count and the first and last rows (cheap); :meth:`PrefixIndex.verify` checks
everything (every row check, the ``cum`` chain, the total, the table digest, SQLite's
integrity check) and can recount random prefixes with the engine. File metadata (size,
modification time) is never trusted. An index that fails a check is refused with
:class:`~queenslab.errors.InvalidIndex` saying what is wrong and how to rebuild it.

**Files that are not an index.** A file queenslab did not make as an index is never
discarded: a build (with or without ``rebuild``) and a look-up refuse it and say what it is
-- a queenslab ledger, an SQLite database of another application (naming some of its
tables), not SQLite at all. ``rebuild`` replaces only a queenslab index (of any problem,
depth or schema version, damaged or not, recognised by its tables or its meta keys), a
partial build, or a file with nothing in it. The index's path follows the one policy of
:func:`~queenslab.outfile.output_target` (a symbolic link only to an existing file, no
read-only file replaced), and its name must leave room for the files a build writes next
to it (``X.sqlite.partial.new-journal``).

**Building** (:func:`build_index`) happens in a working file ``X.sqlite.partial`` (WAL
mode): the prefixes of each first-rows *task* are counted (on threads, or on a Dask
cluster) and each finished task is committed with its rows, each row with its own check
and the task with its row count and sum (and their check), so an interrupted build
(Ctrl-C, or a killed process) resumes where it stopped. A resumed build first verifies
the tasks it did not compute itself and recomputes any that fail. When the problem is
symmetric under ``c -> n-1-c`` only the left half is counted: the mirror of a prefix has
the key ``n**d - 1 - key`` and the same count. In the final phase the counts must add up
to the problem's total (the OEIS value for the standard problem, else a separate native
count); then the ``lex`` table is written to ``X.sqlite.tmp``, synced to disk and
renamed onto ``X.sqlite`` (an atomic replacement), and the partial file is deleted. So
``X.sqlite`` only ever exists complete, and is never modified once in place; a build
killed before the rename redoes only the final phase.

**Concurrency.** One builder at a time per file: the builder holds an exclusive lock on
``X.sqlite.lock`` (``fcntl.flock``; ``msvcrt.locking`` on Windows) holding its process
id; a second builder reports "being built by PID ..., waiting" and, once the first is
done, returns the finished index. Readers only ever open complete, immutable files;
listing a partial build reads a consistent WAL snapshot.

**Where it is.** This module is the index's public face; the code is in
:mod:`~queenslab.ranking.index_format` (schema, keys, row checks, messages),
:mod:`~queenslab.ranking.index_paths` (the directory, file names, the path policy),
:mod:`~queenslab.ranking.index_file` (:class:`PrefixIndex`: opening, look-ups,
verification), :mod:`~queenslab.ranking.index_lock` (the build lock),
:mod:`~queenslab.ranking.index_tasks` (a build's tasks on threads or Dask),
:mod:`~queenslab.ranking.index_build` (:func:`build_index`) and
:mod:`~queenslab.ranking.index_find` (finding and listing), on top of
:mod:`queenslab.store` (the checked SQLite file the ledger uses too).
"""

from __future__ import annotations

from .index_build import build_index
from .index_file import PrefixIndex
from .index_find import find_index, list_indexes, resolve
from .index_format import SCHEMA_VERSION, default_depth
from .index_lock import holder_pid
from .index_paths import ENV_VAR, index_dir, index_path, partial_path

__all__ = [
    "ENV_VAR",
    "SCHEMA_VERSION",
    "index_dir",
    "default_depth",
    "index_path",
    "partial_path",
    "holder_pid",
    "PrefixIndex",
    "build_index",
    "find_index",
    "list_indexes",
    "resolve",
]
