"""Constraint kinds as objects: the built-in kinds' meaning and images, and kinds defined
outside the package -- refused by every backend that cannot use them, counted right by
those that can, never ignored.

Expected counts come from the brute-force oracle (tests/naive.py), which applies a kind's
own ``holds`` and derives the symmetry group from numpy rotations of its cells.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import naive
import pytest

from queenslab import Problem, Region, count, counts, get_backend
from queenslab.compiled import compile_problem
from queenslab.constraints import KINDS, Blocked, Constraint, Fixed, Leaper, Torus, unhandled
from queenslab.d4 import D4, BoardSymmetry
from queenslab.errors import InvalidProblem, QueensError, UnsupportedProblem
from queenslab.native import engine

EXACT = ("native", "cpsat", "sat", "ganak", "cpmpy")


@dataclass(frozen=True)
class FirstRowLeft(Constraint):
    """The queen of the first row stands in the left half: meaning and image only.

    Its image under a symmetry is the same rule on another edge of the board, told
    apart by the symmetry's images of the first row's left half.
    """

    cells: frozenset

    @classmethod
    def on(cls, n):
        return cls(frozenset((0, c) for c in range(n // 2)))

    def holds(self, columns):
        return any(columns[r] == c for r, c in self.cells)

    def image(self, symmetry):
        return FirstRowLeft(frozenset(symmetry.cell(r, c) for r, c in self.cells))


@dataclass(frozen=True)
class AtMostOneOf(Constraint):
    """At most one queen on these cells: meaning, image, and its CP-SAT and CNF encodings."""

    cells: frozenset

    def holds(self, columns):
        return sum(columns[r] == c for r, c in self.cells) <= 1

    def image(self, symmetry):
        return AtMostOneOf(frozenset(symmetry.cell(r, c) for r, c in self.cells))

    def encode_cpsat(self, m):
        m.model.AddAtMostOne(m.cell(r, c) for r, c in sorted(self.cells))

    def encode_cnf(self, m):
        cells = sorted(self.cells)
        for a, b in itertools.combinations(cells, 2):
            m.cnf.append([-m.var(*a), -m.var(*b)])


@dataclass(frozen=True)
class Corners(Constraint):
    """No queen in a corner: said in the compiled form's words (forbidden cells)."""

    n: int

    @property
    def cells(self):
        m = self.n - 1
        return frozenset({(0, 0), (0, m), (m, 0), (m, m)})

    def holds(self, columns):
        return all(columns[r] != c for r, c in self.cells)

    def image(self, symmetry):
        return self

    def compile(self, tables):
        tables.forbid(self.cells)


def _diagonal_pairs(n):
    """The cells of the two long diagonals' ends and middles: a set with a small group."""
    return frozenset({(0, 0), (1, 1), (0, n - 1)})


# ---------------------------------------------------------------- built-in kinds


def test_constraints_and_keywords_make_one_problem():
    region = Region([(0, 0), (1, 1)], at_most=1)
    by_objects = Problem(
        6, constraints=[Torus(), Leaper(1, 3), Leaper.knight(), Blocked([(0, 1)]), Fixed([(2, 2)]), region]
    )
    by_keywords = Problem(
        6, toroidal=True, knight=True, leapers=[(3, 1)], blocked=[(0, 1)], fixed=[(2, 2)], regions=[region]
    )
    assert by_objects == by_keywords
    assert by_objects.fingerprint() == by_keywords.fingerprint()
    # the problem stores its constraints as objects, the torus making its leapers wrap
    assert by_keywords.constraints == (
        Torus(),
        Leaper(1, 2, True),
        Leaper(1, 3, True),
        Blocked([(0, 1)]),
        Fixed([(2, 2)]),
        region,
    )
    assert Problem(8).constraints == () and Problem(8).is_standard


@pytest.mark.parametrize(
    "problem",
    [
        Problem(6, toroidal=True),
        Problem(6, knight=True),
        Problem(6, leapers=[(1, 3)], toroidal=True),
        Problem(6, blocked=[(0, 1), (3, 3)]),
        Problem(6, fixed=[(1, 3)]),
        Problem(6, regions=[Region.rows([0, 1], 6, at_most=1)]),
    ],
    ids=lambda p: p.describe(),
)
def test_a_kinds_meaning_is_the_oracles_rule(problem):
    """Every built-in kind's holds(), with the queen's own lines, is the brute-force rule."""
    n = problem.n
    for p in itertools.permutations(range(n)):
        lines = naive.is_solution(Problem(n), p)
        assert (lines and all(c.holds(p) for c in problem.constraints)) == naive.is_solution(problem, p), p


@pytest.mark.parametrize("kind", KINDS)
def test_a_kinds_image_holds_on_the_image_of_a_placement(kind):
    """c.image(g) holds on g(p) exactly when c holds on p: the documented composition order."""
    n = 5
    example = {
        Torus: Torus(),
        Leaper: Leaper(1, 2),
        Blocked: Blocked([(0, 1), (2, 4)]),
        Fixed: Fixed([(1, 3)]),
        Region: Region([(0, 0), (0, 1), (1, 4)], exactly=1),
    }[kind]
    for g in D4:
        s = BoardSymmetry(g, n)
        image = example.image(s)
        for p in itertools.permutations(range(n)):
            assert example.holds(p) == image.holds(s.apply(p)), (g.name, p)


def test_the_group_is_derived_from_the_images():
    n = 6
    p = Problem(n, constraints=[FirstRowLeft.on(n)])
    assert [g.name for g in p.symmetries()] == ["identity", "reflect-horizontal-axis"][: len(p.symmetries())]
    assert len(p.symmetries()) == naive.symmetry_count(p)
    three = Problem(n, constraints=[AtMostOneOf(_diagonal_pairs(n))])
    assert len(three.symmetries()) == naive.symmetry_count(three)


