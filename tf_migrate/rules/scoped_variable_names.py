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

from tf_migrate.analysis.variable_names import prints_variables, reads_names, scoped_constructors
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "scoped-variable-names"


class ScopedVariableNames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("files that read variable names (`v.name`) and create variables in scope blocks stay in "
                   "compat mode: unwrapping the scopes would rename the variables")
    ORDER = 30
    TRIGGERS = (".name", "print", "format", "str(", "repr(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if ctx.scoped_names_given or not (reads_names(module) or prints_variables(module, ctx.names)):
            return module  # (tf1-variable-names gave them their TF1 names)
        scopes = scoped_constructors(module, ctx.names)
        if scopes:
            node, scope = scopes[0]
            ctx.block(node, f"variables created in `{scope}` are named by it, and the program reads variable "
                            "names (`.name`): the eager rewrite would unwrap the scope and rename them")
        return module
