"""Zhang and Zhang's orbit signature: Length-Area triples of adjacent-queen triangles.

Every three queens in adjacent rows form a triangle; so do every three queens in adjacent
columns. A triangle ``a, b, c`` is described by the *Length-Area triple* (formulas (2)-(4)
of Zhang and Zhang's paper, kept integral)::

    (Length(ab), Area(abc), Length(bc))
    Length(ab) = (xa - xb)**2 + (ya - yb)**2                  (squared length)
    Area(abc)  = |(xa - xb)*(yc - yb) - (xc - xb)*(ya - yb)|  (twice the area)

For a permutation ``p`` and consecutive positions ``i, i+1, i+2`` this is formula (7)::

    (1 + (p[i+1] - p[i])**2,  |p[i+2] - 2*p[i+1] + p[i]|,  1 + (p[i+2] - p[i+1])**2)

``Sig_x(p)`` is the sequence of the ``n - 2`` triples along the positions and
``Sig_y(p) = Sig_x(Inv(p))`` the sequence along the values (formula (8)); the signature of
``p`` is the pair ``{Sig_x, Sig_y}`` (formula (9)) -- :func:`raw_signature`, exactly as the
document's Table 2 prints it.

Two signatures are compared by Zhang and Zhang's **Sequential-Reverse criterion**:

1. two triples are equal if their areas are equal and their lengths are equal in the same
   order or in reverse order;
2. two sequences of triples are equal if they are equal (by 1) element by element, either
   in the same order or one of them reversed;
3. two pairs ``{Sig_x, Sig_y}`` are equal if they are equal (by 2) component by component,
   either as ``(x, y)`` or swapped.

:func:`signatures_equal` applies these rules literally; :func:`signature` returns a
canonical, hashable key with ``signature(p) == signature(q)`` exactly when the criterion
calls the raw signatures equal: each triple with its smaller length first, each sequence
the lesser of itself and its reverse, the pair sorted. Every member of an orbit of PO has
the same key (Rev reverses Sig_x, Cmpl reverses Sig_y, Inv swaps them), so the key is an
*orbit signature*.

Zhang and Zhang's paper claims that the orbit signature is unique: no two orbits share one. Its
criterion reverses each triple independently of the sequence, which forgets in which
order the lengths of consecutive triangles are chained. ``criterion="oriented"`` keeps that
order: reversing a sequence also reverses every triple in it, which is exactly what Rev,
Cmpl and Inv do to the triples. The oriented key separates all orbits for every n (a
proof is in docs/symmetry.md); whether Zhang and Zhang's looser key does is an experiment
(``queenslab experiment signature``, docs/experiments.md).

Examples
--------
>>> p = (0, 5, 7, 2, 6, 3, 1, 4)            # 1 6 8 3 7 4 2 5, the first row of Table 2
>>> sig_x(p)
((26, 3, 5), (5, 7, 26), (26, 9, 17), (17, 7, 10), (10, 1, 5), (5, 5, 10))
>>> signature(p) == signature((2, 4, 1, 7, 5, 3, 6, 0))   # 3 5 2 8 6 4 7 1, the last row
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .. import interrupt, limits, validate
from ..d4 import as_permutation, inv
from ..data import known_unique
from ..errors import QueensError
from ..native import engine
from ..problem import Problem

__all__ = [
    "Triple",
    "triangle",
    "sig_x",
    "sig_y",
    "raw_signature",
    "triples_equal",
    "sequences_equal",
    "signatures_equal",
    "signature",
    "CRITERIA",
    "is_alternating",
    "is_ambiguous",
    "CollisionReport",
    "COLLISIONS_MAX_N",
    "AMBIGUOUS_MAX_N",
    "signature_collisions",
    "alternating_permutations",
    "ambiguous_solutions",
]

Triple = tuple[int, int, int]
#: Values of ``criterion``: Zhang and Zhang's Sequential-Reverse criterion, or its oriented form.
CRITERIA = ("document", "oriented")
#: Largest n :func:`signature_collisions` takes without ``force=True``: n = 16 has
#: 1,846,955 orbits and takes about a minute; n = 17 has about 12 million (many minutes
#: of Python and gigabytes of hashes).
COLLISIONS = limits.declare(
    "signature_collisions",
    16,
    "n",
    "n = 16 has 1,846,955 orbits and takes about a minute, n = 17 about 12 million: many minutes of Python "
    "and gigabytes of hashes",
)
COLLISIONS_MAX_N = COLLISIONS.largest
#: The practical limit of :func:`alternating_permutations` and :func:`ambiguous_solutions`:
#: the walk is exponential, about 2.5x the time for every 4 more (n = 36 takes 1.5 s, n = 40
#: about 4 s, n = 50 about a minute, n = 56 several minutes).
AMBIGUOUS = limits.declare(
    "the alternating-permutation search", 40, "n", "the walk is exponential: n = 40 takes seconds, n = 56 minutes"
)
AMBIGUOUS_MAX_N = AMBIGUOUS.largest


def _int(x: object, what: str) -> int:
    if not isinstance(x, (bool, np.bool_)):
        try:
            return operator.index(x)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise QueensError(f"{what} must be an integer, got {validate.brief(x)}")


def _tuple(x: object, size: int, what: str) -> tuple:
    if isinstance(x, (str, bytes)):
        raise QueensError(f"{what} must be a sequence of {size}, got {validate.brief(x)}")
    try:
        out: tuple = tuple(cast(Iterable[Any], x))
    except TypeError:
        raise QueensError(f"{what} must be a sequence of {size}, got {validate.brief(x)}") from None
    if size >= 0 and len(out) != size:
        raise QueensError(f"{what} must have {size} entries, got {validate.brief(out)}")
    return out


def _triple(t: object, what: str = "a triple") -> Triple:
    if type(t) is tuple and len(t) == 3 and type(t[0]) is int and type(t[1]) is int and type(t[2]) is int:
        return t
    a, b, c = _tuple(t, 3, f"{what} (Length, Area, Length)")
    return (_int(a, what), _int(b, what), _int(c, what))


def _triples(seq: object, what: str = "a sequence of triples") -> tuple[Triple, ...]:
    return tuple(_triple(t, f"an entry of {what}") for t in _tuple(seq, -1, what))


def _raw(sig: object, what: str) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
    x, y = _tuple(sig, 2, f"{what} (Sig_x, Sig_y)")
    return _triples(x, f"Sig_x of {what}"), _triples(y, f"Sig_y of {what}")


def triangle(a: Sequence[int], b: Sequence[int], c: Sequence[int]) -> Triple:
    """The Length-Area triple of the triangle ``a, b, c`` (formulas (2)-(4)).

    Parameters
    ----------
    a, b, c : pair of int
        Points ``(x, y)``; ``b`` is the vertex shared by the two sides.

    Returns
    -------
    (int, int, int)
        ``(Length(ab), Area(abc), Length(bc))``: squared side lengths and twice the area.

    Examples
    --------
    >>> triangle((1, 1), (2, 6), (3, 8))        # the first triangle of 1 6 8 ...
    (26, 3, 5)
    """
    (xa, ya), (xb, yb), (xc, yc) = (
        tuple(_int(v, f"a coordinate of point {name}") for v in _tuple(pt, 2, f"point {name}"))
        for name, pt in (("a", a), ("b", b), ("c", c))
    )
    length_ab = (xa - xb) * (xa - xb) + (ya - yb) * (ya - yb)
    length_bc = (xb - xc) * (xb - xc) + (yb - yc) * (yb - yc)
    area = abs((xa - xb) * (yc - yb) - (xc - xb) * (ya - yb))
    return (length_ab, area, length_bc)


def _sig_x(p: Sequence[int]) -> tuple[Triple, ...]:
    out = []
    for i in range(len(p) - 2):
        d1, d2 = p[i + 1] - p[i], p[i + 2] - p[i + 1]
        out.append((1 + d1 * d1, abs(d2 - d1), 1 + d2 * d2))
    return tuple(out)


def sig_x(placement: Sequence[int]) -> tuple[Triple, ...]:
    """``Sig_x``: the triples of the triangles of queens at consecutive positions (formula (7)).

    Returns
    -------
    tuple of (int, int, int)
        ``n - 2`` triples (none for ``n < 3``).

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a 0-based permutation.
    """
    return _sig_x(as_permutation(placement))


def sig_y(placement: Sequence[int]) -> tuple[Triple, ...]:
    """``Sig_y = Sig_x(Inv(p))``: the triangles of queens at consecutive values (formula (8)).

    Examples
    --------
    >>> sig_y((0, 5, 7, 2, 6, 3, 1, 4))         # Table 2, first row, second component
    ((37, 9, 10), (10, 5, 5), (5, 0, 5), (5, 8, 37), (37, 9, 10), (10, 5, 5))
    """
    return _sig_x(inv(placement))


def raw_signature(placement: Sequence[int]) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
    """``(Sig_x, Sig_y)`` as Zhang and Zhang's paper prints it in Table 2 (formula (9)), uncompared."""
    p = as_permutation(placement)
    return _sig_x(p), _sig_x(inv(p))


