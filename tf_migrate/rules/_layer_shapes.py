"""The input width of tf.layers calls, where the program states it.

TF1 created a layer's variables while the graph was built; a Keras layer
creates them on its first call. Code that reads variables before any run
(``var_list=tf.get_collection(...)``, a target network's soft update, printing
the variable list) needs them to exist, so layers-to-keras builds a layer right
away when its input width is known. The width is an expression that has the
same value where the layer is constructed as where TF1 read it: a number, or
names bound once (a module constant, a parameter, ``self.s_dim`` set once in
``__init__``, ``n_l1 = 30``), and sums and products of those. It is read from
placeholder shapes and literal ``tf.reshape`` shapes (their last size), carried
through dense layers (their ``units``), convolution layers (their ``filters``:
the width is the channels of a channels-last tensor, all a convolution's kernel
needs to be built), pooling layers and dropout, image resizes (``tf.image.resize_nearest_neighbor``: the channels
stay), elementwise ops, ``tf.matmul``
by a variable of stated shape, ``tf.concat`` on the last axis, and graph functions whose every call passes an input of known width; in
module code, module-level functions and classes' ``__init__``. Anything else
stays unknown and the layer builds on its first call.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls, binding_counts, reads, symbol_key, target_keys, writes
from tf_migrate.cst.arguments import argument, bind_with_defaults
from tf_migrate.cst.names import substituted
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

Key = Tuple[Optional[str], str]  # (enclosing function or None, source of the tf.layers call)

_ELEMENTWISE = {"tf.nn.relu", "tf.nn.relu6", "tf.tanh", "tf.nn.tanh", "tf.sigmoid", "tf.nn.sigmoid", "tf.nn.elu",
                "tf.nn.selu", "tf.nn.softplus", "tf.nn.leaky_relu", "tf.identity", "tf.nn.dropout",
                "tf.nn.softmax", "tf.abs", "tf.square", "tf.exp"}
# Resizes of a batch of channels-last images: the height and width change, the channels do not.
_SAME_CHANNELS = {"tf.image.resize_nearest_neighbor", "tf.image.resize_bilinear", "tf.image.resize_bicubic",
                  "tf.image.resize_area", "tf.image.resize_images", "tf.image.resize"}
_ELEMENTWISE_PAIRS = {"tf.maximum", "tf.minimum", "tf.add", "tf.multiply", "tf.subtract"}
_SAME_WIDTH_LAYERS = {"dropout", "batch_normalization", "max_pooling1d", "max_pooling2d", "max_pooling3d",
                      "average_pooling1d", "average_pooling2d", "average_pooling3d"}
# The width (last axis: units, or a convolution's channels) a layer gives, by the position of its argument.
_UNITS_ARGUMENT = {"dense": ("units", 1), "conv1d": ("filters", 1), "conv2d": ("filters", 1),
                   "conv3d": ("filters", 1), "conv2d_transpose": ("filters", 1), "conv3d_transpose": ("filters", 1)}


class LayerShapes:
    def __init__(self, module: cst.Module, names: TFNames) -> None:
        self.module, self.names = module, names
        self.module_stable = _bound_once(list(module.body), names)
        self.defs = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
        inits = {f"{c.name.value}.__init__": m for c in module.body if isinstance(c, cst.ClassDef)
                 for m in c.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"}
        self.params: Dict[str, Dict[int, Optional[str]]] = {}
        self.returns: Dict[str, Optional[str]] = {}
        self.inputs: Dict[Key, Optional[str]] = {}
        self._stable: Set[str] = set()
        self._variables: Dict[str, str] = {}  # variable key -> the width (last dimension) of its stated shape
        self._disagreeing: Set[Key] = set()  # layer calls of the same text given inputs of other widths
        for _ in range(3):  # functions called before they are read: a few rounds reach the fixpoint
            self.params, self.inputs, self._disagreeing = {}, {}, set()
            self._enter(list(module.body), ())
            self._block(list(module.body), {}, None)
            for name, func in [*self.defs.items(), *inits.items()]:
                params = [p.name.value for p in func.params.params]
                self._enter(list(func.body.body), params)
                env = {p: self.params.get(name, {}).get(i) for i, p in enumerate(params)}
                self._block(list(func.body.body), env, name)

    def _enter(self, body: List[cst.BaseStatement], params) -> None:
        """The names whose value is the same wherever a layer of ``body`` is built."""
        local = _bound_once(body, self.names)
        assigned = binding_counts(body)
        self._stable = ({k for k in self.module_stable if k not in assigned} | local
                        | {p for p in params if p not in assigned and p != "self"})
        self._variables = {}

    def input_width(self, function: Optional[str], call_code: str) -> Optional[str]:
        return self.inputs.get((function, call_code))

    # -- propagation ------------------------------------------------------------------
    def _width_code(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        if isinstance(node, cst.Integer):
            return node.value
        if isinstance(node, (cst.Name, cst.Attribute)) and symbol_key(node) in self._stable:
            return symbol_key(node)
        if isinstance(node, cst.BinaryOperation) and isinstance(
                node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)):
            left, right = self._width_code(node.left), self._width_code(node.right)
            if left is not None and right is not None:
                return f"({code(node)})" if not isinstance(node.operator, cst.Multiply) else code(node)
        return None

    def _width(self, expr, env) -> Optional[str]:
        if isinstance(expr, (cst.Name, cst.Attribute)) and symbol_key(expr) is not None:
            return env.get(symbol_key(expr))
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
            data_format = argument(expr, "data_format")
            if data_format is not None and not (isinstance(data_format, cst.SimpleString)
                                                and data_format.evaluated_value == "channels_last"):
                return None  # channels first: the last axis is no width
            if layer in _SAME_WIDTH_LAYERS:
                return self._width(argument(expr, "inputs", 0), env)
            if layer in _UNITS_ARGUMENT:
                return self._width_code(argument(expr, *_UNITS_ARGUMENT[layer]))
            return None
        if qualname in _ELEMENTWISE and expr.args:
            return self._width(expr.args[0].value, env)
        if qualname in _SAME_CHANNELS:
            return self._width(argument(expr, "images", 0), env)
        if qualname == "tf.reshape":  # a literal shape: its last size (`[-1, 28, 28, 1]`: 1 channel)
            shape = argument(expr, "shape", 1)
            if isinstance(shape, (cst.List, cst.Tuple)) and len(shape.elements) >= 2 \
                    and not isinstance(shape.elements[-1].value, cst.UnaryOperation):
                return self._width_code(shape.elements[-1].value)
            return None
        if qualname == "tf.matmul" and len(expr.args) == 2 and all(a.keyword is None for a in expr.args):
            return self._variables.get(symbol_key(expr.args[1].value) or "")
        if qualname == "tf.concat":
            return self._concat_width(expr, env)
        if qualname in _ELEMENTWISE_PAIRS and len(expr.args) == 2:
            widths = {self._width(a.value, env) for a in expr.args} - {None}
            return widths.pop() if len(widths) == 1 else None
        if isinstance(expr.func, cst.Name) and expr.func.value in self.defs:
            return self._returned_width(expr, self.defs[expr.func.value])
        return None

    def _returned_width(self, call: cst.Call, func: cst.FunctionDef) -> Optional[str]:
        """The width a function returns, read at this call: its parameters by the call's arguments."""
        width = self.returns.get(func.name.value)
        if width is None:
            return None
        params = list(func.params.params)
        used = reads(cst.parse_expression(width)) & {p.name.value for p in params}
        if not used:
            return width if all(k.split(".")[0] in self.module_stable for k in reads(cst.parse_expression(width))) \
                else None
        bound = bind_with_defaults(call, params)
        if bound is None:
            return None
        values = {name: self._width_code(bound[name]) for name in used}
        if None in values.values():
            return None
        return code(substituted(cst.parse_expression(width), {k: cst.parse_expression(v) for k, v in values.items()}))

    def _record_calls(self, node, env, function) -> None:
        visit(node, _CallWidths(self, env, function))

    def _concat_width(self, expr: cst.Call, env) -> Optional[str]:
        values, axis = argument(expr, "values", 0), argument(expr, "axis", 1)
        if not (isinstance(axis, cst.Integer) and axis.value == "1"
                or isinstance(axis, cst.UnaryOperation) and code(axis) == "-1"):
            return None
        if not isinstance(values, (cst.List, cst.Tuple)) or not values.elements:
            return None
        widths = [self._width(e.value, env) for e in values.elements]
        return None if None in widths else "(" + " + ".join(widths) + ")"

    def _variable_width(self, value: cst.BaseExpression) -> Optional[str]:
        """The last dimension of a variable's stated shape: ``tf.Variable(tf.zeros([n, m]))``,
        ``tf.Variable(initializer([n, m]))``, ``tf.get_variable('w', [n, m])``."""
        if not isinstance(value, cst.Call):
            return None
        qualname = self.names.call_name(value) or ""
        if qualname == "tf.get_variable":
            shape = argument(value, "shape", 1)
        elif qualname == "tf.Variable":
            initial = argument(value, "initial_value", 0)
            shape = initial.args[0].value if isinstance(initial, cst.Call) and initial.args \
                and initial.args[0].keyword is None else None
        else:
            return None
        if isinstance(shape, (cst.List, cst.Tuple)) and len(shape.elements) == 2:
            return self._width_code(shape.elements[-1].value)
        return None

    def _block(self, body: List[cst.BaseStatement], env: Dict[str, Optional[str]], function) -> None:
        for stmt in body:
            if isinstance(stmt, (cst.For, cst.While)):
                env.update({key: None for key in writes(stmt)})  # each pass may change them: unknown after
                continue
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                continue
            if isinstance(stmt, cst.If) and stmt.orelse is not None:
                other = dict(env)
                self._block(list(stmt.body.body), env, function)
                orelse = stmt.orelse
                self._block([orelse] if isinstance(orelse, cst.If) else list(orelse.body.body), other, function)
                env.update({key: None for key in set(env) | set(other) if env.get(key) != other.get(key)})
                continue
            if isinstance(stmt, (cst.With, cst.If, cst.Try)):
                self._block(list(stmt.body.body), env, function)
                if isinstance(stmt, cst.Try):  # a handler may run instead of part of the body
                    env.update({key: None for handler in stmt.handlers for key in writes(handler)})
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                self._record_calls(small, env, function)
                key = symbol_key(small.targets[0].target) if isinstance(small, cst.Assign) and len(
                    small.targets) == 1 else None
                if key is not None:
                    env[key] = self._width(small.value, env)
                    width = self._variable_width(small.value)
                    if width is not None:
                        self._variables[key] = width
                elif isinstance(small, cst.Return) and function is not None and small.value is not None:
                    self.returns[function] = self._width(small.value, env)


