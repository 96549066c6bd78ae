"""``import tensorflow as tf1`` -> ``import tensorflow as tf`` in eager output.

Code that imported TF1 as ``tf1`` (to tell it from TF2) reads wrong once it is TF2 code:
``tf1.GradientTape`` and ``@tf1.function`` look like TF1 APIs. The alias becomes ``tf`` where
that is a plain rename: the module binds ``tf`` nowhere, and the old alias is only ever used as
``alias.attribute`` (never assigned, passed, shadowed by a parameter or imported again).
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "tf-alias"
TF = "tf"


class TFAlias(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "import tensorflow as tf1 -> import tensorflow as tf, where it is a plain rename"
    ORDER = 992  # after eager-imports has made compat.v1 imports plain tensorflow ones

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        alias = _only_alias(module)
        if alias is None or alias == TF:
            return module
        names = _Names(alias)
        visit(module, names)
        if names.other_uses or names.tf_bound:
            return module
        ctx.report(None, RULE_ID, INFO, f"`import tensorflow as {alias}` -> `import tensorflow as {TF}`")
        return visit(module, _Rename(alias))


def _only_alias(module: cst.Module) -> Optional[str]:
    """The name of the module's one ``import tensorflow as NAME``, if it has exactly one and no other TF import."""
    found: List[str] = []

    class _Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                if (dotted_name(alias.name) or "").split(".")[0] == "tensorflow":
                    asname = alias.asname.name if alias.asname is not None else None
                    found.append(asname.value if isinstance(asname, cst.Name) and dotted_name(alias.name) == "tensorflow"
                                 else "")

    visit(module, _Imports())
    return (found[0] or None) if len(found) == 1 else None


class _Names(cst.CSTVisitor):
    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.other_uses = False
        self.tf_bound = False
        self._fine: set = set()

    def visit_ImportAlias(self, node: cst.ImportAlias) -> bool:
        return False  # the import itself is renamed, not a use

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._fine.add(id(node.attr))
        if isinstance(node.value, cst.Name) and node.value.value == self.alias:
            self._fine.add(id(node.value))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._fine.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) in self._fine:
            return
        if node.value == TF:
            self.tf_bound = True
        elif node.value == self.alias:
            self.other_uses = True


class _Rename(cst.CSTTransformer):
    def __init__(self, alias: str) -> None:
        self.alias = alias

    def leave_ImportAlias(self, original: cst.ImportAlias, updated: cst.ImportAlias) -> cst.ImportAlias:
        if updated.asname is not None and isinstance(updated.asname.name, cst.Name) \
                and updated.asname.name.value == self.alias:
            return updated.with_changes(asname=updated.asname.with_changes(name=cst.Name(TF)))
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        if isinstance(updated.value, cst.Name) and updated.value.value == self.alias:
            return updated.with_changes(value=cst.Name(TF))
        return updated
