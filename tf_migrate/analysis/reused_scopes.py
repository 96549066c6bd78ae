"""Calls made under a variable scope that reuses variables, of functions and classes that make variables by name.

    with tf.variable_scope("D") as scope:            with tf.variable_scope("enc"):
        d_real = discriminator(real)                     model = Encoder(4)
        scope.reuse_variables()                      with tf.variable_scope("enc", reuse=True):
        d_fake = discriminator(fake)                     twin = Encoder(4)

TF1 kept variables made by name (``tf.get_variable``, ``tf.layers``, rnn cells, ``tf.contrib`` layers) in a store
keyed by their scoped name: under a scope that reuses (``reuse=True``, ``AUTO_REUSE``, after
``scope.reuse_variables()`` or ``tf.get_variable_scope().reuse_variables()``) the second call got the variables
the first one made. The eager rewrite gives every call or object its own variables (a ``tf.Module`` per call of a
helper, layers per object), so the twin would compute with fresh weights: a silent wrong rewrite. Such calls keep
the file compat, with the reason at the call. A reuse given by a parameter (``reuse=reuse``) is the function's own
business: the rules that build its variables once read it from its calls (``rules/_hoisting.reuses``).
``tf.Variable`` and Keras layers ignored reuse in TF1: helpers that make only those are not concerned.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple, Union

import libcst as cst

from tf_migrate.analysis.symbols import all_calls, callee_name
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# APIs whose variables TF1 looked up in its variable store, by scoped name.
BY_NAME = ("tf.get_variable", "tf.layers.", "tf.contrib.", "tf.nn.rnn_cell.", "tf.nn.dynamic_rnn",
            "tf.nn.static_rnn", "tf.nn.bidirectional_dynamic_rnn", "tf.compat.v1.get_variable",
            "tf.compat.v1.layers.", "tf.compat.v1.nn.rnn_cell.")

Definition = Union[cst.FunctionDef, cst.ClassDef]


def reused_calls(module: cst.Module, names: TFNames) -> List[Tuple[cst.Call, str]]:
    """(call, why) for each call, under a scope that reuses variables, of a module function or class that makes
    variables by name (itself or through the module's other functions), or of a class or function another module
    of the tree provides and that makes variables."""
    finder = _ReusingCalls(names, variable_makers(module, names))
    visit(module, finder)
    return finder.found


def variable_makers(module: cst.Module, names: TFNames) -> Set[str]:
    """The module's functions and classes that make variables by name (themselves or through its other functions),
    and the classes and functions another module of the tree provides that make variables."""
    definitions: Dict[str, Definition] = {stmt.name.value: stmt for stmt in module.body
                                          if isinstance(stmt, (cst.FunctionDef, cst.ClassDef))}
    makers = _makers_by_name(definitions, names)
    makers |= {local for local, summary in names.imported.items() if summary.creates_variables}
    makers |= set(names.tree_helpers.graph_classes)
    return makers


def makes_by_name(call: cst.Call, names: TFNames, makers: Set[str]) -> bool:
    """Whether ``call`` makes variables TF1 kept by scoped name: a TF API that does, or one of ``makers``."""
    return (names.call_name(call) or "").startswith(BY_NAME) or (
        callee_name(call) in makers)


def _makers_by_name(definitions: Dict[str, Definition], names: TFNames) -> Set[str]:
    """The definitions that make variables by name, directly or by calling another one that does."""
    direct: Dict[str, bool] = {}
    callees: Dict[str, Set[str]] = {}
    for name, definition in definitions.items():
        calls = all_calls(definition)
        direct[name] = any((names.call_name(call) or "").startswith(BY_NAME) for call in calls)
        callees[name] = {call.func.value for call in calls
                         if isinstance(call.func, cst.Name) and call.func.value in definitions}
    makers = {name for name, makes in direct.items() if makes}
    changed = True
    while changed:
        grown = {name for name, called in callees.items() if called & makers} - makers
        makers |= grown
        changed = bool(grown)
    return makers


class _ReusingCalls(cst.CSTVisitor):
    def __init__(self, names: TFNames, makers: Set[str]) -> None:
        self.names, self.makers = names, makers
        # per block (module, function): its open scopes as [reusing, the branches around the scope's opening]
        self.frames: List[List[List]] = [[[False, 0]]]
        self.branches = 0  # `if` statements around the node visited
        self.found: List[Tuple[cst.Call, str]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.frames.append([[False, self.branches]])  # (its calls are checked where it is called, in its callers)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.frames.pop()

    def visit_If(self, node: cst.If) -> None:
        self.branches += 1

    def leave_If(self, original_node: cst.If) -> None:
        self.branches -= 1

    def visit_With(self, node: cst.With) -> None:
        self.frames[-1].extend([self._reuses(item.item), self.branches] for item in node.items)

    def leave_With(self, original_node: cst.With) -> None:
        del self.frames[-1][len(self.frames[-1]) - len(original_node.items):]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        innermost = self.frames[-1][-1]
        if isinstance(func, cst.Attribute) and func.attr.value == "reuse_variables":
            if self.branches == innermost[1]:  # `scope.reuse_variables()` run whenever the scope is: it reuses from
                innermost[0] = True  # here on (under `if reuse:`, the function's parameter decides, see above)
            return
        if callee_name(node) in self.makers and any(frame[0] for frame in self.frames[-1]):
            self.found.append((node, f"`{callee_name(node)}` is called under a variable scope that reuses variables: TF1 "
                                     "gave the call the variables made before under the same scoped names, where the "
                                     "eager rewrite would give it variables of its own"))

    def _reuses(self, item: cst.BaseExpression) -> bool:
        """``tf.variable_scope(..., reuse=True)`` or ``reuse=tf.AUTO_REUSE`` (a parameter's value is not known)."""
        given = scope_reuse(item, self.names)
        return (isinstance(given, cst.Name) and given.value == "True") or (
            isinstance(given, cst.Attribute) and given.attr.value == "AUTO_REUSE")


def scope_reuse(item: cst.BaseExpression, names: TFNames) -> Optional[cst.BaseExpression]:
    """The ``reuse`` a ``tf.variable_scope(...)`` call is given (by keyword, or as its ninth argument), or None (none
    given, or not such a call)."""
    if not (isinstance(item, cst.Call) and names.call_name(item) == "tf.variable_scope"):
        return None
    given = next((arg.value for arg in item.args if arg.keyword is not None and arg.keyword.value == "reuse"), None)
    positional = [arg.value for arg in item.args if arg.keyword is None and not arg.star]
    return given if given is not None or len(positional) <= 8 else positional[8]
