"""``train = tf.train.AdamOptimizer(lr).minimize(loss)`` -> an optimizer built once.

An optimizer built inside the step would be rebuilt on every call in eager
code, losing its slots (Adam's moments, momentum). It is bound to a name on
the line before, where it is created once, and the step uses that name.
Likewise ``[... for g, v in opt.compute_gradients(loss)]``: the nested call is
bound to a name on the line before, so the tape step can be generated for it.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.cst.names import fresh
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "hoist-optimizers"
_METHODS = ("minimize", "compute_gradients", "apply_gradients")


class HoistInlineOptimizers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "an optimizer constructed inline in .minimize(...) is bound to a name and built once"
    ORDER = 25
    TRIGGERS = ("Optimizer", "optimizers")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        optimizers = _optimizer_names(module, ctx)
        return visit(module, _Hoist(ctx, module, optimizers))


class _Hoist(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module, optimizers) -> None:
        self.ctx, self.module, self.optimizers = ctx, module, optimizers
        self.taken = None  # the module's names, worked out at the first new name

    def _fresh(self, stem: str = "optimizer") -> str:
        if self.taken is None:
            self.taken = reads(self.module) | set(writes(self.module))
        return fresh(stem, self.taken)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, line: cst.SimpleStatementLine):
        if len(line.body) != 1 or not isinstance(line.body[0], (cst.Assign, cst.Expr)):
            return line
        nested = self._bind_nested(original, line) if self.optimizers else None
        if nested is not None:
            return nested
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

    def _bind_nested(self, original, line):
        """``[... for g, v in opt.compute_gradients(loss)]`` -> bind the call on the line before."""
        value = line.body[0].value
        if not reads(line) & self.optimizers:
            return None  # calls no method of a named optimizer
        found = []

        class _Find(cst.CSTVisitor):
            def visit_Call(inner, call: cst.Call) -> None:
                if (call is not value and isinstance(call.func, cst.Attribute)
                        and call.func.attr.value in ("compute_gradients", "minimize")
                        and isinstance(call.func.value, cst.Name) and call.func.value.value in self.optimizers):
                    found.append(call)

        visit(line, _Find())
        if not found:
            return None
        call = found[0]
        name = self._fresh("grads_and_vars" if call.func.attr.value == "compute_gradients" else "train_step")
        bound = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)],
                                        leading_lines=line.leading_lines)

        class _Swap(cst.CSTTransformer):
            def on_leave(inner, old, new):
                return cst.Name(name) if old is call else new

        self.ctx.report(original, RULE_ID, INFO, f"nested {call.func.attr.value} bound to `{name}`")
        return cst.FlattenSentinel([bound, visit(line, _Swap()).with_changes(leading_lines=[])])


def _optimizer_names(module: cst.Module, ctx: RuleContext):
    names = set()

    class _Find(cst.CSTVisitor):
        def visit_Assign(inner, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and isinstance(
                    node.value, cst.Call):
                qualname = ctx.names.call_name(node.value)
                if qualname is not None and api.is_optimizer_constructor(qualname):
                    names.add(node.targets[0].target.value)

    visit(module, _Find())
    return names
