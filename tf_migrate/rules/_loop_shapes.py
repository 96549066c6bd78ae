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
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set

import libcst as cst

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
