"""The compiled form of a :class:`~queenslab.problem.Problem`: what every backend reads.

Each constraint says itself in the words of :class:`~queenslab.constraints.Tables`
(:meth:`Constraint.compile <queenslab.constraints.Constraint.compile>`: a wrapping board,
forbidden cells, fixed queens, leaps, bounds on sets of cells); this module turns those
words into the tables the backends consume, once per problem:

* ``allowed`` -- for the native engine (n <= 64), a ``uint64`` mask per row of the cells a queen
  may take (blocked cells, the cells of regions that allow no queen and every cell a
  fixed queen attacks removed; a row with a fixed queen allows only that cell; no cell at
  all when the constraints contradict each other);
* ``region_masks`` / ``region_bounds`` / ``region_rest`` -- the regions that bound the
  number of queens otherwise, for the native engine's per-region counters: each
  region's cells by row, its ``(at_least, at_most)``, and how many rows from each row on
  can still hold one of its queens;
* ``regions`` -- every region (with the forbidding ones), for the models;
* ``leap_rows`` / ``leap_masks`` -- the leaper moves (knight, ...) as a table: a queen in
  column ``c`` attacks, ``leap_rows[i]`` rows further down, the cells ``leap_masks[i, c]``
  (wrapping on a torus);
* ``diagonals`` and ``leap_pairs`` -- for the models, the lines holding at most one
  queen and the pairs of cells a leap apart (rows and columns hold exactly one queen);
* ``group`` / ``group_flags`` -- the problem's symmetry subgroup of D4;
* :meth:`CompiledProblem.conflicts` -- every constraint a placement breaks.

The move rules are :func:`queenslab.constraints.base.line_attack`, their one definition, so a
backend never re-derives a variant's meaning. A constraint that gives no ``compile`` is
not in these tables: reading one of them for a problem holding it raises
:class:`~queenslab.errors.UnsupportedProblem` naming the constraint (it is never
ignored), unless the reader takes the kind's own encoding and says so
(``compile_problem(problem, hooks=("encode_cpsat",))``). Likewise a board other than
n queens on n x n (a rectangle, fewer queens than rows) is read only by a reader that
says it handles one (``compile_problem(problem, boards=True)``: its rows hold at most one
queen, ``queens`` in all); for any other the tables raise.
:func:`compile_problem` caches the result; each table is computed on first use, and its
arrays are read-only.

Examples
--------
>>> c = compile_problem(Problem(4))
>>> len(c.diagonals), len(c.leap_pairs), len(c.group)
(10, 0, 8)
>>> c.allowed.tolist()
[15, 15, 15, 15]
>>> k = compile_problem(Problem(6, knight=True))
>>> k.leap_rows.tolist(), bin(int(k.leap_masks[0, 2]))   # one row down from column 2
([1, 2], '0b10001')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import validate
from .constraints import HOOKS, Conflict, Constraint, Tables, leap_offsets, leaper_name, unhandled
from .constraints.base import Bound, line_attack
from .constraints.region import region_conflicts
from .d4 import D4Element
from .errors import QueensError, TooLarge, UnsupportedProblem
from .problem import Cell, Problem, as_problem

__all__ = ["BITBOARD_MAX_N", "CompiledProblem", "Conflict", "compile_problem", "region_conflicts"]

#: Largest n of the bitboard tables (``allowed``, ``leap_masks``): a row in 64 bits.
BITBOARD_MAX_N = 64


@dataclass(frozen=True, eq=False)
class CompiledProblem:
    """The tables of one problem (see the module docstring); build with :func:`compile_problem`.

    Attributes
    ----------
    problem : Problem
    group, group_flags
        The problem's symmetry subgroup of D4, and its non-identity elements as
        ``(inv, rev, cmpl)`` rows for the kernels.
    words : Tables
        What the constraints said (:meth:`Constraint.compile`).
    own : tuple of Constraint
        The constraints not in the tables, which the reader encodes itself.
    missing : tuple of Constraint
        The constraints neither in the tables nor encoded by the reader (reading a table refuses them).
    boards : bool
        Whether the reader handles a board other than n queens on n x n.
    """

    problem: Problem
    group: tuple[D4Element, ...]
    group_flags: np.ndarray
    words: Tables
    own: tuple[Constraint, ...] = ()
    missing: tuple[Constraint, ...] = ()
    boards: bool = False

    @property
    def n(self) -> int:
        """The number of rows."""
        return self.problem.n

    @property
    def width(self) -> int:
        """The number of columns (``n`` on a square board)."""
        return self.problem.columns

    @property
    def queens(self) -> int:
        """How many queens a solution holds (``n`` unless rows may stay empty)."""
        return self.problem.queens

    @property
    def toroidal(self) -> bool:
        """Whether lines and leaps wrap around the edges."""
        return self.words.toroidal

    @property
    def leaps(self) -> tuple[tuple[int, int], ...]:
        """The leaper moves as base offsets ``(a, b)``, sorted."""
        return tuple(sorted(self.words.leaps))

    @property
    def forbidden(self) -> tuple[Cell, ...]:
        """The cells no queen may take (besides those of regions that allow none), sorted."""
        self._check()
        return tuple(sorted(self.words.forbidden))

    @property
    def fixed(self) -> tuple[Cell, ...]:
        """The cells of queens placed in advance, sorted."""
        self._check()
        return tuple(sorted(self.words.fixed))

    def _check(self) -> None:
        """Refuse a problem with a constraint outside the tables the caller reads, or a
        board the caller does not handle."""
        if not self.boards and not self.problem.is_plain_board:
            raise UnsupportedProblem(
                f"{self.problem.describe()}: this computation takes n queens on an n x n board only; k queens on "
                "an r x c board are counted by the native engine (its board method) and the cpsat, sat, ganak and "
                "cpmpy backends"
            )
        if self.missing:
            c = self.missing[0]
            raise UnsupportedProblem(
                f"{self.problem.describe()}: the {c.kind} constraint is not in the compiled form "
                f"({type(c).__name__} gives no compile()), and this computation reads only the compiled form; "
                "count it with a backend that takes the kind's own encoding (cpsat with encode_cpsat, sat with "
                "encode_cnf, cpmpy with encode_cpmpy)"
            )

    def attack(self, a: Cell, b: Cell) -> str | None:
        """How a queen on ``a`` attacks ``b`` under the compiled move rules, or None (on a
        torus, which is square, ``n`` is the modulus; a rectangle has no torus)."""
        return line_attack(self.n, a, b, self.toroidal, self.leaps, leaper_name)

    # The tables are computed on first use: the bitboard ones exist only for n <= 64,
    # and the models' cell lists are not needed by the native engine.
    @functools.cached_property
    def allowed(self) -> np.ndarray:
        """``uint64[n]``: the cells each row may take (n <= 64 rows and columns)."""
        return _readonly(_allowed(self._bitboard_problem()))

    @functools.cached_property
    def _leap_table(self) -> tuple[np.ndarray, np.ndarray]:
        rows, masks = _leap_table(self._bitboard_problem())
        return _readonly(rows), _readonly(masks)

    @property
    def leap_rows(self) -> np.ndarray:
        """``int64[m]``: the row distances at which leaper moves attack."""
        return self._leap_table[0]

    @property
    def leap_masks(self) -> np.ndarray:
        """``uint64[m, n]``: the cells a queen in column c attacks ``leap_rows[i]`` rows down."""
        return self._leap_table[1]

    @functools.cached_property
    def _region_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        masks, bounds, rest = _region_tables(self._bitboard_problem(), self.allowed)
        return _readonly(masks), _readonly(bounds), _readonly(rest)

    @property
    def region_masks(self) -> np.ndarray:
        """``uint64[k, n]``: the cells of each counted region, row by row (n <= 64)."""
        return self._region_tables[0]

    @property
    def region_bounds(self) -> np.ndarray:
        """``int64[k, 2]``: ``(at_least, at_most)`` of each counted region."""
        return self._region_tables[1]

    @property
    def region_rest(self) -> np.ndarray:
        """``int64[k, n + 1]``: how many of the rows ``y .. n-1`` have an allowed cell of each region."""
        return self._region_tables[2]

    @property
    def kernel_tables(self) -> tuple[np.ndarray, ...]:
        """``(allowed, leap_rows, leap_masks, region_masks, region_bounds, region_rest)``:
        the tables the native kernels read, in the order of their arguments."""
        return (self.allowed, self.leap_rows, self.leap_masks, *self._region_tables)

    @property
    def regions(self) -> tuple[Bound, ...]:
        """Every bounded set of cells (the models post each as a linear bound)."""
        self._check()
        return tuple(self.words.regions)

    @functools.cached_property
    def contradiction(self) -> str | None:
        """Why the problem's constraints contradict each other (it then has no solutions), or None."""
        if self.problem.contradiction:
            return self.problem.contradiction
        fixed = self.fixed
        for i, a in enumerate(fixed):
            if a in self.words.forbidden:
                return f"the fixed queen at ({a[0] + 1},{a[1] + 1}) stands on a forbidden cell"
            for b in fixed[i + 1 :]:
                how = self.attack(a, b)
                if how:
                    return f"the fixed queens at ({a[0] + 1},{a[1] + 1}) and ({b[0] + 1},{b[1] + 1}) attack each other ({how})"
        return None

    @functools.cached_property
    def diagonals(self) -> tuple[tuple[Cell, ...], ...]:
        """The diagonal lines (wrapping on a torus) of two or more cells."""
        self._check()
        return _diagonals(self)

    @functools.cached_property
    def leap_pairs(self) -> tuple[tuple[Cell, Cell], ...]:
        """The pairs of cells a leaper move apart."""
        self._check()
        return _leap_pairs(self)

    def _bitboard_problem(self) -> CompiledProblem:
        self._check()
        if max(self.n, self.width) > BITBOARD_MAX_N:
            raise TooLarge(
                f"the bitboard tables hold a row in a 64-bit integer: n <= {BITBOARD_MAX_N}, got "
                + (f"n = {self.n}" if self.width == self.n else f"a {self.n}x{self.width} board")
            )
        return self

    @property
    def rows_full(self) -> bool:
        """Whether every row holds exactly one queen (else at most one, ``queens`` in all)."""
        return self.queens == self.n

    @property
    def columns_full(self) -> bool:
        """Whether every column holds exactly one queen (else at most one)."""
        return self.queens == self.width

    def rows(self) -> list[list[Cell]]:
        """The cells of each row (each holds one queen, at most one when :attr:`rows_full` is False)."""
        n, m = self.n, self.width
        return [[(r, c) for c in range(m)] for r in range(n)]

    def columns(self) -> list[list[Cell]]:
        """The cells of each column (each holds one queen, at most one when :attr:`columns_full` is False)."""
        n, m = self.n, self.width
        return [[(r, c) for r in range(n)] for c in range(m)]

    def conflicts(self, placement: Sequence[int]) -> list[Conflict]:
        """Every constraint the 0-based placement (one column per row) breaks.

        Blocked cells first, then missing fixed queens, then broken region bounds, then
        attacking pairs in row order, then the constraints of kinds defined outside the
        package.
        """
        problem = self.problem
        columns = tuple(int(c) for c in placement)
        cells = [(r, c) for r, c in enumerate(columns) if c >= 0]  # -1: an empty row
        out = []
        if len(cells) != problem.queens:
            out.append(Conflict("queens", (), f"the placement holds {len(cells)} queens, the problem {problem.queens}"))
        out += [x for c in problem.constraints if c.kind in ("blocked", "fixed") for x in c.conflicts(columns)]
        out.sort(key=lambda x: x.rule != "blocked")
        out += region_conflicts(problem.regions, placement)
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                how = self.attack(a, b)
                if how:
                    out.append(Conflict.attack(how, a, b))
        return out + [x for c in problem.own_constraints for x in c.conflicts(columns)]


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _allowed(tables: CompiledProblem) -> np.ndarray:
    n, m = tables.n, tables.width
    if tables.contradiction:
        return np.zeros(n, dtype=np.uint64)
    rows = [(1 << m) - 1] * n
    for r, c in tables.fixed:
        rows[r] = 1 << c
    forbidden = [cell for region in tables.regions if region.at_most == 0 for cell in region.cells]
    for r, c in [*tables.forbidden, *forbidden]:
        rows[r] &= ~(1 << c)
    for fr, fc in tables.fixed:
        for r in range(n):
            if r != fr:
                for c in range(m):
                    if tables.attack((fr, fc), (r, c)):
                        rows[r] &= ~(1 << c)
    return np.array(rows, dtype=np.uint64)


