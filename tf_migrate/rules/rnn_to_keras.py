"""TF1 rnn cells run by dynamic_rnn / static_rnn / bidirectional_dynamic_rnn -> Keras RNN layers, same math.

    cell = tf.nn.rnn_cell.LSTMCell(64)
    outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
becomes
    lstm = tf.keras.layers.LSTM(units=64, unit_forget_bias=False, return_sequences=True, return_state=True,
                                zero_output_for_mask=True, **tf1_cell_initializers("lstm", 64, forget_bias=1.0))
    lstm.build((None, None, 3))
    lstm_outputs, lstm_h, lstm_c = lstm(x, mask=tf.sequence_mask(lengths, tf.shape(x)[1]))
    outputs, state = lstm_outputs, (lstm_c, lstm_h)
- Initial values are drawn as TF1 drew them at the build, mapped in (``tf1_cell_initializers``, codegen/rnn_weights.py).
- ``sequence_length`` becomes a mask with zero outputs past each length and the state held, as
  TF1 did; ``time_major`` transposes in and out; ``initial_state`` goes to the layer (an LSTM state
  is TF1's ``(c, h)``, Keras' ``[h, c]``); ``cell.zero_state(...)`` becomes zeros of its structure.
- A final LSTM state is the tuple ``(c, h)``: ``state.c`` / ``.h`` -> ``[0]`` / ``[1]``, on fetches too.
- ``MultiRNNCell`` stacks layers; ``DropoutWrapper``'s input / output dropout is ``tf.nn.dropout`` on the
  layer's input / output sequence (TF1 drew a new mask at every step, as dropout over the sequence does).
- Where the file has a ``tf.train.Saver``, each layer gets TF1-layout mirror variables under
  TF1's names (``rnn/lstm_cell/kernel``), which saver-var-list keys and rnn-checkpoints syncs.
- An rnn built in a function called once has its layers built once, before the function (a parameter
  read as the argument the call gives it, where that is a number or a name bound before the function).
- An rnn a class builds in ``__init__`` has its layers built there, in place (``_rnn_classes``): the object holds
  them as it holds any layer its ``__init__`` builds, and the session rule runs them in its generated methods.
The statements that run the cells as layers are written by ``_rnn_layers`` (this module reads the program: cells,
rnn calls, where the layers go).
Everything or nothing: what the layers cannot reproduce (peepholes, projections, rnns in loops or in
other methods, an LSTM state kept on an object, an input width the text does not give) keeps the file compat, with
the reason at its line.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, target_keys, writes
from tf_migrate.codegen.rnn_weights import CELLS
from tf_migrate.cst.arguments import argument, bind
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules._hoisting import call_counts, how_called
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._rnn_cells import Cell, CellReader, Unsupported, leaves, zero_state_source
from tf_migrate.rules._rnn_classes import init_widths, lstm_state_escape
from tf_migrate.rules._rnn_layers import LayerWriting, Refused
from tf_migrate.rules._rnn_placement import SetupPlacement
from tf_migrate.rules._rnn_state_batches import StateBatches
from tf_migrate.rules._rnn_statements import (RNN_CALLS, StateTuples, Widths, call_arguments, calls_by_name,
                                              rewrite_state_fields, top_lines, with_cell_helpers)
from tf_migrate.traversal import visit

RULE_ID = "rnn-to-keras"
_ZERO_STATE = "zero_state"


class RNNToKeras(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.nn.rnn_cell / tf.contrib.rnn cells + dynamic_rnn / static_rnn / bidirectional_dynamic_rnn "
                   "-> Keras LSTM / GRU / SimpleRNN layers with TF1's math, initial values and checkpoint names")
    ORDER = 3  # before saver-var-list, which keys the mirror variables by their TF1 names
    TRIGGERS = ("rnn",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        original = module
        module = visit(module, StateTuples(ctx.names))
        converter = _Converter(module, ctx)
        try:
            body = converter.block(list(module.body), top=True)
            converter.check_leftovers(body)
        except Refused as refused:
            ctx.report(refused.node, RULE_ID, WARNING, f"rnn not converted: {refused}")
            ctx.block(refused.node, f"rnn cells kept: {refused}")
            return original
        if not converter.converted:
            return original
        module = rewrite_state_fields(module.with_changes(body=body), converter.state_names)
        return with_cell_helpers(module, ctx.tf, False)


class _Converter(LayerWriting):
    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.ctx, self.tf, self.module = ctx, ctx.tf, module
        self.taken: Set[str] = {k.split(".")[-1] for k in reads(module)} | set(writes(module))
        self.module_widths = Widths(ctx.names)
        for stmt in top_lines(module.body):
            self.module_widths.record(stmt)  # widths of the arguments a function building an rnn is called with
        self.widths = Widths(ctx.names)
        self.call_counts = call_counts(module)
        self.calls = calls_by_name(module)
        self.function: Optional[str] = None  # the function whose rnn is being converted
        self.placement: Optional[SetupPlacement] = None  # where its layers may be built
        self.hoisted: List[cst.BaseStatement] = []  # its layers' set-up, placed before it
        self.at_anchor: Dict[int, List[cst.BaseStatement]] = {}  # or before the module statement calling it (by id)
        self.cells: Dict[str, Cell] = {}
        self.pending_lines: List[cst.EmptyLine] = []
        self.reader = CellReader(ctx.names, lambda name: self.cells.get(name),
                                 lambda node: self.widths.int_value(node))
        self.batches = StateBatches(ctx.names, lambda node: self.widths.int_value(node))
        self.with_saver = "Saver" in code(module)
        self.converted = 0
        self.state_names: Set[str] = set()
        self.lstm_states: Set[str] = set()  # the names an LSTM's state went to (TF1: an LSTMStateTuple)
        self.rnn_lines: List[cst.CSTNode] = []
        self.setup: List[str] = []  # statements that build the layers of the rnn call being converted
        self.lstm_run = False  # whether the rnn call being converted runs an LSTM
        self.in_class = False  # converting the __init__ of a class

    # -- statements ----------------------------------------------------------------------
    def block(self, body: List[cst.BaseStatement], top: bool) -> List[cst.BaseStatement]:
        out: List[cst.BaseStatement] = []
        for stmt in body:
            placed = self.at_anchor.pop(id(stmt), None) if top else None
            if placed:  # the layers of a function this statement calls, built before it
                out.extend([placed[0].with_changes(leading_lines=stmt.leading_lines), *placed[1:]])
                stmt = stmt.with_changes(leading_lines=[])
            if isinstance(stmt, cst.With):
                if self.function is not None and self.with_saver:
                    raise Refused(stmt, "an rnn under a scope inside a function, where a Saver needs its TF1 names")
                inner = self.block(list(stmt.body.body), top=top)
                out.append(stmt.with_changes(body=stmt.body.with_changes(body=inner)))
                continue
            if isinstance(stmt, cst.FunctionDef) and self.reader.factory(stmt):
                self.pending_lines.extend(stmt.leading_lines)
                continue
            if isinstance(stmt, cst.FunctionDef) and top and self._mentions_rnn(stmt):
                out.extend(self._function(stmt))
                continue
            if isinstance(stmt, cst.ClassDef) and top and self._mentions_rnn(stmt):
                out.append(self._class(stmt))
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                if self._mentions_rnn(stmt):
                    raise Refused(stmt, "rnn cells built or run inside a loop or branch, a class inside a "
                                         "function or class, or a function nested in another")
                out.append(stmt)
                continue
            new = self.line(stmt)
            if new and self.pending_lines:
                new[0] = new[0].with_changes(leading_lines=self.pending_lines + list(new[0].leading_lines))
                self.pending_lines = []
            out.extend(new)
        return out

    def _function(self, func: cst.FunctionDef) -> List[cst.BaseStatement]:
        """A function called once that builds an rnn: its layers are built once, before it, as reuse did."""
        name = func.name.value
        if self.call_counts.get(name, 0) == 0:  # a library function: its callers are in other files
            self.ctx.report(func, RULE_ID, INFO, f"`{name}` builds rnn cells but is not called in this file: "
                            "left as it is")
            return [func]
        if self.call_counts.get(name, 0) != 1:
            raise Refused(func, f"`{name}` builds rnn cells and is {how_called(self.module, name, self.call_counts)}: "
                                 "each call made new variables in TF1")
        if isinstance(func.params.star_arg, cst.Param) or func.params.kwonly_params or func.params.star_kwarg:
            raise Refused(func, f"`{name}` builds rnn cells and takes *args / keyword-only parameters")
        widths = Widths(self.ctx.names)
        widths.constants, widths.python = dict(self.module_widths.constants), set(self.module_widths.python)
        call = self.calls.get(name)
        for param, value in call_arguments(func, call).items():
            widths.known[param] = self.module_widths.of(value)
        self.placement = SetupPlacement(func, call, self.module)
        saved = (self.widths, dict(self.cells), dict(self.reader.lists), self.function, self.batches.enter(func))
        self.widths, self.function, self.hoisted = widths, name, []
        try:
            body = self.block(list(func.body.body), top=False)
            self.check_leftovers(body, [name for name in self.cells if name not in saved[1]])  # (in cell order)
        finally:
            self.widths, self.reader.lists, self.function = saved[0], saved[2], saved[3]
            self.cells = saved[1]
            self.batches.states, self.batches.inputs = saved[4]  # (the module's again)
        hoisted, self.hoisted = self.hoisted, []
        new_func = func.with_changes(body=func.body.with_changes(body=body))
        if hoisted:
            hoisted[0] = hoisted[0].with_changes(leading_lines=list(func.leading_lines))
            new_func = new_func.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        return hoisted + [new_func]

    def _class(self, cls: cst.ClassDef) -> cst.ClassDef:
        """A class whose __init__ builds an rnn: its layers are built there, in place, once per object (each
        object made its own variables in TF1), and held by the object as any layer its __init__ builds."""
        members = list(cls.body.body)
        inits = [m for m in members if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"]
        others = [m for m in members if not (inits and m is inits[0])]
        if len(inits) != 1 or any(self._mentions_rnn(m) for m in others):
            raise Refused(cls, f"rnn cells built or run in a method of `{cls.name.value}` other than __init__")
        if self.with_saver:
            raise Refused(cls, f"an rnn built in `{cls.name.value}`, where a Saver needs its TF1 names")
        init = inits[0]
        call = self.calls.get(cls.name.value) if self.call_counts.get(cls.name.value, 0) == 1 else None
        saved = (self.widths, dict(self.cells), dict(self.reader.lists), self.batches.enter(init), self.state_names)
        self.widths = init_widths(init, call, self.module_widths, self.ctx.names)
        self.state_names, self.lstm_states, self.in_class = set(), set(), True
        try:
            body = self.block(list(init.body.body), top=False)
            self.check_leftovers(body, [name for name in self.cells if name not in saved[1]])
            escape = lstm_state_escape(body, self.lstm_states)
            if escape is not None:
                raise Refused(escape, f"an LSTM state leaves `{cls.name.value}.__init__`: TF1 gave it as an "
                                       "LSTMStateTuple (`.c`, `.h`, its printed form), the Keras layer as a tuple")
            body = list(rewrite_state_fields(cst.Module(body=body), self.state_names).body)  # (in __init__ only)
        finally:
            self.widths, self.reader.lists, self.cells = saved[0], saved[2], saved[1]
            self.batches.states, self.batches.inputs = saved[3]
            self.state_names, self.in_class = saved[4], False
        new_init = init.with_changes(body=init.body.with_changes(body=body))
        return cls.with_changes(body=cls.body.with_changes(body=[new_init if m is init else m for m in members]))

    def line(self, stmt: cst.SimpleStatementLine) -> List[cst.BaseStatement]:
        small = stmt.body[0] if len(stmt.body) == 1 else None
        self.batches.record_line(stmt)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, value = small.targets[0].target, small.value
            if isinstance(value, cst.Call) and self.ctx.names.call_name(value) in RNN_CALLS:
                return self._rnn(stmt, f"{code(target)} = ", value)
            if isinstance(target, cst.Name) and (self._is_cell(value) or self.reader.is_cell_list(value)):
                if self._is_cell(value):
                    self.cells[target.value] = self._read(value, stmt)
                else:
                    try:
                        self.reader.lists[target.value] = self.reader.cell_list(value)
                    except Unsupported as why:
                        raise Refused(stmt, str(why)) from None
                self.pending_lines.extend(stmt.leading_lines)  # the cell's comments go to the next line
                return []
            zero = self._zero_state(value)
            if zero is not None:
                if any(CELLS[leaf.cell_class][0] == "lstm" for leaf in leaves(self.cells[value.func.value.value])):
                    if not isinstance(target, cst.Name) and self.in_class:
                        raise Refused(stmt, "an LSTM's zero state kept on the object: TF1 gave it as an "
                                             "LSTMStateTuple (`.c`, `.h`, its printed form), the rewrite as a tuple")
                    self.lstm_states |= set(target_keys(target))
                self.batches.record_zero_state(target, argument(value, "batch_size", 0))
                self.widths.record(stmt)
                return [stmt.with_changes(body=[small.with_changes(value=cst.parse_expression(zero))])]
        if isinstance(small, cst.Return) and isinstance(small.value, cst.Call) \
                and self.ctx.names.call_name(small.value) in RNN_CALLS:
            return self._rnn(stmt, "return ", small.value)
        if self._mentions_rnn(stmt):
            raise Refused(stmt, "an rnn cell or call the rule cannot place (not `name = cell` or "
                                 "`outputs, state = tf.nn.dynamic_rnn(...)`)")
        self.widths.record(stmt)
        return [stmt]

    def _mentions_rnn(self, node: cst.CSTNode) -> bool:
        names = self.ctx.names
        found = []

        class _Find(cst.CSTVisitor):
            def visit_Call(inner, call: cst.Call) -> None:
                qualname = names.call_name(call) or ""
                if qualname in RNN_CALLS or self.reader.cell_class(call) is not None:
                    found.append(call)

        visit(node, _Find())
        return bool(found)

    def _is_cell(self, value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and (self.reader.cell_class(value) is not None or (
            isinstance(value.func, cst.Name) and value.func.value in self.reader.factories))

    def _read(self, value: cst.BaseExpression, stmt: cst.CSTNode) -> Cell:
        try:
            return self.reader.read(value)
        except Unsupported as why:
            raise Refused(stmt, str(why)) from None

    def _zero_state(self, value: cst.BaseExpression) -> Optional[str]:
        """``cell.zero_state(batch, dtype)`` as zeros of TF1's state structure."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == _ZERO_STATE and isinstance(value.func.value, cst.Name)
                and value.func.value.value in self.cells and value.args):
            return None
        return zero_state_source(self.cells[value.func.value.value], code(value.args[0].value), self.tf)

    def check_leftovers(self, body: List[cst.BaseStatement], names=None) -> None:
        """Cells used other than by the converted calls and zero_state: their TF1 object is gone."""
        module = cst.Module(body=body)
        used = reads(module)
        for name in (names if names is not None else [*self.cells, *self.reader.lists, *self.reader.factories]):
            if name in used:
                raise Refused(self.rnn_lines[0] if self.rnn_lines else module, f"the cell `{name}` is used "
                               "other than by the rnn call and zero_state")

    # -- one rnn call --------------------------------------------------------------------
    def _rnn(self, stmt: cst.SimpleStatementLine, target: str, call: cst.Call):
        """The statements that replace ``stmt``, whose ``call`` result goes to ``target`` ("x, s = ", "return ")."""
        qualname = self.ctx.names.call_name(call)
        params = RNN_CALLS[qualname]
        bound = bind(call, params)
        if bound is None:
            raise Refused(stmt, f"{qualname} with arguments the rule does not read")
        for param in ("parallel_iterations", "swap_memory"):
            bound.pop(param, None)  # scheduling only: no effect on the values
        dtype = bound.pop("dtype", None)
        if dtype is not None and not code(dtype).endswith("float32"):
            raise Refused(stmt, f"{qualname} in {code(dtype)} (the layers' weights are float32)")
        scope = bound.pop("scope", None)
        if scope is not None and not isinstance(scope, cst.SimpleString):
            raise Refused(stmt, f"{qualname} with a scope that is not a literal string")
        lines: List[str] = []
        self.setup, self.lstm_run = [], False
        if qualname.endswith("bidirectional_dynamic_rnn"):
            result = self._bidirectional(stmt, bound, scope, lines)
        else:
            result = self._one_way(stmt, bound, scope, qualname.endswith("static_rnn"), lines)
        lines.append(f"{target}{result}")
        assigned = stmt.body[0]
        if isinstance(assigned, cst.Assign):  # the names the state goes to: `.c` / `.h` on them become indices
            target_node = assigned.targets[0].target
            state_part = target_node.elements[1].value if isinstance(target_node, cst.Tuple) \
                and len(target_node.elements) == 2 else target_node
            self.state_names |= set(target_keys(state_part))
            if self.lstm_run:
                if self.in_class and isinstance(state_part, (cst.Attribute, cst.Subscript)):
                    raise Refused(stmt, "an LSTM state kept on the object: TF1 gave it as an LSTMStateTuple "
                                         "(`.c`, `.h`, its printed form), the Keras layer as a tuple")
                self.lstm_states |= set(target_keys(state_part))
        self.converted += 1
        self.rnn_lines.append(stmt)
        self.ctx.report(call, RULE_ID, INFO, f"{qualname} -> Keras RNN layers with TF1's gate layout and initial "
                        "values")
        setup = [cst.parse_statement(line + "\n") for line in self.setup]
        new = [cst.parse_statement(line + "\n") for line in lines]
        if self.function is not None:  # the layers are built once, before the function or the call of it
            try:
                anchor, setup = self.placement.place(setup)
            except ValueError as why:
                raise Refused(stmt, str(why)) from None
            (self.hoisted if anchor is None else self.at_anchor.setdefault(id(anchor), [])).extend(setup)
        else:
            new = setup + new
        new[0] = new[0].with_changes(leading_lines=stmt.leading_lines)
        return new