def _check_criterion(criterion: str) -> str:
    if not isinstance(criterion, str) or criterion not in CRITERIA:
        raise QueensError(f"unknown signature criterion {validate.brief(criterion)}; use one of {', '.join(CRITERIA)}")
    return criterion


def triples_equal(s: Triple, t: Triple) -> bool:
    """Rule 1: equal areas, and equal lengths in the same or in reverse order.

    Raises
    ------
    QueensError
        If ``s`` or ``t`` is not a triple of integers.
    """
    return _triples_equal(_triple(s, "s"), _triple(t, "t"))


def _triples_equal(s: Triple, t: Triple) -> bool:
    return s[1] == t[1] and ((s[0] == t[0] and s[2] == t[2]) or (s[0] == t[2] and s[2] == t[0]))


def sequences_equal(s: Sequence[Triple], t: Sequence[Triple], criterion: str = "document") -> bool:
    """Rule 2: equal element by element (rule 1), in the same order or one reversed.

    With ``criterion="oriented"`` the reversed comparison also reverses each triple
    (``(a, A, b)`` against ``(b, A, a)``) and the sequential one compares triples exactly.

    Raises
    ------
    QueensError
        If ``s`` or ``t`` is not a sequence of integer triples, or for an unknown criterion.
    """
    _check_criterion(criterion)
    return _sequences_equal(_triples(s, "s"), _triples(t, "t"), criterion)


