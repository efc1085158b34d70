"""Zhang and Zhang's orbit operators Inc / Del / Mov and the orbit-based search.

Expected values: the document's worked examples and case study (with the results derived
from its definitions where the extracted text is cut short or misprinted -- each such case
says so), a scalar re-implementation of the operators written here, brute-force
solutions (tests/naive.py) and OEIS A002562.
"""

import json
from functools import cache

import naive
import numpy as np
import pytest
from clirun import run_cli
from hypothesis import given, strategies as st
from naive import one, zero

from queenslab.data import known_unique
from queenslab.errors import InvalidPlacement, QueensError, TooLarge
from queenslab.problem import Problem
from queenslab.symmetry.operators import (
    SEARCH_LIMIT,
    Del,
    Inc,
    InvalidPosition,
    Mov,
    delete,
    gaps,
    inc,
    mov,
    search_orbits,
)


def solution(p):
    return naive.is_solution(Problem(len(p)), tuple(p))


# ---- the document's definitions, re-implemented literally on 1-based sequences (Row = element)


def doc_inc_row(p, row):
    """IncRow(Row): every element greater than Row grows by 1."""
    return tuple(x + 1 if x > row else x for x in p)


def doc_inc(p, row, col):
    """Inc(Row, Col): IncRow(Row), IncCol(Col), then value Row + 0.5 at subscript Col + 0.5."""
    q = list(doc_inc_row(p, row))
    q.insert(int(col + 0.5) - 1, int(row + 0.5))
    return tuple(q)


def doc_del_row(p, row):
    """DelRow(Row): every element greater than Row shrinks by 1."""
    return tuple(x - 1 if x > row else x for x in p)


def doc_del(p, row, col):
    """Del(Row, Col): DelRow(Row), then DelCol(Col) removes the element at subscript Col."""
    assert p[col - 1] == row
    q = list(doc_del_row(p, row))
    del q[col - 1]
    return tuple(q)


# ----------------------------------------------------------------------------- Inc examples

# (Row, Col), the result printed in the extracted text, the result of the definition.
# The printed results are cut short: each shows the permutation after IncRow only, under
# the header 1..4, without the new queen (the text says each example "generates a
# solution of N = 5"). The full results follow from the definition.
INC_EXAMPLES = [
    ((0.5, 0.5), (3, 5, 2, 4), (1, 3, 5, 2, 4)),  # top left
    ((4.5, 4.5), (2, 4, 1, 3), (2, 4, 1, 3, 5)),  # bottom right corner
    ((0.5, 4.5), (3, 5, 2, 4), (3, 5, 2, 4, 1)),  # top right corner
    ((4.5, 0.5), (2, 4, 1, 3), (5, 2, 4, 1, 3)),  # bottom left corner
    ((2.5, 2.5), (2, 5, 1, 4), (2, 5, 3, 1, 4)),  # centre
]


@pytest.mark.parametrize("args,printed,full", INC_EXAMPLES)
def test_the_documents_inc_examples(args, printed, full):
    p = (2, 4, 1, 3)
    row, col = args
    assert doc_inc_row(p, row) == printed  # what the extracted text shows
    assert doc_inc(p, row, col) == full
    op = Inc.from_document(row, col)
    assert one(op.apply(zero(p))) == full
    assert op.document() == f"Inc({row:g}, {col:g})"
    assert solution(zero(full))  # "generate a solution of N = 5"
    # the new queen: value Row + 0.5 at subscript Col + 0.5
    assert full[int(col + 0.5) - 1] == row + 0.5


def test_inc_corners_in_queenslab_coordinates():
    p = (1, 3, 0, 2)  # 2 4 1 3
    n = len(p)
    assert inc(p, -0.5, -0.5)[0] == 0  # new queen on cell (0, 0): top left
    assert inc(p, n - 0.5, n - 0.5)[n] == n  # bottom right
    assert inc(p, -0.5, n - 0.5)[0] == n  # top right: row 0, last column
    assert inc(p, n - 0.5, -0.5)[n] == 0  # bottom left
    assert gaps(n) == (-0.5, 0.5, 1.5, 2.5, 3.5)


