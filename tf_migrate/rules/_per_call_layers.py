"""Layers built in place, where each call or iteration made new ones (``layers-to-keras``).

The layers of a helper every call of which made new ones, built in its body at each call:

    def net(x, scope):                                  def net(x, scope):
        with tf.variable_scope(scope):                      with tf.variable_scope(scope):
            h = tf.layers.dense(x, 16, name="l1")    ->         l1 = tf.keras.layers.Dense(units=16, name="l1")
            ...                                                 h = l1(x)

called twice without reuse (a DQN's eval and target networks): TF1 made new variables at each call. Built where
TF1 built them, each call still makes its own; ``helper-modules`` then makes the helper a ``tf.Module`` holding its
layers, one instance per call. A layer call in a ``for`` loop of the helper (spinningup's ``mlp(x, hidden_sizes)``:
``for h in hidden_sizes[:-1]: x = tf.layers.dense(x, units=h)``) is built in the loop's body, one layer an iteration,
which the module keeps in a list. Only where no layer call sits in a ``while`` loop, a comprehension or a lambda, or
names ``reuse``.

The layers of a module-level ``for`` loop, built in its body at each iteration:

    for units in sizes:                                 for units in sizes:
        h = tf.layers.dense(h, units, tf.nn.relu)  ->       dense = tf.keras.layers.Dense(units=units, ...)
                                                            h = dense(h)

as TF1 made new variables at each iteration; ``split-build-loops`` then makes the layers (and builds them, with the
shapes it carries through the iterations) in a first loop, and calls them in a second, which the run functions hold.
Only loops whose body is one-statement lines (anything else: left alone, reported).
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit


def per_call_layers(hoister, func: cst.FunctionDef, replacer) -> Optional[cst.FunctionDef]:
    """``func`` with each ``tf.layers`` call built in place (``replacer``: layers-to-keras' call replacer, given
    ``hoister``, the names local to the body and the list the constructors go to), or None where a layer call sits
    in a loop or names ``reuse``."""
    calls = hoister.layer_calls(func.body)
    if any(argument(call, "reuse") is not None for call in calls) or "reuse" in code(func) \
            or len(calls) != len(_in_lines(hoister, func.body)):
        return None
    hoister.per_call = True

    class _InPlace(cst.CSTTransformer):
        def leave_IndentedBlock(self, original, updated):
            out: List[cst.BaseStatement] = []
            for child in updated.body:
                out.extend(_built_in_place(hoister, replacer, child) if isinstance(child, cst.SimpleStatementLine)
                           else [child])
            return updated.with_changes(body=out)

        def visit_FunctionDef(self, node) -> bool:
            return node is func

        def visit_With(self, node) -> None:
            hoister.enter_with(node)

        def leave_With(self, original, updated):
            hoister.leave_with()
            return updated

    try:
        return visit(func, _InPlace())
    finally:
        hoister.per_call = False


def per_iteration_layers(hoister, loop: cst.For, replacer) -> Optional[cst.For]:
    """``loop`` with each ``tf.layers`` call of its body built in place, before its line, or None where the body
    is not lines of one statement each or a call is not converted (names ``reuse``, arguments Keras lacks)."""
    body = loop.body
    if loop.orelse is not None or not isinstance(body, cst.IndentedBlock) or not all(
            isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 for line in body.body) \
            or any(argument(call, "reuse") is not None for call in hoister.layer_calls(body)):
        return None
    hoister.per_call = True
    try:
        out = [statement for line in body.body for statement in _built_in_place(hoister, replacer, line)]
    finally:
        hoister.per_call = False
    new = loop.with_changes(body=body.with_changes(body=out))
    return None if hoister.layer_calls(new.body) else new


def _built_in_place(hoister, replacer, line: cst.SimpleStatementLine) -> List[cst.BaseStatement]:
    """``line`` with its layer calls replaced, after the constructors of their layers (which take its comments)."""
    constructors: List[cst.BaseStatement] = []
    line = visit(line, replacer(hoister, set(), constructors))
    if constructors and line.leading_lines:
        constructors[0] = constructors[0].with_changes(leading_lines=line.leading_lines)
        line = line.with_changes(leading_lines=[])
    return [*constructors, line]


def _in_lines(hoister, node) -> List[cst.Call]:
    """The layer calls of ``node`` that no ``while`` loop, lambda or comprehension holds: in lines of the body or
    of ``for`` loops in it (each iteration builds its own, as each made new variables in TF1; ``helper-modules``
    keeps them in a list)."""
    found: List[cst.Call] = []

    class _Find(cst.CSTVisitor):
        def visit_While(self, _) -> bool:
            return False

        visit_Lambda = visit_ListComp = visit_GeneratorExp = visit_SetComp = visit_DictComp = visit_While

        def visit_Call(self, call: cst.Call) -> None:
            found.extend(c for c in hoister.layer_calls(call) if c is call)

    visit(node, _Find())
    return found
