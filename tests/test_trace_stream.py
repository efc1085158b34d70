"""A search recorded chunk by chunk (queenslab.trace.recording) gives the trace record gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from naive import all_solutions
from strategies import problems
from test_trace import VARIANTS

from queenslab import Problem
from queenslab.errors import QueensError
from queenslab.trace import record, recording


def _chunked(problem, chunk, **options):
    rec = recording(problem, "backtrack", chunk=chunk, **options)
    chunks = list(rec)
    return rec.trace(), chunks


@pytest.mark.parametrize("problem", VARIANTS, ids=lambda p: p.describe())
@pytest.mark.parametrize("chunk", [2, 3, 7, 64])
def test_backtracking_chunk_by_chunk_is_the_whole_walk(problem, chunk):
    whole = record(problem, "backtrack", solutions=0)
    trace, chunks = _chunked(problem, chunk, solutions=0)
    assert trace == whole
    assert trace.solutions() == [tuple(s) for s in all_solutions(problem)]
    assert all(0 < len(c.steps) <= chunk for c in chunks)
    # each chunk's board is the board its steps lead to, and it counts its solution steps
    board = np.full(problem.n, -1, np.int64)
    boards = whole.boards()
    at = 0
    for c in chunks:
        for _ in c.steps:
            board = next(boards)
        at += len(c.steps)
        assert c.board.tolist() == board.tolist()
        assert c.solutions == sum(s.op == "solution" for s in c.steps)
    assert at == len(whole)


@settings(max_examples=60, deadline=None)
@given(problems(max_n=6), st.integers(2, 9), st.integers(0, 3), st.integers(1, 400))
def test_any_chunk_size_cap_and_solution_count_give_the_trace_of_record(problem, chunk, solutions, cap):
    whole = record(problem, "backtrack", solutions=solutions, max_steps=cap)
    trace, _ = _chunked(problem, chunk, solutions=solutions, max_steps=cap)
    assert trace == whole


@pytest.mark.parametrize(
    "method, options",
    [("selfcorrect", {"seed": 5}), ("minconflicts", {"seed": 2}), ("ga", {"seed": 3}), ("orbit-search", {})],
)
def test_the_other_methods_deliver_the_trace_of_record(method, options):
    n = 9 if method != "orbit-search" else 8
    rec = recording(n, method, **options)
    chunks = list(rec)
    assert rec.trace() == record(n, method, **options)
    assert chunks and chunks[-1].board.tolist() == rec.trace().final().tolist()


def test_a_cut_recording_is_incomplete_like_record():
    rec = recording(8, "minconflicts", seed=1, max_steps=5)
    steps = [s for c in rec for s in c.steps]
    assert len(steps) == 5 and not rec.trace().complete
    assert rec.trace() == record(8, "minconflicts", seed=1, max_steps=5)


def test_a_recording_refuses_bad_requests_at_once_and_runs_once():
    with pytest.raises(QueensError, match="chunk"):
        recording(8, "backtrack", chunk=1)
    with pytest.raises(QueensError, match="backtrack only"):
        recording(8, "ga", chunk=10)
    with pytest.raises(QueensError, match="still running"):
        recording(Problem(6), "backtrack").trace()
    rec = recording(6, "backtrack")
    rec.run()
    with pytest.raises(QueensError, match="runs once"):
        list(rec)
