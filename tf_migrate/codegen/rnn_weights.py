"""TF1 rnn cells as Keras RNN layers: what each cell maps to, TF1's variable names, and the weight mapping.

TF1's cells keep one kernel over ``concat([inputs, h])``; Keras layers keep ``kernel`` (input rows)
and ``recurrent_kernel`` (state rows), so every mapping splits the rows at the input width.
- ``LSTMCell`` / ``BasicLSTMCell``: columns ``i, j, f, o`` (``j`` the candidate) and
  ``forget_bias`` (default 1.0) added to ``f`` at every step; Keras ``LSTM`` orders ``i, f, c, o``
  and adds nothing (``unit_forget_bias`` only initialises). The Keras bias holds TF1's bias plus
  ``forget_bias`` on the ``f`` slice: the same pre-activations, hence the same gradients.
- ``GRUCell``: ``gates`` kernel ``[in+u, 2u]`` split ``r, u`` and a ``candidate`` kernel applied to
  ``concat([inputs, r * h])``: Keras ``GRU(reset_after=False)`` with columns ``z(=u), r, h``.
- ``BasicRNNCell``: ``tanh(concat([x, h]) @ W + b)``, Keras ``SimpleRNN``.
Activations: TF1 cells default to tanh and sigmoid gates, as Keras layers do (recurrent_activation
"sigmoid" in Keras 2 and 3).

:data:`HELPERS` is the source of the numpy functions the migrated program carries to apply the
mapping: to the initial values drawn as TF1 drew them, and to checkpoint values.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import json
from typing import Dict, List, Optional, Tuple

# TF1 cell class -> (mapping kind, Keras layer class, TF1 default layer name)
CELLS: Dict[str, Tuple[str, str, str]] = {
    "BasicRNNCell": ("rnn", "SimpleRNN", "basic_rnn_cell"),
    "BasicLSTMCell": ("lstm", "LSTM", "basic_lstm_cell"),
    "LSTMCell": ("lstm", "LSTM", "lstm_cell"),
    "GRUCell": ("gru", "GRU", "gru_cell"),
}
GATES = {"rnn": 1, "lstm": 4, "gru": 3}  # Keras kernel columns per unit

KERAS_WEIGHTS = "keras_rnn_weights"
ASSIGN_TF1_WEIGHTS = "assign_tf1_rnn_weights"


def tf1_variables(kind: str, prefix: str, input_size: str, units: str) -> List[Tuple[str, str]]:
    """(TF1 variable name, shape source) of one cell under ``prefix`` ("rnn/lstm_cell"), in TF1's order."""
    rows = f"{input_size} + {units}"
    if kind == "gru":
        return [(f"{prefix}/gates/kernel", f"[{rows}, 2 * {units}]"), (f"{prefix}/gates/bias", f"[2 * {units}]"),
                (f"{prefix}/candidate/kernel", f"[{rows}, {units}]"), (f"{prefix}/candidate/bias", f"[{units}]")]
    columns = f"4 * {units}" if kind == "lstm" else units
    return [(f"{prefix}/kernel", f"[{rows}, {columns}]"), (f"{prefix}/bias", f"[{columns}]")]


def layer_setup(layer: str, cell: Tuple[str, str, str], units: str, activation: Optional[str], width: str, tf: str,
                kernel_init: Optional[str], bias_init: Optional[str], forget_bias: str) -> Tuple[str, List[str]]:
    """(constructor source, statements) that build the Keras layer ``layer`` with TF1's initial values mapped in:
    its cell's initializers are :data:`CELL_INITIALIZERS`', which draw them at the build, in TF1's layout."""
    kind, keras_class, _ = cell
    constructor = _keras_constructor(f"{tf}.keras.layers.{keras_class}", kind, units, activation, kernel_init,
                                     bias_init, forget_bias,
                                     ["return_sequences=True", "return_state=True", "zero_output_for_mask=True"])
    return constructor, [f"{layer} = {constructor}", f"{layer}.build((None, None, {width}))"]


CELL_INITIALIZERS = "tf1_cell_initializers"
LSTM_STEP = "tf1_lstm_step"
KERAS_CELLS = {"rnn": "SimpleRNNCell", "lstm": "LSTMCell", "gru": "GRUCell"}


def keras_cell(kind: str, units: str, activation: Optional[str], tf: str, kernel_init: Optional[str],
               bias_init: Optional[str], forget_bias: str) -> str:
    """Source of the Keras cell that a TF1 cell stepped by hand becomes: built on its first call, as TF1's
    was, with TF1's initial values mapped in (see the helper :data:`CELL_INITIALIZERS`)."""
    return _keras_constructor(f"{tf}.keras.layers.{KERAS_CELLS[kind]}", kind, units, activation, kernel_init,
                              bias_init, forget_bias, [])


def _keras_constructor(keras_class: str, kind: str, units: str, activation: Optional[str], kernel_init: Optional[str],
                       bias_init: Optional[str], forget_bias: str, layer_args: List[str]) -> str:
    args = [f"units={units}"]
    if activation is not None:
        args.append(f"activation={activation}")
    if kind == "gru":
        args.append("reset_after=False")  # TF1 applies the reset gate before the candidate's matmul
    if kind == "lstm":
        args.append("unit_forget_bias=False")  # the forget bias is in the mapped bias
    initializers = [json.dumps(kind), units]
    if kind == "lstm" and forget_bias not in ("0", "0.0"):
        initializers.append(f"forget_bias={forget_bias}")
    if kernel_init:
        initializers.append(f"kernel_initializer={kernel_init}")
    if bias_init:
        initializers.append(f"bias_initializer={bias_init}")
    args += layer_args + [f"**{CELL_INITIALIZERS}({', '.join(initializers)})"]
    return f"{keras_class}({', '.join(args)})"


