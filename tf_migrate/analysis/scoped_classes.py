"""Classes that make every variable under one variable scope named by their constructor: read from the input text.

    class DQN:
        def __init__(self, session, input_size, output_size, name="main"):
            self.session = session
            self.net_name = name
            self._build_network()

        def _build_network(self):
            with tf.variable_scope(self.net_name):
                self._X = tf.placeholder(tf.float32, [None, self.input_size])
                net = tf.layers.dense(self._X, 16, activation=tf.nn.relu)
                ...

Each object's variables are then named ``"<name>/..."`` by TF1 (``main/dense/kernel``): a collection filtered by a
scope (``tf.get_collection(TRAINABLE_VARIABLES, scope="main")``, a DQN's target-network copy) selects whole objects,
found by the literal each construction passes (``DQN(sess, 4, 2, name="main")``).

A class qualifies when its variable scope blocks (``with tf.variable_scope(self.net_name)``, the attribute bound once
in ``__init__`` to one of its parameters, or the parameter itself) stand in ``__init__`` or in methods only
``__init__`` calls, without ``reuse``; and no code outside those blocks (and the methods only they call) may make a
variable: no variable constructor, layer or other API that makes variables, no call of a function of the module or of
another module, no call of an object the class did not receive. Inside, a variable scope nested with a computed name
(a scope object reopens an absolute scope) or ``tf.get_variable_scope`` is refused. The rules rewrite these blocks
later (layers become Keras layers, scopes are unwrapped), so this is read from the input text, once per file.
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.variable_names import HIDDEN_VARIABLES
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import all_nodes

_SAFE_MODULES = {"np", "numpy", "random", "math", "os", "time", "sys", "json", "logging"}
_SCOPE_CALLS = {"tf.variable_scope", "tf.name_scope"}
_LAYERS_WITH_VARIABLES = {"dense", "conv1d", "conv2d", "conv3d", "conv2d_transpose", "Dense", "Conv1D", "Conv2D",
                          "Conv3D", "Conv2DTranspose"}
_LAYERS_WITHOUT_VARIABLES = {"dropout", "flatten", "max_pooling1d", "max_pooling2d", "average_pooling1d",
                             "average_pooling2d", "Dropout", "Flatten", "MaxPooling2D", "MaxPool2D"}


@dataclass(frozen=True)
class ScopedClass:
    """A class whose objects make their variables under the variable scope ``parameter`` of ``__init__`` names."""

    parameter: str
    params: Tuple[cst.Param, ...]  # ``__init__``'s parameters after ``self``, to bind a construction's arguments
    makers: int  # the variables and layers with variables the class's text makes (each once: no loop)


def scoped_classes(module: cst.Module, names: TFNames) -> Dict[str, ScopedClass]:
    """The module's top-level classes that make all their variables under one variable scope their constructor
    names (module doc), by class name."""
    found: Dict[str, ScopedClass] = {}
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and names.imports_tensorflow:
            scoped = _scoped(statement, names)
            if scoped is not None:
                found[statement.name.value] = scoped
    return found


def _scoped(cls: cst.ClassDef, names: TFNames) -> Optional[ScopedClass]:
    methods = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    init = methods.get("__init__")
    if init is None or not init.params.params or cls.decorators or len(methods) != sum(
            isinstance(s, cst.FunctionDef) for s in cls.body.body) or any(
            not isinstance(s, cst.FunctionDef) and all_calls(s) for s in cls.body.body):
        return None  # (a class attribute computed when the class is defined, a method defined twice)
    params = [p.name.value for p in init.params.params[1:]]
    holders = _parameter_attributes(cls, init, set(params))
    blocks = [node for node in all_nodes(cls) if isinstance(node, cst.With) and _scope_parameter(
        node, names, holders, params) is not None]
    named = {_scope_parameter(block, names, holders, params) for block in blocks}
    if len(named) != 1 or None in named:
        return None
    parameter = named.pop()
    if any(_scope_parameter(block, names, holders, ()) is None and not _directly_in(block, init) for block in blocks):
        return None  # (the parameter itself names a scope only in __init__, where it is bound)
    build_methods = _called_only_from(methods, {"__init__"})
    inside: Set[int] = {id(node) for block in blocks for node in all_nodes(block.body)}
    if not all(_directly_in(block, init) or any(_directly_in(block, methods[m]) for m in build_methods)
               for block in blocks):
        return None  # variables made after construction
    inside_methods = _called_only_inside(methods, inside)
    for name in inside_methods:
        inside |= {id(node) for node in all_nodes(methods[name])}
    received = set(holders)
    makers = 0
    openers = {id(item.item) for block in blocks for item in block.items}
    for call in all_calls(cls):
        if id(call) in openers:
            continue
        if id(call) in inside:
            made = _made_by(call, names)
            if not _fine_inside(call, names) or made is None:
                return None
            makers += made
        elif _may_make_variables(call, names, methods, received):
            return None
    if makers and any(isinstance(node, (cst.For, cst.While, cst.ListComp, cst.GeneratorExp, cst.DictComp,
                                        cst.SetComp, cst.Lambda)) and id(node) in inside for node in all_nodes(cls)):
        return None  # (variables made in a loop: their number is not the text's)
    return ScopedClass(parameter, tuple(init.params.params[1:]), makers)


def _parameter_attributes(cls: cst.ClassDef, init: cst.FunctionDef, params: Set[str]) -> Dict[str, str]:
    """Attributes ``__init__`` binds to one of its parameters (``self.net_name = name``), bound nowhere else."""
    bound: Dict[str, List[Optional[str]]] = {}
    for node in all_nodes(cls):
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                        and target.value.value == "self":
                    value = node.value if isinstance(node, cst.Assign) else None
                    given = value.value if isinstance(value, cst.Name) and value.value in params \
                        and any(line is node for line in _top_lines(init)) else None
                    bound.setdefault(target.attr.value, []).append(given)
    return {attr: values[0] for attr, values in bound.items() if len(values) == 1 and values[0] is not None}


def _top_lines(function: cst.FunctionDef):
    for line in function.body.body:
        if isinstance(line, cst.SimpleStatementLine):
            yield from line.body


def _scope_parameter(block: cst.With, names: TFNames, holders: Dict[str, str], params) -> Optional[str]:
    """The ``__init__`` parameter naming the variable scope ``block`` opens (``self.net_name`` or the parameter);
    None for any other block, or one that reuses variables."""
    for item in block.items:
        call = item.item
        if isinstance(call, cst.Call) and names.call_name(call) == "tf.variable_scope" and call.args \
                and call.args[0].keyword is None and argument(call, "reuse") is None and len(call.args) == 1:
            first = call.args[0].value
            if isinstance(first, cst.Attribute) and isinstance(first.value, cst.Name) \
                    and first.value.value == "self" and first.attr.value in holders:
                return holders[first.attr.value]
            if isinstance(first, cst.Name) and first.value in params:
                return first.value
    return None


def _directly_in(node: cst.CSTNode, function: cst.FunctionDef) -> bool:
    return any(inner is node for inner in all_nodes(function.body))


def _method_calls(node: cst.CSTNode) -> List[Tuple[str, cst.Call]]:
    return [(call.func.attr.value, call) for call in all_calls(node) if isinstance(call.func, cst.Attribute)
            and isinstance(call.func.value, cst.Name) and call.func.value.value == "self"]


def _called_only_from(methods: Dict[str, cst.FunctionDef], callers: Set[str]) -> Set[str]:
    """Methods whose every call (``self.m(...)``) stands in one of ``callers`` or in a method found so, and is
    called at least once."""
    found: Set[str] = set()
    while True:
        more = set()
        for name in methods:
            if name in found or name in callers:
                continue
            sites = [m for m, method in methods.items() for called, _ in _method_calls(method) if called == name]
            if sites and all(m in callers | found for m in sites) and not _mentioned_otherwise(methods, name):
                more.add(name)
        if not more:
            return found
        found |= more


def _called_only_inside(methods: Dict[str, cst.FunctionDef], inside: Set[int]) -> Set[str]:
    """Methods called only from inside the scope blocks (``inside``: ids of their nodes) or from such methods."""
    found: Set[str] = set()
    while True:
        more = set()
        for name in methods:
            if name in found or name == "__init__":
                continue
            sites = [(m, call) for m, method in methods.items() for called, call in _method_calls(method)
                     if called == name]
            if sites and all(id(call) in inside or m in found for m, call in sites) \
                    and not _mentioned_otherwise(methods, name):
                more.add(name)
        if not more:
            return found
        found |= more
        for name in more:
            inside |= {id(node) for node in all_nodes(methods[name])}


def _mentioned_otherwise(methods: Dict[str, cst.FunctionDef], name: str) -> bool:
    """Whether ``self.name`` is read other than as a call's function (passed on, stored: called from anywhere)."""
    mentions = sum(1 for method in methods.values() for node in all_nodes(method)
                   if isinstance(node, cst.Attribute) and node.attr.value == name
                   and isinstance(node.value, cst.Name) and node.value.value == "self")
    calls = sum(1 for method in methods.values() for called, _ in _method_calls(method) if called == name)
    return mentions != calls


