"""The names TF1's graph gave a block's variables, in creation order, worked out from the program text.

The literal ``name=`` (else ``"Variable"``) under the enclosing ``name_scope`` / ``variable_scope``,
made unique in creation order as TF1's graph does (``Graph.unique_name``: case-insensitively, ``_1``,
``_2``...); ``get_variable`` names sit under the variable scope as they are. Literal op names the
block gives (``tf.add(..., name="W")``) take their names first. One-variable helpers
(``weight_variable(shape)``) name their variable in the caller's scopes; so do layer helpers, for a caller that
asks (``analysis/layer_helper_variables``). Variables made by other helper functions, in loops or compound
statements, or with computed names or scopes have no name the text gives.

Used by ``saver-var-list`` (checkpoint keys) and ``variable-name-filters`` (``'generator' in v.name``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.layer_helper_variables import helper_marker, layer_helpers
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

CONSTRUCTORS = {"tf.Variable", "tf.get_variable"}
_SCOPES = {"tf.name_scope", "tf.variable_scope"}
# APIs that create variables without a tf.Variable / tf.get_variable call in the program.
HIDDEN_VARIABLES = ("tf.layers.", "tf.keras.layers.", "tf.nn.rnn_cell.", "tf.nn.dynamic_rnn",
                    "tf.nn.bidirectional_dynamic_rnn", "tf.contrib.", "tf.train.ExponentialMovingAverage",
                    "tf.train.get_or_create_global_step", "tf.train.create_global_step")


@dataclass
class Variable:
    expr: str  # how the program reaches it: "W", "weights['h1']"
    tf_name: str
    trainable: bool
    call: Optional[cst.Call] = None  # the tf.Variable call that makes it here (None: get_variable or a helper)
    made_at: int = -1  # the index of the statement that makes it (-1: not known)


def scoped_constructors(module: cst.Module, names: TFNames) -> List[Tuple[cst.With, str]]:
    """The ``name_scope`` / ``variable_scope`` blocks variable constructors stand in (innermost), in text
    order, each once with its scope's canonical name."""
    found: List[Tuple[cst.With, str]] = []

    class _Scopes(cst.CSTVisitor):
        def __init__(self) -> None:
            self.open: List[Optional[Tuple[cst.With, str]]] = []

        def visit_With(self, node: cst.With) -> None:
            scope = next((names.call_name(item.item) for item in node.items if isinstance(item.item, cst.Call)
                          and names.call_name(item.item) in _SCOPES), None)
            self.open.append((node, scope) if scope else None)

        def leave_With(self, node: cst.With) -> None:
            self.open.pop()

        def visit_Call(self, node: cst.Call) -> None:
            if names.call_name(node) in api.VARIABLE_CONSTRUCTORS:
                scope = next((entry for entry in reversed(self.open) if entry is not None), None)
                if scope is not None and scope not in found:
                    found.append(scope)

    visit(module, _Scopes())
    return found


def reads_names(module: cst.Module) -> bool:
    """Whether the program reads a ``.name`` attribute that may be a variable's: what TF1 named its
    variables may show in what it prints or selects. ``os.name`` and an object's own ``self.name``
    (a model's name string) are not."""
    found = []

    class _Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == "name" and not (isinstance(node.value, cst.Name)
                                                  and node.value.value in ("os", "self", "cls")):
                found.append(node)

    visit(module, _Reads())
    return bool(found)


_SHOWING_CALLS = {"print", "str", "repr"}


