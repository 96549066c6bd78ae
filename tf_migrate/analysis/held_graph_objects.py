"""Objects of a graph class that another class holds and runs: a trainer.

    class Train:                                      # model.py (or this module): class Network, whose
        def __init__(self):                           # __init__ builds placeholders x, label and ops train, loss
            self.net = Network()
            self.sess = tf.Session()
            self.sess.run(tf.global_variables_initializer())

        def train(self):
            _, loss = self.sess.run([self.net.train, self.net.loss], feed_dict={self.net.x: x, self.net.label: y})

``Train`` builds no graph itself: its runs are runs of ``self.net``'s graph, as ``sess.run(net.train, ...)`` is for
an object ``net = Network()`` of a module scope (:mod:`tf_migrate.analysis.instance_runs`, and for another module's
class :mod:`tf_migrate.analysis.imported_runs`). Each is planned in ``Network``'s scope, written with ``self`` for
the object, and becomes a call of the method ``Network`` generates, on ``self.net``: the holder keeps no session.

A held object is an attribute ``__init__`` binds once, to an object of a class of this module (not the holder) or
of a graph class of the tree, and no other method binds again. Its members are read only in runs of it: anything
else (``self.net.x`` read outside a run, ``self.net`` passed on) keeps the module compat, with the reason there, as
the eager class may have dropped that member (a placeholder, a per-run tensor).
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key, writes
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit


def held_graph_objects(cls: cst.ClassDef, scope: "pm.Scope", names: TFNames) -> Dict[str, str]:
    """``self.attribute`` -> the class of the object ``__init__`` binds it to (see the module's docstring)."""
    graph_classes = (names.module_classes - {cls.name.value}) | set(names.tree_helpers.graph_classes)
    found: Dict[str, str] = {}
    for st in scope.statements:
        targets, value = single(st.node) if isinstance(st.node, cst.SimpleStatementLine) else (None, None)
        if targets is None or len(st.defines) != 1 or not isinstance(value, cst.Call):
            continue
        key, owner = st.defines[0], dotted_name(value.func)
        if key.startswith("self.") and key.count(".") == 1 and owner in graph_classes:
            found[key] = owner
    counts: Dict[str, int] = {}
    for st in scope.statements:
        for key in st.defines:
            counts[key] = counts.get(key, 0) + 1
    methods = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value != "__init__"]
    rebound = {key for method in methods for key in writes(method.body)}
    return {key: owner for key, owner in found.items() if counts.get(key) == 1 and key not in rebound}


def held_object_blockers(cls: cst.ClassDef, held: Dict[str, str], run_sites) -> List[Tuple[cst.CSTNode, str]]:
    """Where the class's methods use a held object otherwise than in a run of it (``run_sites``: the runs marked
    with it) or than by calling a method of it."""
    in_runs: Set[int] = set()
    for site in run_sites:
        in_runs.update(id(node) for node in _held_mentions(site.call, held))
    found = []
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef) or method.name.value == "__init__":
            continue
        for node in _held_mentions(method, held, calls_allowed=True):
            if id(node) not in in_runs:
                key = symbol_key(node) or ""
                found.append((node, f"`{key}`, an object of `{held[key]}` that this class runs, is used otherwise "
                                    f"than in runs of its graph in method `{method.name.value}`: the converted "
                                    "class may no longer have what it reads"))
    return found


def _held_mentions(node: cst.CSTNode, held: Dict[str, str], calls_allowed: bool = False) -> List[cst.Attribute]:
    """The ``self.attribute`` expressions of held objects in ``node`` (not those called as ``self.net.m(...)``
    where ``calls_allowed``: a method of the object, which the converted class keeps)."""
    found: List[cst.Attribute] = []

    class _Mentions(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            func = call.func
            if calls_allowed and isinstance(func, cst.Attribute) and symbol_key(func.value) in held:
                skipped.add(id(func.value))

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            if symbol_key(attribute) in held:
                if id(attribute) not in skipped:
                    found.append(attribute)
                return False
            return True

    skipped: Set[int] = set()
    visit(node, _Mentions())
    return found