# ----------------------------------------------------------------------------- Del and Mov examples


def test_the_documents_del_example():
    p = (2, 5, 3, 1, 4)
    assert doc_del_row(p, 3) == (2, 4, 3, 1, 3)  # printed after the first arrow
    assert doc_del(p, 3, 3) == (2, 4, 1, 3)  # printed after DelCol(3)
    assert one(Del.from_document(3, 3).apply(zero(p))) == (2, 4, 1, 3)
    assert Del.from_document(3, 3).document() == "Del(3, 3)"


def test_the_documents_mov_example_1_inc_first():
    # Mov(1, 1, 3.5, 3.5) on (1, 3, 5, 2, 4): Inc(3.5, 3.5) first, then Del(1, 1)
    p = (1, 3, 5, 2, 4)
    middle = doc_inc(p, 3.5, 3.5)
    assert middle == (1, 3, 6, 4, 2, 5)  # printed
    assert doc_del(middle, 1, 1) == (2, 5, 3, 1, 4)  # printed
    op = Mov.from_document(1, 1, 3.5, 3.5)
    assert one(op.apply(zero(p))) == (2, 5, 3, 1, 4)
    assert op.document() == "Mov(1, 1, 3.5, 3.5)"


def test_the_documents_mov_example_2_del_first():
    # Mov(5, 5, 3.5, 3.5) on (2, 4, 1, 7, 5, 3, 6): Del(5, 5) first, then Inc(3.5, 3.5).
    # The intermediate is printed under the header 1..7 but has six elements (a misprint
    # of the header; Del makes a permutation of order 6).
    p = (2, 4, 1, 7, 5, 3, 6)
    middle = doc_del(p, 5, 5)
    assert middle == (2, 4, 1, 6, 3, 5)  # printed
    assert doc_inc(middle, 3.5, 3.5) == (2, 5, 1, 4, 7, 3, 6)  # printed
    assert one(Mov.from_document(5, 5, 3.5, 3.5).apply(zero(p))) == (2, 5, 1, 4, 7, 3, 6)


# ----------------------------------------------------------------------------- the case study (N = 8)

# (orbit number, source, operation, document's arguments, printed generator, solution numbers
# of source and generator as printed, orbit number of the source as printed)
CASE_STUDY = [
    (1, (2, 4, 1, 7, 5, 3, 6), Inc, (7.5, 0.5), (8, 2, 4, 1, 7, 5, 3, 6), None, None, None),
    (2, (2, 4, 1, 7, 5, 3, 6), Inc, (0.5, 7.5), (3, 5, 2, 8, 6, 4, 7, 1), None, None, None),
    (9, (2, 4, 1, 7, 5, 3, 6), Inc, (6.5, 0.5), (7, 2, 4, 1, 8, 5, 3, 6), None, None, None),
    (6, (3, 6, 4, 2, 8, 5, 7, 1), Mov, (3, 1, 2.5, 8.5), (6, 4, 2, 8, 5, 7, 1, 3), 22, 77, 1),
    (8, (4, 2, 7, 3, 6, 8, 5, 1), Mov, (4, 1, 3.5, 8.5), (2, 7, 3, 6, 8, 5, 1, 4), 33, 10, 1),
    (7, (7, 2, 6, 3, 1, 4, 8, 5), Mov, (7, 1, 8.5, 3.5), (2, 6, 8, 3, 1, 4, 7, 5), 83, 9, 8),
    (11, (4, 8, 5, 3, 1, 7, 2, 6), Mov, (5, 3, 2.5, 0.5), (3, 5, 8, 4, 1, 7, 2, 6), 46, 17, 7),
    (4, (6, 1, 5, 2, 8, 3, 7, 4), Mov, (1, 2, 8.5, 1.5), (5, 8, 4, 1, 7, 2, 6, 3), 65, 64, 3),
    (12, (2, 7, 5, 8, 1, 4, 6, 3), Mov, (7, 2, 1.5, 7.5), (3, 6, 8, 1, 5, 7, 2, 4), 11, 24, 9),
    (10, (5, 2, 8, 1, 4, 7, 3, 6), Mov, (4, 5, 2.5, 0.5), (3, 5, 2, 8, 1, 7, 4, 6), 53, 14, 12),
]


