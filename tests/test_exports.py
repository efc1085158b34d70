"""The MiniZinc, XCSP3, OPB, LP and MPS exports, each read back by a reader that is not
queenslab's and counted, against the native engine's count.

* MiniZinc: no MiniZinc binary is installed here, so the text is parsed by a reader of
  the subset the export writes (sums of cell variables with a bound, ``lex_greatereq``)
  and every placement with at most one queen per row is tried against it (numpy); a
  statement the reader does not know fails the test.
* XCSP3: the ACE and Choco solvers shipped with pycsp3 enumerate it (Java; skipped with
  the reason where there is none).
* OPB: parsed into HiGHS, LP and MPS read by HiGHS itself; HiGHS then finds every solution
  projected on the cell variables by adding a no-good cut after each.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from queenslab import Problem, Region, count
from queenslab.errors import QueensError
from queenslab.models.export import EXPORTS, export
from queenslab.models.linear import linear_model

PROBLEMS = {
    "6-queens": Problem(6),
    "torus 5": Problem(5, toroidal=True),
    "blocked": Problem(6, blocked=((0, 1), (2, 2))),
    "fixed": Problem(6, fixed=((0, 1),)),
    "4x5, 3 queens": Problem(4, columns=5, queens=3),
    "5x4, 4 queens": Problem(5, columns=4, queens=4),
    "region": Problem(5, regions=(Region([(0, 0), (1, 1), (2, 2), (0, 4)], at_least=1),)),
    "leaper": Problem(5, leapers=((1, 3),), toroidal=True),
}
SYMMETRIES = ("none", "lex-leader")


def needs(module: str, extra: str) -> None:
    """Skip without ``module`` (never imported here: pycsp3 reads the command line when imported)."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (queenslab[{extra}])")


def native(problem: Problem, symmetry: str) -> int:
    return count(problem, unique=symmetry == "lex-leader", backend="native")


# --- MiniZinc: a reader of the subset written, and brute force over the placements ---

_CELL = re.compile(r"x\[(\d+),(\d+)\]")


def minizinc_counts(text: str, problem: Problem) -> int:
    """The solutions of the MiniZinc text among all placements of at most one queen per row."""
    n, m = problem.n, problem.columns
    rows_checked = set()
    sums: list[tuple[list[int], int, int]] = []
    lex: list[tuple[list[int], list[int]]] = []
    for line in text.splitlines():
        line = line.split("%", 1)[0].strip()
        if not line or line.startswith(("include ", "int: ", "array[1..rows, 1..columns] of var 0..1: x;")):
            continue
        if line in ("solve satisfy;",) or line.startswith("output "):
            continue
        if match := re.fullmatch(r"constraint lex_greatereq\(\[(.*)\], \[(.*)\]\);", line):
            left, right = ([(int(r) - 1) * m + int(c) - 1 for r, c in _CELL.findall(side)] for side in match.groups())
            assert len(left) == len(right)
            lex.append((left, right))
            continue
        match = re.fullmatch(r"constraint (.*?) (=|<=|in) (\d+)(?:\.\.(\d+))?;", line)
        assert match, f"a statement outside the subset: {line!r}"
        terms, op, a, b = match.groups()
        cells = [(int(r) - 1, int(c) - 1) for r, c in _CELL.findall(terms)]
        assert terms == " + ".join(f"x[{r + 1},{c + 1}]" for r, c in cells)
        lo, hi = {"=": (int(a), int(a)), "<=": (0, int(a)), "in": (int(a), int(b or a))}[op]
        if len({r for r, _ in cells}) == 1 and len(cells) == m and hi == 1:
            rows_checked.add(cells[0][0])
        sums.append(([r * m + c for r, c in cells], lo, hi))
    # the brute force tries at most one queen per row: the model must say so itself
    assert rows_checked == set(range(n))
    placements = np.array(list(itertools.product(range(-1, m), repeat=n)))  # -1: an empty row
    x = np.zeros((len(placements), n * m), dtype=np.int8)
    for r in range(n):
        hit = placements[:, r] >= 0
        x[np.nonzero(hit)[0], r * m + placements[hit, r]] = 1
    ok = np.ones(len(x), dtype=bool)
    for cells, lo, hi in sums:
        total = x[:, cells].sum(axis=1)
        ok &= (lo <= total) & (total <= hi)
    for left, right in lex:
        diff = x[:, left] - x[:, right]
        first = np.argmax(diff != 0, axis=1)
        ok &= diff[np.arange(len(x)), first] >= 0  # equal vectors give 0 at position 0
    return int(ok.sum())


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("name", list(PROBLEMS))
def test_minizinc_read_back_counts_as_native(name, symmetry):
    problem = PROBLEMS[name]
    text = export(problem, "minizinc", symmetry=symmetry).text
    assert minizinc_counts(text, problem) == native(problem, symmetry)


