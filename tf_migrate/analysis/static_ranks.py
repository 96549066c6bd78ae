"""The rank a value has wherever the program text settles it, read from the text alone.

A Jacobian rewrite sums ``y`` over every axis but the first; written for any rank that is
``tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))``, and where the rank is known, the plain
``tf.reduce_sum(y, axis=1)`` (or no sum at all for a vector). The rank is known when a value is bound
once in the module and built from:

* a shape given as a literal list: ``tf.placeholder(tf.float32, [None, 3])``, ``tf.zeros([n, m])``, ``tf.reshape(y, [-1])``,
  ``tf.random_normal([n, 1])``, ``tf.get_variable("w", [3, 1])``;
* numpy arrays of written shape: ``np.zeros((n, m))``, ``np.random.randn(n, m)``, ``np.linspace(a, b, n)``,
  ``a.reshape(n, 1)``, ``.astype(...)``, wrapped in ``tf.Variable`` / ``tf.constant`` /
  ``tf.convert_to_tensor``;
* reductions with a literal axis or none (``tf.reduce_mean(y, axis=0)``: one axis fewer);
* ``tf.matmul`` of two matrices, element-wise functions (``tf.tanh``, ``tf.nn.relu``...) and
  arithmetic (``+ - * /``, the larger rank, as broadcasting gives).

Anything else (a function's result, a name bound twice, a slice) is unknown: None.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import libcst as cst

from tf_migrate.cst.arguments import argument, bind
from tf_migrate.cst.names import target_names
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit

_SHAPED = {"tf.placeholder": ("shape", 1), "tf.zeros": ("shape", 0), "tf.ones": ("shape", 0),
           "tf.random_normal": ("shape", 0), "tf.random_uniform": ("shape", 0), "tf.truncated_normal": ("shape", 0),
           "tf.random.normal": ("shape", 0), "tf.random.uniform": ("shape", 0),
           "tf.random.truncated_normal": ("shape", 0), "tf.get_variable": ("shape", 1), "tf.fill": ("dims", 0),
           "tf.reshape": ("shape", 1)}
_WRAPPERS = {"tf.Variable", "tf.constant", "tf.convert_to_tensor", "tf.identity", "tf.cast", "tf.stop_gradient"}
_ELEMENTWISE = {"tf.tanh", "tf.sigmoid", "tf.nn.relu", "tf.nn.sigmoid", "tf.nn.tanh", "tf.exp", "tf.log",
                "tf.square", "tf.sqrt", "tf.sin", "tf.cos", "tf.abs", "tf.nn.softplus", "tf.nn.elu",
                "tf.math.tanh", "tf.math.exp", "tf.math.log", "tf.math.sin", "tf.math.cos", "tf.negative"}
_REDUCTIONS = {"tf.reduce_sum", "tf.reduce_mean", "tf.reduce_max", "tf.reduce_min", "tf.reduce_prod",
               "tf.math.reduce_sum", "tf.math.reduce_mean", "tf.math.reduce_max", "tf.math.reduce_min"}
_NUMPY_SHAPED = {"zeros", "ones", "empty", "full"}  # np.zeros((n, m)): the shape argument first
_NUMPY_DIMS = {"randn", "rand"}  # np.random.randn(n, m): one argument per axis


class StaticRanks:
    """Ranks of the module's values (see the module doc)."""

    def __init__(self, module: cst.Module, names: TFNames) -> None:
        self.names = names
        self.bindings: Dict[str, List[cst.BaseExpression]] = {}

        class _Bindings(cst.CSTVisitor):
            def visit_Assign(inner, node: cst.Assign) -> None:
                for target in node.targets:
                    for name in target_names(target.target):
                        self.bindings.setdefault(name, []).append(
                            node.value if isinstance(target.target, cst.Name) and len(node.targets) == 1 else None)

            def visit_AugAssign(inner, node: cst.AugAssign) -> None:
                for name in target_names(node.target):
                    self.bindings.setdefault(name, []).append(None)

            def visit_For(inner, node: cst.For) -> None:
                for name in target_names(node.target):
                    self.bindings.setdefault(name, []).append(None)

            def visit_Param(inner, node: cst.Param) -> None:
                self.bindings.setdefault(node.name.value, []).append(None)

        visit(module, _Bindings())

    def rank(self, expr: cst.BaseExpression, depth: int = 0) -> Optional[int]:
        if depth > 20:
            return None
        if isinstance(expr, cst.Name):
            values = self.bindings.get(expr.value, [])
            return self.rank(values[0], depth + 1) if len(values) == 1 and values[0] is not None else None
        if isinstance(expr, cst.BinaryOperation):
            left, right = self.rank(expr.left, depth + 1), self.rank(expr.right, depth + 1)
            if isinstance(expr.left, (cst.Integer, cst.Float)):
                left = 0
            if isinstance(expr.right, (cst.Integer, cst.Float)):
                right = 0
            return max(left, right) if left is not None and right is not None else None
        if not isinstance(expr, cst.Call):
            return None
        qualname = self.names.call_name(expr)
        args = [arg for arg in expr.args if arg.keyword is None]
        if qualname in _SHAPED:
            keyword, position = _SHAPED[qualname]
            shape = argument(expr, keyword, position)
            return len(shape.elements) if isinstance(shape, (cst.List, cst.Tuple)) else None
        if qualname in _WRAPPERS | _ELEMENTWISE and expr.args:
            first = argument(expr, "initial_value" if qualname == "tf.Variable" else "", 0)
            return self.rank(first, depth + 1) if first is not None else None
        if qualname in _REDUCTIONS:
            return self._reduced(expr, depth)
        if qualname == "tf.matmul" and len(args) >= 2 and len(expr.args) == 2:
            ranks = [self.rank(a.value, depth + 1) for a in args[:2]]
            return 2 if ranks == [2, 2] else None
        return self._numpy(expr, depth)

    def _reduced(self, call: cst.Call, depth: int) -> Optional[int]:
        """``tf.reduce_mean(y, axis=0)``: y's rank less the axes named, all of them without an axis."""
        bound = bind(call, ["input_tensor", "axis", "keepdims", "name", "reduction_indices", "keep_dims"])
        if not bound or "input_tensor" not in bound:
            return None
        rank = self.rank(bound["input_tensor"], depth + 1)
        keep = bound.get("keepdims", bound.get("keep_dims"))
        if rank is None or keep is not None:
            return rank if isinstance(keep, cst.Name) and keep.value == "True" else None
        axis = bound.get("axis", bound.get("reduction_indices"))
        if axis is None or (isinstance(axis, cst.Name) and axis.value == "None"):
            return 0
        if isinstance(axis, (cst.Integer, cst.UnaryOperation)):
            return rank - 1
        if isinstance(axis, (cst.List, cst.Tuple)) and all(
                isinstance(e.value, (cst.Integer, cst.UnaryOperation)) for e in axis.elements):
            return rank - len({code(e.value) for e in axis.elements})
        return None

    def _numpy(self, call: cst.Call, depth: int) -> Optional[int]:
        func = call.func
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        args = [arg for arg in call.args if arg.keyword is None and not arg.star]
        if method == "astype":
            return self.rank(func.value, depth + 1)
        if method == "reshape" and args and not isinstance(self._module_of(func.value), str):
            if len(args) == 1 and isinstance(args[0].value, (cst.Tuple, cst.List)):
                return len(args[0].value.elements)
            return len(args) if all(not isinstance(a.value, (cst.Tuple, cst.List)) for a in args) else None
        module = self._module_of(func.value)
        if module not in ("numpy", "numpy.random"):
            return None
        if module == "numpy" and method in _NUMPY_SHAPED and args:
            shape = args[0].value
            if isinstance(shape, (cst.Tuple, cst.List)):
                return len(shape.elements)
            return 1 if isinstance(shape, (cst.Integer, cst.Name)) else None
        if module == "numpy.random" and method in _NUMPY_DIMS:
            return len(args) if call.args and len(args) == len(call.args) else None
        if module == "numpy" and method == "linspace":
            return 1
        return None

    def _module_of(self, node: cst.BaseExpression) -> Optional[str]:
        """``np`` -> "numpy", ``np.random`` or ``np.random.RandomState(0)`` -> "numpy.random" (through the
        file's imports), else None."""
        if isinstance(node, cst.Name) and len(self.bindings.get(node.value, [])) == 1:
            node = self.bindings[node.value][0] or node  # rng = np.random.RandomState(0)
        if isinstance(node, cst.Call) and self._module_of(node.func) == "numpy.random.RandomState":
            return "numpy.random"
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        full = self.names.aliases.get(head)
        if full is None or not self._bound_once_or_never(head):
            return None
        return full + ("." + rest if rest else "")

    def _bound_once_or_never(self, name: str) -> bool:
        return not self.bindings.get(name)
