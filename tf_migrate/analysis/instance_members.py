"""Code outside a class reading what the converted class no longer has.

A class whose ``__init__`` builds the graph converts to one whose runs are generated methods:
its session attribute is gone, and per-run members (``self.q = tf.matmul(...)``, a collection
list ``self.params``) become locals of those methods. Module code that reads them through an
instance (``agent.sess.run(agent.q, ...)``, ``print(agent.params)``) would fail after the
rewrite, so such a read keeps the file in compat mode, with the reason at its line.
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class
from tf_migrate.analysis.imported_runs import is_imported, outside_member_blockers, passed_on_blockers
from tf_migrate.analysis.instance_runs import feed_literals
from tf_migrate.traversal import visit


def member_blockers(scope: "pm.Scope", names, layer_scopes=None) -> List[Tuple[cst.CSTNode, str]]:
    """Where code of ``scope`` reads a member that an instance's converted class drops, and why."""
    found: List[Tuple[cst.CSTNode, str]] = []
    if not scope.instances:
        return found
    gone_by_class: Dict[str, Dict[str, str]] = {}
    in_class_runs = _class_runs(scope)
    imported_reads = []  # of objects of another module's class
    run_here = {site.instance_class for st in scope.statements for site in st.run_sites if site.instance is not None}
    owners = set(scope.instances.values())
    for st in scope.statements:
        if st.role not in (pm.KEEP, pm.RUN) or isinstance(st.node, cst.ClassDef) and st.node.name.value in owners:
            continue  # (a graph class's own methods: the class analysis reads them)
        for instance, attribute, read in _instance_attributes(st.node, scope.instances, in_class_runs):
            owner = scope.instances[instance]
            if is_imported(owner, scope):  # asked of its module where its graph runs here (imported_runs)
                if owner in run_here:
                    imported_reads.append((st.node, instance, attribute))
                continue
            if owner not in gone_by_class:
                gone_by_class[owner] = _gone_members(scope.class_defs[owner], names, layer_scopes)
            why = gone_by_class[owner].get(attribute)
            if why is not None:
                found.append((read, f"`{instance}.{attribute}` is read outside the class, and the converted "
                                       f"`{owner}` has no `{attribute}`: {why}"))
    return found + outside_member_blockers(scope, names, imported_reads) + passed_on_blockers(scope, run_here)


def _class_runs(scope: "pm.Scope") -> Set[int]:
    """The fetches and feed keys of the scope's runs of a class's graph (the class's generated methods
    read those members; analysis/instance_runs), and of its own runs where it knows objects' members."""
    parts: Set[int] = set()
    for st in scope.statements:
        for site in st.run_sites:
            if site.instance is not None or scope.object_graphs:  # or runs of the scope's own, on its objects'
                # members (analysis/object_members: planned here, they read each member they name as a value)
                parts.add(id(site.fetch))
                parts.update(id(e.key) for literal in feed_literals(site, scope) for e in literal.elements
                             if isinstance(e, cst.DictElement))
    return parts


def _instance_attributes(node: cst.CSTNode, instances: Dict[str, str], skipped: Set[int] = frozenset()):
    found = []

    class _Reads(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            return id(node) not in skipped and super().on_visit(node)

        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if isinstance(attribute.value, cst.Name) and attribute.value.value in instances:
                found.append((attribute.value.value, attribute.attr.value, attribute))

    visit(node, _Reads())
    return found


def _gone_members(cls: cst.ClassDef, names, layer_scopes) -> Dict[str, str]:
    """Members of ``cls`` that its conversion drops -> why."""
    analysis = analyze_class(cls, names, layer_scopes)
    scope = analysis.scope
    gone: Dict[str, str] = {}
    kept: Set[str] = set()
    for st in scope.statements:
        for key in st.defines:
            if not key.startswith("self."):
                continue
            attribute = key[len("self."):]
            if st.role == pm.KEEP:
                kept.add(attribute)
            elif st.role == pm.REMOVE and key in scope.sessions:
                gone[attribute] = "its session is gone (eager code has none)"
            elif st.role in (pm.DEFER, pm.REMOVE):
                gone.setdefault(attribute, "a per-run value, local to the generated methods")
    return {attribute: why for attribute, why in gone.items() if attribute not in kept}