def _fine_inside(call: cst.Call, names: TFNames) -> bool:
    """Calls inside a scope block that keep the object's variables under it: not a scope with a computed name."""
    qualname = names.call_name(call)
    if qualname == "tf.get_variable_scope":
        return False
    if qualname in _SCOPE_CALLS:
        first = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "name_or_scope")
        return isinstance(first, cst.SimpleString) or first is None
    return True


def _made_by(call: cst.Call, names: TFNames) -> Optional[int]:
    """How many variables or Keras layers with variables a call inside a scope block makes (0 or 1), or None for an
    API that makes variables the analysis of the converted class may not list (rnn cells, contrib, averages)."""
    qualname = names.call_name(call)
    if qualname is None:
        return None if _calls_elsewhere(call, names) else 0
    if qualname in api.VARIABLE_CONSTRUCTORS:
        trainable = argument(call, "trainable")
        return 0 if isinstance(trainable, cst.Name) and trainable.value == "False" else 1
    if qualname.startswith(("tf.layers.", "tf.keras.layers.")):
        last = qualname.rsplit(".", 1)[1]
        if last in _LAYERS_WITHOUT_VARIABLES or last.title().replace("_", "") in api.WEIGHTLESS_LAYERS:
            return 0
        return 1 if last in _LAYERS_WITH_VARIABLES else None
    return None if qualname.startswith(HIDDEN_VARIABLES) else 0


