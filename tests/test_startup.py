"""Fresh-process start-up: small counts without numba and the import path of light
commands (the first-compile notice: test_cache.py). No timings here: benchmarks/startup.py
measures them."""

import subprocess
import sys

import pytest
from naive import all_solutions, orbit_count

from queenslab import Problem, QueensError, counts
from queenslab.data import known_total, known_unique
from queenslab.native import small


@pytest.mark.parametrize("n", range(1, small.SMALL_N + 1))
def test_small_counts_agree_with_the_engine_and_the_known_values(n):
    from queenslab.native import engine

    r = small.count_small(Problem(n), unique=True)
    assert (r.count, r.unique) == (known_total(n), known_unique(n))
    general = engine.count_both(Problem(n), unique=True, method="general")
    assert (r.count, r.unique) == (general.count, general.unique)


@pytest.mark.parametrize("n", range(1, 9))
def test_small_solutions_are_the_oracles_in_lexicographic_order(n):
    sols, _ = small.solutions_small(n)
    assert sols == sorted(all_solutions(Problem(n)))
    assert sum(1 for p in sols if p == min(small._images(p))) == orbit_count(Problem(n))


def test_the_native_backend_counts_small_standard_boards_in_python_and_the_rest_with_numba():
    assert counts(Problem(8), unique=True).method == "small (plain Python)"
    assert counts(Problem(8), method="symmetric").method.startswith("symmetric")
    assert counts(Problem(12)).method.startswith("symmetric")
    assert counts(Problem(8, toroidal=True)).method.startswith("general")
    with pytest.raises(QueensError):
        small.count_small(Problem(12))
    with pytest.raises(QueensError):
        counts(Problem(8), threads=0)
    seen = []
    counts(Problem(6), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 1)]


def _imported_by(argv: list[str]) -> set[str]:
    code = (
        "import sys\n"
        "from queenslab.cli import run\n"
        f"sys.argv = ['queenslab', *{argv!r}]\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return set(done.stderr.split()[-1000:])


@pytest.mark.parametrize("argv", [["--help"], ["count", "8"], ["count", "--help"], ["show", "2413"]])
def test_light_commands_load_no_compiler_solver_or_plotting(argv):
    loaded = _imported_by(argv)
    assert "queenslab" in loaded
    assert not loaded & {"numba", "ortools", "pysat", "sympy", "matplotlib", "distributed", "scipy"}, loaded
