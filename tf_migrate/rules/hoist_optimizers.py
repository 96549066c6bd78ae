"""``train = tf.train.AdamOptimizer(lr).minimize(loss)`` -> an optimizer built once.

An optimizer built inside the step would be rebuilt on every call in eager
code, losing its slots (Adam's moments, momentum). It is bound to a name on
the line before, where it is created once, and the step uses that name.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "hoist-optimizers"
_METHODS = ("minimize", "compute_gradients", "apply_gradients")


class HoistInlineOptimizers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "an optimizer constructed inline in .minimize(...) is bound to a name and built once"
    ORDER = 25

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return module.visit(_Hoist(ctx, reads(module) | set(writes(module))))


class _Hoist(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, taken) -> None:
        self.ctx, self.taken = ctx, set(taken)

    def _fresh(self) -> str:
        name, n = "optimizer", 1
        while name in self.taken:
            n += 1
            name = f"optimizer_{n}"
        self.taken.add(name)
        return name

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, line: cst.SimpleStatementLine):
        if len(line.body) != 1 or not isinstance(line.body[0], (cst.Assign, cst.Expr)):
            return line
        value = line.body[0].value
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value in _METHODS and isinstance(value.func.value, cst.Call)):
            return line
        qualname = self.ctx.names.call_name(value.func.value)
        if qualname is None or not api.is_optimizer_constructor(qualname):
            return line
        name = self._fresh()
        self.ctx.report(original, RULE_ID, INFO, f"optimizer bound to `{name}` so it is built once")
        hoisted = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value.func.value)],
                                          leading_lines=line.leading_lines)
        call = value.with_changes(func=value.func.with_changes(value=cst.Name(name)))
        rest = line.with_changes(body=[line.body[0].with_changes(value=call)], leading_lines=[])
        return cst.FlattenSentinel([hoisted, rest])
