"""Slow, obviously correct reference implementations the fast code is compared with.

Nothing here imports the code under test except the Problem data holder: attacks,
symmetries and orbits are re-derived from scratch with plain loops and numpy array
rotations, so an error in queenslab's own versions cannot hide in both.
"""

from __future__ import annotations

import functools
import itertools
import types

import numpy as np

KNIGHT = [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)]


def _jumps(leapers):
    """The eight jumps of each leaper offset (a, b), listed by hand."""
    out = set()
    for a, b in leapers:
        out |= {(a, b), (a, -b), (-a, b), (-a, -b), (b, a), (b, -a), (-b, a), (-b, -a)}
    return sorted(out)


def attacked(n, a, b, toroidal=False, knight=False, leapers=()):
    """Do queens on cells a and b attack each other? Explicit ray walking."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2 or c1 == c2:
        return True
    # walk the four diagonal rays from a, wrapping on a torus
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = r1, c1
        for _ in range(n):
            r, c = r + dr, c + dc
            if toroidal:
                r, c = r % n, c % n
            elif not (0 <= r < n and 0 <= c < n):
                break
            if (r, c) == (r2, c2):
                return True
    for dr, dc in (KNIGHT if knight else []) + _jumps(leapers):
        r, c = r1 + dr, c1 + dc
        if toroidal:
            r, c = r % n, c % n
        if (r, c) == (r2, c2):
            return True
    return False


def is_solution(problem, p):
    n = problem.n
    if sorted(p) != list(range(n)):
        return False
    cells = [(r, p[r]) for r in range(n)]
    if any(cell in set(problem.blocked) for cell in cells):
        return False
    if any(p[r] != c for r, c in problem.fixed):
        return False
    for region in problem.regions:
        k = sum(cell in set(region.cells) for cell in cells)
        if k < region.at_least or (region.at_most is not None and k > region.at_most):
            return False
    for own in getattr(problem, "own_constraints", ()):  # a kind defined outside the package: its own rule
        if not own.holds(tuple(p)):
            return False
    leapers = getattr(problem, "leapers", ())
    return not any(
        attacked(n, a, b, problem.toroidal, problem.knight, leapers) for a, b in itertools.combinations(cells, 2)
    )


def all_solutions(problem):
    """Every solution, by trying all n! permutations, sorted lexicographically."""
    return sorted(p for p in itertools.permutations(range(problem.n)) if is_solution(problem, p))


def _board(n, cells):
    b = np.zeros((n, n), dtype=np.int8)
    for r, c in cells:
        b[r, c] = 1
    return b


def _transforms():
    """The 8 symmetries of the square as functions on 2-D arrays (numpy rotations)."""
    out = []
    for k in range(4):
        out.append(lambda a, k=k: np.rot90(a, k))
        out.append(lambda a, k=k: np.fliplr(np.rot90(a, k)))
    return out


def _invariant_transforms(problem):
    """The square symmetries (numpy rotations) mapping the blocked cells, the fixed cells
    and the set of regions (each a board of its cells with its two bounds) onto themselves."""
    n = problem.n
    bl, fx = _board(n, problem.blocked), _board(n, problem.fixed)

    def regions_under(t):
        # the regions, and the cell sets of the kinds defined outside the package (tests give them
        # a ``cells`` attribute), each as a board of its cells with what else it says
        return sorted(
            [
                (t(_board(n, region.cells)).tobytes(), region.at_least, region.at_most is None, region.at_most or 0)
                for region in problem.regions
            ]
            + [
                (t(_board(n, own.cells)).tobytes(), -1, type(own).__name__, 0)
                for own in getattr(problem, "own_constraints", ())
            ]
        )

    same = regions_under(lambda a: a)
    return [
        t for t in _transforms() if np.array_equal(t(bl), bl) and np.array_equal(t(fx), fx) and regions_under(t) == same
    ]


def symmetry_count(problem):
    """Number of square symmetries mapping blocked cells, fixed cells and regions onto themselves."""
    return len(_invariant_transforms(problem))


def orbit_count(problem, sols=None):
    """Number of orbits of the solutions under the problem's symmetry subgroup."""
    n = problem.n
    group = _invariant_transforms(problem)
    sols = all_solutions(problem) if sols is None else sols
    canon = set()
    for p in sols:
        b = _board(n, enumerate(p))
        images = []
        for t in group:
            tb = t(b)
            images.append(tuple(int(np.argmax(tb[r])) for r in range(n)))
        canon.add(min(images))
    return len(canon)


