"""CP-SAT and CNF models against the native engine, brute force and the sequences."""

import json
import sys

import naive
import numpy as np
import pytest
from clirun import run_cli
from hypothesis import given, settings
from strategies import problems, symmetric_problems

from queenslab import backends
from queenslab.data import known_total, known_unique
from queenslab.errors import Incomplete, MissingDependency, QueensError, UnknownOption
from queenslab.models import cnf, cpsat
from queenslab.native import engine
from queenslab.problem import Problem, Region

SOLVER_BACKENDS = ["cpsat", "sat", "ganak"]


@settings(max_examples=25)
@given(problems(max_n=6))
def test_every_backend_agrees_with_native_on_random_variants(p):
    ref = engine.count_both(p)
    for name in SOLVER_BACKENDS:
        r = backends.counts(p, unique=True, backend=name)
        assert (r.count, r.unique) == (ref.count, ref.unique), name
    r = backends.counts(p, unique=True, backend="cpsat", formulation="boolean")
    assert (r.count, r.unique) == (ref.count, ref.unique)


@pytest.mark.parametrize("n", [7, 8])
@pytest.mark.parametrize("toroidal,knight", [(False, False), (True, False), (False, True), (True, True)])
def test_every_backend_on_each_flag_combination(n, toroidal, knight):
    p = Problem(n, toroidal=toroidal, knight=knight, blocked=[(0, 1)] if n == 8 else [])
    ref = engine.count_both(p)
    for name in SOLVER_BACKENDS:
        assert backends.count(p, backend=name) == ref.count, name
    assert backends.count(p, backend="cpsat", formulation="boolean") == ref.count


@settings(max_examples=15)
@given(symmetric_problems(min_n=5, max_n=7))
def test_lex_leader_counts_orbits_under_subgroups(p):
    want = naive.orbit_count(p)
    assert backends.count(p, unique=True, backend="cpsat") == want
    assert backends.count(p, unique=True, backend="cpsat", formulation="boolean") == want
    assert backends.count(p, unique=True, backend="sat") == want
    assert backends.count(p, unique=True, backend="ganak") == want


@pytest.mark.parametrize("n", range(1, 11))
def test_cpsat_lex_leader_gives_fundamental_counts(n):
    assert backends.count(Problem(n), unique=True, backend="cpsat") == known_unique(n)


@pytest.mark.parametrize("n", [1, 4, 6, 8, 9])
def test_cpsat_boolean_lex_leader_gives_fundamental_counts(n):
    assert backends.count(Problem(n), unique=True, backend="cpsat", formulation="boolean") == known_unique(n)


@pytest.mark.parametrize("n", range(1, 10))
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_sat_lex_leader_gives_fundamental_counts(n):
    assert backends.count(Problem(n), unique=True, backend="sat") == known_unique(n)
    assert backends.count(Problem(n), unique=True, backend="ganak") == known_unique(n)


@pytest.mark.parametrize("encoding", [e.value for e in cnf.Encoding])
@pytest.mark.slow  # measured among the heaviest of the suite: runs in CI's slow step
def test_every_cardinality_encoding_counts_right(encoding):
    quadrant = Region([(r, c) for r in range(4) for c in range(4)], at_least=2, at_most=3)
    row0 = Region([(0, c) for c in range(0, 7, 2)], at_least=1)
    some = Region([(r, c) for r in range(7) for c in range(7) if (r + c) % 3 == 0], at_least=2, at_most=4)
    for p in (
        Problem(6),
        Problem(7, toroidal=True),
        Problem(7, blocked=[(3, 3)]),
        Problem(7, regions=[quadrant, row0]),
        Problem(7, regions=[some], leapers=[(1, 3)]),
    ):
        assert backends.count(p, backend="sat", encoding=encoding) == engine.count(p) == len(naive.all_solutions(p))
    assert backends.count(Problem(8), backend="ganak", encoding=encoding) == known_total(8)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_sat_solvers(solver):
    assert backends.count(Problem(8), backend="sat", solver=solver) == 92


def test_enumerated_solutions_are_distinct_valid_and_complete():
    p = Problem(8, fixed=[(0, 2)])
    ref = set(engine.solutions(p))
    for sols in (
        list(backends.solutions(p, backend="cpsat")),
        list(backends.solutions(p, backend="cpsat", formulation="boolean")),
        list(backends.solutions(p, backend="sat")),
    ):
        assert len(sols) == len(set(sols)) and set(sols) == ref
    assert len(list(backends.solutions(Problem(10), limit=5, backend="cpsat"))) == 5
    assert list(backends.solutions(Problem(10), limit=0, backend="sat")) == []


