"""What an object of a graph class holds (:class:`~tf_migrate.analysis.object_members.ObjectGraph`), read from the
class's analysis: its placeholders, its per-run values with the placeholders each needs, and its variables in TF1's
creation order. The engine gives it to each module's analysis (``TFNames.object_graph``), which binds the members
of the objects its code builds; a provider answers other modules' requests with it."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class
from tf_migrate.analysis.object_members import ObjectGraph
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import remember

_PER_RUN = {pm.TENSOR, pm.TENSORS, pm.STRUCT}


def object_graph(cls: cst.ClassDef, names: TFNames, layer_scopes=None) -> Optional[ObjectGraph]:
    """The members of an object of ``cls`` (None: the class's graph does not convert, or keeps trainable
    state the scope could not name)."""
    key = ("object-graph", id(cls), tuple(sorted((layer_scopes or {}).items())), tuple(sorted(names.aliases.items())))
    return remember(key, cls, lambda: _object_graph(cls, names, layer_scopes))


def _object_graph(cls: cst.ClassDef, names: TFNames, layer_scopes) -> Optional[ObjectGraph]:
    analysis = analyze_class(cls, names, layer_scopes)
    if analysis.blockers:
        return None
    scope = analysis.scope
    graph = ObjectGraph(cls.name.value)
    for key, symbol in scope.symbols.items():
        if not key.startswith("self.") or key.count(".") != 1:
            continue
        attribute = key[len("self."):]
        if symbol.kind == pm.PLACEHOLDER:
            graph.placeholders[attribute] = symbol.dtype
        elif symbol.kind in _PER_RUN and scope.statements[symbol.index].role == pm.DEFER:
            site = RunSite(cst.Call(cst.Name("members")), "run", cst.parse_expression(key), None)
            plan = plan_run(scope, site, len(scope.statements))
            if plan.conflicts or any(not st.defines for st in plan.unfed_placeholders):
                continue  # no faithful method computes it: reading it leaves the value unknown
            graph.tensors[attribute] = tuple(st.defines[0][len("self."):] for st in plan.unfed_placeholders
                                             if st.defines[0].startswith("self."))
    for key in scope.creation_order:
        symbol = scope.symbols.get(key)
        if symbol is not None and symbol.covered_by:
            continue  # listed through the list it was appended to (analysis/covered_variables)
        if symbol is None or symbol.kind not in (pm.VARIABLE, pm.VARIABLES) or (
                symbol.kind == pm.VARIABLES and not _plain_list(scope, scope.bindings[key][0])):
            return None  # trainable state in a layer or a dict: not named one by one here
        if key.startswith("self.") and key.count(".") == 1:
            attribute = key[len("self."):]
        elif key in analysis.init_locals:
            attribute = analysis.attribute_for(key)[len("self."):]
            graph.promoted[key] = attribute
        else:
            return None
        graph.variables.append((attribute, key in scope.trainable_order))
        if symbol.kind == pm.VARIABLES:
            graph.lists.append(attribute)
    return graph


def _plain_list(scope: "pm.Scope", symbol: "pm.Symbol") -> bool:
    """A list of variables bound by ``name = []`` (then filled by appends), the form ``split-build-loops`` makes."""
    node = scope.statements[symbol.index].node if 0 <= symbol.index < len(scope.statements) else None
    small = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
    return isinstance(small, cst.Assign) and isinstance(small.value, cst.List) and not small.value.elements
