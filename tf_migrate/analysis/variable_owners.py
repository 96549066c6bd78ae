"""Whether a program may train variables that Keras layers own, or only plain ``tf.Variable``s.

TF1's own optimizers (``tf.compat.v1.train.*``) run eagerly and in ``tf.function``s and give TF1's
numbers bit for bit, but only on plain variables: a Keras 3 layer's variables are not
``tf.Variable``s, and a compat.v1 optimizer fails on them (``'Variable' object has no attribute
'_in_graph_mode'``). TF1's layers, rnn cells and contrib layers become Keras layers in the output;
Keras' own layers and models are Keras already, and a Keras model is also what an optimizer could
be handed to (``model.compile(optimizer=...)``). A module imported from elsewhere (another module
of the project, a package that is not a known host library) may build either, which the module's
text does not say. So the question is asked of the whole module, and whatever this analysis cannot
see counts as Keras: the Keras optimizers always run.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.tfnames import TFNames, canonical, dotted_name
from tf_migrate.traversal import visit


def keras_owned_variables(module: cst.Module, names: TFNames) -> Optional[str]:
    """Why ``module`` may train variables a Keras layer owns: the first API or import that may build
    one, as a short phrase. None when every variable it can build is a plain ``tf.Variable``.

    >>> module = cst.parse_module("import tensorflow as tf\\nh = tf.layers.dense(x, 3)\\n")
    >>> keras_owned_variables(module, TFNames.scan(module))
    '`tf.layers.dense`'
    """
    finder = _KerasVariableSources(names)
    visit(module, finder)
    return finder.reason


class _KerasVariableSources(cst.CSTVisitor):
    """The first reason in the module's order; each handler looks no further once there is one (named handlers,
    not on_visit, so the walk passes over whitespace and subtrees without imports or names)."""

    def __init__(self, names: TFNames) -> None:
        self.names = names
        self.reason: Optional[str] = None

    def visit_Import(self, node: cst.Import) -> bool:
        if self.reason is not None:
            return False
        for alias in node.names:
            imported = dotted_name(alias.name) or ""
            if not _known_module(imported):
                self.reason = f"`import {imported}`, which this file does not show"
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if self.reason is not None:
            return False
        imported = dotted_name(node.module) if node.module is not None else ""
        written = "." * len(node.relative) + (imported or "")
        if node.relative or not _known_module(imported or ""):
            self.reason = f"`from {written} import ...`, which this file does not show"
        elif isinstance(node.names, cst.ImportStar) and api.builds_keras_variables(canonical(imported)):
            self.reason = f"`from {written} import *`"
        return False  # the names it binds count where the module uses them

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if self.reason is not None:
            return False
        if dotted_name(node) is None:
            return True  # `f(x).attr`: the parts inside are looked at one by one
        self._reference(node)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if self.reason is None:
            self._reference(node)

    def _reference(self, node: cst.BaseExpression) -> None:
        qualname = self.names.qualname(node)
        if qualname is not None and api.builds_keras_variables(qualname):
            self.reason = f"`{qualname}`"


def _known_module(imported: str) -> bool:
    top = imported.split(".")[0]
    return top == "tensorflow" or top in api.HOST_MODULES