def prints_variables(module: cst.Module, names: TFNames) -> bool:
    """Whether the program prints or formats a variable object (``print(w)``, ``"{}".format(w)``, ``str(w)``, a
    list of them, ``tf.trainable_variables()``): its text shows the variable's name, as ``.name`` does
    (``<tf.Variable 'Variable_1:0' shape=() dtype=float32_ref>``). Only in a TF1 graph program (one that opens a
    Session): TF2 code prints the names eager TF2 gives."""
    if not any(names.call_name(call) in api.SESSIONS for call in all_calls(module)):
        return False
    bound, found = set(), []

    def shows(expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple)):
            return any(shows(element.value) for element in expr.elements)
        if isinstance(expr, cst.Call):
            return names.call_name(expr) in api.VARIABLE_COLLECTIONS
        return symbol_key(expr) in bound

    class _Bound(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:  # `w = tf.Variable(...)`
            if isinstance(node.value, cst.Call) and names.call_name(node.value) in CONSTRUCTORS:
                bound.update(symbol_key(target.target) for target in node.targets)

    class _Shown(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Name) and func.value in _SHOWING_CALLS \
                    or isinstance(func, cst.Attribute) and func.attr.value == "format":
                found.extend(arg for arg in node.args if shows(arg.value))

        def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
            if shows(node.expression):
                found.append(node)

    visit(module, _Bound())
    bound.discard(None)
    visit(module, _Shown())
    return bool(found)


def constructor_count(module: cst.Module, names: TFNames) -> int:
    """How many tf.Variable / tf.get_variable calls the module has, anywhere."""
    return sum(1 for call in all_calls(module) if names.call_name(call) in CONSTRUCTORS)


class TF1Names:
    """The names TF1's graph gave the variables of one block, in creation order."""

    def __init__(self, names: TFNames, layer_helpers: bool = False) -> None:
        self.names = names
        # whether variables that layer helpers make at each call are listed (``analysis/layer_helper_variables``),
        # reached through markers that helper-modules resolves: for callers whose list the helper's tf.Module
        # instances can hold (a Saver's)
        self.layer_helpers = layer_helpers
        self.in_use: Dict[str, int] = {}
        self.in_use_by_graph: Dict[object, Dict[str, int]] = {}  # each graph named its ops afresh (analysis/run_graphs)
        self.scopes: Dict[int, Tuple[Optional[str], Optional[str]]] = {}  # id(with item) -> (name scope, var scope)
        self.constructors_seen = 0

    def unique(self, name: str) -> str:
        """TF1's ``Graph.unique_name``."""
        key = name.lower()
        i = self.in_use.get(key, 0)
        self.in_use[key] = i + 1
        if i == 0:
            return name
        base = key
        while key in self.in_use:
            key = f"{base}_{i}"
            i += 1
        self.in_use[key] = 1
        return f"{name}_{i - 1}"

    def stacks(self, st: "pm.Statement") -> Tuple[Optional[List[str]], List[str]]:
        """(name stack, variable-scope stack) around a statement; name stack None when not literal."""
        names: Optional[List[str]] = []
        var_scopes: List[str] = []
        for with_node in st.flat.unwrapped_from:
            for item in with_node.items:
                if id(item) not in self.scopes:
                    self.scopes[id(item)] = self._enter(item, names)
                name_scope, var_scope = self.scopes[id(item)]
                if name_scope == "":
                    continue
                if name_scope is None or names is None:
                    names = None
                else:
                    names = name_scope.split("/")
                if var_scope is not None:
                    var_scopes.append(var_scope)
        return names, var_scopes

    def _enter(self, item: cst.WithItem, names: Optional[List[str]]):
        expr = item.item
        qualname = self.names.call_name(expr) if isinstance(expr, cst.Call) else None
        if qualname not in _SCOPES:
            return "", None  # control_dependencies, device, Session, Graph: no name
        first = expr.args[0].value if expr.args and expr.args[0].keyword is None else None
        if not isinstance(first, cst.SimpleString) or names is None or first.evaluated_value.endswith("/"):
            return None, None
        scope = self.unique("/".join(names + [first.evaluated_value]))
        return scope, (first.evaluated_value if qualname == "tf.variable_scope" else None)

    def variables(self, scope: "pm.Scope", before: int) -> Tuple[List[Variable], str]:
        """The variables the scope's statements before ``before`` make, with their TF1 names, in creation
        order; or ([], why) when one of them has no name the text gives. ``constructors_seen`` counts
        the constructor calls of the whole scope (a caller compares it with the module's count). A reader of a
        collection keeps those of its own graph (``scope.same_graph(v.made_at, before)``)."""
        found: List[Variable] = []
        helpers = variable_helpers([st.node for st in scope.statements], self.names)
        layers = layer_helpers([st.node for st in scope.statements], self.names, helpers) if self.layer_helpers \
            else {}
        calls_made: Dict[str, int] = {}  # layer helper -> its calls so far (the markers' numbers)
        for st in scope.statements:
            if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
                if isinstance(st.node, cst.FunctionDef) and st.node.name.value in helpers:
                    self.constructors_seen += 1  # its one tf.Variable: made at each call, named in the caller
                elif isinstance(st.node, cst.FunctionDef) and st.node.name.value in layers:
                    self.constructors_seen += len(self._constructors(st.node))  # made at each call, named so
                elif any(isinstance(c.func, cst.Name) and c.func.value in {**helpers, **layers}
                         for c in all_calls(st.node)):
                    return [], "a variable helper called inside another function"
                continue  # variables a function makes are not this block's: the counts will differ
            calls = self._calls(st.node, helpers)
            layer_calls = [c for c in all_calls(st.node) if isinstance(c.func, cst.Name) and c.func.value in layers]
            self.constructors_seen += len(self._constructors(st.node))
            if st.index >= before:
                continue
            if scope.graphs:
                self.in_use = self.in_use_by_graph.setdefault(scope.graphs[st.index], {})
            if st.kind in (pm.VARIABLE, pm.VARIABLES) and not calls and any(
                    self.names.call_name(c) is None for c in all_calls(st.node)):
                # (a collection read, an alias or a selection of variables makes none)
                return [], "a variable made by a helper function: its TF1 name is not known here"
            if not calls and not layer_calls and not isinstance(st.node, cst.SimpleStatementLine):
                continue
            names, var_scopes = self.stacks(st)
            if (calls or layer_calls) and not isinstance(st.node, cst.SimpleStatementLine):
                return [], "variables made in a loop or another compound statement"
            targets = _bound_expressions(st.node, calls)
            if calls and targets is None:
                return [], "variables that are not bound to names, dict entries or list items"
            for call in _evaluation_order(st.node):
                if id(call) in {id(c) for c in layer_calls}:  # a layer helper: its variables, in its order
                    helper = call.func.value
                    calls_made[helper] = number = calls_made.get(helper, 0) + 1
                    for made in layers[helper]:
                        variable = self._variable(made.constructor, names, var_scopes,
                                                  helper_marker(helper, number, made.local))
                        if isinstance(variable, str):
                            return [], variable
                        variable.made_at = st.index
                        found.append(variable)
                elif id(call) in targets:  # a constructor, or a helper whose constructor names the variable
                    made = call if self.names.call_name(call) in CONSTRUCTORS else helpers[call.func.value]
                    variable = self._variable(made, names, var_scopes, targets[id(call)])
                    if isinstance(variable, str):
                        return [], variable
                    if made is call and self.names.call_name(call) == "tf.Variable":
                        variable.call = call
                    variable.made_at = st.index
                    found.append(variable)
                elif names is not None and _literal_name(call) is not None and \
                        (self.names.call_name(call) or "").startswith("tf."):
                    self.unique("/".join(names + [_literal_name(call)]))
        return found, ""

    def _constructors(self, node: cst.CSTNode) -> List[cst.Call]:
        return [c for c in all_calls(node) if self.names.call_name(c) in CONSTRUCTORS]

    def _calls(self, node: cst.CSTNode, helpers: Dict[str, cst.Call]) -> List[cst.Call]:
        """The calls in ``node`` that make variables: constructors and variable helpers."""
        return [c for c in all_calls(node) if self.names.call_name(c) in CONSTRUCTORS
                or isinstance(c.func, cst.Name) and c.func.value in helpers]

    def _variable(self, call: cst.Call, names, var_scopes, expr: str):
        qualname = self.names.call_name(call)
        trainable = argument(call, "trainable")
        is_trainable = not (isinstance(trainable, cst.Name) and trainable.value == "False")
        if qualname == "tf.get_variable":
            first = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "name")
            if not isinstance(first, cst.SimpleString):
                return "a get_variable name that is not a literal string"
            full = "/".join(var_scopes + [first.evaluated_value])
            self.in_use[full.lower()] = self.in_use.get(full.lower(), 0) + 1
            return Variable(expr, full, is_trainable)
        if names is None:
            return "variables under a name scope that is not a literal string"
        name = argument(call, "name")
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) > 5 or (name is not None and not isinstance(name, cst.SimpleString)):
            return "a variable name that is not a literal string"
        base = name.evaluated_value if name is not None else "Variable"
        return Variable(expr, self.unique("/".join(names + [base])), is_trainable)


