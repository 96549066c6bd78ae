"""An eager run whose value is thrown away: ``spike.assign(True).numpy()`` as a statement -> ``spike.assign(True)``.

``sess.run(tf.assign(spike, True))`` (or ``.eval()``) standing alone ran the update; TF1 gave its value back
and the program dropped it. Converted where it stands, the update is ``spike.assign(True)`` and the session
rule wrote the run's value as ``.numpy()`` of it, which the statement drops again: a copy to the host that a
TF2 engineer would not write. The ``.numpy()`` goes where the statement is only that: a call's ``.numpy()``
(never a name's, whose statement would then do nothing). Eager mode only, and not for a notebook cell's last
expression, whose value the notebook shows.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.cst.cells import shown_expressions
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "discarded-values"


class DiscardedValues(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "an eager run whose value a statement drops: `v.assign(x).numpy()` -> `v.assign(x)`"
    ORDER = 960  # after the session rule, which wrote the runs' values
    TRIGGERS = (".run(", ".eval(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        # A notebook shows a cell's last expression: there `.numpy()` shows the array TF1's run gave.
        shown = shown_expressions(module) if ctx.path.endswith(".ipynb") else set()
        return visit(module, _Drop(ctx, shown))


class _Drop(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, shown) -> None:
        self.ctx = ctx
        self.shown = shown

    def leave_Expr(self, original: cst.Expr, updated: cst.Expr) -> cst.Expr:
        value = updated.value
        if id(original) not in self.shown and (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "numpy" and isinstance(value.func.value, cst.Call)
                and not value.lpar):
            self.ctx.report(original, RULE_ID, INFO, "the run's value was dropped: no `.numpy()` copy of it")
            return updated.with_changes(value=value.func.value)
        return updated
