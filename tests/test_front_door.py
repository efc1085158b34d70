"""The library decides what the command line asks: queenslab.counting answers every
question of ``queenslab count`` with the command's option names, and the command line
imports nothing from the native engine and calls no private name."""

import ast
from pathlib import Path

import pytest
from clirun import run_cli

from queenslab import Problem
from queenslab.counting import check_range, count_range, counts
from queenslab.data import known_total, known_unique
from queenslab.errors import QueensError, TooLarge, UnsupportedProblem

CLI = Path(__file__).resolve().parents[1] / "queenslab" / "cli"


@pytest.mark.parametrize("n", range(4, 11))
def test_classes_add_up_to_the_known_orbits_and_total(n):
    r = counts(Problem(n), unique=True, classes=True)
    assert (r.count, r.unique) == (known_total(n), known_unique(n))
    assert sum(r.classes.values()) == r.unique and sum(k * v for k, v in r.classes.items()) == r.count


def test_a_range_is_the_counts_of_its_sizes_one_by_one():
    rows = list(count_range(lambda k: Problem(k, toroidal=True), 4, 9, unique=True))
    assert [p.n for p, _ in rows] == list(range(4, 10))
    for p, r in rows:
        single = counts(p, unique=True)
        assert (r.count, r.unique) == (single.count, single.unique)


def test_the_questions_a_backend_cannot_answer_are_refused_by_the_library():
    with pytest.raises(UnsupportedProblem, match="native backend"):
        counts(Problem(8), classes=True, backend="cpsat")
    with pytest.raises(UnsupportedProblem, match="cannot be split"):
        counts(Problem(8), ledger="never-made.sqlite", backend="sat")
    with pytest.raises(QueensError, match="ledger"):
        counts(Problem(8), verify=3)
    with pytest.raises(QueensError, match="drop one"):
        counts(Problem(8), classes=True, ledger="never-made.sqlite")
    assert not Path("never-made.sqlite").exists()


def test_a_range_is_refused_up_front_as_its_largest_count_would_be():
    with pytest.raises(TooLarge, match="n <= 18"):
        count_range(Problem, 4, 19)
    with pytest.raises(TooLarge, match="beyond n = 64"):
        check_range(4, 65)
    with pytest.raises(QueensError, match="empty"):
        check_range(9, 4)


def test_the_command_prints_what_the_library_counts(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "count", "4..7", "--unique", "--classes", "--json")
    assert code == 0
    import json

    rows = [json.loads(line) for line in out.splitlines()]
    for row, (_, r) in zip(rows, count_range(Problem, 4, 7, unique=True, classes=True)):
        assert (row["count"], row["unique"]) == (r.count, r.unique)
        assert {int(k): v for k, v in row["classes"].items()} == r.classes


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.append(("." * node.level + (node.module or ""), [a.name for a in node.names]))
    return found


@pytest.mark.parametrize("module", sorted(p.name for p in CLI.glob("*.py")))
def test_command_modules_import_nothing_from_the_engine_and_no_private_name(module):
    """Every command module: the library decides, the command line only speaks."""
    for where, names in _imports(CLI / module):
        assert "native" not in where.split("."), f"{module} imports {where}"
        assert not [n for n in names if n.startswith("_") and not n.startswith("__")], (
            f"{module} imports private {names} from {where}"
        )


def _names_compared(tree: ast.AST) -> set[str]:
    """The string constants a module compares something with (``==``, ``!=``, ``in``),
    including those inside a tuple, list or set literal."""
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in (node.left, *node.comparators):
            items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            found |= {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
    return found


@pytest.mark.parametrize("module", sorted(p.name for p in CLI.glob("*.py")))
def test_command_modules_never_branch_on_a_backend_name(module):
    """What a backend can do is declared by the backend (its options, can_classify,
    can_split, ...): a command that compares with a backend's name decides for it."""
    from queenslab.backends.registry import BACKENDS

    compared = _names_compared(ast.parse((CLI / module).read_text()))
    assert not compared & set(BACKENDS), f"{module} branches on {sorted(compared & set(BACKENDS))}"


def test_the_check_sees_a_branch_on_a_backend_name():
    assert _names_compared(ast.parse("if backend != 'native' or b in ('sat', x): pass")) == {"native", "sat"}


def test_the_command_lines_copies_of_the_heuristics_names_are_the_librarys():
    from queenslab import heuristics
    from queenslab.cli import heuristics as command

    assert command.METHODS == heuristics.METHODS
    assert command._SEEDED == tuple(m for m in heuristics.METHODS if m in heuristics.RANDOMISED)


def test_count_is_the_number_and_counts_the_result_everywhere():
    """One name, one thing: every ``count`` returns the number, every ``counts`` the result."""
    import queenslab
    import queenslab.counting as counting
    from queenslab.backends import get_backend
    from queenslab.result import CountResult

    p = Problem(6)
    numbers = [queenslab.count(p), get_backend("sat").count(p), get_backend("native").count(p)]
    results = [queenslab.counts(p), counting.counts(p), get_backend("sat").counts(p)]
    assert all(type(x) is int and x == 4 for x in numbers)
    assert all(isinstance(r, CountResult) and r.count == 4 for r in results)
    assert not hasattr(counting, "count")
