"""A second initializer run of variables with constant initial values -> assignments of those values.

    W = tf.Variable(0.3)                                  W = tf.Variable(0.3)
    b = tf.Variable(-0.3)                                 b = tf.Variable(-0.3)
    init = tf.global_variables_initializer()              init = tf.global_variables_initializer()
    sess.run(init)                                        sess.run(init)
    ...                                          ->       ...
    sess.run([tf.assign(W, -1), tf.assign(b, 1)])         sess.run([tf.assign(W, -1), tf.assign(b, 1)])
    sess.run(init)                                        sess.run([tf.assign(W, 0.3), tf.assign(b, -0.3)])

TensorFlow's own "Getting Started" guide (copied into many tutorials) resets its variables with a second
``sess.run(init)`` before training. TF1 ran the initializers again; eager variables are initialized once, so the
file stayed compat ("variables are initialized again"). Where every variable the initializer covers was made by
``tf.Variable`` from a constant (literals, ``tf.zeros`` / ``tf.ones`` / ``tf.constant`` / ``tf.fill`` of literals and
of names bound once to a number), running it again is assigning those constants again: written so, it is still TF1
code, and the session rule runs the assignments where the run stood.

Only at the module's top level, for ``tf.global_variables_initializer()`` (or ``tf.initialize_all_variables()``),
an op bound to a name or written in the run (``sess.run(tf.initialize_all_variables())``, TF's "Deep MNIST for
Experts" between its two models), run alone in a statement of its own after an earlier initializer run. Every
variable both cover (made before the earlier run and before the op) is a module-level ``name = tf.Variable(...)``
line whose name still holds it at the run; variables made since the earlier run are initialized for the first time
there, as eager variables are where they are made. Random initial values (which TF1 drew again), optimizers with
slots (Adam's moments, which TF1 reset too), step counters, variables made by the module's functions or classes
leave the run as it was.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.cst.statements import plain_assignment
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "constant-reinitialization"
_INITIALIZERS = {"tf.global_variables_initializer", "tf.initialize_all_variables"}
_CONSTANT_MAKERS = {"tf.zeros", "tf.ones", "tf.constant", "tf.fill"}
_SLOTLESS = {"tf.train.GradientDescentOptimizer", "tf.train.Saver"}  # tf.train makers of no variables (and *_decay)
_MAKES_VARIABLES = ("tf.Variable", "tf.get_variable", "tf.layers.", "tf.keras.", "tf.contrib.", "tf.nn.rnn_cell.",
                    "tf.train.", "tf.metrics.", "tf.nn.dynamic_rnn", "tf.nn.static_rnn")


class ConstantReinitialization(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a second sess.run(init) of variables with constant initial values -> sess.run of assignments of "
                   "those values")
    ORDER = 5  # before the session rule reads initializer runs
    TRIGGERS = ("initializ",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        body = list(module.body)
        bound = _bindings(module)
        ops: Dict[str, int] = {}  # initializer op name -> the index of the statement that makes it
        initialized_before: Optional[int] = None  # the variables made before this statement are initialized
        changed = False
        for index, line in enumerate(body):
            made = _initializer_op(line, ctx)
            if made is not None:
                ops[made] = index
                continue
            ran = _run_of(line, ctx)
            if ran is None or (ran and ran not in ops):
                continue
            covers = ops[ran] if ran else index  # a named op covers the variables made before it; an inline one all
            if initialized_before is None:
                initialized_before = covers
                continue
            again = min(covers, initialized_before)  # made before both: initialized before, initialized again here
            initialized_before = max(covers, initialized_before)
            variables = _constant_variables(body[:again], bound, ctx)
            if not variables or any(name in writes(later) for name, _, at in variables for later in body[at + 1:index]):
                continue  # (the names must still hold the variables where the run stands)
            assigns = ", ".join(f"{ctx.tf}.assign({name}, {value})" for name, value, _ in variables)
            call = line.body[0].value
            new_call = call.with_changes(args=[call.args[0].with_changes(value=cst.parse_expression(f"[{assigns}]"))])
            body[index] = line.with_changes(body=[line.body[0].with_changes(value=new_call)])
            ctx.report(call, RULE_ID, INFO, "a second initializer run: its variables' constant initial values "
                                            "assigned again, as TF1's initializers did")
            changed = True
        return module.with_changes(body=body) if changed else module


def _bindings(module: cst.Module) -> dict:
    """How often the module's top level binds each name, and (``"=" + name``) whether its one binding is a number."""
    counts: dict = {}
    for line in module.body:
        for key in writes(line):
            counts[key] = counts.get(key, 0) + 1
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign) \
                and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name) \
                and isinstance(line.body[0].value, (cst.Integer, cst.Float)):
            counts["=" + line.body[0].targets[0].target.value] = 1
    return counts


