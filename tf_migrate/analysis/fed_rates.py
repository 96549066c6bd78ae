"""Learning rates fed at each run -> a variable the run functions assign before they step the optimizer.

    lr = tf.placeholder(tf.float32, [])              optimizer_learning_rate = tf.Variable(0.0, trainable=False)
    opt = tf.train.GradientDescentOptimizer(lr)  ->  opt = tf.keras.optimizers.SGD(learning_rate=lambda: ...)
    train = opt.minimize(loss)                       def run_train(x, lr):
    sess.run(train, {x: batch, lr: 0.1 / step})          optimizer_learning_rate.assign(lr)
                                                         ...apply_gradients...

Schedules computed in Python and fed each step are common in TF1 scripts. An eager optimizer is built once, so it
cannot hold a placeholder; Keras and ``tf.compat.v1.train`` optimizers both take a callable learning rate, read at
each step. The optimizer reads a variable through one (``lambda: optimizer_learning_rate``), and each run that
steps it (``minimize``, ``apply_gradients``) first assigns what TF1 computed from the feeds, so the step uses this
run's rate as TF1's did; in a class the variable is the object's (``self.optimizer_learning_rate``). Only the
learning rate may be per-run, and a float32 one: elsewhere the file stays compat with the reason.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.dtypes import expression_dtype, value_dtype
from tf_migrate.analysis.escapes import escaped_reads
from tf_migrate.analysis.symbols import reads, symbol_key
from tf_migrate.cst.arguments import find_argument
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames

_STEPS = ("minimize", "apply_gradients")


def fed_rate(call: cst.Call, st: "pm.Statement", scope: "pm.Scope", names: TFNames, statements: Sequence[cst.CSTNode],
             block: Callable[[cst.CSTNode, str], None]) -> Optional[Tuple[cst.BaseExpression, str]]:
    """For an optimizer built from per-run values: (its learning-rate expression, the variable that will hold it),
    after registering that variable (``scope.fed_rates``) and the callable that reads it (``scope.replacements``);
    or None, after blocking the file with the reason."""
    rate, why = _fed_rate(call, st, scope, names, statements)
    if rate is None:
        block(call, why)
    return rate


def _fed_rate(call, st, scope, names, statements) -> Tuple[Optional[Tuple[cst.BaseExpression, str]], str]:
    why = "the optimizer's hyper-parameters depend on per-run tensors"
    rate = find_argument(call, "learning_rate", 0)
    if rate is None or any(escaped_reads(arg.value, [], scope) for arg in call.args if arg is not rate):
        return None, why
    key = symbol_key(rate.value)  # (``self.lr``: its placeholder's dtype)
    dtype = value_dtype(scope, key, st.index, names) if key is not None else expression_dtype(
        rate.value, scope, st.index, names)
    if dtype != "float32":
        return None, why + " (a learning rate fed per run whose dtype is not known to be float32)"
    key = st.defines[0] if len(st.defines) == 1 else None
    if key is None:
        return None, why
    taken = set(scope.symbols) | {name for node in statements for name in all_names(node)}
    variable = fresh(f"{key.split('.')[-1]}_learning_rate", taken)
    variable = f"self.{variable}" if scope.is_class else variable  # (its methods' runs assign it)
    scope.fed_rates[id(st.node)] = variable
    reader = cst.parse_expression(f"lambda: {variable}")  # the optimizer call, its rate read through the variable
    scope.replacements[id(call)] = call.with_changes(args=[a.with_changes(value=reader) if a is rate else a
                                                           for a in call.args])
    return (rate.value, variable), ""


def step_reads(scope: "pm.Scope", call: cst.Call) -> Set[str]:
    """What a step of an optimizer with a fed learning rate reads for it (``opt.minimize(loss)`` reads ``lr``)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _STEPS):
        return set()
    symbol = scope.symbols.get(symbol_key(call.func.value) or "")
    return set(reads(symbol.rate[0])) if symbol is not None and symbol.rate is not None else set()


def rate_assignment(scope: "pm.Scope", call: cst.Call) -> Optional[str]:
    """``optimizer_learning_rate.assign(lr)``: what a run does before the step ``call`` (None: no fed rate)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _STEPS):
        return None
    symbol = scope.symbols.get(symbol_key(call.func.value) or "")
    if symbol is None or symbol.rate is None:
        return None
    expression, variable = symbol.rate
    return f"{variable}.assign({code(expression)})"


def rate_variable(variable: str, tf: str) -> str:
    """The statement that makes the variable a fed learning rate is read from, before its optimizer."""
    return f"{variable} = {tf}.Variable(0.0, trainable=False)  # the learning rate each run feeds"
