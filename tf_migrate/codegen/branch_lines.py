"""A run's copy of a build-time branch that declares placeholders (analysis/branch_placeholders).

A placeholder the run feeds is its function's parameter: the line declaring it goes (the parameter holds the
name). One it does not feed is bound to ``None``, which fails where the taken branch reads it, as TF1's run
failed for want of a fed value.
"""
from __future__ import annotations

from typing import Dict, Set

import libcst as cst

from tf_migrate.analysis.branch_placeholders import placeholder_lines
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.traversal import visit
from tf_migrate.tfnames import TFNames


def lower_branch_placeholders(node: cst.If, declared: Dict[str, cst.Call], fed: Set[str], names: TFNames) -> cst.If:
    """``node`` with its placeholder lines dropped (fed) or bound to ``None`` (not fed)."""
    lines = placeholder_lines(node, set(declared), names)
    return visit(node, _Lower(lines, fed)) if lines else node


class _Lower(cst.CSTTransformer):
    def __init__(self, lines: Dict[int, cst.SimpleStatementLine], fed: Set[str]) -> None:
        self.lines, self.fed = lines, fed

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) not in self.lines:
            return updated
        target = original.body[0].targets[0].target
        if symbol_key(target) in self.fed:
            return cst.RemoveFromParent()
        none = cst.Assign(targets=[cst.AssignTarget(target)], value=cst.Name("None"))
        comment = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(
            "# this run does not feed it: TF1's run failed where it was needed"))
        return updated.with_changes(body=[none], trailing_whitespace=comment)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if updated.body:
            return updated
        return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])  # the branch only declared them
