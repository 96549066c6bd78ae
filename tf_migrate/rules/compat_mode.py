"""Compat mode: code that cannot go eager still runs on TF2, without the user setting anything.

TensorFlow is imported as ``tensorflow.compat.v1`` and
``disable_v2_behavior()`` is called right after the import, before any graph
is built, so Sessions, placeholders and tf.gradients keep their TF1 meaning.
``tf.contrib`` names move to their TF2 home where one has the same meaning,
and are reported where none does (:mod:`._compat_contrib`). A file that uses
Keras 2 APIs (``tf.layers``, rnn cells, ``tf.keras`` in graph mode) selects
legacy Keras before TensorFlow is imported (:mod:`._legacy_keras`).
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.report import WARNING
from tf_migrate.rules import COMPAT, Rule, RuleContext
from tf_migrate.rules._compat_contrib import rename_contrib
from tf_migrate.rules._legacy_keras import select_legacy_keras
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "compat-mode"


class CompatMode(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("files that cannot go eager: import tensorflow.compat.v1 and disable v2 behaviour, move "
                   "tf.contrib to TF2 names, select legacy Keras for tf.layers/rnn cells, so they run on TF2")
    ORDER = 100
    MODES = (COMPAT,)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        module, v1_alias = _compat_imports(module, ctx)
        ctx.use_module(module)
        module = rename_contrib(module, ctx, v1_alias)
        ctx.use_module(module)
        return select_legacy_keras(module, ctx)


def _compat_imports(module: cst.Module, ctx: RuleContext):
    """The module importing tensorflow.compat.v1 with v2 behaviour disabled, and that module's local name."""
    rewriter = _CompatImports()
    module = visit(module, rewriter)
    if ctx.names.v1_module_aliases and _has_disable_call(module):
        alias = ctx.names.tf_alias
        return module, alias if alias in ctx.names.v1_module_aliases else sorted(ctx.names.v1_module_aliases)[0]
    body: List[cst.BaseStatement] = list(module.body)
    position = _first_tensorflow_import(body)
    alias = ctx.names.tf_alias or "tf"
    lines = []
    if rewriter.bare_names_only or alias not in rewriter.v1_aliases:
        alias = "tf_v1" if ctx.names.tf_alias is None else alias
        lines.append(f"import tensorflow.compat.v1 as {alias}")
    lines.append(f"{alias}.disable_v2_behavior()")
    body[position + 1:position + 1] = [cst.parse_statement(line) for line in lines]
    ctx.report(None, RULE_ID, WARNING, "kept in compat mode: TF1 graph semantics via tensorflow.compat.v1")
    return module.with_changes(body=body), alias


def _has_disable_call(module: cst.Module) -> bool:
    return "disable_v2_behavior()" in module.code or "disable_eager_execution()" in module.code


def _first_tensorflow_import(body: List[cst.BaseStatement]) -> int:
    """Index of the first top-level statement that imports TensorFlow (also inside ``try:``), else -1."""
    for index, stmt in enumerate(body):
        found = _TensorFlowImport()
        visit(stmt, found)
        if found.seen:
            return index
    return -1


class _TensorFlowImport(cst.CSTVisitor):
    def __init__(self) -> None:
        self.seen = False

    def visit_Import(self, node: cst.Import) -> None:
        self.seen = self.seen or any(_is_tensorflow(alias.name) for alias in node.names)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.seen = self.seen or (node.module is not None and _is_tensorflow(node.module))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # runs when called, after the switch


def _is_tensorflow(name: Optional[cst.BaseExpression]) -> bool:
    dotted = dotted_name(name) or ""
    return dotted == "tensorflow" or dotted.startswith("tensorflow.")


class _CompatImports(cst.CSTTransformer):
    def __init__(self) -> None:
        self.v1_aliases = set()
        self.bare_names_only = True

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
