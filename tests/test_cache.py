"""The first-compile notice: it appears only when a kernel is not compiled, quotes a
recorded measurement (never a fixed figure), records each compile, and shrugs off a
damaged record; the kernel sets of ``queenslab warm`` cover what a count compiles.

Each test compiles a tiny kernel of its own, in a module written to a temporary directory
(numba caches it there, or under ``NUMBA_CACHE_DIR`` in a directory named after it).
"""

import importlib.util
import json
import re

import pytest
from clirun import run_cli

from queenslab import Problem, counts, warm
from queenslab.data import known_unique
from queenslab.native import aot, cache, engine


def _module(path, name, body="x + 1"):
    """Import a module at ``path`` holding ``f(x) = body`` as a cached numba kernel."""
    path.write_text(f"from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return {body}\n")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Stream:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_a_cold_kernel_is_announced_timed_and_recorded_then_silent(tmp_path):
    record = tmp_path / "times.json"
    kernel = _module(tmp_path / "cold_a.py", "cold_a").f
    assert not cache.is_cached(kernel)
    out = Stream()
    done = cache.compile_once([kernel], "the test kernel", lambda: kernel(1), out, record)
    assert done.compiled
    lines = out.text.splitlines()
    assert lines[0] == "compiling the test kernel, once (not yet timed on this machine)"
    measured = re.fullmatch(r"compiled the test kernel in (\d+\.\d) s", lines[1])
    assert measured, lines
    # the record holds the measured time, under this machine's key
    entry = json.loads(record.read_text())[cache.record_key("the test kernel")]
    assert f"{entry['seconds']:.1f}" == measured.group(1) and entry["cpu_seconds"] > 0
    # compiled: the same kernel in a fresh process (a fresh module) is cached, nothing said
    again = _module(tmp_path / "cold_a.py", "cold_a_again").f
    assert cache.is_cached(again)
    quiet = Stream()
    assert not cache.compile_once([again], "the test kernel", lambda: again(1), quiet, record).compiled
    assert quiet.text == ""


def test_the_notice_quotes_the_recorded_compile(tmp_path):
    record = tmp_path / "times.json"
    first = _module(tmp_path / "cold_b.py", "cold_b").f
    cache.compile_once([first], "the test kernel", lambda: first(1), Stream(), record)
    last = cache.recorded(cache.record_key("the test kernel"), record)
    assert last is not None and last == json.loads(record.read_text())[cache.record_key("the test kernel")]["seconds"]
    # another cold kernel of the same set: announced with the figure just measured
    cache.record("another set", 2.5, 2.0, record)
    second = _module(tmp_path / "cold_c.py", "cold_c").f
    out = Stream()
    cache.compile_once([second], "the test kernel", lambda: second(1), out, record)
    lines = out.text.splitlines()
    assert lines[0] == f"compiling the test kernel, once (took {last:.1f} s last time on this machine)"
    # the record now holds the second compile's measure, and the other set's entry is kept
    now = cache.recorded(cache.record_key("the test kernel"), record)
    assert lines[1] == f"compiled the test kernel in {now:.1f} s"
    assert cache.recorded("another set", record) == 2.5


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", '{"KEY": {"seconds": "fast"}}', '{"KEY": {"seconds": -1}}', '{"KEY": 3}', ""],
)
def test_a_damaged_record_is_ignored_and_replaced(tmp_path, content):
    record = tmp_path / "times.json"
    key = cache.record_key("the test kernel")
    record.write_text(content.replace("KEY", key))
    assert cache.recorded(key, record) is None
    kernel = _module(tmp_path / "cold_d.py", "cold_d").f
    out = Stream()
    assert cache.compile_once([kernel], "the test kernel", lambda: kernel(1), out, record).compiled
    assert "not yet timed on this machine" in out.text.splitlines()[0]
    assert cache.recorded(key, record) is not None  # a good record written over the bad one


def test_an_unwritable_record_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not cache.record("k", 1.0, 1.0, blocker / "times.json")  # its directory is a file


def test_a_kernel_whose_source_changed_counts_as_not_compiled(tmp_path):
    # what an upgrade does: the old index stays, written for other source
    old = _module(tmp_path / "cold_e.py", "cold_e").f
    old(1)
    assert cache.is_cached(old)
    changed = _module(tmp_path / "cold_e.py", "cold_e_changed", body="x + 2 * x - 1").f
    assert not cache.is_cached(changed)
    assert changed(3) == 8


def test_what_numba_cannot_inspect_counts_as_cached():
    assert cache.is_cached(object())
    assert not cache.compile_once([object()], "x", lambda: None, Stream()).compiled


@pytest.mark.parametrize(
    "method, problems",
    [
        ("symmetric", [(Problem(12), True, 2), (Problem(13), False, 1)]),
        ("general", [(Problem(9, toroidal=True), True, 2), (Problem(9, blocked=[(0, 0)]), False, 1)]),
        ("join", [(Problem(14), True, 2), (Problem(15), False, 2), (Problem(14), False, 1)]),
    ],
)
def test_a_warmed_kernel_set_holds_every_signature_a_count_needs(method, problems, monkeypatch):
    monkeypatch.setenv(aot.ENV, "0")  # the standard problem's join on the just-in-time kernels
    kernel_set = warm.SETS[method]
    kernel_set.compile()  # compiled, or loaded from numba's cache
    kernels = kernel_set.kernels()
    assert all(cache.is_cached(k) for k in kernels)
    before = [set(k.overloads) for k in kernels]
    for problem, unique, threads in problems:
        assert engine.chosen_method(problem, "auto" if method != "general" else "general", threads) == method
        engine.count_both(problem, unique=unique, threads=threads, method=method)
    # no kernel took a signature the warm-up had not compiled
    assert [set(k.overloads) for k in kernels] == before


def test_a_count_with_its_kernels_compiled_says_nothing(capsys):
    warm.ensure("symmetric")
    capsys.readouterr()
    assert counts(Problem(11), unique=True).unique == known_unique(11)
    assert capsys.readouterr().err == ""


def test_warm_compiles_or_finds_every_kernel_set(capsys, monkeypatch):
    monkeypatch.delenv(aot.ENV, raising=False)
    code, out, _ = run_cli(capsys, monkeypatch, "warm", "--json")
    assert code == 0
    found = json.loads(out)["kernels"]
    assert [k["method"] for k in found] == list(warm.SETS)
    for k in found:
        assert all(cache.is_cached(kernel) for kernel in warm.SETS[k["method"]].kernels())
        assert (k["seconds"] > 0) == k["compiled"]
    ahead = json.loads(out)["ahead_of_time"]
    assert ahead["enabled"] and ahead["ready"] == (aot.load() is not None) and ahead["path"] == str(aot.path())
    assert ahead["ready"] or ahead["error"]  # built, or said why not
    # now every set is compiled: said so, one line each
    code, out, err = run_cli(capsys, monkeypatch, "warm")
    assert code == 0 and (err == "" or not ahead["ready"])  # a failed build is tried again, with its notice
    lines = out.splitlines()
    assert [line.split() for line in lines[:-1]] == [[name, "already", "compiled"] for name in warm.SETS]
    assert lines[-1].split()[:4] == ["join,", "ahead", "of", "time"]
    assert lines[-1].endswith("already built") == ahead["ready"]
