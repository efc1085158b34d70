"""Fresh-process start-up: small counts without numba and the import path of light
commands (the first-compile notice: test_cache.py). No timings here: benchmarks/startup.py
measures them."""

import subprocess
import sys

import pytest
from fresh import python_output
from naive import all_solutions, orbit_count

from queenslab import Problem, QueensError, counts
from queenslab.data import known_total, known_unique
from queenslab.native import aot, small


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


_python = python_output


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


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["count", "8"],
        ["count", "--help"],
        ["show", "2413"],
        ["check", "2", "4", "1", "3"],
        ["check", "2413", "--json"],
        ["experiment", "--help"],
        ["limits"],
        ["limits", "--json"],
    ],
)
def test_light_commands_load_no_compiler_solver_or_plotting(argv):
    loaded = _imported_by(argv)
    assert "queenslab" in loaded
    assert not loaded & {"numba", "ortools", "pysat", "sympy", "matplotlib", "distributed", "scipy"}, loaded


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "2", "4", "1", "3"],
        ["check", "1", "2", "--json"],
        ["check", "--help"],
        ["--help"],
        ["--version"],
        ["rank", "10", "2 8 10 4 1 5 9 6 3 7"],
        ["unrank", "10", "100", "--json"],
    ],
)
def test_check_loads_neither_numpy_nor_the_backends(argv):
    loaded = _imported_by(argv)
    assert "queenslab" in loaded and "click" in loaded
    assert not loaded & {"numpy", "numba", "ortools", "pysat", "PIL", "tomllib", "importlib_metadata"}, loaded


def test_exporting_a_model_loads_its_builder_and_not_the_compiler():
    loaded = _imported_by(["export", "cnf", "6"])
    assert "pysat" in loaded  # the CNF's cardinality encodings are pysat's
    assert not loaded & {"numba", "ortools", "matplotlib", "distributed", "scipy"}, loaded


@pytest.mark.parametrize("fmt", ["minizinc", "opb"])
def test_a_text_export_loads_no_solver(fmt):
    loaded = _imported_by(["export", fmt, "6", "--symmetry", "lex-leader"])
    assert not loaded & {"numba", "ortools", "pysat", "pycsp3", "highspy", "scipy"}, loaded


def test_importing_the_package_or_building_a_problem_loads_nothing_heavy():
    code = (
        "import sys\n"
        "import queenslab\n"
        "from queenslab import Problem, QueensError\n"
        "p = Problem(8, toroidal=True, blocked=[(0, 0)])\n"
        "assert p.symmetries() is not None\n"
        "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)))\n"
    )
    loaded = set(_python(code).split())
    assert not loaded & {"numpy", "numba", "importlib_metadata", "click", "rich"}, loaded


def test_the_kernels_load_without_scipy():
    """numba's array library asks for scipy's BLAS when it loads; the kernels use none,
    so counting with numba (compiling or from the cache) leaves scipy's linear algebra
    unloaded."""
    code = (
        "import sys\n"
        "from queenslab import Problem, counts\n"
        "r = counts(Problem(12), method='symmetric', threads=1)\n"
        "print(r.count, 'scipy.linalg' in sys.modules)\n"
    )
    assert _python(code).split() == [str(known_total(12)), "False"]


#: The join's kernels from numba's cache, not those built ahead of time (tests/test_aot.py).
JUST_IN_TIME = {aot.ENV: "0"}

_CACHED_COUNT = (
    "import sys\n"
    "from queenslab import Problem, counts\n"
    "from queenslab.native import jit\n"
    "r = counts(Problem(16), unique=True, threads=1)\n"
    "print(r.method, r.count, r.unique, jit.LIGHT_CACHE_LOADS, 'numba.np.arraymath' in sys.modules)\n"
)


def test_a_count_from_the_cache_loads_no_numba_registry():
    """Loading cached kernels skips numba's registry refresh (its array library, typed
    containers, ...): a fresh process counting n = 16 from a warm cache never loads the
    array library, and counts right."""
    from queenslab.native import jit

    if not jit.LIGHT_CACHE_LOADS:
        pytest.skip(f"numba {jit.numba.__version__} loads cached kernels as it does (tested: {jit.NUMBA_TESTED})")
    _python(_CACHED_COUNT, **JUST_IN_TIME)  # compiles the join's kernels if the cache is cold
    method, total, unique, light, array_library = _python(_CACHED_COUNT, **JUST_IN_TIME).split()
    assert (int(total), int(unique)) == (known_total(16), known_unique(16))
    assert method == "join" and light == "True" and array_library == "False"


def test_a_count_from_the_cache_imports_neither_scipy_nor_yaml_nor_the_extensions():
    """numba, loaded for queenslab's kernels, skips scipy (a version check) and PyYAML
    (no configuration file here), and a cache hit does not initialise numba's extensions
    (it reads every distribution's entry points)."""
    from queenslab.native import jit

    if not jit.LIGHT_CACHE_LOADS:
        pytest.skip(f"numba {jit.numba.__version__} loads cached kernels as it does (tested: {jit.NUMBA_TESTED})")
    code = _CACHED_COUNT + (
        "from numba.core import entrypoints\n"
        "print('scipy' in sys.modules, 'yaml' in sys.modules, entrypoints._already_initialized)\n"
    )
    _python(code, **JUST_IN_TIME)  # compiles the join's kernels if the cache is cold
    assert _python(code, **JUST_IN_TIME).splitlines()[-1].split() == ["False", "False", "False"]