@cache
def eight():
    sols = naive.all_solutions(Problem(8))
    reps = sorted({min(naive.image_set(s)) for s in sols})
    return sols, reps


def solution_number(p):
    return eight()[0].index(p) + 1


def orbit_number(p):
    return eight()[1].index(min(naive.image_set(p))) + 1


@pytest.mark.parametrize("orbit,source,kind,args,generator,src_no,gen_no,src_orbit", CASE_STUDY)
def test_the_documents_case_study(orbit, source, kind, args, generator, src_no, gen_no, src_orbit):
    op = kind.from_document(*args)
    got = op.apply(zero(source))
    assert one(got) == generator
    assert op.document() == f"{kind.__name__}({', '.join(f'{a:g}' for a in args)})"
    assert solution(got) and orbit_number(got) == orbit
    if kind is Mov:
        assert solution(zero(source))
        assert solution_number(zero(source)) == src_no and orbit_number(zero(source)) == src_orbit
        assert solution_number(got) == gen_no
    else:
        assert naive.is_solution(Problem(7), zero(source))


def test_case_study_orbit_3_line_is_misprinted():
    # Printed: "Orbit 3: Apply Mov(4, 6, 3.5, 1.5) to (4, 8, 5, 3, 1, 7, 2, 6), solution 9 on
    # orbit 7, and gets a generator (3, 5, 8, 4, 1, 7, 2, 6), i.e. solution 5 on orbit 3".
    # Both permutations are copied from the line above (orbit 11): that source has no queen
    # at Row 4, Col 6. Solution 9 on orbit 7 is (2, 6, 8, 3, 1, 4, 7, 5) (as the orbit 7
    # line says), and the move applied to it gives solution 5 on orbit 3, as printed.
    op = Mov.from_document(4, 6, 3.5, 1.5)
    with pytest.raises(InvalidPosition, match="no queen"):
        op.apply(zero((4, 8, 5, 3, 1, 7, 2, 6)))
    source = zero((2, 6, 8, 3, 1, 4, 7, 5))
    assert solution_number(source) == 9 and orbit_number(source) == 7
    got = op.apply(source)
    assert solution(got) and solution_number(got) == 5 and orbit_number(got) == 3
    assert one(got) == (2, 4, 6, 8, 3, 1, 7, 5)  # derived from the definition


def test_case_study_orbit_5_line_is_misprinted():
    # Printed: "Orbit 5: Apply Mov(8, 5, 2.5, 0.5) to (5, 7, 1, 3, 8, 6, 4, 2), solution 57
    # on orbit 3, and gets a generator (6, 8, 2, 4, 1, 7, 5, 3), i.e. solution 23 on orbit 5".
    # The move gives (3, 6, 8, 1, 4, 7, 5, 2), which is solution 23 on orbit 5 as printed;
    # the printed permutation is solution 80, on orbit 6.
    source = zero((5, 7, 1, 3, 8, 6, 4, 2))
    assert solution_number(source) == 57 and orbit_number(source) == 3
    got = Mov.from_document(8, 5, 2.5, 0.5).apply(source)
    assert solution(got) and solution_number(got) == 23 and orbit_number(got) == 5
    assert one(got) == (3, 6, 8, 1, 4, 7, 5, 2)
    printed = zero((6, 8, 2, 4, 1, 7, 5, 3))
    assert solution_number(printed) == 80 and orbit_number(printed) == 6


