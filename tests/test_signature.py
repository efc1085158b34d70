"""Zhang and Zhang's orbit signature: formulas (2)-(9), Table 2, the Sequential-Reverse
criterion, invariance on orbits, and the uniqueness claim.

Expected values: the document's Table 2, the geometric formulas (2)-(4) evaluated on the
queens' coordinates, brute-force orbits (tests/naive.py) and OEIS A002562.
"""

import itertools
import json
import random
from collections import defaultdict

import naive
import pytest
from clirun import run_cli
from hypothesis import given, strategies as st

from queenslab.data import known_unique
from queenslab.errors import InvalidPlacement, QueensError
from queenslab.native import engine
from queenslab.problem import Problem
from queenslab.symmetry.signature import (
    alternating_permutations,
    ambiguous_solutions,
    is_alternating,
    is_ambiguous,
    raw_signature,
    sequences_equal,
    sig_x,
    sig_y,
    signature,
    signature_collisions,
    signatures_equal,
    triangle,
    triples_equal,
)

perms = st.integers(1, 9).flatmap(lambda n: st.permutations(list(range(n))))


# Table 2 of Zhang and Zhang's paper, as printed: permutation (1-based) and signature {Sig_x, Sig_y}.
TABLE_2 = [
    (
        (1, 6, 8, 3, 7, 4, 2, 5),
        "{{(26, 3, 5), (5, 7, 26), (26, 9, 17), (17, 7, 10), (10, 1, 5), (5, 5, 10)}, "
        "{(37, 9, 10), (10, 5, 5), (5, 0, 5), (5, 8, 37), (37, 9, 10), (10, 5, 5)}}",
    ),
    (
        (1, 7, 4, 6, 8, 2, 5, 3),
        "{{(37, 9, 10), (10, 5, 5), (5, 0, 5), (5, 8, 37), (37, 9, 10), (10, 5, 5)}, "
        "{(26, 3, 5), (5, 7, 26), (26, 9, 17), (17, 7, 10), (10, 1, 5), (5, 5, 10)}}",
    ),
    (
        (6, 4, 7, 1, 3, 5, 2, 8),
        "{{(5, 5, 10), (10, 9, 37), (37, 8, 5), (5, 0, 5), (5, 5, 10), (10, 9, 37)}, "
        "{(10, 5, 5), (5, 1, 10), (10, 7, 17), (17, 9, 26), (26, 7, 5), (5, 3, 26)}}",
    ),
    (
        (8, 3, 1, 6, 2, 5, 7, 4),
        "{{(26, 3, 5), (5, 7, 26), (26, 9, 17), (17, 7, 10), (10, 1, 5), (5, 5, 10)}, "
        "{(5, 5, 10), (10, 9, 37), (37, 8, 5), (5, 0, 5), (5, 5, 10), (10, 9, 37)}}",
    ),
    (
        (5, 2, 4, 7, 3, 8, 6, 1),
        "{{(10, 5, 5), (5, 1, 10), (10, 7, 17), (17, 9, 26), (26, 7, 5), (5, 3, 26)}, "
        "{(37, 9, 10), (10, 5, 5), (5, 0, 5), (5, 8, 37), (37, 9, 10), (10, 5, 5)}}",
    ),
    (
        (8, 2, 5, 3, 1, 7, 4, 6),
        "{{(37, 9, 10), (10, 5, 5), (5, 0, 5), (5, 8, 37), (37, 9, 10), (10, 5, 5)}, "
        "{(10, 5, 5), (5, 1, 10), (10, 7, 17), (17, 9, 26), (26, 7, 5), (5, 3, 26)}}",
    ),
    (
        (4, 7, 5, 2, 6, 1, 3, 8),
        "{{(10, 5, 5), (5, 1, 10), (10, 7, 17), (17, 9, 26), (26, 7, 5), (5, 3, 26)}, "
        "{(5, 5, 10), (10, 9, 37), (37, 8, 5), (5, 0, 5), (5, 5, 10), (10, 9, 37)}}",
    ),
    (
        (3, 5, 2, 8, 6, 4, 7, 1),
        "{{(5, 5, 10), (10, 9, 37), (37, 8, 5), (5, 0, 5), (5, 5, 10), (10, 9, 37)}, "
        "{(26, 3, 5), (5, 7, 26), (26, 9, 17), (17, 7, 10), (10, 1, 5), (5, 5, 10)}}",
    ),
]