def test_cpsat_stream_can_be_abandoned():
    it = backends.solutions(Problem(12), backend="cpsat")
    first = [next(it) for _ in range(3)]
    it.close()  # stops the solver thread
    assert all(naive.is_solution(Problem(12), s) for s in first)


def test_solve_returns_solutions_or_none():
    for n in (1, 4, 9, 20):
        p = Problem(n)
        found = backends.solve(p, backend="cpsat")
        assert naive.is_solution(p, found) if n < 12 else engine.count_prefix(p, found) == 1
        assert engine.count_prefix(p, backends.solve(p, backend="sat")) == 1
    for n in (2, 3):
        assert backends.solve(Problem(n), backend="cpsat") is None and backends.solve(Problem(n), backend="sat") is None
    assert backends.solve(Problem(8, knight=True), backend="sat") is None


def test_limits_report_incomplete_never_final():
    r = backends.counts(Problem(9), limit=7, backend="cpsat")
    assert (r.count, r.complete) == (7, False)
    with pytest.raises(Incomplete) as e:
        backends.count(Problem(9), limit=7, backend="cpsat")
    assert e.value.found == 7
    assert backends.counts(Problem(9), limit=7, backend="sat").complete is False
    assert backends.counts(Problem(6), limit=7, backend="sat").complete is True  # 4 < 7: finished
    with pytest.raises(Incomplete):
        backends.count(Problem(9), limit=3, backend="sat")


def test_edited_cpsat_model_changes_the_count_as_brute_force_says():
    n = 8
    for form in ("integer", "boolean"):
        m = cpsat.build(Problem(n), formulation=form)
        q = m.column_expressions()
        for r in range(n):  # no queen on either long diagonal
            m.model.Add(q[r] != r)
            m.model.Add(q[r] != n - 1 - r)
        want = sum(1 for s in naive.all_solutions(Problem(n)) if all(s[r] not in (r, n - 1 - r) for r in range(n)))
        assert backends.count(Problem(n), model=m) == want
        assert want < known_total(n)


def test_edited_cnf_model_changes_the_count():
    n = 8
    m = cnf.build(Problem(n))
    m.cnf.append([m.var(0, 0), m.var(0, 1)])  # the first queen in column 1 or 2
    want = sum(1 for s in naive.all_solutions(Problem(n)) if s[0] in (0, 1))
    assert backends.count(Problem(n), model=m) == want
    assert backends.count(Problem(n), model=m, backend="ganak") == want


