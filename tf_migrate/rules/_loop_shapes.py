"""The static shapes a layer loop reads of what it computes, carried through the loop that makes its variables.

    for n_output in sizes:
        n_input = int(h.get_shape()[1])                  # the width the previous layer gave h
        W = tf.Variable(tf.random_uniform([n_input, n_output]))
        b = tf.Variable(tf.zeros([n_output]))
        h = tf.nn.tanh(tf.matmul(h, W) + b)

Split in two (``split_build_loops``), the loop that makes the variables does not
compute ``h``: it carries ``h``'s static shape instead, from the shape ``h`` had
before the loop, through what each iteration's computing lines do to it:

    h_shape = h.get_shape()
    for n_output in sizes:
        n_input = int(h_shape[1])
        ...
        h_shape = h_shape[:-1].concatenate([n_output])   # tf.matmul(h, W): W's last dimension

The shape algebra knows what TF1's shape inference gave for the ops of such
loops: ``tf.matmul(a, W)`` with ``W`` made in the iteration from a literal
shape list (its last entry), element-wise activations, and ``a + b`` where
``b`` is made in the iteration with the shape ``[last dimension of a]``. Any
other op leaves the shape unknown, and the loop unsplit.

Keras layers made in the loop (``layers-to-keras`` builds a ``tf.layers`` call's layer in place) are built by the
making loop with the shape their input has there, and the shapes carried through what each layer gives
(``keras_shape_lines``; Keras computes that exactly, strides and padding included):

    h_shape = tf.TensorShape([None, 4])
    for units in sizes:
        dense = tf.keras.layers.Dense(units=units)
        dense.build(h_shape)
        h_shape = dense.compute_output_shape(h_shape)

and the layers made after the loop that read what it computed, where TF1 made their variables, at their first call
(``after_loop_shape_lines``: ``dense_2.build(h_shape)`` before ``out = dense_2(h)``), so that their variables too
exist before any run, as in TF1.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.api_tables import WEIGHTLESS_LAYERS
from tf_migrate.analysis.symbols import writes
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

_SAME_SHAPE = {"tf.nn.tanh", "tf.tanh", "tf.nn.relu", "tf.nn.sigmoid", "tf.sigmoid", "tf.nn.elu", "tf.nn.softplus",
               "tf.nn.relu6", "tf.nn.leaky_relu", "tf.nn.selu", "tf.identity", "tf.nn.softmax", "tf.math.tanh",
               "tf.math.sigmoid"}
_STATIC_METHODS = ("get_shape",)
_STATIC_ATTRIBUTES = ("shape",)


def static_shape_reads(node: cst.CSTNode) -> Set[str]:
    """Names ``node`` reads as ``name.get_shape()`` or ``name.shape``."""
    found: Set[str] = set()

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            owner = _static_owner(call)
            if owner is not None:
                found.add(owner)

        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if attribute.attr.value in _STATIC_ATTRIBUTES and isinstance(attribute.value, cst.Name):
                found.add(attribute.value.value)

    visit(node, _Finder())
    return found


def value_reads_besides_shapes(node: cst.CSTNode) -> Set[str]:
    """Names ``node`` reads other than through ``name.get_shape()`` / ``name.shape``."""
    found: Set[str] = set()

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> Optional[bool]:
            return False if _static_owner(call) is not None else None

        def visit_Attribute(self, attribute: cst.Attribute) -> Optional[bool]:
            if attribute.attr.value in _STATIC_ATTRIBUTES and isinstance(attribute.value, cst.Name):
                return False
            return None

        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    visit(node, _Finder())
    return found


def is_static_read(call: cst.Call) -> bool:
    """``name.get_shape()``."""
    return _static_owner(call) is not None


def _static_owner(call: cst.Call) -> Optional[str]:
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _STATIC_METHODS and not call.args \
            and isinstance(func.value, cst.Name):
        return func.value.value
    return None


def carried_shape(tracked: str, computing: Sequence[cst.SimpleStatementLine], makers: Dict[str, cst.Call],
                  names: TFNames) -> Optional[str]:
    """The last dimension ``tracked`` has after one iteration's ``computing`` lines, as code the making loop
    can evaluate (None: the algebra does not know it, or the lines do not rebind ``tracked`` in a way it knows).

    ``makers``: the variables the iteration makes (name -> constructor call)."""
    last: Dict[str, Optional[str]] = {tracked: None}  # None: "as before the iteration" (the carried shape's own)
    for line in computing:
        small = line.body[0]
        if not isinstance(small, cst.Assign):
            if isinstance(small, cst.AugAssign) and code(small.target) == tracked:
                return None
            continue
        if len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name):
            continue
        key = small.targets[0].target.value
        if key == tracked or key in last:
            last[key] = _last_dimension(small.value, last, makers, names)
            if last[key] is _UNKNOWN:
                if key == tracked:
                    return None
                del last[key]
        else:
            value = _last_dimension(small.value, last, makers, names)
            if value is not _UNKNOWN:
                last[key] = value
    result = last.get(tracked)
    return result if result is not None else ""


_UNKNOWN = "<unknown>"


def _last_dimension(expr: cst.BaseExpression, last: Dict[str, Optional[str]], makers: Dict[str, cst.Call],
                    names: TFNames):
    """The last dimension of ``expr`` (None: the tracked tensor's at the iteration's start; _UNKNOWN)."""
    if isinstance(expr, cst.Name):
        return last[expr.value] if expr.value in last else _UNKNOWN
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        left = _last_dimension(expr.left, last, makers, names)
        if left is _UNKNOWN or not _bias_of(expr.right, left, makers):
            return _UNKNOWN
        return left
    if not isinstance(expr, cst.Call):
        return _UNKNOWN
    qualname = names.call_name(expr) or ""
    positional = [a.value for a in expr.args if a.keyword is None]
    if qualname in _SAME_SHAPE and positional and all(a.keyword is None or a.keyword.value == "name"
                                                      for a in expr.args):
        return _last_dimension(positional[0], last, makers, names)
    if qualname == "tf.matmul" and len(positional) == 2 and len(expr.args) == 2:
        if _last_dimension(positional[0], last, makers, names) is _UNKNOWN:
            return _UNKNOWN
        shape = _made_shape(positional[1], makers)
        return shape[-1] if shape and len(shape) == 2 else _UNKNOWN
    return _UNKNOWN


def _bias_of(expr: cst.BaseExpression, width: Optional[str], makers: Dict[str, cst.Call]) -> bool:
    """Whether ``expr`` is a variable made with shape ``[width]`` (adding it keeps the shape)."""
    shape = _made_shape(expr, makers)
    return width is not None and shape is not None and shape == [width]


def _made_shape(expr: cst.BaseExpression, makers: Dict[str, cst.Call]) -> Optional[List[str]]:
    """The shape list (entries as code) of the variable ``expr`` names, made this iteration from an initial
    value ``tf.zeros([...])``, ``tf.random_normal([...], ...)`` and the like."""
    if not isinstance(expr, cst.Name) or expr.value not in makers:
        return None
    call = makers[expr.value]
    initial = call.args[0].value if call.args and call.args[0].keyword is None else None
    if not (isinstance(initial, cst.Call) and initial.args and initial.args[0].keyword is None):
        return None
    shape = initial.args[0].value
    if not isinstance(shape, cst.List) or any(isinstance(e, cst.StarredElement) for e in shape.elements):
        return None
    return [code(e.value) for e in shape.elements]


def keras_shape_lines(computing: Dict[int, cst.SimpleStatementLine], layers: Dict[str, str], names: TFNames,
                      taken: Set[str]) -> Optional[Tuple[Dict[int, List[str]], Dict[str, str]]]:
    """What the making loop runs in place of each computing line (by index) that calls a Keras layer the iteration
    makes (``layers``: name -> class), and the names whose shapes it carries from one iteration to the next (name ->
    the shape's variable, to set before the loop). None where a layer's input is not a name whose shape is known
    there (``h = dense(h)`` and ``h = tf.nn.relu(h)`` keep it known; any other line binding ``h`` loses it).
    ``taken``: names in use, to which the shape variables are added."""
    shapes: Dict[str, str] = {}  # name -> the variable holding its static shape at this point of the iteration
    carried: Dict[str, str] = {}  # names whose shape at the iteration's start is the previous iteration's
    out: Dict[int, List[str]] = {}
    called: Set[str] = set()
    for index in sorted(computing):
        small = computing[index].body[0]
        target = small.targets[0].target.value if isinstance(small, cst.Assign) and len(small.targets) == 1 \
            and isinstance(small.targets[0].target, cst.Name) else None
        value = small.value if isinstance(small, cst.Assign) else None
        source = _single_input(value, layers, names)
        bound = set(writes(computing[index]))
        if target is None or source is None:
            if bound & (set(layers) | set(shapes)):
                return None  # a name whose shape a layer reads, bound by what the algebra does not know
            continue
        if source not in shapes:
            if source in {k for i in computing if i < index for k in writes(computing[i])}:
                return None  # bound earlier in the iteration by a line the algebra does not know
            shapes[source] = carried[source] = fresh(f"{source}_shape", taken)
            taken.add(carried[source])
        lines = []
        layer = value.func.value if isinstance(value.func, cst.Name) and value.func.value in layers else None
        if target in carried:
            shape = carried[target]
        else:
            shape = fresh(f"{target}_shape", taken)
            taken.add(shape)
        if layer is not None:
            if layer in called:
                return None  # called twice: built once, with the first input's shape (a second build remakes)
            called.add(layer)
            if layers[layer] not in WEIGHTLESS_LAYERS:
                lines.append(f"{layer}.build({shapes[source]})")
            lines.append(f"{shape} = {layer}.compute_output_shape({shapes[source]})")
        elif shape != shapes[source]:
            lines.append(f"{shape} = {shapes[source]}")
        shapes[target] = shape
        out[index] = lines
    if not called or {k for k, cls in layers.items() if cls not in WEIGHTLESS_LAYERS} - called:
        return None  # a layer the iteration makes and calls otherwise: not built where TF1 made its variables
    return out, carried


def _single_input(value, layers: Dict[str, str], names: TFNames) -> Optional[str]:
    """The name ``value`` computes from where it is ``layer(name, keywords...)`` of a layer the iteration makes, or
    an element-wise op of one name (``tf.nn.relu(h)``)."""
    if not isinstance(value, cst.Call) or not value.args or value.args[0].keyword is not None \
            or value.args[0].star or not isinstance(value.args[0].value, cst.Name):
        return None
    rest = value.args[1:]
    if isinstance(value.func, cst.Name) and value.func.value in layers:
        return value.args[0].value.value if all(a.keyword is not None for a in rest) else None
    if names.call_name(value) in _SAME_SHAPE and all(a.keyword is not None and a.keyword.value == "name" for a in rest):
        return value.args[0].value.value
    return None


def after_loop_shape_lines(statements: Sequence[cst.BaseStatement], carried: Dict[str, str], names: TFNames,
                           taken: Set[str]) -> Dict[int, List[str]]:
    """Lines to run before statements after a split loop (by ``id``): each Keras layer made after the loop and first
    called on a name whose shape is carried (``carried``: name -> shape variable, as the making loop leaves it) is
    built there with that shape, and the shapes carried on through what it gives. The scan follows the module's
    one-statement lines from the loop on and stops at the first compound statement; a line binding a carried name
    otherwise loses its shape. ``taken``: names in use, to which new shape variables are added."""
    shapes = dict(carried)
    layers: Dict[str, str] = {}  # Keras layers made after the loop: name -> class
    built: Set[str] = set()  # those a line builds already (layers-to-keras, where it knew the input width)
    called: Set[str] = set()
    out: Dict[int, List[str]] = {}
    for statement in statements:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            break
        small = statement.body[0]
        value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        target = small.targets[0].target.value if isinstance(small, cst.Assign) and len(small.targets) == 1 \
            and isinstance(small.targets[0].target, cst.Name) else None
        qualname = (names.call_name(value) or "") if isinstance(value, cst.Call) else ""
        if target is not None and qualname.startswith("tf.keras.layers."):
            layers[target] = qualname.rsplit(".", 1)[-1]
            shapes.pop(target, None)
            continue
        if isinstance(small, cst.Expr) and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value == "build" and isinstance(value.func.value, cst.Name):
            built.add(value.func.value.value)
            continue
        source = _single_input(value, layers, names) if target is not None else None
        if source is None or source not in shapes:
            for key in writes(statement):
                shapes.pop(key, None)
                layers.pop(key, None)
            continue
        layer = value.func.value if isinstance(value.func, cst.Name) and value.func.value in layers else None
        if layer is None:
            shapes[target] = shapes[source]  # an element-wise op: the same shape (shapes are values)
            continue
        if layer in called:
            break  # a second call: its first built it
        called.add(layer)
        lines = [] if layers[layer] in WEIGHTLESS_LAYERS or layer in built else [f"{layer}.build({shapes[source]})"]
        shape = fresh(f"{target}_shape", taken)
        taken.add(shape)
        out[id(statement)] = lines + [f"{shape} = {layer}.compute_output_shape({shapes[source]})"]
        shapes[target] = shape
    read = {name for lines in out.values() for line in lines
            for name in re.findall(r"\w+", line.split(" = ", 1)[-1] if " = " in line else line)}
    kept = {key: [line for line in lines if " = " not in line or line.split(" = ", 1)[0] in read]
            for key, lines in out.items()}  # (a shape no later layer reads is not computed)
    return {key: lines for key, lines in kept.items() if lines}


def declared_shape(scope: "pm.Scope", key: str, index: int, names: TFNames, tf: str) -> str:
    """``key``'s static shape where the loop starts, as code: the shape a placeholder it names (through plain
    aliases, ``h = x``) declares, as a ``tf.TensorShape``; else ``key.get_shape()`` (the analysis answers it)."""
    name, at = key, index
    for _ in range(8):
        symbol = scope.symbol_at(name, at)
        if symbol is None:
            break
        if symbol.kind == pm.PLACEHOLDER and symbol.call is not None \
                and names.call_name(symbol.call) in api.PLACEHOLDERS:
            positional = [a.value for a in symbol.call.args if a.keyword is None]
            keywords = {a.keyword.value: a.value for a in symbol.call.args if a.keyword is not None}
            shape = keywords.get("shape", positional[1] if len(positional) > 1 else None)
            return f"{tf}.TensorShape({code(shape) if shape is not None else 'None'})"
        node = scope.statements[symbol.index].node if 0 <= symbol.index < len(scope.statements) else None
        small = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
        reshaped = _batch_reshape(small.value, names) if isinstance(small, cst.Assign) else None
        if reshaped is not None:  # tf.reshape(x, [-1, 28, 28, 1]): the batch dimension unknown, the others given
            return f"{tf}.TensorShape([None, {reshaped}])"
        if not (isinstance(small, cst.Assign) and isinstance(small.value, cst.Name)):
            break
        name, at = small.value.value, symbol.index
    return f"{key}.get_shape()"


def _batch_reshape(value: cst.BaseExpression, names: TFNames) -> Optional[str]:
    """The dimensions after the first, as code, of ``tf.reshape(x, [-1, 28, 28, 1])`` (integer literals)."""
    if not (isinstance(value, cst.Call) and names.call_name(value) == "tf.reshape" and len(value.args) == 2
            and isinstance(value.args[1].value, cst.List) and len(value.args[1].value.elements) > 1):
        return None
    dims = [element.value for element in value.args[1].value.elements]
    first = dims[0]
    if not (isinstance(first, cst.UnaryOperation) and isinstance(first.operator, cst.Minus)
            and isinstance(first.expression, cst.Integer) and first.expression.value == "1"):
        return None
    if not all(isinstance(d, cst.Integer) for d in dims[1:]):
        return None
    return ", ".join(d.value for d in dims[1:])
