"""State a class's ``__init__`` changes outside the object: kept where it stood, at build time.

    class Agent:
        made = []

        def __init__(self):
            w1 = tf.Variable(...)
            t_params = Agent.made + [w1]      # what every instance made before, and this one's
            Agent.made += [w1]                # every instance adds its own

A converted class builds its graph once per instance in ``__init__`` and moves per-run statements into the
methods it generates, which run them at each call (traced once). A statement that changes something the
object does not own (a class attribute, a module's list, ``registry.append(w)``) ran once, when TF1 built the
instance; deferred, it would run at each call, or never. A statement that reads such state read it at build
time; deferred, it would read it when first traced, after later instances changed it. Both stay in ``__init__``
(a Python value made of variables and plain values), and where they compute on per-run tensors the class stays
compat, with the reason at the line.
"""
from __future__ import annotations

from typing import Iterable, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import bound_names, writes

_OWN_KINDS = {pm.VARIABLE, pm.VARIABLES, pm.LAYER, pm.EAGER, pm.PYTHON, pm.OPTIMIZER}


def outside_keys(statements: Iterable[cst.CSTNode], params: Set[str], modules: Set[str]) -> Set[str]:
    """The names of state outside the scope that ``statements`` change: bases of attribute, subscript and
    mutating-call targets (``Agent.made += ...``, ``registry.append(w)``) that the scope does not bind itself
    (``modules``: the module aliases, ``tf`` of ``tf.add(a, b)``, are not state)."""
    statements = list(statements)
    local = set(params) | set(modules) | {"self"}
    for statement in statements:
        local.update(bound_names(statement))
    return {key for statement in statements for key in writes(statement)
            if "." not in key and key not in local}


def kept_for_outside_state(classifier, st: "pm.Statement", outside: Set[str]) -> bool:
    """Classify ``st`` as kept at build time when it changes or reads ``outside`` state (True: classified)."""
    keys = set(st.defines) | set(st.reads)
    touched = sorted(key for key in keys if key.split(".")[0] in outside)
    if not touched:
        return False
    scope = classifier.scope
    per_run = sorted(k for k in st.reads if scope.kind(k) is not None and scope.kind(k) not in _OWN_KINDS)
    if per_run:
        classifier.block(st.node, f"`{touched[0]}`, state outside the object that __init__ changes, meets the "
                                  f"per-run value `{per_run[0]}` here: kept at build time it would not run at "
                                  "each step, and run at each step it would change that state again")
    binds_local = st.defines and not any(key.split(".")[0] in outside for key in st.defines)
    holds_variables = any(scope.kind(k) in (pm.VARIABLE, pm.VARIABLES) for k in st.reads)
    st.role = pm.KEEP
    classifier.define(st, pm.VARIABLES if holds_variables and binds_local else pm.PYTHON)
    if holds_variables and not binds_local and isinstance(st.node, cst.SimpleStatementLine) \
            and isinstance(st.node.body[0], cst.AugAssign):  # `Agent.made += [w1]`: a list of variables on the class
        for key in st.defines:
            scope.bind(pm.Symbol(key, pm.VARIABLES, st.index))
    return True

