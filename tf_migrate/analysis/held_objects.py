"""Lists of objects that hold variables, built in a loop, and the loops that run them.

    self.layers = []
    M1 = D
    for M2 in hidden_layer_sizes:              a loop building objects of a class whose __init__ makes
        layer = HiddenLayer(M1, M2)            its variables (analysis/modules: a tf.Module subclass, or a
        self.layers.append(layer)              plain class holding variables)
        M1 = M2
    self.layers.append(HiddenLayer(M1, K))     one more, after the loop
    ...
    Z = self.X
    for layer in self.layers:                  each element: an object holding those variables
        Z = layer.forward(Z)

TF1 made each object's variables when the loop built it, and listed them in that order. Eager objects hold theirs
from construction too; what the program model needs is where they are: the list is a list of variables whose
elements are objects with these members (``pm.Symbol.members`` on a ``variables`` symbol), named in variable lists
object by object (``*(v for obj in self.layers for v in (obj.W, obj.b))``, collections.container_part); a name the
loop binds to an object is the last one (``layer``, an object with its members); the loop over the list binds its
target to each object, whose methods are known callables.

Only loops whose work is building such objects, of one class (the same members), each kept in a list, and
computing nothing per run: anything else keeps the scope compat, with the reason at the loop.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.block_variables import computed_reads
from tf_migrate.analysis.covered_variables import appended_value
from tf_migrate.analysis.api_tables import WEIGHTLESS_LAYERS
from tf_migrate.analysis.modules import KERAS_LAYER, OPTIONAL, instance_members
from tf_migrate.analysis.statement_facts import element_kinds
from tf_migrate.analysis.symbols import all_calls, callee_name, symbol_key
from tf_migrate.traversal import visit


def held_objects_loop(classifier, st: "pm.Statement") -> bool:
    """Classify ``st`` when it is a ``for`` loop that builds objects holding variables (and makes no variable
    itself); False when it is not such a loop."""
    scope, names = classifier.scope, classifier.names
    if not isinstance(st.node, cst.For):
        return False
    calls = all_calls(st.node)
    built = {id(call): instance_members(call, scope, names) for call in calls if isinstance(call.func, cst.Name)}
    built = {k: v for k, v in built.items() if v is not None and all(loop in (0, OPTIONAL) for _, _, loop in v)}
    built.update({id(call): KERAS_LAYER for call in _built_keras_layers(st.node, names)})
    makers = scope.variable_functions | scope.variable_classes
    if not built or any((names.call_name(call) is not None and id(call) not in built
                         and not _inside_constructor(call, calls, built)) or (
            id(call) not in built and callee_name(call) in makers) for call in calls):
        return False
    finder = _Finder(built)
    visit(st.node.body, finder)
    per_run = sorted(k for k in computed_reads(st.node) if scope.deferred(k))  # (before the loop binds them)
    st.role = pm.KEEP
    classifier.define(st, pm.VARIABLES)  # (what a collection read after it names: the objects' variables)
    for key in st.defines:
        scope.bind(pm.Symbol(key, pm.PYTHON, st.index))  # M1 = M2; the lists and objects are bound below
    if per_run:
        classifier.block(st.node, f"a loop that builds objects holding variables also computes on the per-run "
                                  f"tensor `{per_run[0]}`: kept at build time, it would not run at each step")
        return True
    kinds = {members for items in finder.appended.values() for members in items}
    kept = {key for key in finder.objects if any(key in keys for keys in finder.appended_keys.values())}
    if len(kinds) != 1 or None in kinds or set(finder.objects) - kept or set(finder.objects) & finder.other:
        classifier.block(st.node, "a loop that builds objects holding variables of more than one class, or one it "
                                  "keeps in no list: TF1 listed every object's variables, in order")
        return True
    members = next(iter(kinds))
    for key in finder.objects:  # (the last iteration's object)
        scope.bind(pm.Symbol(key, pm.LAYER, st.index, built=True, members=members))
    for key in finder.appended:
        scope.bind(pm.Symbol(key, pm.VARIABLES, st.index, members=members))
    scope.add_trainable(list(finder.appended))
    return True


def bind_loop_elements(st: "pm.Statement", scope: "pm.Scope", names, graph_kinds, block) -> None:
    """The names a statement binds to elements: a loop's target over a list (``for out in outs``,
    statement_facts.element_kinds), an object holding variables over a list of them (``for layer in
    self.layers``); and a list of such objects grown by one more (``self.layers.append(layer)``) keeps its
    members, where the object is one of them."""
    bind_elements(st.node, st.index, scope, graph_kinds, st.defines)  # (over what the statement itself bound)
    node = st.node
    appended = _append(node)
    if appended is None:
        return
    owner, item = appended
    listed = scope.symbol_at(owner, st.index)
    value = node.body[0].value.args[0].value
    if isinstance(value, cst.Call):  # self.layers.append(HiddenLayer(M1, K)): an object built here
        added = instance_members(value, scope, names) if isinstance(value.func, cst.Name) else None
    else:
        symbol = scope.symbol_at(item or "", st.index)
        added = symbol.members if symbol is not None and symbol.kind == pm.LAYER else None
    listed_members = listed.members if listed is not None and listed.kind == pm.VARIABLES else None
    if not listed_members and not added:
        return
    if listed_members and added == listed_members:
        scope.bind(pm.Symbol(owner, pm.VARIABLES, st.index, members=listed.members))
    else:
        block(node, f"`{owner}` would mix objects holding variables with other values: its variables are not "
                    "listed one by one")


def bind_elements(node: cst.CSTNode, index: int, scope: "pm.Scope", graph_kinds, defined=None) -> None:
    """The names a loop or comprehension binds to elements of what it iterates over (statement_facts.element_kinds;
    ``defined``: only those keys); ``for layer in self.layers`` over a list of objects holding variables: ``layer``
    is each object."""
    for key, kind in element_kinds(node, scope, graph_kinds).items():
        if defined is None or key in defined:
            scope.bind(pm.Symbol(key, kind, index))
    if not isinstance(node, cst.For):
        return
    for target, iterated in _element_targets(node):
        listed = scope.symbol_at(symbol_key(iterated) or "", index)
        if listed is not None and listed.kind == pm.VARIABLES and listed.members:
            scope.bind(pm.Symbol(target.value, pm.LAYER, index, built=True, members=listed.members))


def _element_targets(loop: cst.For) -> List[tuple]:
    """(name, what it iterates over) for the loop's names bound to elements of one iterable: ``for layer in L``,
    and each name of ``for ..., layer in zip(..., L)`` (split_build_loops' second loop)."""
    if isinstance(loop.target, cst.Name):
        return [(loop.target, loop.iter)]
    call = loop.iter
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "zip"
            and isinstance(loop.target, (cst.Tuple, cst.List)) and not any(a.star or a.keyword for a in call.args)
            and len(call.args) == len(loop.target.elements)):
        return []
    return [(element.value, arg.value) for element, arg in zip(loop.target.elements, call.args)
            if isinstance(element.value, cst.Name)]