def _region_tables(tables: CompiledProblem, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The regions a search must count (all but the forbidding ones, which ``allowed``
    holds): masks by row, bounds, and the rows from each row on that can reach them."""
    n = tables.n
    counted = [region for region in tables.regions if region.at_most != 0]
    masks = np.zeros((len(counted), n), dtype=np.uint64)
    bounds = np.zeros((len(counted), 2), dtype=np.int64)
    for k, region in enumerate(counted):
        for r, c in region.cells:
            masks[k, r] |= np.uint64(1 << c)
        bounds[k] = region.at_least, region.upper
    reach = (masks & allowed[None, :]) != 0
    rest = np.zeros((len(counted), n + 1), dtype=np.int64)
    rest[:, :n] = np.cumsum(reach[:, ::-1], axis=1)[:, ::-1]
    return masks, bounds, rest


def _leap_table(tables: CompiledProblem) -> tuple[np.ndarray, np.ndarray]:
    """Row distances ``d`` (1..n-1) and, per distance and column, the leap-attacked cells.

    Attacks are symmetric, so a search that places rows top-down only needs the cells
    below each queen: row ``r + d`` (on a torus, ``d`` is the distance mod n).
    """
    n, m = tables.n, tables.width
    table: dict[int, list[int]] = {}
    for dr, dc in leap_offsets(tables.leaps):
        d = dr % n if tables.toroidal else dr
        if not 1 <= d < n:
            continue  # upwards (the mirror jump covers it), off the board, or a row move
        masks = table.setdefault(d, [0] * m)
        for c in range(m):
            c2 = (c + dc) % m if tables.toroidal else c + dc
            if 0 <= c2 < m and c2 != c:
                masks[c] |= 1 << c2
    dists = sorted(table)
    rows = np.array(dists, dtype=np.int64)
    leap_masks = np.array([table[d] for d in dists], dtype=np.uint64).reshape(len(dists), m)
    return rows, leap_masks


def _diagonals(tables: CompiledProblem) -> tuple[tuple[Cell, ...], ...]:
    n, m = tables.n, tables.width
    down: dict[int, list[Cell]] = {}
    up: dict[int, list[Cell]] = {}
    for r in range(n):
        for c in range(m):
            kd, ku = (c - r, c + r) if not tables.toroidal else ((c - r) % n, (c + r) % n)
            down.setdefault(kd, []).append((r, c))
            up.setdefault(ku, []).append((r, c))
    return tuple(tuple(line) for family in (down, up) for _, line in sorted(family.items()) if len(line) >= 2)


def _leap_pairs(tables: CompiledProblem) -> tuple[tuple[Cell, Cell], ...]:
    n, m = tables.n, tables.width
    offsets = leap_offsets(tables.leaps)  # once: the loop below runs n * m times
    if not offsets:
        return ()
    pairs: set[tuple[Cell, Cell]] = set()
    for r in range(n):
        for c in range(m):
            for dr, dc in offsets:
                r2, c2 = r + dr, c + dc
                if tables.toroidal:
                    r2, c2 = r2 % n, c2 % n
                elif not (0 <= r2 < n and 0 <= c2 < m):
                    continue
                if (r2, c2) != (r, c):
                    a, b = sorted(((r, c), (r2, c2)))
                    pairs.add((a, b))
    return tuple(sorted(pairs))


def compile_problem(problem: Problem, hooks: tuple[str, ...] = (), *, boards: bool = False) -> CompiledProblem:
    """The compiled form of ``problem``, computed once and cached (problems are immutable).

    Parameters
    ----------
    problem : Problem
    hooks : tuple of str, default ()
        The constraint hooks the caller encodes itself (``"encode_cpsat"``, ...): a
        constraint that gives one of them but no ``compile`` is left to the caller
        (:attr:`CompiledProblem.own`) instead of refused.
    boards : bool, default False
        The caller handles a board other than n queens on n x n (rows holding at most
        one queen, ``queens`` in all, ``width`` columns); for any other caller the
        tables of such a problem raise.

    Returns
    -------
    CompiledProblem

    Raises
    ------
    QueensError
        If ``problem`` is not a :class:`~queenslab.problem.Problem`, or a hook is unknown.
    """
    problem = as_problem(problem)
    if not isinstance(hooks, tuple) or not set(hooks) <= set(HOOKS):
        raise QueensError(f"hooks is a tuple of {', '.join(HOOKS)}, got {hooks!r}")
    return _compile(problem, hooks, validate.flag(boards, "boards"))


@functools.lru_cache(maxsize=32)
def _compile(problem: Problem, hooks: tuple[str, ...], boards: bool) -> CompiledProblem:
    group = problem.symmetries()
    flags = np.array([g.flags for g in group[1:]], dtype=np.int64).reshape(len(group) - 1, 3)
    words = Tables(problem.n)
    rest = []
    for c in problem.constraints:
        if type(c).gives("compile"):
            c.compile(words)
        else:
            rest.append(c)
    missing = tuple(unhandled(rest, (), hooks))
    own = tuple(c for c in rest if c not in missing)
    return CompiledProblem(problem, group, _readonly(flags), words, own, missing, boards)
