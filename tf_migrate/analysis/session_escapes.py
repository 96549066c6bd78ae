"""Where a scope hands its session to other code: that code still needs it, unless its eager form no longer
takes one (a function of the tree told so, or a method of a local class that only runs the graph with it)."""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.escapes import session_misuse, session_uses
from tf_migrate.analysis.instance_runs import run_session_parameter
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.tfnames import dotted_name


def check_session_escapes(c: Classifier) -> None:
    """A session handed to code outside this module: that code still needs it."""
    functions = dict(c.scope.outer_functions)  # (in a function: the module's functions too, whose runs it plans)
    functions.update((st.node.name.value, st.node) for st in c.scope.statements if isinstance(st.node, cst.FunctionDef))
    local = set(functions) | {st.node.name.value for st in c.scope.statements if isinstance(st.node, cst.ClassDef)} \
        | c.names.module_classes  # (a main guard or a function building an object of a class of the module)
    sessions = {k for k in c.scope.sessions if "." not in k}
    for st in c.scope.statements:
        if st.role == pm.REMOVE or isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue  # graph code (moved into the run functions) may pass one on too
        for call in all_calls(st.node):
            callee = call.func.value if isinstance(call.func, cst.Name) else None
            passed = [(index, arg) for index, arg in enumerate(call.args) if symbol_key(arg.value) in sessions]
            if callee in functions and passed:
                misuse = session_misuse(functions, callee, passed)
                if misuse:
                    c.block(call, f"`{callee}` uses the session it is given beyond running the graph (`{misuse}`); "
                                  "eager code has no session")
            if callee in local or any(site.call is call for site in st.run_sites):
                continue
            if passed and not _session_argument_dropped(call, passed, c.names.tree_helpers.sessions_given) \
                    and not _method_runs_it(c.scope, call, passed, c.names.tree_helpers.sessions_given):
                c.block(call, "a session passed to code outside this module, which still needs it")
        used = session_uses(st.node, st.run_sites, sessions)
        if used:
            c.block(st.node, f"`{used}` is used beyond running the graph (sess.graph, ...); "
                             "eager code has no session")


def _method_runs_it(scope: "pm.Scope", call: cst.Call, passed, given) -> bool:
    """``model.train_on_batch(sess, x)`` of an object of a local class whose method only runs the graph with it."""
    func = call.func
    owner = scope.instances.get(func.value.value) if isinstance(func, cst.Attribute) and isinstance(
        func.value, cst.Name) else None
    found = run_session_parameter(scope.class_defs[owner], func.attr.value) if owner in scope.class_defs else \
        given.get(f"{owner}#{func.attr.value}") if owner is not None else None  # another module's class, told
    return found is not None and all((arg.keyword.value == found[1]) if arg.keyword is not None
                                     else index == found[0] for index, arg in passed)


def _session_argument_dropped(call: cst.Call, passed, given) -> bool:
    """Whether every session argument of ``call`` fills the session parameter that the callee's eager form, in
    another module of the tree, no longer has (``given``: local name -> (position, name), project.session_imports)."""
    callee = dotted_name(call.func)
    if callee not in given:
        return False
    position, name = given[callee]
    return all((arg.keyword.value == name) if arg.keyword is not None else (index == position and not arg.star)
               for index, arg in passed)
