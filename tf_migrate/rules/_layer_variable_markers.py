"""A variable of a ``tf.layers`` call, named by TF1's layer name until layers-to-keras names its Keras layer.

``variable-name-filters`` runs before the layers are converted: it writes the variables it selects as
``tf1_layer_variable("generator/dense_1", "kernel")`` and names each layer as TF1 did (``name="dense_1"``);
``layers-to-keras`` puts the Keras layer's attribute in its place (``dense_1.kernel``) where it built that layer
with its variables (``.build``). A marker left unresolved is an undefined name the output self-check reports:
the file stays compat.
"""
from __future__ import annotations

from typing import Dict, Iterable, Set

import libcst as cst

from tf_migrate.cst.arguments import argument, keyword
from tf_migrate.traversal import visit

MARKER = "tf1_layer_variable"


def marker(layer: str, attribute: str) -> cst.Call:
    return cst.Call(cst.Name(MARKER), args=[cst.Arg(cst.SimpleString(repr(layer))),
                                            cst.Arg(cst.SimpleString(repr(attribute)))])


def tf1_layer_names(variables: Iterable) -> Dict[int, str]:
    """id(tf.layers call) -> the name TF1 gave its layer (``dense_1``), for the calls that give none: the markers
    name layers by these, and layers-to-keras names a layer by its call's ``name=``."""
    return {id(v.call): v.layer.rsplit("/", 1)[-1] for v in variables if argument(v.call, "name") is None}


def named_as_tf1(original: cst.Call, updated: cst.Call, names: Dict[int, str]) -> cst.Call:
    """``updated`` with ``name=`` the name TF1 gave the layer of ``original``, where ``names`` has it."""
    name = names.get(id(original))
    return updated.with_changes(args=[*updated.args, keyword("name", cst.SimpleString(repr(name)))]) \
        if name else updated


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
