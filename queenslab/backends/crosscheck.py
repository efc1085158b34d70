"""Counting one problem on several backends, side by side.

Exact backends check one another: two or more complete answers, all alike, agree. An
approximate backend (``approxmc``) runs only when asked (named in ``backends``, or
``approximate=True``) and is held against the exact answers instead: its row is
*within bounds* when the exact backends' common answer lies within the estimate's
bounds, *outside bounds* otherwise. It never makes a verdict: an estimate cannot
confirm an exact count, and a result outside its bounds is an event its guarantee
allows (with probability at most ``delta``), not a disagreement of exact counts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from .. import interrupt, validate
from ..errors import MissingDependency, QueensError, TooLarge, UnsupportedProblem
from ..problem import Problem, as_problem
from ..result import CountResult
from ..symmetry.decompose import translation_invariant
from .approximate import ApproximateCount, within_all
from .processes import context
from .registry import BACKENDS, get_backend

__all__ = ["crosscheck", "Crosscheck", "CrosscheckRow", "DEFAULT_TIME_LIMIT"]

#: Seconds each backend may count for in a :func:`crosscheck` unless told otherwise.
DEFAULT_TIME_LIMIT = 60.0
#: Seconds a backend's process may take to start (imports) before its time limit runs.
_START_SECONDS = 60.0


@dataclass(frozen=True)
class CrosscheckRow:
    """One backend's answer in a :func:`crosscheck`.

    ``method`` is how the backend counted (its result's ``method``; for a backend that
    counts by several independent algorithms, the one of this row). ``error`` holds the
    message when the backend could not run (an optional package that
    is not installed, or a board beyond the backend's practical limit) or ran out of its
    time limit (``timed_out``); ``count``/``unique`` are then None and ``complete`` False.

    An approximate backend's row says so (``approximate``): ``count``/``unique`` are
    estimates with ``epsilon``, ``delta`` and their bounds (``count_bounds``,
    ``unique_bounds``, whole numbers), and ``within_bounds`` says whether the exact
    backends' common answer lies within them (None when there is none to hold them
    against, and in an exact row).

    ``reach`` says why a solver counted a problem beyond its practical limit, or by a
    decomposition rather than directly: its predicted cost for this problem (from the
    number of solutions an earlier row found) fits in the crosscheck's time limit that way
    (None otherwise). ``derivation`` says how the total was obtained when it was not
    counted directly (Burnside's lemma as an equation, the torus's translations).
    """

    backend: str
    count: int | None
    unique: int | None
    seconds: float
    complete: bool = True
    error: str | None = None
    timed_out: bool = False
    method: str | None = None
    approximate: bool = False
    epsilon: float | None = None
    delta: float | None = None
    count_bounds: tuple[int, int] | None = None
    unique_bounds: tuple[int, int] | None = None
    within_bounds: bool | None = None
    reach: str | None = None
    derivation: str | None = None


@dataclass(frozen=True)
class Crosscheck:
    """The same problem on several backends.

    A row stopped by a limit of its own (``complete=False``, e.g. a ``limit`` in its
    options) holds a lower bound, and a row with an ``error`` holds nothing: neither is
    ever part of an agreement. A backend that ran out of the crosscheck's time limit was
    stopped and its row holds nothing (``timed_out``, an ``error`` saying so): like a
    backend that could not run, it takes no part in the verdict, so the other backends'
    complete answers still decide it. A lower bound, on the other hand, could exceed the
    others' answer, so it withholds an agreement. The :attr:`verdict` is

    * ``"disagree"`` when two complete answers differ;
    * ``"agree"`` when at least two complete answers are all alike, at least one of them
      comes from a backend of another family than the native engine (a solver), and no
      row holds a lower bound (rows that ran out of time or could not run do not count);
    * ``"native only"`` when the complete answers are alike but all come from the native
      engine (its join and its symmetric search check each other, but they share the
      engine: no independent solver confirmed them);
    * ``"inconclusive"`` otherwise (fewer than two complete answers, or a lower bound).

    Only exact rows take part: an approximate row is never an answer of the verdict. It
    is held against the exact answer instead (:attr:`CrosscheckRow.within_bounds`);
    :attr:`outside` lists the rows outside their bounds, which change no verdict (the
    guarantee allows them with probability at most ``delta``).

    An interrupted crosscheck has no verdict: it raises ``KeyboardInterrupt``.
    """

    problem: Problem
    rows: tuple[CrosscheckRow, ...]
    unique: bool

    @property
    def answered(self) -> tuple[CrosscheckRow, ...]:
        """The exact rows with a complete answer."""
        return tuple(r for r in self.rows if r.error is None and r.complete and not r.approximate)

    @property
    def independent(self) -> tuple[CrosscheckRow, ...]:
        """The complete exact answers of backends other than the native engine."""
        return tuple(r for r in self.answered if r.backend != ENGINE)

    @property
    def skipped(self) -> tuple[CrosscheckRow, ...]:
        """The exact rows of backends other than the native engine that gave no answer
        (could not run, or ran out of time)."""
        return tuple(r for r in self.rows if r.backend != ENGINE and not r.approximate and r.error is not None)

    @property
    def limited(self) -> tuple[CrosscheckRow, ...]:
        """The rows a limit stopped (their counts are lower bounds)."""
        return tuple(r for r in self.rows if r.error is None and not r.complete)

    @property
    def estimated(self) -> tuple[CrosscheckRow, ...]:
        """The approximate rows with an estimate."""
        return tuple(r for r in self.rows if r.error is None and r.approximate)

    @property
    def outside(self) -> tuple[CrosscheckRow, ...]:
        """The approximate rows whose bounds miss the exact answer."""
        return tuple(r for r in self.estimated if r.within_bounds is False)

    @property
    def verdict(self) -> str:
        """``"agree"``, ``"disagree"``, ``"native only"`` or ``"inconclusive"`` (see the
        class docstring)."""
        answers = {(r.count, r.unique if self.unique else None) for r in self.answered}
        if len(answers) > 1:
            return "disagree"
        if len(self.answered) >= 2 and not self.limited:
            return "agree" if self.independent else "native only"
        return "inconclusive"

    def _repr_html_(self) -> str:
        from ..viz.tables import crosscheck_html

        return crosscheck_html(self)

    @property
    def agree(self) -> bool:
        """Whether the verdict is ``"agree"``: two or more complete answers, all alike,
        one of them from a backend other than the native engine."""
        return self.verdict == "agree"


#: The backend whose answers a crosscheck confirms: its own methods agreeing is no
#: independent confirmation.
ENGINE = "native"


def skip_reason(row: CrosscheckRow) -> str:
    """Why a row holds no answer, in a few words."""
    error = row.error or ""
    if row.timed_out:
        return "ran out of its time limit"
    if "practical limit" in error:
        return "beyond its practical limit"
    if "pip install" in error or ("needs" in error and "install" in error):
        return "not installed"
    return error.split(";")[0][:80]


def crosscheck(
    problem: Problem,
    backends: tuple[str, ...] | list[str] | None = None,
    *,
    unique: bool = True,
    options: dict[str, dict] | None = None,
    strict: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    approximate: bool = False,
) -> Crosscheck:
    """Count ``problem`` on several backends and compare.

    Each backend counts in a process of its own (started by the ``forkserver`` method
    where the platform has it, else ``spawn``), which is killed when it runs out of
    ``time_limit``: a native solver (Ganak, a SAT or CP-SAT search) cannot be stopped
    from another thread, while a process can always be killed, and a killed process
    leaves nothing running. The limit counts from the moment the process is ready
    (its imports done). Options that cannot be sent to another process (an edited
    ``model``, a ``progress`` callback) run that backend here, without the limit.

    Parameters
    ----------
    problem : Problem
    backends : sequence of str, optional
        Registered names; default every exact backend.
    unique : bool, default True
        Also compare the orbit counts.
    options : dict, optional
        Per-backend options, e.g. ``{"sat": {"encoding": "ladder"}}``.
    strict : bool, default False
        Raise the error of a backend that cannot run instead of recording it in its row
        (the command line does this for backends the user named).
    time_limit : float or None, default 60.0
        Seconds each backend may count for; one that runs out is stopped and its row
        says so (``timed_out``, ``complete=False``), and the others decide the verdict.
        None: no limit, every backend counts in this process.
    approximate : bool, default False
        Also run the approximate backends (those not named in ``backends``); their
        rows are held against the exact answer and never decide the verdict.

    Returns
    -------
    Crosscheck

    Examples
    --------
    >>> r = crosscheck(Problem(6), ["native", "cpsat", "sat"])
    >>> r.agree, [(row.backend, row.count) for row in r.rows][:2]
    (True, [('native', 4), ('native', 4)])
    """
    problem = as_problem(problem)
    if isinstance(backends, (str, bytes)) or not isinstance(backends, (tuple, list, type(None))):
        raise QueensError(
            f"backends must be a list of backend names, e.g. ['native', 'sat'], got {validate.brief(backends)}"
        )
    approximate = validate.flag(approximate, "approximate")
    names = [n for n, cls in BACKENDS.items() if not cls.approximate] if backends is None else list(backends)
    if approximate:
        names += [n for n, cls in BACKENDS.items() if cls.approximate and n not in names]
    if not names:
        raise QueensError("crosscheck needs at least one backend")
    if options is not None and not (isinstance(options, dict) and all(isinstance(v, dict) for v in options.values())):
        raise QueensError(
            "options must be a dict of per-backend option dicts, e.g. {'sat': {'encoding': 'ladder'}}, "
            f"got {validate.brief(options)}"
        )
    options = options or {}
    unique = validate.flag(unique, "unique")
    strict = validate.flag(strict, "strict")
    time_limit = validate.positive_seconds(time_limit, "time_limit")
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise QueensError(f"options given for backends not in the check: {', '.join(unknown)}")
    rows: list[CrosscheckRow] = []
    refusals: list[TooLarge] = []
    for name in names:
        be = get_backend(name)
        given = options.get(name, {})
        # a backend that counts the problem by independent algorithms runs each (unless
        # the caller chose one): they check one another as the backends do
        runs = [given] if given else be.independent_counts(problem)
        for opts in runs:
            opts, reach = _within_budget(be, problem, unique, opts, rows, time_limit)
            row = _row(name, be, problem, unique, opts, time_limit, strict, refusals)
            rows.append(replace(row, reach=reach) if reach else row)
    if refusals and all(row.error and not row.timed_out for row in rows):
        raise refusals[0]  # nothing ran: the problem is too large for all of them
    return _held_to_bounds(Crosscheck(problem, tuple(rows), unique))


#: The share of the time limit a solver's predicted cost may take for it to count beyond
#: its practical limit (the prediction is a rate measured on one machine).
BUDGET_SHARE = 0.5


def _within_budget(
    be: Any, problem: Problem, unique: bool, opts: dict, rows: list[CrosscheckRow], time_limit: float | None
) -> tuple[dict, str | None]:
    """``opts`` for a solver whose direct count would not fit in the time limit, with the
    reason, or ``(opts, None)`` when nothing is to be decided.

    From the solutions an earlier row found, the solver's cost is predicted
    (:meth:`~queenslab.backends.interface.Backend.predicted_seconds`) for each way it can
    count: directly, by Burnside's lemma (the orbits and the solutions each symmetry fixes),
    by the torus's translations (the solutions with the first row's queen in the first
    column). The first that fits in :data:`BUDGET_SHARE` of the time limit is taken, with
    ``force`` when the problem is beyond the solver's practical limit (a limit on n alone).
    """
    if "force" in opts or "total_by" in opts or be.option("force") is None or be.approximate:
        return opts, None
    answers = [r for r in rows if r.error is None and r.complete and not r.approximate]
    if not answers or answers[0].count is None:
        return opts, None
    try:
        be.check_reach(problem, **opts)
        within = True
    except TooLarge:
        within = False
    except QueensError:
        return opts, None  # refused for another reason: its row says which
    count, orbits = answers[0].count, answers[0].unique if unique else None
    budget = float("inf") if time_limit is None else BUDGET_SHARE * time_limit
    for extra, predicted, how in _ways(be, problem, count, orbits):
        if predicted is None:
            return opts, None  # its cost does not follow the solutions: its limit decides
        if predicted > budget:
            continue
        if within and not extra:
            return opts, None
        limit = f"{time_limit:g} s time limit" if time_limit is not None else "no time limit"
        beyond = f"beyond its practical limit n <= {be.practical_limit}, " if not within else ""
        return {**opts, **extra, **({} if within else {"force": True})}, (
            f"{beyond}counted {how} for its predicted cost: {predicted:.1f} s at about "
            f"{be.enumeration_rate:,.0f} solutions a second, within the {limit}"
        )
    return opts, None


def _ways(be: Any, problem: Problem, count: int, orbits: int | None) -> list[tuple[dict, float | None, str]]:
    """How ``be`` can count ``problem`` (options, predicted seconds, in words), cheapest
    decomposition last: directly, then by the torus's translations, then by Burnside's lemma."""
    direct = be.predicted_seconds(problem, count, orbits)
    ways: list[tuple[dict, float | None, str]] = [({}, direct, f"directly ({count + (orbits or 0):,} solutions)")]
    if be.option("total_by") is None or direct is None:
        return ways
    group = len(problem.symmetries())
    if translation_invariant(problem):
        first = count // problem.n
        ways.append(
            (
                {"total_by": "translations"},
                be.predicted_seconds(problem, first, orbits),
                f"by the torus's translations ({first:,} solutions with a queen in the first cell, times {problem.n})",
            )
        )
    if group > 1:
        leaders = orbits if orbits is not None else count // group
        ways.append(
            (
                {"total_by": "burnside"},
                be.predicted_seconds(problem, leaders, None) + (group - 1) * be.start_seconds,
                f"by Burnside's lemma ({leaders:,} orbits and the solutions each of {group - 1} symmetries fixes)",
            )
        )
    return ways


def _held_to_bounds(check: Crosscheck) -> Crosscheck:
    """``check`` with each approximate row's ``within_bounds`` filled in: whether the
    exact rows' common answer lies within its bounds (None when the exact rows give no
    answer, or disagree)."""
    answers = {(r.count, r.unique if check.unique else None) for r in check.answered}
    if len(answers) != 1:
        return check
    ((count, unique),) = answers

    def held(row: CrosscheckRow) -> CrosscheckRow:
        if not row.approximate or row.error is not None:
            return row
        return replace(row, within_bounds=within_all([(count, row.count_bounds), (unique, row.unique_bounds)]))

    return replace(check, rows=tuple(held(row) for row in check.rows))


def _row(
    name: str,
    be: Any,
    problem: Problem,
    unique: bool,
    opts: dict,
    time_limit: float | None,
    strict: bool,
    refusals: list[TooLarge],
) -> CrosscheckRow:
    """One backend's count under ``opts``, as a row (a refusal or a timeout included)."""
    method = opts.get("method")
    approximate = bool(getattr(type(be), "approximate", False))
    t0 = time.perf_counter()
    try:
        if time_limit is None or not _sendable((problem, opts)):
            r: CountResult | None = be.counts(problem, unique=unique, **opts)
            seconds = time.perf_counter() - t0
        else:
            # off the main thread, so that Ctrl-C stops the wait (and the process) at once
            r, seconds = interrupt.run(_count_within, name, problem, unique, opts, time_limit)
    except (MissingDependency, TooLarge, UnsupportedProblem) as e:  # the backend cannot run this problem here
        if strict:
            raise
        if isinstance(e, TooLarge):
            refusals.append(e)
        seconds = time.perf_counter() - t0
        return CrosscheckRow(name, None, None, seconds, False, str(e), method=method, approximate=approximate)
    if r is None:
        message = f"ran out of its {time_limit:g} s time limit; stopped"
        return CrosscheckRow(
            name, None, None, seconds, False, message, timed_out=True, method=method, approximate=approximate
        )
    if isinstance(r, ApproximateCount):
        return CrosscheckRow(
            name,
            r.count,
            r.unique,
            seconds,
            r.complete,
            method=r.method or method,
            approximate=True,
            epsilon=r.epsilon,
            delta=r.delta,
            count_bounds=r.count_bounds,
            unique_bounds=r.unique_bounds,
        )
    return CrosscheckRow(
        name, r.count, r.unique, seconds, r.complete, method=r.method or method, derivation=r.derivation
    )


