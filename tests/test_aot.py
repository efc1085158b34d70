"""The join's kernels built ahead of time: the same results as the just-in-time kernels,
loaded without numba, releasing the GIL, turned off by the environment, and a failed
build kept and answered by the just-in-time kernels. No timings here: benchmarks/startup.py
and benchmarks/counters.py measure the start-up."""

import sys
import threading
import time

import numpy as np
import pytest
from fresh import python_output

from queenslab import Problem, counts, warm
from queenslab.data import known_total, known_unique
from queenslab.native import aot, join, join_kernels as JK, methods, symmetric


@pytest.fixture(scope="module")
def built():
    """The module of this machine, built here if it is not yet (skipped where it cannot be)."""
    if not aot.enabled():
        pytest.skip(f"{aot.ENV}=0 in the environment")
    module = aot.load()
    if module is None:
        reason = aot.build()
        if reason is not None:
            pytest.skip(f"the join's kernels cannot be built ahead of time here: {reason}")
        module = aot.load()
    assert module is not None
    return module


HALT = np.zeros(1, np.int64)


@pytest.mark.parametrize("n", range(4, 15))
def test_every_exported_kernel_returns_what_the_just_in_time_one_does(built, n):
    assert set(aot.EXPORTS) <= set(dir(built))
    assert tuple(built.quarter_size(n)) == tuple(JK.quarter_size(n))
    words, offs, bases = built.quarter_tables(n, HALT)
    for mine, theirs in zip((words, offs, bases), JK.quarter_tables(n, HALT), strict=True):
        assert np.array_equal(mine, theirs)
    tasks = built.join_tasks(n)
    assert np.array_equal(tasks, JK.join_tasks(n))
    assert np.array_equal(built.task_costs(n, tasks, offs, bases), JK.task_costs(n, tasks, offs, bases))
    half = len(tasks) // 2
    for start, stop in ((0, len(tasks)), (0, half), (half, len(tasks))):
        assert tuple(built.join_count(n, tasks, start, stop, words, offs, bases, HALT)) == tuple(
            JK.join_count(n, tasks, start, stop, words, offs, bases, HALT)
        )
    total = built.join_count(n, tasks, 0, len(tasks), words, offs, bases, HALT)[0]
    assert total == known_total(n)
    assert tuple(built.fixed_counts(n, HALT)) == tuple(JK.fixed_counts(n, HALT))


@pytest.mark.parametrize("threads", [1, 2])
def test_the_join_counts_with_the_built_kernels(built, threads):
    for n in (14, 15):
        result, _ = join.count_classes(n, threads=threads)
        assert (result.count, result.unique) == (known_total(n), known_unique(n))
    assert join._kernels() is built


def test_the_built_kernels_release_the_gil(built):
    """A kernel runs while another thread raises its halt flag: it stops early. Were the
    GIL held through the call, the flag would only be raised after the count was done."""
    n = 17
    words, offs, bases = built.quarter_tables(n, HALT)
    tasks = built.join_tasks(n)
    halt = np.zeros(1, np.int64)
    started = threading.Event()
    found = []

    def count():
        started.set()
        found.append(built.join_count(n, tasks, 0, len(tasks), words, offs, bases, halt)[0])

    worker = threading.Thread(target=count)
    worker.start()
    started.wait()
    time.sleep(0.05)  # the kernel is running now (n = 17 takes over a second)
    running = worker.is_alive()  # this thread runs only if the kernel let go of the GIL
    halt[0] = 1
    worker.join()
    assert running and found[0] < known_total(n)


def _fresh(code: str, **env: str) -> list[str]:
    return python_output(code, **env).split()


_COUNT_16 = (
    "import sys\n"
    "from queenslab import Problem, counts\n"
    "r = counts(Problem(16), unique=True, threads=1)\n"
    "print(r.method, r.count, r.unique, 'numba' in sys.modules, 'queenslab.native.join_kernels' in sys.modules)\n"
)


