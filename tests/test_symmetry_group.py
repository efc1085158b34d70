"""Zhang and Zhang's permutation operation group PO: Inv/Cmpl/Rev, po1..po8, Table 1, sympy.

Expected values come from the document's own text (its examples, Table 1, Table 2) or from
numpy array geometry and sympy, never from queenslab's output.
"""

import itertools
import random

import naive
import numpy as np
import pytest
from hypothesis import given, strategies as st
from naive import one, zero
from strategies import symmetric_problems

from queenslab.d4 import (
    D4,
    IDENTITY,
    PO,
    D4Element,
    as_permutation,
    cell_permutation,
    cmpl,
    dihedral_isomorphism,
    element,
    inv,
    multiplication_table,
    rev,
    sympy_cell_group,
)
from queenslab.errors import InvalidPlacement, QueensError

# Table 1 of Zhang and Zhang's paper, as printed (row heading first).
TABLE_1 = """
po_1 po_1 po_2 po_3 po_4 po_5 po_6 po_7 po_8
po_2 po_2 po_1 po_7 po_6 po_8 po_4 po_3 po_5
po_3 po_3 po_7 po_1 po_8 po_6 po_5 po_2 po_4
po_4 po_4 po_8 po_6 po_1 po_7 po_3 po_5 po_2
po_5 po_5 po_6 po_8 po_7 po_1 po_2 po_4 po_3
po_6 po_6 po_5 po_4 po_2 po_3 po_7 po_8 po_1
po_7 po_7 po_3 po_2 po_5 po_4 po_8 po_1 po_6
po_8 po_8 po_4 po_5 po_3 po_2 po_1 po_6 po_7
"""
TABLE = [[int(w[3:]) for w in line.split()[1:]] for line in TABLE_1.strip().splitlines()]

# Table 2 of Zhang and Zhang's paper: the eight permutations of one orbit of N = 8 (1-based).
TABLE_2 = [
    (1, 6, 8, 3, 7, 4, 2, 5),
    (1, 7, 4, 6, 8, 2, 5, 3),
    (6, 4, 7, 1, 3, 5, 2, 8),
    (8, 3, 1, 6, 2, 5, 7, 4),
    (5, 2, 4, 7, 3, 8, 6, 1),
    (8, 2, 5, 3, 1, 7, 4, 6),
    (4, 7, 5, 2, 6, 1, 3, 8),
    (3, 5, 2, 8, 6, 4, 7, 1),
]

perms = st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n))))


# ----------------------------------------------------------------------------- basic operations


def test_the_documents_examples_of_inv_cmpl_rev():
    p = zero((1, 3, 5, 2, 4))
    assert one(inv(p)) == (1, 4, 2, 5, 3)
    assert one(cmpl(p)) == (5, 3, 1, 4, 2)
    assert one(rev(p)) == (4, 2, 5, 3, 1)


@given(perms)
def test_basic_operations_are_involutions_and_match_their_definitions(p):
    p = tuple(p)
    n = len(p)
    for f in (inv, cmpl, rev):
        assert f(f(p)) == p
    assert all(inv(p)[p[i]] == i for i in range(n))
    assert cmpl(p) == tuple(n - 1 - x for x in p)
    assert rev(p) == tuple(p[n - 1 - i] for i in range(n))
    assert cmpl(rev(p)) == rev(cmpl(p))  # the document: po4 and po5 commute


@given(perms)
def test_po_elements_are_the_documents_compositions(p):
    p = tuple(p)
    po = {g.po: g for g in PO}
    assert po["po1"](p) == p
    assert po["po2"](p) == inv(p)
    assert po["po3"](p) == rev(cmpl(inv(p)))
    assert po["po4"](p) == cmpl(p)
    assert po["po5"](p) == rev(p)
    assert po["po6"](p) == cmpl(inv(p))
    assert po["po7"](p) == rev(cmpl(p))
    assert po["po8"](p) == inv(cmpl(p))
    # "most of the operations can be implemented by reusing other operations"
    assert po["po6"](p) == cmpl(po["po2"](p))
    assert po["po3"](p) == rev(po["po6"](p))
    assert po["po7"](p) == rev(po["po4"](p))
    assert po["po8"](p) == inv(po["po4"](p))


def test_table_2_rows_are_the_images_of_its_first_row_under_po1_to_po8():
    first = zero(TABLE_2[0])
    assert [one(g.apply(first)) for g in PO] == TABLE_2