def test_numba_still_reads_its_configuration_file(tmp_path):
    """With PyYAML installed, a ``.numba_config.yaml`` is read as numba reads it: in the
    working directory at import, and in one changed to later (numba reads the file again
    before each compile), with PyYAML imported only then."""
    pytest.importorskip("yaml")
    here, there = tmp_path / "with", tmp_path / "without"
    here.mkdir()
    there.mkdir()
    (here / ".numba_config.yaml").write_text("boundscheck: 1\n", encoding="utf-8")
    code = (
        "import os, sys, warnings\n"
        "warnings.simplefilter('error')\n"
        f"os.chdir({str(there)!r})\n"
        "import queenslab.native.jit\n"
        "from numba.core import config\n"
        "before = (config.BOUNDSCHECK, 'yaml' in sys.modules)\n"
        f"os.chdir({str(here)!r})\n"
        "config.reload_config()\n"
        "print(*before, config.BOUNDSCHECK, 'yaml' in sys.modules)\n"
    )
    assert _python(code).split() == ["None", "False", "1", "True"]
    at_import = (
        f"import os\nos.chdir({str(here)!r})\n"
        "import warnings\nwarnings.simplefilter('error')\n"
        "import queenslab.native.jit\nfrom numba.core import config\nprint(config.BOUNDSCHECK)\n"
    )
    assert _python(at_import).split() == ["1"]


def test_a_kernel_missing_from_the_cache_initialises_the_extensions_before_it_compiles(tmp_path):
    """On a cache miss numba compiles, and its extensions are initialised first, as numba
    does; the next process finds the kernel cached and initialises nothing."""
    from queenslab.native import jit

    if not jit.LIGHT_CACHE_LOADS:
        pytest.skip(f"numba {jit.numba.__version__} loads cached kernels as it does (tested: {jit.NUMBA_TESTED})")
    code = (
        "import os\n"
        f"os.environ['NUMBA_CACHE_DIR'] = {str(tmp_path)!r}\n"
        "from queenslab.native import join_kernels as JK\n"
        "from numba.core import entrypoints\n"
        "print(JK._reverse(0b0011, 4), entrypoints._already_initialized)\n"
    )
    assert _python(code).split() == [str(0b1100), "True"]  # compiled
    assert _python(code).split() == [str(0b1100), "False"]  # from the cache


def test_numba_compiles_after_kernels_loaded_from_the_cache():
    """A function compiled after cached kernels loaded gets numba's whole registries
    (its compiler refreshes them): array functions, typed lists, and scipy's BLAS."""
    pytest.importorskip("scipy")
    code = _CACHED_COUNT + (
        "import numpy as np\n"
        "from numba import njit, typed\n"
        "f = njit(lambda a, b: np.dot(a, b) + np.sort(a)[0] + len(typed.List([1, 2])))\n"
        "print(f(np.ones(3), np.arange(3.0)), 'scipy.linalg' in sys.modules)\n"
    )
    _python(code)
    last = _python(code).splitlines()[-1].split()
    assert (float(last[0]), last[1]) == (3.0 + 1.0 + 2, "True")


def test_numba_linear_algebra_still_finds_scipy_after_the_kernels_load():
    pytest.importorskip("scipy")
    code = (
        "import numpy as np\n"
        "from numba import njit\n"
        "import queenslab.native.jit\n"
        "f = njit(lambda a, b: np.dot(a, b))\n"
        "print(f(np.ones(3), np.arange(3.0)))\n"
    )
    assert float(_python(code)) == 3.0


def test_the_limits_read_from_the_source_are_those_the_modules_declare():
    """``limits`` reads constant declarations from the source instead of importing their
    modules: in a fresh process, what it lists must be exactly what importing every module
    declares, value for value (a declaration it misread or missed would show here)."""
    code = (
        "import importlib, pkgutil, sys\n"
        "import queenslab\n"
        "from queenslab import limits\n"
        "read = limits.every_limit()\n"
        "assert 'numba' not in sys.modules\n"
        "for info in pkgutil.walk_packages(queenslab.__path__, 'queenslab.'):\n"
        "    if info.name.startswith(('queenslab.cli', 'queenslab.__main__')) or info.name.endswith('.TEMPLATE'):\n"
        "        continue\n"
        "    try:\n"
        "        importlib.import_module(info.name)\n"
        "    except ImportError:\n"
        "        pass\n"
        "print(len(read), read == list(limits.DECLARED.values()) or sorted(map(repr, read)) == sorted(map(repr, limits.DECLARED.values())))\n"
    )
    count, same = _python(code).split()
    assert int(count) >= 25 and same == "True"