def _sequences_equal(s: tuple[Triple, ...], t: tuple[Triple, ...], criterion: str) -> bool:
    if len(s) != len(t):
        return False
    if criterion == "document":
        return all(map(_triples_equal, s, t)) or all(map(_triples_equal, s, reversed(t)))
    return tuple(s) == tuple(t) or tuple(s) == tuple(x[::-1] for x in reversed(t))


def signatures_equal(a, b, criterion: str = "document") -> bool:
    """Rule 3: the Sequential-Reverse criterion on two raw signatures ``(Sig_x, Sig_y)``.

    Parameters
    ----------
    a, b : pair of sequences of triples
        As returned by :func:`raw_signature`.
    criterion : {"document", "oriented"}

    Examples
    --------
    >>> signatures_equal(raw_signature((1, 3, 0, 2)), raw_signature((2, 0, 3, 1)))
    True
    """
    _check_criterion(criterion)
    (ax, ay), (bx, by) = _raw(a, "a"), _raw(b, "b")
    eq = _sequences_equal
    return (eq(ax, bx, criterion) and eq(ay, by, criterion)) or (eq(ax, by, criterion) and eq(ay, bx, criterion))


def _key_document(seq: tuple[Triple, ...]) -> tuple[Triple, ...]:
    tri = tuple((a, area, b) if a <= b else (b, area, a) for a, area, b in seq)
    return min(tri, tri[::-1])


def _key_oriented(seq: tuple[Triple, ...]) -> tuple[Triple, ...]:
    back = tuple(t[::-1] for t in reversed(seq))
    return min(seq, back)


def signature(placement: Sequence[int], criterion: str = "document") -> tuple:
    """The orbit signature of a placement as a canonical hashable key.

    Parameters
    ----------
    placement : sequence of int
        A 0-based permutation.
    criterion : {"document", "oriented"}, default "document"
        ``"document"``: Zhang and Zhang's Sequential-Reverse criterion; ``"oriented"``: the
        same with each triple reversed together with its sequence (see the module
        docstring).

    Returns
    -------
    tuple
        ``(sx, sy)`` with ``sx <= sy``, each a tuple of triples; equal for two
        placements exactly when :func:`signatures_equal` says so. Every member of an orbit
        of PO has the same key.

    Raises
    ------
    InvalidPlacement
        If ``placement`` is not a 0-based permutation.
    QueensError
        For an unknown ``criterion``.

    Examples
    --------
    >>> signature((1, 3, 0, 2))
    (((5, 5, 10), (5, 5, 10)), ((5, 5, 10), (5, 5, 10)))
    >>> signature((1, 3, 0, 2), "oriented")
    (((5, 5, 10), (10, 5, 5)), ((5, 5, 10), (10, 5, 5)))
    """
    key = _key_document if _check_criterion(criterion) == "document" else _key_oriented
    sx, sy = raw_signature(placement)
    a, b = key(sx), key(sy)
    return (a, b) if a <= b else (b, a)


