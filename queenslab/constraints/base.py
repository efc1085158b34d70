"""The constraint interface: :class:`Constraint`, what a kind of constraint must and may give.

A kind of constraint is one subclass of :class:`Constraint`, in one module. It must give

* :meth:`~Constraint.holds` -- its meaning on a full placement (the oracle's rule);
* :meth:`~Constraint.image` -- the constraint a symmetry of the board maps it onto, from
  which a problem derives its own symmetry group (never declared).

and may give, each one optional with a refusal as its default,

* :meth:`~Constraint.compile` -- its contribution to the compiled form, said in the
  words of :class:`Tables` (forbidden cells, fixed queens, bounds on sets of cells,
  leaps, a wrapping board). A kind that gives it is counted by the native engine's
  general search and by every model, which all read the compiled form;
* ``encode_cpsat(model)``, ``encode_cnf(model)``, ``encode_cpmpy(model)`` -- its
  own encoding in one solver's model (:mod:`queenslab.models`), for a constraint the
  words of :class:`Tables` cannot say;
* :meth:`~Constraint.conflicts`, :meth:`~Constraint.describe`, :meth:`~Constraint.draw`
  -- how it is explained and drawn;
* ``FIELDS``, :meth:`~Constraint.to_fields`, :meth:`~Constraint.from_fields` -- its
  JSON form (the keys of :meth:`Problem.to_dict <queenslab.problem.Problem.to_dict>`).

A backend or counting method that reads neither the compiled form nor the kind's own
encoding refuses the problem (:func:`unhandled`): a constraint is never ignored.

Composition order of a symmetry and a constraint: ``c.image(s)`` is the constraint that
holds on ``s.apply(p)`` exactly when ``c`` holds on ``p``.
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, SupportsIndex, cast

from .. import validate
from ..d4 import BoardSymmetry
from ..errors import InvalidProblem, QueensError, UnsupportedProblem

__all__ = [
    "Bound",
    "Cell",
    "Conflict",
    "Constraint",
    "HOOKS",
    "Tables",
    "cell_pair",
    "integer",
    "items_of",
    "line_attack",
    "unhandled",
]

Cell = tuple[int, int]

#: The optional hooks a kind may give, each read by one family of backends.
HOOKS = ("compile", "encode_cpsat", "encode_cnf", "encode_cpmpy")


def integer(value: object, what: str, error: type[QueensError] = InvalidProblem) -> int:
    """``value`` as an int (any integer type, never a bool), else ``error``."""
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        try:
            return operator.index(cast(SupportsIndex, value))  # anything else raises TypeError
        except TypeError:
            pass
    raise error(f"{what} must be an integer, got {validate.brief(value)}")


def items_of(value: object, what: str, error: type[QueensError] = InvalidProblem) -> list[Any]:
    """The items of ``value``, which must be a collection (of cells, lines or offsets).

    Text is refused although it iterates: its characters are never the numbers or pairs
    asked for.

    Parameters
    ----------
    value : object
    what : str
        The message's start, saying what the collection holds
        (``"leapers must be a collection of (a, b) offsets"``); the value given follows.
    error : type of QueensError, default InvalidProblem
    """
    if not isinstance(value, (str, bytes)):
        try:
            return list(cast(Iterable[Any], value))  # the items, checked by the caller
        except TypeError:
            pass
    raise error(f"{what}, got {validate.brief(value)}")


def cell_pair(cell: object, what: str, error: type[QueensError] = InvalidProblem) -> Cell:
    """A (row, column) pair of integers (not yet checked against a board)."""
    if isinstance(cell, (str, bytes)):
        raise error(f"{what} must be a (row, column) pair of integers, got {validate.brief(cell)}")
    try:
        r, c = cast(Iterable[object], cell)
    except (TypeError, ValueError):
        raise error(f"{what} must be a (row, column) pair of integers, got {validate.brief(cell)}") from None
    return integer(r, f"the row of {what}", error), integer(c, f"the column of {what}", error)


def line_attack(
    n: int, a: Cell, b: Cell, toroidal: bool, leaps: Iterable[tuple[int, int]], names: Any = None
) -> str | None:
    """How a queen on ``a`` attacks ``b`` (distinct cells of an ``n x n`` board), or None.

    The one definition of the move rules: the lines (``"row"``, ``"column"``,
    ``"diagonal"``, ``"anti-diagonal"``, broken on a torus) and the jumps of ``leaps``
    (base offsets ``(a, b)``, wrapping on a torus), each named by ``names(offset)``
    (default ``"leaper"``).

    Examples
    --------
    >>> line_attack(8, (0, 0), (3, 3), False, ()), line_attack(5, (0, 0), (1, 4), True, ())
    ('diagonal', 'anti-diagonal')
    >>> line_attack(8, (0, 0), (2, 1), False, [(1, 2)])
    'leaper'
    """
    (r1, c1), (r2, c2) = a, b
    dr, dc = r2 - r1, c2 - c1
    if dr == 0:
        return "row"
    if dc == 0:
        return "column"
    if toroidal:
        if (dr - dc) % n == 0:
            return "diagonal"
        if (dr + dc) % n == 0:
            return "anti-diagonal"
    else:
        if dr == dc:
            return "diagonal"
        if dr == -dc:
            return "anti-diagonal"
    for base in leaps:
        x, y = base
        for kr, kc in ((x, y), (y, x)):
            for sr in (kr, -kr):
                for sc in (kc, -kc):
                    if (dr - sr) % n == 0 and (dc - sc) % n == 0 if toroidal else (dr, dc) == (sr, sc):
                        return names(base) if names else "leaper"
    return None


@dataclass(frozen=True)
class Conflict:
    """One reason a placement is not a solution: the rule broken, its cells, in words.

    The JSON form of ``check`` and ``show`` has the same three keys.

    Attributes
    ----------
    rule : str
        ``"row"``, ``"column"``, ``"diagonal"``, ``"anti-diagonal"``, a leaper's name
        (two attacking queens), ``"blocked"`` (a queen on a blocked cell), ``"fixed"`` (a
        fixed queen missing), ``"region"`` (a region's bound broken), or another kind's
        name.
    cells : tuple of cell
        The 0-based cells involved (two queens, or the cells of the rule).
    message : str
        A 1-based sentence for people.
    """

    rule: str
    cells: tuple[Cell, ...]
    message: str

    @classmethod
    def attack(cls, rule: str, a: Cell, b: Cell) -> Conflict:
        """Two queens attacking each other by ``rule``."""
        return cls(rule, (a, b), f"the queens at {_one(a)} and {_one(b)} attack each other ({rule})")


def _one(cell: Cell) -> str:
    return f"({cell[0] + 1},{cell[1] + 1})"


class Bound(Protocol):
    """A bound on the number of queens on a set of cells, as :class:`Tables` takes it
    (:class:`~queenslab.constraints.Region` is one)."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...

    @property
    def at_least(self) -> int: ...

    @property
    def at_most(self) -> int | None: ...

    @property
    def upper(self) -> int: ...

    def describe(self) -> str: ...


class Tables:
    """The words a kind's :meth:`Constraint.compile` speaks: what the compiled form holds.

    Every backend that reads the compiled form (:mod:`queenslab.compiled`) -- the native
    engine's general search, the estimators, the CP-SAT, CNF and CPMpy models -- realises
    these five words, so a kind said in them is counted everywhere those are.

    Parameters
    ----------
    n : int
        The board size.
    """

    def __init__(self, n: int) -> None:
        self.n = validate.whole_number(n, "n", minimum=1)
        self.toroidal = False
        self.forbidden: set[Cell] = set()
        self.fixed: set[Cell] = set()
        self.leaps: set[tuple[int, int]] = set()
        self.regions: list[Bound] = []

    def wrap(self) -> None:
        """Every line and every leap wraps around the edges of the board (a torus)."""
        self.toroidal = True

    def forbid(self, cells: Iterable[Cell]) -> None:
        """No queen stands on these cells."""
        self.forbidden.update(cells)

    def fix(self, cells: Iterable[Cell]) -> None:
        """A queen stands on each of these cells."""
        self.fixed.update(cells)

    def leap(self, offset: tuple[int, int]) -> None:
        """No two queens stand a leap ``(a, b)`` apart (any of its eight directions)."""
        a, b = sorted(map(abs, offset))
        self.leaps.add((a, b))

    def bound(self, region: Bound) -> None:
        """The number of queens on ``region``'s cells lies within its bounds."""
        self.regions.append(region)


class Constraint(abc.ABC):
    """One constraint of an n-queens problem (see the module docstring).

    A subclass must give :meth:`holds` and :meth:`image`, and be hashable with an
    equality that says when two constraints are the same (a frozen dataclass is): a
    problem's symmetry group is the set of board symmetries mapping its constraints onto
    themselves.

    Examples
    --------
    A kind the package does not know, "no queen in the corners" -- its meaning, its
    image, and its contribution to the compiled form:

    >>> from dataclasses import dataclass
    >>> from queenslab import Problem, count
    >>> @dataclass(frozen=True)
    ... class NoCorners(Constraint):
    ...     def holds(self, columns):
    ...         n = len(columns)
    ...         return columns[0] not in (0, n - 1) and columns[-1] not in (0, n - 1)
    ...     def image(self, symmetry):
    ...         return self
    ...     def compile(self, tables):
    ...         m = tables.n - 1
    ...         tables.forbid([(0, 0), (0, m), (m, 0), (m, m)])
    >>> count(Problem(8, constraints=[NoCorners()]))   # 92, less 4 solutions for each corner
    76
    """

    #: The kind's name in messages (default: the class name).
    kind: ClassVar[str] = ""
    #: The keys of the kind in a problem's JSON form (none: the kind has no JSON form).
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("kind"):
            cls.kind = cls.__name__

    @abc.abstractmethod
    def holds(self, columns: Sequence[int]) -> bool:
        """Whether the placement ``columns`` (0-based column of each row's queen, one
        queen per row and column; on a board with fewer queens than rows, -1 for an
        empty row) meets this constraint."""

    @abc.abstractmethod
    def image(self, symmetry: BoardSymmetry) -> Constraint:
        """The constraint ``symmetry`` maps this one onto (it holds on ``symmetry.apply(p)``
        exactly when this one holds on ``p``)."""

    # ------------------------------------------------------------ optional hooks
    def compile(self, tables: Tables) -> None:
        """Say this constraint in the words of :class:`Tables` (optional)."""
        raise NotImplementedError

    def encode_cpsat(self, model: Any) -> None:
        """Post this constraint in a CP-SAT model (optional): ``model`` is a
        :class:`~queenslab.models.cpsat.CpsatModel`; ``model.cell(r, c)`` is the literal of
        a queen on cell ``(r, c)``, ``model.model`` the ``CpModel``."""
        raise NotImplementedError

    def encode_cnf(self, model: Any) -> None:
        """Add this constraint's clauses to a CNF model (optional): ``model`` is a
        :class:`~queenslab.models.cnf.CnfModel`; ``model.var(r, c)`` is the variable of
        cell ``(r, c)``, ``model.cnf`` the formula, ``model.pool`` the variable pool (for
        auxiliary variables: never block them in an enumeration)."""
        raise NotImplementedError

    def encode_cpmpy(self, model: Any) -> None:
        """Add this constraint to a CPMpy model (optional): ``model`` is a
        :class:`~queenslab.models.cpmpy.CpmpyModel`; ``model.q[r]`` is the column of row
        ``r``'s queen, ``model.model += ...`` adds a constraint."""
        raise NotImplementedError

    @classmethod
    def gives(cls, hook: str) -> bool:
        """Whether the kind gives the optional ``hook`` (one of :data:`HOOKS`).

        >>> from queenslab.constraints import Torus
        >>> Torus.gives("compile"), Torus.gives("encode_cpsat")
        (True, False)
        """
        if hook not in HOOKS:
            raise QueensError(f"unknown constraint hook {hook!r}; the hooks are {', '.join(HOOKS)}")
        own = getattr(cls, hook, None)
        return own is not None and own is not getattr(Constraint, hook, None)

    def check(self, n: int) -> Constraint:
        """This constraint checked against an ``n x n`` board (cells on it), in the form
        the problem stores; raises :class:`~queenslab.errors.InvalidProblem`."""
        return self

    def describe(self) -> str:
        """The constraint in a few words, for a problem's description."""
        return f"{self.kind} constraint"

    def conflicts(self, columns: Sequence[int]) -> list[Conflict]:
        """Why the placement ``columns`` breaks this constraint (empty when it holds)."""
        if self.holds(columns):
            return []
        return [Conflict(self.kind, (), f"the placement breaks the {self.describe()}")]

    def draw(self, marks: dict[str, set[Cell]]) -> None:
        """Add the cells a board picture marks for this constraint to ``marks`` (keys
        ``"blocked"`` and ``"fixed"``); regions are drawn by their own outline."""
        return None  # a kind with nothing to mark

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        """The JSON fields of a problem's constraints of this kind (cells ``base``-based)."""
        raise UnsupportedProblem(
            f"the {cls.kind} constraint has no JSON or file form: a problem holding it cannot be written, "
            "fingerprinted or stored in an index or ledger"
        )

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        """The keyword arguments of :class:`~queenslab.problem.Problem` that this kind's
        JSON fields in ``data`` stand for (cells ``base``-based; checked by the problem)."""
        return {}


def unhandled(constraints: Iterable[Constraint], kinds: Iterable[type], hooks: Iterable[str] = ()) -> list[Constraint]:
    """The constraints that are neither of one of ``kinds`` nor give one of ``hooks``.

    The allow-list test of a backend or counting method: what it returns is refused.

    Examples
    --------
    >>> from queenslab.constraints import Blocked, Torus
    >>> [c.kind for c in unhandled([Torus(), Blocked([(0, 0)])], [Blocked])]
    ['torus']
    """
    given = items_of(constraints, "constraints must be a collection of Constraint objects", QueensError)
    allowed = items_of(kinds, "kinds must be a collection of Constraint subclasses", QueensError)
    read = items_of(hooks, f"hooks must be a collection of {', '.join(HOOKS)}", QueensError)
    if not all(isinstance(c, Constraint) for c in given):
        raise QueensError(f"constraints must be Constraint objects, got {validate.brief(given)}")
    if not all(isinstance(k, type) and issubclass(k, Constraint) for k in allowed):
        raise QueensError(f"kinds must be Constraint subclasses, got {validate.brief(allowed)}")
    if not all(isinstance(h, str) and h in HOOKS for h in read):
        raise QueensError(f"hooks must be among {', '.join(HOOKS)}, got {validate.brief(read)}")
    return [c for c in given if not isinstance(c, tuple(allowed)) and not any(type(c).gives(h) for h in read)]


def board_cells(value: object, n: int, what: str, columns: int | None = None) -> tuple[Cell, ...]:
    """The cells of ``value`` (a collection of 0-based pairs) on an ``n x n`` board (``n x
    columns`` when given), sorted, without repeats; InvalidProblem for anything else."""
    m = n if columns is None else columns
    out = set()
    for cell in items_of(value, f"{what} must be a collection of (row, column) pairs"):
        if isinstance(cell, (str, bytes)):
            raise InvalidProblem(f"{what} must hold (row, column) pairs, got {validate.brief(cell)}")
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise InvalidProblem(f"{what} must hold (row, column) pairs, got {validate.brief(cell)}") from None
        r, c = integer(r, f"a row in {what}"), integer(c, f"a column in {what}")
        if not (0 <= r < n and 0 <= c < m):
            raise InvalidProblem(f"{what} cell ({r}, {c}) is outside the {off_board(n, m)}")
        out.add((r, c))
    return tuple(sorted(out))


def off_board(n: int, m: int) -> str:
    """The end of an "outside the board" message: the board and its 0- and 1-based ranges."""
    if n == m:
        return f"{n}x{n} board: rows and columns are 0..{n - 1} in the Python API (1..{n} on the command line)"
    return (
        f"{n}x{m} board: rows are 0..{n - 1} and columns 0..{m - 1} in the Python API (1..{n} and 1..{m} on "
        "the command line)"
    )


class CellSet(Constraint):
    """A constraint on a set of cells (blocked cells, fixed queens): stored sorted, without
    repeats, checked against the board by the problem; a symmetry maps its cells.

    Subclasses are frozen dataclasses with one field, ``cells``, and a ``kind``.
    """

    cells: tuple[Cell, ...]

    if TYPE_CHECKING:

        def __init__(self, cells: Iterable[Cell]) -> None: ...

    def check(self, n: int) -> Constraint:
        return type(self)(board_cells(self.cells, n, self.kind))

    def image(self, symmetry: BoardSymmetry) -> Constraint:
        return type(self)(tuple(sorted(symmetry.cell(r, c) for r, c in self.cells)))

    def occupied(self, columns: Sequence[int]) -> list[Cell]:
        """The cells of this set that hold a queen of the placement ``columns``."""
        return [(r, c) for r, c in self.cells if r < len(columns) and columns[r] == c]

    @classmethod
    def to_fields(cls, constraints: Sequence[Constraint], base: int) -> dict[str, Any]:
        cells = sorted({cell for c in constraints if isinstance(c, cls) for cell in c.cells})
        return {cls.kind: [[r + base, c + base] for r, c in cells]}

    @classmethod
    def from_fields(cls, data: dict[str, Any], base: int) -> dict[str, Any]:
        value = data.get(cls.kind)
        if value is None:
            return {}
        if not isinstance(value, (list, tuple)) or not all(isinstance(x, (list, tuple)) and len(x) == 2 for x in value):
            raise InvalidProblem(f"'{cls.kind}' is a list of [row, column] pairs, got {validate.brief(value)}")
        pairs = [cell_pair(x, f"a cell of '{cls.kind}'") for x in value]
        return {cls.kind: [(r - base, c - base) for r, c in pairs]}


def sorted_cells(value: object, what: str) -> tuple[Cell, ...]:
    """Cells as pairs of integers, sorted, without repeats (not yet checked against a board)."""
    return tuple(
        sorted({cell_pair(x, what) for x in items_of(value, f"{what}s are a collection of (row, column) pairs")})
    )