# ----------------------------------------------------------------------------- algebra of the operators


@st.composite
def perm_and_gap(draw, max_n=9):
    n = draw(st.integers(0, max_n))
    p = tuple(draw(st.permutations(list(range(n)))))
    gap = st.integers(0, n).map(lambda k: k - 0.5)
    return p, draw(gap), draw(gap)


@given(perm_and_gap())
def test_inc_matches_the_documents_definition_and_del_undoes_it(case):
    p, row, col = case
    q = inc(p, row, col)
    assert one(q) == doc_inc(one(p), col + 1, row + 1)  # the document's Row is our column
    assert len(q) == len(p) + 1 and sorted(q) == list(range(len(q)))
    r, c = int(row + 0.5), int(col + 0.5)
    assert q[r] == c  # the new queen stands on (row + 0.5, col + 0.5)
    assert delete(q, r, c) == p
    assert Del(r, c).apply(q) == p


@given(st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n)))))
def test_inc_undoes_del(p):
    p = tuple(p)
    for r, c in enumerate(p):
        q = delete(p, r, c)
        assert one(q) == doc_del(one(p), c + 1, r + 1)
        assert inc(q, r - 0.5, c - 0.5) == p


def shifted(gap, old):
    """A before-move gap on the board after deleting line ``old`` (written independently)."""
    return gap - 1 if gap > old else gap


@given(perm_and_gap(), st.data())
def test_mov_is_del_followed_by_inc(case, data):
    p, new_row, new_col = case
    if not p:
        return
    r = data.draw(st.integers(0, len(p) - 1))
    c = p[r]
    got = mov(p, r, c, new_row, new_col)
    # Del first, then Inc at the gaps shifted past the deleted lines (the document's
    # second example) ...
    assert got == inc(delete(p, r, c), shifted(new_row, r), shifted(new_col, c))
    # ... or Inc first, then Del of the old cell shifted past the new lines (its first example)
    r2 = r + 1 if new_row < r else r
    c2 = c + 1 if new_col < c else c
    assert got == delete(inc(p, new_row, new_col), r2, c2)
    assert Mov(r, c, new_row, new_col).steps() == (Del(r, c), Inc(shifted(new_row, r), shifted(new_col, c)))
    # moving a queen to a gap next to it on both axes leaves the placement as it was
    assert mov(p, r, c, r - 0.5, c + 0.5) == p


def test_document_notation_round_trips():
    for op in (Inc(2.5, -0.5), Del(3, 0), Mov(0, 2, 7.5, 1.5)):
        text = op.document()
        name, args = text[:3], [float(a) for a in text[4:-1].split(", ")]
        assert {"Inc": Inc, "Del": Del, "Mov": Mov}[name].from_document(*args) == op
    assert repr(Mov.from_document(3, 1, 2.5, 8.5)) == "Mov(old_row=0, old_col=2, new_row=7.5, new_col=1.5)"


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: Inc(1, 0.5), InvalidPosition, "not a half-integer"),
        (lambda: Inc(0.5, 0.25), InvalidPosition, "not a half-integer"),
        (lambda: Inc("0.5", 0.5), InvalidPosition, "half-integer number"),
        (lambda: Inc(True, 0.5), InvalidPosition, "half-integer number"),
        (lambda: Inc(float("nan"), 0.5), InvalidPosition, "half-integer number"),
        (lambda: Inc(4.5, 0.5).apply((1, 3, 0, 2)), InvalidPosition, "off the board"),
        (lambda: Inc(-1.5, 0.5).apply((1, 3, 0, 2)), InvalidPosition, "off the board"),
        (lambda: Inc(0.5, 0.5).apply((1, 1, 0, 2)), InvalidPlacement, "not a permutation"),
        (lambda: Del(0, 0).apply((1, 3, 0, 2)), InvalidPosition, "no queen on cell \\(0, 0\\)"),
        (lambda: Del(0.5, 1), InvalidPosition, "not an integer"),
        (lambda: Del(4, 1).apply((1, 3, 0, 2)), InvalidPosition, "off the board"),
        (lambda: Mov(0, 0, 1.5, 1.5).apply((1, 3, 0, 2)), InvalidPosition, "no queen"),
        (lambda: Mov(0, 1, 1, 1.5), InvalidPosition, "not a half-integer"),
        (lambda: Mov(0, 1, 5.5, 1.5).apply((1, 3, 0, 2)), InvalidPosition, "off the board"),
        (lambda: Mov(0, 1, 0.5, 0.5).apply([0, 1, 2, 2]), InvalidPlacement, "not a permutation"),
        (lambda: Inc.from_document("x", 1.5), InvalidPosition, "number"),
    ],
)
def test_bad_input_raises_clear_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
    assert issubclass(exc, QueensError) and issubclass(InvalidPosition, InvalidPlacement)


