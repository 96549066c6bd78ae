"""Optimizers chosen by a flag: one optimizer, whichever branch made it.

    if FLAGS.optimizer == "adam":
        opt = tf.train.AdamOptimizer(lr)
    elif FLAGS.optimizer == "sgd":
        opt = tf.train.GradientDescentOptimizer(lr)
    else:
        raise ValueError(FLAGS.optimizer)
    train = opt.minimize(loss)

Each branch of such an ``if`` (an ``else`` included) binds the same name to an optimizer made there, or raises:
whichever runs, the name holds one optimizer, made once at build time, as a plain ``opt = ...`` line would. The
scope knows it as that optimizer (:func:`classify_optimizer_choice`): kept where it is, its steps become tape
steps. The optimizers rule gives every branch one family (Keras, or ``tf.compat.v1.train`` where any branch keeps
TF1's), so one step form fits whichever branch ran; a choice whose branches still differ, or whose learning rate
runs feed, stays compat with the reason. Any other compound statement that makes an optimizer blocks
(``variable_places.check_optimizer_places``).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api, program as pm
from tf_migrate.analysis.escapes import escaped_reads
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.tfnames import TFNames


def optimizer_choice(node: cst.CSTNode, names: TFNames) -> Optional[Tuple[str, List[cst.Call]]]:
    """(the name, the optimizer constructor call of each branch that binds it) where ``node`` is an ``if`` whose
    every branch, an ``else`` included, is one line binding that name to an optimizer made there, or raises (at
    least two branches bind it); else None."""
    if not isinstance(node, cst.If):
        return None
    branches: List[cst.BaseSuite] = []
    current: Optional[cst.CSTNode] = node
    while isinstance(current, cst.If):
        branches.append(current.body)
        current = current.orelse
    if not isinstance(current, cst.Else):
        return None  # no else: where no branch ran, the name keeps what it held before
    branches.append(current.body)
    key, calls = None, []
    for branch in branches:
        lines = branch.body if isinstance(branch, cst.IndentedBlock) else [cst.SimpleStatementLine(branch.body)]
        if len(lines) != 1:
            return None
        if _raises(lines[0]):
            continue
        target, value = single(lines[0])
        bound = symbol_key(target) if target is not None else None
        if bound is None or not isinstance(value, cst.Call) or not api.is_optimizer_constructor(
                names.call_name(value) or ""):
            return None
        if key not in (None, bound):
            return None
        key = bound
        calls.append(value)
    return (key, calls) if key is not None and len(calls) > 1 else None


def classify_optimizer_choice(c, st: "pm.Statement") -> bool:
    """Know ``st`` as the optimizer its branches choose (True), or leave it to the other checks (False)."""
    choice = optimizer_choice(st.node, c.names)
    if choice is None:
        return False
    key, calls = choice
    st.role = pm.KEEP
    keras = {api.is_keras_optimizer(c.names.call_name(call) or "") for call in calls}
    # The step's form depends on the optimizer's family; the constructor each consumer asks about (linear in the
    # gradient, slot-free) is not one call: `call` stays None, which they read as "any optimizer".
    c.define(st, pm.OPTIMIZER, None, keras=keras == {True}, choices=tuple(calls))
    if len(keras) > 1:
        c.block(st.node, f"`{key}` is a Keras optimizer in some branches and a TF1 one in others: their steps "
                         "differ")
    for call in calls:
        if escaped_reads(call, [], c.scope):
            c.block(call, f"`{key}`, an optimizer chosen by a branch, is given a learning rate the runs feed")
            break
    return True


def _raises(line: cst.CSTNode) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Raise)
