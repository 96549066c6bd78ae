"""Which calls build an op that updates state or acts outside the graph at each run, and the simple lines of a block.

An update or effect is found by the name of the called method or function (``assign*``, ``scatter_*``,
``minimize``, ``apply_gradients``, a queue's ``enqueue`` / ``dequeue``, ``py_func``, ``Print``...): a user helper
of such a name counts too, which only keeps a file compat where it would not need to be. TF1 ran such an op only
when a run fetched it (or what it fetched depended on it); a run's generated function runs every one it makes.
Read by the checks of runs needing part of a line (:mod:`partial_updates`, :mod:`collection_updates`) and of
functions dropping such an op (:mod:`dangling_updates`).
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.traversal import visit

UPDATE_METHODS = api.VARIABLE_WRITE_METHODS | {"minimize", "apply_gradients"} | api.QUEUE_OP_METHODS \
    | {"dequeue", "dequeue_many", "dequeue_up_to"}  # (a queue's state changes too)
UPDATE_FUNCTION_PREFIXES = ("assign", "scatter_")  # tf.assign, tf.assign_add, tf.scatter_update ...
# The ops of api.PER_RUN_EFFECT_OPS that act outside the graph (a clock read does not), by their last name.
EFFECT_NAMES = {"py_func", "numpy_function", "py_function", "Print", "write_file"}

_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def update_calls(node: cst.CSTNode) -> List[cst.Call]:
    """The calls in ``node`` that build an op updating a variable (an assignment, an optimizer step) or a queue."""
    found = []
    for call in all_calls(node):
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) \
            else ""
        if name in UPDATE_METHODS or name.startswith(UPDATE_FUNCTION_PREFIXES):
            found.append(call)
    return found


def effect_calls(node: cst.CSTNode) -> List[cst.Call]:
    """:func:`update_calls`, and the calls building an op that acts outside the graph at each run (``tf.py_func``,
    ``tf.Print``, ``tf.print``)."""
    found = update_calls(node)
    for call in all_calls(node):
        func = call.func
        if isinstance(func, cst.Attribute) and (func.attr.value in EFFECT_NAMES or func.attr.value == "print") \
                or isinstance(func, cst.Name) and func.value in EFFECT_NAMES:
            found.append(call)
    return found


def several_updates(node: cst.CSTNode, updates: List[cst.Call]) -> bool:
    """Whether ``node`` builds more than one update op (two calls, or one in a comprehension or loop)."""
    if len(updates) > 1:
        return True
    inside = set()

    class _Repeated(cst.CSTVisitor):
        def on_visit(self, visited: cst.CSTNode) -> bool:
            if isinstance(visited, _COMPREHENSIONS + (cst.For, cst.While)):
                inside.update(id(call) for call in all_calls(visited))
                return False
            return True

    visit(node, _Repeated())
    return any(id(call) in inside for call in updates)


def inner_lines(node: cst.CSTNode) -> List[cst.SimpleStatementLine]:
    """The simple lines inside a block, not those of functions, classes or lambdas defined there."""
    found: List[cst.SimpleStatementLine] = []

    class _Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, line: cst.SimpleStatementLine) -> bool:
            found.append(line)
            return False

        def visit_FunctionDef(self, definition: cst.FunctionDef) -> bool:
            return False

        visit_ClassDef = visit_Lambda = visit_FunctionDef

    visit(node, _Lines())
    return found
