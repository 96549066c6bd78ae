"""TF1 rnn cell expressions read into a tree the rnn-to-keras rule turns into Keras layers.

A cell is a leaf (``LSTMCell(64)``), a ``MultiRNNCell`` of cells (a list literal, or a
comprehension over ``range(N)``), or a ``DropoutWrapper`` around one (input / output
dropout only). Anything else raises :class:`Unsupported` with the reason the file stays compat.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Union

import libcst as cst

from tf_migrate.codegen.rnn_weights import CELLS
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

CELL_PREFIXES = ("tf.nn.rnn_cell.", "tf.contrib.rnn.")

_PARAMS = {
    "BasicRNNCell": ["num_units", "activation", "reuse", "name", "dtype"],
    "BasicLSTMCell": ["num_units", "forget_bias", "state_is_tuple", "activation", "reuse", "name", "dtype"],
    "LSTMCell": ["num_units", "use_peepholes", "cell_clip", "initializer", "num_proj", "proj_clip",
                 "num_unit_shards", "num_proj_shards", "forget_bias", "state_is_tuple", "activation", "reuse",
                 "name", "dtype"],
    "GRUCell": ["num_units", "activation", "reuse", "kernel_initializer", "bias_initializer", "name", "dtype"],
}
# Arguments whose TF1 default (False / None) is the only value Keras' layers can match.
_UNMATCHED = {
    "use_peepholes": "peephole connections (Keras' LSTM has none)",
    "cell_clip": "cell clipping (Keras' LSTM has none)",
    "num_proj": "an output projection (Keras' LSTM has none)",
    "proj_clip": "projection clipping (Keras' LSTM has none)",
    "num_unit_shards": "a sharded kernel", "num_proj_shards": "a sharded projection",
    "dtype": "a dtype other than float32",
}
_DROPOUT_PARAMS = ["cell", "input_keep_prob", "output_keep_prob", "state_keep_prob", "variational_recurrent",
                   "input_size", "dtype", "seed", "dropout_state_filter_visitor"]


class Unsupported(Exception):
    """A cell (or rnn call) the Keras layers cannot reproduce; the message says why."""


@dataclass
class Leaf:
    cell_class: str
    units: str
    activation: Optional[str] = None
    forget_bias: str = "1.0"
    kernel_init: Optional[str] = None
    bias_init: Optional[str] = None
    name: Optional[str] = None  # TF1 layer name (the variable scope of its weights)

    @property
    def kind(self) -> str:
        return CELLS[self.cell_class][0]


@dataclass
class Dropout:
    inner: "Cell"
    input_keep: Optional[str] = None
    output_keep: Optional[str] = None


@dataclass
class Multi:
    cells: List["Cell"] = field(default_factory=list)


Cell = Union[Leaf, Dropout, Multi]


def is_literal_false(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value in ("False", "None")


class CellReader:
    """Reads cell expressions; ``known`` resolves a name to the cell bound to it earlier."""

    def __init__(self, names: TFNames, known: Callable[[str], Optional[Cell]],
                 int_value: Callable[[cst.BaseExpression], Optional[int]]) -> None:
        self.names, self.known, self.int_value = names, known, int_value
        self.lists: Dict[str, List[Cell]] = {}  # cells = [GRUCell(4) for _ in range(2)], for MultiRNNCell(cells)
        self.factories: Dict[str, cst.Call] = {}  # def lstm_cell(): return LSTMCell(64)

    def cell_class(self, call: cst.Call) -> Optional[str]:
        qualname = self.names.call_name(call) or ""
        for prefix in CELL_PREFIXES:
            if qualname.startswith(prefix):
                return qualname[len(prefix):]
        return None

    def read(self, expr: cst.BaseExpression) -> Cell:
        if isinstance(expr, cst.Name):
            cell = self.known(expr.value)
            if cell is None:
                raise Unsupported(f"the cell `{expr.value}` is not built by a cell constructor the rule reads")
            return cell
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in self.factories \
                and not expr.args:
            return self.read(self.factories[expr.func.value])
        if not isinstance(expr, cst.Call):
            raise Unsupported(f"the cell `{code(expr)}` is not a cell constructor")
        cls = self.cell_class(expr)
        if cls in CELLS:
            return self._leaf(cls, expr)
        if cls == "MultiRNNCell":
            return self._multi(expr)
        if cls == "DropoutWrapper":
            return self._dropout(expr)
        raise Unsupported(f"`{code(expr.func)}` is not a cell with a Keras layer of the same math")

    def factory(self, func: cst.FunctionDef) -> bool:
        """``def lstm_cell(): return tf.nn.rnn_cell.LSTMCell(64)``: read where it is called."""
        body = func.body.body
        if func.params.params or func.params.kwonly_params or isinstance(func.params.star_arg, cst.Param) \
                or func.params.star_kwarg or len(body) != 1 \
                or not isinstance(body[0], cst.SimpleStatementLine) or not isinstance(body[0].body[0], cst.Return):
            return False
        value = body[0].body[0].value
        if not (isinstance(value, cst.Call) and self.cell_class(value) is not None):
            return False
        self.factories[func.name.value] = value
        return True

    def _leaf(self, cls: str, call: cst.Call) -> Leaf:
        bound = bind(call, _PARAMS[cls])
        if bound is None or "num_units" not in bound:
            raise Unsupported(f"{cls} with arguments the rule does not read")
        for param, why in _UNMATCHED.items():
            value = bound.get(param)
            if value is not None and not is_literal_false(value) and not (
                    param == "dtype" and code(value).endswith("float32")):
                raise Unsupported(f"{cls} with {why}")
        tuple_state = bound.get("state_is_tuple")
        if tuple_state is not None and not (isinstance(tuple_state, cst.Name) and tuple_state.value == "True"):
            raise Unsupported(f"{cls} with state_is_tuple=False (one concatenated state tensor)")
        name = bound.get("name")
        if name is not None and not isinstance(name, cst.SimpleString):
            raise Unsupported(f"{cls} with a computed name")
        leaf = Leaf(cls, code(bound["num_units"]),
                    activation=code(bound["activation"]) if "activation" in bound else None,
                    name=name.evaluated_value if isinstance(name, cst.SimpleString) else None)
        if "forget_bias" in bound:
            leaf.forget_bias = code(bound["forget_bias"])
        init = bound.get("initializer", bound.get("kernel_initializer"))
        leaf.kernel_init = code(init) if init is not None and not is_literal_false(init) else None
        bias = bound.get("bias_initializer")
        leaf.bias_init = code(bias) if bias is not None and not is_literal_false(bias) else None
        return leaf

    def _multi(self, call: cst.Call) -> Multi:
        bound = bind(call, ["cells", "state_is_tuple"])
        if bound is None or "cells" not in bound:
            raise Unsupported("MultiRNNCell with arguments the rule does not read")
        if "state_is_tuple" in bound and code(bound["state_is_tuple"]) != "True":
            raise Unsupported("MultiRNNCell with state_is_tuple=False (one concatenated state tensor)")
        cells = bound["cells"]
        if isinstance(cells, cst.Name) and cells.value in self.lists:
            return Multi(list(self.lists[cells.value]))
        return Multi(self.cell_list(cells))

    def is_cell_list(self, expr: cst.BaseExpression) -> bool:
        element = expr.elt if isinstance(expr, cst.ListComp) else (
            expr.elements[0].value if isinstance(expr, cst.List) and expr.elements else None)
        return isinstance(element, cst.Call) and (self.cell_class(element) is not None or (
            isinstance(element.func, cst.Name) and element.func.value in self.factories))

    def cell_list(self, cells: cst.BaseExpression) -> List[Cell]:
        if isinstance(cells, cst.List):
            return [self.read(element.value) for element in cells.elements]
        if isinstance(cells, cst.ListComp) and cells.for_in.inner_for_in is None and not cells.for_in.ifs:
            iterable = cells.for_in.iter
            count = None
            if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) \
                    and iterable.func.value == "range" and len(iterable.args) == 1:
                count = self.int_value(iterable.args[0].value)
            target_names = {n.value for n in _names(cells.for_in.target)}
            if count is None or target_names & {n.value for n in _names(cells.elt)}:
                raise Unsupported("MultiRNNCell over a comprehension that is not `[cell for _ in range(N)]`")
            return [self.read(cells.elt) for _ in range(count)]
        raise Unsupported("MultiRNNCell of cells that are not a list literal or a comprehension")

    def _dropout(self, call: cst.Call) -> Dropout:
        bound = bind(call, _DROPOUT_PARAMS)
        if bound is None or "cell" not in bound:
            raise Unsupported("DropoutWrapper with arguments the rule does not read")
        for param in ("state_keep_prob", "variational_recurrent", "dropout_state_filter_visitor", "input_size"):
            if param in bound and not is_literal_false(bound[param]) and code(bound[param]) not in ("1", "1.0"):
                raise Unsupported(f"DropoutWrapper with {param} (Keras' layers have no such dropout)")
        return Dropout(self.read(bound["cell"]), input_keep=_code_or_none(bound.get("input_keep_prob")),
                       output_keep=_code_or_none(bound.get("output_keep_prob")))


def _code_or_none(node: Optional[cst.BaseExpression]) -> Optional[str]:
    if node is None or code(node) in ("1", "1.0"):
        return None
    return code(node)


def _names(node: cst.CSTNode) -> List[cst.Name]:
    found: List[cst.Name] = []

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.append(name)

    visit(node, _Collect())
    return found


def leaves(cell: Cell) -> List[Leaf]:
    if isinstance(cell, Leaf):
        return [cell]
    if isinstance(cell, Dropout):
        return leaves(cell.inner)
    return [leaf for child in cell.cells for leaf in leaves(child)]


def tf1_prefixes(cell: Cell, scope: str) -> List[str]:
    """TF1 variable-scope prefix of each leaf's weights ("rnn/multi_rnn_cell/cell_0/lstm_cell"), leaf order.

    (Two rnns under one scope with default-named cells were an error in TF1: "already exists".)"""
    if isinstance(cell, Leaf):
        return [f"{scope}/{cell.name or CELLS[cell.cell_class][2]}"]
    if isinstance(cell, Dropout):
        return tf1_prefixes(cell.inner, scope)
    prefixes: List[str] = []
    for index, child in enumerate(cell.cells):
        prefixes.extend(tf1_prefixes(child, f"{scope}/multi_rnn_cell/cell_{index}"))
    return prefixes


def zero_state_source(cell: Cell, batch: str, tf: str) -> str:
    """Source of TF1's ``cell.zero_state(batch, float32)``: zeros in its state structure, LSTM states ``(c, h)``."""
    if isinstance(cell, Leaf):
        zeros = f"{tf}.zeros([{batch}, {cell.units}])"
        return f"({zeros}, {zeros})" if cell.kind == "lstm" else zeros
    if isinstance(cell, Dropout):
        return zero_state_source(cell.inner, batch, tf)
    return "(" + "".join(zero_state_source(child, batch, tf) + ", " for child in cell.cells) + ")"