def test_a_fresh_standard_count_by_the_join_imports_no_numba(built):
    method, total, unique, numba, jit_kernels = _fresh(_COUNT_16)
    assert (method, int(total), int(unique)) == ("join", known_total(16), known_unique(16))
    assert numba == jit_kernels == "False"


def test_the_environment_turns_the_module_off(built):
    method, total, unique, numba, jit_kernels = _fresh(_COUNT_16, **{aot.ENV: "0"})
    assert (method, int(total), int(unique)) == ("join", known_total(16), known_unique(16))
    assert numba == jit_kernels == "True"


def test_a_variant_by_the_join_counts_right_with_the_built_kernels_beside_its_own(built):
    """A variant's tables, row splits and fixed boards come from the just-in-time masked
    kernels, its pair counts from the built ones."""
    problem = Problem(14, blocked=[(0, 0), (3, 5)])
    general = counts(problem, method="general", unique=True)
    joined = counts(problem, method="join", unique=True)
    assert (joined.count, joined.unique) == (general.count, general.unique)


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """queenslab's user cache directory moved to an empty folder (no module built there)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(aot.ENV, raising=False)
    if aot.folder().parent.parent.parent != tmp_path:
        pytest.skip("the user cache directory does not follow XDG_CACHE_HOME here")
    return tmp_path


def test_a_failed_build_is_said_kept_and_not_retried_until_warm(elsewhere, monkeypatch, capsys):
    calls = []

    def no_compiler(into):
        calls.append(into)
        raise RuntimeError("no C compiler found\nsecond line")

    monkeypatch.setattr(aot, "_compile", no_compiler)
    assert aot.load() is None and aot.failure() is None
    warm.ensure("join", standard=True)
    err = capsys.readouterr().err
    assert "could not build them ahead of time (RuntimeError: no C compiler found)" in err
    assert aot.failure() == "RuntimeError: no C compiler found" and len(calls) == 1
    assert not any(p.name.startswith(".build-") for p in aot.folder().parent.iterdir())  # no temporary left
    # the next count does not try again; the count itself runs the just-in-time kernels
    warm.ensure("join", standard=True)
    assert len(calls) == 1
    assert join._kernels() is join.JK  # the just-in-time kernels (imported at first use)
    assert join.join_total(14, threads=1) == known_total(14)
    # warm tries again, and reports why it failed
    report = warm.warm_ahead(stream=sys.stderr)
    assert len(calls) == 2 and not report.ready and not report.compiled
    assert report.error == "RuntimeError: no C compiler found"


def test_a_damaged_module_is_not_loaded(elsewhere):
    aot.path().parent.mkdir(parents=True)
    aot.path().write_bytes(b"not a shared library")
    assert aot.load() is None


def test_the_module_is_kept_per_source_versions_and_cpu(elsewhere, monkeypatch):
    assert aot.folder().name == aot.key() and len(aot.key()) == 16
    assert aot.path().name.startswith(aot.NAME)
    here = aot.key()
    changes = [
        lambda m: m.setattr(aot, "_cpu", lambda: "another CPU"),
        lambda m: m.setattr(aot, "_version_file", lambda package, name: b"another version"),
        lambda m: m.setattr(aot, "_SOURCES", aot._SOURCES[1:]),
        lambda m: m.setenv("NUMBA_CPU_FEATURES", "+sse2"),
    ]
    seen = {here}
    for change in changes:
        with monkeypatch.context() as m:
            change(m)
            aot.key.cache_clear()
            seen.add(aot.key())
    aot.key.cache_clear()
    assert aot.key() == here and len(seen) == 1 + len(changes)


def test_an_unwritable_cache_directory_is_a_reason_not_a_crash(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv(aot.ENV, raising=False)
    monkeypatch.setattr(aot, "_failed_here", None)
    warm.ensure("join", standard=True)
    assert "could not build them ahead of time" in capsys.readouterr().err
    assert aot.failure() is not None and aot.load() is None
    assert join.join_total(14, threads=1) == known_total(14)


def test_choosing_a_method_knows_the_symmetric_counters_limit_without_its_kernels():
    assert methods.SYM_MAX_N == symmetric.MAX_N
