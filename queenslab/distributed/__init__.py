"""Counting spread over many cores or machines, resumable, with a ledger.

A count is split into independent tasks (:func:`queenslab.native.engine.split_tasks`:
for the standard problem the slices of the half-board join's row splits from n = 14,
largest first, and the symmetric search's tasks below; prefixes of the first rows for
every variant), the tasks run on threads of this machine or on a Dask cluster
(``dask.distributed``), and every finished task is recorded in a ledger
(:mod:`queenslab.distributed.ledger`, one SQLite file) so that a re-run computes only
what is missing. An estimate's probes run on a cluster too (:func:`estimate`,
:mod:`queenslab.distributed.probes`), with the same result as on threads. Splitting the
search tree at a fixed depth among workers is the master-worker search of Akshay Gupta,
Naman Deept and Snigdha Dobhal (N Queens Problem Using Backtracking); the cluster is
Dask's.

Examples
--------
>>> from queenslab import Problem
>>> from queenslab import distributed
>>> r = distributed.count(Problem(10), unique=True)
>>> r.count, r.unique
(724, 92)
"""

from .probes import estimate
from .runner import DaskSpec, DistributedResult, count

__all__ = ["count", "estimate", "DistributedResult", "DaskSpec"]