@functools.cache
def _least_solutions(n):
    """(least solution, orbit size) of every orbit of the standard problem, brute force."""
    standard = types.SimpleNamespace(n=n, blocked=(), fixed=(), regions=(), toroidal=False, knight=False)
    out = []
    for p in all_solutions(standard):
        b = _board(n, enumerate(p))
        images = {tuple(int(np.argmax(t(b)[r])) for r in range(n)) for t in _transforms()}
        if min(images) == p:
            out.append((p, len(images)))
    return out


def orbits_by_least_prefix(n, prefix):
    """``{orbit size: number of orbits}`` of the standard problem's orbits whose
    lexicographically least solution begins with ``prefix`` (all n! permutations tried).

    This is what one task of the symmetric counter holds: ``(1, b1, c)`` the orbits whose
    least solution begins ``0, b1, c``, ``(0, b1, c)`` those beginning ``b1, c``.
    """
    found = {}
    for p, size in _least_solutions(n):
        if p[: len(prefix)] == tuple(prefix):
            found[size] = found.get(size, 0) + 1
    return found


def shape_cells(kind, n, arg):
    """The cells of a region shape on an n x n board, by testing every cell against the
    shape's definition (0-based): rows / columns (a set of numbers), a rectangle (two
    opposite corners), the diagonal (column - row constant) or anti-diagonal (row + column
    constant) through a cell."""

    def inside(r, c):
        if kind == "rows":
            return r in set(arg)
        if kind == "columns":
            return c in set(arg)
        if kind == "rectangle":
            (r0, c0), (r1, c1) = arg
            return min(r0, r1) <= r <= max(r0, r1) and min(c0, c1) <= c <= max(c0, c1)
        if kind == "diagonal":
            return c - r == arg[1] - arg[0]
        if kind == "anti_diagonal":
            return r + c == arg[0] + arg[1]
        raise ValueError(kind)

    return tuple((r, c) for r in range(n) for c in range(n) if inside(r, c))


def images(p):
    """The 8 images of a placement under D4, by numpy rotations and flips of its 0/1 board
    (a list: an image fixed by several elements appears several times)."""
    n = len(p)
    b = _board(n, enumerate(p))
    return [tuple(int(np.argmax(t(b)[r])) for r in range(n)) for t in _transforms()]


def image_set(p):
    """The distinct images of ``p`` under the eight symmetries of the square."""
    return set(images(p))


def zero(t):
    """A 1-based tuple (as printed in the papers) as a 0-based one."""
    return tuple(x - 1 for x in t)


def one(t):
    """A 0-based tuple as a 1-based one."""
    return tuple(x + 1 for x in t)


def raises_each(error, calls):
    """Check that every call of ``calls`` (message pattern -> a call without arguments,
    e.g. a ``functools.partial``) raises ``error`` with a message matching the pattern."""
    import pytest

    for match, call in calls.items():
        with pytest.raises(error, match=match):
            call()


# ----------------------------------------------------------------------------- trace rules

#: The ops each traced method writes, and the most tries of the local searches (their
#: default restarts + 1), as the watching page of the docs lists them.
TRACE_OPS = {
    "backtrack": {"place", "move", "remove", "solution"},
    "selfcorrect": {"start", "move"},
    "minconflicts": {"start", "swap"},
    "ga": {"best"},
    "orbit-search": {"orbit"},
}
TRACE_TRIES = {"selfcorrect": 1001, "minconflicts": 101}


def _may_take(problem, board, r, c):
    """May backtracking put a queen on (r, c), given the queens of ``board`` (-1: empty)?
    The problem's own cells (not blocked, not in a region that allows no queen, its row's
    fixed cell, no fixed queen attacking it), no region above its bound, no queen of the
    board attacking it."""
    n = problem.n
    leapers = getattr(problem, "leapers", ())
    hits = lambda a, b: attacked(n, a, b, problem.toroidal, problem.knight, leapers)
    if (r, c) in set(problem.blocked):
        return False
    for fr, fc in problem.fixed:
        if (fr == r and fc != c) or (fr != r and hits((fr, fc), (r, c))):
            return False
    cells = [(i, board[i]) for i in range(n) if board[i] >= 0 and i != r] + [(r, c)]
    for region in problem.regions:
        k = sum(cell in set(region.cells) for cell in cells)
        if region.at_most is not None and k > region.at_most:
            return False
    return not any(hits(a, (r, c)) for a in cells[:-1])