# ----------------------------------------------------------------------------- the orbit-based search


def fast_solution(p):
    n = len(p)
    return all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))


def scalar_inc(p, row, col):
    """Insert a queen at gaps (row, col), 0-based, written from the definition."""
    q = [x + 1 if x > col else x for x in p]
    q.insert(int(row + 0.5), int(col + 0.5))
    return tuple(q)


def scalar_mov(p, r, new_row, new_col):
    """Move the queen of row r to before-move gaps (new_row, new_col): Del, then Inc."""
    c = p[r]
    q = [x - 1 if x > c else x for i, x in enumerate(p) if i != r]
    return scalar_inc(q, shifted(new_row, r), shifted(new_col, c))


@cache
def naive_closure(n):
    """Orbits reached by the search, recomputed with scalar operations on solutions.

    Step 1: every solution of order n-1, every pair of gaps. Step 2: Mov of every queen of
    every solution reached, to each of the (n+1)**2 pairs of before-move gaps, until
    nothing new appears (Mov commutes with the symmetries, so closing the set of solutions
    closes the set of orbits).
    """
    prev = naive.all_solutions(Problem(n - 1)) if n > 1 else [()]
    g = [k - 0.5 for k in range(n)]
    seen = {q for p in prev for r in g for c in g for q in [scalar_inc(p, r, c)] if fast_solution(q)}
    todo = list(seen)
    g = [k - 0.5 for k in range(n + 1)]
    while todo:
        p = todo.pop()
        for r in range(n):
            for nr in g:
                for nc in g:
                    q = scalar_mov(p, r, nr, nc)
                    if q not in seen and fast_solution(q):
                        seen.add(q)
                        todo.append(q)
    return {min(naive.image_set(s)) for s in seen}


@pytest.mark.parametrize("n", range(1, 11))
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_search_reaches_exactly_the_orbits_of_a_scalar_closure(n):
    for strategy in ("bfs", "dfs"):
        s = search_orbits(n, strategy=strategy)
        assert s.total == known_unique(n)
        found = {d.canonical for d in s.discoveries}
        assert found == naive_closure(n)
        assert s.found == len(found) and s.complete == (len(found) == known_unique(n))
        assert set(s.missing()) == {min(naive.image_set(r)) for r in s.fundamentals} - found


@pytest.mark.slow
def test_search_against_the_scalar_closure_n11():
    n = 11  # about 40 s of scalar moves
    assert {d.canonical for d in search_orbits(n).discoveries} == naive_closure(n)


def test_search_for_8_queens_matches_the_case_study():
    s = search_orbits(8)
    numbers = {s.rank(d.canonical) + 1 for d in s.step1}
    assert numbers == {1, 2, 9}  # "There are three orbits generated in the first step"
    assert s.found == s.total == 12 and s.complete  # "all 12 orbits of N = 8"
    assert search_orbits(8, key="canonical").found == 12