def _bound_once(body: List[cst.BaseStatement], names: TFNames) -> Set[str]:
    """Keys ``body`` binds once, by a statement that calls no TensorFlow: a Python value, the same wherever
    it is read after its binding."""
    counts = binding_counts(body)
    stable: Set[str] = set()

    class _Assignments(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return False

        # A name bound in a loop holds another value on each pass.
        visit_ClassDef = visit_Lambda = visit_For = visit_While = visit_FunctionDef

        def visit_Assign(self, node: cst.Assign) -> None:
            if any((names.call_name(call) or "").startswith("tf.") for call in all_calls(node.value)):
                return
            for target in node.targets:
                for key in target_keys(target.target):
                    if counts.get(key) == 1:
                        stable.add(key)

    for statement in body:
        visit(statement, _Assignments())
    return stable


class _CallWidths(cst.CSTVisitor):
    """What ``LayerShapes._record_calls`` records of the calls in a statement."""

    def __init__(self, shapes: LayerShapes, env, function) -> None:
        self.shapes, self.env, self.function = shapes, env, function

    def visit_Call(self, call: cst.Call) -> None:
        shapes, env = self.shapes, self.env
        qualname = shapes.names.call_name(call) or ""
        if qualname.startswith("tf.layers."):
            key, width = (self.function, code(call)), shapes._width(argument(call, "inputs", 0), env)
            if key in shapes.inputs and shapes.inputs[key] != width:
                shapes._disagreeing.add(key)  # two models built by the same line of text: `conv6` of each
            shapes.inputs[key] = None if key in shapes._disagreeing else width
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