def parse_printed(text):
    body = text.replace("{", "(").replace("}", ")")
    x, y = eval(body)  # the printed text, as nested tuples
    return tuple(x), tuple(y)


@pytest.mark.parametrize("placement,printed", TABLE_2)
def test_table_2_signatures_exactly_as_printed(placement, printed):
    p = tuple(c - 1 for c in placement)
    assert raw_signature(p) == parse_printed(printed)
    assert (sig_x(p), sig_y(p)) == parse_printed(printed)


def test_table_2_is_one_orbit_with_one_signature():
    perms8 = [tuple(c - 1 for c in p) for p, _ in TABLE_2]
    assert set(perms8) == naive.image_set(perms8[0])
    keys = {signature(p) for p in perms8}
    assert len(keys) == 1
    printed = [parse_printed(t) for _, t in TABLE_2]
    for a, b in itertools.combinations(printed, 2):
        assert signatures_equal(a, b)


@given(perms)
def test_formula_7_is_formulas_2_to_4_on_the_queens_coordinates(p):
    p = tuple(p)
    pts = [(i + 1, c + 1) for i, c in enumerate(p)]  # (x, y) = (subscript, element), 1-based
    expect = tuple(triangle(pts[i], pts[i + 1], pts[i + 2]) for i in range(len(p) - 2))
    assert sig_x(p) == expect
    by_y = sorted(pts, key=lambda xy: xy[1])  # along y: the points ordered by their y
    expect_y = tuple(triangle(*[(y, x) for x, y in by_y[i : i + 3]]) for i in range(len(p) - 2))
    assert sig_y(p) == expect_y


def test_triangle_is_invariant_under_the_square_symmetries():
    rng = random.Random(1)
    for _ in range(50):
        a, b, c = [(rng.randint(0, 9), rng.randint(0, 9)) for _ in range(3)]
        base = triangle(a, b, c)
        for f in (lambda x, y: (y, x), lambda x, y: (-x, y), lambda x, y: (-y, x)):
            assert triangle(f(*a), f(*b), f(*c)) == base
        assert triangle(c, b, a) == base[::-1]


# ----------------------------------------------------------------------------- the criterion


def literal_equal(a, b):
    """The Sequential-Reverse criterion, spelled out once more, rule by rule."""

    def tri(s, t):
        return s[1] == t[1] and ((s[0], s[2]) == (t[0], t[2]) or (s[0], s[2]) == (t[2], t[0]))

    def seq(s, t):
        if len(s) != len(t):
            return False
        return all(tri(x, y) for x, y in zip(s, t)) or all(tri(x, y) for x, y in zip(s, t[::-1]))

    return (seq(a[0], b[0]) and seq(a[1], b[1])) or (seq(a[0], b[1]) and seq(a[1], b[0]))


@given(perms, st.data())
def test_the_key_is_a_canonical_form_of_the_criterion(p, data):
    p = tuple(p)
    n = len(p)
    # q: an image of p, a permutation of the same size, or one of the nearby 3-cycles of p
    q = data.draw(
        st.one_of(
            st.sampled_from(sorted(naive.image_set(p))),
            st.permutations(list(range(n))).map(tuple),
            st.sampled_from([p] if n < 3 else [p[:i] + (p[i + 1], p[i + 2], p[i]) + p[i + 3 :] for i in range(n - 2)]),
        )
    )
    a, b = raw_signature(p), raw_signature(q)
    assert (signature(p) == signature(q)) == signatures_equal(a, b) == literal_equal(a, b)
    assert (signature(p, "oriented") == signature(q, "oriented")) == signatures_equal(a, b, "oriented")
    hash(signature(p))


def test_rules_1_and_2_on_small_cases():
    assert triples_equal((5, 3, 26), (26, 3, 5)) and not triples_equal((5, 3, 26), (26, 4, 5))
    s = ((26, 3, 5), (5, 7, 26))
    assert sequences_equal(s, ((26, 7, 5), (5, 3, 26)))  # reversed order, each triple reversed
    assert sequences_equal(s, ((5, 7, 26), (26, 3, 5)))  # reversed order, triples as they are
    assert not sequences_equal(s, ((5, 7, 26), (26, 3, 5)), "oriented")
    assert sequences_equal(s, ((26, 7, 5), (5, 3, 26)), "oriented")
    assert not sequences_equal(s, s[:1])
    with pytest.raises(QueensError, match="criterion"):
        signature((1, 3, 0, 2), "loose")