@pytest.mark.parametrize("n", [7, 9])
def test_every_discovery_is_a_valid_step(n):
    s = search_orbits(n, strategy="dfs")
    for d in s.discoveries:
        assert d.operation.apply(d.source) == d.generator and solution(d.generator)
        assert d.canonical == min(naive.image_set(d.generator)) and d.size == len(naive.image_set(d.generator))
        if d.step == 1:
            assert d.parent is None and isinstance(d.operation, Inc)
            assert naive.is_solution(Problem(n - 1), d.source)
        else:
            parent = s.discoveries[d.parent]
            assert isinstance(d.operation, Mov) and d.parent < d.index
            assert d.source in naive.image_set(parent.generator)  # a member of the parent orbit
    edges = s.edges()
    assert len(edges) == len(s.discoveries) and all(e[0] is None for e in edges[: len(s.step1)])


def test_search_errors():
    with pytest.raises(QueensError, match="strategy"):
        search_orbits(6, strategy="astar")
    with pytest.raises(QueensError, match="key"):
        search_orbits(6, key="hash")
    with pytest.raises(QueensError, match="at least 1"):
        search_orbits(0)
    with pytest.raises(QueensError, match="integer"):
        search_orbits(6.5)
    with pytest.raises(TooLarge, match="force"):
        search_orbits(SEARCH_LIMIT + 1)


def test_orbit_search_command(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "8", "--json")
    data = json.loads(out)
    assert code == 0 and data["n"] == 8 and data["unique"] == 12 == data["found"] and data["complete"]
    assert {t["orbit_number"] for t in data["trajectory"] if t["step"] == 1} == {1, 2, 9}
    assert sorted(t["orbit_number"] for t in data["trajectory"]) == list(range(1, 13))
    first = next(t for t in data["trajectory"] if t["orbit_number"] == 1)
    assert first["operation"] == "Inc(7.5, 0.5)" and first["generator"] == [8, 2, 4, 1, 7, 5, 3, 6]
    for t in data["trajectory"]:
        if t["step"] == 2:
            op = Mov.from_document(*[float(a) for a in t["operation"][4:-1].split(", ")])
            assert one(op.apply(zero(t["source"]))) == tuple(t["generator"])
            assert t["generator_rank"] == solution_number(zero(t["generator"]))
    assert {"commit", "python", "date"} <= set(data["provenance"])
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "orbit-search", "9", "--strategy", "dfs")
    assert code == 0 and f"coverage: {len(naive_closure(9))} of {known_unique(9)} orbits" in out
    assert "not reached:" in out


@pytest.mark.parametrize(
    "args,match",
    [(("0",), "at least 1"), ((str(SEARCH_LIMIT + 1),), "--force"), (("8", "--strategy", "x"), "Invalid value")],
)
def test_orbit_search_command_bad_input(capsys, monkeypatch, args, match):
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "orbit-search", *args)
    assert code == 2 and err.startswith("error: ") and match in err


# ----------------------------------------------------------------------------- hostile input


def test_gaps_and_search_arguments_are_checked():
    for bad in (-1, 1.5, "3", None, True):
        with pytest.raises(QueensError):
            gaps(bad)
    assert gaps(np.int8(0)) == (-0.5,)
    for kwargs in ({"strategy": ["bfs"]}, {"key": None}, {"progress": 3}, {"force": "no"}):
        with pytest.raises(QueensError):
            search_orbits(5, **kwargs)


def test_rank_of_a_placement_on_no_orbit_is_a_queens_error():
    s = search_orbits(6)
    assert s.rank((1, 3, 5, 0, 2, 4)) == 0
    with pytest.raises(QueensError, match="not a solution"):
        s.rank((0, 1, 2, 3, 4, 5))
    with pytest.raises(InvalidPlacement):
        s.rank((0.0, 1))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**400, "1.5", None, 1j, True])
def test_positions_refuse_non_numbers(value):
    with pytest.raises(InvalidPosition):
        Inc(value, 0.5)
    with pytest.raises(InvalidPosition):
        Del(value, 0)
