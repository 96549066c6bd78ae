"""How one rnn call's cells become Keras layers: the layer-writing half of the rnn-to-keras rule's converter.

``_one_way`` (dynamic_rnn, static_rnn) and ``_bidirectional`` write the statements that run the cells over the
sequence; ``_run`` maps ``sequence_length`` to a mask and ``initial_state`` to the layers' state; ``_stack`` walks
``MultiRNNCell`` and ``DropoutWrapper``; ``_layer`` builds one Keras layer with TF1's initial values
(codegen/rnn_weights.py) and, where the file has a Saver, TF1-layout mirror variables under TF1's names.
"""
from __future__ import annotations

import json
from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.codegen.rnn_weights import CELLS, RNNCheckpoint, layer_setup, tf1_variables
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.rules._rnn_cells import Cell, Dropout, Leaf, Multi, leaves, tf1_prefixes
from tf_migrate.rules._rnn_statements import given_argument


class Refused(Exception):
    """Why an rnn call cannot become Keras layers (the file stays compat, with the reason at ``node``)."""

    def __init__(self, node: cst.CSTNode, why: str) -> None:
        super().__init__(why)
        self.node = node


class LayerWriting:
    """Mixed into the rule's converter, which holds what these methods read and write: ``tf`` (the module's name
    for TensorFlow), ``taken`` (names in use), ``widths``, ``batches``, ``ctx``, ``with_saver``; ``setup`` (the
    layers' set-up statements) and ``lstm_run`` (whether the call runs an LSTM); and ``_read(value, stmt)``, which
    reads a cell expression."""

    tf: str
    taken: Set[str]
    setup: List[str]
    lstm_run: bool
    with_saver: bool

    def _one_way(self, stmt, bound, scope, static: bool, lines: List[str]) -> str:
        cell = self._read(bound.pop("cell"), stmt)
        bound_inputs = bound.pop("inputs")
        inputs = code(bound_inputs)
        width = self.widths.of(bound_inputs)
        if width is None:
            raise Refused(stmt, f"the input width of `{inputs}` is not given by the program text")
        time_major = code(bound.pop("time_major", cst.Name("False"))) == "True"
        sequence = inputs
        if static or time_major or not isinstance(bound_inputs, cst.Name):
            sequence = fresh("rnn_inputs", self.taken)
            batch_major = f"{self.tf}.stack({inputs}, axis=1)" if static else (
                f"{self.tf}.transpose({inputs}, [1, 0, 2])" if time_major else inputs)
            lines.append(f"{sequence} = {batch_major}")
        outputs, state = self._run(stmt, cell, sequence, width, bound, (scope.evaluated_value if scope else "rnn"),
                                   lines)
        if static:
            return f"{self.tf}.unstack({outputs}, num=len({inputs}), axis=1), {state}"
        if time_major:
            return f"{self.tf}.transpose({outputs}, [1, 0, 2]), {state}"
        return f"{outputs}, {state}"

    def _bidirectional(self, stmt, bound, scope, lines: List[str]) -> str:
        forward, backward = self._read(bound.pop("cell_fw"), stmt), self._read(bound.pop("cell_bw"), stmt)
        inputs = code(bound.pop("inputs"))
        width = self.widths.of(cst.parse_expression(inputs))
        if width is None:
            raise Refused(stmt, f"the input width of `{inputs}` is not given by the program text")
        if code(bound.pop("time_major", cst.Name("False"))) == "True":
            raise Refused(stmt, "bidirectional_dynamic_rnn with time_major=True")
        prefix = scope.evaluated_value if scope else "bidirectional_rnn"
        lengths = given_argument(bound.pop("sequence_length", None))
        if lengths is not None:  # TF1 reverses only the first `length` steps of each sequence
            reverse = f"{self.tf}.reverse_sequence({{}}, {code(lengths)}, seq_axis=1, batch_axis=0)"
        else:
            reverse = f"{self.tf}.reverse({{}}, [1])"
        backward_bound = {"initial_state": bound.pop("initial_state_bw", None), "sequence_length": lengths}
        forward_bound = {"initial_state": bound.pop("initial_state_fw", None), "sequence_length": lengths, **bound}
        fw_out, fw_state = self._run(stmt, forward, inputs, width, forward_bound, f"{prefix}/fw", lines)
        reversed_in = fresh("rnn_reversed", self.taken)
        lines.append(f"{reversed_in} = {reverse.format(inputs)}")
        bw_out, bw_state = self._run(stmt, backward, reversed_in, width, backward_bound, f"{prefix}/bw", lines)
        return f"({fw_out}, {reverse.format(bw_out)}), ({fw_state}, {bw_state})"

    def _run(self, stmt, cell: Cell, sequence: str, width: str, bound, scope: str, lines: List[str]
             ) -> Tuple[str, str]:
        """Run ``cell`` over ``sequence``; returns (outputs, TF1 state structure) source."""
        lengths = given_argument(bound.pop("sequence_length", None))
        initial = given_argument(bound.pop("initial_state", None))  # (`initial_state=None` written out: none given)
        extra = {k: v for k, v in bound.items() if v is not None}
        if extra:
            raise Refused(stmt, f"rnn call arguments the rule does not map: {', '.join(sorted(extra))}")
        mask = ""
        if lengths is not None:
            mask_name = fresh("rnn_mask", self.taken)
            lines.append(f"{mask_name} = {self.tf}.sequence_mask({code(lengths)}, {self.tf}.shape({sequence})[1])")
            mask = mask_name
        sequence = self.batches.held_input(sequence, initial, self.tf)  # (the loop keeps a static state batch)
        prefixes = tf1_prefixes(cell, scope)
        layers = iter(zip(leaves(cell), prefixes))
        initial_code = code(initial) if initial is not None else None
        return self._stack(cell, sequence, width, mask, initial_code, layers, lines)

    def _stack(self, cell: Cell, sequence: str, width: str, mask: str, initial: Optional[str], layers,
               lines: List[str]) -> Tuple[str, str]:
        if isinstance(cell, Dropout):
            if cell.input_keep:  # a new name: the input may be a fed placeholder
                dropped = fresh("rnn_dropped", self.taken)
                lines.append(f"{dropped} = {self.tf}.nn.dropout({sequence}, rate=1 - ({cell.input_keep}))")
                sequence = dropped
            outputs, state = self._stack(cell.inner, sequence, width, mask, initial, layers, lines)
            if cell.output_keep:
                lines.append(f"{outputs} = {self.tf}.nn.dropout({outputs}, rate=1 - ({cell.output_keep}))")
            return outputs, state
        if isinstance(cell, Multi):
            states = []
            for index, child in enumerate(cell.cells):
                child_initial = f"{initial}[{index}]" if initial is not None else None
                sequence, state = self._stack(child, sequence, width, mask, child_initial, layers, lines)
                width = leaves(child)[-1].units
                states.append(state)
            return sequence, "(" + "".join(s + ", " for s in states) + ")"
        leaf, prefix = next(layers)
        return self._layer(leaf, prefix, sequence, width, mask, initial, lines)

    def _layer(self, leaf: Leaf, prefix: str, sequence: str, width: str, mask: str, initial: Optional[str],
               lines: List[str]) -> Tuple[str, str]:
        kind = CELLS[leaf.cell_class][0]
        layer = fresh({"lstm": "lstm", "gru": "gru", "rnn": "simple_rnn"}[kind], self.taken)
        forget_bias = leaf.forget_bias if kind == "lstm" else "0.0"
        constructor, setup = layer_setup(layer, CELLS[leaf.cell_class], leaf.units, leaf.activation, width, self.tf,
                                         leaf.kernel_init, leaf.bias_init, forget_bias)
        self.setup += setup
        tf = self.tf
        if self.with_saver:
            checkpoint = RNNCheckpoint(layer, kind, width, forget_bias, constructor)
            for name, shape in tf1_variables(kind, prefix, width, leaf.units):
                mirror = fresh(f"{layer}_{name[len(prefix) + 1:].replace('/', '_')}", self.taken)
                self.setup.append(f"{mirror} = {tf}.Variable({tf}.zeros({shape}), trainable=False, "
                             f"name={json.dumps(name)})  # TF1's layout, for the Saver")
                checkpoint.mirrors.append(mirror)
            self.ctx.rnn_checkpoints.append(checkpoint)
        call_args = [sequence] + ([f"mask={mask}"] if mask else [])
        if initial is not None:
            call_args.append(f"initial_state=[{initial}[1], {initial}[0]]" if kind == "lstm"
                             else f"initial_state=[{initial}]")
        outputs = fresh(f"{layer}_outputs", self.taken)
        if kind == "lstm":
            self.lstm_run = True
            h, c = fresh(f"{layer}_h", self.taken), fresh(f"{layer}_c", self.taken)
            lines.append(f"{outputs}, {h}, {c} = {layer}({', '.join(call_args)})")
            return outputs, f"({c}, {h})"
        state = fresh(f"{layer}_state", self.taken)
        lines.append(f"{outputs}, {state} = {layer}({', '.join(call_args)})")
        return outputs, state
