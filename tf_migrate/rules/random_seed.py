"""tf.set_random_seed(s) -> tf.random.set_seed(s).

In eager mode both set the global seed (``tf.random.set_seed`` calls
``set_random_seed`` in TF 2.x); the rename tables only know the
``tf.compat.v1`` spelling.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "random-seed"
_OLD = {"tf.set_random_seed", "tf.random.set_random_seed"}


class SetRandomSeed(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.set_random_seed -> tf.random.set_seed (the same global seed in eager mode)"
    ORDER = 16

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Seed(ctx))


class _Seed(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original)
        if qualname not in _OLD:
            return updated
        self.ctx.report(original, RULE_ID, INFO, f"{qualname} -> tf.random.set_seed")
        return updated.with_changes(func=cst.parse_expression(f"{self.ctx.tf}.random.set_seed"))