def backtrack_steps(problem, limit):
    """The first ``limit`` steps of lexicographic backtracking on ``problem``, as trace
    lines, re-derived by recursion: each row's columns that ``_may_take`` allows (worked
    out when the row is entered), in increasing order; a row deeper while a region can still
    reach its least number of queens and the next row has such a column; a solution step on
    every full board; a queen taken off when its row has no column left."""
    n = problem.n
    board = [-1] * n
    out = []
    free = lambda r: [c for c in range(n) if _may_take(problem, board, r, c)]
    alone = [-1] * n
    # rows at or after each row holding a cell of each region a queen may take at all
    reach = [
        [
            sum(any(_may_take(problem, alone, i, c) for r2, c in region.cells if r2 == i) for i in range(y, n))
            for y in range(n + 1)
        ]
        for region in problem.regions
    ]

    def regions_can_fill(r):
        cells = {(i, board[i]) for i in range(r + 1)}
        for k, region in enumerate(problem.regions):
            held = sum(cell in set(region.cells) for cell in cells)
            if held + reach[k][r + 1] < region.at_least:
                return False
        return True

    def visit(r):
        for c in free(r):
            if len(out) >= limit:
                return
            out.append(["place" if board[r] < 0 else "move", r, c])
            board[r] = c
            if not regions_can_fill(r):
                continue
            if r + 1 == n:
                out.append(["solution"])
            elif free(r + 1):
                visit(r + 1)
        if board[r] >= 0 and len(out) < limit:
            out.append(["remove", r])
            board[r] = -1

    if n and free(0):
        visit(0)
    return out[:limit]


def _half_number(text):
    """Is ``text`` an integer or an integer and a half (``3``, ``-2``, ``6.5``)?"""
    whole, dot, half = text.removeprefix("-").partition(".")
    return whole.isdigit() and whole.isascii() and (not dot or half == "5")


def _no_attack(n, board):
    """Does no queen of the full ``board`` attack another (the standard rules)?"""
    cells = list(enumerate(board))
    return not any(attacked(n, a, b) for a, b in itertools.combinations(cells, 2))


def trace_violation(method, problem, steps, options, complete=None):
    """The 1-based number of the first step of ``steps`` (each a trace line's JSON list,
    0-based) that ``method`` cannot take, or None: the rules re-derived step by step from
    the Problem's data, the brute-force attack test and the brute-force solution test.
    With ``complete`` (the header's), a trace that ends where the search goes on, or the
    other way round, is refused at the step after its last."""
    n = problem.n
    if method == "backtrack":
        want = backtrack_steps(problem, 10**9 if complete is not None else len(steps))
        if options["solutions"]:  # the walk stops at the solutions asked for
            ends = [i for i, x in enumerate(want) if x == ["solution"]]
            if len(ends) >= options["solutions"]:
                want = want[: ends[options["solutions"] - 1] + 1]
        for k, step in enumerate(steps, 1):
            if k > len(want) or list(step) != want[k - 1]:
                return k
        if complete is not None and complete != (len(steps) == len(want)):
            return len(steps) + 1
        return None
    if n in (2, 3) and steps:
        return 1
    solved = False
    board = [-1] * n
    tries = found = 0
    last = None
    seen_orbits = []
    deepest = 0
    for k, step in enumerate(steps, 1):
        op, args = step[0], step[1:]
        if op not in TRACE_OPS[method] or solved:
            return k
        depth = next((i for i in range(n) if board[i] < 0), n)
        if method == "backtrack":
            if op == "place":
                r, c = args
                if r != depth or not _may_take(problem, board, r, c):
                    return k
                board[r] = c
            elif op in ("move", "remove"):
                r = args[0]
                if depth == 0 or r != depth - 1:
                    return k
                if op == "move":
                    c = args[1]
                    if c <= board[r] or not _may_take(problem, board, r, c):
                        return k
                    board[r] = c
                else:
                    board[r] = -1
            else:
                if last == "solution" or depth < n or not is_solution(problem, board):
                    return k
                found += 1
                if options["solutions"] and found > options["solutions"]:
                    return k
        elif op == "start":
            tries += 1
            b = list(args[0])
            if tries > TRACE_TRIES[method] or min(b) < 0:
                return k
            if method == "minconflicts" and sorted(b) != list(range(n)):
                return k
            board = b
            solved = _no_attack(n, board)
        elif op in ("move", "swap"):
            if tries == 0:
                return k
            r, c = args
            if op == "move":
                if n == 1 or c != (board[r] + 1) % n:
                    return k
                board[r] = c
            else:
                if r == c:
                    return k
                board[r], board[c] = board[c], board[r]
            solved = _no_attack(n, board)
        elif op == "best":
            g, b = args
            if g != k - 1 or g > 10_000 or min(b) < 0:
                return k
            tries = g
            solved = _no_attack(n, list(b))
        else:  # orbit
            g, b, operator = args
            name = operator[:4]
            if name not in ("Inc(", "Mov(") or not operator.endswith(")") or len(operator) > 80:
                return k
            parts = operator[4:-1].split(", ")
            if not 2 <= len(parts) <= 4 or not all(_half_number(x) for x in parts):
                return k
            if (name == "Inc(" and g != 1) or (name == "Mov(" and not 2 <= g <= deepest + 1):
                return k
            plain = types.SimpleNamespace(n=n, blocked=(), fixed=(), regions=(), toroidal=False, knight=False)
            if min(b) < 0 or not is_solution(plain, list(b)) or any(tuple(b) in s for s in seen_orbits):
                return k
            seen_orbits.append(image_set(list(b)))
            deepest = max(deepest, g)
        last = op
    if complete is not None and method != "orbit-search":
        most = {"ga": 10_000, **TRACE_TRIES}[method]
        ended = solved or tries >= most or n in (2, 3)
        if (complete and not ended) or (not complete and solved):
            return len(steps) + 1
    return None


