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

The same holds for the variables a fetched structure built after the update holds (the summaries rule's merged
dict, ``merged = {'w': W, 'h1': weights['h1']}``): they are read before the update, and the structure holds the
reads (:func:`plan_reads`).
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.text import code

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


def _struct_leaves(fetch: cst.BaseExpression, view: "pm.Scope", statements: List["pm.Statement"]):
    """(index of the statement that builds it, leaf, the key it reads) of the variables read by the entries of a
    structure the fetch names (``merged``) and a statement of the run builds as a literal: a variable (``W``,
    ``tf.reduce_mean(W)``) or an entry of a list or dict of them with a literal index (``weights['h1']``)."""
    keys = [symbol_key(e.value) for e in getattr(fetch, "elements", [])] if isinstance(fetch, (cst.List, cst.Tuple)) \
        else [symbol_key(fetch)]
    found = []
    for st in statements:
        targets = [k for k in keys if k is not None and k in st.defines and view.kind(k) == pm.STRUCT]
        value = st.node.body[0].value if targets and isinstance(st.node, cst.SimpleStatementLine) and \
            isinstance(st.node.body[0], cst.Assign) else None
        elements = value.elements if isinstance(value, (cst.Dict, cst.List, cst.Tuple)) else []
        for element in elements:
            if getattr(element, "value", None) is not None:
                found += [(st.index, leaf, key) for leaf, key in _variable_reads(element.value, view)]
    return found


def _variable_reads(expression: cst.BaseExpression, view: "pm.Scope") -> List[Tuple[cst.BaseExpression, str]]:
    """(node, key) of each variable ``expression`` reads: ``W``, or ``weights['h1']`` of a list or dict of them."""
    found: List[Tuple[cst.BaseExpression, str]] = []

    class _Reads(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if view.kind(node.value) == pm.VARIABLE:
                found.append((node, node.value))

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            key = symbol_key(node)
            if key is not None and "." in key:
                if view.kind(key) == pm.VARIABLE:
                    found.append((node, key))
                return False
            node.value.visit(self)
            return False

        def visit_Subscript(self, node: cst.Subscript) -> bool:
            key = symbol_key(node.value)
            index = getattr(node.slice[0].slice, "value", None) if len(node.slice) == 1 else None
            literal = isinstance(index, (cst.SimpleString, cst.Integer))
            if key is not None and view.kind(key) == pm.VARIABLES and literal:
                found.append((node, key))
                return False
            return True

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)  # not the keyword's name
            return False

    expression.visit(_Reads())
    return found


def read_lines(key: str, kind: str, target: str) -> str:
    """The statement that reads ``key``'s variables into ``target``."""
    if kind == pm.VARIABLE:
        return f"{target} = {key}.read_value()"
    return f"{target} = [(grad, var.read_value()) for grad, var in {key}]"


def plan_reads(statements: List["pm.Statement"], fetch: cst.BaseExpression, view: "pm.Scope", names,
               fresh) -> Tuple[List[str], Dict[int, List[str]], Dict[str, str], Dict[int, Dict[int, str]]]:
    """(reads at the function's start, reads after the statement at each index, key -> the read's name, and for
    each statement building a fetched structure after the update: id of a variable leaf -> the read's name).

    Empty when the run updates no variable or fetches none: then nothing changes."""
    update = first_update(statements, names)
    if update is None:
        return [], {}, {}, {}
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
    leaves: Dict[int, Dict[int, str]] = {}
    read_of: Dict[str, str] = {}  # one read of each variable
    for index, leaf, key in _struct_leaves(fetch, view, statements):
        where = defined_at.get(key)
        built = statements[positions[index]]
        if positions[index] <= update or (where is not None and positions[where] >= update) or \
                first_update([built], names) is not None or _waits(built, names):
            continue  # built before the update, by one ([tf.assign(W, ...)]), waiting for it, or of later variables
        text = code(leaf)
        if text not in read_of:
            read_of[text] = fresh(f"{_code_stem(leaf)}_read")
            line = f"{read_of[text]} = {text}.read_value()"
            (at_start if where is None else after.setdefault(where, [])).append(line)
        leaves.setdefault(index, {})[id(leaf)] = read_of[text]
    return at_start, after, renamed, leaves


def _waits(st: "pm.Statement", names) -> bool:
    """Whether ``st`` stands in a ``with tf.control_dependencies(...)`` block: TF1 ran it after what it waits for."""
    return any(isinstance(item.item, cst.Call) and names.call_name(item.item) == "tf.control_dependencies"
               for with_node in st.flat.unwrapped_from for item in with_node.items)


def _code_stem(leaf: cst.BaseExpression) -> str:
    """A name stem for a read of ``leaf``: ``weights_h1`` for ``weights['h1']``."""
    return re.sub(r"\W+", "_", code(leaf)).strip("_") or "value"
