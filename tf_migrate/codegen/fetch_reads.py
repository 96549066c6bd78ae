"""Fetched variables are read before the run's updates: the documented order of generated functions.

TF1 gives ``sess.run([update, cost, W])`` no order between the update of ``W`` and the read of ``W``
(REFERENCE.md, "Running legacy code"); in practice it read first, and the values computed from ``W``
in the same run (``cost``) are read first in the generated function too, because they come before the
update in program order. A variable returned from the function as it is would be read last, after
the update: one run would mix both orders. So a fetched variable, or the variables of a fetched
``compute_gradients`` list, are read into a fresh name before the first update, and the return
names that read:

    def run_update_cost_W(X, Y):
        W_read = W.read_value()
        ...
        update = W.assign(descent)
        return [update, cost, W_read]
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, symbol_key

# Calls that write variables: variable methods and the optimizer steps that apply gradients.
_WRITES = (api.VARIABLE_WRITE_METHODS - {"load"}) | {"apply_gradients", "minimize"}
_TF_WRITES = {"tf.assign", "tf.assign_add", "tf.assign_sub", "tf.scatter_update", "tf.scatter_add",
              "tf.scatter_sub", "tf.compat.v1.assign", "tf.compat.v1.assign_add", "tf.compat.v1.assign_sub"}


def first_update(statements: List["pm.Statement"], names) -> Optional[int]:
    """Position in ``statements`` of the first that writes a variable, else None."""
    for position, st in enumerate(statements):
        for call in all_calls(st.node):
            if (isinstance(call.func, cst.Attribute) and call.func.attr.value in _WRITES) or (
                    names.call_name(call) in _TF_WRITES):
                return position
    return None


def fetched_variables(fetch: cst.BaseExpression, view: "pm.Scope") -> List[Tuple[str, str]]:
    """(key, kind) of the fetch structure's leaves that are variables or (gradient, variable) lists."""
    found: List[Tuple[str, str]] = []

    def walk(expr: cst.BaseExpression) -> None:
        if isinstance(expr, (cst.List, cst.Tuple)):
            for element in expr.elements:
                walk(element.value)
        elif isinstance(expr, cst.Dict):
            for element in expr.elements:
                if isinstance(element, cst.DictElement):
                    walk(element.value)
        else:
            key = symbol_key(expr)
            kind = view.kind(key) if key is not None else None
            if kind in (pm.VARIABLE, pm.GRADS_AND_VARS) and (key, kind) not in found:
                found.append((key, kind))

    walk(fetch)
    return found


def read_lines(key: str, kind: str, target: str) -> str:
    """The statement that reads ``key``'s variables into ``target``."""
    if kind == pm.VARIABLE:
        return f"{target} = {key}.read_value()"
    return f"{target} = [(grad, var.read_value()) for grad, var in {key}]"


def plan_reads(statements: List["pm.Statement"], fetch: cst.BaseExpression, view: "pm.Scope", names,
               fresh) -> Tuple[List[str], Dict[int, List[str]], Dict[str, str]]:
    """(reads at the function's start, reads after the statement at each index, key -> the read's name).

    Empty when the run updates no variable or fetches none: then nothing changes."""
    update = first_update(statements, names)
    if update is None:
        return [], {}, {}
    defined_at = {key: st.index for position, st in enumerate(statements) for key in st.defines}
    positions = {st.index: position for position, st in enumerate(statements)}
    at_start: List[str] = []
    after: Dict[int, List[str]] = {}
    renamed: Dict[str, str] = {}
    for key, kind in fetched_variables(fetch, view):
        where = defined_at.get(key)
        if where is not None and positions[where] >= update:
            continue  # bound by the update or after it: already the updated value, as program order gives
        target = fresh(f"{key.replace('.', '_')}_read")
        renamed[key] = target
        (at_start if where is None else after.setdefault(where, [])).append(read_lines(key, kind, target))
    return at_start, after, renamed
