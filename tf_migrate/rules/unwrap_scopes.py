"""``with tf.variable_scope(...)`` / ``tf.name_scope(...)`` in graph functions -> their body.

Scopes only named graph nodes and variables. Once layers and variables are
Python objects built once (layers-to-keras, get-variable), a scope around
ops has no effect in eager code, so its body joins the enclosing block.
Scopes whose body still creates variables through TF1 APIs are kept.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "unwrap-scopes"
_SCOPES = {"tf.variable_scope", "tf.name_scope"}


class UnwrapScopes(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "variable_scope / name_scope blocks inside functions are unwrapped (no effect in eager code)"
    ORDER = 90

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Unwrap(ctx))


class _Unwrap(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.in_function = 0

    def visit_FunctionDef(self, node) -> None:
        self.in_function += 1

    def leave_FunctionDef(self, original, updated):
        self.in_function -= 1
        return updated

    def leave_With(self, original: cst.With, updated: cst.With):
        if not self.in_function or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        if not all(isinstance(i.item, cst.Call) and self.ctx.names.call_name(i.item) in _SCOPES and i.asname is None
                   for i in original.items):
            return updated
        if any(self.ctx.names.call_name(c) in api.VARIABLE_CONSTRUCTORS for c in all_calls(original.body)):
            return updated
        self.ctx.report(original, RULE_ID, INFO, "scope block unwrapped")
        body = list(updated.body.body)
        if body:
            body[0] = body[0].with_changes(leading_lines=list(updated.leading_lines) + list(body[0].leading_lines))
        return cst.FlattenSentinel(body)