def _sendable(obj: Any) -> bool:
    """Whether ``obj`` can be sent to another process."""
    import pickle  # here, not at the top: every count imports this module

    try:
        pickle.dumps(obj)
    except Exception:
        return False
    return True


def _count_in_process(name: str, problem: Problem, unique: bool, opts: dict, conn: Any) -> None:
    """The backend's process: say it is ready, count, send the result or the error."""
    try:
        conn.send(("ready", None))
        try:
            conn.send(("ok", get_backend(name).counts(problem, unique=unique, **opts)))
        except BaseException as e:  # sent to the caller, which raises it
            error: BaseException = e
            if not _sendable(e):
                error = QueensError(f"{type(e).__name__}: {e}")
            conn.send(("error", error))
    finally:
        conn.close()


def _count_within(
    name: str, problem: Problem, unique: bool, opts: dict, seconds: float
) -> tuple[CountResult | None, float]:
    """Count on backend ``name`` in a process of its own, killed after ``seconds`` of
    counting; returns (the result, or None if it ran out of time; the seconds it took)."""
    ctx = context()
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_count_in_process, args=(name, problem, unique, opts, send), daemon=True)
    try:
        proc.start()
        send.close()
        deadline = time.monotonic() + _START_SECONDS
        started = None
        while True:
            interrupt.check()  # Ctrl-C: the process is killed below
            left = deadline - time.monotonic()
            if left <= 0:
                return None, time.monotonic() - (started or deadline - _START_SECONDS)
            # short waits: Ctrl-C is seen between them
            if not receive.poll(min(left, 0.1)):
                if not proc.is_alive() and not receive.poll():
                    raise QueensError(
                        f"the {name} backend's process ended without an answer (exit code {proc.exitcode})"
                    )
                continue
            try:
                status, value = receive.recv()
            except EOFError:
                raise QueensError(
                    f"the {name} backend's process ended without an answer (exit code {proc.exitcode})"
                ) from None
            if status == "ready":
                started = time.monotonic()
                deadline = started + seconds
                continue
            elapsed = time.monotonic() - (started or time.monotonic())
            if status == "error":
                raise value
            return value, elapsed
    except KeyboardInterrupt:
        raise interrupt.Interrupted("interrupted") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        receive.close()
