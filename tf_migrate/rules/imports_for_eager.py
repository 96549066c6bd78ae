"""Imports of eager output: plain ``import tensorflow as tf``, nothing unused.

``import tensorflow.compat.v1 as tf`` becomes ``import tensorflow as tf`` (the
other rules have renamed what it reached), ``tf.disable_v2_behavior()`` and
friends go, names imported from tensorflow that the code no longer uses are
dropped, and ``import tensorflow as tf`` is added where generated code needs it.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import pass_if_empty
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "eager-imports"


class EagerImports(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tensorflow.compat.v1 imports -> tensorflow; drop graph-mode switches and unused TF imports"
    ORDER = 990

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        module = visit(module, _Imports(ctx))
        used = set()
        for stmt in module.body:
            if not _imports_only(stmt):
                used |= reads(stmt)
        module = visit(module, _DropUnused(used))
        if ctx.tf in used and ctx.names.tf_alias is None:
            body = list(module.body)
            position = _tf_import_position(body, ctx.tf)
            body.insert(position, cst.parse_statement(f"import tensorflow as {ctx.tf}"))
            module = module.with_changes(body=body)
        return module


def _imports_only(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)


def _tf_import_position(body, tf: str) -> int:
    """After the last import line that comes before the first statement reading ``tf``.

    Generated code can sit above a later import (a notebook whose first cell runs what a later cell
    imports): an import after the whole import block would leave ``@tf.function`` unbound when Python
    reaches it, and the output self-check would send the file to compat mode only until a second run.
    """
    position = 0
    for index, stmt in enumerate(body):
        if _imports_only(stmt):
            position = index + 1
        elif tf in reads(stmt):
            break
    return position


class _Imports(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = []
        for alias in updated.names:
            if dotted_name(alias.name) in ("tensorflow.compat.v1", "tensorflow.compat.v2") and alias.asname:
                alias = alias.with_changes(name=cst.Name("tensorflow"))
                self.ctx.report(original, RULE_ID, INFO, "tensorflow.compat.v1 -> tensorflow")
            names.append(alias)
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = dotted_name(updated.module) if updated.module is not None else None
        if module is not None and module.startswith("tensorflow.examples"):
            self.ctx.report(original, RULE_ID, WARNING, f"`{module}` is not part of TF2; load the data another "
                            "way (e.g. tf.keras.datasets.mnist.load_data())")
        if module == "tensorflow.compat" and not isinstance(updated.names, cst.ImportStar):
            if all(dotted_name(a.name) in ("v1", "v2") for a in updated.names):
                alias = updated.names[0].asname
                local = alias.name.value if alias is not None else "v1"
                return cst.Import([cst.ImportAlias(cst.Name("tensorflow"), asname=cst.AsName(cst.Name(local)))])
        if module == "tensorflow.compat.v1":
            return updated.with_changes(module=cst.Name("tensorflow"))
        return updated

    def leave_SimpleStatementLine(self, original, updated):
        body = [s for s in updated.body if not (
            isinstance(s, cst.Expr) and isinstance(s.value, cst.Call)
            and self.ctx.names.call_name(s.value) in api.GRAPH_MODE_CONFIG_CALLS) and not self._v1_rebinding(s)]
        if len(body) == len(updated.body):
            return updated
        self.ctx.report(original, RULE_ID, INFO, "removed a graph-mode switch")
        return updated.with_changes(body=body) if body else cst.RemoveFromParent()

    def _v1_rebinding(self, small: cst.BaseSmallStatement) -> bool:
        """``tf = tf.compat.v1`` (TF1 code made to run on TF2): the output uses TF2's names, on TF2's module."""
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            return False
        name = small.targets[0].target.value
        return name in self.ctx.names.aliases and dotted_name(small.value) in (f"{name}.compat.v1",
                                                                               f"{name}.compat.v2")

    def leave_If(self, original: cst.If, updated: cst.If):
        """A branch left with no statement (``if tf.__version__ >= "2": tf = tf.compat.v1;
        tf.disable_eager_execution()``): the ``if`` goes, or its body becomes ``pass``."""
        if updated.body.body:
            return updated
        if updated.orelse is None:
            return cst.RemoveFromParent()
        return updated.with_changes(body=updated.body.with_changes(body=pass_if_empty([])))


class _DropUnused(cst.CSTTransformer):
    def __init__(self, used) -> None:
        self.used = used

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = dotted_name(updated.module) if updated.module is not None else ""
        if not (module == "tensorflow" or module.startswith("tensorflow.")) or isinstance(updated.names, cst.ImportStar):
            return updated
        kept = [a for a in updated.names
                if (a.asname.name.value if a.asname else dotted_name(a.name)) in self.used]
        if not kept:
            return cst.RemoveFromParent()
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(names=kept)
