"""v.initialized_value() -> v.read_value().

TF1's ``initialized_value()`` read the variable once it was initialized, and its initial value before that
(``w2 = tf.Variable(w1.initialized_value() * 2)``: the initializer of ``w2`` ran no matter the order).
An eager variable holds its initial value from its construction, so reading it is the same value where the
graph was built, and the same current value in a run afterwards. Eager variables raise
``NotImplementedError`` for ``initialized_value()``. Only variables have the method; no other call is touched.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "initialized-values"


class InitializedValuesToReads(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "v.initialized_value() -> v.read_value() (an eager variable holds its initial value when built)"
    ORDER = 42
    TRIGGERS = ("initialized_value",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Reads(ctx))


class _Reads(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "initialized_value") or updated.args:
            return updated
        self.ctx.report(original, RULE_ID, INFO, "v.initialized_value() -> v.read_value()")
        return updated.with_changes(func=func.with_changes(attr=cst.Name("read_value")))
