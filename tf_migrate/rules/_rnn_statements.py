"""What the rnn-to-keras rule reads around the rnn calls: their signatures, input widths, and the state fields.

Widths come from the program text at module level: a placeholder's last dimension, ``tf.one_hot``'s
depth, an embedding table's last dimension, through ``tf.unstack`` / ``tf.cast`` / ``tf.identity``
and literal ``tf.reshape`` shapes. Anything else is unknown, and the rnn is not converted.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.codegen.rnn_weights import CELL_INITIALIZERS, cell_helpers
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code, module_code
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit

_DYNAMIC = ["cell", "inputs", "sequence_length", "initial_state", "dtype", "parallel_iterations", "swap_memory",
            "time_major", "scope"]
_STATIC = ["cell", "inputs", "initial_state", "dtype", "sequence_length", "scope"]
RNN_CALLS = {
    "tf.nn.dynamic_rnn": _DYNAMIC,
    "tf.nn.static_rnn": _STATIC, "tf.contrib.rnn.static_rnn": _STATIC,
    "tf.nn.bidirectional_dynamic_rnn": ["cell_fw", "cell_bw", "inputs", "sequence_length", "initial_state_fw",
                                        "initial_state_bw", "dtype", "parallel_iterations", "swap_memory",
                                        "time_major", "scope"],
}
STATE_TUPLES = ("tf.nn.rnn_cell.LSTMStateTuple", "tf.contrib.rnn.LSTMStateTuple")
_SAME_WIDTH = {"tf.unstack", "tf.cast", "tf.identity", "tf.nn.dropout", "tf.stop_gradient", "tf.to_float"}
_SHAPED = {"tf.placeholder": ("shape", 1), "tf.get_variable": ("shape", 1), "tf.random_uniform": ("shape", 0),
           "tf.random_normal": ("shape", 0), "tf.truncated_normal": ("shape", 0), "tf.zeros": ("shape", 0),
           "tf.ones": ("shape", 0), "tf.reshape": ("shape", 1)}


def _is_member(node: cst.CSTNode) -> bool:
    """``self.n_hidden``: an attribute of a name, which a class's ``__init__`` binds as a module binds names."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)


