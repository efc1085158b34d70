"""The backend contract: one validation for every backend, the registry, count derived
from counts, every backend against the brute-force oracle."""

import naive
import pytest
from hypothesis import given, settings
from strategies import problems

from queenslab import Problem, Region, crosscheck, get_backend
from queenslab.backends import BACKENDS, backend_options
from queenslab.backends.interface import COUNTS, SOLUTIONS, SOLVE, Backend
from queenslab.data import known_total
from queenslab.errors import Incomplete, QueensError, TooLarge, UnknownOption, UnsupportedProblem

ENUMERATING = [name for name in BACKENDS if name != "ganak"]


def test_registry_first_entry_is_the_default_and_names_match():
    assert next(iter(BACKENDS)) == "native" and get_backend().name == "native"
    for name, cls in BACKENDS.items():
        assert issubclass(cls, Backend) and cls.name == name and cls.summary


@pytest.mark.parametrize("question", [COUNTS, SOLUTIONS, SOLVE])
def test_one_option_name_means_one_option(question):
    # backend_options raises when two backends declare different options under one name
    for name, (opt, users) in backend_options(question).items():
        assert users and all(BACKENDS[u]().option(name) == opt for u in users)


@pytest.mark.parametrize("name", list(BACKENDS))
@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_solutions_limit_is_checked_the_same_everywhere(name, bad):
    with pytest.raises(QueensError, match="limit"):
        get_backend(name).solutions(Problem(6), limit=bad)


@pytest.mark.parametrize("name", [n for n in BACKENDS if get_backend(n).option("limit")])
@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_count_limit_is_checked_the_same_everywhere(name, bad):
    with pytest.raises(QueensError, match="limit"):
        get_backend(name).counts(Problem(6), limit=bad)


@pytest.mark.parametrize("name", list(BACKENDS))
def test_unknown_options_and_problems_are_refused(name):
    be = get_backend(name)
    with pytest.raises(UnknownOption, match="accepts"):
        be.counts(Problem(6), colour="red")
    with pytest.raises(QueensError, match="Problem"):
        be.counts(8)
    with pytest.raises(QueensError, match="unique"):
        be.counts(Problem(6), unique="yes")


def test_option_values_are_validated_by_their_declaration():
    with pytest.raises(QueensError, match="threads"):
        get_backend("native").counts(Problem(6), threads=0)
    with pytest.raises(QueensError, match="time_limit"):
        get_backend("cpsat").counts(Problem(6), time_limit=0)
    with pytest.raises(QueensError, match="formulation"):
        get_backend("cpsat").counts(Problem(6), formulation="float")
    with pytest.raises(QueensError, match="solver must be a string"):
        get_backend("sat").counts(Problem(6), solver=3)
    with pytest.raises(QueensError, match="force must be True or False"):
        get_backend("native").counts(Problem(6), force="yes")
    with pytest.raises(UnknownOption):  # workers is for solve only: counting enumerates on one
        get_backend("cpsat").counts(Problem(6), workers=2)


@pytest.mark.parametrize("name", ["cpsat", "sat"])
def test_count_raises_incomplete_where_counts_says_incomplete(name):
    be = get_backend(name)
    r = be.counts(Problem(9), limit=5)
    assert (r.count, r.complete, r.backend) == (5, False, name) and r.seconds >= 0
    with pytest.raises(Incomplete) as info:
        be.count(Problem(9), limit=5)
    assert info.value.found == 5


@settings(max_examples=15, deadline=None)
@given(problems(max_n=6))
def test_every_backend_counts_and_enumerates_what_the_oracle_finds(p):
    sols = naive.all_solutions(p)
    for name in BACKENDS:
        if name in ("ganak", "xcsp3"):
            # exact #SAT (slow to start per formula) and a Java process per count: each has
            # its own oracle tests (the models' tests, tests/test_xcsp3.py)
            continue
        be = get_backend(name)
        if name == "d4" and _undetermined_auxiliaries(p):
            # d4 counts without projection: such a model is refused, never miscounted
            with pytest.raises(UnsupportedProblem, match="auxiliary variables"):
                be.counts(p, unique=True)
            continue
        r = be.counts(p, unique=True)
        if be.approximate:  # an estimate: the oracle's numbers within its bounds
            assert r.within(len(sols), naive.orbit_count(p, sols)), name
        else:
            assert (r.count, r.unique) == (len(sols), naive.orbit_count(p, sols)), name
        assert sorted(be.solutions(p)) == sols, name
        found = be.solve(p)
        assert (found is None) == (not sols) and (found is None or tuple(found) in set(sols)), name


