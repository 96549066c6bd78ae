"""The kind of value an expression evaluates to, read from the scope's bindings and TF's tables.

Names take their binding's kind; calls of TF ops are tensors (a tuple of tensors for the ops in
``api_tables.STRUCTURE_CALLS``), of optimizer constructors optimizers, of initializer or op
constructors ops; subscripts, attributes and arithmetic of tensors are tensors.
"""
from __future__ import annotations

from typing import Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import callee_name, symbol_key
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

_KIND_NAMES = {pm.OP: "op", pm.INIT: "init", pm.SESSION: "session", pm.OPTIMIZER: "optimizer",
               pm.PYTHON: "python", pm.GRAPH: "python", pm.ITERATOR: "python", pm.SAVER: "python",
               pm.LAYER: "layer", pm.AVERAGER: "averager", pm.METRIC: "metric",
               pm.QUEUE: "queue"}


# Higher-order ops whose result has the structure of one of their arguments: the first of these given (by keyword or
# position). ``tf.scan(step, (a, b, c))`` is a tuple of three tensors, ``tf.scan(step, x)`` one tensor.
_STRUCTURE_FROM = {"tf.scan": (("initializer", 2), ("elems", 1)), "tf.foldl": (("initializer", 2), ("elems", 1)),
                   "tf.foldr": (("initializer", 2), ("elems", 1)),
                   "tf.map_fn": (("fn_output_signature", None), ("dtype", 2), ("elems", 1))}


def _structured_result(call: cst.Call, qualname: Optional[str]) -> bool:
    """Whether a higher-order op returns a tuple, list or dict of tensors: the argument its result takes the
    structure of is written as one."""
    for keyword, position in _STRUCTURE_FROM.get(qualname or "", ()):
        given = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword),
                     None)
        if given is None and position is not None and position < len(call.args) \
                and call.args[position].keyword is None and not call.args[position].star:
            given = call.args[position].value
        if given is not None:
            return isinstance(given, (cst.Tuple, cst.List, cst.Dict))
    return False


def expression_kind(expr: cst.BaseExpression, scope: "pm.Scope", names: TFNames) -> Optional[str]:
    """What ``expr`` evaluates to: "tensor", "structure" (a tuple of tensors), "op", "init",
    "optimizer", "layer", "session", "python", or None when the analysis does not know."""
    key = symbol_key(expr)
    if key is not None:
        kind = scope.kind(key)
        if kind is None:
            return "tensor" if _variable_member(expr, scope, names) else None
        return _KIND_NAMES.get(kind, "tensor")
    if isinstance(expr, cst.Call):
        qualname = names.call_name(expr)
        if qualname in api.INITIALIZER_OPS:
            return "init"
        if qualname in api.OP_CONSTRUCTORS:
            return "op"
        if qualname is not None and api.is_optimizer_constructor(qualname):
            return "optimizer"
        if qualname in api.STRUCTURE_CALLS or _structured_result(expr, qualname):
            return "structure"
        if qualname is not None and qualname.startswith("tf.") and not qualname.startswith(
                api.HOST_CALL_PREFIXES):
            return "tensor"
        if isinstance(expr.func, cst.Attribute):
            owner = expression_kind(expr.func.value, scope, names)
            method = expr.func.attr.value
            if owner == "optimizer" and method in ("minimize", "apply_gradients"):
                return "op"
            if owner == "queue" and method in api.QUEUE_OP_METHODS:
                return "op"  # an enqueue or close, run where a run fetches it
            if owner == "queue" and method in api.QUEUE_VALUE_METHODS:
                return "tensor"  # a dequeue or the size, drawn in the run that fetches it
            if owner == "tensor" or (owner == "averager" and method == "average"):
                return "tensor"  # a tensor's method; a moving average's shadow variable
            if method == "get_next" and not expr.args and scope.kind(symbol_key(expr.func.value) or "") == pm.ITERATOR:
                return "structure"  # the iterator's next element, drawn in the run that fetches it
        if expression_kind(expr.func, scope, names) == "layer":
            return "tensor"
        if callee_name(expr) in scope.tensor_functions:
            return "tensor"  # a function of this program whose every return is a TF op's result
        if callee_name(expr) in scope.structure_functions:
            return "structure"  # ... or a dict, list or tuple of them
        return None
    if isinstance(expr, (cst.Subscript, cst.Attribute)):
        return "tensor" if expression_kind(expr.value, scope, names) in ("tensor", "structure") else None
    if isinstance(expr, cst.BinaryOperation):
        if "tensor" in (expression_kind(expr.left, scope, names), expression_kind(expr.right, scope, names)):
            return "tensor"
    if isinstance(expr, cst.UnaryOperation):
        return expression_kind(expr.expression, scope, names)
    return None


def queue_method(call: cst.Call, scope: "pm.Scope") -> Optional[str]:
    """``"dequeue"`` for ``q.dequeue()`` where ``q`` is a queue the scope knows, and so on."""
    func = call.func
    if isinstance(func, cst.Attribute) and scope.kind(symbol_key(func.value) or "") == pm.QUEUE:
        return func.attr.value
    return None


def _variable_member(expr: cst.BaseExpression, scope: "pm.Scope", names: TFNames) -> bool:
    """``model.lr``: a variable an object of a class of the module keeps as an attribute once converted."""
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)):
        return False
    owner = scope.instances.get(expr.value.value)
    return owner in scope.class_defs and expr.attr.value in variable_members(scope.class_defs[owner], names)


def variable_members(cls: cst.ClassDef, names: TFNames) -> Set[str]:
    """Attributes ``__init__`` binds to a variable (``self.w = tf.Variable(...)``): they stay attributes in
    the eager class, where per-run members become locals of the generated methods."""
    found: Set[str] = set()
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        return found

    class _Assignments(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is init

        def visit_Assign(self, node: cst.Assign) -> None:
            if (len(node.targets) == 1 and isinstance(node.value, cst.Call)
                    and names.call_name(node.value) in api.VARIABLE_CONSTRUCTORS):
                key = symbol_key(node.targets[0].target)
                if key is not None and key.startswith("self."):
                    found.add(key[len("self."):])

    visit(init, _Assignments())
    return found
