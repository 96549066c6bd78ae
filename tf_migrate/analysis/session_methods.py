"""Methods that build a graph and run it in a session they open themselves: scopes of their own.

    class ANN(object):
        def __init__(self, hidden_layer_sizes):
            self.hidden_layer_sizes = hidden_layer_sizes

        def fit(self, X, Y, epochs=15):
            self.layers = [HiddenLayer(M1, M2) for ...]        (variables, on the object)
            inputs = tf.placeholder(tf.float32, (None, D))
            cost = ...(self.forward(inputs))
            train_op = tf.train.AdamOptimizer(lr).minimize(cost)
            with tf.Session() as session:
                session.run(tf.global_variables_initializer())
                for i in range(epochs):
                    session.run(train_op, feed_dict={inputs: X, ...})

        def forward(self, X):
            ...                                                (TF ops on what it is given)

The course shape of a scikit-learn-like model: ``fit`` is a program of its own, as a ``main()`` that opens its
session is (``analysis/session_functions``): it converts as a function scope whose parameters include ``self``
(its run functions are defined in it, its session goes). The class's other methods are its helpers: they may
compute on graph values (``self.forward``), so none of them may make variables (in TF1 each call made new ones;
a run function calling one would make them at each run) nor run a graph.

A method is such a scope when it opens a session (not one kept on the object) and the class's ``__init__`` calls
no TensorFlow: the object holds no graph outside the method. Only classes of the module's top level (plain
classes, no base but ``object``) are read so.
"""
from __future__ import annotations

from typing import List, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, symbol_key, target_keys, writes
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit


def session_methods(cls: cst.ClassDef, names: TFNames) -> Tuple[List[cst.FunctionDef], List[Tuple[cst.CSTNode, str]]]:
    """The methods of ``cls`` that are scopes of their own, and why the class's other methods keep the file compat
    ([] when none does; both empty when the class has no such method)."""
    if any(dotted_name(base.value) != "object" for base in cls.bases) or cls.keywords:
        return [], []
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    init = next((m for m in methods if m.name.value == "__init__"), None)
    if init is not None and any(names.call_name(call) is not None for call in all_calls(init.body)):
        return [], []
    own = [m for m in methods if m is not init and not m.decorators and _opens_session(m, names)]
    if not own:
        return [], []
    if len(own) > 1:  # (the second's initializer run reset the variables the first trained, or it failed)
        return own, [(own[1], f"`{own[0].name.value}` and `{own[1].name.value}` each open a session on the "
                              "object's graph: TF1 initialized or restored its variables in each")]
    blockers = []
    for method in methods:
        if method is init or method in own:
            continue
        why = _makes_or_runs(method, names)
        if why:
            blockers.append((method, f"`{method.name.value}`, a helper of the graph `{own[0].name.value}` builds, "
                                     f"{why}"))
    return own, blockers


def _opens_session(method: cst.FunctionDef, names: TFNames) -> bool:
    """Whether ``method`` opens a session it keeps to itself (``with tf.Session() as s`` or ``s = tf.Session()``, and
    neither the session nor the name it is bound to stored on the object)."""
    opened, aliases, kept = [False], set(), [False]

    class _Sessions(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            targets = set(writes(node))
            if _session(node.value, names):
                opened[0] = True
                aliases.update(targets)
            if (_session(node.value, names) or symbol_key(node.value) in aliases) and any(
                    key.startswith("self.") for key in targets):
                kept[0] = True

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if _session(node.item, names):
                opened[0] = True
                if node.asname is not None:
                    aliases.update(target_keys(node.asname.name))

    visit(method.body, _Sessions())
    return opened[0] and not kept[0]


def _session(node: cst.BaseExpression, names: TFNames) -> bool:
    return isinstance(node, cst.Call) and names.call_name(node) in api.SESSIONS


def _makes_or_runs(method: cst.FunctionDef, names: TFNames) -> str:
    for call in all_calls(method.body):
        qualname = names.call_name(call) or ""
        callee = call.func.value if isinstance(call.func, cst.Name) else None
        if qualname in api.VARIABLE_CONSTRUCTORS | api.PLACEHOLDERS or qualname.startswith("tf.layers.") \
                or api.builds_keras_variables(qualname) or callee in names.variable_holders \
                or callee in names.variable_makers:
            return "makes variables or placeholders: TF1 made them at each call"
        if qualname in api.SESSIONS or (isinstance(call.func, cst.Attribute) and call.func.attr.value in (
                "run", "eval") and qualname == ""):
            return "runs a graph"
    return ""


def kept_per_run(scope: "pm.Scope", method: cst.FunctionDef) -> List[Tuple[cst.CSTNode, str]]:
    """Per-run values the method keeps on the object (``self.logits = logits``): its other methods or its users would
    read a graph tensor, which the eager method computes only inside its run functions."""
    kept = sorted(key for key, symbol in scope.symbols.items() if key.startswith("self.") and symbol.kind in
                  pm.DEFERRED_KINDS)
    return [(method, f"`{method.name.value}` keeps the per-run value `{kept[0]}` on the object: the eager method "
                     "computes it only inside its run functions")] if kept else []


def outer_variables_reset(outer: "pm.Scope", method: cst.FunctionDef) -> List[Tuple[cst.CSTNode, str]]:
    """Variables of the scope around the class, which the method's initializer run (``global_variables_initializer``)
    initialized again in TF1, where eager variables keep what they hold."""
    made = [key for key in outer.creation_order if key in outer.symbols]
    return [(method, f"`{method.name.value}` opens a session whose initializer run reset `{made[0]}`, a variable of "
                     "the code around the class, in TF1")] if made else []
