"""tf.all_variables() -> tf.global_variables(), TF1's own name for the same list.

TF1 deprecated ``tf.all_variables`` for ``tf.global_variables`` (the same function: every variable of the
graph, in creation order). Written with the name the rest of tf-migrate knows, the list converts as
``tf.global_variables()`` does (an explicit list of the program's variables); left as it was, it kept the file
compat ("no eager rewrite").
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "variable-list-aliases"
_ALIASES = {"tf.all_variables": "global_variables"}


class VariableListAliases(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.all_variables() -> tf.global_variables() (TF1's deprecated name of the same list)"
    ORDER = 3  # before every rule that reads variable lists
    TRIGGERS = ("all_variables",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Aliases(ctx))


class _Aliases(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original) or ""
        new = _ALIASES.get(qualname)
        if new is None or not isinstance(updated.func, cst.Attribute):
            return updated
        self.ctx.report(original, RULE_ID, INFO, f"{qualname} -> tf.{new}")
        return updated.with_changes(func=updated.func.with_changes(attr=cst.Name(new)))
