"""Markers of variables that layer helpers made (``analysis/layer_helper_variables``) -> the instance's attribute.

A Saver planned before ``helper-modules`` lists such a variable as ``tf1_helper_variable("add_layer", 2,
"Weights")``: the helper's second call, its local ``Weights``. Where the helper became a ``tf.Module`` class whose
``__init__`` makes that local an attribute (``self.Weights``), the marker becomes the attribute of the call's instance
(``add_layer_2.Weights``). A marker left (the helper kept its function form, its variables wait for its first call,
or the local is not an attribute ``__init__`` binds once) blocks the file, with the reason at the marker.
"""
from __future__ import annotations

from typing import Callable, Dict, Set, Tuple

import libcst as cst

from tf_migrate.analysis.layer_helper_variables import MARKER
from tf_migrate.traversal import visit


def init_attributes(cls: cst.ClassDef) -> Set[str]:
    """The attributes ``__init__`` of a class binds once, by plain assignment at its top level (``self.W = ...``)."""
    init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    seen: Dict[str, int] = {}
    for line in init.body.body if init is not None else ():
        if isinstance(line, cst.SimpleStatementLine):
            for small in line.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        t = target.target
                        if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                            seen[t.attr.value] = seen.get(t.attr.value, 0) + 1
    return {name for name, count in seen.items() if count == 1}


def resolve_helper_markers(module: cst.Module, instances: Dict[Tuple[str, int], Tuple[str, Set[str]]],
                           attribute: Callable[[str], str], block: Callable[[cst.CSTNode, str], None]) -> cst.Module:
    """Each marker -> ``instance.attribute``; ``instances``: (helper, call number) -> (its instance, the attributes
    its class's ``__init__`` binds); ``attribute``: the attribute a helper's local becomes."""

    class _Resolve(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if not (isinstance(updated.func, cst.Name) and updated.func.value == MARKER and len(updated.args) == 3):
                return updated
            helper, number, local = (a.value.evaluated_value if isinstance(a.value, cst.SimpleString)
                                     else int(a.value.value) for a in updated.args)
            instance, bound = instances.get((helper, number), (None, set()))
            if instance is None or attribute(local) not in bound:
                block(original, f"a Saver lists the variable `{local}` of the call {number} of `{helper}`, which the "
                                "helper's tf.Module form does not keep on its instance when it is built")
                return updated
            return cst.Attribute(cst.Name(instance), cst.Name(attribute(local)))

    return visit(module, _Resolve())
