"""The batch an rnn's initial state fixes, for ``rnn-to-keras``: the input is held to it, as TF1 held the state.

    x = tf.placeholder(tf.float32, [None, 10, 1])
    init_s = cell.zero_state(batch_size=1, dtype=tf.float32)          (a state of batch 1)
    outputs, final_s = tf.nn.dynamic_rnn(cell, x, initial_state=init_s)

TF1's ``dynamic_rnn`` set each new state to the initial state's static shape at every step, so the loop ran with a
state of batch 1 however the input's batch was declared (and a run fed another batch failed). A Keras layer's loop
keeps what one step computes: traced with the input's ``None`` batch (a run function's input signature), the state
goes from ``(1, 32)`` to ``(None, 32)`` after one step and ``tf.while_loop`` refuses the trace. The converted call
holds the input to the state's batch, ``lstm(tf.ensure_shape(x, [1, None, None]), initial_state=...)``, which is
TF1's contract: the same values for the batch it ran, an error for another. Where the input's declared batch is the
state's (``tf.placeholder(tf.float32, [batch_size, ...])`` with ``zero_state(batch_size, ...)``) nothing is added.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional

import libcst as cst

from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames


class StateBatches:
    """The static batch of the zero states and the declared batch of the placeholders a scope binds, as source."""

    def __init__(self, names: TFNames, int_value: Callable[[cst.BaseExpression], Optional[int]]) -> None:
        self.names = names
        self.int_value = int_value  # a width's int value where the text gives it (module constants)
        self.states: Dict[str, str] = {}  # zero state name -> its batch ("1", "batch_size")
        self.inputs: Dict[str, str] = {}  # placeholder name -> its declared batch ("None", "batch_size")

    def enter(self, func: cst.FunctionDef):
        """Into ``func``: its parameters are not the module's values of those names. Returns what to restore."""
        saved = (self.states, self.inputs)
        params = {param.name.value for param in func.params.params}
        self.states = {k: v for k, v in self.states.items() if k not in params}
        self.inputs = {k: v for k, v in self.inputs.items() if k not in params}
        return saved

    def record_zero_state(self, target: cst.BaseExpression, batch: cst.BaseExpression) -> None:
        """``target = cell.zero_state(batch, ...)``: a static batch where ``batch`` is an int the text gives."""
        if isinstance(target, cst.Name):
            if self.int_value(batch) is not None:
                self.states[target.value] = code(batch)
            else:
                self.states.pop(target.value, None)

    def record_line(self, stmt: cst.SimpleStatementLine) -> None:
        """``name = tf.placeholder(dtype, [batch, ...])``: the declared batch of a placeholder."""
        small = stmt.body[0] if len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            return
        name = small.targets[0].target.value
        self.inputs.pop(name, None)
        value = small.value
        if isinstance(value, cst.Call) and self.names.call_name(value) == "tf.placeholder":
            shape = argument(value, "shape", 1)
            if isinstance(shape, (cst.List, cst.Tuple)) and shape.elements:
                self.inputs[name] = code(shape.elements[0].value)

    def held_input(self, sequence: str, initial: Optional[cst.BaseExpression], tf: str) -> str:
        """``sequence`` (batch-major), held to the batch of ``initial`` where that is static and the input's declared
        batch may differ."""
        batch = self.states.get(initial.value) if isinstance(initial, cst.Name) else None
        if batch is None:
            return sequence
        declared = self.inputs.get(sequence)
        if declared is not None and (declared == batch or self._same_int(declared, batch)):
            return sequence
        return f"{tf}.ensure_shape({sequence}, [{batch}, None, None])"

    def _same_int(self, declared: str, batch: str) -> bool:
        first, second = self.int_value(cst.parse_expression(declared)), self.int_value(cst.parse_expression(batch))
        return first is not None and first == second