def _initializer_op(line: cst.BaseStatement, ctx: RuleContext) -> Optional[str]:
    """``init`` for ``init = tf.global_variables_initializer()``."""
    return _bound_call(line, ctx, _INITIALIZERS)


def _bound_call(line: cst.BaseStatement, ctx: RuleContext, qualnames: Set[str]) -> Optional[str]:
    """``name`` for a line that is only ``name = <a call of one of qualnames>``."""
    bound = plain_assignment(line)
    if bound is not None and isinstance(bound[1], cst.Call) and ctx.names.call_name(bound[1]) in qualnames:
        return bound[0]
    return None


def _run_of(line: cst.BaseStatement, ctx: RuleContext) -> Optional[str]:
    """For a line that is only ``<session>.run(init)``: ``init``; ``""`` for ``<session>.run(tf.global_variables_
    initializer())``; None for any other line."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
        return None
    call = line.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "run"
            and len(call.args) == 1 and call.args[0].keyword is None):
        return None
    ran = call.args[0].value
    if isinstance(ran, cst.Name):
        return ran.value
    if isinstance(ran, cst.Call) and ctx.names.call_name(ran) in _INITIALIZERS and not ran.args:
        return ""
    return None


def _constant_variables(before: List[cst.BaseStatement], bound: dict, ctx: RuleContext
                        ) -> Optional[List[Tuple[str, str, int]]]:
    """(name, constant initial value, its statement's index) of every variable made in ``before``, or None where one
    is made otherwise, or where something there may make variables the text does not list: an optimizer with slots,
    a step counter, a function or class of the module (``weight_variable(shape)``), a method of an object."""
    found: List[Tuple[str, str, int]] = []
    functions = {s.name.value for s in before if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    slotless = _slotless_optimizers(before, ctx)
    for index, line in enumerate(before):
        if isinstance(line, (cst.FunctionDef, cst.ClassDef)):
            continue
        calls = all_calls(line)
        if any(_may_make_variables(c, ctx, functions, slotless) for c in calls):
            return None
        if not any(ctx.names.call_name(c) == "tf.Variable" for c in calls):
            continue
        if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1 \
                or not isinstance(line.body[0], cst.Assign) or len(line.body[0].targets) != 1:
            return None
        target, value = line.body[0].targets[0].target, line.body[0].value
        if not (isinstance(target, cst.Name) and isinstance(value, cst.Call)
                and ctx.names.call_name(value) == "tf.Variable" and value.args and value.args[0].keyword is None):
            return None
        initial = value.args[0].value
        if not _constant(initial, bound, ctx):
            return None
        found.append((target.value, code(initial), index))
    return found or None


def _may_make_variables(call: cst.Call, ctx: RuleContext, functions: Set[str], slotless: Set[str]) -> bool:
    """Whether ``call`` may make variables other than by ``tf.Variable``: TF's variable makers (layers, cells,
    ``tf.get_variable``, step counters), an optimizer's ``minimize`` (slots: Adam's moments, Momentum's
    accumulators) but for ``GradientDescentOptimizer``'s, a function or class of the module, an object's
    ``apply`` (a moving average's shadow variables)."""
    qualname = ctx.names.call_name(call)
    if qualname is not None:
        if qualname.startswith("tf.train."):
            return qualname not in _SLOTLESS and not qualname.endswith("_decay")
        return qualname != "tf.Variable" and qualname.startswith(_MAKES_VARIABLES)
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in functions
    if isinstance(func, cst.Attribute) and func.attr.value in ("minimize", "apply_gradients", "apply"):
        receiver = func.value
        return not (isinstance(receiver, cst.Name) and receiver.value in slotless
                    or isinstance(receiver, cst.Call) and ctx.names.call_name(receiver) in _SLOTLESS)
    return False


def _slotless_optimizers(before: List[cst.BaseStatement], ctx: RuleContext) -> Set[str]:
    """Names bound to a ``tf.train.GradientDescentOptimizer(...)``, which makes no variables."""
    return {name for name in (_bound_call(line, ctx, _SLOTLESS) for line in before) if name is not None}


def _constant(expr: cst.BaseExpression, bound: dict, ctx: RuleContext) -> bool:
    """Literals, and ``tf.zeros`` / ``tf.ones`` / ``tf.constant`` / ``tf.fill`` of them or of names bound once, to a
    number (``n_hidden = 10``)."""
    if any(ctx.names.call_name(c) not in _CONSTANT_MAKERS for c in all_calls(expr)):
        return False
    tf = ctx.names.tf_alias or "tf"  # (the module `tf.zeros` reads)
    return all(bound.get(key) == 1 and bound.get("=" + key) for key in reads(expr)
               if key != tf and not key.startswith(tf + "."))