def variable_helpers(statements, names: TFNames) -> Dict[str, cst.Call]:
    """Functions of the block that make one ``tf.Variable`` and return it, by name -> that constructor call.

        def weight_variable(shape):
            initial = tf.truncated_normal(shape, stddev=0.1)
            return tf.Variable(initial)

    Each call makes a variable TF1 named in the caller's scopes, as if the caller had made it (no
    scope, no other variable, straight-line body).
    """
    found: Dict[str, cst.Call] = {}
    for node in statements:
        if not isinstance(node, cst.FunctionDef) or node.decorators:
            continue
        lines = list(node.body.body)
        if not lines or not all(isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
                                for line in lines):
            continue
        made = [c for c in all_calls(node) if names.call_name(c) in CONSTRUCTORS]
        if len(made) != 1 or names.call_name(made[0]) != "tf.Variable" or any(
                names.call_name(c) in _SCOPES for c in all_calls(node)):
            continue
        last = lines[-1].body[0]
        if not isinstance(last, cst.Return) or last.value is None:
            continue
        if last.value is made[0] or _binds(lines[:-1], symbol_key(last.value), made[0]):
            found[node.name.value] = made[0]
    return found


def _binds(lines, key: Optional[str], call: cst.Call) -> bool:
    """Whether ``key`` is bound once among ``lines``, to ``call``."""
    bound = [line.body[0] for line in lines if isinstance(line.body[0], cst.Assign)
             and any(symbol_key(t.target) == key for t in line.body[0].targets)]
    return key is not None and len(bound) == 1 and bound[0].value is call


