"""What a run function's parameters are, and the ``tf.TensorSpec`` each has where the program text settles it.

A fed placeholder ``tf.placeholder(tf.float32, [None, 784])`` is ``tf.TensorSpec([None, 784], tf.float32)``
when its dtype and shape are literals or names bound once before it; a scalar bool placeholder is a
*flag* (a ``training`` switch fed Python bools). Compiled run functions (``codegen.compiled``) write
their input signatures from these; the analysis asks them whether a value's graph can be traced
without a run (``escapes.describe_problem``).
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.slicing import RunPlan
from tf_migrate.analysis.symbols import all_calls, reads
from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


def placeholder_default(st: "pm.Statement", scope: "pm.Scope", names: TFNames):
    symbol = scope.symbol_at(st.defines[0], st.index + 1)
    call = symbol.call if symbol is not None else None
    if call is not None and (names.call_name(call) or "").endswith("placeholder_with_default"):
        return bind_known(call, ["input", "shape", "name"]).get("input")
    return None


def run_parameters(plan: RunPlan, scope: "pm.Scope", names: TFNames):
    """(key, the binding it stands for) of each parameter of the run's function, in order."""
    params = [(key, plan.fed_symbols.get(key)) for key, _ in plan.fed]
    return params + [(st.defines[0], scope.symbol_at(st.defines[0], st.index + 1))
                     for st in plan.unfed_placeholders if placeholder_default(st, scope, names) is None]


def is_flag(symbol: Optional["pm.Symbol"], names: TFNames) -> bool:
    """A bool placeholder of scalar or unwritten shape: ``tf.placeholder(tf.bool, [])``, ``tf.placeholder(tf.bool,
    None)``, ``placeholder_with_default(False, [])``: a training flag, fed Python bools."""
    if symbol is None or symbol.kind != pm.PLACEHOLDER or symbol.call is None:
        return False
    with_default = (names.call_name(symbol.call) or "").endswith("placeholder_with_default")
    bound = bind_known(symbol.call, ["input", "shape", "name"] if with_default else ["dtype", "shape", "name"])
    dtype = symbol.dtype or (code(bound["dtype"]).rsplit(".", 1)[-1] if "dtype" in bound else None)
    shape = bound.get("shape")
    scalar = shape is None or isinstance(shape, cst.Name) and shape.value == "None" or isinstance(
        shape, (cst.List, cst.Tuple)) and not shape.elements
    return dtype == "bool" and scalar


def fed_dtype(symbol: Optional["pm.Symbol"], scope: "pm.Scope", names: TFNames, tf: str) -> Optional[str]:
    """The dtype (as code) a feed of the placeholder was converted to, where the text gives it (else None)."""
    if symbol is None or symbol.kind != pm.PLACEHOLDER or symbol.call is None:
        return None  # a fed tensor: its dtype is TF's to infer, not written here
    with_default = (names.call_name(symbol.call) or "").endswith("placeholder_with_default")
    bound = bind_known(symbol.call, ["input", "shape", "name"] if with_default else ["dtype", "shape", "name"])
    if symbol.dtype is not None:
        return f"{tf}.{symbol.dtype}"
    if "dtype" in bound and _is_static(bound["dtype"], scope, symbol.index):
        return code(bound["dtype"])
    return None


def input_spec(symbol: Optional["pm.Symbol"], scope: "pm.Scope", names: TFNames, tf: str) -> Optional[str]:
    """``tf.TensorSpec(shape, dtype)`` of a placeholder whose dtype and shape the text gives (else None)."""
    dtype = fed_dtype(symbol, scope, names, tf)
    if dtype is None:
        return None
    with_default = (names.call_name(symbol.call) or "").endswith("placeholder_with_default")
    bound = bind_known(symbol.call, ["input", "shape", "name"] if with_default else ["dtype", "shape", "name"])
    if "shape" not in bound:
        return None if with_default else f"{tf}.TensorSpec(None, {dtype})"
    shape = visit(bound["shape"], _LiteralsAt(scope, symbol.index))
    if not _is_static(shape, scope, symbol.index):
        return None
    return f"{tf}.TensorSpec({code(shape)}, {dtype})"


class _LiteralsAt(cst.CSTTransformer):
    """A name the program binds more than once -> the literal its binding before statement ``index`` gives it,
    where that binding is a plain ``name = <literal>`` line (``data_size = 25`` for a first placeholder, ``data_size
    = [10, 10]`` for a later one): the value TF1 read when it built the placeholder. Others stay (not static)."""

    def __init__(self, scope: "pm.Scope", index: int) -> None:
        self.scope, self.index = scope, index

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return False  # `tf.float32`, `config.size`: not a plain name

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        bindings = [b for b in self.scope.bindings.get(original.value, []) if 0 <= b.index < self.index]
        if len(self.scope.bindings.get(original.value, [])) < 2 or not bindings:
            return updated
        latest = max(bindings, key=lambda b: b.index)
        if latest.index >= len(self.scope.statements):
            return updated
        line = self.scope.statements[latest.index].node
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if not (isinstance(target, cst.Name) and target.value == original.value and _literal(small.value)):
            return updated
        return visit(small.value, _LiteralsAt(self.scope, latest.index))  # its names as they were there


def _literal(node: cst.BaseExpression) -> bool:
    """A number, ``None``, a name, or a list or tuple of those (``[row_size, col_size]``)."""
    if isinstance(node, (cst.List, cst.Tuple)):
        return all(isinstance(e, cst.Element) and _literal(e.value) for e in node.elements)
    return isinstance(node, (cst.Integer, cst.Name))


def _is_static(expr: cst.BaseExpression, scope: "pm.Scope", index: int) -> bool:
    """An expression a decorator can evaluate where the function is defined: literals, TF dtypes, and
    names bound once, before the placeholder (as TF1 read them when it built the placeholder)."""
    for key in reads(expr):
        if "." in key or (scope.is_class and key in scope.params):  # __init__'s parameters: gone at class level
            return False
        bindings = scope.bindings.get(key, [])
        if bindings and (len(bindings) > 1 or bindings[0].index >= index or bindings[0].kind in pm.DEFERRED_KINDS):
            return False
    return not any(isinstance(n, (cst.Call, cst.Lambda)) or (isinstance(n, cst.Subscript)
                                                          and not _literal_item(n, scope)) for n in _walk(expr))


def _literal_item(node: cst.Subscript, scope: "pm.Scope") -> bool:
    """``dimensions[0]`` of a name bound once (no item assignment), to a list or tuple literal that no method
    call changes."""
    index = node.slice[0].slice if len(node.slice) == 1 else None
    if not (isinstance(node.value, cst.Name) and isinstance(index, cst.Index)
            and isinstance(index.value, cst.Integer)):
        return False
    bindings = scope.bindings.get(node.value.value, [])
    if len(bindings) != 1 or not 0 <= bindings[0].index < len(scope.statements):
        return False
    line = scope.statements[bindings[0].index].node
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.value, (cst.List, cst.Tuple))):
        return False
    name = node.value.value
    return not any(isinstance(call.func, cst.Attribute) and call.func.attr.value in api.LIST_MUTATIONS
                   and isinstance(call.func.value, cst.Name) and call.func.value.value == name
                   for st in scope.statements for call in all_calls(st.node))  # `dimensions.reverse()`


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)