def test_minizinc_reader_fails_on_a_broken_model():
    """The reader above is a real check: a model with one diagonal dropped counts more."""
    problem = Problem(6)
    text = export(problem, "minizinc").text
    broken = "\n".join(line for line in text.splitlines() if "% diagonal (1,1)-(6,6)" not in line)
    assert broken != text
    assert minizinc_counts(broken, problem) > native(problem, "none")


# --- XCSP3: ACE and Choco, the solvers pycsp3 ships ---


def _jar(name: str) -> Path:
    needs("pycsp3", "xcsp3")
    if shutil.which("java") is None:
        pytest.skip("no Java: ACE and Choco are Java programs")
    folder = next(iter(importlib.util.find_spec("pycsp3").submodule_search_locations))  # never imported here
    jars = sorted(Path(folder, "solvers").rglob(f"{name}*.jar"))
    if not jars:
        pytest.skip(f"pycsp3 ships no {name} jar here")
    return jars[-1]


def ace_count(path: Path) -> int:
    out = subprocess.run(
        ["java", "-jar", str(_jar("ACE")), str(path), "-s=all", "-v=-1"], capture_output=True, text=True, timeout=120
    ).stdout
    out = re.sub(r"\x1b\[[0-9;]*m", "", out)
    if re.search(r"^s UNSATISFIABLE", out, re.M):
        return 0
    found = re.search(r"d FOUND SOLUTIONS\s+([\d,]+)", out)
    assert found, out[-2000:]
    assert "d COMPLETE EXPLORATION" in out
    return int(found.group(1).replace(",", ""))


