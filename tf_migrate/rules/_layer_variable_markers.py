"""A variable of a ``tf.layers`` call, named by TF1's layer name until layers-to-keras names its Keras layer.

``variable-name-filters`` runs before the layers are converted: it writes the variables it selects as
``tf1_layer_variable("generator/dense_1", "kernel")`` and names each layer as TF1 did (``name="dense_1"``);
``layers-to-keras`` puts the Keras layer's attribute in its place (``dense_1.kernel``) where it built that layer
with its variables (``.build``). A marker left unresolved is an undefined name the output self-check reports:
the file stays compat.
"""
from __future__ import annotations

from typing import Dict, Set

import libcst as cst

from tf_migrate.traversal import visit

MARKER = "tf1_layer_variable"


def marker(layer: str, attribute: str) -> cst.Call:
    return cst.Call(cst.Name(MARKER), args=[cst.Arg(cst.SimpleString(repr(layer))),
                                            cst.Arg(cst.SimpleString(repr(attribute)))])


def resolve_markers(module: cst.Module, layer_scopes: Dict[str, str], built: Set[str]) -> cst.Module:
    """Each marker -> ``layer.attribute`` of the Keras layer built for that TF1 layer name."""
    by_name = {scoped: var for var, scoped in layer_scopes.items() if var in built}

    class _Resolve(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if not (isinstance(updated.func, cst.Name) and updated.func.value == MARKER and len(updated.args) == 2):
                return updated
            layer, attribute = (a.value.evaluated_value for a in updated.args)
            var = by_name.get(layer)
            return cst.Attribute(cst.Name(var), cst.Name(attribute)) if var else updated

    return visit(module, _Resolve())
