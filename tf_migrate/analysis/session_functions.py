"""Functions that only open a session on the module's graph: their runs are the module's.

    x = tf.placeholder(tf.float32, [None, 2])            x = ... (the graph, as the module converts it)
    loss = ...                                           def run_train_loss(x): ...
    train = tf.train.GradientDescentOptimizer(...)
                                                  ->     def main(_):
    def main(_):                                             for i in range(5):
        with tf.Session() as sess:                               _, l = to_numpy(call_compiled(run_train_loss, x=...))
            sess.run(tf.global_variables_initializer())
            for i in range(5):
                _, l = sess.run([train, loss], {x: ...})

TF1 scripts often build the graph at module level and open the session in ``main()`` (``tf.app.run()``). Such a
function is no scope of its own: it builds nothing, so its runs are planned on the module's graph like those of a
function given the session, and its session plumbing goes (the ``with tf.Session() as sess:`` block is unwrapped;
``sess = tf.Session()``, initializer runs and ``sess.close()`` are removed: eager variables are initialized where
they are made). A function that also builds graph values (placeholders, ops, a Saver) stays a scope of its own.
"""
from __future__ import annotations

import builtins

from typing import List, Optional, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.escapes import session_misuse
from tf_migrate.analysis.run_sites import find_run_sites
from tf_migrate.analysis.statement_facts import only_initializers
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.names import name_mentions
from tf_migrate.tfnames import TFNames

_BUILTINS = set(dir(builtins))
# Libraries whose calls build no TF graph value.
_LIBRARIES = {"numpy", "os", "sys", "time", "math", "random", "json", "pickle", "collections", "itertools",
              "matplotlib", "argparse", "logging", "datetime", "re", "glob", "shutil", "csv", "pandas", "scipy",
              "sklearn", "PIL", "gym", "functools", "pathlib", "tempfile", "copy", "string", "io", "six", "tqdm"}
# TF calls such a function may make besides its sessions' runs: plumbing that eager code drops or keeps as it is.
_PLUMBING = api.SESSIONS | api.INITIALIZER_OPS | api.GRAPH_MODE_CONFIG_CALLS | api.EAGER_CONFIG_CALLS | {
    "tf.ConfigProto", "tf.GPUOptions", "tf.app.run"}


def session_only(function: cst.FunctionDef, names: TFNames, statements: Sequence[cst.CSTNode],
                 scope: "pm.Scope") -> bool:
    """Whether ``function`` opens one session on the graph of the block whose ``statements`` define it, once, and
    builds no graph value of its own (every TF call is a session, an initializer, configuration, or a host call such
    as ``tf.gfile``): TF1 initialized the variables once, as eager code does. Not when the block opens another
    session, the function is called more than once or opens its session in a loop (each opening ran the
    initializer again on trained variables), or runs an initializer after another run (checked at
    :func:`first_run_initializes`)."""
    if sum(names.call_name(call) in api.SESSIONS for call in all_calls(function)) != 1 or \
            not _builds_nothing(function, names, statements, scope, set()):
        return False
    if any(names.call_name(c) in api.SESSIONS for loop in _loops(function) for c in all_calls(loop)):
        return False
    others = [node for node in statements if node is not function]
    if any(names.call_name(c) in api.SESSIONS for node in others for c in all_calls(node)):
        return False
    return sum(name_mentions(node, function.name.value) for node in others) <= 1


def _builds_nothing(function: cst.FunctionDef, names: TFNames, statements: Sequence[cst.CSTNode], scope: "pm.Scope",
                    seen: Set[str]) -> bool:
    """Whether nothing ``function`` calls may build graph values: its TF calls are plumbing or host calls, it calls
    no class of the module and nothing imported but from known libraries (numpy, os...), only functions of the
    module that build nothing either, and methods of no object of a graph class (of sessions, graph values, data)."""
    if any(isinstance(node, (cst.FunctionDef, cst.ClassDef)) for node in function.body.body):
        return False
    defined = {node.name.value: node for node in statements if isinstance(node, (cst.FunctionDef, cst.ClassDef))}
    for call in all_calls(function):
        qualname = names.call_name(call)
        if qualname is not None and qualname.startswith("tf."):
            if not (qualname in _PLUMBING or qualname.startswith(api.HOST_CALL_PREFIXES)):
                return False
            continue
        root = call.func
        while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
            root = root.value if not isinstance(root, cst.Call) else root.func
        head = root.value if isinstance(root, cst.Name) else None
        if head in names.aliases:
            if names.aliases[head].split(".")[0] not in _LIBRARIES | {"tensorflow"}:  # (TF calls: checked above)
                return False  # another module's code (a model, a helper) may build graph values
        elif isinstance(call.func, cst.Name) and head in defined:
            callee = defined[head]
            if isinstance(callee, cst.ClassDef) or (head not in seen and not _builds_nothing(
                    callee, names, statements, scope, seen | {function.name.value, head})):
                return False
        elif isinstance(call.func, cst.Name) and head not in _BUILTINS:
            return False
        elif head in scope.instances or scope.kind(head or "") == pm.LAYER:
            return False  # a method of an object of a graph class, or a layer
    return True


def first_run_initializes(sites, kind_of) -> bool:
    """Whether only the first of a session function's runs (in text order) may run initializers."""
    return not any(only_initializers(site.fetch, kind_of) for site in sites[1:])


def _loops(function: cst.FunctionDef) -> List[cst.CSTNode]:
    found: List[cst.CSTNode] = []

    class _Loops(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            found.append(node)

        def visit_While(self, node: cst.While) -> None:
            found.append(node)

    function.visit(_Loops())
    return found


def local_sessions(function: cst.FunctionDef, names: TFNames) -> Set[str]:
    """The names ``function`` binds to the sessions it opens (``sess = tf.Session()``, ``with tf.Session() as s``)."""
    found: Set[str] = set()

    class _Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and names.call_name(node.value) in api.SESSIONS:
                found.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if isinstance(node.item, cst.Call) and names.call_name(node.item) in api.SESSIONS and \
                    node.asname is not None and isinstance(node.asname.name, cst.Name):
                found.add(node.asname.name.value)

    function.visit(_Bindings())
    return found


def own_session_runs(function: cst.FunctionDef, scope: "pm.Scope", names: TFNames, statements: Sequence[cst.CSTNode],
                     is_session, kind_of) -> Optional[list]:
    """The runs of ``function`` on ``scope``'s graph when it is a session-only function of it (its sessions
    registered in ``scope.session_functions``); None when it is a scope of its own."""
    if scope.is_class or not session_only(function, names, statements, scope):
        return None  # (a function with placeholders or ops of its own: its runs are not looked for here)
    sessions = local_sessions(function, names)  # (``with tf.Session() as s``: any name)
    helpers = {node.name.value: node for node in statements if isinstance(node, cst.FunctionDef)}
    for call in all_calls(function):  # a helper given the session uses it beyond running: a scope of its own,
        callee = call.func.value if isinstance(call.func, cst.Name) else None  # whose check says why
        passed = [(index, arg) for index, arg in enumerate(call.args) if symbol_key(arg.value) in sessions]
        if callee in helpers and passed and session_misuse(helpers, callee, passed):
            return None
    sites = find_run_sites(function, lambda e: is_session(e) or symbol_key(e) in sessions, kind_of)
    if not first_run_initializes(sites, kind_of):
        return None
    scope.session_functions[id(function)] = sessions
    return [site for site in sites if not only_initializers(site.fetch, kind_of)]
