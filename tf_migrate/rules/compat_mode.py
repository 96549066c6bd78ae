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

import sys
from typing import List, Optional

import libcst as cst

from tf_migrate.cst.text import module_code
from tf_migrate.report import INFO, WARNING
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
        module = _rebind_after_star_imports(module, ctx, v1_alias)
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
    else:  # the call needs its alias bound: `from tensorflow.examples... import x` may come first
        position = max(position, _first_tensorflow_import(body, binding=alias))
    lines.append(f"{alias}.disable_v2_behavior()")
    body[position + 1:position + 1] = [cst.parse_statement(line) for line in lines]
    ctx.report(None, RULE_ID, WARNING, "kept in compat mode: TF1 graph semantics via tensorflow.compat.v1")
    return module.with_changes(body=body), alias


def _rebind_after_star_imports(module: cst.Module, ctx: RuleContext, alias: str) -> cst.Module:
    """``import tensorflow.compat.v1 as tf`` again after each ``from helpers import *`` that follows it.

    A sibling module's ``tf`` (its own ``import tensorflow as tf``, plain TF2 once migrated or run on
    TF2) comes in with the star and would replace this file's compat alias: ``tf.placeholder`` then
    fails. Modules of the standard library bind no ``tf``.
    """
    body: List[cst.BaseStatement] = list(module.body)
    bound = _first_tensorflow_import(body, binding=alias)
    if bound < 0:
        return module
    again = f"import tensorflow.compat.v1 as {alias}"
    out = body[:bound + 1]
    for index in range(bound + 1, len(body)):
        stmt = body[index]
        out.append(stmt)
        if _star_import_of_other_module(stmt) and not (
                index + 1 < len(body) and cst.Module([body[index + 1]]).code.strip() == again):
            out.append(cst.parse_statement(again + "\n"))
            ctx.report(stmt, RULE_ID, INFO, f"`{alias}` imported again after the star import, which may "
                                            "bind the helper module's own `tf`")
    return module.with_changes(body=out) if len(out) != len(body) else module


def _star_import_of_other_module(stmt: cst.BaseStatement) -> bool:
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return False
    node = stmt.body[0]
    if not isinstance(node, cst.ImportFrom) or not isinstance(node.names, cst.ImportStar):
        return False
    name = dotted_name(node.module) if node.module is not None else ""
    return bool(node.relative) or not (_is_tensorflow(node.module) or (name or "").split(".")[0] in
                                       sys.stdlib_module_names)


def _has_disable_call(module: cst.Module) -> bool:
    text = module_code(module)
    return "disable_v2_behavior()" in text or "disable_eager_execution()" in text


def _first_tensorflow_import(body: List[cst.BaseStatement], binding: Optional[str] = None) -> int:
    """Index of the first top-level statement that imports TensorFlow (also inside ``try:``), else -1;
    with ``binding``, the first that binds that local name to a TensorFlow module."""
    for index, stmt in enumerate(body):
        found = _TensorFlowImport(binding)
        visit(stmt, found)
        if found.seen:
            return index
    return -1


# The packages of TF1's API (tensorflow/_api/v2/compat/v1 in TF 2.21) whose TF2 namesakes differ or are gone.
_V1_PACKAGES = frozenset({
    "app", "audio", "autograph", "bitwise", "config", "data", "debugging", "distribute", "distributions", "dtypes",
    "errors", "feature_column", "gfile", "graph_util", "image", "initializers", "io", "keras", "layers", "linalg",
    "logging",
    "lookup", "losses", "manip", "math", "metrics", "nest", "nn", "profiler", "python_io", "queue", "ragged",
    "random", "resource_loader", "saved_model", "sets", "signal", "sparse", "spectral", "strings", "summary",
    "sysconfig", "test", "train", "types", "user_ops", "version"})


class _TensorFlowImport(cst.CSTVisitor):
    def __init__(self, binding: Optional[str] = None) -> None:
        self.seen = False
        self.binding = binding

    def visit_Import(self, node: cst.Import) -> None:
        self.seen = self.seen or any(_is_tensorflow(alias.name) and self._binds(alias) for alias in node.names)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.seen = self.seen or (self.binding is None and node.module is not None and _is_tensorflow(node.module))

    def _binds(self, alias: cst.ImportAlias) -> bool:
        local = alias.asname.name.value if alias.asname else (dotted_name(alias.name) or "").split(".")[0]
        return self.binding is None or local == self.binding

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
        module = dotted_name(updated.module) if updated.module is not None else None
        if module == "tensorflow":
            return updated.with_changes(module=cst.parse_expression("tensorflow.compat.v1"))
        if module is not None and module.split(".")[:2][-1] in _V1_PACKAGES and module.startswith("tensorflow."):
            # `from tensorflow.nn import rnn_cell`: TF1's API module of that name, not TF2's; `from
            # tensorflow.keras.optimizers import SGD`: the optimizer TF1's Keras gave, which runs in graph mode
            return updated.with_changes(module=cst.parse_expression("tensorflow.compat.v1." + module[11:]))
        return updated