# ----------------------------------------------------------------------------- uniqueness


def is_alternating(seq: Sequence[Triple]) -> bool:
    """Whether a sequence of triples leaves Zhang and Zhang's criterion a choice of chaining.

    Under Zhang and Zhang's criterion each triple is compared up to the order of its two
    lengths. Consecutive triangles share a side, so the lengths ``L1, L2, ..., L(n-1)`` of
    the sides in order are recovered from the unordered pairs ``{L1, L2}, {L2, L3}, ...``
    -- except when every pair is the same ``{a, b}`` with ``a != b`` and there are at least
    two triangles: then ``a, b, a, ...`` and ``b, a, b, ...`` both fit. This returns True
    exactly in that case.

    Examples
    --------
    >>> is_alternating(sig_x((1, 3, 0, 2)))       # lengths 5, 10, 5
    True
    >>> is_alternating(sig_x((0, 2, 4, 1, 3)))    # lengths 5, 5, 10, 5
    False
    """
    seq = _triples(seq, "seq")
    if len(seq) < 2:
        return False
    pairs = {tuple(sorted((t[0], t[2]))) for t in seq}
    if len(pairs) != 1:
        return False
    a, b = next(iter(pairs))
    return a != b


def is_ambiguous(placement: Sequence[int]) -> bool:
    """Whether both ``Sig_x`` and ``Sig_y`` of the placement are :func:`is_alternating`.

    Only such orbits can share a document signature with another orbit (see
    docs/symmetry.md): anywhere else Zhang and Zhang's key determines the oriented key,
    which determines the orbit.

    Examples
    --------
    >>> is_ambiguous((1, 3, 0, 2)), is_ambiguous((0, 4, 7, 5, 2, 6, 1, 3))
    (True, False)
    """
    sx, sy = raw_signature(placement)
    return is_alternating(sx) and is_alternating(sy)


@dataclass(frozen=True)
class CollisionReport:
    """The outcome of :func:`signature_collisions` for one n.

    Attributes
    ----------
    n : int
    criterion : str
    orbits : int
        Number of orbits (fundamental solutions).
    signatures : int
        Number of distinct orbit signatures among them.
    collisions : tuple of tuple of tuple of int
        Groups of two or more canonical representatives (0-based) sharing a signature.
    ambiguous : int
        Orbits whose representative :func:`is_ambiguous` (computed for Zhang and Zhang's paper criterion;
        0 for "oriented").
    seconds : float
    """

    n: int
    criterion: str
    orbits: int
    signatures: int
    collisions: tuple
    ambiguous: int
    seconds: float = 0.0


def signature_collisions(
    n: int,
    criterion: str = "document",
    *,
    progress: Callable[[int, int], None] | None = None,
    force: bool = False,
) -> CollisionReport:
    """Test Zhang and Zhang's claim that no two orbits of order ``n`` share a signature.

    Every orbit of the standard n-queens problem is taken once (its canonical member, from
    the native engine) and its signature computed; equal signatures are found by sorting
    64-bit hashes and confirmed by comparing the full keys, so memory stays small for large
    ``n``.

    Parameters
    ----------
    n : int
        Board size (n = 16 has 1,846,955 orbits and takes about a minute).
    criterion : {"document", "oriented"}
    progress : callable, optional
        ``progress(done, total)`` with the orbits done so far.
    force : bool, default False
        Allow ``n > COLLISIONS_MAX_N`` (up to the native engine's limit).

    Returns
    -------
    CollisionReport

    Raises
    ------
    TooLarge
        For ``n > COLLISIONS_MAX_N`` without ``force`` (the command line relies on it).
    QueensError
        For a bad ``n``, ``criterion`` or ``progress``.

    Examples
    --------
    >>> r = signature_collisions(8)
    >>> r.orbits, r.signatures, r.collisions, r.ambiguous
    (12, 12, (), 0)
    """
    import time

    _check_criterion(criterion)
    progress = validate.callback(progress)
    problem = Problem(n)
    n = problem.n
    limits.check(COLLISIONS, n, validate.flag(force, "force"))
    engine.check_problem(problem)
    t0 = time.perf_counter()
    total = known_unique(problem.n) or 0
    reps, hashes = [], []
    ambiguous = 0
    done = 0
    for sols, _ in engine.fundamental_batches(problem, batch=8192):
        reps.append(sols.astype(np.int8 if n < 128 else np.int64))
        hs = np.empty(len(sols), np.int64)
        for k, row in enumerate(sols.tolist()):
            hs[k] = hash(signature(row, criterion))
            if criterion == "document" and is_ambiguous(row):
                ambiguous += 1
        hashes.append(hs)
        done += len(sols)
        if progress:
            progress(done, max(total, done))
    if not reps:
        return CollisionReport(problem.n, criterion, 0, 0, (), 0, time.perf_counter() - t0)
    reps_a = np.concatenate(reps)
    h = np.concatenate(hashes)
    order = np.argsort(h, kind="stable")
    hs = h[order]
    dup = np.nonzero(hs[1:] == hs[:-1])[0]
    # runs of equal hashes: confirm with the full keys
    groups: dict = {}
    candidates = sorted({int(order[i]) for i in dup} | {int(order[i + 1]) for i in dup})
    for idx in candidates:
        rep = tuple(int(x) for x in reps_a[idx])
        groups.setdefault(signature(rep, criterion), []).append(rep)
    collisions = tuple(tuple(sorted(g)) for g in groups.values() if len(g) > 1)
    merged = sum(len(g) - 1 for g in collisions)
    return CollisionReport(
        problem.n,
        criterion,
        len(reps_a),
        len(reps_a) - merged,
        tuple(sorted(collisions)),
        ambiguous,
        time.perf_counter() - t0,
    )


