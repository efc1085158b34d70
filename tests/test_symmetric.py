"""The symmetry-classifying counter on SIMD lanes: task by task against brute force and
against its scalar form, and the same counts and nodes wherever its roots are cut."""

import naive
import numpy as np
import pytest

from queenslab.data import known_total, known_unique
from queenslab.native import engine
from queenslab.native.symmetric import MAX_BELOW, ROOT_ROWS, _sym_lanes, sym_count
from queenslab.native.symmetric_scalar import sym_count_scalar
from queenslab.problem import Problem

HALT = np.zeros(1, np.int64)


def _tasks(n):
    return engine.split_tasks(Problem(n))[2]


@pytest.mark.parametrize("n", range(4, 9))
def test_every_task_against_brute_force(n):
    for corner, b1, c in _tasks(n):
        c2, c4, c8, _ = sym_count(n, corner, b1, c, -1, HALT)
        want = naive.orbits_by_least_prefix(n, (0, b1, c) if corner else (b1, c))
        assert {k: v for k, v in ((2, c2), (4, c4), (8, c8)) if v} == want, (corner, b1, c)


def _tasks_and_classes(n):
    tasks = _tasks(n) + [(1, b1, -1) for b1 in range(2, n - 1)]
    return tasks + [(0, b1, -1) for b1 in range(1, n) if b1 < n - 1 - b1]


@pytest.mark.parametrize("n", range(4, 14))
def test_the_lanes_and_the_scalar_search_agree_task_by_task(n):
    # the same tree: the same counts and the same queens placed
    for task in _tasks_and_classes(n):
        lanes = tuple(int(x) for x in sym_count(n, *task, -1, HALT))
        scalar = tuple(int(x) for x in sym_count_scalar(n, *task, -1, HALT))
        assert lanes == scalar, task


@pytest.mark.parametrize(
    "n, task",
    [(18, (1, 15, 4)), (18, (0, 8, 5)), (18, (1, 14, 7)), (19, (0, 8, 12)), (20, (0, 9, 5))],
)
def test_large_boards_root_deeper_and_still_agree(n, task):
    # from n = 18 the roots are cut n - 12 rows down, so the 60-bit column stack holds
    # the rows below them: small tasks of n = 18..20 against the scalar search
    lanes = tuple(int(x) for x in sym_count(n, *task, -1, HALT))
    assert lanes == tuple(int(x) for x in sym_count_scalar(n, *task, -1, HALT))
    assert lanes[3] > 0


def test_a_larger_stack_request_is_clamped():
    # asking for more rows below the roots than the stack holds changes nothing
    task = (1, 15, 4)
    assert tuple(_sym_lanes(18, *task, -1, HALT, ROOT_ROWS, 40)) == tuple(sym_count(18, *task, -1, HALT))


def test_the_engine_runs_the_kernel_it_chose():
    chosen = {"lanes": sym_count, "scalar": sym_count_scalar}[engine.SYM_KERNEL]
    assert engine.sym_count is chosen


@pytest.mark.parametrize("n", range(4, 13))
def test_the_cut_of_the_roots_changes_nothing(n):
    # roots one row below the fixed rows, at the default depth, and as deep as possible
    # (one row left to the lanes), whole classes and split tasks alike
    cuts = [(1, MAX_BELOW), (ROOT_ROWS, MAX_BELOW), (2, 3), (0, 1)]
    for corner, b1, c in _tasks_and_classes(n):
        found = {tuple(int(x) for x in _sym_lanes(n, corner, b1, c, -1, HALT, *cut)) for cut in cuts}
        assert len(found) == 1, (corner, b1, c, found)


@pytest.mark.parametrize("n", range(4, 14))
def test_the_tasks_add_up_to_the_sequences(n):
    parts = [sym_count(n, *t, -1, HALT) for t in _tasks(n)]
    c2, c4, c8 = (sum(int(p[i]) for p in parts) for i in range(3))
    assert 2 * c2 + 4 * c4 + 8 * c8 == known_total(n)
    assert c2 + c4 + c8 == known_unique(n)


def test_a_set_stop_flag_returns_at_once():
    halt = np.ones(1, np.int64)
    c2, c4, c8, nodes = sym_count(16, 0, 3, -1, -1, halt)
    assert nodes < 10_000  # the whole subtree places millions of queens


def _deep_tasks(n):
    return engine.split_tasks(Problem(n), method="symmetric", depth=1)[2]


@pytest.mark.parametrize("n", range(5, 9))
def test_every_deep_task_against_brute_force(n):
    # (corner, b1, c, d): the orbits whose least solution begins with those rows
    for corner, b1, c, d in _deep_tasks(n):
        c2, c4, c8, _ = sym_count(n, corner, b1, c, d, HALT)
        want = naive.orbits_by_least_prefix(n, (0, b1, c, d) if corner else (b1, c, d))
        assert {k: v for k, v in ((2, c2), (4, c4), (8, c8)) if v} == want, (corner, b1, c, d)


@pytest.mark.parametrize("n", range(5, 14))
def test_the_deep_tasks_of_a_task_add_up_to_it_nodes_included(n):
    # the queen of the split row is placed in every part but counted in part 0 only
    for corner, b1, c in _tasks(n):
        whole = tuple(int(x) for x in sym_count(n, corner, b1, c, -1, HALT))
        parts = [sym_count(n, corner, b1, c, d, HALT) for d in range(n)]
        assert tuple(sum(int(p[i]) for p in parts) for i in range(4)) == whole, (corner, b1, c)
        scalar = [sym_count_scalar(n, corner, b1, c, d, HALT) for d in range(n)]
        assert [tuple(map(int, p)) for p in parts] == [tuple(map(int, p)) for p in scalar], (corner, b1, c)


def test_the_deep_split_is_the_default_from_sym_deep_from():
    n = engine.SYM_DEEP_FROM
    method, depth, tasks = engine.split_tasks(Problem(n), method="symmetric", force=True)
    assert (method, depth, len(tasks[0])) == ("symmetric", 1, 4)
    assert len(tasks) == n * len(engine.split_tasks(Problem(n), method="symmetric", depth=0, force=True)[2])
    assert engine.split_tasks(Problem(n - 1), method="symmetric", force=True)[1] == 0