def test_po_order_names_and_lookup():
    assert [g.po for g in PO] == [f"po{i}" for i in range(1, 9)]
    assert PO[0] == IDENTITY and set(PO) == set(D4) and len(set(PO)) == 8
    assert [g.name for g in PO] == [
        "identity",
        "reflect-main-diagonal",
        "reflect-anti-diagonal",
        "reflect-vertical-axis",
        "reflect-horizontal-axis",
        "rotate-90",
        "rotate-180",
        "rotate-270",
    ]
    for g in PO:
        assert element(g.po) is g or element(g.po) == g
        assert element(g.name) == g
        assert element(g.po.upper().replace("PO", "po_")) == g
    with pytest.raises(QueensError, match="po1..po8"):
        element("po9")


# ----------------------------------------------------------------------------- Table 1


def test_table_1_is_reproduced_exactly_in_the_row_then_column_reading():
    got = [[g.po_index for g in row] for row in multiplication_table()]
    assert got == TABLE
    # entry (i, j) is "apply po_i, then po_j" on actual permutations
    rng = random.Random(3)
    for _ in range(20):
        n = rng.randint(1, 9)
        p = tuple(rng.sample(range(n), n))
        for i, j in itertools.product(range(8), repeat=2):
            assert PO[TABLE[i][j] - 1].apply(p) == PO[j].apply(PO[i].apply(p))


def test_the_other_reading_of_table_1_disagrees():
    other = [[(g * h).po_index for h in PO] for g in PO]
    wrong = sum(other[i][j] != TABLE[i][j] for i in range(8) for j in range(8))
    assert wrong == 24  # the table is not symmetric: the reading matters


def test_group_axioms():
    # closure, associativity, identity, inverses, for both products
    for g, h in itertools.product(PO, PO):
        assert g * h in PO and g.then(h) == h * g
    for g, h, k in itertools.product(PO, repeat=3):
        assert (g * h) * k == g * (h * k)
    for g in PO:
        assert g * IDENTITY == g == IDENTITY * g
        assert g * g.inverse() == IDENTITY == g.inverse() * g
    # the document: reflections are their own inverses; po6 and po8 are inverse; po7 too
    po = {g.po: g for g in PO}
    for name in ("po1", "po2", "po3", "po4", "po5", "po7"):
        assert po[name].inverse() == po[name]
    assert po["po6"].inverse() == po["po8"] and po["po8"].inverse() == po["po6"]
    assert po["po6"] * po["po8"] == IDENTITY


# ----------------------------------------------------------------------------- geometry


def _board(n, p, reading):
    b = np.zeros((n, n), dtype=int)
    for i, v in enumerate(p):
        if reading == "queenslab":  # the queen of row i is in column v
            b[i, v] = 1
        else:  # the document: p_i is the row of the queen in column i (row 0 on top)
            b[v, i] = 1
    return b


def test_geometric_names_in_both_readings():
    rng = random.Random(5)
    ours = {
        "po1": lambda b: b,
        "po2": lambda b: b.T,
        "po3": lambda b: np.rot90(b, 2).T,
        "po4": np.fliplr,
        "po5": np.flipud,
        "po6": lambda b: np.rot90(b, -1),
        "po7": lambda b: np.rot90(b, 2),
        "po8": lambda b: np.rot90(b, 1),
    }
    # The document's g_i, on its own board: rotations counterclockwise, po4 mirrors in the
    # horizontal centre line, po5 in the vertical one.
    theirs = {
        "po1": lambda b: b,
        "po2": lambda b: b.T,
        "po3": lambda b: np.rot90(b, 2).T,
        "po4": np.flipud,
        "po5": np.fliplr,
        "po6": lambda b: np.rot90(b, 1),
        "po7": lambda b: np.rot90(b, 2),
        "po8": lambda b: np.rot90(b, -1),
    }
    for _ in range(10):
        n = rng.randint(2, 9)
        p = tuple(rng.sample(range(n), n))
        for g in PO:
            q = g.apply(p)
            assert np.array_equal(_board(n, q, "queenslab"), ours[g.po](_board(n, p, "queenslab"))), g.po
            assert np.array_equal(_board(n, q, "document"), theirs[g.po](_board(n, p, "document"))), g.po
    assert "counterclockwise" in element("po6").document_geometry
    assert "horizontal centre line" in element("po4").document_geometry