def _ambiguity_n(n: object, force: object, what: str) -> int:
    size = validate.whole_number(n, "n")
    return limits.check(AMBIGUOUS, size, validate.flag(force, "force"))


def alternating_permutations(n: int, *, force: bool = False) -> list[tuple[int, ...]]:
    """Every permutation of ``0..n-1`` whose steps alternate between two sizes.

    These are the permutations ``p`` with ``|p[i+1] - p[i]|`` equal to ``a, b, a, b, ...``
    for some ``a != b`` -- exactly those whose ``Sig_x`` :func:`is_alternating` (for
    ``n >= 4``). They are found by a depth-first walk over the start value and the signs of
    the steps, which is fast (n = 40 takes seconds) although there are ``n!``
    permutations.

    Parameters
    ----------
    n : int
        Length, ``1 .. AMBIGUOUS_MAX_N`` (beyond it with ``force=True``).
    force : bool, default False
        Allow ``n > AMBIGUOUS_MAX_N``.

    Returns
    -------
    list of tuple of int
        In lexicographic order.

    Raises
    ------
    TooLarge
        For ``n > AMBIGUOUS_MAX_N`` without ``force``.

    Examples
    --------
    >>> alternating_permutations(4)[:3]            # steps 1, 2, 1 / 2, 1, 2 / 2, 1, 2
    [(0, 1, 3, 2), (0, 2, 1, 3), (0, 2, 3, 1)]
    """
    import sys

    n = _ambiguity_n(n, force, "alternating_permutations")
    found = set()
    flag = interrupt.FLAG
    used = [False] * n
    path: list[int] = []

    def walk(steps: tuple[int, int]) -> None:
        if flag[0]:  # a stop was requested (Ctrl-C): unwind, return nothing partial
            interrupt.check()
        if len(path) == n:
            found.add(tuple(path))
            return
        step = steps[(len(path) - 1) % 2]
        last = path[-1]
        for v in (last + step, last - step):
            if 0 <= v < n and not used[v]:
                used[v] = True
                path.append(v)
                walk(steps)
                path.pop()
                used[v] = False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * n + 100))
    try:
        for a in range(1, n):
            for b in range(1, n):
                if a == b:
                    continue
                for start in range(n):
                    used[start] = True
                    path.append(start)
                    walk((a, b))
                    path.pop()
                    used[start] = False
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def ambiguous_solutions(n: int, *, force: bool = False) -> list[tuple[int, ...]]:
    """The n-queens solutions whose ``Sig_x`` and ``Sig_y`` are both alternating.

    Only orbits of such solutions can share a document signature with another orbit
    (docs/symmetry.md proves it), so if the solutions this returns lie in at most one
    orbit per signature, Zhang and Zhang's orbit signature separates every orbit of order n.

    Examples
    --------
    >>> ambiguous_solutions(4), ambiguous_solutions(8)
    ([(1, 3, 0, 2), (2, 0, 3, 1)], [])
    """
    n = _ambiguity_n(n, force, "ambiguous_solutions")
    out = []
    for p in alternating_permutations(n, force=True):
        if all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n)) and is_ambiguous(p):
            out.append(p)
    return out
