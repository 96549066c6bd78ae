"""``op = ema.apply(var_list)``: the shadow variables are made at build time, the update runs per run.

TF1's ``ExponentialMovingAverage.apply`` did two things where the graph was built: it made a shadow
variable for each variable (starting at the variable's initial value) and returned the op that
moves the shadows toward the variables, run by each ``sess.run`` that fetched it (often through
``tf.control_dependencies([train_step, op])`` or ``tf.group``)::

    ema = tf.train.ExponentialMovingAverage(0.99, global_step)
    ema_op = ema.apply(tf.trainable_variables())

becomes::

    ema = tf.train.ExponentialMovingAverage(0.99, global_step)
    ema.apply(tf.trainable_variables())  # makes the shadow variables
    ema_op = ema.apply(tf.trainable_variables())

The session rule then leaves the first line at build time (the shadows exist before any run, as
``ema.average(w)`` needs; its update changes nothing there, each shadow equals its variable) and moves
the second into the run functions that run ``ema_op``, where TF2's ``apply`` updates the shadows it
already has. Inside ``with tf.control_dependencies(...)`` the build-time line goes before the block.
Only an apply in the function (or module) body that made the average gets the line: an apply in a
nested function (a batch norm's ``tf.cond`` branch) runs where that function runs.
The analysis (``analysis/built_objects.py``) decides which applies convert: averages of variables
it knows; averages of tensors block.

TF1 ran the ops of one ``tf.group`` / ``control_dependencies`` list in no fixed order; the run
functions run them in the program's order. Where the average is applied before the training step
in the program, that is one of TF1's orders (the shadows move toward the variables before the step
changes them, with the step count before its increment); where it is applied after, and the
average reads the step count, neither of TF1's orders: the file stays compat with the reason.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.built_objects import MOVING_AVERAGE
from tf_migrate.analysis.flatten import control_dependencies
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "moving-averages"
_STEP_METHODS = ("minimize", "apply_gradients")


class MovingAveragesShadowsAtBuild(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "ExponentialMovingAverage.apply: shadow variables made at build time, updates run per run"
    ORDER = 445  # after the TF1 idioms are rewritten, before rebound-names and the session rule
    TRIGGERS = ("ExponentialMovingAverage",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        averages = _Averages(ctx)
        visit(module, averages)
        if not averages.names:
            return module
        return visit(module, _ShadowsFirst(ctx))


class _Averages(cst.CSTVisitor):
    """Names bound to a moving average; blocks an apply TF1 ran in no fixed order with a step (module docstring)."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.names: Set[str] = set()
        self.counted: Set[str] = set()  # averages that read a step count (``num_updates``)
        self.steps: List[str] = []  # names bound to an optimizer step, in program order so far
        self.dependencies: List[Set[str]] = []  # what each enclosing ``with`` block makes the code wait for

    def visit_With(self, node: cst.With) -> None:
        self.dependencies.append(_control_dependencies(node, self.ctx))

    def leave_With(self, original: cst.With) -> None:
        self.dependencies.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if not isinstance(value, cst.Call):
            return
        keys = [k for t in node.targets if (k := symbol_key(t.target))]
        if self.ctx.names.call_name(value) == MOVING_AVERAGE and len(keys) == 1:
            self.names.add(keys[0])
            if len([a for a in value.args if a.keyword is None]) > 1 or argument(value, "num_updates") is not None:
                self.counted.add(keys[0])
        elif isinstance(value.func, cst.Attribute) and value.func.attr.value in _STEP_METHODS:
            self.steps.extend(keys)
        elif isinstance(value.func, cst.Attribute) and value.func.attr.value == "apply":
            owner = symbol_key(value.func.value)
            waits_for = set().union(*self.dependencies)
            if owner in self.counted and self.steps and not waits_for & set(self.steps):
                self.ctx.block(value, f"`{owner}` reads the step count and is applied after the training step "
                                      f"`{self.steps[0]}` without a control dependency on it: TF1 ran the two in no "
                                      "fixed order, both reading the count before its increment")


