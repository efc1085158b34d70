"""The package's structure: no import circle, no module using another module's private
name, and the two registries that carry growth read by everything that grows with them.

The import graph is read from the source (every ``import`` and ``from ... import``,
inside functions too); a package's ``__init__`` is its face and is left out of the
circles, as it only hands names on.
"""

from __future__ import annotations

import ast
import pathlib

import queenslab

ROOT = pathlib.Path(queenslab.__file__).parent


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        parts = ["queenslab", *f.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


MODULES = _modules()
FACES = {m for m, f in MODULES.items() if f.name == "__init__.py"}


def _target(module: str, node: ast.ImportFrom) -> str | None:
    if node.level == 0:
        return node.module
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _read() -> tuple[dict[str, set[str]], list[tuple[str, str, int]]]:
    """The import graph between modules, and each use of another module's private name."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    private = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _target(module, node)
                if not target or not target.startswith("queenslab"):
                    continue
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    if full in MODULES:
                        graph[module].add(full)
                        aliases[alias.asname or alias.name] = full
                        continue
                    graph[module].add(target)
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        private.append((module, full, node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("queenslab"):
                        graph[module].add(alias.name)
                        aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and aliases[node.value.id] != module
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                private.append((module, f"{aliases[node.value.id]}.{node.attr}", node.lineno))
    return graph, private


GRAPH, PRIVATE = _read()


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_reader_sees_the_imports():
    """The graph is not empty by mistake: known arrows are there."""
    assert "queenslab.constraints.base" in GRAPH["queenslab.constraints.region"]
    assert "queenslab.native.methods" in GRAPH["queenslab.native.engine"]
    assert "queenslab.native.walker" in GRAPH["queenslab.native.methods"]


def test_no_import_circle():
    modules = {m: {w for w in targets if w in MODULES and w not in FACES} for m, targets in GRAPH.items()}
    assert _circles(modules) == []


def test_no_module_uses_another_modules_private_name():
    assert PRIVATE == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_counting_method_is_read_by_warm_up_cost_ledger_and_runner():
    from queenslab import cost, warm
    from queenslab.distributed import ledger, runner
    from queenslab.native import engine
    from queenslab.native.methods import REGISTRY

    names = tuple(REGISTRY)
    assert tuple(warm.SETS) == names
    assert ledger.METHODS == (*names, *ledger.RECOUNT_METHODS)  # and a solver's recount of the native split
    assert runner.SPLIT_METHODS == ("auto", *names)
    assert engine.METHODS == ("auto", *names) and engine.SPLIT_METHODS == names
    assert set(cost.METHOD_NAMES) == set(cost.MODELS) == set(names)
