"""A program that reads variable names keeps the scopes that name its variables: compat mode.

``with tf.variable_scope('generator'): W = tf.Variable(...)`` names ``W`` ``generator/Variable:0``, and
GAN code selects what each optimizer trains by that name
(``[v for v in tf.trainable_variables() if 'generator' in v.name]``, REFERENCE.md, "Feeds and values").
The eager rewrite unwraps such scopes, so the selection would come out empty (solaris33 Ch11-GAN:
``ValueError`` in ``apply_gradients``) or select other variables. When a file reads ``.name`` and
creates variables inside a scope block, it stays in compat mode, with the reason at the scope.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "scoped-variable-names"
# (call_name gives canonical names: tf.compat.v1.variable_scope reads as tf.variable_scope)
_SCOPES = {"tf.variable_scope", "tf.name_scope"}


class ScopedVariableNames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("files that read variable names (`v.name`) and create variables in scope blocks stay in "
                   "compat mode: unwrapping the scopes would rename the variables")
    ORDER = 30
    TRIGGERS = (".name",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        found = _Finder(ctx)
        visit(module, found)
        if found.reads_names and found.scopes:
            node, scope = found.scopes[0]
            ctx.block(node, f"variables created in `{scope}` are named by it, and the program reads variable "
                            "names (`.name`): the eager rewrite would unwrap the scope and rename them")
        return module


class _Finder(cst.CSTVisitor):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.reads_names = False
        self.scopes = []
        self._open = []  # scope blocks being visited: (with node, scope call code)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "name" and not (isinstance(node.value, cst.Name) and node.value.value == "os"):
            self.reads_names = True

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            if isinstance(item.item, cst.Call) and self.ctx.names.call_name(item.item) in _SCOPES:
                self._open.append((node, self.ctx.names.call_name(item.item)))
                return
        self._open.append(None)

    def leave_With(self, node: cst.With) -> None:
        self._open.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.names.call_name(node) in api.VARIABLE_CONSTRUCTORS:
            scope = next((entry for entry in reversed(self._open) if entry is not None), None)
            if scope is not None and scope not in self.scopes:
                self.scopes.append(scope)
