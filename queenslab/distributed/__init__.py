"""Counting spread over many cores or machines, resumable, with a ledger.

A count is split into independent tasks (:func:`queenslab.native.engine.split_tasks`:
the symmetric search's tasks for the standard problem, prefixes of the first rows for
every variant), the tasks run on threads of this machine or on a Dask cluster
(``dask.distributed``), and every finished task is recorded in a ledger
(:mod:`queenslab.distributed.ledger`, one SQLite file) so that a re-run computes only
what is missing. The master-worker search by splitting the tree at a fixed depth is
described in the backtracking survey of the source documents; the cluster is Dask's.

Examples
--------
>>> from queenslab import Problem
>>> from queenslab import distributed
>>> r = distributed.count(Problem(10), unique=True)
>>> r.count, r.unique
(724, 92)
"""

from .runner import DaskSpec, DistributedResult, count

__all__ = ["count", "DistributedResult", "DaskSpec"]
