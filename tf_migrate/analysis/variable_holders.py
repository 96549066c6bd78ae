"""Plain classes whose objects hold variables and compute only when their methods are called.

    class HiddenLayer:                                      the course and RL-agent layer object
        def __init__(self, M1, M2, f=tf.nn.tanh, use_bias=True):
            W = tf.random_normal(shape=(M1, M2)) * np.sqrt(2. / M1)
            self.W = tf.Variable(W)
            if use_bias:
                self.b = tf.Variable(np.zeros(M2).astype(np.float32))
            self.f = f

        def forward(self, X):
            return self.f(tf.matmul(X, self.W) + self.b)

In TF1 such an object made its variables when it was built and added graph ops at each ``forward`` call; in eager
code it makes them when it is built too, and ``forward`` computes on what it is given. Its objects are known as a
``tf.Module``'s are (analysis/modules: their variables, in creation order).

The class must be plain (no base but ``object``), run nothing (no ``.run`` / ``.eval``), declare no placeholders,
and its ``__init__`` must compute no graph value a method could read later: TensorFlow is called there only to make
the variables and their initial values (a random or constant op of the arguments, bound to a local only variable
constructors read), nothing computes on a variable (``self.Ws = self.W * 0.5`` was a graph op TF1 recomputed at each
run, an eager object would hold its value at construction), and no function of another module is called (it might
make variables the object's list would miss).
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import all_nodes, remember, visit

# Ops an initial value may be computed with, from the arguments of __init__.
_INITIAL_VALUES = (api.RANDOM_OPS - {"tf.nn.dropout"}) | {"tf.zeros", "tf.ones", "tf.constant", "tf.fill"}
_LIST_METHODS = ("append", "extend")
_COMPUTING = (cst.BinaryOperation, cst.UnaryOperation, cst.Subscript, cst.Comparison, cst.BooleanOperation)


def is_variable_holder(cls: cst.ClassDef, names: TFNames) -> bool:
    """Whether objects of ``cls`` hold variables made in ``__init__`` and compute only in their methods (module doc);
    asked once per class statement of a file."""
    return remember(("variable-holder", id(cls), tuple(sorted(names.aliases.items()))), cls,
                    lambda: _is_variable_holder(cls, names))


def _is_variable_holder(cls: cst.ClassDef, names: TFNames) -> bool:
    if any(dotted_name(base.value) != "object" for base in cls.bases) or cls.keywords:
        return False
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None or any(isinstance(call.func, cst.Attribute) and call.func.attr.value in ("run", "eval")
                           or names.call_name(call) in api.PLACEHOLDERS for call in all_calls(cls.body)):
        return False
    others = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m is not init]
    if any(_makes_variables(names.call_name(call) or "") for method in others for call in all_calls(method)):
        return False  # (a method making variables made new ones at each call)
    lines = _small_statements(init.body)
    variables = {key for line in lines if isinstance(line, cst.Assign) and _constructor(line.value, names)
                 for key in writes(line)}
    initial = _initial_locals(lines, names)
    own = {p.name.value for p in init.params.params} | set(writes(init.body)) | set(names.aliases)
    for line in lines:
        if any(_imported(call, names) for call in all_calls(line)):
            return False  # (a function of another module might make variables the object's list would miss)
        if isinstance(line, cst.Assign) and set(writes(line)) <= initial:
            if not reads(line.value) <= own or any(names.call_name(call) not in _INITIAL_VALUES | {None}
                                                   for call in all_calls(line.value)):
                return False
            continue
        outside = _without_constructors(line, names)
        if any(names.call_name(call) is not None for call in all_calls(outside)):
            return False  # graph code that is not making a variable
        computing = [node for node in all_nodes(outside) if isinstance(node, _COMPUTING) or (
            isinstance(node, cst.Call) and not _list_method(node))]
        if any(reads(node) & (variables | initial) for node in computing):
            return False  # a graph value computed from a variable (or initial value), once
    return True


def _imported(call: cst.Call, names: TFNames) -> bool:
    """A call of a function imported from outside TensorFlow and the known libraries."""
    if names.call_name(call) is not None:
        return False
    imported = names.aliases.get((dotted_name(call.func) or "").split(".")[0], "").split(".")[0]
    return bool(imported) and imported not in api.HOST_MODULES


def _makes_variables(qualname: str) -> bool:
    return qualname in api.VARIABLE_CONSTRUCTORS or qualname.startswith(("tf.layers.", "tf.contrib.layers.")) \
        or api.builds_keras_variables(qualname)


def _constructor(node: cst.BaseExpression, names: TFNames) -> bool:
    return isinstance(node, cst.Call) and names.call_name(node) in api.VARIABLE_CONSTRUCTORS


def _list_method(call: cst.Call) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _LIST_METHODS


def _initial_locals(lines: List[cst.BaseSmallStatement], names: TFNames) -> Set[str]:
    """Plain names bound to a TensorFlow op's result that only variable constructors (or other such names) read."""
    found = {target.target.value for line in lines if isinstance(line, cst.Assign) and not _constructor(
        line.value, names) and any(names.call_name(c) is not None for c in all_calls(line.value))
        for target in line.targets if isinstance(target.target, cst.Name)}
    while True:
        bad = {key for line in lines if not (isinstance(line, cst.Assign) and set(writes(line)) <= found)
               for key in reads(_without_constructors(line, names)) & found}
        if not bad:
            return found
        found -= bad


def _small_statements(body: cst.BaseSuite) -> List[cst.BaseSmallStatement]:
    found: List[cst.BaseSmallStatement] = []
    for statement in body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            found.extend(statement.body)
        elif isinstance(statement, (cst.If, cst.With, cst.For)):
            found.extend(_small_statements(statement.body))
            orelse = getattr(statement, "orelse", None)
            while orelse is not None:
                found.extend(_small_statements(orelse.body))
                orelse = getattr(orelse, "orelse", None)
    return found


def _without_constructors(node: cst.CSTNode, names: TFNames) -> cst.CSTNode:
    """``node`` with each variable constructor call replaced by a name that reads nothing."""

    class _Drop(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            return cst.Name("made_variable") if _constructor(original, names) else updated

    return visit(node, _Drop())