def _undetermined_auxiliaries(p) -> bool:
    """Whether the pairwise CNF model of ``p`` (plain or lex-leader) has auxiliary
    variables other than the lex-leader ones (a bound the pairwise encoding cannot say)."""
    from queenslab.models import cnf

    for symmetry in (None, "lex-leader"):
        m = cnf.build(p, symmetry=symmetry)
        lex = sum(1 for key in m.pool.obj2id if key[0] == "lex")
        if m.pool.top > p.n * p.columns + lex:
            return True
    return False


@pytest.mark.parametrize(
    ("backend", "option", "value"),
    [("cpsat", "seed", 2**31), ("cpsat", "seed", 2**70), ("native", "threads", 1025), ("cpsat", "limit", 0)],
)
def test_integer_options_outside_their_range_are_refused_with_it(backend, option, value):
    with pytest.raises(QueensError, match=r"\.\.|at least"):
        get_backend(backend).counts(Problem(6), **{option: value})


def test_model_larger_than_memory_is_refused_before_it_is_built(monkeypatch):
    from queenslab import validate
    from queenslab.models import cnf, cpsat, size

    monkeypatch.setattr(validate, "available_memory", lambda: 10**9)  # a 1 GB machine
    with pytest.raises(TooLarge, match=r"pairwise CNF model of n = 300 needs about .* GB"):
        cnf.build(Problem(300))
    with pytest.raises(TooLarge, match="boolean CP-SAT model"):
        cpsat.build(Problem(2000), formulation="boolean")
    assert size.cnf_bytes(Problem(300), "pairwise") > 10**9 > size.cnf_bytes(Problem(60), "pairwise")
    assert cnf.build(Problem(30)).problem.n == 30  # small models still build


@pytest.mark.parametrize("backend", ["cpsat", "sat", "ganak"])
def test_solver_counts_beyond_their_practical_limit_are_refused_up_front(backend):
    be = get_backend(backend)
    with pytest.raises(TooLarge, match=rf"practical limit n <= {be.practical_limit}.*force=True"):
        be.counts(Problem(be.practical_limit + 1))


def test_a_limit_or_force_lifts_the_practical_limit(monkeypatch):
    from queenslab.backends.cpsat import CpsatBackend

    be = get_backend("cpsat")
    monkeypatch.setattr(CpsatBackend, "practical_limit", 5)
    with pytest.raises(TooLarge):
        be.counts(Problem(6))
    assert be.counts(Problem(6), force=True).count == known_total(6)
    r = be.counts(Problem(6), limit=2)
    assert (r.count, r.complete) == (2, False)


def test_crosscheck_records_a_backend_beyond_its_limit_and_refuses_when_none_can_run():
    r = crosscheck(Problem(15), ["native", "cpsat"], unique=False)
    join, symmetric, cpsat = r.rows  # the native backend's two independent counts
    assert join.count == symmetric.count == known_total(15) and cpsat.error and "practical limit" in cpsat.error
    assert r.verdict == "native only" and r.skipped == (cpsat,)
    r = crosscheck(Problem(11, toroidal=True), ["native", "cpsat"], unique=False, options={"cpsat": {"limit": 1}})
    assert r.verdict == "inconclusive"  # one complete answer and a lower bound are no agreement
    with pytest.raises(TooLarge):
        crosscheck(Problem(19), ["cpsat", "sat"])


def test_a_model_picks_its_own_backend():
    from queenslab import count, counts, solve
    from queenslab.models import cnf, cpsat

    p = Problem(8)
    for m in (cpsat.build(p), cnf.build(p)):
        r = counts(p, model=m)
        assert (r.count, r.backend) == (known_total(8), m.backend)
        assert count(p, model=m) == known_total(8) and solve(p, model=m) is not None
    lex = cpsat.build(p, symmetry="lex-leader")
    assert count(p, model=lex, unique=True) == 12
    with pytest.raises(QueensError, match="must come from"):
        count(p, model=object())


# ------------------------------------------------------------- an edited model, one path
#: The models a backend takes as an edited ``model`` (the CP-SAT model in both formulations).
MODEL_KINDS = ["cpsat-integer", "cpsat-boolean", "sat", "cpmpy"]


