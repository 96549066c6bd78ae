"""The graph names TF1 gave to values the program text binds: ``tf_x = tf.placeholder(..., name='features')``
made the tensor ``features:0``, ``train = opt.minimize(cost, name='train')`` the operation ``train``.

Programs that run a graph by name (``sess.run('cost:0', feed_dict={'features:0': x})``) mean those values.
This module says which Python name holds the value a name string means, where the text settles it, and
why not elsewhere. It reads module-level code in order, as TF1 built it:

- each ``with g.as_default():`` block (or the default graph, renewed by ``tf.reset_default_graph()``) is a
  graph of its own; ``g = tf.Graph()`` bound again is another graph;
- ``with tf.name_scope('loss'):`` and ``tf.variable_scope('loss')`` with a literal name prefix the names
  made inside (``loss/cost``); a scope name entered twice in one graph (TF1 made it ``loss_1``), a scope
  with any other argument, or another kind of ``with`` leaves the names made inside unknown;
- a name is known when exactly one call of its graph gives it, as the ``name=`` literal of a call whose
  output TF1 named exactly so (``tf.placeholder``, ``tf.reduce_mean``, ``minimize``...: not ``tf.layers.dense``,
  whose ``name`` is a scope for ops named ``dense/BiasAdd``), bound alone to a name by a statement that
  runs once (not in a loop, branch or function).

A session knows its graph: ``tf.Session(graph=g)``, or the default graph where it is made.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import target_keys
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# Calls whose ``name=`` names the op whose first output (or the op itself) the call returns.
_EXACT = {
    "tf.placeholder", "tf.placeholder_with_default", "tf.Variable", "tf.identity", "tf.constant",
    "tf.reduce_mean", "tf.reduce_sum", "tf.reduce_max", "tf.reduce_min", "tf.reduce_prod", "tf.reduce_any",
    "tf.reduce_all", "tf.add", "tf.subtract", "tf.multiply", "tf.matmul", "tf.divide", "tf.square", "tf.sqrt",
    "tf.exp", "tf.log", "tf.abs", "tf.negative", "tf.equal", "tf.not_equal", "tf.greater", "tf.less",
    "tf.argmax", "tf.argmin", "tf.cast", "tf.reshape", "tf.concat", "tf.transpose", "tf.squeeze",
    "tf.nn.relu", "tf.nn.softmax", "tf.nn.sigmoid", "tf.sigmoid", "tf.tanh", "tf.nn.tanh", "tf.nn.bias_add",
    "tf.nn.conv2d", "tf.nn.max_pool", "tf.nn.l2_loss", "tf.group", "tf.assign",
}
_OPERATIONS = {"tf.group"}  # calls that return an operation, not a tensor
_OPTIMIZER_STEPS = ("minimize", "apply_gradients")
_NEUTRAL_WITH = {"tf.device", "tf.control_dependencies", "tf.Session", "tf.InteractiveSession",
                 "tf.compat.v1.Session"}
_SCOPES = {"tf.name_scope", "tf.variable_scope"}
_TENSOR = re.compile(r"^(?P<op>[A-Za-z0-9.][A-Za-z0-9_.\-/]*)(?::(?P<index>\d+))?$")
# Names TF gives ops made without one (the Python operators' among them): a literal equal to one may not be alone.
_DEFAULT_NAMES = {"add", "sub", "mul", "truediv", "div", "pow", "neg", "mod", "floordiv", "and", "or", "xor", "invert",
                  "init", "gradients", "save", "report_uninitialized_variables"}


@dataclasses.dataclass
class Named:
    """A value the program binds under the graph name TF1 gave it."""

    target: str  # the Python name bound to it
    statement: int  # position of the statement that binds it
    is_operation: bool


@dataclasses.dataclass
class GraphNames:
    graph: int
    named: Dict[str, List[Optional[Named]]] = dataclasses.field(default_factory=dict)  # None: a call gives it
    unknown: str = ""  # why names made in this graph are not all known ("" when they are)


@dataclasses.dataclass
class ModuleGraphNames:
    graphs: Dict[int, GraphNames]
    sessions: Dict[Tuple[str, int], int]  # (session name, position of the statement that binds it) -> graph
    bindings: Dict[str, List[int]]  # Python name -> the positions of the statements that bind it
    elsewhere: Set[str]  # last parts of the names functions and classes give
    loops: List[Tuple[int, int]]  # (first, last) position of each loop's statements
    positions: Dict[int, int]  # id(statement) -> its position in the text (statements are counted in order)

    def resolve(self, text: str, graph: int, statement: int) -> Tuple[Optional[str], str]:
        """(the Python name that holds what ``text`` means in ``graph`` at the statement at position ``statement``,
        why not when None)."""
        match = _TENSOR.match(text)
        if match is None:
            return None, f"`{text}` is not a tensor or operation name"
        op, index = match.group("op"), match.group("index")
        names = self.graphs.get(graph)
        if names is None:
            return None, "the session's graph is not known"
        if names.unknown:
            return None, names.unknown
        found = names.named.get(op, [])
        if len(found) != 1 or found[0] is None or op in _DEFAULT_NAMES or op.rsplit("/", 1)[-1] in self.elsewhere:
            return None, f"`{op}` is not given by exactly one call of its graph bound alone to a name"
        named = found[0]
        if index not in (None, "0") or (index is None) != named.is_operation:
            return None, f"`{text}` names {'an operation' if index is None else 'a tensor'} the text does not bind"
        others = [i for i in self.bindings.get(named.target, []) if i != named.statement]
        looped = [(first, last) for first, last in self.loops if first <= statement <= last]
        if named.statement >= statement or any(named.statement < i < statement for i in others) or any(
                first <= i <= last for first, last in looped for i in others):
            return None, f"`{named.target}` is bound again before this run"
        return named.target, ""

    def session_graph(self, session: str, statement: int) -> Optional[int]:
        bound = [(i, g) for (name, i), g in self.sessions.items() if name == session and i <= statement]
        return max(bound)[1] if bound else None


def graph_names(module: cst.Module, names: TFNames) -> ModuleGraphNames:
    order = _Order()
    module.visit(order)  # (LibCST's own walk: _Order counts every statement in on_visit)
    reader = _Reader(names, order.positions)
    for statement in module.body:
        reader.statement(statement)
    return ModuleGraphNames(reader.graphs, reader.sessions, order.bindings, reader.elsewhere, order.loops,
                            order.positions)


class _Reader:
    def __init__(self, names: TFNames, positions: Dict[int, int]) -> None:
        self.names, self.positions = names, positions
        self.graphs: Dict[int, GraphNames] = {0: GraphNames(0)}
        self.default = 0
        self.graph_of: Dict[str, int] = {}  # a Python name bound to tf.Graph() -> its graph
        self.sessions: Dict[Tuple[str, int], int] = {}
        self.scopes_entered: Dict[Tuple[int, str], int] = {}
        self.elsewhere: Set[str] = set()  # names given in functions and classes (made when they run)

    def _new_graph(self) -> int:
        graph = len(self.graphs)
        self.graphs[graph] = GraphNames(graph)
        return graph

    def statement(self, statement: cst.CSTNode) -> None:
        self._block(statement, self.default, "", top=True)

    def _block(self, statement: cst.CSTNode, graph: int, prefix: Optional[str], top: bool) -> None:
        index = self.positions[id(statement)]
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small(small, index, graph, prefix, top)
        elif isinstance(statement, cst.With):
            graph, prefix = self._with(statement, index, graph, prefix)
            for inner in statement.body.body:
                self._block(inner, graph, prefix, top)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):  # runs when called, in whichever graph
            self.elsewhere.update(argument(call, "name").evaluated_value.rsplit("/", 1)[-1]
                                  for call in _named_calls(statement)
                                  if isinstance(argument(call, "name"), cst.SimpleString))
        else:  # loops and branches: what they name may be made any number of times
            for call in _named_calls(statement):
                self._count(graph, prefix, call, None)

    def _with(self, node: cst.With, index: int, graph: int, prefix: Optional[str]):
        for item in node.items:
            call = item.item if isinstance(item.item, cst.Call) else None
            qualname = self.names.call_name(call) if call is not None else None
            if call is not None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "as_default":
                owner = call.func.value
                if isinstance(owner, cst.Name) and owner.value in self.graph_of:
                    graph, prefix = self.graph_of[owner.value], ""
                elif isinstance(owner, cst.Call) and self.names.call_name(owner) == "tf.Graph":
                    graph, prefix = self._new_graph(), ""
                else:
                    self.graphs[graph].unknown = "a `with ... .as_default()` the analysis does not follow"
                continue
            if qualname in _SCOPES:
                scope = argument(call, "name_or_scope" if qualname == "tf.variable_scope" else "name", 0)
                if prefix is not None and isinstance(scope, cst.SimpleString) and "/" not in scope.evaluated_value \
                        and len(call.args) == 1:
                    full = prefix + scope.evaluated_value
                    entered = self.scopes_entered.get((graph, full), 0)
                    self.scopes_entered[(graph, full)] = entered + 1
                    prefix = full + "/" if not entered else None
                else:
                    prefix = None
                continue
            if qualname in _NEUTRAL_WITH:
                if qualname not in ("tf.device", "tf.control_dependencies"):
                    session_graph = self._session_graph(call, graph)
                    if item.asname is not None and isinstance(item.asname.name, cst.Name):
                        self.sessions[(item.asname.name.value, index)] = session_graph
                    if session_graph != graph:  # the session's graph is the default one inside the block
                        graph = session_graph if session_graph >= 0 else self._new_graph()
                        if session_graph < 0:
                            self.graphs[graph].unknown = "a session on a graph the analysis does not know"
                continue
            prefix = None
        return graph, prefix

    def _session_graph(self, call: cst.Call, graph: int) -> int:
        given = argument(call, "graph", 1)
        if given is None:
            return graph
        if isinstance(given, cst.Name) and given.value in self.graph_of:
            return self.graph_of[given.value]
        return -1  # a graph the analysis does not know

    def _small(self, small: cst.BaseSmallStatement, index: int, graph: int, prefix: Optional[str], top: bool):
        value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        qualname = self.names.call_name(value) if isinstance(value, cst.Call) else None
        if qualname == "tf.reset_default_graph" and top and prefix == "":
            self.default = self._new_graph()
            return
        target = None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            target = small.targets[0].target.value
            if qualname == "tf.Graph" and not value.args:
                self.graph_of[target] = self._new_graph()
                return
            if qualname in ("tf.Session", "tf.InteractiveSession"):
                self.sessions[(target, index)] = self._session_graph(value, graph)
                return
        for call in _named_calls(small):
            named = None
            if call is value and target is not None and not isinstance(small.targets[0].target, cst.Tuple):
                named = self._binding(call, target, index)
            self._count(graph, prefix, call, named)

    def _binding(self, call: cst.Call, target: str, index: int) -> Optional[Named]:
        qualname = self.names.call_name(call)
        if qualname in _EXACT:
            return Named(target, index, qualname in _OPERATIONS)
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _OPTIMIZER_STEPS and qualname is None:
            return Named(target, index, True)
        return None

    def _count(self, graph: int, prefix: Optional[str], call: cst.Call, named: Optional[Named]) -> None:
        literal = argument(call, "name")
        if not isinstance(literal, cst.SimpleString):
            return
        if prefix is None:
            self.graphs[graph].unknown = "names are given inside a scope the analysis does not follow"
            return
        self.graphs[graph].named.setdefault(prefix + literal.evaluated_value, []).append(named)


def fetched_strings(fetches: cst.BaseExpression) -> List[cst.BaseString]:
    """The strings a ``sess.run`` fetch structure holds (``'cost:0'`` alone, in lists, tuples and dict values):
    tensors and operations fetched by graph name."""
    if isinstance(fetches, cst.BaseString):
        return [fetches]
    if isinstance(fetches, (cst.List, cst.Tuple)):
        return [s for e in fetches.elements if not isinstance(e, cst.StarredElement) for s in fetched_strings(e.value)]
    if isinstance(fetches, cst.Dict):
        return [s for e in fetches.elements if isinstance(e, cst.DictElement) for s in fetched_strings(e.value)]
    return []


def _named_calls(node: cst.CSTNode) -> List[cst.Call]:
    """Calls with a ``name=`` keyword in ``node``, outermost first."""
    found: List[cst.Call] = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if any(arg.keyword is not None and arg.keyword.value == "name" for arg in call.args):
                found.append(call)

    visit(node, _Find())
    return found


class _Order(cst.CSTVisitor):
    """Positions of the statements in text order, the positions of the statements that bind each name, and the
    range of each loop."""

    def __init__(self) -> None:
        self.positions: Dict[int, int] = {}
        self.bindings: Dict[str, List[int]] = {}
        self.loops: List[Tuple[int, int]] = []
        self._open: List[int] = []

    def _count(self, node: cst.CSTNode) -> None:
        self.positions[id(node)] = len(self.positions)

    def _bind(self, target: cst.CSTNode) -> None:
        for name in target_keys(target):  # (`d[k] = v` binds d again: it may hold another value now)
            self.bindings.setdefault(name, []).append(len(self.positions) - 1)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            self._count(node)
        return super().on_visit(node)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)
        self._open.append(len(self.positions) - 1)

    def leave_For(self, node: cst.For) -> None:
        self.loops.append((self._open.pop(), len(self.positions) - 1))

    def visit_While(self, node: cst.While) -> None:
        self._open.append(len(self.positions) - 1)

    def leave_While(self, node: cst.While) -> None:
        self.loops.append((self._open.pop(), len(self.positions) - 1))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.bindings.setdefault(node.name.value, []).append(len(self.positions) - 1)
        return False  # its body runs when called: its bindings are its own

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.bindings.setdefault(node.name.value, []).append(len(self.positions) - 1)
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