# ----------------------------------------------------------------------------- sympy


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_the_group_on_the_cells_is_the_dihedral_group_of_order_8(n):
    from sympy.combinatorics import Permutation
    from sympy.combinatorics.homomorphisms import homomorphism, is_isomorphic
    from sympy.combinatorics.named_groups import DihedralGroup

    G = sympy_cell_group(n)
    D = DihedralGroup(4)
    assert G.order() == 8 and not G.is_abelian and not G.is_cyclic
    # The group generated by the eight operations is exactly the eight operations (closure),
    # and the document's product is sympy's product (sympy's p*q applies p first).
    cells = {g: Permutation(cell_permutation(g, n)) for g in PO}
    assert len(set(cells.values())) == 8 and set(cells.values()) == set(G.elements)
    for g, h in itertools.product(PO, PO):
        assert cells[g.then(h)] == cells[g] * cells[h]
    # sympy 1.14's is_isomorphic(G, D) answers False for these generators (sympy issue
    # #28569, a bug in group_isomorphism); with the arguments the other way round it
    # searches images of D's two generators and finds the isomorphism.
    assert is_isomorphic(D, G)
    # The explicit isomorphism (action on the four corners), checked by sympy itself on
    # the generating pair po2, po6 (sympy's homomorphism check on all seven generators
    # costs seconds).
    from sympy.combinatorics import PermutationGroup

    phi = dihedral_isomorphism()
    gens = [element("po2"), element("po6")]
    G2 = PermutationGroup([cells[g] for g in gens])
    assert set(G2.elements) == set(G.elements)
    hom = homomorphism(G2, D, G2.generators, [phi[g] for g in gens], check=True)
    assert hom.is_isomorphism()
    assert all(hom(cells[g]) == phi[g] for g in PO)


def test_explicit_isomorphism_onto_dihedral_group_4():
    from sympy.combinatorics.named_groups import DihedralGroup

    D = DihedralGroup(4)
    phi = dihedral_isomorphism()
    assert set(phi) == set(PO)
    assert set(phi.values()) == set(D.elements)  # a bijection onto D4
    for g, h in itertools.product(PO, PO):
        assert phi[g.then(h)] == phi[g] * phi[h]  # respects Table 1's product
        assert phi[g * h] == phi[h] * phi[g]
    assert phi[element("po6")].cyclic_form == [[0, 1, 2, 3]]  # D4's rotation generator
    assert phi[element("po2")].cyclic_form == [[1, 3]]  # transpose fixes corners 0 and 2
    assert phi[IDENTITY].is_Identity
    # the rotations go to the cyclic subgroup generated by the 4-cycle, the reflections elsewhere
    from sympy.combinatorics import Permutation

    r = Permutation(0, 1, 2, 3)
    rotations = {g for g in PO if g.name.startswith("rotate") or g == IDENTITY}
    assert {phi[g] for g in rotations} == {r**k for k in range(4)}


# ----------------------------------------------------------------------------- problems and errors


@given(symmetric_problems(max_n=7))
def test_problem_symmetries_are_elements_of_po(p):
    sym = p.symmetries()
    assert set(sym) <= set(PO) and sym[0] == IDENTITY
    assert len(sym) == naive.symmetry_count(p)


@pytest.mark.parametrize(
    "bad,match",
    [
        ((0, 0, 1), "appears twice"),
        ((0, 3, 1), "off the board"),
        ((1, 2, 3), "off the board"),
        ((0, 1.5), "not an integer column"),
        ("2413", "text"),
        (5, "sequence"),
    ],
)
def test_not_a_permutation_raises_clear_errors(bad, match):
    for f in (as_permutation, inv, cmpl, rev, PO[5].apply):
        with pytest.raises(InvalidPlacement, match=match):
            f(bad)
    assert issubclass(InvalidPlacement, QueensError)


def test_compose_with_something_else_is_an_error():
    with pytest.raises(QueensError, match="two D4 elements"):
        PO[1].then("po2")
    with pytest.raises(TypeError):
        PO[1] * 3
    assert D4Element(True, False, True).po == "po6"
    with pytest.raises(QueensError):
        cell_permutation(PO[1], 0)


# ----------------------------------------------------------------------------- hostile input


def test_d4_element_refuses_names_and_non_flags():
    with pytest.raises(QueensError, match="element\\(name\\).*rotate-90"):
        D4Element("x")
    with pytest.raises(QueensError, match="True or False"):
        D4Element(inv=2)
    assert D4Element(np.bool_(True), 0, np.int8(1)) == element("rotate-90")


@pytest.mark.parametrize("args", [(4, 9, 9), (4, -1, 0), (4, 0, 4), (0, 0, 0), (4, 1.0, 2), (4, True, 0), ("4", 0, 0)])
def test_cell_refuses_cells_off_the_board(args):
    with pytest.raises(InvalidPlacement):
        element("po6").cell(*args)
    assert element("po6").cell(np.int64(4), np.int32(1), 2) == element("po6").cell(4, 1, 2)


def test_group_helpers_refuse_hostile_arguments():
    from queenslab.d4 import SYMPY_MAX_N

    for call in (
        lambda: cell_permutation(3, 2),
        lambda: cell_permutation(element("po2"), 2.0),
        lambda: multiplication_table([1, 2]),
        lambda: multiplication_table(5),
        lambda: sympy_cell_group(SYMPY_MAX_N + 1),
        lambda: element(5),
        lambda: as_permutation([1.0, 0]),
        lambda: as_permutation([True, False]),
    ):
        with pytest.raises(QueensError):
            call()
