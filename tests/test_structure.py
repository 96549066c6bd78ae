"""Imports go one way: leaves -> analysis -> codegen -> rules -> engine -> front ends.

Every module of the package is parsed with ``ast``; every import statement counts, the ones
inside functions too (a lazy import must not hide an upward edge or a cycle).
"""
from __future__ import annotations

import ast
import pathlib
from typing import Dict, List, Set, Tuple

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "tf_migrate"

# Modules everything may use; they import no other layer.
LEAVES = {"traversal", "tfnames", "positions", "report", "tf_tables", "cst",
          "selfcheck", "call_check"}  # the output self-check reads text only: any layer may use it
# Lowest first: a module may import its own layer and the layers before it, never a later one.
LAYERS = ["leaf", "analysis", "codegen", "rules", "engine", "front"]


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "front"  # tf_migrate/__init__.py
    top = parts[1]
    if top in LEAVES:
        return "leaf"
    if top in ("analysis", "codegen", "rules", "engine"):
        return top
    return "front"  # cli, runner, files, notebook, verify*: the ways in


def package_modules() -> Dict[str, pathlib.Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("tf_migrate",) + path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(module: str, path: pathlib.Path, known: Set[str]) -> List[Tuple[str, int]]:
    """(imported tf_migrate module, line) for every import statement of ``path``, wherever it is."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names if alias.name.split(".")[0] == "tf_migrate"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "tf_migrate":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.append((submodule if submodule in known else target, node.lineno))
    return found


def import_graph() -> Dict[str, List[Tuple[str, int]]]:
    modules = package_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def upward_imports(graph) -> List[str]:
    problems = []
    for module, edges in graph.items():
        rank = LAYERS.index(layer_of(module))
        for target, line in edges:
            if LAYERS.index(layer_of(target)) > rank:
                problems.append(f"{module}:{line} imports {target} ({layer_of(module)} -> {layer_of(target)})")
    return problems


def cycles(graph) -> List[List[str]]:
    """Every strongly connected group of more than one module (or a module importing itself)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    groups: List[List[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _ in graph.get(node, []):
            if target not in graph:
                continue
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or any(t == node for t, _ in graph.get(node, [])):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def test_every_module_is_read():
    graph = import_graph()
    assert {"tf_migrate.engine", "tf_migrate.analysis.program", "tf_migrate.codegen.function_builder",
            "tf_migrate.rules", "tf_migrate.cli"} <= set(graph)


def test_imports_go_one_way():
    assert upward_imports(import_graph()) == []


def test_rule_modules_are_private_to_the_rules():
    """Outside ``rules/`` only the registry (``tf_migrate.rules``: Rule, RuleContext, all_rules) is used."""
    graph = import_graph()
    reaching_in = [f"{module}:{line} imports {target}" for module, edges in graph.items()
                   if not module.startswith("tf_migrate.rules") for target, line in edges
                   if target.startswith("tf_migrate.rules.")]
    assert reaching_in == []


def test_no_import_cycles():
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("source, expected", [
    pytest.param("def f():\n    from tf_migrate.codegen.slicing import plan_run\n",
                 "analysis -> codegen", id="lazy upward import"),
    pytest.param("from tf_migrate.rules.session_to_functions import ScopeBlocked\n",
                 "analysis -> rules", id="module-level upward import"),
])
def test_an_upward_import_is_found(tmp_path, source, expected):
    path = tmp_path / "escapes.py"
    path.write_text(source)
    known = {"tf_migrate.codegen.slicing", "tf_migrate.rules.session_to_functions"}
    graph = {"tf_migrate.analysis.escapes": imports_of("tf_migrate.analysis.escapes", path, known)}
    assert [expected in problem for problem in upward_imports(graph)] == [True]


def test_a_cycle_hidden_by_a_lazy_import_is_found():
    graph = {"tf_migrate.analysis.a": [("tf_migrate.analysis.b", 1)],
             "tf_migrate.analysis.b": [("tf_migrate.analysis.c", 1)],
             "tf_migrate.analysis.c": [("tf_migrate.analysis.a", 9)]}
    assert cycles(graph) == [["tf_migrate.analysis.a", "tf_migrate.analysis.b", "tf_migrate.analysis.c"]]
