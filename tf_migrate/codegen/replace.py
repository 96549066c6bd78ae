"""Swap nodes by identity, and rename symbol keys, inside generated or moved code."""
from __future__ import annotations

from typing import Dict, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.traversal import visit


class _ByIdentity(cst.CSTTransformer):
    def __init__(self, replacements: Dict[int, cst.BaseExpression]) -> None:
        self.replacements = replacements

    def on_leave(self, original, updated):
        return self.replacements.get(id(original), updated)


def replace_nodes(node: cst.CSTNode, replacements: Dict[int, cst.BaseExpression]) -> cst.CSTNode:
    """``node`` with every descendant whose id is a key replaced by its value."""
    return visit(node, _ByIdentity(replacements)) if replacements else node


class _Renamer(cst.CSTTransformer):
    def __init__(self, mapping: Dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return symbol_key(node) is None  # self.x is renamed whole, in leave_Attribute

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        key = symbol_key(original)
        if key in self.mapping:
            return cst.parse_expression(self.mapping[key])
        return updated.with_changes(attr=original.attr)  # only the object is renamed, never .attr

    def visit_Arg(self, node: cst.Arg) -> bool:
        return True

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def visit_Param(self, node: cst.Param) -> bool:
        return False

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if original.value in self.mapping:
            return cst.parse_expression(self.mapping[original.value])
        return updated


def rename_keys(node: cst.CSTNode, mapping: Dict[str, str]) -> cst.CSTNode:
    """Rename symbol keys (``w`` -> ``self.w``, ``self.inputs`` -> ``inputs``) in ``node``."""
    return visit(node, _Renamer(mapping)) if mapping else node


class NameSubstitution(cst.CSTTransformer):
    """Variable names replaced by expressions (never an attribute's name or a keyword), each place by a copy of
    its own; statements whose ids are in ``skip`` are left as they are."""

    def __init__(self, mapping: Dict[str, cst.BaseExpression], skip: Optional[Set[int]] = None) -> None:
        self.mapping = mapping
        self.skip: Set[int] = set() if skip is None else skip

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return id(node) not in self.skip

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        replacement = self.mapping.get(original.value)
        return updated if replacement is None else replacement.deep_clone()  # one node per place it stands
