"""benchmarks/counters.py and benchmarks/ref/build_counters.sh without the public counters:
the output parsers on the lines those programs print, the check against OEIS, the flagging
of a program that prints a wrong count, and the build script's skips. (No timings.)"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from queenslab.data import known_total, known_unique

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def counters():
    sys.path.insert(0, str(BENCH))  # counters.py imports its sibling common.py
    try:
        spec = importlib.util.spec_from_file_location("bench_counters", BENCH / "counters.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_counters", None)
        sys.path.remove(str(BENCH))


# What each program printed at n = 16 on the machine of docs/benchmarks.md (copied from
# its output; the counts in them are OEIS A000170(16) and A002562(16)).
OUTPUTS = {
    "queenslab": "14772512 solutions of 16-queens (1846955 unique)\n"
    "backend native (join), 2.055 s; known value 14772512 / 1846955 unique: agrees\n",
    "kluev": "Result: 14772512\nElapsed time: 1.06002 s\n",
    "takaken": "<------  N-Queens Solutions  -----> <---- time ---->\n"
    " N:           Total          Unique days hh:mm:ss.--\n"
    "16:        14772512          1846955            1.43\n",
    "suzuki-constellations": "Constellations\n N:            Total          Unique      dd:hh:mm:ss.ms\n"
    "16:         14772512               0     000:00:00:04.07\n",
    "m-queens": "PASS N 16, Solutions           14772512, Expected           14772512, Time 6.580786 sec.,"
    " Solutions/s 2244794.470293\n",
    "nqueensfaf": "===== CpuSolver Example =====\nPlease enter N.\n> Please enter the number of threads that "
    "should be used.\n> Starting CpuSolver for N=16.\n\t0.00% [0 solutions, 0.00s]\n"
    "\t97.32% [14589400 solutions, 8.52s]\n\t100.00% [14772512 solutions, 8.61s]\n"
    "CpuSolver found 14772512 solutions in 8612 ms for N=16\n",
}


def parser(counters, name):
    return counters.parse_queenslab if name == "queenslab" else counters.BY_NAME[name].parse


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_each_parser_reads_its_programs_count(counters, name):
    got = parser(counters, name)(OUTPUTS[name], 16)
    assert got.total == known_total(16)
    # only queenslab and Takaken's program count the orbits; the constellations program
    # prints 0 in its unique column, which must not be taken for a count
    assert got.unique == (known_unique(16) if name in ("queenslab", "takaken") else None)
    assert counters.check(got, 16) is None


@pytest.mark.parametrize("name", sorted(set(OUTPUTS) - {"kluev"}))  # Kluev's output names no n
def test_a_parser_refuses_the_count_of_another_board_size(counters, name):
    with pytest.raises(ValueError):
        parser(counters, name)(OUTPUTS[name], 17)


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_a_parser_refuses_output_without_a_count(counters, name):
    with pytest.raises(ValueError):
        parser(counters, name)("Segmentation fault\n", 16)


def test_the_check_names_a_wrong_total_and_a_wrong_unique_count(counters):
    assert "A000170" in counters.check(counters.Parsed(known_total(16) + 1), 16)
    assert "A002562" in counters.check(counters.Parsed(known_total(16), known_unique(16) - 1), 16)


def fake_mqueens(tmp_path, total):
    """An executable that prints m-queens' result line with ``total`` for the n it is given."""
    path = tmp_path / f"fake-{total}"
    path.write_text(f'#!/bin/sh\necho "PASS N $1, Solutions {total}, Expected 0, Time 0.1 sec."\n')
    path.chmod(0o755)
    return path


def test_a_program_printing_a_wrong_count_is_flagged_and_not_timed(counters, tmp_path):
    n = 8
    wrong = fake_mqueens(tmp_path, known_total(n) - 1)
    entry = counters.counter_entry(counters.BY_NAME["m-queens"], None, {"m-queens": str(wrong)})
    why = entry.measure(n, timeout=60)
    assert why.startswith("WRONG COUNT") and str(known_total(n) - 1) in why
    assert n not in entry.cpu
    assert counters.short_reason(why) == "**wrong count**, not timed"

    right = counters.counter_entry(
        counters.BY_NAME["m-queens"], None, {"m-queens": str(fake_mqueens(tmp_path, known_total(n)))}
    )
    assert right.measure(n, timeout=60) is None
    assert len(right.cpu[n]) == len(right.wall[n]) == 1


def test_a_failing_program_is_flagged_with_its_exit_code(counters, tmp_path):
    path = tmp_path / "crash"
    path.write_text("#!/bin/sh\necho 'out of memory' >&2\nexit 3\n")
    path.chmod(0o755)
    entry = counters.counter_entry(counters.BY_NAME["m-queens"], None, {"m-queens": str(path)})
    why = entry.measure(8, timeout=60)
    assert "exited with 3" in why and "out of memory" in why


