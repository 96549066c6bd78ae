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

Only at the module's top level, for an initializer op made by ``tf.global_variables_initializer()`` (or
``tf.initialize_all_variables()``), run alone in a statement of its own, after a first run of it; every variable
made before the op is a module-level ``name = tf.Variable(...)`` line whose name still holds it at the run. Random
initial values (which TF1 drew again) or other variables leave the run as it was.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "constant-reinitialization"
_INITIALIZERS = {"tf.global_variables_initializer", "tf.initialize_all_variables"}
_CONSTANT_MAKERS = {"tf.zeros", "tf.ones", "tf.constant", "tf.fill"}
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
        ops = {}  # initializer op name -> (its statement index, [(variable, initial value)] or None)
        first_run: Set[str] = set()
        changed = False
        for index, line in enumerate(body):
            made = _initializer_op(line, ctx)
            if made is not None:
                ops[made] = (index, _constant_variables(body[:index], bound, ctx))
                continue
            ran = _run_of(line)
            if ran is None or ran not in ops:
                continue
            if ran not in first_run:
                first_run.add(ran)
                continue
            variables = ops[ran][1]
            rebound = {key for line in body[ops[ran][0]:index] for key in writes(line)}
            if not variables or any(name in rebound for name, _ in variables):
                continue  # (the names must still hold the variables where the run stands)
            assigns = ", ".join(f"{ctx.tf}.assign({name}, {value})" for name, value in variables)
            call = line.body[0].value
            new_call = call.with_changes(args=[call.args[0].with_changes(value=cst.parse_expression(f"[{assigns}]"))])
            body[index] = line.with_changes(body=[line.body[0].with_changes(value=new_call)])
            ctx.report(call, RULE_ID, INFO, f"a second run of `{ran}`: its variables' constant initial values "
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
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign) \
            and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name) \
            and isinstance(line.body[0].value, cst.Call) and ctx.names.call_name(line.body[0].value) in _INITIALIZERS:
        return line.body[0].targets[0].target.value
    return None


def _run_of(line: cst.BaseStatement) -> Optional[str]:
    """``init`` for a line that is only ``<session>.run(init)``."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
        return None
    call = line.body[0].value
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "run" \
            and len(call.args) == 1 and call.args[0].keyword is None and isinstance(call.args[0].value, cst.Name):
        return call.args[0].value.value
    return None


def _constant_variables(before: List[cst.BaseStatement], bound: dict, ctx: RuleContext
                        ) -> Optional[List[Tuple[str, str]]]:
    """(name, constant initial value) of every variable made before the op, or None where one is made otherwise."""
    found: List[Tuple[str, str]] = []
    for line in before:
        calls = [c for c in all_calls(line) if (ctx.names.call_name(c) or "").startswith(_MAKES_VARIABLES)]
        makes = [c for c in calls if ctx.names.call_name(c) in ("tf.Variable", "tf.get_variable")
                 or not (ctx.names.call_name(c) or "").startswith("tf.train.")]
        if not makes:
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
        found.append((target.value, code(initial)))
    return found or None


def _constant(expr: cst.BaseExpression, bound: dict, ctx: RuleContext) -> bool:
    """Literals, and ``tf.zeros`` / ``tf.ones`` / ``tf.constant`` / ``tf.fill`` of them or of names bound once, to a
    number (``n_hidden = 10``)."""
    if any(ctx.names.call_name(c) not in _CONSTANT_MAKERS for c in all_calls(expr)):
        return False
    return all(bound.get(key) == 1 and bound.get("=" + key) for key in reads(expr) if not key.startswith("tf."))
