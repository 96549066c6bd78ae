"""Backslash continuations indented under the statement they continue, in files the other rules changed.

A statement that TF1 code wrote at module level with a backslash continuation

    d_loss = tf.reduce_mean(real_loss) + \\
        tf.reduce_mean(fake_loss)

keeps its continuation's indentation when the rewrite moves it into a generated function or under
a tape: the continuation then starts left of the statement (``d_loss`` at column 8, its second line
at column 4). Python does not mind; a reader does. A continuation line that starts at or left of
its statement's first column is moved to four columns right of it; other continuations, and files
no other rule changed, are left as they were.
"""
from __future__ import annotations

import re

import libcst as cst

from tf_migrate.cst.text import module_code
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "continuation-indents"
_CONTINUATION = re.compile(r"\\\n( *)")


class ContinuationIndents(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "backslash continuations that start left of their statement indented under it (rewritten files)"
    ORDER = 996  # after every rule that moves statements

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if ctx.original_module is not None and module.deep_equals(ctx.original_module):
            return module
        if "\\\n" not in module_code(module):
            return module
        return visit(module, _Indenter(module.default_indent))


class _Indenter(cst.CSTTransformer):
    def __init__(self, default_indent: str) -> None:
        self.default_indent = default_indent
        self.indents = [0]

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        step = node.indent if node.indent is not None else self.default_indent
        self.indents.append(self.indents[-1] + len(step.expandtabs()))

    def leave_IndentedBlock(self, original, updated):
        self.indents.pop()
        return updated

    def leave_SimpleWhitespace(self, original: cst.SimpleWhitespace, updated: cst.SimpleWhitespace):
        if "\\\n" not in updated.value:
            return updated
        column = self.indents[-1]

        def indent(match: re.Match) -> str:
            spaces = len(match.group(1))
            return "\\\n" + " " * (column + 4 if spaces <= column else spaces)

        value = _CONTINUATION.sub(indent, updated.value)
        return updated if value == updated.value else updated.with_changes(value=value)