class Widths:
    """Last dimension of module-level values (and of an ``__init__``'s, ``self.x``), as source (``"3"``,
    ``"n_input"``, ``"self.n_in"``)."""

    def __init__(self, names: TFNames) -> None:
        self.names = names
        self.known: Dict[str, Optional[str]] = {}
        self.constants: Dict[str, int] = {}
        self.python: Set[str] = set()  # names bound to values no TF call made (module-level Python values)

    def int_value(self, node: cst.BaseExpression) -> Optional[int]:
        if isinstance(node, cst.Integer):
            return int(node.value)
        if isinstance(node, cst.Name) or _is_member(node):
            return self.constants.get(code(node))
        return None

    def record(self, stmt: cst.SimpleStatementLine) -> None:
        for small in stmt.body:
            if isinstance(small, cst.Assign) and len(small.targets) > 1:  # n_input = n_class = dic_len
                for target in small.targets:
                    self._python_value(target.target, small.value)
            if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
                continue
            target = small.targets[0].target
            if isinstance(target, cst.Name):
                if isinstance(small.value, cst.Integer):
                    self.constants[target.value] = int(small.value.value)
                self.known[target.value] = self.of(small.value)
                self._python_value(target, small.value)
            else:
                for name in writes(small):
                    self.known.pop(name, None)
                    self.constants.pop(name, None)
                    self.python.discard(name)
                if _is_member(target):  # self.x = ..., self.n_layers = n_layers
                    self.known[code(target)] = self.of(small.value)
                    number = self.int_value(small.value)
                    if number is not None:
                        self.constants[code(target)] = number
                    self._python_value(target, small.value)
                if isinstance(target, cst.Tuple) and isinstance(small.value, cst.Tuple) \
                        and len(target.elements) == len(small.value.elements):  # n_in, n_hidden = 3, 8
                    for name, value in zip(target.elements, small.value.elements):
                        if isinstance(name.value, cst.Name) and isinstance(value.value, cst.Integer):
                            self.constants[name.value.value] = int(value.value.value)

    def _python_value(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """``dic_len = len(chars)``: a Python value (no TF call), usable as a width where it is bound."""
        if isinstance(target, cst.Name) or _is_member(target):
            tf_calls = [c for c in calls_in(value) if (self.names.call_name(c) or "").startswith("tf.")]
            if tf_calls:
                self.python.discard(code(target))
            else:
                self.python.add(code(target))

    def _dimension(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        if isinstance(node, cst.Integer) or ((isinstance(node, cst.Name) or _is_member(node)) and (
                code(node) in self.constants or code(node) in self.python)):
            return code(node)
        return None

    def of(self, expr: cst.BaseExpression) -> Optional[str]:
        if isinstance(expr, cst.Name):
            return self.known.get(expr.value)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            return self.known.get(code(expr))
        if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
            widths = {self.of(element.value) for element in expr.elements}
            return widths.pop() if len(widths) == 1 else None
        if not isinstance(expr, cst.Call):
            return None
        qualname = self.names.call_name(expr) or ""
        if qualname in _SHAPED:
            shape = argument(expr, *_SHAPED[qualname])
            if isinstance(shape, (cst.List, cst.Tuple)) and shape.elements:
                return self._dimension(shape.elements[-1].value)
            return None
        if qualname in ("tf.Variable", "tf.constant") and expr.args:
            return self.of(expr.args[0].value)
        if qualname == "tf.one_hot":
            return self._dimension(argument(expr, "depth", 1))
        if qualname == "tf.nn.embedding_lookup":
            params = argument(expr, "params", 0)
            return self.of(params) if params is not None else None
        if qualname in _SAME_WIDTH and expr.args:
            return self.of(expr.args[0].value)
        if qualname == "tf.transpose" and expr.args and _keeps_last_axis(argument(expr, "perm", 1)):
            return self.of(expr.args[0].value)  # tf.transpose(X, [1, 0, 2]): time-major, same width
        return self._numpy_width(expr) if qualname == "" else None

    def _numpy_width(self, expr: cst.Call) -> Optional[str]:
        """The last dimension of a numpy array made here: ``np.random.randn(V, E).astype(np.float32)``,
        ``np.zeros((V, E))``, ``np.random.uniform(-1, 1, (V, E))`` (an embedding matrix's initial value)."""
        while isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "astype" and isinstance(
                expr.func.value, cst.Call):
            expr = expr.func.value
        head, _, rest = (dotted_name(expr.func) or "").partition(".")
        if self.names.aliases.get(head) != "numpy" or any(arg.star for arg in expr.args):
            return None
        if rest in ("random.randn", "random.rand") and expr.args and all(arg.keyword is None for arg in expr.args):
            return self._dimension(expr.args[-1].value)
        shape = argument(expr, "shape", 0) if rest in ("zeros", "ones", "empty") else (
            argument(expr, "size", 2) if rest in ("random.uniform", "random.normal") else None)
        if isinstance(shape, (cst.List, cst.Tuple)) and shape.elements:
            return self._dimension(shape.elements[-1].value)
        return None


def _keeps_last_axis(perm: Optional[cst.BaseExpression]) -> bool:
    return isinstance(perm, (cst.List, cst.Tuple)) and bool(perm.elements) and all(
        isinstance(e.value, cst.Integer) for e in perm.elements) and int(perm.elements[-1].value.value) == len(
        perm.elements) - 1


def state_tuple_to_tuple(names: TFNames, call: cst.Call) -> Optional[cst.Tuple]:
    """``LSTMStateTuple(c, h)`` -> ``(c, h)``: TF1's state structure without TF1's class."""
    if names.call_name(call) not in STATE_TUPLES:
        return None
    c, h = argument(call, "c", 0), argument(call, "h", 1)
    if c is None or h is None or len(call.args) != 2:
        return None
    return cst.Tuple([cst.Element(c, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Element(h)])


def rewrite_state_fields(module: cst.Module, state_names: Set[str]) -> cst.Module:
    """``state.c`` / ``state.h`` -> ``state[0]`` / ``state[1]`` on rnn states and the values fetched from them."""
    reached = set(state_names)
    assignments = []

    class _Assignments(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            assignments.append((set(writes(node)), reads(node.value)))

    visit(module, _Assignments())
    changed = True
    while changed:  # values computed from a state (fetched, copied, unpacked) hold the same structure
        changed = False
        for written, read in assignments:
            if read & reached and not written <= reached:
                reached |= written
                changed = True

    class _Fields(cst.CSTTransformer):
        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            if updated.attr.value not in ("c", "h") or not (_root(updated.value) in reached):
                return updated
            index = "0" if updated.attr.value == "c" else "1"
            return cst.Subscript(updated.value, [cst.SubscriptElement(cst.Index(cst.Integer(index)))])

    return visit(module, _Fields())


def _root(node: cst.BaseExpression) -> Optional[str]:
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def with_cell_helpers(module: cst.Module, tf: str, lstm_step: bool) -> cst.Module:
    """The module with the cells' helper functions (``tf1_cell_initializers``; ``tf1_lstm_step`` where asked),
    unless an earlier rule put them in."""
    if f"def {CELL_INITIALIZERS}(" in module_code(module):
        return module
    return insert_helpers(module, cell_helpers(tf, lstm_step))


def insert_helpers(module: cst.Module, source: str) -> cst.Module:
    """The helper functions after the module's leading imports (and docstring), PEP 8 spaced."""
    body = list(module.body)
    position = 0
    for index, stmt in enumerate(body):
        if isinstance(stmt, cst.SimpleStatementLine) and (
                all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)
                or (index == 0 and isinstance(stmt.body[0], cst.Expr)
                    and isinstance(stmt.body[0].value, cst.SimpleString))):
            position = index + 1
        else:
            break
    helpers = list(cst.parse_module(source.lstrip("\n")).body)
    two_blank = [cst.EmptyLine(indent=False)] * 2
    helpers = [h.with_changes(leading_lines=two_blank) for h in helpers]
    if position < len(body):
        rest = body[position]
        kept = [line for line in rest.leading_lines if line.comment is not None]
        body[position] = rest.with_changes(leading_lines=two_blank + kept)
    return module.with_changes(body=body[:position] + helpers + body[position:])


class StateTuples(cst.CSTTransformer):
    """``LSTMStateTuple(c, h)`` -> ``(c, h)``, the structure the converted rnn takes and returns."""

    def __init__(self, names: TFNames) -> None:
        self.names = names

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return state_tuple_to_tuple(self.names, updated) or updated


def top_lines(body) -> List[cst.SimpleStatementLine]:
    """The simple statements of a module body and of its ``with`` blocks, in order."""
    lines = []
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            lines.append(stmt)
        elif isinstance(stmt, cst.With):
            lines.extend(top_lines(stmt.body.body))
    return lines


def calls_by_name(module: cst.Module) -> Dict[str, cst.Call]:
    """A call of each plain function name (the last one): where a function building an rnn gets its input."""
    calls: Dict[str, cst.Call] = {}

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name):
                calls[call.func.value] = call

    visit(module, _Calls())
    return calls


def calls_in(node: cst.CSTNode) -> List[cst.Call]:
    found: List[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    visit(node, _Calls())
    return found


def call_arguments(func: cst.FunctionDef, call: Optional[cst.Call]) -> Dict[str, cst.BaseExpression]:
    """Parameter of ``func`` -> the argument ``call`` gives it, by position or keyword (none for ``*args``)."""
    if call is None or any(arg.star for arg in call.args):
        return {}
    params = [p.name.value for p in func.params.params]
    given: Dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
        if name is not None:
            given[name] = arg.value
    return given


def given_argument(value):
    """An argument's value, None where the call gives none or writes ``None`` (``initial_state=None``)."""
    return None if value is None or isinstance(value, cst.Name) and value.value == "None" else value
