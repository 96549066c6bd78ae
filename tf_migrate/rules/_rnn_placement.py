"""Where rnn-to-keras builds the layers of an rnn made inside a function: once, where TF1 made its variables once.

    def RNN(x, weights, biases, num_hidden):           simple_rnn = tf.keras.layers.SimpleRNN(units=10, ...)
        cell = tf.nn.rnn_cell.BasicRNNCell(num_hidden)  simple_rnn.build((None, None, input_dim))
        outputs, states = tf.nn.dynamic_rnn(cell, x)    def RNN(x, weights, biases, num_hidden):
        ...                                                 outputs, states = simple_rnn(x) ...

A function called once builds its layers before its ``def``, with each parameter the layers read replaced by
the argument of that call where that is a number or a name bound once before the function. Where the layers read
names the module binds only after the function (a helper defined above the hyper-parameters, as helpers of a
star-imported module are once inlined), they go before the statement of the module's top level that makes the call
(:func:`call_anchor`), the arguments then settled there. Anything else (a function local, a name bound after the
call) refuses, with the reason.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.rules._rnn_statements import call_arguments, calls_in, top_lines
from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.traversal import visit


class SetupPlacement:
    """The places the layers of ``func`` (called once, by ``call``) may be built at."""

    def __init__(self, func: cst.FunctionDef, call: Optional[cst.Call], module: cst.Module) -> None:
        self.func, self.module = func, module
        self.locals = {p.name.value for p in func.params.params} | set(writes(func.body))
        self.settled = settled_arguments(func, call, module)
        self.anchor = call_anchor(module, call)
        self.settled_at_anchor = settled_arguments(func, call, module, self.anchor) if self.anchor else {}

    def place(self, setup: List[cst.BaseStatement]) -> Tuple[Optional[cst.BaseStatement], List[cst.BaseStatement]]:
        """(None, lines): the lines go before the function; (anchor, lines): before that module statement.
        Raises ValueError with the reason where neither place has what the lines read."""
        hoisted = [visit(line, NameSubstitution(self.settled)) for line in setup]
        why = unhoistable(hoisted, self.func, self.locals, self.module)
        if why is None:
            return None, hoisted
        if self.anchor is not None:
            placed = [visit(line, NameSubstitution(self.settled_at_anchor)) for line in setup]
            why = unhoistable(placed, self.func, self.locals, self.module, self.anchor)
            if why is None:
                return self.anchor, placed
        raise ValueError(why)


def settled_arguments(func: cst.FunctionDef, call: Optional[cst.Call], module: cst.Module,
                      anchor: Optional[cst.CSTNode] = None) -> Dict[str, cst.BaseExpression]:
    """Parameters of ``func`` (called once, by ``call``) whose argument is a literal number, or a name the module
    binds once, at its top level, before ``anchor`` (``func`` by default): the value it has wherever the layers
    are built before the anchor. (``RNN(x, W, b, num_hidden_units)`` with ``num_hidden_units = 10`` above it:
    ``num_hidden`` is 10 there.)"""
    rebound = set(writes(func.body))  # a parameter the body binds again has another value where it is read
    given = {name: value for name, value in call_arguments(func, call).items() if name not in rebound}
    before = bound_before(anchor or func, module)
    counts: Dict[str, int] = {}
    for stmt in module.body:
        for key in writes(stmt):
            counts[key] = counts.get(key, 0) + 1
    settled = {}
    for name, value in given.items():
        if isinstance(value, (cst.Integer, cst.Float)) or (
                isinstance(value, cst.Name) and value.value in before and counts.get(value.value) == 1):
            settled[name] = value
    return settled


def bound_before(node: cst.CSTNode, module: cst.Module) -> Set[str]:
    """The names the module's top level binds before its statement ``node``."""
    position = next((i for i, stmt in enumerate(module.body) if stmt is node), 0)
    return {key for stmt in module.body[:position] for key in writes(stmt)}


def call_anchor(module: cst.Module, call: Optional[cst.Call]) -> Optional[cst.BaseStatement]:
    """The statement of the module's top level that holds ``call`` (a line, or a ``with`` block around it), where
    the call is made once as the module runs; None where the call is elsewhere (a function, a loop, a branch)."""
    if call is None:
        return None
    for stmt in module.body:
        if isinstance(stmt, (cst.SimpleStatementLine, cst.With)) and any(
                _holds(line, call) for line in top_lines([stmt])):
            return stmt
    return None


def _holds(node: cst.CSTNode, call: cst.Call) -> bool:
    return any(found is call for found in calls_in(node))


def unhoistable(setup: List[cst.BaseStatement], func: cst.FunctionDef, function_locals: Set[str],
                module: cst.Module, anchor: Optional[cst.CSTNode] = None) -> Optional[str]:
    """Why the layers' ``setup`` cannot run before ``anchor`` (``func`` by default; None: it can): it reads the
    function's locals, or module names bound only after the anchor."""
    used = reads(cst.Module(body=setup))
    late = used & ({key for stmt in module.body for key in writes(stmt)} - bound_before(anchor or func, module))
    if late:
        where = f"`{func.name.value}`" if anchor is None else f"the call of `{func.name.value}`"
        return (f"rnn layers configured from {', '.join(sorted(late))}, bound after {where}: they "
                "cannot be built before it")
    local = used & function_locals
    if local:
        return (f"rnn layers configured from values local to `{func.name.value}` ({', '.join(sorted(local))}): "
                "they cannot be built once before it")
    return None