def _covered_by(problem, q, cell):
    """Does a queen on ``q`` occupy or attack ``cell`` (rays walked by ``attacked``)?"""
    return q == cell or attacked(problem.n, q, cell, problem.toroidal, problem.knight, getattr(problem, "leapers", ()))


def _allowed_set(problem, chosen):
    """The queens' own constraints: no blocked cell, every fixed cell, every region's bounds."""
    if set(chosen) & set(problem.blocked) or not set(problem.fixed) <= set(chosen):
        return False
    for region in problem.regions:
        k = sum(cell in set(region.cells) for cell in chosen)
        if k < region.at_least or (region.at_most is not None and k > region.at_most):
            return False
    return True


def dominates(problem, queens):
    """Do ``queens`` (cells) obey the problem's own constraints and occupy or attack every
    cell of the board?"""
    n = problem.n
    return _allowed_set(problem, tuple(queens)) and all(
        any(_covered_by(problem, q, (r, c)) for q in queens) for r in range(n) for c in range(n)
    )


def domination_number(problem):
    """The fewest queens occupying or attacking every cell, by trying every set of cells
    in order of size (small boards only)."""
    n = problem.n
    cells = [(r, c) for r in range(n) for c in range(n)]
    for k in range(n * n + 1):
        for chosen in itertools.combinations(cells, k):
            if _allowed_set(problem, chosen) and all(any(_covered_by(problem, q, v) for q in chosen) for v in cells):
                return k
    return None


def independence_number(problem):
    """The most queens no two of which attack each other: sets of cells tried size by
    size up to n (no row holds two queens that do not attack each other); the queens' own
    constraints apply to the whole set, so every size is tried (small boards only)."""
    n = problem.n
    cells = [(r, c) for r in range(n) for c in range(n)]
    leapers = getattr(problem, "leapers", ())
    best = None
    for k in range(n + 1):
        for chosen in itertools.combinations(cells, k):
            if _allowed_set(problem, chosen) and not any(
                attacked(n, a, b, problem.toroidal, problem.knight, leapers)
                for a, b in itertools.combinations(chosen, 2)
            ):
                best = k
                break
    return best


# ----------------------------------------------------------------------------- k queens on r x c boards


