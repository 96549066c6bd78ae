"""The input width of tf.layers calls, where the program states it.

TF1 created a layer's variables while the graph was built; a Keras layer
creates them on its first call. Code that reads variables before any run
(``var_list=tf.get_collection(...)``, printing the variable list) needs them
to exist, so layers-to-keras builds a layer right away when its input width
is known. It is known from placeholder shapes (``[None, 784]``, or a module
constant), carried through dense layers (their ``units``), elementwise ops,
and graph functions whose every call passes an input of known width.
Anything else stays unknown and the layer builds on its first call.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

Key = Tuple[Optional[str], str]  # (enclosing function or None, source of the tf.layers call)

_ELEMENTWISE = {"tf.nn.relu", "tf.nn.relu6", "tf.tanh", "tf.nn.tanh", "tf.sigmoid", "tf.nn.sigmoid", "tf.nn.elu",
                "tf.nn.selu", "tf.nn.softplus", "tf.nn.leaky_relu", "tf.identity", "tf.nn.dropout",
                "tf.nn.softmax", "tf.abs", "tf.square", "tf.exp"}
_SAME_WIDTH_LAYERS = {"dropout", "batch_normalization"}
_UNITS_POSITION = {"dense": 1}


class LayerShapes:
    def __init__(self, module: cst.Module, names: TFNames) -> None:
        self.module, self.names = module, names
        self.constants = {t.target.value for s in module.body if isinstance(s, cst.SimpleStatementLine)
                          for small in s.body if isinstance(small, cst.Assign)
                          for t in small.targets if isinstance(t.target, cst.Name)
                          and isinstance(small.value, cst.Integer)}
        self.defs = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
        self.params: Dict[str, Dict[int, Optional[str]]] = {}
        self.returns: Dict[str, Optional[str]] = {}
        self.inputs: Dict[Key, Optional[str]] = {}
        for _ in range(3):  # functions called before they are read: a few rounds reach the fixpoint
            self.params = {}
            self._block(list(module.body), {}, None)
            for name, func in self.defs.items():
                env = {p.name.value: self.params.get(name, {}).get(i)
                       for i, p in enumerate(func.params.params)}
                self._block(list(func.body.body), env, name)

    def input_width(self, function: Optional[str], call_code: str) -> Optional[str]:
        return self.inputs.get((function, call_code))

    # -- propagation ------------------------------------------------------------------
    def _width_code(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        if isinstance(node, cst.Integer):
            return node.value
        if isinstance(node, cst.Name) and node.value in self.constants:
            return node.value
        return None

    def _width(self, expr, env) -> Optional[str]:
        if isinstance(expr, cst.Name):
            return env.get(expr.value)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
            return self._width(expr.left, env) or self._width(expr.right, env)
        if not isinstance(expr, cst.Call):
            return None
        qualname = self.names.call_name(expr) or ""
        if qualname == "tf.placeholder":
            shape = argument(expr, "shape", 1)
            if isinstance(shape, (cst.List, cst.Tuple)) and len(shape.elements) >= 2:
                return self._width_code(shape.elements[-1].value)
            return None
        if qualname.startswith("tf.layers."):
            layer = qualname[len("tf.layers."):]
            if layer in _SAME_WIDTH_LAYERS:
                return self._width(argument(expr, "inputs", 0), env)
            if layer in _UNITS_POSITION:
                return self._width_code(argument(expr, "units", _UNITS_POSITION[layer]))
            return None
        if qualname in _ELEMENTWISE and expr.args:
            return self._width(expr.args[0].value, env)
        if isinstance(expr.func, cst.Name) and expr.func.value in self.defs:
            return self.returns.get(expr.func.value)
        return None

    def _record_calls(self, node, env, function) -> None:
        shapes = self

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                qualname = shapes.names.call_name(call) or ""
                if qualname.startswith("tf.layers."):
                    shapes.inputs[(function, code(call))] = shapes._width(argument(call, "inputs", 0), env)
                elif isinstance(call.func, cst.Name) and call.func.value in shapes.defs:
                    widths = shapes.params.setdefault(call.func.value, {})
                    for index, arg in enumerate(call.args):
                        if arg.keyword is None and not arg.star:
                            width = shapes._width(arg.value, env)
                            if index in widths and widths[index] != width:
                                width = None  # calls disagree: unknown
                            widths[index] = width

            def visit_Lambda(self, node) -> bool:
                return False

        visit(node, _Calls())

    def _block(self, body: List[cst.BaseStatement], env: Dict[str, Optional[str]], function) -> None:
        for stmt in body:
            if isinstance(stmt, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
                continue
            if isinstance(stmt, (cst.With, cst.If, cst.Try)):
                self._block(list(stmt.body.body), env, function)
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                self._record_calls(small, env, function)
                if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
                        small.targets[0].target, cst.Name):
                    env[small.targets[0].target.value] = self._width(small.value, env)
                elif isinstance(small, cst.Return) and function is not None and small.value is not None:
                    self.returns[function] = self._width(small.value, env)
