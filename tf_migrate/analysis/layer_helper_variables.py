"""The variables a layer helper makes at each call, for a list keyed by TF1 names (a Saver's).

    def add_layer(inputs, in_size, out_size):
        Weights = tf.Variable(tf.random_normal([in_size, out_size]))
        biases = tf.Variable(tf.zeros([out_size]) + 0.1)
        return tf.matmul(inputs, Weights) + biases

    l1 = add_layer(x, 784, 500)          # TF1 made "Variable", "Variable_1"
    y = add_layer(l1, 500, 10)           # and "Variable_2", "Variable_3"
    saver = tf.train.Saver()

Each call makes the helper's variables in the order its body makes them, named as the caller would have named
them (the caller's scopes, the literal ``name=`` else ``"Variable"``, made unique in creation order). The
``helper-modules`` rule makes the helper a ``tf.Module`` class, one instance per call, which keeps each variable as
an attribute named after its local: until then a variable is written as a marker naming the helper, the call's
number among the helper's calls (in the order Python makes them) and the local,
``tf1_helper_variable("add_layer", 2, "Weights")``, which that rule resolves to ``add_layer_2.Weights``.

Only helpers whose body makes its variables in lines of their own, directly in the body (not in a loop, a branch or
a ``with`` block), each bound to a plain local (``W = tf.Variable(...)`` or ``W = weight_variable(shape)`` of a
one-variable helper), with no name or variable scope and no ``get_variable``, and that call no other function of the
module that makes variables.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.tfnames import TFNames

MARKER = "tf1_helper_variable"
_SCOPES = {"tf.name_scope", "tf.variable_scope"}


@dataclass
class HelperVariable:
    local: str  # the helper's local that holds it (the tf.Module attribute it becomes)
    constructor: cst.Call  # the tf.Variable call that makes it (in the helper, or in the one-variable helper it calls)


def layer_helpers(statements, names: TFNames, variable_helpers: Dict[str, cst.Call]) -> Dict[str, List[HelperVariable]]:
    """Functions of the block that make several variables as described above: name -> their variables, in order.
    ``variable_helpers``: the block's one-variable helpers (``def weight_variable(shape)``), by name -> constructor."""
    functions = {node.name.value: node for node in statements if isinstance(node, cst.FunctionDef)}
    found: Dict[str, List[HelperVariable]] = {}
    for name, node in functions.items():
        if name in variable_helpers or node.decorators:
            continue
        made = _variables(node, names, variable_helpers, set(functions) - {name})
        if made:
            found[name] = made
    return found


def _variables(func: cst.FunctionDef, names: TFNames, variable_helpers: Dict[str, cst.Call],
               functions) -> Optional[List[HelperVariable]]:
    calls = all_calls(func)
    qualnames = [names.call_name(call) for call in calls]
    if any(q in _SCOPES or q == "tf.get_variable" for q in qualnames):
        return None
    if any(isinstance(call.func, cst.Name) and call.func.value in functions - set(variable_helpers) for call in calls):
        return None  # another function of the module, which may make variables too
    made: List[HelperVariable] = []
    counted = 0
    for line in func.body.body:
        if isinstance(line, cst.FunctionDef):
            return None
        inner = [call for call in all_calls(line) if _makes(call, names, variable_helpers)]
        if not inner:
            continue
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
                and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1
                and isinstance(line.body[0].targets[0].target, cst.Name) and len(inner) == 1
                and line.body[0].value is inner[0]):
            return None
        call = inner[0]
        constructor = call if names.call_name(call) == "tf.Variable" else variable_helpers[call.func.value]
        made.append(HelperVariable(line.body[0].targets[0].target.value, constructor))
        counted += 1
    total = sum(1 for call in calls if _makes(call, names, variable_helpers))
    return made if made and counted == total else None


def _makes(call: cst.Call, names: TFNames, variable_helpers: Dict[str, cst.Call]) -> bool:
    return names.call_name(call) == "tf.Variable" or (isinstance(call.func, cst.Name)
                                                      and call.func.value in variable_helpers)


def helper_marker(helper: str, number: int, local: str) -> str:
    """The text of the marker of the variable ``local`` of the ``number``-th call of ``helper``."""
    return f"{MARKER}({helper!r}, {number}, {local!r})"
