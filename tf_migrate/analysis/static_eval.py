"""Python tests the program text decides, evaluated without running the program.

A rule that knows every value a test can read (``tf.__version__`` for each release, the TF1 name of each
variable) parses the test, checks it against the nodes and names it allows, and evaluates it with those
values and no builtins. Anything else (another name, a call it does not allow, an exception) is
"not decided": the rule leaves the code as it is.
"""
from __future__ import annotations

import ast
from typing import Callable, Collection, Dict, Optional

import libcst as cst

from tf_migrate.cst.text import code


def parse_test(test: cst.BaseExpression, allowed: Callable[[ast.AST], bool]) -> Optional[ast.Expression]:
    """``test`` as a Python expression when ``allowed`` accepts each of its nodes (None: it does not)."""
    try:
        tree = ast.parse(code(test).strip(), mode="eval")
    except SyntaxError:
        return None
    return tree if all(allowed(node) for node in ast.walk(tree)) else None


def evaluate(tree: ast.Expression, values: Dict[str, object]) -> Optional[bool]:
    """The truth of ``tree`` with only ``values`` in scope (None: it raised)."""
    try:
        return bool(eval(compile(tree, "<static test>", "eval"), {"__builtins__": {}}, dict(values)))
    except Exception:  # noqa: BLE001 - a test that fails on these values is not decided by them
        return None


def value_of(tree: ast.Expression, values: Dict[str, object]) -> Optional[object]:
    """The value of ``tree`` with only ``values`` in scope (None: it raised)."""
    try:
        return eval(compile(tree, "<static value>", "eval"), {"__builtins__": {}}, dict(values))
    except Exception:  # noqa: BLE001 - an expression that fails on these values has no value here
        return None


class Named:
    """A stand-in for a variable whose only attribute a test reads is its TF1 ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name


def name_expression(expression: cst.BaseExpression, variables: Collection[str], nodes: tuple,
                    methods: Collection[str]) -> Optional[ast.Expression]:
    """``expression`` as Python when it reads only ``v.name`` of the ``variables`` (evaluated on :class:`Named`
    values), through the ``nodes`` and string ``methods`` a rule allows (None: it reads more)."""
    def allowed(node: ast.AST) -> bool:
        if not isinstance(node, nodes) or isinstance(node, ast.Name) and node.id not in variables:
            return False
        if isinstance(node, ast.Attribute):
            return node.attr == "name" if isinstance(node.value, ast.Name) else node.attr in methods
        return not isinstance(node, ast.Call) or (isinstance(node.func, ast.Attribute) and node.func.attr in methods)

    return parse_test(expression, allowed)
