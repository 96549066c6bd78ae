"""``v.value()`` over a list of Keras layers' variables -> ``tf.convert_to_tensor(v)``.

TF1's ``Variable.value()`` (and ``read_value()``) gave the variable's current value as a tensor; DQN code copies
its networks with it (``op_holder.append(dest_var.assign(src_var.value()))``). Where the session rule listed a
collection as Keras layers' variables (``src_vars = [*mainDQN.dense.trainable_variables, ...]``), those are Keras 3
variables, whose ``value`` is a property holding the backing ``tf.Variable``: the converted program crashed
(``TypeError: 'ResourceVariable' object is not callable``). ``tf.convert_to_tensor(v)`` reads the value of either
kind of variable.

Rewritten where the text says the object is such a variable: the target of a ``for`` loop or comprehension over a
name bound once in the module to a list literal holding a Keras layer's variables (``*layer.trainable_variables``,
``*layer.variables``, ``*layer.weights``), or over ``zip`` of such names (the matching element of the target tuple),
not rebound in the loop. Runs after the session rule, which writes those lists. Compat output keeps TF1's variables.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis.symbols import binding_counts, writes
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import all_nodes, visit

RULE_ID = "keras-variable-values"
_KERAS_LISTS = ("trainable_variables", "non_trainable_variables", "variables", "weights")
_READS = ("value", "read_value")


class KerasVariableValues(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "v.value() over Keras layers' variables -> tf.convert_to_tensor(v) (Keras 3 variables)"
    ORDER = 940  # after the session rule, which lists collections as layers' variables
    TRIGGERS = (".value()", ".read_value()")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        counts = binding_counts(_statements(module))
        lists = {node.targets[0].target.value for node in all_nodes(module)
                 if isinstance(node, cst.Assign) and len(node.targets) == 1
                 and isinstance(node.targets[0].target, cst.Name) and _holds_keras_variables(node.value)}
        lists = {name for name in lists if counts.get(name) == 1}
        if not lists:
            return module
        targets: Dict[int, Set[str]] = {}  # id(loop body or comprehension) -> its targets over such lists
        for node in all_nodes(module):
            if isinstance(node, cst.For):
                found = _variable_targets(node.target, node.iter, lists) - set(writes(node.body))
                if found:
                    targets[id(node.body)] = found
            elif isinstance(node, (cst.ListComp, cst.GeneratorExp, cst.SetComp)) and node.for_in.inner_for_in is None:
                found = _variable_targets(node.for_in.target, node.for_in.iter, lists)
                if found:
                    targets[id(node.elt)] = found
        return visit(module, _Reads(ctx, targets)) if targets else module


def _statements(module: cst.Module) -> List[cst.CSTNode]:
    return [node for node in all_nodes(module) if isinstance(node, (cst.SimpleStatementLine, cst.For, cst.With))]


def _holds_keras_variables(value: cst.BaseExpression) -> bool:
    """A list literal with a Keras layer's variables starred into it, and only names or attributes besides."""
    if not isinstance(value, cst.List) or not value.elements:
        return False
    starred = [e for e in value.elements if isinstance(e, cst.StarredElement)]
    return bool(starred) and all(
        isinstance(e.value, cst.Attribute) and e.value.attr.value in _KERAS_LISTS for e in starred) and all(
        isinstance(e.value, (cst.Name, cst.Attribute)) for e in value.elements if isinstance(e, cst.Element))


def _variable_targets(target: cst.BaseExpression, iterable: cst.BaseExpression, lists: Set[str]) -> Set[str]:
    """The loop target names that take the variables of the lists ``lists`` names."""
    if isinstance(iterable, cst.Name):
        return {target.value} if iterable.value in lists and isinstance(target, cst.Name) else set()
    if not (isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "zip"
            and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(iterable.args)
            and all(a.keyword is None and not a.star for a in iterable.args)):
        return set()
    return {t.value.value for t, a in zip(target.elements, iterable.args)
            if isinstance(t.value, cst.Name) and isinstance(a.value, cst.Name) and a.value.value in lists}


class _Reads(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, targets: Dict[int, Set[str]]) -> None:
        self.ctx, self.targets = ctx, targets
        self.open: List[Set[str]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.targets:
            self.open.append(self.targets[id(node)])
        return True

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        if id(original) in self.targets:
            self.open.pop()
        if isinstance(original, cst.Call) and self.open and not original.args \
                and isinstance(original.func, cst.Attribute) and original.func.attr.value in _READS \
                and isinstance(original.func.value, cst.Name) and any(original.func.value.value in names
                                                                      for names in self.open):
            self.ctx.report(original, RULE_ID, INFO, f"`{original.func.value.value}` is a Keras layer's variable: "
                                                     f"`.{original.func.attr.value}()` -> tf.convert_to_tensor")
            return cst.parse_expression(f"{self.ctx.tf}.convert_to_tensor({original.func.value.value})").with_changes(
                lpar=updated.lpar, rpar=updated.rpar)
        return updated