# ----------------------------------------------------------------------------- invariance


@pytest.mark.parametrize("n", range(1, 11))
def test_every_member_of_every_orbit_has_the_same_signature(n):
    sols = list(engine.solutions(Problem(n)))
    for s in sols:
        images = naive.image_set(s)
        for crit in ("document", "oriented"):
            keys = {signature(m, crit) for m in images}
            assert len(keys) == 1


@given(perms)
def test_signature_is_an_invariant_of_any_permutation(p):
    for crit in ("document", "oriented"):
        assert len({signature(m, crit) for m in naive.image_set(tuple(p))}) == 1


# ----------------------------------------------------------------------------- uniqueness


@pytest.mark.parametrize("n", range(1, 8))
def test_oriented_signature_separates_the_orbits_of_all_permutations(n):
    # the completeness theorem of docs/symmetry.md, exhaustively
    classes = defaultdict(set)
    for p in itertools.permutations(range(n)):
        classes[signature(p, "oriented")].add(min(naive.image_set(p)))
    assert all(len(v) == 1 for v in classes.values())


@pytest.mark.parametrize("n", range(3, 8))
def test_lemma_document_equal_and_not_alternating_means_oriented_equal(n):
    groups = defaultdict(list)
    for p in itertools.permutations(range(n)):
        s = sig_x(p)
        key = min(
            tuple(tuple(sorted((a, b))) + (area,) for a, area, b in s),
            tuple(tuple(sorted((a, b))) + (area,) for a, area, b in reversed(s)),
        )
        groups[key].append(s)
    for seqs in groups.values():
        for s, t in itertools.combinations(seqs, 2):
            assert sequences_equal(s, t)
            if not is_alternating(s):
                assert is_alternating(t) is False
                assert sequences_equal(s, t, "oriented")


@pytest.mark.parametrize("n", range(1, 8))
def test_document_signature_on_all_permutations(n):
    # Stronger than the document's claim (solutions only): no collision among all
    # permutations for n <= 7 (n = 8 too, but it takes 10 s).
    classes = defaultdict(set)
    for p in itertools.permutations(range(n)):
        classes[signature(p)].add(min(naive.image_set(p)))
    assert all(len(v) == 1 for v in classes.values())


@pytest.mark.parametrize("n", range(1, 9))
def test_alternating_permutations_by_brute_force(n):
    expect = sorted(
        p
        for p in itertools.permutations(range(n))
        if n >= 3
        and len({abs(p[i + 1] - p[i]) for i in range(0, n - 1, 2)}) == 1
        and len({abs(p[i + 1] - p[i]) for i in range(1, n - 1, 2)}) == 1
        and abs(p[1] - p[0]) != abs(p[2] - p[1])
    )
    assert alternating_permutations(n) == expect
    if n >= 4:
        assert expect == sorted(p for p in itertools.permutations(range(n)) if is_alternating(sig_x(p)))


def test_ambiguous_solutions():
    assert ambiguous_solutions(4) == [(1, 3, 0, 2), (2, 0, 3, 1)]  # the single 4-queens orbit
    for n in range(5, 13):
        assert ambiguous_solutions(n) == []
    for n in range(1, 10):  # the same, by testing every solution
        expect = (
            [s for s in naive.all_solutions(Problem(n)) if is_ambiguous(s)]
            if n <= 8
            else [s for s in engine.solutions(Problem(n)) if is_ambiguous(s)]
        )
        assert ambiguous_solutions(n) == expect


@pytest.mark.parametrize("n", range(1, 12))
def test_no_two_orbits_share_a_signature(n):
    # the document's claim, by brute force over the orbits' representatives
    reps = {min(naive.image_set(s)) for s in engine.solutions(Problem(n))}
    assert len(reps) == known_unique(n)
    for crit in ("document", "oriented"):
        assert len({signature(r, crit) for r in reps}) == len(reps)
        report = signature_collisions(n, crit)
        assert (report.orbits, report.signatures, report.collisions) == (len(reps), len(reps), ())


@pytest.mark.slow
@pytest.mark.parametrize("n", [12, 13, 14])
def test_no_two_orbits_share_a_signature_up_to_14(n):
    # the "as far as practical": the orbits come from the native engine and must
    # number A002562(n); every one gets its own signature under both criteria
    for crit in ("document", "oriented"):
        report = signature_collisions(n, crit)
        assert report.orbits == known_unique(n)
        assert (report.signatures, report.collisions) == (known_unique(n), ())