def test_dimacs_export_round_trip(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    p = Problem(7, knight=False, toroidal=True, blocked=[(2, 3)])
    for sym in (None, "lex-leader"):
        text = cnf.to_dimacs(p, encoding="seqcounter", symmetry=sym)
        f = tmp_path / "m.cnf"
        f.write_text(text)
        formula = CNF(from_file=str(f))
        cellvar = {}
        for line in text.splitlines():
            if line.startswith("c x ") and line.split()[2].isdigit():
                _, _, r, c, v = line.split()
                cellvar[(int(r) - 1, int(c) - 1)] = int(v)
        assert len(cellvar) == 49
        found = 0
        with Solver(name="cadical195", bootstrap_with=formula.clauses) as s:
            while s.solve():
                model = set(x for x in s.get_model() if x > 0)
                s.add_clause([-v for v in cellvar.values() if v in model])
                found += 1
        want = engine.count(p, unique=sym is not None)
        assert found == want


def test_cpsat_export_is_a_text_proto():
    text = cpsat.export_text(Problem(5), symmetry="lex-leader")
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    proto = text_format.Parse(text, cp_model_pb2.CpModelProto())
    assert len(proto.variables) >= 5 and any(c.HasField("all_diff") for c in proto.constraints)


def test_bad_options_and_inputs():
    with pytest.raises(UnknownOption, match="accepts"):
        backends.count(Problem(8), backend="cpsat", threads=2)
    with pytest.raises(UnknownOption):
        backends.count(Problem(8), backend="sat", formulation="integer")
    with pytest.raises(UnknownOption):
        backends.count(Problem(8), backend="ganak", solver="glucose4")
    with pytest.raises(QueensError, match="formulation"):
        cpsat.build(Problem(8), formulation="float")
    with pytest.raises(QueensError, match="encoding"):
        cnf.build(Problem(8), encoding="unary")
    with pytest.raises(QueensError, match="symmetry"):
        cnf.build(Problem(8), symmetry="full")
    with pytest.raises(QueensError, match="SAT solver"):
        backends.count(Problem(6), backend="sat", solver="chaff")
    with pytest.raises(QueensError, match="one worker"):
        backends.count(Problem(6), backend="cpsat", workers=4)
    with pytest.raises(QueensError, match="time_limit"):
        backends.solve(Problem(6), backend="cpsat", time_limit=-1)
    with pytest.raises(QueensError, match="different problem"):
        backends.count(Problem(6), model=cpsat.build(Problem(7)))
    with pytest.raises(QueensError, match="unknown backend"):
        backends.get_backend("gurobi")


def test_missing_pyganak_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyganak", None)  # import now raises ImportError
    with pytest.raises(MissingDependency, match=r"queenslab\[count\]"):
        backends.count(Problem(6), backend="ganak")
    # a variant: the native backend counts it once (the standard problem twice, by two methods)
    r = backends.crosscheck(Problem(7, toroidal=True), ["native", "ganak"], time_limit=None)  # in this process
    assert len(r.rows) == 2 and r.rows[1].error and "queenslab[count]" in r.rows[1].error
    # one complete answer is no agreement
    assert r.verdict == "inconclusive" and not r.agree


def test_a_row_stopped_by_a_limit_is_never_part_of_an_agreement():
    # native counts 724; CP-SAT stops after 5 solutions: a lower bound, not an answer
    once = {"native": {"method": "symmetric"}}  # one native row: the method chosen
    r = backends.crosscheck(Problem(10), ["native", "cpsat"], options={**once, "cpsat": {"limit": 5}})
    assert r.rows[0].count == known_total(10) and r.rows[0].complete
    assert r.rows[1].count == 5 and not r.rows[1].complete
    assert r.limited == (r.rows[1],) and r.answered == (r.rows[0],)
    assert r.verdict == "inconclusive" and not r.agree
    # with a third, complete backend the limited row still spoils the agreement
    r = backends.crosscheck(Problem(8), ["native", "sat", "cpsat"], options={**once, "cpsat": {"limit": 5}})
    assert len(r.answered) == 2 and r.verdict == "inconclusive"
    r = backends.crosscheck(Problem(8), ["native", "sat"])
    assert r.verdict == "agree" and r.agree


def test_crosscheck_cli_needs_two_complete_answers(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", "8", "--backends", "native,sat", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "agree"
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", "7", "--toroidal", "--backends", "native")
    assert code == 3 and "inconclusive" in out and "agree" not in out.replace("an agreement", "")
    # the standard problem: the native backend's join and symmetric search are two answers,
    # but of one engine: they agree, and no independent backend confirmed them
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", "8", "--backends", "native")
    assert (
        code == 3
        and "native only: the 2 complete answers agree" in out
        and "(native (join), native (symmetric))" in out
    )


def test_crosscheck_says_agree_only_with_an_independent_answer(capsys, monkeypatch):
    """Two native methods agreeing are "native only" (exit 3); one solver answering too
    makes it "agree" (exit 0); the solvers beyond their reach are named with the reason."""
    r = backends.crosscheck(Problem(15), ["native", "sat", "ganak"], time_limit=30)
    assert r.verdict == "native only" and not r.agree and len(r.answered) == 2
    assert {row.backend for row in r.skipped} == {"sat", "ganak"} and not r.independent
    # every backend by default: the solvers refuse n = 15 up front
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", "15", "--time-limit", "20", "--json")
    data = json.loads(out)
    assert code == 3 and data["verdict"] == "native only" and data["agrees"] is False
    code, out, _ = run_cli(capsys, monkeypatch, "crosscheck", "15", "--time-limit", "20")
    assert "independent backends without an answer: cpsat: beyond its practical limit; sat: beyond" in out
    r = backends.crosscheck(Problem(9), ["native", "sat"])
    assert r.verdict == "agree" and [row.backend for row in r.independent] == ["sat"]


def test_a_solver_beyond_its_limit_counts_when_its_predicted_cost_fits(monkeypatch):
    """The reach is the predicted cost of the problem at hand, not n alone: with sat's
    practical limit lowered to 8, n = 9 (352 + 46 solutions) is counted under a generous
    time limit, with the reason in its row, and refused under one its prediction exceeds."""
    from queenslab.backends.sat import SatBackend

    monkeypatch.setattr(SatBackend, "practical_limit", 8)
    r = backends.crosscheck(Problem(9), ["native", "sat"], time_limit=60)
    sat = r.rows[-1]
    assert (sat.count, sat.unique) == (352, 46) and r.verdict == "agree"
    assert sat.reach.startswith(
        "beyond its practical limit n <= 8, counted directly (398 solutions) for its predicted cost"
    )
    # the decision is the parent's (the backend counts in a process of its own)
    from queenslab.backends.crosscheck import _within_budget

    sat_backend, native_rows = backends.get_backend("sat"), list(r.rows[:2])
    predicted = sat_backend.predicted_seconds(Problem(9), 352, 46)
    assert _within_budget(sat_backend, Problem(9), True, {}, native_rows, predicted * 1.5) == ({}, None)
    assert _within_budget(sat_backend, Problem(9), True, {}, native_rows, predicted * 2.5)[0] == {"force": True}
    assert _within_budget(sat_backend, Problem(9), True, {}, [], None) == ({}, None)  # no answer to predict from


def test_crosscheck_table():
    r = backends.crosscheck(Problem(7, knight=True, toroidal=False, blocked=[(0, 0)]))
    # every exact backend by default (an approximate one only when asked)
    assert [row.backend for row in r.rows] == [n for n, cls in backends.BACKENDS.items() if not cls.approximate]
    assert r.agree and len({row.count for row in r.rows}) == 1
    with pytest.raises(QueensError, match="options given"):
        backends.crosscheck(Problem(6), ["native"], options={"sat": {}})


def test_chain_lex_encoding_used_above_the_weighted_limit(monkeypatch):
    # the reified-chain encoding (used for large n) must count orbits too
    monkeypatch.setattr(cpsat, "WEIGHTED_LEX_MAX_N", 0)
    for n in (5, 6, 8):
        assert backends.count(Problem(n), unique=True, backend="cpsat") == known_unique(n)
        assert backends.count(Problem(n), unique=True, backend="cpsat", formulation="boolean") == known_unique(n)
    p = Problem(7, fixed=[(0, 0)])
    assert backends.count(p, unique=True, backend="cpsat") == naive.orbit_count(p)


def _even_first_row(n=8):
    """The first row's queen in an even column (1-based): an asymmetric edit."""
    return Region([(0, c) for c in range(1, n, 2)], at_least=1)


def _both_diagonals(n=8):
    return Region([(i, i) for i in range(n)] + [(i, n - 1 - i) for i in range(n)], at_most=0)


def test_an_edited_lex_leader_model_is_refused_not_miscounted():
    """The trap: lex-leader constraints for D4 plus an asymmetric constraint give a number
    that is neither the total nor the orbit count. It is refused; the declarative form
    counts right."""
    declared = Problem(8, regions=[_even_first_row()])
    sols = naive.all_solutions(declared)
    assert (len(sols), naive.orbit_count(declared, sols)) == (46, 46)
    m = cpsat.build(Problem(8), symmetry="lex-leader")
    m.model.AddAllowedAssignments([m.q[0]], [(c,) for c in range(1, 8, 2)])
    s = cnf.build(Problem(8), symmetry="lex-leader")
    s.cnf.append([s.var(0, c) for c in range(1, 8, 2)])
    for call in (
        lambda: backends.count(Problem(8), unique=True, model=m, backend="cpsat"),
        lambda: backends.count(Problem(8), unique=True, model=s, backend="ganak"),
        lambda: backends.counts(Problem(8), unique=True, model=m),
        lambda: backends.count(Problem(8), unique=True, model=s),
    ):
        with pytest.raises(QueensError, match="added to this lex-leader model"):
            call()
    assert (
        backends.counts(declared, unique=True, backend="cpsat").unique
        == backends.count(declared, unique=True, backend="sat")
        == 46
    )

    # what the refused count would have been: the lex-leaders of D4 that meet the edit
    def images(q):
        return [tuple(int(np.argmax(row)) for row in t(naive._board(8, enumerate(q)))) for t in naive._transforms()]

    leaders = [q for q in naive.all_solutions(Problem(8)) if q[0] % 2 == 1 and q == min(images(q))]
    orbits = [backends.count(Problem(8), unique=True, model=x, assume_symmetric=True) for x in (m, s)]
    assert orbits == [len(leaders)] * 2 and len(leaders) == 7


def test_a_symmetric_edit_counts_orbits_when_declared_symmetric():
    declared = Problem(8, regions=[_both_diagonals()])
    want = naive.orbit_count(declared)
    assert len(declared.symmetries()) == 8
    m = cpsat.build(Problem(8), symmetry="lex-leader")
    for r in range(8):
        m.model.Add(m.q[r] != r)
        m.model.Add(m.q[r] != 7 - r)
    s = cnf.build(Problem(8), symmetry="lex-leader")
    s.cnf.extend([[-s.var(i, i)] for i in range(8)] + [[-s.var(i, 7 - i)] for i in range(8)])
    orbits = [backends.count(Problem(8), unique=True, model=x, assume_symmetric=True) for x in (m, s)]
    assert orbits == [want, want]
    assert backends.count(Problem(8), unique=True, model=s, backend="ganak", assume_symmetric=True) == want
    r = backends.counts(Problem(8), unique=True, model=m, assume_symmetric=True)
    assert (r.count, r.unique) == (None, want)


def test_edited_models_count_enumerate_and_solve_through_their_backend():
    declared = Problem(8, regions=[_even_first_row()])
    want = sorted(naive.all_solutions(declared))
    p = Problem(8)
    for m in (cpsat.build(p), cpsat.build(p, formulation="boolean")):
        m.model.AddBoolOr([m.cell(0, c) for c in range(1, 8, 2)])
        assert m.edited and backends.count(p, model=m) == len(want)
        assert sorted(backends.solutions(p, model=m)) == want and backends.solve(p, model=m) in want
    s = cnf.build(p)
    s.cnf.append([s.var(0, c) for c in range(1, 8, 2)])
    assert backends.count(p, model=s) == backends.count(p, model=s, backend="ganak") == len(want)
    assert sorted(backends.solutions(p, model=s)) == want and backends.solve(p, model=s) in want
    lex = cpsat.build(Problem(8), symmetry="lex-leader")
    lex.cell(3, 3)  # the model's own helper literal is no edit
    assert not lex.edited and backends.count(Problem(8), unique=True, model=lex) == known_unique(8)
    with pytest.raises(QueensError, match="count it with unique=True"):
        backends.counts(Problem(8), model=lex)
    with pytest.raises(QueensError, match="no symmetry breaking"):
        backends.counts(Problem(8), unique=True, model=cnf.build(Problem(8)))


def test_dimacs_with_auxiliary_variables_says_the_count_is_projected():
    text = cnf.to_dimacs(Problem(6), symmetry="lex-leader", encoding="seqcounter")
    assert "enumerator must block them only" in text and "one solution per orbit" in text
    # the pairwise lex-leader model's only auxiliary variables are determined by the cells
    pairwise = cnf.to_dimacs(Problem(6), symmetry="lex-leader")
    assert "enumerator must block" not in pairwise and "determined by the cells: one model per solution" in pairwise
    cells = [int(v) for v in next(line for line in text.splitlines() if line.startswith("c p show")).split()[3:-1]]
    assert cells == list(range(1, 37))
    assert "auxiliary" not in cnf.to_dimacs(Problem(1))  # one cell, one variable: nothing to project


def test_the_lex_leader_variables_are_determined_by_the_cells():
    """Every model of the pairwise lex-leader CNF is one orbit: counting all its variables
    (no projection) with a plain enumerator gives the orbit count of the brute-force oracle."""
    from pysat.solvers import Solver

    for problem in (
        Problem(6),
        Problem(5, toroidal=True),
        Problem(6, columns=7, queens=6),
        Problem(6, blocked=((0, 2),)),
    ):
        m = cnf.build(problem, symmetry="lex-leader")
        models = 0
        with Solver(name="cadical195", bootstrap_with=m.cnf.clauses) as s:
            while s.solve():
                model = s.get_model()
                models += 1
                s.add_clause([-v for v in model])  # block every variable, auxiliary ones too
        oracle = naive.orbit_count if problem.is_plain_board else naive.board_orbit_count
        assert models == oracle(problem)
