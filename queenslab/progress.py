"""A progress bar for long work called from Python: ``progress=True``.

The counting functions take ``progress=callback(done, total)``; ``progress=True``
gives them a :class:`ProgressBar` instead, drawn by ``tqdm.auto``: a widget in a
Jupyter notebook (ipywidgets, the extra ``notebook``), a text bar elsewhere. The bar is
redrawn at most every ``mininterval`` seconds (tqdm's own throttle), so a count of many
small tasks draws one bar, not one output per task.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ProgressBar"]


class ProgressBar:
    """A ``progress(done, total)`` callback that draws a ``tqdm.auto`` bar, opened on the
    first call and closed when ``done`` reaches ``total``.

    Examples
    --------
    >>> import io
    >>> bar = ProgressBar("count", file=io.StringIO())
    >>> for k in range(1, 4):
    ...     bar(k, 3)
    >>> bar.closed
    True
    """

    def __init__(self, desc: str = "queenslab", unit: str = "task", **tqdm_options: Any):
        self.desc, self.unit, self.options = desc, unit, tqdm_options
        self.bar: Any = None
        self.closed = False

    def __call__(self, done: int, total: int) -> None:
        if self.closed:
            return
        if self.bar is None:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=self.desc, unit=self.unit, leave=False, **self.options)
        self.bar.total = total
        # update() redraws only when tqdm's mininterval has passed (refresh() would draw
        # every call: a notebook without widgets then shows one output per task)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        """Close the bar (also when the work stopped early)."""
        if self.bar is not None and not self.closed:
            self.bar.close()
        self.closed = True
