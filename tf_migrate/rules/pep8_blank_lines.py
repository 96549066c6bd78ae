"""Two blank lines around module-level definitions (PEP 8, E302/E305) in files the other rules changed.

The rewrite moves code: layers and optimizers hoisted above a ``def``, run functions inserted
between statements, a ``def`` whose neighbours were removed. The result ran, but read as
generated code (``optimizer = ...`` glued under a ``return``). Blank lines are only added, never
removed, and a file no other rule changed is left as it was.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.rules import Rule, RuleContext

RULE_ID = "pep8-blank-lines"
BLANK_LINES = 2


class Pep8BlankLines(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "two blank lines around module-level functions and classes of a rewritten file (PEP 8)"
    ORDER = 995  # last: after every rule that moves or inserts statements

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if ctx.original_module is not None and module.deep_equals(ctx.original_module):
            return module
        body = list(module.body)
        for index in range(1, len(body)):
            if _is_definition(body[index]) or _is_definition(body[index - 1]):
                body[index] = body[index].with_changes(leading_lines=_padded(list(body[index].leading_lines)))
        return module.with_changes(body=body)


def _is_definition(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.FunctionDef, cst.ClassDef))


def _padded(lines: List[cst.EmptyLine]) -> List[cst.EmptyLine]:
    """``lines`` with at least two blank lines before the first comment (the comments stay with the code)."""
    blank = 0
    while blank < len(lines) and lines[blank].comment is None:
        blank += 1
    if blank >= BLANK_LINES:
        return lines
    return [cst.EmptyLine(indent=False)] * BLANK_LINES + lines[blank:]