class _ShadowsFirst(cst.CSTTransformer):
    """Puts the build-time apply before each apply of an average made in the same function (or module) body:
    an apply in a nested function (a ``tf.cond`` branch of a batch norm) runs where that function runs."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.with_bodies: Set[int] = set()  # a `with` block's applies get their line before the `with`
        self.made_here: List[Set[str]] = [set()]  # per function body: the averages made in it so far
        self.variables_here: List[Set[str]] = [set()]  # per function body: names bound to variables (or lists)

    def visit_With(self, node: cst.With) -> None:
        if _waits(node, self.ctx):
            self.with_bodies.add(id(node.body))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.made_here.append(set())
        self.variables_here.append(set())

    def leave_FunctionDef(self, original, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.made_here.pop()
        self.variables_here.pop()
        return updated

    def visit_Assign(self, node: cst.Assign) -> None:
        keys = [k for t in node.targets if (k := symbol_key(t.target))]
        if isinstance(node.value, cst.Call) and self.ctx.names.call_name(node.value) == MOVING_AVERAGE:
            self.made_here[-1].update(keys)
        elif self._variables(node.value):
            self.variables_here[-1].update(keys)

    def _variables(self, expr) -> bool:
        """Whether ``expr`` is variables: made by ``tf.Variable`` / ``tf.get_variable``, listed by
        ``tf.trainable_variables()`` and the like, or names this body bound to those (a list of them too).
        An average of anything else (batch statistics) gets no build-time line; the analysis blocks it."""
        if isinstance(expr, cst.Call):
            return self.ctx.names.call_name(expr) in api.VARIABLE_CONSTRUCTORS | api.VARIABLE_COLLECTIONS
        if isinstance(expr, (cst.List, cst.Tuple)):
            return bool(expr.elements) and all(self._variables(e.value) for e in expr.elements)
        return symbol_key(expr) in self.variables_here[-1]

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if id(original) in self.with_bodies:
            return updated
        return updated.with_changes(body=self._body(updated.body))

    def leave_Module(self, original, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self._body(updated.body))

    def _body(self, body) -> list:
        out = []
        for statement in body:
            applies = [apply for apply in _applies_in(statement, self.made_here[-1], self.ctx)
                       if self._variables(apply.args[0].value)]
            for number, apply in enumerate(applies):
                owner = code(apply.func.value)
                bare = cst.parse_statement(f"{owner}.apply({code(apply.args[0].value)})\n")
                self.ctx.report(statement, RULE_ID, INFO, f"`{owner}` makes its shadow variables here, at build "
                                                          "time; the runs that run its apply op update them")
                out.append(bare.with_changes(leading_lines=() if number else statement.leading_lines))
            if applies:
                statement = statement.with_changes(leading_lines=())
            out.append(statement)
        return out


def _applies_in(statement, names: Set[str], ctx: RuleContext) -> List[cst.Call]:
    """The ``ema.apply(var_list)`` calls ``statement`` binds, or its ``with tf.control_dependencies`` blocks bind."""
    if isinstance(statement, cst.With) and _waits(statement, ctx):
        return [apply for inner in statement.body.body for apply in _applies_in(inner, names, ctx)]
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign)):
        return []
    call = statement.body[0].value
    if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply"
            and symbol_key(call.func.value) in names and len(call.args) == 1 and call.args[0].keyword is None):
        return [call]
    return []


def _control_dependencies(statement: cst.With, ctx: RuleContext) -> Set[str]:
    """Names a ``with tf.control_dependencies([...])`` statement makes its block wait for."""
    return set().union(*(control_dependencies(item, ctx.names) for item in statement.items))


def _waits(statement: cst.With, ctx: RuleContext) -> bool:
    """Whether ``statement`` is a ``with tf.control_dependencies(...)`` block."""
    return any(isinstance(item.item, cst.Call) and ctx.names.call_name(item.item) == "tf.control_dependencies"
               for item in statement.items)