def _calls_elsewhere(call: cst.Call, names: TFNames) -> bool:
    """A call of a function of the module or of another module (not a builtin, numpy or a method of a value the
    block holds): it may make variables the converted class does not list as its own."""
    func = call.func
    if isinstance(func, cst.Name):
        return not (func.value in dir(builtins) and func.value not in ("exec", "eval", "__import__"))
    head = (dotted_name(func) or "").split(".")[0]
    return head in names.aliases and head not in _SAFE_MODULES and not names.aliases[head].startswith("numpy")


def _may_make_variables(call: cst.Call, names: TFNames, methods: Dict[str, cst.FunctionDef],
                        received: Set[str]) -> bool:
    """Whether a call outside the scope blocks may make a variable (conservatively: any call the text does not
    show to be harmless)."""
    qualname = names.call_name(call)
    if qualname is not None:
        return (qualname in api.VARIABLE_CONSTRUCTORS or qualname.startswith(HIDDEN_VARIABLES)
                or qualname in _SCOPE_CALLS or qualname == "tf.get_variable_scope")
    func = call.func
    if isinstance(func, cst.Name):
        return not (func.value in dir(builtins) and func.value not in ("exec", "eval", "__import__"))
    dotted = dotted_name(func) or ""
    head = dotted.split(".")[0]
    if head in _SAFE_MODULES:
        return False
    if head == "self" and dotted.count(".") == 1:
        return dotted.split(".")[1] not in methods  # (a method's body is checked where it stands)
    if head == "self" and dotted.count(".") >= 2:
        return dotted.split(".")[1] not in received  # (an object given to the constructor: a session, a config)
    return True
