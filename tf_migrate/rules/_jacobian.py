"""What the Jacobian rules share: matching a per-element gradient, and its vectorized form.

One element of a TF1 Jacobian recipe is ``F(tf.gradients(y[..., i, ...], x)[0])``
for ``i`` in ``range(a, b, s)``: ``F`` is a chain of ``tf.expand_dims`` /
``tf.reshape``. tf.gradients sums over its ys, so that gradient is row ``i`` of
``jacobian(y_sums, x)`` (TF1's graph-mode ``parallel_for.gradients.jacobian``),
where ``y_sums`` is ``y[..., :, ...]`` summed over every axis but i's, rows
``a:b:s``. All rows at once, with ``F`` applied to each row::

    y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))
    grads = tf.expand_dims(jacobian(y_row_sums, x), axis=1)

That is still TF1 code (compat mode runs it), and the session rule lowers the
call to ``tape.jacobian``: one vectorized backward pass instead of one
gradient subgraph per element. The code of that form is written by
:mod:`tf_migrate.rules._jacobian_code`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.imports import insert_after_tensorflow_import
from tf_migrate.cst.names import fresh, substituted
from tf_migrate.cst.text import code
from tf_migrate.rules import RuleContext
from tf_migrate.rules._edits import int_literal, loads
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

PFOR_MODULE = "tensorflow.python.ops.parallel_for.gradients"
PFOR_JACOBIAN = PFOR_MODULE + ".jacobian"
# Names the import statement mentions: the core reads them as uses, so they must not be graph values.
_IMPORT_PATH_NAMES = ("python", "ops", "parallel_for", "gradients")
_TENSOR_KINDS = {pm.PLACEHOLDER, pm.VARIABLE, pm.TENSOR, pm.EAGER}
# TF calls whose result is a list or structure, not one tensor.
_STRUCTURED = {"tf.gradients", "tf.hessians", "tf.unstack", "tf.split", "tf.meshgrid", "tf.dynamic_partition",
               "tf.map_fn", "tf.while_loop", "tf.cond", "tf.case", "tf.tuple", "tf.group", "tf.py_func",
               "tf.trainable_variables", "tf.global_variables", "tf.get_collection"}
GRADIENT_PARAMS = ["ys", "xs", "grad_ys", "name", "colocate_gradients_with_ops", "gate_gradients",
                    "aggregation_method", "stop_gradients", "unconnected_gradients"]
_HARMLESS_GRADIENT_PARAMS = {"ys", "xs", "name", "colocate_gradients_with_ops", "gate_gradients",
                             "aggregation_method"}
SUGGESTION = ("a vectorized Jacobian is `jacobian(y, x)` from tensorflow.python.ops.parallel_for.gradients "
              "(GradientTape.jacobian in TF2), summed over y's axes that one tf.gradients call summed")


def gradient_calls(node: cst.CSTNode, names: TFNames) -> List[cst.Call]:
    found: List[cst.Call] = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if names.call_name(call) == "tf.gradients":
                found.append(call)

    visit(node, _Find())
    return found


def differentiates_along(node: cst.CSTNode, var: str, names: TFNames) -> bool:
    """Whether ``node`` calls tf.gradients with ys that depend on ``var`` (looks like a Jacobian recipe)."""
    for call in gradient_calls(node, names):
        bound = bind(call, GRADIENT_PARAMS) or {}
        if "ys" in bound and var in reads(bound["ys"]):
            return True
    return False


# -- one element ---------------------------------------------------------------------------------

@dataclass
class Element:
    """``F(tf.gradients(base[..., var, ...], source)[k])``, F given as wrappers, innermost first."""

    base: cst.BaseExpression
    subscript: Sequence[cst.SubscriptElement]
    position: int  # where var sits among the subscript elements (an axis of base)
    source: cst.BaseExpression
    wrappers: List[Tuple[str, cst.BaseExpression]]  # ("expand_dims", axis) / ("reshape", shape)


def match_element(expr: cst.BaseExpression, var: str, names: TFNames) -> Union[Element, str]:
    """The element a recipe stacks, or why it is not one this rule vectorizes."""
    wrappers: List[Tuple[str, cst.BaseExpression]] = []
    while not _is_gradient_item(expr, names):
        qualname = names.call_name(expr) if isinstance(expr, cst.Call) else None
        if qualname == "tf.expand_dims":
            bound = bind(expr, ["input", "axis", "name", "dim"]) or {}
            axis = bound.get("axis", bound.get("dim"))
            if "input" not in bound or int_literal(axis) is None:
                return "tf.expand_dims needs a literal integer axis"
            wrappers.append(("expand_dims", axis))
            expr = bound["input"]
        elif qualname == "tf.reshape":
            bound = bind(expr, ["tensor", "shape", "name"]) or {}
            shape = bound.get("shape")
            if "tensor" not in bound or not _plain_shape(shape, var):
                return "tf.reshape needs a literal shape list without -1"
            wrappers.append(("reshape", shape))
            expr = bound["tensor"]
        else:
            return f"`{code(expr)}` is not tf.gradients(...)[k], or tf.expand_dims / tf.reshape of it"
    wrappers.reverse()
    call, k = expr.value, int_literal(expr.slice[0].slice.value)
    bound = bind(call, GRADIENT_PARAMS)
    if bound is None or "ys" not in bound or "xs" not in bound:
        return "tf.gradients with arguments this rule does not read"
    extra = set(bound) - _HARMLESS_GRADIENT_PARAMS
    if extra:
        return f"tf.gradients with {', '.join(sorted(extra))}"
    xs = bound["xs"]
    if isinstance(xs, (cst.List, cst.Tuple)):
        elements = xs.elements
        if not 0 <= k < len(elements) or any(isinstance(e, cst.StarredElement) for e in elements):
            return "tf.gradients(...)[k] with k outside a literal xs list"
        source = elements[k].value
    elif k == 0:
        source = xs
    else:
        return "tf.gradients(...)[k] with k > 0 and xs not a literal list"
    if symbol_key(source) is None:
        return f"the source `{code(source)}` is not a name"
    ys = bound["ys"]
    if not isinstance(ys, cst.Subscript):
        return f"the ys `{code(ys)}` is not a subscript of one tensor by `{var}`"
    positions = [i for i, el in enumerate(ys.slice) if isinstance(el.slice, cst.Index)
                 and isinstance(el.slice.value, cst.Name) and el.slice.value.value == var]
    if len(positions) != 1 or var in reads(ys.value):
        return f"the ys `{code(ys)}` is not a subscript of one tensor by `{var}`"
    for i, el in enumerate(ys.slice):
        if i == positions[0]:
            continue
        if isinstance(el.slice, cst.Index):
            value = el.slice.value
            if var in reads(value) or isinstance(value, cst.Ellipsis) or el.slice.star or (
                    isinstance(value, cst.Name) and value.value == "None") or (
                    isinstance(value, cst.Attribute) and value.attr.value == "newaxis"):
                return f"the ys `{code(ys)}` uses an index this rule does not vectorize"
        elif var in reads(el.slice):
            return f"the ys `{code(ys)}` uses `{var}` in a slice"
    for _, arg in wrappers:
        if var in reads(arg):
            return f"the element reshapes with `{var}`"
    return Element(ys.value, ys.slice, positions[0], source, wrappers)


def _is_gradient_item(expr: cst.BaseExpression, names: TFNames) -> bool:
    return (isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Call)
            and names.call_name(expr.value) == "tf.gradients" and len(expr.slice) == 1
            and isinstance(expr.slice[0].slice, cst.Index) and int_literal(expr.slice[0].slice.value) is not None)


def _plain_shape(shape: Optional[cst.BaseExpression], var: str) -> bool:
    if not isinstance(shape, (cst.List, cst.Tuple)) or not shape.elements:
        return False
    for element in shape.elements:
        value = element.value
        if isinstance(element, cst.StarredElement) or var in reads(value):
            return False
        literal = int_literal(value)
        if (literal is not None and literal < 0) or isinstance(value, cst.UnaryOperation):
            return False
    return True


def element_of(body: Sequence[cst.BaseStatement], pick) -> Tuple[Optional[cst.BaseExpression], List[str]]:
    """(element, temporaries) of ``t = ...`` lines then one last line; ``pick(small)`` finds the element in it.

    Each temporary is used once, and inlined: ``g = tf.gradients(...)[0]; rows.append(f(g))`` is ``f(...)``.
    """
    temps: Dict[str, cst.BaseExpression] = {}
    for stmt in body[:-1]:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            return None, []
        temps[small.targets[0].target.value] = _inline(small.value, temps)
    last = body[-1] if body else None
    small = last.body[0] if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 else None
    element = pick(small) if small is not None else None
    if element is None or any(len(loads(cst.Module(body=list(body)), name)) != 1 for name in temps):
        return None, []
    return _inline(element, temps), list(temps)


def _inline(expr: cst.BaseExpression, temps: Dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    return substituted(expr, temps)


# -- the index range ------------------------------------------------------------------------------

@dataclass
class IndexRange:
    start: Optional[cst.BaseExpression]
    stop: cst.BaseExpression
    step: Optional[cst.BaseExpression]


def match_range(node: cst.BaseExpression, names: TFNames) -> Optional[IndexRange]:
    """``range(...)`` (Python) or ``tf.range(...)`` as start/stop/step, else None."""
    if not isinstance(node, cst.Call):
        return None
    if isinstance(node.func, cst.Name) and node.func.value == "range":
        bound = bind(node, ["start", "stop", "step"])
    elif names.call_name(node) == "tf.range":
        bound = bind(node, ["start", "limit", "delta", "dtype", "name"])
        if bound is not None and "limit" in bound:
            bound["stop"] = bound.pop("limit")
        if bound is not None and "delta" in bound:
            bound["step"] = bound.pop("delta")
    else:
        return None
    if not bound:
        return None
    if "stop" not in bound:
        bound["stop"] = bound.pop("start")
    return IndexRange(bound.get("start"), bound["stop"], bound.get("step"))


def covers_axis(rng: IndexRange, element: Element, tf: str) -> bool:
    """Whether the range visits every index of the axis it subscripts (then no slice is needed)."""
    if rng.start is not None and int_literal(rng.start) != 0:
        return False
    if rng.step is not None and int_literal(rng.step) != 1:
        return False
    base, axis = code(element.base), element.position
    extents = {f"{base}.shape[{axis}]", f"{base}.get_shape()[{axis}]", f"{base}.shape.as_list()[{axis}]",
               f"{base}.get_shape().as_list()[{axis}]", f"{tf}.shape({base})[{axis}]"}
    extents |= {f"{e}.value" for e in list(extents)} | {f"int({e})" for e in list(extents)}
    if axis == 0:
        extents |= {f"len({base})", f"{tf}.size({base})"}
    compact = {e.replace(" ", "") for e in extents}
    return code(rng.stop).replace(" ", "") in compact


def match_stack(call: cst.Call, names: TFNames, element: Element) -> Union[Tuple[int, list], str]:
    """(axis, wrappers) of ``tf.stack(rows, axis)``, or ``tf.concat`` of rows each expanded at ``axis``."""
    qualname = names.call_name(call)
    if qualname == "tf.stack":
        bound = bind(call, ["values", "axis", "name"]) or {}
        axis = int_literal(bound["axis"]) if "axis" in bound else 0
        wrappers = element.wrappers
    elif qualname == "tf.concat":
        bound = bind(call, ["values", "axis", "name"]) or {}
        axis = int_literal(bound.get("axis"))
        outer = element.wrappers[-1] if element.wrappers else None
        if outer is None or outer[0] != "expand_dims" or int_literal(outer[1]) != axis:
            return "tf.concat of rows not each expanded along the concat axis"
        wrappers = element.wrappers[:-1]
    else:
        return "the list is not passed to tf.stack or tf.concat"
    if axis is None or axis < -1:
        return "tf.stack/tf.concat along an axis this rule does not move (a literal >= -1 is needed)"
    return axis, wrappers


# -- names, kinds and the import ------------------------------------------------------------------

class Kinds:
    """Program-model kinds of names, per scope (module body, or a function's body)."""

    def __init__(self, module: cst.Module, names: TFNames) -> None:
        self.module, self.names = module, names
        self._scopes: Dict[int, "pm.Scope"] = {}

    def _scope(self, function: Optional[cst.FunctionDef]) -> "pm.Scope":
        key = id(function)
        if key not in self._scopes:
            if function is None:
                self._scopes[key] = analyze_scope(list(self.module.body), self.names)
            else:
                params = tuple(p.name.value for p in function.params.params)
                self._scopes[key] = analyze_scope(list(function.body.body), self.names, params)
        return self._scopes[key]

    def is_one_tensor(self, expr: cst.BaseExpression, function: Optional[cst.FunctionDef]) -> bool:
        if isinstance(expr, cst.Call):
            qualname = self.names.call_name(expr) or ""
            return qualname.startswith("tf.") and qualname not in _STRUCTURED
        key = symbol_key(expr)
        if key is None:
            return False
        for scope in ([self._scope(function)] if function is not None else []) + [self._scope(None)]:
            if key in scope.symbols:
                return scope.kind(key) in _TENSOR_KINDS
        return False


def jacobian_name(module: cst.Module, ctx: RuleContext, taken: set) -> Union[Tuple[str, Optional[str]], str]:
    """(how to call pfor's jacobian, the import that makes it callable or None), or why it cannot be imported.

    The core reads every name in an import statement as a use, so the import must not mention a name
    the module binds (``jacobian = tf.stack(...)`` is a per-run value: reading it at import time would
    keep the file out of eager mode).
    """
    for local, full in ctx.names.aliases.items():
        if full == PFOR_JACOBIAN:
            return local, None
        if full == PFOR_MODULE:
            return f"{local}.jacobian", None
    bound = set(writes(module))
    path = sorted(bound & set(_IMPORT_PATH_NAMES))
    if path:
        return f"importing {PFOR_MODULE} would read `{path[0]}`, a name this module binds"
    if "jacobian" not in taken:
        taken.add("jacobian")
        return "jacobian", f"from {PFOR_MODULE} import jacobian"
    if "jacobian" in bound:
        module_alias = fresh("pfor", taken)
        return f"{module_alias}.jacobian", f"from {PFOR_MODULE.rsplit('.', 1)[0]} import gradients as {module_alias}"
    local = fresh("pfor_jacobian", taken)
    return local, f"from {PFOR_MODULE} import jacobian as {local}"


def add_import(module: cst.Module, ctx: RuleContext, import_line: str) -> cst.Module:
    """``import_line`` after the tensorflow import; the rules that follow resolve what it binds."""
    ctx.names.aliases.update(TFNames.scan(cst.parse_module(import_line + "\n")).aliases)
    return insert_after_tensorflow_import(module, [import_line])