def cell_helpers(tf: str, lstm: bool) -> str:
    """Source of the functions a program with cells stepped by hand carries (besides :data:`HELPERS`); the LSTM
    step where an LSTM cell is stepped. TF1's initial values (the shapes of :func:`tf1_variables`) are drawn when
    Keras builds the layer or cell, which knows the input width then."""
    source = f'''
def {CELL_INITIALIZERS}(kind, units, forget_bias=0.0, kernel_initializer=None, bias_initializer=None):
    """Initializers that give a Keras rnn cell TF1's initial values: drawn in TF1's layout (one kernel over
    [inputs, state], Glorot uniform unless given) when Keras builds the cell at its first call, where TF1 built
    it, and mapped by {KERAS_WEIGHTS}."""
    kernel_initializer = kernel_initializer or {tf}.keras.initializers.GlorotUniform()
    mapped = []

    def tf1_values(input_size):
        rows, columns = input_size + units, {{"rnn": 1, "lstm": 4, "gru": 2}}[kind] * units
        shapes = [[rows, columns], [columns]] + ([[rows, units], [units]] if kind == "gru" else [])
        values = []
        for index, shape in enumerate(shapes):
            if index % 2 == 0:
                values.append(kernel_initializer(shape=shape, dtype={tf}.float32))
            elif bias_initializer is not None:
                values.append(bias_initializer(shape=shape, dtype={tf}.float32))
            else:  # TF1's GRU gates start at 1.0 (no reset, no update); every other bias at zero
                values.append({tf}.ones(shape) if kind == "gru" and index == 1 else {tf}.zeros(shape))
        return values

    def part(index):
        def initializer(shape, dtype=None):
            if not mapped:  # the kernel comes first: its rows are the input width
                with {tf}.init_scope():  # drawn eagerly, once, also where the first call is traced
                    mapped.extend({KERAS_WEIGHTS}(kind, tf1_values(shape[0]), shape[0], forget_bias))
            return mapped[index]

        return initializer

    return {{"kernel_initializer": part(0), "recurrent_initializer": part(1), "bias_initializer": part(2)}}
'''
    return source + (f'''

def {LSTM_STEP}(cell, inputs, state):
    """A Keras LSTMCell called as TF1's LSTMCell was: the state is TF1's (c, h), in and out."""
    output, (h, c) = cell(inputs, [state[1], state[0]])
    return output, (c, h)
''' if lstm else "")


@dataclass
class RNNCheckpoint:
    """One converted cell whose weights a Saver keeps under TF1's names, through TF1-layout mirror variables."""

    layer: str  # the Keras layer's variable in the output
    kind: str
    input_size: str
    forget_bias: str
    constructor: str  # source of the layer's constructor call
    mirrors: List[str] = field(default_factory=list)  # mirror variables, in TF1's order


HELPERS = f'''
def {KERAS_WEIGHTS}(kind, tf1_weights, input_size, forget_bias=0.0):
    """TF1 rnn cell weights (TF1's layout and gate order) as the Keras layer's [kernel, recurrent_kernel, bias]."""
    import numpy

    tf1_weights = [numpy.asarray(weight) for weight in tf1_weights]
    if kind == "gru":  # gates r, u and a candidate kernel -> Keras z(=u), r, h with reset_after=False
        gates_kernel, gates_bias, candidate_kernel, candidate_bias = tf1_weights
        reset, update = numpy.split(gates_kernel, 2, axis=1)
        kernel = numpy.concatenate([update, reset, candidate_kernel], axis=1)
        reset_bias, update_bias = numpy.split(gates_bias, 2)
        bias = numpy.concatenate([update_bias, reset_bias, candidate_bias])
    else:
        kernel, bias = tf1_weights
        if kind == "lstm":  # i, j, f, o with forget_bias added at run time -> Keras i, f, c, o
            i, j, f, o = numpy.split(kernel, 4, axis=1)
            kernel = numpy.concatenate([i, f, j, o], axis=1)
            bias_i, bias_j, bias_f, bias_o = numpy.split(bias, 4)
            bias = numpy.concatenate([bias_i, bias_f + forget_bias, bias_j, bias_o])
    return [kernel[:input_size], kernel[input_size:], bias]


def {ASSIGN_TF1_WEIGHTS}(kind, layer, variables, forget_bias=0.0):
    """The inverse of {KERAS_WEIGHTS}: a Keras layer's weights assigned, in TF1's layout, to TF1-named variables."""
    import numpy

    kernel, recurrent_kernel, bias = layer.get_weights()
    kernel = numpy.concatenate([kernel, recurrent_kernel])
    if kind == "gru":
        update, reset, candidate = numpy.split(kernel, 3, axis=1)
        update_bias, reset_bias, candidate_bias = numpy.split(bias, 3)
        values = [numpy.concatenate([reset, update], axis=1), numpy.concatenate([reset_bias, update_bias]),
                  candidate, candidate_bias]
    elif kind == "lstm":
        i, f, j, o = numpy.split(kernel, 4, axis=1)
        bias_i, bias_f, bias_j, bias_o = numpy.split(bias, 4)
        values = [numpy.concatenate([i, j, f, o], axis=1),
                  numpy.concatenate([bias_i, bias_j, bias_f - forget_bias, bias_o])]
    else:
        values = [kernel, bias]
    for variable, value in zip(variables, values):
        variable.assign(value)
'''
