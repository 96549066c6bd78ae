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

The constructions of a class in its module also say what its parameters hold where that decides what the class can
be: an object of a graph class (:func:`held_parameters`), or a TensorFlow function (:func:`function_parameters`,
``transfer_fct=tf.nn.softplus`` that no construction replaces, called by the class's graph as TensorFlow's).
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key, writes
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.names import target_names
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit


def held_graph_objects(cls: cst.ClassDef, scope: "pm.Scope", names: TFNames) -> Dict[str, str]:
    """``self.attribute`` -> the class of the object ``__init__`` binds it to (see the module's docstring): one it
    builds, or a parameter every construction of the class in the module fills with one (:func:`held_parameters`)."""
    graph_classes = (names.module_classes - {cls.name.value}) | set(names.tree_helpers.graph_classes)
    given = names.held_parameters.get(cls.name.value, {})
    found: Dict[str, str] = {}
    for st in scope.statements:
        targets, value = single(st.node) if isinstance(st.node, cst.SimpleStatementLine) else (None, None)
        if targets is None or len(st.defines) != 1:
            continue
        key = st.defines[0]
        owner = dotted_name(value.func) if isinstance(value, cst.Call) else \
            given.get(value.value) if isinstance(value, cst.Name) and value.value in scope.params else None
        if key.startswith("self.") and key.count(".") == 1 and owner in graph_classes:
            found[key] = owner
    counts: Dict[str, int] = {}
    for st in scope.statements:
        for key in st.defines:
            counts[key] = counts.get(key, 0) + 1
    methods = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value != "__init__"]
    rebound = {key for method in methods for key in writes(method.body)}
    return {key: owner for key, owner in found.items() if counts.get(key) == 1 and key not in rebound}


def held_parameters(module: cst.Module, names: TFNames) -> Dict[str, Dict[str, str]]:
    """Class of the module -> {parameter of its ``__init__`` -> the graph class of the object each construction of it
    in the module passes there}: a name bound once in the whole module, to an object of one graph class
    (``net = Network()`` ... ``Train(sess, net)``). A construction that passes anything else, or one whose arguments
    do not bind to the parameters, leaves the parameter out."""
    graph_classes = names.module_classes | set(names.tree_helpers.graph_classes)
    objects = _objects_bound_once(module, graph_classes)
    inits = {stmt.name.value: _init_params(stmt) for stmt in module.body
             if isinstance(stmt, cst.ClassDef) and stmt.name.value in names.module_classes}
    passed: Dict[str, Dict[str, Set[str]]] = {}
    for call, local in _calls_with_parameters(module):
        name = call.func.value if isinstance(call.func, cst.Name) else None
        if inits.get(name) is None:
            continue
        bound = bind(call, inits[name])
        for param in inits[name]:
            value = bound.get(param) if bound is not None else None
            owner = objects.get(value.value) if isinstance(value, cst.Name) and value.value not in local else None
            passed.setdefault(name, {}).setdefault(param, set()).add(owner or "")
    return {name: {param: next(iter(owners)) for param, owners in params.items()
                   if len(owners) == 1 and "" not in owners and owners != {name}} for name, params in passed.items()}


