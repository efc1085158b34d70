"""Events of the recording kernels (``int64[m, 3]``: code, row, column) as :class:`Step`\\ s."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from . import kernels as K
from .steps import Step

__all__ = ["decode"]

_OPS = {K.PLACE: "place", K.REMOVE: "remove", K.MOVE: "move", K.SWAP: "swap", K.SOLUTION: "solution"}


def decode(ev: np.ndarray) -> Iterator[Step]:
    """The steps of the events ``ev`` (rows of code, row, column), in order.

    Examples
    --------
    >>> list(decode(np.array([[0, 0, 1], [4, -1, -1]])))
    [Step(op='place', row=0, col=1, board=None, operator=None), Step(op='solution', row=-1, col=-1, board=None, operator=None)]
    """
    for code, row, col in ev.tolist():
        op = _OPS[code]
        yield Step(op, row, col) if op != "remove" else Step(op, row)
