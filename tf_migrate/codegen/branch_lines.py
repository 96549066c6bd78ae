"""A run's copy of a build-time branch that declares placeholders (analysis/branch_placeholders).

A placeholder the run feeds is its function's parameter: the line declaring it goes (the parameter holds the
name), or, where the branches declare it with other dtypes, becomes a cast of the parameter to the line's dtype.
One it does not feed is bound to ``None``, which fails where the taken branch reads it, as TF1's run failed for
want of a fed value.
"""
from __future__ import annotations

from typing import Dict, Optional, Set

import libcst as cst

from tf_migrate.analysis.branch_placeholders import placeholder_lines
from tf_migrate.analysis.dtypes import placeholder_dtype
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit
from tf_migrate.tfnames import TFNames


def lower_branch_placeholders(node: cst.If, declared: Dict[str, Optional[cst.Call]], fed: Set[str], names: TFNames,
                              tf: str) -> cst.If:
    """``node`` with its placeholder lines dropped or casting the parameter (fed) or bound to ``None`` (not fed)."""
    lines = placeholder_lines(node, set(declared), names)
    return visit(node, _Lower(lines, fed, {key for key, call in declared.items() if call is None}, names, tf)) \
        if lines else node


class _Lower(cst.CSTTransformer):
    def __init__(self, lines: Dict[int, cst.SimpleStatementLine], fed: Set[str], cast: Set[str], names: TFNames,
                 tf: str) -> None:
        self.lines, self.fed, self.cast, self.names, self.tf = lines, fed, cast, names, tf

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) not in self.lines:
            return updated
        target = original.body[0].targets[0].target
        key = symbol_key(target)
        if key in self.fed and key in self.cast:  # TF1 converted the feed to the dtype of the line the branch ran
            dtype = placeholder_dtype(original.body[0].value, self.names)
            cast = cst.parse_expression(f"{self.tf}.cast({code(target)}, {self.tf}.{dtype})")
            return updated.with_changes(body=[cst.Assign(targets=[cst.AssignTarget(target)], value=cast)])
        if key in self.fed:
            return cst.RemoveFromParent()
        none = cst.Assign(targets=[cst.AssignTarget(target)], value=cst.Name("None"))
        comment = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(
            "# this run does not feed it: TF1's run failed where it was needed"))
        return updated.with_changes(body=[none], trailing_whitespace=comment)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if updated.body:
            return updated
        return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])  # the branch only declared them
