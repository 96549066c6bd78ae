"""Variable scopes that give the variables made by name in them defaults: an initializer, a regularizer, a dtype.

    with tf.variable_scope("layer", initializer=tf.constant_initializer(0.5)):
        w = tf.get_variable("w", [2, 2])         # TF1: 0.5 everywhere (the scope's initializer)
        h = tf.layers.dense(x, 2)                # TF1: its kernel too (a layer asks the store with no initializer)

TF1's variable store gave a ``tf.get_variable`` (and the layers, rnn cells and contrib layers that call it) without an
initializer, regularizer, partitioner, custom getter, dtype or constraint of its own the ones of the scopes around it,
also around the call of a function that makes them. The eager rewrite makes those variables with TF1's plain defaults
(Glorot-uniform kernels, no regularization loss): other numbers, with no sign of it (``--verify``: the initial values
differ). Such a scope, where its block makes variables by name, keeps the file compat, with the reason at the scope;
so does setting them on a scope (``tf.get_variable_scope().set_initializer(...)``). ``tf.Variable`` ignored them.
"""
from __future__ import annotations

from typing import List, Set, Tuple

import libcst as cst

from tf_migrate.analysis.reused_scopes import makes_by_name, variable_makers
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# variable_scope's parameters that set defaults of the variables made in it, with their positions.
_DEFAULTS = (("initializer", 3), ("regularizer", 4), ("partitioner", 6), ("custom_getter", 7), ("dtype", 9),
             ("constraint", 11))
_SETTERS = {"set_initializer", "set_regularizer", "set_partitioner", "set_custom_getter", "set_dtype"}


def scope_default_blockers(module: cst.Module, names: TFNames) -> List[Tuple[cst.CSTNode, str]]:
    """(node, why) for each variable scope that gives defaults to variables its block makes by name, and each
    setting of such a default on a scope."""
    finder = _ScopeDefaults(names, variable_makers(module, names))
    visit(module, finder)
    return finder.found


def _given_defaults(call: cst.Call) -> List[str]:
    given = []
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    for name, position in _DEFAULTS:
        value = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)
        if value is None and position < len(positional):
            value = positional[position].value
        if value is not None and not (isinstance(value, cst.Name) and value.value == "None"):
            given.append(name)
    return given


class _ScopeDefaults(cst.CSTVisitor):
    def __init__(self, names: TFNames, makers: Set[str]) -> None:
        self.names, self.makers = names, makers
        self.found: List[Tuple[cst.CSTNode, str]] = []

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            call = item.item
            if not (isinstance(call, cst.Call) and self.names.call_name(call) == "tf.variable_scope"):
                continue
            given = _given_defaults(call)
            if given and self._makes_variables(node.body):
                self.found.append((call, f"a variable scope gives the variables made in it by name a default "
                                         f"{', '.join(given)}, which TF1's store applied and the eager rewrite "
                                         "would not"))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _SETTERS and (
                isinstance(node.func.value, cst.Name)
                or (isinstance(node.func.value, cst.Call)
                    and self.names.call_name(node.func.value) == "tf.get_variable_scope")):
            self.found.append((node, f"`{node.func.attr.value}` sets a default of the variables a scope makes by "
                                     "name, which TF1's store applied and the eager rewrite would not"))

    def _makes_variables(self, body: cst.CSTNode) -> bool:
        return any(makes_by_name(call, self.names, self.makers) for call in all_calls(body))
