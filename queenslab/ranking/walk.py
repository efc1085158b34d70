"""Walks down the prefix tree that rank and unrank share, a problem's total, and the
argument checks every ranking function applies first.

The rank of a solution is ``base`` plus the sizes of the subtrees of its rows' smaller
siblings (:func:`rank_walk`); unranking walks down choosing the child whose subtree holds
the wanted rank (:func:`unrank_walk`). Subtree sizes come from the native engine. Both
the index-free functions of :mod:`queenslab.ranking.lex` and the persistent index
(:mod:`queenslab.ranking.index`, which starts the walks below a stored prefix) call
these.

One rule for the arguments of every ranking function: the problem is a
:class:`~queenslab.problem.Problem` (an ``int`` is refused with a message naming
``Problem(n)``, as everywhere in queenslab), columns and ranks are integers (a float is
refused, never truncated), and an exact computation without an index is refused for
``n > PRACTICAL_LIMIT`` unless ``force=True`` (:func:`check_size`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import interrupt, limits, validate
from ..d4 import D4Element
from ..data import known_total
from ..errors import InvalidPlacement, QueensError
from ..native import small
from ..native.pool import COUNT
from ..problem import Problem, as_problem
from ..solution import conflicts, parse_placement

__all__ = [
    "total",
    "known",
    "rank_walk",
    "unrank_walk",
    "check_problem",
    "check_size",
    "as_solution",
    "check_rank",
    "WalkMismatch",
]

_CMPL = D4Element(cmpl=True)


class WalkMismatch(RuntimeError):
    """A walk below a stored prefix found fewer solutions than the stored count promised
    (only an inconsistent index can cause it; the index turns it into InvalidIndex)."""


def check_problem(problem: object) -> Problem:
    """``problem`` if it is a :class:`Problem` the native engine can represent.

    Raises
    ------
    QueensError
        For anything else than a Problem (an int ``n`` included: write ``Problem(n)``).
    TooLarge
        For ``n > engine.MAX_N``.

    Examples
    --------
    >>> check_problem(8)
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: expected a queenslab Problem, got int 8 (for the standard problem write Problem(8))
    """
    checked = as_problem(problem)
    if not small.is_small(checked):  # a board the plain-Python counter takes needs no engine (nor numba)
        from ..native import engine

        engine.check_problem(checked)
    return checked


def _duration(seconds: float) -> str:
    """A rough duration in words.

    Examples
    --------
    >>> _duration(90), _duration(3 * 86400), _duration(1e20)
    ('2 minutes', '3 days', '3e+12 years')
    """
    year = 365.25 * 86400
    if seconds >= 1e4 * year:
        return f"{seconds / year:.0e} years"
    for unit, size in (("years", year), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _count_seconds(n: int) -> float:
    """A rough time to count every solution of n-queens on 2 cores: about a minute for
    n = 18 and seven times longer per further unit (the engine's benchmark)."""
    return 60.0 * 7.0 ** (n - COUNT.largest)


def check_size(problem: Problem, force: bool, what: str = "exact ranking without an index") -> None:
    """Refuse ``n > PRACTICAL_LIMIT`` unless ``force``, saying what it would take.

    Ranking without an index counts subtrees: unranking counts at least one first-row
    subtree (about ``total / n`` solutions) and up to a quarter of the tree; building an
    index counts every solution. Both grow about sevenfold per unit of n.

    Raises
    ------
    TooLarge
        With the estimated work, and how to go ahead anyway.
    """
    force = validate.flag(force, "force")
    n = problem.n
    if force or n <= COUNT.largest:
        return
    size = known_total(n) if problem.is_standard else None
    index = what.startswith("building")
    if index:
        work = (
            f"it counts every solution ({size:.2e} for n = {n}, OEIS A000170)" if size else "it counts every solution"
        )
        secs = _count_seconds(n)
    else:
        work = (
            f"it counts subtrees of between about total/n = {size // n:.1e} and total/4 = {size // 4:.1e} solutions"
            if size
            else "it counts subtrees of between about 1/n and a quarter of all solutions"
        )
        secs = _count_seconds(n) / n
    limits.check(
        COUNT,
        n,
        request=f"{what} for n = {n}",
        cost=f"{work}, roughly {_duration(secs)} or more on 2 cores; counting n = {COUNT.largest} takes about "
        "a minute and each further n about seven times longer",
        hint="" if index else "a complete index for this problem (queenslab index build) lifts the limit",
    )


def as_solution(problem: Problem, placement: object) -> tuple[int, ...]:
    """``placement`` (0-based integer columns, or 1-based text) as a tuple, if it is a
    solution of ``problem``.

    Raises
    ------
    InvalidPlacement
        If a column is not an integer (floats are refused, not truncated), the length or
        a column is off the board, or it is not a solution (the message says why).
    """
    if isinstance(placement, str):
        p = parse_placement(placement, problem.n)
    else:
        try:
            cells = list(placement)  # type: ignore[call-overload]
        except TypeError:
            raise InvalidPlacement(f"a placement is a sequence of 0-based columns, got {placement!r}") from None
        p = tuple(validate.whole_number(c, "a column", minimum=0, error=InvalidPlacement) for c in cells)
    found = conflicts(problem, p)
    if found:
        raise InvalidPlacement(f"not a solution of {problem.describe()}, so it has no rank: {found[0].message}")
    return p


def check_rank(problem: Problem, r: object, size: int) -> int:
    """``r`` as an int if ``0 <= r < size``; else a QueensError giving the valid range
    (0-based, and 1-based as the command line counts)."""
    v = validate.whole_number(r, "a rank", minimum=-(2**63))
    if size == 0:
        raise QueensError(f"{problem.describe()} has no solutions, so no rank is valid")
    if not 0 <= v < size:
        raise QueensError(
            f"rank {v} (0-based; {v + 1} counted from 1) is out of range: {problem.describe()} "
            f"has {size} solutions, so ranks are 0..{size - 1} (1..{size} on the command line)"
        )
    return v


def known(problem: Problem) -> int | None:
    """The known number of solutions of the standard problem (OEIS A000170), else None."""
    return known_total(problem.n) if problem.is_standard else None


def total(problem: Problem, *, threads: int | None = None) -> int:
    """Number of solutions: the known value for the standard problem, else counted.

    The count is not size-checked here: callers check first (:func:`check_size`), and
    :func:`queenslab.ranking.lex.total` is the checked public form.
    """
    check_problem(problem)
    value = known(problem)
    if value is not None:
        return value
    from ..native import engine

    return engine.count(problem, threads=threads, force=True)


def _mirror_ok(problem: Problem) -> bool:
    return problem.is_standard and known_total(problem.n) is not None and problem.n >= 2


def _children_counts(problem, prefix, upto, threads) -> list[int]:
    prefix = list(prefix)
    from ..native import engine

    out = engine.count_prefixes(problem, [prefix + [c] for c in range(upto)], threads=threads, force=True)
    interrupt.check()
    return out


def _counts(problem, prefixes, threads) -> list[int]:
    from ..native import engine

    out = engine.count_prefixes(problem, prefixes, threads=threads, force=True)
    interrupt.check()
    return out


def _left_sum_row0(problem: Problem, k: int, size: int, threads) -> int:
    """Solutions whose first-row column is < k, for a mirror-symmetric problem, k <= n/2."""
    n = problem.n
    if n % 2 == 0:
        h = n // 2
        if k <= h - k:
            return sum(_children_counts(problem, [], k, threads))
        right = _counts(problem, [[c] for c in range(k, h)], threads)
        return size // 2 - sum(right)
    m = (n - 1) // 2
    if k <= m - k + 1:
        return sum(_children_counts(problem, [], k, threads))
    right = _counts(problem, [[c] for c in range(k, m + 1)], threads)
    middle = right[-1]
    return (size - middle) // 2 - sum(right[:-1])


def rank_walk(problem: Problem, p: Sequence[int], start: int, base: int, threads) -> int:
    """``base`` plus the left-sibling subtrees of rows ``start..n-1`` of ``p``."""
    n = problem.n
    if start == 0 and _mirror_ok(problem):
        size = known_total(n)
        assert size is not None  # _mirror_ok: the standard problem with a known total
        if p[0] > (n - 1) // 2 and not (n % 2 == 1 and p[0] == (n - 1) // 2):
            # cmpl reverses the order: rank from the mirror image
            return base + size - 1 - rank_walk(problem, _CMPL.apply(p), 0, 0, threads)
        r = _left_sum_row0(problem, p[0], size, threads)
        return base + r + rank_walk(problem, p, 1, 0, threads)
    r = base
    for i in range(start, n):
        if p[i]:
            r += sum(_children_counts(problem, p[:i], p[i], threads))
    return r


def unrank_walk(problem: Problem, r: int, size: int, prefix: list[int], threads) -> tuple[int, ...]:
    """The solution of rank ``r`` (0-based) inside the subtree below ``prefix``.

    Raises
    ------
    WalkMismatch
        If the subtree holds ``r`` or fewer solutions (only when a stored count is wrong).
    """
    n = problem.n
    if not prefix and _mirror_ok(problem):
        if r >= (size + 1) // 2 and n >= 2:
            return _CMPL.apply(unrank_walk(problem, size - 1 - r, size, [], threads))
        # first-row column: smallest k with left_sum(k + 1) > r, searched from the
        # end that the rank is nearer to
        half = (n + 1) // 2
        if r < size // 4:
            acc = 0
            for c in range(half):
                f = _counts(problem, [[c]], threads)[0]
                if r < acc + f:
                    return unrank_walk(problem, r - acc, size, [c], threads)
                acc += f
        else:
            # walk left from the middle: S(c) = solutions with first-row column < c
            if n % 2 == 0:
                c, s_next = n // 2, size // 2
            else:
                c = (n - 1) // 2
                middle = _counts(problem, [[c]], threads)[0]
                s_c = (size - middle) // 2
                if s_c <= r:
                    return unrank_walk(problem, r - s_c, size, [c], threads)
                s_next = s_c
            while c > 0:
                c -= 1
                s_c = s_next - _counts(problem, [[c]], threads)[0]
                if s_c <= r:
                    return unrank_walk(problem, r - s_c, size, [c], threads)
                s_next = s_c
        raise WalkMismatch("a rank within range must fall in a first-row subtree")  # pragma: no cover
    prefix = list(prefix)
    while len(prefix) < n:
        counts = _children_counts(problem, prefix, n, threads)
        for c, k in enumerate(counts):
            if r < k:
                prefix.append(c)
                break
            r -= k
        else:
            raise WalkMismatch(f"the subtree below {prefix} holds fewer solutions than the rank asked for")
    return tuple(prefix)
