"""tf.assign(v, x) / tf.assign_add / tf.assign_sub -> v.assign(x) / ...

The method form is TF2's. Where the op runs is decided by the session rule:
an assignment happens when the old program ran it, not when it built it.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "assign-ops"
_METHODS = {"tf.assign": "assign", "tf.assign_add": "assign_add", "tf.assign_sub": "assign_sub"}
_DROPPED = {"use_locking", "name", "validate_shape"}


class AssignOpsToMethods(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.assign/assign_add/assign_sub(ref, value) -> ref.assign(value) (runs when fetched)"
    ORDER = 40

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Assign(ctx))


class _Assign(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        method = _METHODS.get(self.ctx.names.call_name(original) or "")
        if method is None:
            return updated
        positional = [a for a in updated.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a for a in updated.args if a.keyword is not None}
        ref = positional[0].value if positional else getattr(keywords.get("ref"), "value", None)
        value = positional[1].value if len(positional) > 1 else getattr(keywords.get("value"), "value", None)
        if ref is None or value is None:
            return updated
        self.ctx.report(original, RULE_ID, INFO, f"tf.{method}(ref, value) -> ref.{method}(value)")
        return cst.Call(cst.Attribute(ref, cst.Name(method)), args=[cst.Arg(value)])
