"""Compat mode: code that cannot go eager still runs on TF2.

TensorFlow is imported as ``tensorflow.compat.v1`` and
``disable_v2_behavior()`` is called right after the import, before any graph
is built, so Sessions, placeholders and tf.gradients keep their TF1 meaning.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.report import WARNING
from tf_migrate.rules import COMPAT, Rule, RuleContext
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "compat-mode"


class CompatMode(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "files that cannot go eager: import tensorflow.compat.v1 and disable v2 behaviour so they run on TF2"
    ORDER = 100
    MODES = (COMPAT,)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        rewriter = _CompatImports()
        module = visit(module, rewriter)
        if ctx.names.v1_module_aliases and _has_disable_call(module):
            return module
        body: List[cst.BaseStatement] = list(module.body)
        position = rewriter.first_import_index(body)
        alias = ctx.names.tf_alias or "tf"
        lines = []
        if rewriter.bare_names_only or alias not in rewriter.v1_aliases:
            alias = "tf_v1" if ctx.names.tf_alias is None else alias
            lines.append(f"import tensorflow.compat.v1 as {alias}")
        lines.append(f"{alias}.disable_v2_behavior()")
        insert = [cst.parse_statement(line) for line in lines]
        body[position + 1:position + 1] = insert
        ctx.report(None, RULE_ID, WARNING, "kept in compat mode: TF1 graph semantics via tensorflow.compat.v1")
        return module.with_changes(body=body)


def _has_disable_call(module: cst.Module) -> bool:
    return "disable_v2_behavior()" in module.code or "disable_eager_execution()" in module.code


class _CompatImports(cst.CSTTransformer):
    def __init__(self) -> None:
        self.v1_aliases = set()
        self.bare_names_only = True
        self._import_nodes = []

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = []
        for alias in updated.names:
            name = dotted_name(alias.name)
            if name == "tensorflow":
                local = alias.asname.name.value if alias.asname else "tensorflow"
                alias = alias.with_changes(name=cst.parse_expression("tensorflow.compat.v1"),
                                           asname=cst.AsName(cst.Name(local)))
                self.v1_aliases.add(local)
                self.bare_names_only = False
            elif name == "tensorflow.compat.v1" and alias.asname:
                self.v1_aliases.add(alias.asname.name.value)
                self.bare_names_only = False
            names.append(alias)
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        if updated.module is not None and dotted_name(updated.module) == "tensorflow":
            return updated.with_changes(module=cst.parse_expression("tensorflow.compat.v1"))
        return updated

    def first_import_index(self, body) -> int:
        for index, stmt in enumerate(body):
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Import) and any(
                            (dotted_name(a.name) or "").startswith("tensorflow") for a in small.names):
                        return index
                    if isinstance(small, cst.ImportFrom) and small.module is not None and (
                            dotted_name(small.module) or "").startswith("tensorflow"):
                        return index
        return -1