def choco_count(path: Path) -> int:
    """Choco with every solution asked (``-a``) and no limit: its process ends when the
    search is complete."""
    run = subprocess.run(
        ["java", "-jar", str(_jar("choco")), str(path), "-a", "-f"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    if re.search(r"^s UNSATISFIABLE", run.stdout, re.M):
        return 0
    found = re.search(r"^d FOUND SOLUTIONS (\d+)", run.stdout, re.M)
    assert found, run.stdout[-2000:]
    return int(found.group(1))


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("name", ["6-queens", "torus 5", "4x5, 3 queens", "region"])
def test_xcsp3_counted_by_ace_as_native(tmp_path, name, symmetry):
    problem = PROBLEMS[name]
    _jar("ACE")
    path = tmp_path / "model.xml"
    path.write_text(export(problem, "xcsp3", symmetry=symmetry).text)
    assert ace_count(path) == native(problem, symmetry)


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_xcsp3_counted_by_choco_as_native(tmp_path, symmetry):
    problem = Problem(7, knight=False, blocked=((0, 0),))
    _jar("choco")
    path = tmp_path / "model.xml"
    path.write_text(export(problem, "xcsp3", symmetry=symmetry).text)
    assert choco_count(path) == native(problem, symmetry)


def test_xcsp3_export_never_imports_pycsp3_here():
    """pycsp3 changes the built-in types of the process that imports it (every set
    membership test slowed): the export runs it in a child process."""
    needs("pycsp3", "xcsp3")
    code = (
        "import sys\n"
        "from queenslab import Problem\n"
        "from queenslab.models.xcsp3 import to_xcsp3\n"
        "text = to_xcsp3(Problem(5), symmetry='lex-leader')\n"
        "print('pycsp3' in sys.modules, 'lex' in text)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout == "False True\n", run.stderr


def test_xcsp3_export_leaves_no_file_behind(tmp_path, monkeypatch):
    """pycsp3 compiles its model at exit in a script: the writer marks it compiled."""
    needs("pycsp3", "xcsp3")
    script = tmp_path / "script.py"
    script.write_text(
        "import sys\n"
        "from queenslab import Problem\n"
        "from queenslab.models.xcsp3 import to_xcsp3\n"
        "text = to_xcsp3(Problem(4))\n"
        "print(len(text) > 0)\n"
    )
    run = subprocess.run(
        [sys.executable, str(script), "-data=9"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["script.py"]


# --- OPB, LP and MPS: HiGHS finds every solution ---


def _highs():
    needs("highspy", "mip")
    from queenslab.models.lp import highs

    return highs()


def read_opb(h, text: str) -> None:
    """An OPB text (``>=`` and ``=`` rows of ``+1 xK`` / ``-1 xK`` terms) into HiGHS."""
    header = re.match(r"\* #variable= (\d+) #constraint= (\d+)", text)
    assert header
    variables, constraints = map(int, header.groups())
    h.addVars(variables, np.zeros(variables), np.ones(variables))
    h.changeColsIntegrality(variables, np.arange(variables, dtype=np.int32), np.ones(variables, dtype=np.uint8))
    rows = 0
    for line in text.splitlines():
        if line.startswith("*") or not line.strip():
            continue
        match = re.fullmatch(r"((?:[+-]\d+ x\d+ ?)+)(>=|=) (-?\d+) ;", line)
        assert match, f"not an OPB constraint: {line!r}"
        terms = re.findall(r"([+-]\d+) x(\d+)", match.group(1))
        idx = np.array([int(v) - 1 for _, v in terms], dtype=np.int32)
        coef = np.array([float(a) for a, _ in terms])
        rhs = float(match.group(3))
        h.addRow(rhs, rhs if match.group(2) == "=" else float("inf"), len(idx), idx, coef)
        rows += 1
    assert rows == constraints


def highs_counts(h, cells: int, limit: int = 2000) -> int:
    """Every solution of the HiGHS model ``h`` projected on its first ``cells`` columns."""
    found = 0
    idx = np.arange(cells, dtype=np.int32)
    while True:
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        if status == "Infeasible":
            return found
        assert status == "Optimal", status
        x = np.round(np.array(h.getSolution().col_value[:cells])).astype(int)
        found += 1
        assert found <= limit
        # no-good: at least one cell variable differs from this solution
        coef = np.where(x == 1, -1.0, 1.0)
        h.addRow(1.0 - x.sum(), float("inf"), cells, idx, coef)


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("name", list(PROBLEMS))
def test_opb_counted_by_highs_as_native(name, symmetry):
    problem = PROBLEMS[name]
    h = _highs()
    read_opb(h, export(problem, "opb", symmetry=symmetry).text)
    assert highs_counts(h, problem.n * problem.columns) == native(problem, symmetry)


@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("name", ["6-queens", "torus 5", "fixed", "4x5, 3 queens", "leaper"])
def test_lp_and_mps_read_by_highs_count_as_native(tmp_path, name, symmetry, fmt):
    problem = PROBLEMS[name]
    h = _highs()
    path = tmp_path / f"model.{fmt}"
    path.write_text(export(problem, fmt, symmetry=symmetry).text)
    assert h.readModel(str(path)) == __import__("highspy").HighsStatus.kOk
    cells = problem.n * problem.columns
    names = [h.getColName(i)[1] for i in range(cells)]
    assert names == [f"x_{r + 1}_{c + 1}" for r in range(problem.n) for c in range(problem.columns)]
    assert highs_counts(h, cells) == native(problem, symmetry)


def test_every_format_keeps_the_cell_order_and_refuses_the_other_settings():
    for fmt in ("minizinc", "opb", "lp", "mps", "xcsp3"):
        with pytest.raises(QueensError, match=f"encoding is not an option of the {fmt} model; the {fmt} model takes"):
            export(Problem(4), fmt, encoding="totalizer")
    assert set(EXPORTS) >= {"cnf", "cpsat", "minizinc", "xcsp3", "opb", "lp", "mps"}


def test_linear_model_has_one_lex_pair_per_breaking_element():
    problem = Problem(6, blocked=((0, 0),))  # the blocked corner leaves the main-diagonal reflection
    m = linear_model(problem, "lex-leader")
    assert [p.element for p in m.lex] == [g.name for g in problem.symmetries()[1:]]
    assert linear_model(Problem(1), "lex-leader").lex == ()  # every element fixes the one cell
    assert all(len(p.left) == len(p.right) > 0 for p in m.lex)
    assert linear_model(problem).lex == () and linear_model(problem).lex_clauses == ()


# --- the command line ---


def test_cli_writes_each_format_to_a_file_and_as_json(capsys, tmp_path):
    from queenslab.cli import main

    for fmt in ("minizinc", "opb", "lp", "mps", "xcsp3"):
        if fmt == "xcsp3":
            needs("pycsp3", "xcsp3")
        out = tmp_path / f"q.{fmt}"
        assert main(["export", fmt, "5", "--toroidal", "--symmetry", "lex-leader", "--out", str(out)]) == 0
        assert "5-queens, toroidal" in out.read_text()
        assert main(["export", fmt, "5", "--toroidal", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["model"] == fmt and data["encoding"] is None and data["variables"] is None
        assert data["text"] == export(Problem(5, toroidal=True), fmt).text


@pytest.mark.parametrize(("fmt", "module", "extra"), [("xcsp3", "pycsp3", "xcsp3"), ("lp", "highspy", "mip")])
def test_a_missing_writer_names_the_extra(monkeypatch, capsys, fmt, module, extra):
    from queenslab.cli import main

    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    assert main(["export", fmt, "4"]) == 2
    assert f'pip install "queenslab[{extra}]"' in capsys.readouterr().err
