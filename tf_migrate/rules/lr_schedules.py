"""TF1 learning-rate decay and the global step -> Keras schedules read at each step.

    global_step = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(0.1, global_step, 100, 0.96, staircase=True)
    opt = tf.train.AdamOptimizer(lr)
    train = opt.minimize(loss, global_step=global_step)

becomes::

    global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
    lr_schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=100, decay_rate=0.96, staircase=True)
    lr = lr_schedule(global_step)
    opt = tf.keras.optimizers.Adam(learning_rate=lambda: lr_schedule(global_step), ...)

TF1's decay functions are these schedules called on the step (TF's own
``tf.compat.v1.train.exponential_decay`` is ``ExponentialDecay(...)(global_step)``),
so values are the same. ``lr`` stays a per-run value (``sess.run(lr)`` keeps
working); an optimizer gets a zero-argument callable, which it calls at every
update, before the step is incremented, as TF1's graph read it. Keras' SGD
applies momentum to ``lr * grad`` where TF1's MomentumOptimizer applies the
rate after accumulating, which differs once the rate changes. The optimizers
rule keeps TF1's MomentumOptimizer (``tf.compat.v1.train``, runs eagerly) where
the program only steps it (Keras layers' variables reach it as the tf.Variables
they hold); where it makes Keras' SGD (an optimizer the program hands to other
code) a warning says the trajectory differs.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.analysis.symbols import reads
from tf_migrate.analysis.variable_owners import keras_owned_variables
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.cst.statements import plain_assignment
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules import _edits as ed
from tf_migrate.traversal import visit

RULE_ID = "lr-schedules"

# (tf.contrib.framework's are TF1's aliases of the same functions)
_CREATE_STEP = {"tf.train.get_or_create_global_step", "tf.train.create_global_step",
                "tf.contrib.framework.get_or_create_global_step", "tf.contrib.framework.create_global_step"}
_STEP_CALLS = _CREATE_STEP | {"tf.train.get_global_step", "tf.contrib.framework.get_global_step"}
# TF1 function -> (Keras schedule, TF1 parameters, the step parameter, [(TF1 parameter, Keras keyword)]).
_SCHEDULES: Dict[str, Tuple[str, List[str], str, List[Tuple[str, Optional[str]]]]] = {
    "tf.train.exponential_decay": (
        "ExponentialDecay", ["learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"],
        "global_step", [("learning_rate", None), ("decay_steps", "decay_steps"), ("decay_rate", "decay_rate"),
                        ("staircase", "staircase")]),
    "tf.train.natural_exp_decay": (
        "ExponentialDecay", ["learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"],
        "global_step", [("learning_rate", None), ("decay_steps", "decay_steps"), ("decay_rate", "decay_rate"),
                        ("staircase", "staircase")]),
    "tf.train.inverse_time_decay": (
        "InverseTimeDecay", ["learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"],
        "global_step", [("learning_rate", None), ("decay_steps", "decay_steps"), ("decay_rate", "decay_rate"),
                        ("staircase", "staircase")]),
    "tf.train.polynomial_decay": (
        "PolynomialDecay", ["learning_rate", "global_step", "decay_steps", "end_learning_rate", "power", "cycle",
                            "name"],
        "global_step", [("learning_rate", None), ("decay_steps", "decay_steps"),
                        ("end_learning_rate", "end_learning_rate"), ("power", "power"), ("cycle", "cycle")]),
    "tf.train.piecewise_constant": (
        "PiecewiseConstantDecay", ["x", "boundaries", "values", "name"],
        "x", [("boundaries", "boundaries"), ("values", "values")]),
    "tf.train.cosine_decay": (
        "CosineDecay", ["learning_rate", "global_step", "decay_steps", "alpha", "name"],
        "global_step", [("learning_rate", None), ("decay_steps", "decay_steps"), ("alpha", "alpha")]),
    "tf.train.cosine_decay_restarts": (
        "CosineDecayRestarts", ["learning_rate", "global_step", "first_decay_steps", "t_mul", "m_mul", "alpha",
                                "name"],
        "global_step", [("learning_rate", None), ("first_decay_steps", "first_decay_steps"), ("t_mul", "t_mul"),
                        ("m_mul", "m_mul"), ("alpha", "alpha")]),
}
_SCHEDULES["tf.train.piecewise_constant_decay"] = _SCHEDULES["tf.train.piecewise_constant"]
_ATOMIC = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)
_KERAS_SCHEDULES = "tf.keras.optimizers.schedules."
_MOMENTUM = ("momentum with a decaying learning rate: Keras' SGD would not follow TF1's trajectory (it scales "
             "before accumulating); kept as tf.compat.v1.train.MomentumOptimizer (runs eagerly)")
_KERAS_MOMENTUM = ("momentum with a decaying learning rate: Keras' SGD scales each gradient before accumulating it, "
                   "TF1's MomentumOptimizer scales the accumulated gradients by the current rate, so the trajectories "
                   "differ once the rate changes")


class LearningRateSchedules(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.train.*_decay and the global step -> Keras schedules called on a tf.Variable step; "
                   "optimizers get a callable learning rate, read at every update")
    ORDER = 35  # after optimizers: it sees the optimizer each learning rate ends up in
    TRIGGERS = ("global_step", "_decay", "piecewise_constant", "schedules")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        names = ctx.names
        calls = _Calls(names)
        visit(module, calls)
        if calls.steps:
            module = _GlobalStep(module, ctx).run(calls.steps)
            ctx.use_module(module)
        calls = _Calls(names)
        visit(module, calls)
        if calls.decays:
            module = _Schedules(module, ctx).run(calls)
        return module


class _Calls(cst.CSTVisitor):
    """Global-step calls, decay calls and optimizer constructors, each with its statement, in source order."""

    def __init__(self, names) -> None:
        self.names = names
        self.steps: List[Tuple[cst.Call, cst.BaseStatement]] = []
        self.decays: List[Tuple[cst.Call, cst.BaseStatement]] = []
        self.optimizers: List[Tuple[cst.Call, cst.BaseStatement]] = []
        self.assignments: List[cst.SimpleStatementLine] = []
        self._statements: List[cst.BaseStatement] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseStatement):
            self._statements.append(node)
            if plain_assignment(node) is not None:
                self.assignments.append(node)
        if isinstance(node, cst.Call):
            qualname = self.names.call_name(node) or ""
            if qualname in _STEP_CALLS:
                self.steps.append((node, self._statements[-1]))
            elif qualname in _SCHEDULES:
                self.decays.append((node, self._statements[-1]))
            elif api.is_optimizer_constructor(qualname) and not qualname.startswith(_KERAS_SCHEDULES):
                self.optimizers.append((node, self._statements[-1]))
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        if isinstance(original_node, cst.BaseStatement):
            self._statements.pop()


class _GlobalStep:
    """``tf.train.get_or_create_global_step()`` -> a ``tf.Variable``; later look-ups -> its name."""

    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.module, self.ctx = module, ctx
        self.layout = ed.Layout()
        visit(module, self.layout)

    def run(self, steps) -> cst.Module:
        first, first_stmt = steps[0]
        if self.ctx.names.call_name(first) not in _CREATE_STEP:
            self.ctx.report(first, RULE_ID, INFO, "tf.train.get_global_step() before any global step is created "
                                                  "is None in TF1; left to tf.compat.v1")
            return self.module
        home = self.layout.function_of(first_stmt) if id(first_stmt) in self.layout.where else None
        target = plain_assignment(first_stmt)
        name = target[0] if target is not None and target[1] is first else None
        for call, stmt in steps[1:]:
            where = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
            if where is not home and home is not None:
                self.ctx.report(call, RULE_ID, INFO, "the global step is created in another function; "
                                                     "left to tf.compat.v1 (one global step per graph)")
                return self.module
        edits = ed.Edits()
        variable = f'{self.ctx.tf}.Variable(0, trainable=False, dtype={self.ctx.tf}.int64, name="global_step")'
        if name is None:
            name = fresh("global_step", all_names(self.module))
            edits.before[id(first_stmt)] = [ed.statement(f"{name} = {variable}")]
            edits.expressions[id(first)] = cst.Name(name)
        else:
            edits.expressions[id(first)] = cst.parse_expression(variable)
        self.ctx.report(first, RULE_ID, INFO, f"global step -> `{name}`, an int64 tf.Variable (TF1's global step)")
        for call, stmt in steps[1:]:
            same = plain_assignment(stmt)
            if same is not None and same[0] == name and same[1] is call:
                edits.statements[id(stmt)] = []  # global_step = tf.train.get_global_step(): already bound
            else:
                edits.expressions[id(call)] = cst.Name(name)
        return visit(self.module, edits)


class _Schedules:
    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.module, self.ctx, self.tf = module, ctx, ctx.tf
        self.layout = ed.Layout()
        visit(module, self.layout)
        self.taken = all_names(module)
        self.edits = ed.Edits()
        self.inline: Dict[int, str] = {}  # id(decay call) -> code of the schedule called on its step
        self.valued: Dict[Tuple[int, str], str] = {}  # (id(function), name) -> code of its per-step value
        self.scopes: Dict[int, object] = {}

    def run(self, calls: _Calls) -> cst.Module:
        for call, stmt in calls.decays:
            schedule = self._schedule(call)
            if schedule is None:
                self.ctx.report(call, RULE_ID, WARNING, "decay call with arguments this rule does not read: "
                                                        "left as is")
                continue
            constructor, step = schedule
            function = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
            stale = self._per_run_reads(constructor, function)
            if stale:
                self.ctx.report(call, RULE_ID, WARNING, f"the decay's parameters read `{stale}`, a per-run value: "
                                                        "left as is")
                continue
            assigned = plain_assignment(stmt)
            if assigned is not None and assigned[1] is call:
                held = fresh(f"{assigned[0]}_schedule", self.taken)
                self.edits.statements[id(stmt)] = [
                    ed.statement(f"{held} = {constructor}", stmt.leading_lines),
                    ed.statement(f"{assigned[0]} = {held}({step})").with_changes(
                        trailing_whitespace=stmt.trailing_whitespace)]
                self.inline[id(call)] = f"{held}({step})"
            else:  # built once, before the statement that uses it
                named = assigned is not None and not api.is_optimizer_constructor(
                    self.ctx.names.call_name(assigned[1]) or "")
                held = fresh(f"{assigned[0]}_schedule" if named else "lr_schedule", self.taken)
                self.edits.before.setdefault(id(stmt), []).append(ed.statement(f"{held} = {constructor}"))
                self.inline[id(call)] = f"{held}({step})"
                self.edits.expressions[id(call)] = cst.parse_expression(self.inline[id(call)])
            self.ctx.report(call, RULE_ID, INFO, f"{self.ctx.names.call_name(call)} -> "
                                                 f"{constructor.split('(')[0].rsplit('.', 1)[-1]} called on `{step}`")
        self._per_step_values(calls.assignments)
        for call, stmt in calls.optimizers:
            self._optimizer(call, stmt)
        return visit(self.module, self.edits) if self.edits else self.module

    def _schedule(self, call: cst.Call) -> Optional[Tuple[str, str]]:
        """(Keras schedule constructor, step) as code, or None."""
        keras_name, params, step_param, mapping = _SCHEDULES[self.ctx.names.call_name(call)]
        bound = bind(call, params)
        if bound is None or step_param not in bound or any(p not in bound for p, k in mapping if k is None):
            return None
        parts = []
        for tf1, keras in mapping:
            if tf1 not in bound:
                continue
            value = code(bound[tf1])
            if self.ctx.names.call_name(call) == "tf.train.natural_exp_decay" and tf1 == "decay_rate":
                value = f"{self.tf}.exp(-{value if isinstance(bound[tf1], _ATOMIC) else f'({value})'})"
            parts.append(value if keras is None else f"{keras}={value}")
        constructor = f"{self.tf}.keras.optimizers.schedules.{keras_name}({', '.join(parts)})"
        return constructor, code(bound[step_param])

    def _per_step_values(self, assignments) -> None:
        """Names bound to a value that depends on a schedule: their per-step expression, names inlined."""
        for stmt in assignments:
            name, value = plain_assignment(stmt)
            function = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
            expression = self._expression(value, function)
            if expression is not None:
                self.valued[(id(function), name)] = expression

    def _expression(self, node: cst.BaseExpression, function) -> Optional[str]:
        """Code of ``node`` with decay calls and per-step names inlined; None when it has neither."""
        inline, valued = self.inline, self.valued
        used = []

        class _Inline(cst.CSTTransformer):
            def __init__(self) -> None:
                super().__init__()
                self.labels = set()  # ids of names that label, not read: `f(lr=...)`, `opt.lr`

            def visit_Arg(self, node: cst.Arg) -> None:
                if node.keyword is not None:
                    self.labels.add(id(node.keyword))

            def visit_Attribute(self, node: cst.Attribute) -> None:
                self.labels.add(id(node.attr))

            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                if id(original) in inline:
                    used.append(original)
                    return cst.parse_expression(inline[id(original)])
                return updated

            def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
                code = valued.get((id(function), original.value), valued.get((id(None), original.value)))
                if code is None or id(original) in self.labels:
                    return updated
                used.append(original)
                value = cst.parse_expression(code)
                return value if isinstance(value, _ATOMIC) else value.with_changes(
                    lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

        if isinstance(node, cst.Name) and (id(function), node.value) not in valued and (
                id(None), node.value) not in valued:
            return None
        new = visit(node, _Inline())
        return code(new) if used else None

    def _optimizer(self, call: cst.Call, stmt) -> None:
        argument = _learning_rate_arg(call)
        if argument is None:
            return
        function = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
        expression = self._expression(argument.value, function)
        if expression is None:
            return
        stale = self._per_run_reads(expression, function)
        if stale:
            self.ctx.report(call, RULE_ID, WARNING, f"the learning rate reads `{stale}`, a per-run value: "
                                                    "left as is")
            return
        self.edits.expressions[id(argument.value)] = cst.parse_expression(f"lambda: {expression}")
        optimizer = self.ctx.names.call_name(call)
        if optimizer == "tf.train.MomentumOptimizer" and _has_momentum(call):
            self.ctx.report(call, RULE_ID, WARNING, _MOMENTUM)
        elif optimizer == "tf.keras.optimizers.SGD" and _has_momentum(call):
            why = keras_owned_variables(self.module, self.ctx.names)
            self.ctx.report(call, RULE_ID, WARNING, _KERAS_MOMENTUM + (
                "" if why is None else f"; it is Keras' because the program hands the optimizer to other code and "
                                       f"may train Keras layers' variables ({why})"))
        self.ctx.report(call, RULE_ID, INFO, "the optimizer reads its learning rate at every update: "
                                             f"lambda: {expression}")

    def _per_run_reads(self, expression: str, function) -> Optional[str]:
        """A name ``expression`` reads whose value only exists inside a run, if any."""
        if id(function) not in self.scopes:
            body = list(function.body.body) if function is not None else list(self.module.body)
            params = tuple(p.name.value for p in function.params.params) if function is not None else ()
            self.scopes[id(function)] = analyze_scope(body, self.ctx.names, params)
        scope = self.scopes[id(function)]
        return next((key for key in sorted(reads(cst.parse_expression(expression))) if scope.deferred(key)), None)


def _learning_rate_arg(call: cst.Call) -> Optional[cst.Arg]:
    for position, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == "learning_rate") or (
                arg.keyword is None and not arg.star and position == 0):
            return arg
    return None


def _has_momentum(call: cst.Call) -> bool:
    momentum = (bind(call, ["learning_rate", "momentum", "nesterov"]) or {}).get("momentum")
    return momentum is not None and not (isinstance(momentum, (cst.Integer, cst.Float))
                                         and float(momentum.value) == 0.0)
