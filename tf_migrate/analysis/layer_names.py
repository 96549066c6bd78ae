"""The names TF1 gave the variables of a program's ``tf.layers`` calls, in creation order.

    def generator(z, reuse=False):
        with tf.variable_scope('generator', reuse=reuse):     generator/dense/kernel:0, generator/dense/bias:0,
            h = tf.layers.dense(z, 16)                          generator/dense_1/kernel:0, generator/dense_1/bias:0
            return tf.layers.dense(h, 8)

A layer without ``name=`` took its class's default name made unique in its variable scope (``dense``,
``dense_1``: counted from each entry of a named scope, which TF1 opened afresh); its variables are the
layer's (``kernel``, ``bias``; batch norm's ``gamma``, ``beta``, ``moving_mean``, ``moving_variance``).
Variables were made when the graph was built: a module function's layers at its first call (a call with
``reuse=True`` made none), module code's where they stand.

The text gives the names where every layer call stands in module code (in ``variable_scope`` blocks with
literal names, or none), or in a module function called once, or once and then with reuse, whose layers
all sit in one ``variable_scope`` block with a literal name, and whose first call is known
(``rules._hoisting.first_calling_statement`` reads it the same way). Anything else: None.

Used by ``variable-name-filters``: ``[v for v in tf.trainable_variables() if 'generator' in v.name]``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# tf.layers function -> (default layer name, its variables in creation order: (name, trainable, the argument that
# drops it when False))
_LAYER_VARIABLES: Dict[str, List[Tuple[str, bool, Optional[str]]]] = {
    "dense": [("kernel", True, None), ("bias", True, "use_bias")],
    "batch_normalization": [("gamma", True, "scale"), ("beta", True, "center"), ("moving_mean", False, None),
                            ("moving_variance", False, None)],
}
for _conv in ("conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose"):
    _LAYER_VARIABLES[_conv] = _LAYER_VARIABLES["dense"]
_NO_VARIABLES = {"dropout", "flatten", "max_pooling1d", "max_pooling2d", "max_pooling3d", "average_pooling1d",
                 "average_pooling2d", "average_pooling3d"}


@dataclass
class LayerVariable:
    call: cst.Call  # the tf.layers call that made it
    layer: str  # the layer's scoped name: "generator/dense_1"
    attribute: str  # "kernel"
    trainable: bool
    made_at: int = 0  # the index of the module statement that made it

    @property
    def tf_name(self) -> str:
        return f"{self.layer}/{self.attribute}:0"


def layer_variables(module: cst.Module, names: TFNames, first_calls: Dict[str, Optional[int]]
                    ) -> Optional[List[LayerVariable]]:
    """Every variable the module's ``tf.layers`` calls make, in creation order, or None where the text does not
    give them all. ``first_calls``: for each module function, the index of the module statement that first runs
    it (None: unknown)."""
    events: List[Tuple[int, int, List[LayerVariable]]] = []  # (statement index, order within, variables)
    root_counts: Dict[str, int] = {}
    for index, statement in enumerate(module.body):
        if isinstance(statement, cst.ClassDef):
            if _layer_calls(statement, names):
                return None
            continue
        if isinstance(statement, cst.FunctionDef):
            if not _layer_calls(statement, names):
                continue
            made = _function_layers(statement, names)
            first = first_calls.get(statement.name.value)
            if made is None or first is None:
                return None
            events.append((first, 0, [_at(v, first) for v in made]))
            continue
        made = _block_layers(statement, names, [], root_counts)
        if made is None:
            return None
        events.append((index, 1, [_at(v, index) for v in made]))
    starts = [index for index, _, made in events if made]
    if len(starts) != len(set(starts)):
        return None  # two functions' layers first made by one statement: which first is not read here
    return [v for _, _, made in sorted(events, key=lambda e: (e[0], e[1])) for v in made]


def _at(variable: LayerVariable, index: int) -> LayerVariable:
    variable.made_at = index
    return variable


def _layer_calls(node: cst.CSTNode, names: TFNames) -> List[cst.Call]:
    return [c for c in all_calls(node) if (names.call_name(c) or "").startswith("tf.layers.")]


def _function_layers(func: cst.FunctionDef, names: TFNames) -> Optional[List[LayerVariable]]:
    """The layers of a function whose body is one ``with tf.variable_scope('NAME', ...)`` block (after
    statements that make no layer)."""
    blocks = [s for s in func.body.body if _layer_calls(s, names)]
    if len(blocks) != 1 or not isinstance(blocks[0], cst.With):
        return None
    scope = _variable_scope(blocks[0], names)
    if scope is None:
        return None
    return _block_layers(blocks[0].body, names, [scope], {}, body_only=True)


def _variable_scope(node: cst.With, names: TFNames) -> Optional[str]:
    if len(node.items) != 1 or not isinstance(node.items[0].item, cst.Call):
        return None
    call = node.items[0].item
    name = argument(call, "name_or_scope", 0)
    if names.call_name(call) != "tf.variable_scope" or not isinstance(name, cst.SimpleString):
        return None
    return name.evaluated_value


def _block_layers(node: cst.CSTNode, names: TFNames, scopes: List[str], counts: Dict[str, int],
                  body_only: bool = False) -> Optional[List[LayerVariable]]:
    """The layers of straight-line code in text order; nested literal variable scopes open fresh counts."""
    made: List[LayerVariable] = []
    failed: List[str] = []

    class _Layers(cst.CSTVisitor):
        def __init__(self) -> None:
            self.scopes, self.counts = list(scopes), [counts]

        def visit_FunctionDef(self, node) -> bool:
            if _layer_calls(node, names):
                failed.append("a layer in a nested function")
            return False

        def visit_For(self, node) -> bool:
            if _layer_calls(node, names):
                failed.append("a layer in a loop or branch")
            return False

        visit_While = visit_If = visit_Lambda = visit_ClassDef = visit_For

        def visit_With(self, node: cst.With) -> None:
            calls = [i.item for i in node.items if isinstance(i.item, cst.Call)]
            if any(names.call_name(c) == "tf.variable_scope" for c in calls):
                scope = _variable_scope(node, names)
                if scope is None:
                    failed.append("a computed variable scope")
                self.scopes.append(scope or "?")
                self.counts.append({})  # TF1 counted default names afresh in each entry of a named scope
            else:
                self.scopes.append("")
                self.counts.append(self.counts[-1])

        def leave_With(self, node: cst.With) -> None:
            self.scopes.pop()
            self.counts.pop()

        def leave_Call(self, node: cst.Call) -> None:  # inner calls first: the order the graph was built in
            qualname = names.call_name(node) or ""
            if not qualname.startswith("tf.layers."):
                return
            kind = qualname[len("tf.layers."):]
            if kind in _NO_VARIABLES:
                return
            if kind not in _LAYER_VARIABLES or argument(node, "reuse") is not None:
                failed.append(f"tf.layers.{kind}")
                return
            layer = _layer_name(node, kind, self.counts[-1])
            if layer is None:
                failed.append("a computed layer name")
                return
            trainable = argument(node, "trainable")
            if trainable is not None and not (isinstance(trainable, cst.Name) and trainable.value in ("True", "False")):
                failed.append("a computed trainable flag")
                return
            path = "/".join([s for s in self.scopes if s] + [layer])
            for attribute, is_trainable, switch in _LAYER_VARIABLES[kind]:
                given = argument(node, switch) if switch else None
                if isinstance(given, cst.Name) and given.value == "False":
                    continue
                if given is not None and not (isinstance(given, cst.Name) and given.value == "True"):
                    failed.append(f"a computed `{switch}`")
                    return
                off = isinstance(trainable, cst.Name) and trainable.value == "False"
                made.append(LayerVariable(node, path, attribute, is_trainable and not off))

    visitor = _Layers()
    if body_only:
        for statement in node.body:
            visit(statement, visitor)
    else:
        visit(node, visitor)
    return None if failed else made


def _layer_name(call: cst.Call, kind: str, counts: Dict[str, int]) -> Optional[str]:
    count = counts.get(kind, 0)
    default = kind if count == 0 else f"{kind}_{count}"
    given = argument(call, "name")
    if given is not None:
        value = given.evaluated_value if isinstance(given, cst.SimpleString) else None
        if value is None or (value.startswith(tuple(_LAYER_VARIABLES)) and value != default):
            return None  # (a name like a default one changes how TF1 counted those: not read here)
        if value != default:
            return value
    counts[kind] = count + 1  # (the default name given by name=, as variable-name-filters writes it, counts too)
    return default
