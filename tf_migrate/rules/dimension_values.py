"""``x.get_shape()[1].value`` -> ``x.get_shape()[1]``: a TF2 shape's dimension is an int already.

TF1's ``TensorShape`` held ``Dimension`` objects, and code read their ``.value`` (``None`` where the
size is unknown). TF2's behaviour gives the int (or ``None``) itself, which has no ``.value``: the
converted program crashed (``AttributeError: 'int' object has no attribute 'value'``) where it read a
size to build a layer (``in_dim = x.get_shape()[1].value``).

Rewritten where the text says the value is a shape's dimension: an item of ``….get_shape()`` or of a
``….shape`` attribute, or of a name bound once, to one of those, in the module. ``tf_upgrade_v2`` leaves
these alone. Compat output keeps TF1's shapes, and the ``.value``.
"""
from __future__ import annotations

from typing import Dict

import libcst as cst

from tf_migrate.analysis.symbols import binding_counts
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "dimension-values"


class DimensionValues(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "shape[i].value -> shape[i] (a TF2 shape's dimensions are ints)"
    ORDER = 30
    TRIGGERS = (".value",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        shapes = _Shapes()
        visit(module, shapes)
        counts = binding_counts(_all_statements(module))
        names = {name for name in shapes.bound if counts.get(name) == 1}
        return visit(module, _Drop(ctx, names))


def _is_shape(node: cst.BaseExpression) -> bool:
    """``….get_shape()`` or ``….shape``."""
    if isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute):
        return node.func.attr.value == "get_shape"
    return isinstance(node, cst.Attribute) and node.attr.value == "shape"


class _Shapes(cst.CSTVisitor):
    """Names assigned a shape (``shape = x.get_shape()``)."""

    def __init__(self) -> None:
        self.bound: Dict[str, int] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and _is_shape(node.value):
            name = node.targets[0].target.value
            self.bound[name] = self.bound.get(name, 0) + 1


def _all_statements(module: cst.Module):
    found = []

    class _Statements(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            found.append(node)

        def visit_For(self, node: cst.For) -> None:
            found.append(node)  # (with its body's bindings again: a name bound there counts twice, and stays)

        visit_With = visit_For

    visit(module, _Statements())
    return found


class _Drop(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, names) -> None:
        self.ctx = ctx
        self.names = names

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value != "value" or not isinstance(original.value, cst.Subscript):
            return updated
        base = original.value.value
        if not (_is_shape(base) or isinstance(base, cst.Name) and base.value in self.names):
            return updated
        self.ctx.report(original, RULE_ID, INFO, "a TF2 shape's dimension is an int: `.value` dropped")
        return updated.value.with_changes(lpar=updated.lpar, rpar=updated.rpar)