# ---------------------------------------------------------------- kinds from outside


@pytest.mark.parametrize("backend", EXACT)
def test_a_kind_with_only_its_meaning_is_refused_by_every_exact_backend(backend):
    problem = Problem(6, constraints=[FirstRowLeft.on(6)])
    with pytest.raises(UnsupportedProblem, match=r"FirstRowLeft constraint.*no backend of queenslab does"):
        counts(problem, backend=backend)
    with pytest.raises(UnsupportedProblem, match="FirstRowLeft"):
        next(get_backend(backend).solutions(problem))


@pytest.mark.parametrize("method", engine.METHODS)
def test_no_native_method_counts_without_a_kind(method):
    """Below the backends too: the engine's methods and the compiled form refuse it."""
    problem = Problem(8, constraints=[FirstRowLeft.on(8)])
    with pytest.raises(UnsupportedProblem, match="FirstRowLeft"):
        engine.count_both(problem, method=method)
    with pytest.raises(UnsupportedProblem, match="FirstRowLeft"):
        compile_problem(problem).allowed  # noqa: B018 - reading the table is the check


def test_a_kind_with_its_own_encodings_counts_on_the_solvers_that_read_them():
    n = 6
    problem = Problem(n, constraints=[AtMostOneOf(_diagonal_pairs(n))])
    sols = naive.all_solutions(problem)
    want = (len(sols), naive.orbit_count(problem, sols))
    assert want[0] > 0
    for backend in ("cpsat", "sat", "ganak"):
        result = counts(problem, unique=True, backend=backend)
        assert (result.count, result.unique) == want, backend
    # the others refuse it and say which can
    for backend in ("native", "cpmpy"):
        with pytest.raises(UnsupportedProblem, match=r"AtMostOneOf constraint.*backends that do: ") as refused:
            counts(problem, backend=backend)
        able = str(refused.value).rsplit("backends that do: ", 1)[1].split(", ")
        assert {"cpsat", "sat", "ganak"} <= set(able) and not {"native", "cpmpy"} & set(able)


def test_a_kind_said_in_the_compiled_form_counts_everywhere_but_the_join():
    for n in (6, 8):
        problem = Problem(n, constraints=[Corners(n)], blocked=[(1, 2)])
        sols = naive.all_solutions(problem)
        want = (len(sols), naive.orbit_count(problem, sols))
        for backend in EXACT:
            result = counts(problem, unique=True, backend=backend)
            assert (result.count, result.unique) == want, backend
        with pytest.raises(UnsupportedProblem, match="Corners"):
            engine.count_both(problem, method="join")
    assert count(Problem(8, constraints=[Corners(8)])) == count(Problem(8, blocked=sorted(Corners(8).cells)))


def test_unhandled_is_an_allow_list():
    own = FirstRowLeft.on(4)
    assert unhandled([Torus(), own], KINDS) == [own]
    assert unhandled([Corners(4)], (), ("compile",)) == []
    assert unhandled([AtMostOneOf(frozenset())], (), ("compile",)) == [AtMostOneOf(frozenset())]


def test_a_kind_without_a_json_form_is_not_written():
    problem = Problem(6, constraints=[Corners(6)])
    with pytest.raises(UnsupportedProblem, match="Corners constraint has no JSON or file form"):
        problem.to_dict()
    with pytest.raises(UnsupportedProblem, match="Corners"):
        problem.fingerprint()
    assert "Corners" in repr(problem) and "Corners" in problem.describe()


def test_bad_constraints_are_refused_with_what_is_allowed():
    with pytest.raises(InvalidProblem, match="must be a queenslab.constraints.Constraint"):
        Problem(6, constraints=["torus"])
    with pytest.raises(InvalidProblem, match="not one"):
        Problem(6, constraints=Torus())

    class Unhashable(Constraint):
        def __eq__(self, other):
            return isinstance(other, Unhashable)

        def holds(self, columns):
            return True

        def image(self, symmetry):
            return self

    with pytest.raises(InvalidProblem, match="must be hashable"):
        Problem(6, constraints=[Unhashable()])

    class BadImage(Corners):
        def image(self, symmetry):
            return "itself"

    with pytest.raises(InvalidProblem, match="image.. must return a Constraint"):
        Problem(6, constraints=[BadImage(6)]).symmetries()
    with pytest.raises(QueensError, match="unknown constraint hook"):
        Torus.gives("encode_gecode")


def test_a_kinds_conflicts_explain_a_placement_it_breaks():
    from queenslab import conflicts, is_solution, why_not_solution

    n = 6
    problem = Problem(n, constraints=[FirstRowLeft.on(n)])
    sols = naive.all_solutions(Problem(n))
    for p in sols:
        # the oracle applies the kind's rule; the package explains it
        assert is_solution(problem, p) == naive.is_solution(problem, p)
        found = conflicts(problem, p)
        assert (found == []) == naive.is_solution(problem, p)
        if found:
            assert found[0].rule == "FirstRowLeft" and "FirstRowLeft" in why_not_solution(problem, p)


def test_an_image_that_contradicts_the_meaning_is_refused():
    """A wrong image would give wrong orbit counts under the derived group: it is caught
    on a sample of placements before anything is counted."""

    @dataclass(frozen=True)
    class FirstRowLeftClaimedSymmetric(FirstRowLeft):
        def image(self, symmetry):
            return self  # wrong: reflecting the columns moves the left half to the right

    problem = Problem(8, constraints=[FirstRowLeftClaimedSymmetric(FirstRowLeft.on(8).cells)])
    with pytest.raises(InvalidProblem, match=r"image\(\) contradicts its holds\(\)"):
        problem.symmetries()