def attacked_on(rows, columns, a, b, knight=False, leapers=()):
    """Do queens on cells a and b of a rows x columns board attack each other? Ray walking
    inside the rectangle (no torus on a rectangle)."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2 or c1 == c2:
        return True
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = r1 + dr, c1 + dc
        while 0 <= r < rows and 0 <= c < columns:
            if (r, c) == (r2, c2):
                return True
            r, c = r + dr, c + dc
    return any((r1 + dr, c1 + dc) == (r2, c2) for dr, dc in (KNIGHT if knight else []) + _jumps(leapers))


def board_is_solution(problem, p):
    """``p`` (the column of each row's queen, -1 for an empty row) against a problem with
    ``columns`` and ``queens``: the number of queens, each rule, each pair by ray walking
    (on a square torus by :func:`attacked`)."""
    n, m = problem.n, problem.columns
    cells = [(r, c) for r, c in enumerate(p) if c != -1]
    if len(cells) != problem.queens or any(not 0 <= c < m for _, c in cells):
        return False
    if any(cell in set(problem.blocked) for cell in cells) or any(cell not in cells for cell in problem.fixed):
        return False
    for region in problem.regions:
        k = sum(cell in set(region.cells) for cell in cells)
        if k < region.at_least or (region.at_most is not None and k > region.at_most):
            return False
    if problem.toroidal:
        hits = lambda a, b: attacked(n, a, b, True, problem.knight, problem.leapers)
    else:
        hits = lambda a, b: attacked_on(n, m, a, b, problem.knight, problem.leapers)
    return not any(hits(a, b) for a, b in itertools.combinations(cells, 2))


def board_solutions(problem):
    """Every placement of ``problem.queens`` queens, one per chosen row, in distinct columns
    (k rows of n, then k columns of m in every order), kept when a solution; sorted."""
    n, m, k = problem.n, problem.columns, problem.queens
    out = []
    for rows in itertools.combinations(range(n), k):
        for cols in itertools.permutations(range(m), k):
            p = [-1] * n
            for r, c in zip(rows, cols):
                p[r] = c
            if board_is_solution(problem, p):
                out.append(tuple(p))
    return sorted(out)


def _cells_board(n, m, cells):
    b = np.zeros((n, m), dtype=np.int8)
    for r, c in cells:
        b[r, c] = 1
    return b


def board_orbit_count(problem, sols=None):
    """Orbits of a board's solutions under the numpy rotations and flips that keep the
    board's shape and map its blocked cells, fixed cells and regions onto themselves."""
    n, m = problem.n, problem.columns
    marks = lambda t: (
        t(_cells_board(n, m, problem.blocked)).tobytes(),
        t(_cells_board(n, m, problem.fixed)).tobytes(),
        sorted((t(_cells_board(n, m, g.cells)).tobytes(), g.at_least, g.at_most) for g in problem.regions),
    )
    same = marks(lambda a: a)
    group = [t for t in _transforms() if t(np.zeros((n, m))).shape == (n, m) and marks(t) == same]
    sols = board_solutions(problem) if sols is None else sols
    canon = set()
    for p in sols:
        b = _cells_board(n, m, [(r, c) for r, c in enumerate(p) if c != -1])
        canon.add(min(t(b).tobytes() for t in group))
    return len(canon)


# ----------------------------------------------------------------------------- boards with holes


def attacked_around_holes(n, a, b, holes, knight=False, leapers=()):
    """Do queens on a and b attack each other on an n x n board (no torus) whose holes
    stop every line? Rays walked from a in the eight directions, each ending at a hole or
    the edge; leapers jump over holes."""
    (r1, c1), (r2, c2) = a, b
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = r1 + dr, c1 + dc
        while 0 <= r < n and 0 <= c < n and (r, c) not in holes:
            if (r, c) == (r2, c2):
                return True
            r, c = r + dr, c + dc
    return any((r1 + dr, c1 + dc) == (r2, c2) for dr, dc in (KNIGHT if knight else []) + _jumps(leapers))


def independence_with_holes(n, holes, knight=False):
    """The most queens on the cells that are not holes, no two attacking each other around
    the holes: sets tried size by size until a size has none (small boards only)."""
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in holes]
    best = 0
    for k in range(1, len(cells) + 1):
        if not any(
            not any(attacked_around_holes(n, a, b, holes, knight) for a, b in itertools.combinations(chosen, 2))
            for chosen in itertools.combinations(cells, k)
        ):
            return best
        best = k
    return best


def domination_with_holes(n, holes, knight=False):
    """The fewest queens, on cells that are not holes, occupying or attacking (around the
    holes) every cell that is not a hole (small boards only)."""
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in holes]
    for k in range(len(cells) + 1):
        for chosen in itertools.combinations(cells, k):
            if all(any(q == v or attacked_around_holes(n, q, v, holes, knight) for q in chosen) for v in cells):
                return k
    return None


def counts_and_orbits(problem):
    """(solutions, orbits) of any problem, a rectangle or k queens included."""
    if problem.is_plain_board:
        return len(all_solutions(problem)), orbit_count(problem)
    return len(board_solutions(problem)), board_orbit_count(problem)


def fixed_by_turn(problem, quarter_turns):
    """Solutions of a square problem that a rotation by ``quarter_turns`` x 90 degrees
    (numpy's rot90) maps onto themselves, by comparing each solution's board with its
    rotated board."""
    n = problem.n
    count = 0
    for p in all_solutions(problem):
        b = _board(n, enumerate(p))
        count += bool(np.array_equal(np.rot90(b, quarter_turns), b))
    return count
