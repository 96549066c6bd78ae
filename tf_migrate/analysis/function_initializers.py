"""Initializer runs inside functions: TF1 initialized the variables at each call, eager code once.

    def reset(sess):
        sess.run(tf.global_variables_initializer())
    reset(sess); train(sess); reset(sess)        # TF1: the second call undoes the training

An initializer run of a function given the session (or of a ``main()`` that opens one: analysis/session_functions)
is dropped like one at module level, where eager variables are initialized when made. That is only faithful
where it is the scope's one initializer run, the first run of its function, the function is called once, and
nothing ran before that call: neither a run nor a call of a function that runs the graph. Otherwise the file
stays compat, with the reason at the run.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import find_run_sites
from tf_migrate.analysis.statement_facts import only_initializers
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.names import name_mentions

_WHY = ("an initializer run in a function, which TF1 ran at each call: here another initializer run, a second "
        "call or an earlier run would have it initialize trained variables again, which eager variables keep")


def check_function_initializers(c) -> None:
    """Block the initializer runs of the scope's functions that TF1 may have run on trained variables."""
    scope = c.scope
    functions = [st for st in scope.statements if isinstance(st.node, cst.FunctionDef)]
    sites: Dict[str, list] = {st.node.name.value: _all_sites(c, st) for st in functions}
    inits = {name: [s for s in found if only_initializers(s.fetch, c.kind_of)] for name, found in sites.items()}
    scope_inits = sum(1 for st in scope.statements if st.role == pm.REMOVE and st.run_sites)
    if not any(inits.values()):
        return
    running = {name for name, found in sites.items() if any(not only_initializers(s.fetch, c.kind_of) for s in found)}
    alone = scope_inits == 0 and sum(len(found) for found in inits.values()) == 1  # the scope's one initializer run
    for st in functions:
        name = st.node.name.value
        if not inits[name]:
            continue
        if id(st.node) in scope.session_functions:  # (a main(): session_only checked how it is called)
            faithful = alone
        else:
            callers = [other for other in scope.statements if other is not st and name_mentions(other.node, name)]
            faithful = (alone and sites[name][0] is inits[name][0] and len(callers) == 1
                        and sum(name_mentions(other.node, name) for other in callers) == 1
                        and _nothing_runs_before(c, callers[0], name, running))
        if not faithful:
            c.block(inits[name][0].call, _WHY)
            return


def _all_sites(c, st: "pm.Statement") -> list:
    """Every run of the function ``st`` defines, its initializer runs included, in text order."""
    sessions: Set[str] = c.scope.session_functions.get(id(st.node), set())
    return find_run_sites(st.node, lambda e: c.is_session(e) or symbol_key(e) in sessions, c.kind_of)


def _nothing_runs_before(c, caller: "pm.Statement", name: str, running: Set[str]) -> bool:
    """Whether no statement before ``caller`` runs the graph, nor does ``caller`` before it calls ``name``."""
    for st in c.scope.statements[:caller.index]:
        if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue  # (a body runs when called)
        if any(not only_initializers(s.fetch, c.kind_of) for s in st.run_sites) or _calls_any(st.node, running):
            return False
    site_calls = {id(s.call) for s in _caller_sites(c, caller)}
    for call in all_calls(caller.node):
        if isinstance(call.func, cst.Name) and call.func.value == name:
            return True
        if id(call) in site_calls or (isinstance(call.func, cst.Name) and call.func.value in running):
            return False
    return True


def _caller_sites(c, caller: "pm.Statement") -> List:
    if isinstance(caller.node, cst.FunctionDef):
        return [s for s in _all_sites(c, caller) if not only_initializers(s.fetch, c.kind_of)]
    return [s for s in caller.run_sites if not only_initializers(s.fetch, c.kind_of)]


def _calls_any(node: cst.CSTNode, names: Set[str]) -> bool:
    return any(isinstance(call.func, cst.Name) and call.func.value in names for call in all_calls(node))