def function_parameters(module: cst.Module, names: TFNames) -> Dict[str, Set[str]]:
    """Class of the module -> the parameters of its ``__init__`` whose default is a TensorFlow function
    (``transfer_fct=tf.nn.softplus``) and that every construction of the class in the module leaves at it or fills
    with another TensorFlow function: what the class calls through them is TensorFlow's, not code the analysis cannot
    see into. A class the module never builds has none (another module may pass anything)."""
    defaults: Dict[str, Dict[str, cst.BaseExpression]] = {}
    for stmt in module.body:
        init = next((m for m in stmt.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"),
                    None) if isinstance(stmt, cst.ClassDef) and stmt.name.value in names.module_classes else None
        if init is not None and _init_params(stmt) is not None:
            defaults[stmt.name.value] = {p.name.value: p.default for p in init.params.params[1:]}
    given: Dict[str, Set[str]] = {name: {param for param, default in params.items()
                                         if default is not None and _tf_function(default, names)}
                                  for name, params in defaults.items()}
    built: Set[str] = set()
    for call, _ in _calls_with_parameters(module):
        name = call.func.value if isinstance(call.func, cst.Name) else None
        if name not in given:
            continue
        built.add(name)
        bound = bind(call, list(defaults[name]))
        given[name] = {param for param in given[name] if bound is not None and (
            param not in bound or _tf_function(bound[param], names))}
    return {name: params for name, params in given.items() if params and name in built}


def _tf_function(value: cst.BaseExpression, names: TFNames) -> bool:
    """A reference to a function of TensorFlow's API (``tf.nn.relu``, not a call, not a class such as a Keras layer)."""
    qualname = names.qualname(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
    return qualname is not None and qualname.startswith("tf.") and qualname.rsplit(".", 1)[-1][:1].islower()


def _calls_with_parameters(module: cst.Module) -> List[Tuple[cst.Call, Set[str]]]:
    """Each call of the module, with the parameters of the functions it stands in (names that are not the module's
    there)."""
    found: List[Tuple[cst.Call, Set[str]]] = []
    stack: List[Set[str]] = [set()]

    class _Calls(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            stack.append(stack[-1] | {p.name.value for p in node.params.params} | {
                p.name.value for p in node.params.kwonly_params})

        def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
            stack.pop()

        def visit_Call(self, node: cst.Call) -> None:
            found.append((node, stack[-1]))

    visit(module, _Calls())
    return found


def _init_params(cls: cst.ClassDef):
    """The parameters of the class's ``__init__`` after ``self`` (None: no ``__init__``, or one taking ``*args`` or
    ``**kwargs``)."""
    init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    if init is None or not isinstance(init.params.star_arg, cst.MaybeSentinel) or init.params.star_kwarg is not None:
        return None
    return [p.name.value for p in init.params.params[1:]]


def _objects_bound_once(module: cst.Module, graph_classes: Set[str]) -> Dict[str, str]:
    """Name -> graph class, for the names the module binds once in all its scopes, by ``name = Class(...)``
    (parameters left out: a call that passes one is read in its function, :func:`_calls_with_parameters`)."""
    bindings: Dict[str, List[object]] = {}

    class _Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            owner = dotted_name(node.value.func) if isinstance(node.value, cst.Call) and len(node.targets) == 1 \
                else None
            for target in node.targets:
                for name in target_names(target.target):
                    bindings.setdefault(name, []).append(owner if isinstance(target.target, cst.Name) else None)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._other(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._other(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._other(node.target)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            self._other(node.target)

        def visit_AsName(self, node: cst.AsName) -> None:
            self._other(node.name)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            self._other(node.target)

        def _other(self, target: cst.CSTNode) -> None:
            for name in target_names(target):
                bindings.setdefault(name, []).append(None)

    visit(module, _Bindings())
    return {name: owners[0] for name, owners in bindings.items()
            if len(owners) == 1 and owners[0] in graph_classes}


def held_object_blockers(cls: cst.ClassDef, held: Dict[str, str], run_sites) -> List[Tuple[cst.CSTNode, str]]:
    """Where the class's methods, ``__init__`` included, use a held object otherwise than by binding it, in a run of
    it (``run_sites``: the runs marked with it) or by calling a method of it (``self.q = f(self.actor.out)`` in
    ``__init__`` would build on a member the eager object may not have)."""
    in_runs: Set[int] = set()
    for site in run_sites:
        in_runs.update(id(node) for node in _held_mentions(site.call, held))
    found = []
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef):
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

        def visit_AssignTarget(self, target: cst.AssignTarget) -> bool:
            return False  # (the binding itself; held objects are bound once, in __init__)

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            if symbol_key(attribute) in held:
                if id(attribute) not in skipped:
                    found.append(attribute)
                return False
            return True

    skipped: Set[int] = set()
    visit(node, _Mentions())
    return found
