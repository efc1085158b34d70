"""How fast the number of n-queens solutions grows: ``log Q(n) / n`` from calibrated
estimates, against the proven asymptotics.

M. Simkin, "The number of n-queens configurations" (2021), proves
``Q(n) = ((1 +- o(1)) n e**-alpha)**n`` with ``alpha = 1.942 +- 0.003`` (:data:`ALPHA`,
:data:`ALPHA_ERROR`), that is ``log Q(n) / n = ln n - alpha + o(1)``. For the toroidal
board, which has solutions exactly when n is odd and not divisible by 3 (Polya), the
count is ``T(n) = ((1 + o(1)) n e**-3)**n``: the upper bound is Z. Luria's, "New bounds on
the number of n-queens configurations" (2017), the matching lower bound C. Bowtell and
P. Keevash's, "The n-queens problem" (2021) (:data:`TOROIDAL_ALPHA`).

:func:`growth` estimates the count of each board size with
:func:`queenslab.estimate.estimate` and turns it into ``log Q(n) / n`` with the
estimator's own error bar, propagated to first order: ``se(log Q) = stderr / estimate``
(the relative standard error), so ``se(log Q / n) = stderr / (estimate * n)``. Where the
published count is known (OEIS A000170, n <= 27, from :mod:`queenslab.data`) or the
estimator counted the whole tree, the row also holds the exact ``log Q(n) / n``, beside
the estimate and never in its place.

Honesty rule: an estimate whose relative standard error exceeds
:data:`MAX_RELATIVE_STDERR` (its 95% interval then spans more than a factor of e, and the
first-order error bar no longer describes the spread of ``log Q``), or that is 0 (no
probe reached a solution), gives no digits: its ``log_q_per_n`` is :data:`TOO_UNCERTAIN`.

:func:`table` writes the rows as a markdown table with the provenance of the run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import validate
from .data import SIMKIN_ALPHA, SIMKIN_ALPHA_ERROR, TOROIDAL_ALPHA
from .errors import QueensError, TooLarge

__all__ = [
    "ALPHA",
    "ALPHA_ERROR",
    "TOROIDAL_ALPHA",
    "MAX_RELATIVE_STDERR",
    "TOO_UNCERTAIN",
    "MAX_N",
    "DEFAULT_N_MAX",
    "DEFAULT_NS",
    "DEFAULT_TOROIDAL_NS",
    "DEFAULT_TIME_PER_N",
    "CONFIDENCE",
    "GrowthRow",
    "growth",
    "default_ns",
    "check_ns",
    "asymptote",
    "table",
    "figure",
]

#: Simkin's constant: ``Q(n) = ((1 +- o(1)) n e**-ALPHA)**n`` ...
ALPHA = SIMKIN_ALPHA
#: ... and its stated uncertainty.
ALPHA_ERROR = SIMKIN_ALPHA_ERROR
#: Above this relative standard error an estimate says nothing about ``log Q(n) / n``: the
#: 95% interval ``estimate * (1 +- 1.96 * 0.25)`` spans a factor of 2.9 (more than e),
#: and ``stderr / estimate`` stops being a fair error bar of ``log Q``.
MAX_RELATIVE_STDERR = 0.25
#: What a table and the JSON show instead of digits for such an estimate.
TOO_UNCERTAIN = "too uncertain"
#: The largest board the estimator takes for the standard and the toroidal problem
#: (:data:`queenslab.native.wide_estimate.MAX_N`: beyond it the count exceeds a double;
#: written out here so that ``--help`` does not load numba).
MAX_N = 200
#: Where the default grids end.
DEFAULT_N_MAX = 128


def _grid(toroidal: bool, n_max: int) -> tuple[int, ...]:
    """The standard problem: every other n up to the last published count (n = 27, so
    that the estimates meet the exact values), then every fourth; the toroidal: every n
    with solutions from 7 on."""
    if toroidal:
        return tuple(n for n in range(7, n_max + 1) if n % 6 in (1, 5))
    return tuple(n for n in (*range(8, 27, 2), 27, *range(28, n_max + 1, 4)) if n <= n_max)


#: The standard problem's default board sizes (8, 10, ..., 26, 27, 28, 32, ..., 128).
DEFAULT_NS = _grid(False, DEFAULT_N_MAX)
#: The toroidal problem's default board sizes: every n with solutions from 7 to 127.
DEFAULT_TOROIDAL_NS = _grid(True, DEFAULT_N_MAX)
#: Seconds each board size is estimated for when neither samples nor time is given.
DEFAULT_TIME_PER_N = 2.0
#: The nominal coverage of the intervals the rows hold.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class GrowthRow:
    """One board size of the growth experiment (a JSON object of its ``results``).

    Attributes
    ----------
    n : int
    toroidal : bool
        Whether the board is a torus.
    estimate, stderr, low, high : float
        The estimator's estimate of the number of solutions, its standard error and its
        95% interval (the exact count, 0 and a point when ``exact``).
    relative_stderr : float or None
        ``stderr / estimate``; None for an estimate of 0 (no probe reached a solution).
    probes : int
    method : str
        The estimator (``"exhaustive"`` when it counted the whole tree).
    exact : bool
        Whether the estimator counted the whole tree.
    known : int or None
        The published count (OEIS A000170, standard problem, n <= 27), else None.
    log_q_per_n : float or str
        ``ln(estimate) / n``, or :data:`TOO_UNCERTAIN`.
    log_q_per_n_stderr : float or str
        Its standard error ``relative_stderr / n``, or :data:`TOO_UNCERTAIN`.
    known_log_q_per_n : float or None
        ``ln(Q) / n`` of the exact count (``known``, or the estimator's own exact count);
        None when neither is there.
    asymptote : float
        ``ln n - alpha`` (Simkin's :data:`ALPHA`; :data:`TOROIDAL_ALPHA` on the torus).
    uncertain : bool
        Whether the estimate is too uncertain to give ``log_q_per_n``.
    seconds : float
    """

    n: int
    toroidal: bool
    estimate: float
    stderr: float
    low: float
    high: float
    relative_stderr: float | None
    probes: int
    method: str
    exact: bool
    known: int | None
    log_q_per_n: float | str
    log_q_per_n_stderr: float | str
    known_log_q_per_n: float | None
    asymptote: float
    uncertain: bool
    seconds: float


def asymptote(n: int, toroidal: bool = False) -> float:
    """``ln n - alpha``: the leading term of ``log Q(n) / n`` (``ln n - 3`` on the torus).

    >>> round(asymptote(100), 4)
    2.6632
    """
    return math.log(n) - (TOROIDAL_ALPHA if toroidal else ALPHA)


def default_ns(toroidal: bool = False, n_max: int = DEFAULT_N_MAX) -> tuple[int, ...]:
    """The board sizes of the default grid up to ``n_max`` (at most :data:`MAX_N`):
    :data:`DEFAULT_NS` or :data:`DEFAULT_TOROIDAL_NS` up to n = 128, continued beyond.

    >>> default_ns(True, 20)
    (7, 11, 13, 17, 19)
    >>> default_ns(False, 140)[-4:]
    (128, 132, 136, 140)
    """
    n_max = validate.whole_number(n_max, "n_max", minimum=1, maximum=MAX_N, error=TooLarge, why=_WHY)
    return _grid(toroidal, n_max)


_WHY = "beyond it the number of solutions exceeds the range of a double"


def check_ns(ns: Iterable[int], toroidal: bool = False) -> tuple[int, ...]:
    """``ns`` sorted without repeats, each a board size the experiment can take.

    Raises
    ------
    QueensError
        For an empty list, a size that is not an integer >= 1, n = 2 or 3 (no solutions:
        the logarithm is undefined), or, on the torus, an n that is even or divisible by 3
        (no toroidal solutions).
    TooLarge
        For n > 200 (:data:`MAX_N`).

    Examples
    --------
    >>> check_ns([12, 8, 12])
    (8, 12)
    >>> check_ns([9], toroidal=True)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: the toroidal board has no solutions for n = 9 (only for odd n not divisible by 3: 1, 5, 7, 11, 13, ...), so log Q(n) is undefined
    """
    if isinstance(ns, (str, bytes)) or not isinstance(ns, Iterable):
        raise QueensError(f"ns must be a list of board sizes, got {validate.brief(ns)}")
    out = set()
    for i, n in enumerate(ns):
        if i >= 10_000:
            raise TooLarge("ns has more than 10000 board sizes")
        n = validate.whole_number(n, "each n", minimum=1)
        if n > MAX_N:
            raise TooLarge(f"n = {n} is beyond the estimator: it takes n <= {MAX_N} ({_WHY})")
        if toroidal and n % 6 not in (1, 5):
            raise QueensError(
                f"the toroidal board has no solutions for n = {n} (only for odd n not divisible by 3: "
                "1, 5, 7, 11, 13, ...), so log Q(n) is undefined"
            )
        if not toroidal and n in (2, 3):
            raise QueensError(f"n = {n} has no solutions, so log Q(n) is undefined; give n = 1 or n >= 4")
        out.add(n)
    if not out:
        raise QueensError("ns is empty: give at least one board size")
    return tuple(sorted(out))


def _row(e: Any, toroidal: bool) -> GrowthRow:
    """A row from an :class:`~queenslab.estimate.Estimate`."""
    from .data import known_total

    n = e.n
    known = None if toroidal else known_total(n)
    rse = None if e.estimate <= 0 else e.stderr / e.estimate
    uncertain = rse is None or rse > MAX_RELATIVE_STDERR
    exact_count = known if known is not None else (e.count if e.exact else None)
    return GrowthRow(
        n=n,
        toroidal=toroidal,
        estimate=e.estimate,
        stderr=e.stderr,
        low=e.low,
        high=e.high,
        relative_stderr=rse,
        probes=e.probes,
        method=e.method,
        exact=e.exact,
        known=known,
        log_q_per_n=TOO_UNCERTAIN if uncertain else math.log(e.estimate) / n,
        log_q_per_n_stderr=TOO_UNCERTAIN if uncertain or rse is None else rse / n,
        known_log_q_per_n=math.log(exact_count) / n if exact_count else None,
        asymptote=asymptote(n, toroidal),
        uncertain=uncertain,
        seconds=e.seconds,
    )


def growth(
    ns: Iterable[int] | None = None,
    *,
    toroidal: bool = False,
    samples: int | None = None,
    time_per_n: float | None = None,
    seed: int = 0,
    threads: int | None = None,
    method: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> tuple[GrowthRow, ...]:
    """Estimate ``log Q(n) / n`` for each board size, with the estimator's error bars.

    Parameters
    ----------
    ns : iterable of int, optional
        Board sizes (1 or 4..200; on the torus odd and not divisible by 3). Default
        :data:`DEFAULT_NS` (:data:`DEFAULT_TOROIDAL_NS` on the torus).
    toroidal : bool, default False
    samples : int, optional
        Probes per board size (at least 2).
    time_per_n : float, optional
        Seconds per board size; with ``samples`` too, whichever comes first. Default
        :data:`DEFAULT_TIME_PER_N` when neither is given.
    seed : int, default 0
        Every board size is estimated with this seed: with ``samples`` the same seed
        gives the same rows on any number of threads.
    threads : int, optional
        Default: every core.
    method : {"auto", "knuth", "partial", "stratified"}
        The estimator (see :mod:`queenslab.estimate`).
    progress : callable, optional
        ``progress(done, total)``: board sizes done.

    Returns
    -------
    tuple of GrowthRow
        One row per board size, in increasing n.

    Raises
    ------
    QueensError
        For a bad board size or argument (see :func:`check_ns` and
        :func:`queenslab.estimate.estimate`); TooLarge for n > 200.

    Examples
    --------
    >>> (row,) = growth([8], samples=100)      # a small tree is counted exactly
    >>> row.exact, row.estimate, round(row.log_q_per_n, 6), row.log_q_per_n_stderr
    (True, 92.0, 0.565224, 0.0)
    """
    from .estimate import estimate
    from .problem import Problem

    toroidal = validate.flag(toroidal, "toroidal")
    chosen = (
        check_ns(DEFAULT_TOROIDAL_NS if toroidal else DEFAULT_NS, toroidal) if ns is None else check_ns(ns, toroidal)
    )
    if time_per_n is not None:
        time_per_n = validate.positive_seconds(time_per_n, "time_per_n")
        if time_per_n is None or not math.isfinite(time_per_n):
            raise QueensError(f"time_per_n must be a finite positive number of seconds, got {time_per_n!r}")
    if samples is None and time_per_n is None:
        time_per_n = DEFAULT_TIME_PER_N
    progress = validate.callback(progress)
    rows = []
    for i, n in enumerate(chosen):
        e = estimate(
            Problem(n, toroidal=toroidal),
            samples=samples,
            time_limit=time_per_n,
            seed=seed,
            threads=threads,
            method=method,
            confidence=CONFIDENCE,
        )
        rows.append(_row(e, toroidal))
        if progress:
            progress(i + 1, len(chosen))
    return tuple(rows)


# ----------------------------------------------------------------------------- the table


def _error_digits(error: float) -> int:
    """Decimals that show two significant digits of ``error`` (at least 4, at most 8)."""
    if error <= 0:
        return 6
    return max(4, min(8, 1 - math.floor(math.log10(error))))


def _value(row: GrowthRow) -> str:
    if row.uncertain:
        return TOO_UNCERTAIN
    if row.exact:
        return f"{row.log_q_per_n:.6f} (counted)"
    d = _error_digits(row.log_q_per_n_stderr)  # type: ignore[arg-type]
    return f"{row.log_q_per_n:.{d}f} ± {row.log_q_per_n_stderr:.{d}f}"


def _percent(rse: float | None) -> str:
    if rse is None:
        return "∞ (no probe reached a solution)"
    if rse == 0:
        return "0 (counted)"
    return f"{100 * rse:.2g}%" if rse < 0.1 else f"{100 * rse:.0f}%"


def _count(value: float, row: GrowthRow) -> str:
    if row.uncertain:
        return TOO_UNCERTAIN
    if row.exact:
        return f"{int(value):,}"
    return f"{value:.4e}"


def table(rows: Iterable[GrowthRow], settings: Mapping[str, Any] | None = None) -> str:
    """The rows as a markdown table, after a list of the run's settings and provenance.

    Parameters
    ----------
    rows : iterable of GrowthRow
    settings : mapping, optional
        ``name -> value`` lines written above the table (the samples or time per n,
        seed, threads, method, and the provenance record).

    Returns
    -------
    str

    Examples
    --------
    >>> print(table(growth([8], samples=100)).splitlines()[-1][:82])
    | 8 | standard | 92 | 0 | 0 (counted) | 0.565224 (counted) | 0.565224 | 0.137442 |
    """
    lines = []
    for key, value in (settings or {}).items():
        if isinstance(value, Mapping):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"* {key}: {value}")
    if lines:
        lines.append("")
    lines += [
        "| n | board | estimate | standard error | relative SE | log Q(n)/n (estimate) | exact log Q(n)/n "
        "| ln n − α | difference | probes | seconds |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        exact = "—" if r.known_log_q_per_n is None else f"{r.known_log_q_per_n:.6f}"
        diff = "—" if r.uncertain else f"{r.log_q_per_n - r.asymptote:+.4f}"  # type: ignore[operator]
        lines.append(
            f"| {r.n} | {'toroidal' if r.toroidal else 'standard'} | {_count(r.estimate, r)} | "
            f"{_count(r.stderr, r) if not r.exact else '0'} | {_percent(r.relative_stderr)} | {_value(r)} | {exact} | "
            f"{r.asymptote:.6f} | {diff} | {r.probes:,} | {r.seconds:.1f} |"
        )
    return "\n".join(lines) + "\n"


def figure(rows: Iterable[GrowthRow]) -> Any:
    """The figure of the rows (:func:`queenslab.plot.growth`): the estimates that give
    digits with their error bars, and the exact values (published or counted).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    MissingDependency
        Without matplotlib.
    """
    from . import plot

    rows = list(rows)
    kind = {False: "standard", True: "toroidal"}
    return plot.growth(
        [
            (r.n, float(r.log_q_per_n), float(r.log_q_per_n_stderr), kind[r.toroidal])
            for r in rows
            if not r.uncertain and not r.exact
        ],
        [(r.n, r.known_log_q_per_n, kind[r.toroidal]) for r in rows if r.known_log_q_per_n is not None],
    )