def test_builds_are_found_by_name_per_n_or_skipped_with_the_reason(counters, tmp_path):
    kluev, mqueens = counters.BY_NAME["kluev"], counters.BY_NAME["m-queens"]
    path, why = counters.locate(kluev, 16, None, {})
    assert path is None and "build_counters.sh" in why
    path, why = counters.locate(kluev, 16, tmp_path, {})
    assert path is None and "kluev-n16" in why
    build = fake_mqueens(tmp_path, 0)
    build.rename(tmp_path / "kluev-n16")
    assert counters.locate(kluev, 16, tmp_path, {})[0] == tmp_path / "kluev-n16"
    assert counters.locate(kluev, 17, tmp_path, {})[0] is None
    assert counters.locate(mqueens, 16, None, {"m-queens": str(tmp_path / "kluev-n{n}")})[0] == tmp_path / "kluev-n16"
    entry = counters.counter_entry(kluev, tmp_path, {})
    assert entry.command(17) is None and "kluev-n17" in entry.why[17]


def test_the_child_cpu_time_is_the_childs(counters):
    run = counters.run_child([sys.executable, "-c", "print(sum(range(10**6)))"])
    assert run.returncode == 0 and run.out.strip() == str(sum(range(10**6)))
    assert run.cpu > 0


def test_the_build_script_skips_a_missing_source_with_the_reason(tmp_path):
    script = BENCH / "ref" / "build_counters.sh"
    done = subprocess.run(
        ["bash", str(script), str(tmp_path / "out"), f"kluev={tmp_path / 'nowhere'}", "nosuch=x"],
        capture_output=True,
        text=True,
        env={**os.environ, "NS": "16"},
    )
    assert done.returncode == 1
    assert "kluev skipped" in done.stderr and "main.cpp" in done.stderr
    assert "nosuch skipped: unknown program" in done.stderr
    assert not any(p.name.startswith("kluev") for p in (tmp_path / "out").iterdir())
    usage = subprocess.run(["bash", str(script)], capture_output=True, text=True)
    assert usage.returncode == 2 and "NAME=SOURCE" in usage.stdout


def test_the_build_script_skips_kluev_without_his_table_of_settings(tmp_path):
    """The per-size settings are applied only to the solcounter.h whose table they come from."""
    src = tmp_path / "kluev"
    src.mkdir()
    (src / "main.cpp").write_text('#include "solcounter.h"\nint main() {}\n')
    (src / "solcounter.h").write_text(
        "inline constexpr int size = 18;\n"
        "inline constexpr Cfg cfg { // s= 16   17   18\n"
        "    .sieveCuts = 0,        //     0    0    1\n"
        "};\n"
    )
    done = subprocess.run(
        ["bash", str(BENCH / "ref" / "build_counters.sh"), str(tmp_path / "out"), f"kluev={src}"],
        capture_output=True,
        text=True,
        env={**os.environ, "NS": "16"},
    )
    assert done.returncode == 1
    assert "kluev skipped" in done.stderr and "table of settings" in done.stderr
    assert "kluev: skipped" in (tmp_path / "out" / "BUILD-INFO").read_text()
    assert not any(p.name.startswith("kluev") for p in (tmp_path / "out").iterdir())


def test_queenslab_is_forced_beyond_its_practical_limit_only(counters):
    from queenslab.native.engine import PRACTICAL_LIMIT

    command = counters.queenslab_entry().command
    assert "--force" not in command(PRACTICAL_LIMIT)
    assert command(PRACTICAL_LIMIT + 1)[-1] == "--force"


def test_threads_go_to_every_program_that_takes_them_and_leave_out_the_others(counters, tmp_path):
    build = fake_mqueens(tmp_path, 0)
    build.rename(tmp_path / "kluev-n20")
    kluev = counters.counter_entry(counters.BY_NAME["kluev"], tmp_path, {}, threads=2)
    assert kluev.command(20) == [str(tmp_path / "kluev-n20"), "2"]
    faf = counters.counter_entry(counters.BY_NAME["nqueensfaf"], None, {}, threads=2)
    assert faf.stdin(20) == "20\n2\n"
    takaken = counters.counter_entry(counters.BY_NAME["takaken"], tmp_path, {}, threads=2)
    assert takaken.command(20) is None and takaken.why[20] == counters.ONE_THREAD
    assert counters.short_reason(takaken.why[20]) == "one thread only"
    assert counters.queenslab_entry(2).command(20)[-4:] == ["--unique", "--threads", "2", "--force"]