def _built_keras_layers(loop: cst.For, names) -> List[cst.Call]:
    """The Keras layer constructors of lines ``layer = tf.keras.layers.X(...)`` of the loop's body whose layer the
    body builds (``layer.build(shape)``, split_build_loops' first loop) or that make no variables: the layer holds
    its variables from there, as TF1's layer call made them."""
    lines = [line.body[0] for line in loop.body.body if isinstance(line, cst.SimpleStatementLine)] \
        if isinstance(loop.body, cst.IndentedBlock) else []
    built = {symbol_key(small.value.func.value) for small in lines if isinstance(small, cst.Expr)
             and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Attribute)
             and small.value.func.attr.value == "build"}
    found = []
    for small in lines:
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call):
            qualname = names.call_name(small.value) or ""
            if qualname.startswith("tf.keras.layers.") and (
                    symbol_key(small.targets[0].target) in built or qualname.rsplit(".", 1)[-1] in WEIGHTLESS_LAYERS):
                found.append(small.value)
    return found


def _inside_constructor(call: cst.Call, calls: List[cst.Call], built: Dict[int, object]) -> bool:
    """Whether ``call`` stands in the arguments of a call building an object (``HiddenLayer(M1, M2, tf.nn.relu)``
    passes no call; ``HiddenLayer(M1, M2, f=tf.nn.relu)`` neither; a ``tf.random_normal`` argument would)."""
    return any(id(outer) in built and any(inner is call for inner in all_calls(outer)) for outer in calls)


def _append(node: cst.CSTNode) -> Optional[tuple]:
    """(list key, appended key or None) of a line ``L.append(x)``."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Expr)):
        return None
    return _appended(node.body[0].value)


def _appended(call: cst.BaseExpression) -> Optional[tuple]:
    """(list key, appended key or None) of a call ``L.append(x)``."""
    value = appended_value(call)
    return None if value is None else (symbol_key(call.func.value), symbol_key(value))


class _Finder(cst.CSTVisitor):
    """The names a loop body binds to objects it builds, and the lists it appends them to."""

    def __init__(self, built: Dict[int, object]) -> None:
        self.built = built
        self.objects: Dict[str, object] = {}  # key -> members of the object bound to it
        self.other: Set[str] = set()  # keys also bound to something else
        self.appended: Dict[str, List[object]] = {}  # list key -> members of each object appended
        self.appended_keys: Dict[str, Set[str]] = {}  # list key -> the object keys appended

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            key = symbol_key(target.target)
            if key is not None and id(node.value) in self.built:
                self.objects[key] = self.built[id(node.value)]
            elif key is not None:
                self.other.add(key)

    def visit_Call(self, node: cst.Call) -> None:
        appended = _appended(node)
        if appended is None:
            return
        owner, item = appended
        value = node.args[0].value
        members = self.built.get(id(value)) if id(value) in self.built else self.objects.get(item or "")
        self.appended.setdefault(owner, []).append(members)
        if item is not None:
            self.appended_keys.setdefault(owner, set()).add(item)
