"""What eager code cannot hold, and the TF1 plumbing it drops: the classifier's API checks and plumbing roles.

* :func:`check_api` blocks the calls eager code has no form for (an unresolved ``tf.get_variable`` lookup, an API
  only TF1 has, ``v.load(value, sess)`` that writes at once, ``tf.gradients`` in a nested function a tape cannot
  record, variables made with ``reuse=``).
* :func:`classify_plumbing` gives sessions, graphs, initializer runs, ``sess.close()`` and graph-mode
  configuration their roles: removed, or kept where they configure eager code too.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.session_setters import sets_session
from tf_migrate.analysis.statement_facts import NestedFunctions, initializes, only_initializers
from tf_migrate.cst.text import code
from tf_migrate.traversal import all_nodes, visit


def check_api(classifier, node: cst.CSTNode, calls: List[cst.Call]) -> None:
    """Block the calls eager code has no form for: unresolved get_variable lookups, APIs only TF1 has, `v.load`,
    gradients in nested functions, variables made with reuse=."""
    for call, qualname in ((call, classifier.names.call_name(call)) for call in calls):
        if qualname == "tf.get_variable":
            classifier.block(call, "tf.get_variable lookup that could not be resolved to a variable")
        elif qualname in api.QUEUES and (classifier.scope.is_class or isinstance(node, (cst.FunctionDef, cst.ClassDef))):
            classifier.block(call, "a queue built in a class or in a helper function: the analysis follows queues "
                                   "that a program's own scope builds and binds to a name")
        elif qualname is not None and api.is_compat_only(qualname):
            classifier.block(call, f"`{qualname}` has no eager rewrite in tf-migrate yet")  # (report.GENERIC_REASON)
        elif qualname is not None and api.is_unmodelled_class(qualname):
            classifier.block(call, f"`{qualname}` builds an object the analysis has no model of: its methods may "
                                   "build ops that TF1 ran at each run (eager code would run them once, where built)")
        elif qualname is None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "load" \
                and classifier.kind_of(call.func.value) == "tensor":
            classifier.block(call, f"`{code(call.func)}` writes the variable at once, in the session (not an op "
                             "a run fetches): no eager rewrite in tf-migrate yet")
    if classifier.scope.queue_keys and isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        queue = next((n for n in all_nodes(node) if isinstance(n, cst.Name)
                      and classifier.scope.kind(n.value) == pm.QUEUE), None)
        if queue is not None:
            classifier.block(queue, f"the queue `{queue.value}` is used in a function or class: where its ops run "
                                    "then is not followed")
    nested = NestedFunctions()
    visit(node, nested)
    for call in nested.calls:
        if classifier.names.call_name(call) in api.GRADIENTS:
            classifier.block(call, "tf.gradients inside a lambda or nested function: a tape cannot record it")
    creates_variables = any(classifier.names.call_name(c) in api.VARIABLE_CONSTRUCTORS for c in calls)
    for call in (c for c in calls if creates_variables
                 and any(a.keyword and a.keyword.value == "reuse" for a in c.args)):
        classifier.block(call, "variable reuse (reuse=...) needs the variable-scope rule")


def classify_plumbing(classifier, st, value) -> bool:
    """Session, graph and initializer plumbing, and graph-mode configuration: the statement's role (True when it is
    one of those)."""
    if isinstance(value, cst.Call) and st.defines == []:
        qualname = classifier.names.call_name(value)
        if qualname in api.GRAPH_MODE_CONFIG_CALLS or qualname in api.EAGER_CONFIG_CALLS:
            st.role = pm.REMOVE if qualname in api.GRAPH_MODE_CONFIG_CALLS else pm.KEEP
            return True
        func = value.func
        if (isinstance(func, cst.Attribute) and func.attr.value == "close" and classifier.is_session(func.value)) \
                or sets_session(value, classifier.scope, classifier.is_session,
                                classifier.names.tree_helpers.sessions_given):
            st.role = pm.REMOVE
            return True
        if st.run_sites and len(st.run_sites) == 1 and st.run_sites[0].call is value:
            if only_initializers(st.run_sites[0].fetch, classifier.kind_of) and st.run_sites[0].style != "eval":
                st.role = pm.REMOVE
                return True
    if isinstance(value, cst.Call) and st.defines:
        qualname = classifier.names.call_name(value)
        if qualname in api.SESSIONS:
            if qualname in api.SESSIONS_WITH_HOOKS:
                classifier.block(value, f"`{qualname}` runs hooks and recovery; no eager equivalent")
            classifier.scope.sessions.update(st.defines)
            st.role = pm.REMOVE
            classifier.define(st, pm.SESSION)
            return True
        if qualname in api.GRAPHS or (isinstance(value.func, cst.Attribute)
                                      and value.func.attr.value == "as_default"):
            st.role = pm.REMOVE
            classifier.define(st, pm.GRAPH)
            return True
        if initializes(value, classifier.names, classifier.scope):
            st.role = pm.REMOVE
            classifier.define(st, pm.INIT)
            return True
    return False
