"""TF1 rnn cells stepped by hand -> Keras rnn cells with TF1's math and initial values.

    cell = tf.nn.rnn_cell.BasicLSTMCell(n_hidden, forget_bias=1.0)
    state = cell.zero_state(n_batch, tf.float32)
    for t in range(maxlen):
        (output, state) = cell(x[:, t, :], state)
becomes
    cell = tf.keras.layers.LSTMCell(units=n_hidden, unit_forget_bias=False,
                                    **tf1_cell_initializers("lstm", lambda input_size: [<TF1's draws>], 1.0))
    state = (tf.zeros([n_batch, n_hidden]), tf.zeros([n_batch, n_hidden]))
    for t in range(maxlen):
        (output, state) = tf1_lstm_step(cell, x[:, t, :], state)

The loop of a sequence model written out (``cell(inputs, state)`` per time step, the cell's variables
made on its first call and reused after): the cell becomes the Keras cell of the same math
(``SimpleRNNCell``, ``GRUCell(reset_after=False)``, ``LSTMCell`` with TF1's forget bias folded into
its bias), built on its first call as TF1's was, with TF1's initial values drawn in TF1's layout and
mapped into Keras' (``tf1_cell_initializers``; the mapping is rnn-to-keras', ``keras_rnn_weights``).
A TF1 LSTM state is ``(c, h)``, Keras' ``[h, c]``: each LSTM step goes through ``tf1_lstm_step``, and
``state.c`` / ``.h`` become ``[0]`` / ``[1]``. A simple or GRU cell takes and returns its state tensor
as TF1's did, so its steps stay as written.

A cell is converted when it is bound once, at the top of the module or of a function called at most
once, and is only ever stepped (``cell(inputs, state)``, not in a lambda) or asked for ``zero_state``, in
a file with no graph loop (``tf.while_loop``, ``tf.scan``, ``map_fn``...: a Keras cell first called in
one's body would build its weights there). Cells run by
``dynamic_rnn`` and friends are rnn-to-keras'; a cell used otherwise, reused by scope (``reuse=``), or
in a file with a ``tf.train.Saver`` (which names the variables by TF1's scopes) is left to it, which
keeps the file compat with the reason.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import target_keys, writes
from tf_migrate.codegen.rnn_weights import KERAS_CELLS, LSTM_STEP, keras_cell
from tf_migrate.cst.text import code, module_code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._hoisting import call_counts
from tf_migrate.rules._rnn_cells import CellReader, Leaf, Unsupported, zero_state_source
from tf_migrate.rules._rnn_statements import rewrite_state_fields, top_lines, with_cell_helpers
from tf_migrate.traversal import visit

RULE_ID = "rnn-cell-steps"
_GRAPH_LOOPS = ("while_loop", "tf.scan", "map_fn", "raw_rnn", "foldl", "foldr")


class RNNCellSteps(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.nn.rnn_cell cells stepped by hand (`cell(x_t, state)` in a loop) -> Keras rnn cells with TF1's "
                   "math and initial values")
    ORDER = 3  # with rnn-to-keras, before it: the cells it would refuse as "used other than by the rnn call"
    TRIGGERS = ("rnn",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if "Saver" in module_code(module) or any(loop in module_code(module) for loop in _GRAPH_LOOPS):
            return module  # a Keras cell first called in a graph loop's body would build its weights there
        counts = call_counts(module)
        stepped: Dict[int, _Stepped] = {}  # id(cell statement) -> the cell
        scopes: List[cst.CSTNode] = [module] + [f for f in module.body if isinstance(f, cst.FunctionDef)
                                                 and counts.get(f.name.value, 0) <= 1]
        for scope in scopes:
            body = scope.body if isinstance(scope, cst.Module) else scope.body.body
            for found in _stepped_cells(body, scope, ctx):
                stepped[id(found.statement)] = found
        if not stepped:
            return module
        cells = {found.name: found for found in stepped.values()}
        module = visit(module, _Rewrite(ctx, stepped))
        lstm_states: Set[str] = set()
        for found in cells.values():
            lstm_states |= found.lstm_states
            ctx.report(found.statement, RULE_ID, INFO, f"`{found.name}`: a {found.leaf.cell_class} stepped by hand -> "
                       f"Keras' {KERAS_CELLS[found.leaf.kind]} with TF1's gate layout and initial values")
        module = rewrite_state_fields(module, lstm_states) if lstm_states else module
        lstm = any(found.leaf.kind == "lstm" for found in cells.values())
        return with_cell_helpers(module, ctx.tf, lstm)  # rnn-checkpoints adds keras_rnn_weights


class _Stepped:
    def __init__(self, name: str, statement: cst.SimpleStatementLine, leaf: Leaf, scope: cst.CSTNode) -> None:
        self.name, self.statement, self.leaf, self.scope = name, statement, leaf, scope
        self.lstm_states: Set[str] = set()


def _stepped_cells(body, scope: cst.CSTNode, ctx: RuleContext) -> List[_Stepped]:
    reader = CellReader(ctx.names, lambda name: None, lambda node: None)
    found = []
    for stmt in top_lines(body):
        small = stmt.body[0] if len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target,
                                                                                         cst.Name)):
            continue
        value = small.value
        if not (isinstance(value, cst.Call) and reader.cell_class(value) is not None):
            continue
        if any(arg.keyword is not None and arg.keyword.value == "reuse" and code(arg.value) not in ("None", "False")
               for arg in value.args):
            continue  # shares variables with another cell by scope
        try:
            leaf = reader.read(value)
        except Unsupported:
            continue
        if not isinstance(leaf, Leaf):
            continue
        name = small.targets[0].target.value
        uses = _Uses(name, small.targets[0].target)
        scope_node = scope if isinstance(scope, cst.Module) else scope.body
        visit(scope_node, uses)
        if uses.other or not uses.steps or uses.bindings != 1:
            continue
        found.append(_Stepped(name, stmt, leaf, scope))
    return found


class _Uses(cst.CSTVisitor):
    """How a cell name is used in its scope: steps ``name(a, b)``, ``name.zero_state(...)``, anything else."""

    def __init__(self, name: str, target: cst.Name) -> None:
        self.name, self.target = name, target
        self.steps = 0
        self.lambdas = 0  # steps inside a lambda (a loop body handed to TF) are not converted
        self.bindings = 0
        self.other = False
        self._accounted: Set[int] = {id(target)}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
        if self.name in {p.name.value for p in node.params.params}:
            self.other = True
        return True

    def visit_Assign(self, node: cst.Assign) -> None:
        self.bindings += self.name in writes(node)

    def visit_For(self, node: cst.For) -> None:
        self.other = self.other or self.name in target_keys(node.target)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.lambdas += 1

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.lambdas -= 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and func.value == self.name:
            if len(node.args) == 2 and not self.lambdas and all(a.keyword is None and not a.star for a in node.args):
                self.steps += 1
                self._accounted.add(id(func))
        elif isinstance(func, cst.Attribute) and func.attr.value == "zero_state" \
                and isinstance(func.value, cst.Name) and func.value.value == self.name and node.args:
            self._accounted.add(id(func.value))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self._accounted:
            self.other = True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._accounted.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._accounted.add(id(node.keyword))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.other = self.other or self.name in target_keys(node.target)


class _Rewrite(cst.CSTTransformer):
    """The cells' statements, steps and zero states, in the scopes they were found in."""

    def __init__(self, ctx: RuleContext, stepped: Dict[int, _Stepped]) -> None:
        self.ctx, self.stepped = ctx, stepped
        self.by_scope: Dict[int, Dict[str, _Stepped]] = {}
        for found in stepped.values():
            self.by_scope.setdefault(id(found.scope), {})[found.name] = found
        self.active: List[Dict[str, _Stepped]] = []

    def visit_Module(self, node: cst.Module) -> None:
        self.active.append(self.by_scope.get(id(node), {}))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        inner = self.by_scope.get(id(node))
        self.active.append({**self.active[-1], **inner} if inner else dict(self.active[-1]))

    def leave_FunctionDef(self, original, updated):
        self.active.pop()
        return updated

    def _cell(self, name: str) -> Optional[_Stepped]:
        return self.active[-1].get(name) if self.active else None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        found = self.stepped.get(id(original))
        if found is None:
            return self._lstm_step_targets(updated)
        leaf, tf = found.leaf, self.ctx.tf
        forget_bias = leaf.forget_bias if leaf.kind == "lstm" else "0.0"
        value = cst.parse_expression(keras_cell(leaf.kind, leaf.units, leaf.activation, tf, leaf.kernel_init,
                                                leaf.bias_init, forget_bias))
        return updated.with_changes(body=[updated.body[0].with_changes(value=value)])

    def _lstm_step_targets(self, stmt: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """``(output, state) = cell(x, state)`` of an LSTM: ``state`` holds TF1's ``(c, h)``."""
        small = stmt.body[0] if len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) \
                and isinstance(small.value.func, cst.Name) and small.value.func.value == LSTM_STEP:
            found = self._cell(code(small.value.args[0].value))
            target = small.targets[0].target
            if found is not None and isinstance(target, cst.Tuple) and len(target.elements) == 2:
                found.lstm_states |= set(target_keys(target.elements[1].value))
            elif found is not None:
                found.lstm_states |= set(target_keys(target))
        return stmt

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Name):
            found = self._cell(func.value)
            if found is not None and found.leaf.kind == "lstm" and len(original.args) == 2:
                return cst.Call(cst.Name(LSTM_STEP), args=[cst.Arg(cst.Name(func.value)), *[
                    arg.with_changes(comma=cst.MaybeSentinel.DEFAULT) for arg in updated.args]])
            return updated
        if isinstance(func, cst.Attribute) and func.attr.value == "zero_state" and isinstance(func.value, cst.Name):
            found = self._cell(func.value.value)
            if found is not None:
                return cst.parse_expression(zero_state_source(found.leaf, code(updated.args[0].value), self.ctx.tf))
        return updated