def _literal_name(call: cst.Call) -> Optional[str]:
    name = argument(call, "name")
    return name.evaluated_value if isinstance(name, cst.SimpleString) else None


def _evaluation_order(node: cst.CSTNode) -> List[cst.Call]:
    """Calls in the order Python runs them: arguments before the call that takes them."""
    order: List[cst.Call] = []

    class _Post(cst.CSTVisitor):
        def leave_Call(self, call: cst.Call) -> None:
            order.append(call)

    visit(node, _Post())
    return order


def _bound_expressions(line: cst.BaseStatement, calls: List[cst.Call]) -> Optional[Dict[int, str]]:
    """id(constructor call) -> how the program reaches the variable, or None when it cannot."""
    if not calls:
        return {}
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
            and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1):
        return None
    target, value = line.body[0].targets[0].target, line.body[0].value
    found: Dict[int, str] = {}
    key = symbol_key(target)
    if key is not None and value in calls:
        found[id(value)] = key
    elif key is not None and isinstance(value, cst.Dict):
        for element in value.elements:
            if isinstance(element, cst.DictElement) and element.value in calls \
                    and isinstance(element.key, cst.SimpleString):
                found[id(element.value)] = f"{key}[{code(element.key)}]"
    elif key is not None and isinstance(value, (cst.List, cst.Tuple)):
        for index, element in enumerate(value.elements):
            if element.value in calls:
                found[id(element.value)] = f"{key}[{index}]"
    elif isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
        for t, v in zip(target.elements, value.elements):
            if v.value in calls and symbol_key(t.value) is not None:
                found[id(v.value)] = symbol_key(t.value)
    return found if len(found) == len(calls) else None
