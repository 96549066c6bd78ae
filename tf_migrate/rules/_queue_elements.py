"""What a queue pipeline's element code may be, and where its names are read (queue-pipelines' survey).

The element code becomes a function ``tf.data`` maps over the records: it may compute from the element with
TensorFlow ops, methods of its tensors and Python builtins, and read Python values; a graph value (a placeholder,
a variable, a tensor of the program) it reads was read in each TF1 run, and a dataset's function reads it once.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.cst.statements import statement_lines
from tf_migrate.rules import RuleContext

_NOT_ELEMENT_OPS = api.VARIABLE_CONSTRUCTORS | api.PLACEHOLDERS | {"tf.get_variable_scope", "tf.variable_scope"}
_NOT_ELEMENT_PREFIXES = ("tf.layers.", "tf.summary.", "tf.train.", "tf.contrib.", "tf.keras.", "tf.nn.rnn_cell.",
                         "tf.estimator.", "tf.Session", "tf.InteractiveSession", "tf.py_func", "tf.numpy_function")
_STATEFUL_PREFIXES = ("tf.assign", "tf.scatter_", "tf.count_up_to", "tf.data.", "tf.FIFOQueue", "tf.queue.",
                      "tf.py_func", "tf.numpy_function", "tf.py_function")
_BUILTINS = {"int", "float", "len", "list", "tuple", "range", "str", "min", "max", "abs", "round", "slice"}


def data_only(statement, chain: Set[str], ctx: RuleContext) -> bool:
    """Whether each call of ``statement`` computes from tensors: a TensorFlow op other than a variable, a
    placeholder, a layer or a summary, a method of an element tensor, or a Python builtin."""
    for call in all_calls(statement):
        qualname = ctx.names.call_name(call) or ""
        if qualname.startswith("tf."):
            if qualname in _NOT_ELEMENT_OPS or qualname.startswith(_NOT_ELEMENT_PREFIXES):
                return False
        elif isinstance(call.func, cst.Attribute):
            root = call.func.value
            while isinstance(root, (cst.Attribute, cst.Subscript)):
                root = root.value
            if not (isinstance(root, cst.Name) and root.value in chain):
                return False
        elif not (isinstance(call.func, cst.Name) and call.func.value in _BUILTINS):
            return False
    return True


def value_reads(node) -> Set[str]:
    """What a statement reads (an assignment's value: the targets it binds are not read)."""
    if is_assign(node):
        return reads(node.body[0].value)
    return reads(node)


def outside(scope: cst.CSTNode, body: list) -> List[cst.CSTNode]:
    """Statements of ``scope`` outside ``body``, and the heads of its compound statements around it."""
    inside = {id(s) for s in body}
    found: List[cst.CSTNode] = []

    class _Walk(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node) -> bool:
            if id(node) not in inside:
                found.append(node)
            return False

        def on_visit(self, node) -> bool:
            if id(node) in inside:
                return False
            if isinstance(node, (cst.If, cst.While, cst.For, cst.Try, cst.With)) and id(node) not in inside:
                found.append(_head(node))
            return super().on_visit(node)

    scope.visit(_Walk())
    return [f for f in found if f is not None]


def _head(node) -> Optional[cst.CSTNode]:
    if isinstance(node, (cst.If, cst.While)):
        return node.test
    if isinstance(node, cst.For):
        return node.iter
    if isinstance(node, cst.With):
        return cst.Tuple([cst.Element(item.item) for item in node.items])
    return None


def sets_shape(statement) -> bool:
    """``image.set_shape([4])``: the element's static shape, which the dataset's function sets the same way."""
    line = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    call = line.value if isinstance(line, cst.Expr) else None
    return (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "set_shape"
            and isinstance(call.func.value, cst.Name))


def assigned_call(statement) -> Optional[cst.Call]:
    if is_assign(statement) and isinstance(statement.body[0].value, cst.Call):
        return statement.body[0].value
    return None


def is_assign(statement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1)


def loads(nodes, name: str) -> bool:
    """Whether ``nodes`` read the variable ``name`` (a loop's or an assignment's target binds it: not a read)."""
    return _Loads.found_in(nodes, name, by_index=True)
    return _Loads.found_in(nodes, name, by_index=True)


def read_whole(nodes, name: str) -> bool:
    """Whether ``nodes`` read the list ``name`` other than by an index (``batch[0]``): a dataset gives a tuple
    where TF1 gave a list, which a print, a fetch or ``+`` shows."""
    return _Loads.found_in(nodes, name, by_index=False)


class _Loads(cst.CSTVisitor):
    def __init__(self, name: str, by_index: bool) -> None:
        self.name, self.by_index, self.found = name, by_index, False

    @classmethod
    def found_in(cls, nodes, name: str, by_index: bool) -> bool:
        visitor = cls(name, by_index)
        for node in nodes:
            node.visit(visitor)
        return visitor.found

    def visit_Name(self, node: cst.Name) -> None:
        self.found |= node.value == self.name

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        if self.by_index or not (isinstance(node.value, cst.Name) and node.value.value == self.name):
            return True
        for element in node.slice:  # `name[i]`: the index may read it whole
            element.visit(self)
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return not isinstance(node.target, (cst.Name, cst.Tuple, cst.List))

    def visit_For(self, node: cst.For) -> bool:
        node.iter.visit(self)
        node.body.visit(self)
        if node.orelse is not None:
            node.orelse.visit(self)
        return False

    def visit_CompFor(self, node: cst.CompFor) -> bool:
        node.iter.visit(self)  # (its target is the comprehension's own)
        for condition in node.ifs:
            condition.visit(self)
        if node.inner_for_in is not None:
            node.inner_for_in.visit(self)
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False


class PerRunValues:
    """Which names of the module hold a value TF1 computed again in each run: bound (anywhere) to a placeholder,
    a variable, a random op, a layer or another stateful TF call, to a call of a function of the module that calls
    TensorFlow (what it builds is not followed), or to an expression of such a name (followed through assignments).
    A tensor of constants is the same in every run: a dataset's function may read it."""

    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.bindings: Dict[str, List[cst.BaseExpression]] = {}
        for statement in statement_lines(module):
            for line in statement.body:
                if isinstance(line, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and line.value is not None:
                    for name in writes(line):
                        self.bindings.setdefault(name, []).append(line.value)
        self.graph_functions = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and any(
            (ctx.names.call_name(call) or "").startswith("tf.") for call in all_calls(s))}
        self.known: Dict[str, bool] = {}

    def read_by(self, node: cst.CSTNode, but: Set[str] = frozenset()) -> Optional[str]:
        """A name ``node`` reads (other than ``but``) whose value is computed again in each run."""
        return next((name for name in sorted(value_reads(node) - set(but)) if self._per_run(name)), None)

    def _per_run(self, name: str) -> bool:
        if name not in self.known:
            self.known[name] = False  # (a cycle through the name itself adds nothing)
            self.known[name] = any(self._value_per_run(value) for value in self.bindings.get(name, ()))
        return self.known[name]

    def _value_per_run(self, value: cst.BaseExpression) -> bool:
        for call in all_calls(value):
            qualname = self.ctx.names.call_name(call) or ""
            if qualname.startswith("tf."):
                if (qualname in _NOT_ELEMENT_OPS or qualname.startswith(_NOT_ELEMENT_PREFIXES)
                        or api.is_random_op(qualname) or qualname.startswith(_STATEFUL_PREFIXES)):
                    return True
            elif isinstance(call.func, cst.Name) and call.func.value in self.graph_functions:
                return True
        return any(self._per_run(read) for read in reads(value))