def test_collision_detection_finds_planted_collisions(monkeypatch):
    # a key that forgets everything must be reported as collisions
    import queenslab.symmetry.signature as S

    monkeypatch.setattr(S, "signature", lambda p, criterion="document": len(p))
    r = S.signature_collisions(7)
    assert r.orbits == known_unique(7) and r.signatures == 1
    assert len(r.collisions) == 1 and len(r.collisions[0]) == known_unique(7)


def test_bad_input_raises_clear_errors():
    with pytest.raises(InvalidPlacement, match="not a permutation"):
        signature((0, 0, 1))
    with pytest.raises(InvalidPlacement):
        sig_x("123")
    with pytest.raises(QueensError, match="criterion"):
        signature_collisions(6, "exact")


# ----------------------------------------------------------------------------- command line


def test_signature_experiment_command(capsys, monkeypatch):
    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        "experiment",
        "signature",
        "--max-n",
        "9",
        "--criterion",
        "both",
        "--certify-to",
        "12",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["distinct_signatures"] is True
    rows = {(r["n"], r["criterion"]): r for r in data["results"]}
    assert set(rows) == {(n, c) for n in range(4, 10) for c in ("document", "oriented")}
    for (n, _), r in rows.items():
        assert r["unique"] == known_unique(n) == r["signatures"] and r["collisions"] == []
    assert rows[(4, "document")]["ambiguous"] == 1 and rows[(9, "document")]["ambiguous"] == 0
    assert [c["n"] for c in data["certified"]] == [10, 11, 12]
    assert {"commit", "python", "machine", "date"} <= set(data["provenance"])
    code, out, _ = run_cli(capsys, monkeypatch, "experiment", "signature", "--max-n", "8")
    assert code == 0 and "no two orbits share a signature" in out


@pytest.mark.parametrize(
    "args,match",
    [
        (("--max-n", "3", "--min-n", "5"), "at least --min-n"),
        (("--max-n", "20"), "limit n <= 16"),
        (("--max-n", "5", "--min-n", "0"), "at least 1"),
        (("--max-n", "5", "--criterion", "x"), "Invalid value"),
        (("--max-n", "5", "--certify-to", "99"), "limit n <= 40"),
    ],
)
def test_signature_experiment_bad_input(capsys, monkeypatch, args, match):
    code, out, err = run_cli(capsys, monkeypatch, "experiment", "signature", *args)
    assert code == 2 and err.startswith("error: ") and match in err


# ----------------------------------------------------------------------------- hostile input


def test_the_library_holds_the_limits_the_command_line_relies_on():
    from queenslab.errors import TooLarge
    from queenslab.symmetry.signature import AMBIGUOUS_MAX_N, COLLISIONS_MAX_N

    with pytest.raises(TooLarge, match="force=True"):
        signature_collisions(COLLISIONS_MAX_N + 1)
    with pytest.raises(TooLarge, match="force=True"):
        signature_collisions(40)
    with pytest.raises(TooLarge, match="exponential"):
        ambiguous_solutions(AMBIGUOUS_MAX_N + 1)
    with pytest.raises(TooLarge, match="exponential"):
        alternating_permutations(100)
    for bad in (8.0, "8", True, 0, None):
        with pytest.raises(QueensError):
            signature_collisions(bad)
        with pytest.raises(QueensError):
            ambiguous_solutions(bad)
    with pytest.raises(QueensError, match="progress"):
        signature_collisions(6, progress="yes")


@pytest.mark.parametrize(
    "call",
    [
        lambda: triangle((0, 0), (1,), (2, 2)),
        lambda: triangle(None, (1, 1), (2, 2)),
        lambda: triangle((0.5, 0), (1, 1), (2, 2)),
        lambda: triples_equal((1, 2), (1, 2, 3)),
        lambda: triples_equal(None, (1, 2, 3)),
        lambda: triples_equal("abc", (1, 2, 3)),
        lambda: sequences_equal(5, [(1, 2, 3)]),
        lambda: sequences_equal([(1, 2, 3)], [(1, 2, 3)], criterion=["document"]),
        lambda: signatures_equal(1, 2),
        lambda: signatures_equal(((), ()), ((), (), ())),
        lambda: is_alternating([(1, 2)]),
        lambda: is_alternating(None),
        lambda: signature([1.5, 0]),
    ],
)
def test_hostile_signature_arguments_are_queens_errors(call):
    with pytest.raises(QueensError):
        call()