def _build(kind, p, symmetry=None):
    from queenslab.models import cnf, cpmpy, cpsat

    if kind.startswith("cpsat"):
        return cpsat.build(p, formulation=kind.split("-")[1], symmetry=symmetry)
    return (cnf if kind == "sat" else cpmpy).build(p, symmetry=symmetry)


def _forbid_cells(m, cells):
    """Add "no queen on these cells" to the model ``m`` in its own language."""
    if hasattr(m, "cnf"):
        m.cnf.extend([[-m.var(r, c)] for r, c in cells])
    elif hasattr(m, "formulation"):
        q = m.column_expressions()
        for r, c in cells:
            m.model.Add(q[r] != c)
    else:  # CPMpy: a list of expressions, kept nested in the model's constraints
        m.model += [m.q[r] != c for r, c in cells]


def _entry_points(p, m, unique=False, **opts):
    """What every remaining way of counting the model ``m`` says: the backend's methods, the
    registry's facade with and without the backend's name, the model's shorthand, and the
    number of solutions enumerated."""
    from queenslab import count, counts, solutions

    name = type(m).backend
    be = get_backend(name)
    found = {
        "Backend.counts": be.counts(p, unique=unique, model=m, **opts).value(unique),
        "Backend.count": be.count(p, unique=unique, model=m, **opts),
        "counts(model=)": counts(p, unique=unique, model=m, **opts).value(unique),
        "count(model=)": count(p, unique=unique, model=m, **opts),
        "counts(backend=, model=)": counts(p, unique=unique, backend=name, model=m, **opts).value(unique),
        "count(backend=, model=)": count(p, unique=unique, backend=name, model=m, **opts),
        "Backend.solutions": len(set(be.solutions(p, model=m))),
        "solutions(model=)": len(set(solutions(p, model=m))),
    }
    if name == "sat":  # Ganak counts a CNF model too
        found["ganak"] = count(p, unique=unique, backend="ganak", model=m, **opts)
    return found


@pytest.mark.parametrize("kind", MODEL_KINDS)
@pytest.mark.parametrize("p", [Problem(8), Problem(7, toroidal=True)], ids=["8", "7-toroidal"])
def test_an_edited_model_counts_the_same_through_every_entry_point(kind, p):
    from queenslab import solve

    # the edit: the first row's queen in an odd column (0-based): an asymmetric constraint
    edited = [(0, c) for c in range(0, p.n, 2)]
    want = [s for s in naive.all_solutions(p) if s[0] % 2 == 1]
    assert 0 < len(want) < len(naive.all_solutions(p))
    m = _build(kind, p)
    _forbid_cells(m, edited)
    found = _entry_points(p, m)
    assert found == dict.fromkeys(found, len(want)), kind
    assert sorted(get_backend(type(m).backend).solutions(p, model=m)) == want
    assert solve(p, model=m) in want


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_an_edited_lex_leader_model_counts_orbits_through_every_entry_point_when_declared_symmetric(kind):
    n = 8
    p = Problem(n)
    diagonals = [(i, i) for i in range(n)] + [(i, n - 1 - i) for i in range(n)]
    declared = Problem(n, regions=[Region(diagonals, at_most=0)])  # the same edit, said declaratively
    want = naive.orbit_count(declared)
    m = _build(kind, p, symmetry="lex-leader")
    _forbid_cells(m, diagonals)
    assert m.edited
    with pytest.raises(QueensError, match="added to this lex-leader model"):
        get_backend(type(m).backend).counts(p, unique=True, model=m)
    found = _entry_points(p, m, unique=True, assume_symmetric=True)
    assert found == dict.fromkeys(found, want), kind


def test_model_options_are_checked_by_the_backend():
    from queenslab import count
    from queenslab.models import cnf, cpsat

    p = Problem(6)
    with pytest.raises(QueensError, match="does not match the given model"):
        count(p, model=cpsat.build(p), formulation="boolean")
    with pytest.raises(QueensError, match="does not match the given model"):
        count(p, model=cnf.build(p), encoding="ladder")
    with pytest.raises(QueensError, match="assume_symmetric is about"):
        count(p, backend="cpsat", assume_symmetric=True)
    with pytest.raises(QueensError, match="assume_symmetric must be True or False"):
        count(p, model=cpsat.build(p), assume_symmetric="yes")
    with pytest.raises(UnknownOption, match="assume_symmetric"):  # counting only
        get_backend("cpsat").solve(p, model=cpsat.build(p), assume_symmetric=True)
    assert "assume_symmetric" not in backend_options(COUNTS)  # a model exists in Python only
