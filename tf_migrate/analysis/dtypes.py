"""The dtype of a graph value, where the program text settles it.

TF1 converts a fed value to the dtype of the tensor it replaces (``[1, 2, 3]`` fed to a float32
placeholder is float32; ``15`` fed to ``tf.add(2, 5)`` is int32). The eager function casts each
argument the same way, so it must know that dtype; where the text does not settle it, the run is
not converted (the caller blocks it).
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames

_DTYPES = {"float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "bool", "string", "complex64", "complex128", "double", "half"}
_FLOAT_DEFAULT = {"tf.zeros", "tf.ones", "tf.random_normal", "tf.random_uniform", "tf.truncated_normal",
                  "tf.random.normal", "tf.random.uniform", "tf.random.truncated_normal", "tf.linspace", "tf.eye"}
# Element-wise ops whose result has their inputs' dtype.
_SAME_AS_INPUTS = {"tf.add", "tf.subtract", "tf.multiply", "tf.maximum", "tf.minimum", "tf.square", "tf.abs",
                   "tf.negative", "tf.reduce_sum", "tf.reduce_mean", "tf.reduce_max", "tf.reduce_min",
                   "tf.identity", "tf.reshape", "tf.transpose", "tf.matmul", "tf.tanh", "tf.sigmoid", "tf.exp",
                   "tf.nn.relu", "tf.stop_gradient", "tf.concat", "tf.stack", "tf.squeeze", "tf.expand_dims",
                   "tf.sqrt", "tf.log", "tf.math.log", "tf.sin", "tf.cos"}


def dtype_name(expr: Optional[cst.BaseExpression], names: TFNames) -> Optional[str]:
    """``"float32"`` for ``tf.float32`` / ``np.float32`` / ``"float32"``, else None."""
    if expr is None:
        return None
    if isinstance(expr, cst.SimpleString):
        text = expr.evaluated_value
    elif isinstance(expr, cst.Attribute):
        text = expr.attr.value
    else:
        return None
    text = {"double": "float64", "half": "float16"}.get(text, text)
    return text if text in _DTYPES else None


def placeholder_dtype(call: cst.Call, names: TFNames) -> Optional[str]:
    """The dtype a ``tf.placeholder`` call names, if numeric or bool (a fed value can be cast to it)."""
    first = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "dtype")
    dtype = dtype_name(first, names)
    return dtype if dtype != "string" else None


def value_dtype(scope: "pm.Scope", key: str, index: int, names: TFNames, depth: int = 0) -> Optional[str]:
    """The dtype of the binding of ``key`` visible at statement ``index`` (None: unknown)."""
    symbol = scope.symbol_at(key, index)
    if symbol is None or depth > 20:
        return None
    value = symbol.call
    if value is None and 0 <= symbol.index < len(scope.statements):
        targets, value = single(scope.statements[symbol.index].node)
        if targets is None or symbol_key(targets) != key:
            return None
    return expression_dtype(value, scope, symbol.index, names, depth + 1)


def expression_dtype(expr, scope: "pm.Scope", index: int, names: TFNames, depth: int = 0) -> Optional[str]:
    """The dtype ``expr`` evaluates to in the graph (None: unknown)."""
    if expr is None or depth > 20:
        return None
    if isinstance(expr, cst.Integer):
        return "int32"
    if isinstance(expr, cst.Float):
        return "float32"
    if isinstance(expr, cst.Name):
        if expr.value in ("True", "False"):
            return "bool"
        return value_dtype(scope, expr.value, index, names, depth)
    if isinstance(expr, cst.Attribute) and symbol_key(expr) is not None:
        return value_dtype(scope, symbol_key(expr), index, names, depth)  # self.h: a member of the graph
    if isinstance(expr, cst.UnaryOperation):
        return expression_dtype(expr.expression, scope, index, names, depth + 1)
    if isinstance(expr, (cst.List, cst.Tuple)):
        found = {expression_dtype(e.value, scope, index, names, depth + 1) for e in expr.elements}
        if None in found or not found:
            return None
        return "float32" if "float32" in found and found <= {"float32", "int32"} else (
            found.pop() if len(found) == 1 else None)
    if isinstance(expr, cst.BinaryOperation):
        left = expression_dtype(expr.left, scope, index, names, depth + 1)
        right = expression_dtype(expr.right, scope, index, names, depth + 1)
        if _is_literal(expr.right) and left is not None:
            result = left  # a Python number takes the tensor's dtype (`x / 255` of a float32 x: float32)
        elif _is_literal(expr.left) and right is not None:
            result = right
        else:
            result = left if left == right else None
        if isinstance(expr.operator, cst.Divide) and result is not None and result.startswith(("int", "uint")):
            return None  # int / int is float64 in TF
        return result
    if isinstance(expr, cst.Call):
        return _call_dtype(expr, scope, index, names, depth)
    return None


def _call_dtype(call: cst.Call, scope, index, names: TFNames, depth: int) -> Optional[str]:
    qualname = names.call_name(call) or ""
    explicit = dtype_name(argument(call, "dtype"), names)
    if qualname == "tf.placeholder":
        first = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "dtype")
        return dtype_name(first, names)
    if qualname in ("tf.cast", "tf.dtypes.cast"):
        second = call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else argument(call, "dtype")
        return dtype_name(second, names)
    if explicit is not None:
        return explicit
    if qualname in ("tf.constant", "tf.convert_to_tensor", "tf.Variable", "tf.placeholder_with_default"):
        first = call.args[0].value if call.args and call.args[0].keyword is None else None
        return expression_dtype(first, scope, index, names, depth + 1)
    layer = scope.symbol_at(symbol_key(call.func) or "", index)
    if layer is not None and layer.kind == pm.LAYER and call.args and call.args[0].keyword is None:
        if layer.call is not None and argument(layer.call, "dtype") is not None:
            return dtype_name(argument(layer.call, "dtype"), names)
        return expression_dtype(call.args[0].value, scope, index, names, depth + 1)  # TF1 layers take their input's
    if qualname in _FLOAT_DEFAULT:
        return "float32"
    if qualname in _SAME_AS_INPUTS:
        found = {expression_dtype(a.value, scope, index, names, depth + 1) for a in call.args if a.keyword is None}
        found.discard(None)
        return found.pop() if len(found) == 1 else None
    return None


def _is_literal(expr) -> bool:
    return isinstance(expr, (cst.Integer, cst.Float))
