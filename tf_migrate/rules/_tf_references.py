"""Every place a module names a TensorFlow symbol, in source order.

A reference is a whole name chain (``tf.contrib.rnn.BasicLSTMCell``, or a bare
``BasicLSTMCell`` imported from TensorFlow), never a part of one, or an import
of a TensorFlow path. Names that only label something are not references:
attributes after a dot, keywords, parameters, the names of definitions.
Local shadowing is ignored, as in :mod:`tf_migrate.tfnames`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Union

import libcst as cst

from tf_migrate.tfnames import TFNames, canonical, dotted_name
from tf_migrate.traversal import visit


@dataclass(frozen=True)
class Reference:
    node: Union[cst.Attribute, cst.Name, cst.Import, cst.ImportFrom]
    qualname: str  # canonical ``tf.…`` name
    local: str  # the name the module binds or reads: ``tf`` in ``tf.layers.dense``
    alias: Union[cst.ImportAlias, None] = None  # for an import: the alias that binds ``local``


def references(module: cst.Module, names: TFNames) -> List[Reference]:
    finder = _Finder(names)
    visit(module, finder)
    return finder.found


def import_path(node: Union[cst.Import, cst.ImportFrom], alias: cst.ImportAlias) -> str:
    """The dotted path an alias imports: ``tensorflow.contrib.rnn`` for ``from tensorflow.contrib import rnn``."""
    name = dotted_name(alias.name) or ""
    if isinstance(node, cst.Import):
        return name
    return f"{dotted_name(node.module)}.{name}" if node.module is not None else name


def bound_name(node: Union[cst.Import, cst.ImportFrom], alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = dotted_name(alias.name) or ""
    return name.split(".")[0] if isinstance(node, cst.Import) else name


class _Finder(cst.CSTVisitor):
    def __init__(self, names: TFNames) -> None:
        self.names = names
        self.found: List[Reference] = []

    def _add(self, node, qualname: str) -> None:
        self.found.append(Reference(node, qualname, (dotted_name(node) or "").split(".")[0]))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        qualname = self.names.qualname(node)
        if qualname is not None:
            self._add(node, qualname)
        else:
            visit(node.value, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        qualname = self.names.qualname(node)
        if qualname is not None and qualname != "tf":
            self._add(node, qualname)

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            self._add_import(node, alias)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None:
            return False
        if isinstance(node.names, cst.ImportStar):
            module = dotted_name(node.module) or ""
            if module == "tensorflow" or module.startswith("tensorflow."):
                self.found.append(Reference(node, canonical(module), "*"))
            return False
        for alias in node.names:
            self._add_import(node, alias)
        return False

    def _add_import(self, node, alias: cst.ImportAlias) -> None:
        path = import_path(node, alias)
        if path == "tensorflow" or path.startswith("tensorflow."):
            self.found.append(Reference(node, canonical(path), bound_name(node, alias), alias))

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit(node.value, self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        for part in (node.annotation, node.default):
            if part is not None:
                visit(part, self)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for part in (*node.decorators, node.params, node.returns, node.body):
            if part is not None:
                visit(part, self)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        for part in (*node.decorators, *node.bases, *node.keywords, node.body):
            visit(part, self)
        return False


def names_tf1_symbols(module: cst.Module, names: TFNames, renamed) -> bool:
    """Whether the module names a TF1-only symbol: one of ``renamed`` (tf_upgrade_v2's rename table: ``tf.placeholder``,
    ``tf.log``), written other than under ``tf.compat.v1``. TF2 code, this tool's eager output among it, names none:
    rules for a name whose TF1 and TF2 functions differ (``softmax_cross_entropy_with_logits``) leave such a module
    alone, so a second run changes nothing. Names that symbol-renames may keep in TF2 code (the initializers whose
    arguments mean the same in TF2, Keras names) are no evidence."""
    for ref in references(module, names):
        written = dotted_name(ref.node) if isinstance(ref.node, (cst.Attribute, cst.Name)) else None
        if ref.qualname in renamed and not _kept_in_tf2_code(ref.qualname) and (
                written is None or ".compat.v1." not in f"{written}."):
            return True
    return False


def _kept_in_tf2_code(qualname: str) -> bool:
    return qualname.startswith(("tf.keras.", "tf.initializers.")) or qualname.endswith("_initializer")
