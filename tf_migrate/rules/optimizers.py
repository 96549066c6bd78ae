"""tf.train optimizers -> Keras optimizers with TF1's hyper-parameters, or TF1's own for TF1's numbers.

(``minimize`` / ``compute_gradients`` / ``apply_gradients`` become a tape step in
:mod:`tf_migrate.codegen.optimizer_steps`, inside the functions session-to-functions builds.)

Keras' defaults differ from TF1's (Adam epsilon 1e-7 vs 1e-8, ``beta1`` ->
``beta_1``, Momentum -> SGD with ``momentum``), so every TF1 value is written
out explicitly. TF1's RMSProp starts its mean-square accumulator at ones and
Keras' at zeros, and Adadelta, Ftrl and the proximal optimizers have no Keras
twin with TF1's update: those stay ``tf.compat.v1.train`` optimizers, which
run eagerly, and a finding says so.

Measured (TF 2.21, float32, CPU): a 5x3 variable stepped 300 times with the same
gradients, TF1's graph and Session against each optimizer stepped in a
``tf.function`` (as the generated run functions are); relative differences are
elementwise maxima after 20 / 300 steps:

=================  ==================================  =====================
TF1 optimizer      Keras twin as written here          tf.compat.v1.train
=================  ==================================  =====================
GradientDescent    bit for bit                         bit for bit
Momentum           off from step 3; 7.6e-06 / 4.0e-04  bit for bit
Momentum nesterov  off from step 2; 1.5e-05 / 3.4e-03  bit for bit
Adam               off from step 3; 3.3e-05 / 1.4e-03  bit for bit
Adagrad            bit for bit                         bit for bit
=================  ==================================  =====================

A whole training (a tanh layer, gradients from the tape, 20 steps) gives the
same picture: Keras' Momentum off from step 2, Adam from step 3, the others and
every compat.v1 optimizer TF1's bit for bit.

Keras' SGD keeps ``m = momentum * m - lr * g`` and adds it, where TF1 keeps
``accum = momentum * accum + g`` and subtracts ``lr * accum``; Keras' Adam computes
``beta ** step`` with ``pow``, where TF1 multiplies float32 beta powers at every
step. One ulp a step is enough for a long training to drift past a 1e-5
tolerance, and the numbers are part of what the program means: so Momentum and
Adam stay ``tf.compat.v1.train`` optimizers, arguments as given, where the program
trains plain variables only. A compat.v1 optimizer cannot update a Keras 3 layer's
variables itself, but each holds a ``tf.Variable`` (``.value``), which the generated
steps hand it (:mod:`tf_migrate.codegen.optimizer_steps`). So where the module may
build Keras variables (tf.layers, rnn cells, tf.keras, or a module it imports:
:mod:`tf_migrate.analysis.variable_owners`) Momentum and Adam still stay TF1's when
the program only steps them (``minimize``, ``compute_gradients``, ``apply_gradients``:
the steps the session rule lowers), which also keeps TF1's fused update kernels: a
Keras Adam step is 211 graph ops where TF1's is 80 (4 variables), 1.5x a small GAN's
step. An optimizer the program hands elsewhere (``model.compile(optimizer=...)``, a
function) becomes the Keras twin, and a warning says the numbers may differ in the
last digits.
(Densified sparse gradients are for Keras optimizers only: a compat.v1 one sums
repeated rows itself, as TF1 did.)
"""
from __future__ import annotations

from functools import cached_property
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.optimizer_choices import optimizer_choice
from tf_migrate.analysis.symbols import symbol_key, target_keys
from tf_migrate.analysis.variable_owners import keras_owned_variables
from tf_migrate.cst.arguments import keyword
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "optimizers"

# TF1 class -> (Keras class, [(TF1 argument, Keras keyword, TF1 default or None)]), in TF1 positional order.
_KERAS_TWINS: Dict[str, Tuple[str, List[Tuple[str, Optional[str], Optional[str]]]]] = {
    "GradientDescentOptimizer": ("SGD", [("learning_rate", "learning_rate", None),
                                         ("use_locking", None, None), ("name", None, None)]),
    "MomentumOptimizer": ("SGD", [("learning_rate", "learning_rate", None), ("momentum", "momentum", None),
                                  ("use_locking", None, None), ("name", None, None),
                                  ("use_nesterov", "nesterov", None)]),
    "AdamOptimizer": ("Adam", [("learning_rate", "learning_rate", "0.001"), ("beta1", "beta_1", "0.9"),
                               ("beta2", "beta_2", "0.999"), ("epsilon", "epsilon", "1e-08"),
                               ("use_locking", None, None), ("name", None, None)]),
    "AdagradOptimizer": ("Adagrad", [("learning_rate", "learning_rate", None),
                                     ("initial_accumulator_value", "initial_accumulator_value", "0.1"),
                                     ("use_locking", None, None), ("name", None, None)]),
}
# Keras keywords whose value TF1 did not have: pinned so the update equals TF1's.
_PINNED = {"Adagrad": [("epsilon", "0.0")]}
# Keras computes ``1 - beta_1`` from the Python float (0.1 in double, then float32) where TF1's
# kernel subtracts float32(0.9) in float32 (0.100000024): the first update already differs by
# 1e-5 relative, and a long training drifts far. As float32 tensors the betas give TF1's numbers.
_FLOAT32_TENSORS = {"Adam": ("beta_1", "beta_2")}
# TF1 optimizers whose Keras twin rounds its update otherwise (module doc): how, in a finding's words.
_ROUNDS_DIFFERENTLY = {
    "MomentumOptimizer": "it keeps m = momentum * m - lr * g and adds it, TF1 keeps accum = momentum * accum + g "
                         "and subtracts lr * accum",
    "AdamOptimizer": "it computes beta ** step with pow, TF1 multiplies float32 beta powers at every step",
}


_STEPS = ("minimize", "compute_gradients", "apply_gradients")


def optimizers_only_stepped(module: cst.Module, choices: Optional[Dict[int, List[cst.Call]]] = None
                            ) -> Dict[int, bool]:
    """For each call bound to a name (``opt = ...``, ``self.opt = ...``) or stepped where it is made
    (``...(lr).minimize(loss)``): whether every other read of it is ``.minimize(...)``,
    ``.compute_gradients(...)`` or ``.apply_gradients(...)`` (by id of the call). The calls of one choice by a
    flag (``choices``: id of a call -> the calls of its choice) bind the name once."""
    choices = choices or {}
    bound: Dict[str, List[int]] = {}  # key -> the calls bound to it
    stepped: Dict[int, bool] = {}
    other_reads: set = set()

    class Uses(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.value, cst.Call):
                key = symbol_key(node.targets[0].target)
                if key is not None:
                    bound.setdefault(key, []).append(id(node.value))

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _STEPS and isinstance(func.value, cst.Call):
                stepped[id(func.value)] = True

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if node.attr.value in _STEPS and symbol_key(node.value) is not None:
                return False  # opt.minimize, self.opt.apply_gradients: a step
            key = symbol_key(node)
            if key is not None:
                other_reads.add(key)
                return False
            return True

        def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
            return symbol_key(node.target) is None  # binding a name reads none

        def visit_Name(self, node: cst.Name) -> None:
            other_reads.add(node.value)  # over-approximates (attribute and keyword names): only safer

    visit(module, Uses())
    for key, calls in bound.items():
        for call in calls:
            one = len(calls) == 1 or all(choices.get(other) is choices.get(calls[0]) is not None for other in calls)
            stepped[call] = key not in other_reads and one
    return stepped


def keras_twin(qualname: str) -> Optional[str]:
    return _KERAS_TWINS.get(qualname.rsplit(".", 1)[-1], (None,))[0] if qualname.startswith("tf.train.") else None


class OptimizersToKeras(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.train.*Optimizer -> tf.keras.optimizers.* with TF1 hyper-parameters explicit "
                   "(Adam epsilon 1e-8, Momentum -> SGD(momentum=...)); Adam and Momentum kept as compat.v1 "
                   "(TF1's rounding) where only plain variables are trained or the program only steps them; "
                   "RMSProp/Adadelta/Ftrl kept as compat.v1")
    ORDER = 20

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _ConstructorRewriter(ctx, module))


def _python_float(rate: cst.BaseExpression, integer_names: Set[str]) -> cst.BaseExpression:
    """A Keras optimizer takes a Python float learning rate (an int raises), where TF1's converted an int: ``1`` ->
    ``1.0``, ``lr`` bound to integer literals only -> ``float(lr)``."""
    if isinstance(rate, cst.Integer):
        return cst.Float(rate.value + ".0") if rate.value.isdigit() else cst.parse_expression(f"float({rate.value})")
    if isinstance(rate, cst.Name) and rate.value in integer_names:
        return cst.parse_expression(f"float({rate.value})")
    return rate


class _ConstructorRewriter(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx, self.module = ctx, module

    @cached_property
    def keras_variables(self) -> Optional[str]:
        """Why the module may train Keras layers' variables (None: plain variables only); asked once."""
        return keras_owned_variables(self.module, self.ctx.names)

    @cached_property
    def steps_only(self) -> Dict[int, bool]:
        """Per optimizer constructor call: whether the program only steps it (``minimize``,
        ``compute_gradients``, ``apply_gradients``, the steps the session rule lowers), so a TF1 optimizer
        can update Keras layers' variables there; asked once."""
        return optimizers_only_stepped(self.module, self.choices)

    def tf1_optimizer(self, call: cst.Call, tf1_class: str) -> cst.Call:
        return call.with_changes(func=cst.parse_expression(f"{self.ctx.tf}.compat.v1.train.{tf1_class}"))

    @cached_property
    def variables(self) -> Set[str]:
        """Names and ``self.`` attributes the module binds to a ``tf.Variable`` / ``tf.get_variable``; asked once."""
        found: Set[str] = set()
        ctx = self.ctx

        class _Bindings(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                if isinstance(node.value, cst.Call) and ctx.names.call_name(node.value) in ("tf.Variable",
                                                                                           "tf.get_variable"):
                    found.update(key for key in (symbol_key(t.target) for t in node.targets) if key)

        visit(self.module, _Bindings())
        return found

    @cached_property
    def integer_names(self) -> Set[str]:
        """Names every binding of which in the module is an integer literal (``lr = 1``; not a parameter, a loop
        target or an augmented assignment anywhere); asked once."""
        literal: Dict[str, Set[bool]] = {}

        def bind(target: cst.BaseExpression, is_literal: bool) -> None:
            for key in target_keys(target):
                literal.setdefault(key, set()).add(is_literal and isinstance(target, cst.Name))

        class _Bindings(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    bind(target.target, isinstance(node.value, cst.Integer))

            def visit_AugAssign(self, node: cst.AugAssign) -> None:
                bind(node.target, False)

            def visit_For(self, node: cst.For) -> None:
                bind(node.target, False)

            def visit_Param(self, node: cst.Param) -> None:
                bind(node.name, False)

        visit(self.module, _Bindings())
        return {key for key, kinds in literal.items() if kinds == {True}}

    @cached_property
    def choices(self) -> Dict[int, List[cst.Call]]:
        """id of each optimizer constructor call of a choice by a flag (``if adam: opt = ...Adam... else: opt =
        ...``, ``analysis/optimizer_choices``) -> every call of that choice; asked once."""
        found: Dict[int, List[cst.Call]] = {}
        ctx = self.ctx

        class _Choices(cst.CSTVisitor):
            def visit_If(self, node: cst.If) -> bool:
                choice = optimizer_choice(node, ctx.names)
                if choice is not None:
                    found.update((id(call), choice[1]) for call in choice[1])
                return choice is None  # an `elif` of a choice is no choice of its own

        visit(self.module, _Choices())
        return found

    def kept_as_tf1(self, call: cst.Call, tf1_class: str) -> Optional[Tuple[str, str]]:
        """(severity, why) where the TF1 optimizer ``call`` makes stays ``tf.compat.v1.train``'s; None where it
        becomes its Keras twin."""
        twin = _KERAS_TWINS.get(tf1_class)
        if twin is None:
            return WARNING, (f"{tf1_class} has no Keras optimizer with TF1's update rule; kept as "
                             f"tf.compat.v1.train.{tf1_class} (runs eagerly)")
        keras_class, rounding = twin[0], _ROUNDS_DIFFERENTLY.get(tf1_class)
        if rounding is not None and self.keras_variables is None:
            return INFO, (f"Keras {keras_class} rounds its update differently ({rounding}): kept as "
                          f"tf.compat.v1.train.{tf1_class} for TF1's numbers")
        if rounding is not None and self.steps_only.get(id(call), False):
            return INFO, (f"Keras {keras_class} rounds its update differently ({rounding}): kept as "
                          f"tf.compat.v1.train.{tf1_class} for TF1's numbers (and its fused update); its "
                          f"steps give it the Keras layers' variables as the tf.Variables they hold")
        return None

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original)
        if qualname is None or not qualname.startswith("tf.train.") or not qualname.endswith("Optimizer"):
            return updated
        tf1_class = qualname.rsplit(".", 1)[-1]
        kept = self.kept_as_tf1(original, tf1_class)
        if kept is None:  # one family for an optimizer chosen by a flag: one step form fits whichever branch ran
            kept = next(((INFO, f"chosen by a flag with `{code(other.func)}`, which stays TF1's: kept as "
                                f"tf.compat.v1.train.{tf1_class}, so one step fits whichever branch runs")
                         for other in self.choices.get(id(original), ()) if other is not original
                         and (self.ctx.names.call_name(other) or "").startswith("tf.train.")
                         and self.kept_as_tf1(other, (self.ctx.names.call_name(other) or "").rsplit(".", 1)[-1])),
                        None)
        if kept is not None:
            self.ctx.report(original, RULE_ID, *kept)
            return self.tf1_optimizer(updated, tf1_class)
        keras_class, params = _KERAS_TWINS[tf1_class]
        rounding = _ROUNDS_DIFFERENTLY.get(tf1_class)
        given: Dict[str, cst.BaseExpression] = {}
        for position, arg in enumerate(updated.args):
            name = arg.keyword.value if arg.keyword is not None else (
                params[position][0] if position < len(params) else None)
            if name is not None:
                given[name] = arg.value
        args = []
        for tf1_name, keras_name, default in params:
            if keras_name is None:
                continue
            value = given.get(tf1_name)
            if value is None and default is not None:
                value = cst.parse_expression(default)
            if keras_name == "learning_rate" and value is not None and symbol_key(value) in self.variables:
                # A Keras optimizer takes a float, a schedule or a callable, not a tf.Variable (`lr =
                # tf.Variable(0.0, trainable=False)`, assigned between epochs): read at each update, as TF1's was.
                value = cst.Lambda(cst.Parameters(), value)
            if keras_name == "learning_rate" and value is not None:
                value = _python_float(value, self.integer_names)
            if value is not None and keras_name in _FLOAT32_TENSORS.get(keras_class, ()) and isinstance(
                    value, (cst.Float, cst.Integer, cst.Name, cst.Attribute)):
                tf = self.ctx.tf
                value = cst.parse_expression(f"{tf}.constant({code(value)}, {tf}.float32)")
            if value is not None:
                args.append(keyword(keras_name, value))
        for keras_name, value in _PINNED.get(keras_class, []):
            args.append(keyword(keras_name, cst.parse_expression(value)))
        if rounding is None:
            self.ctx.report(original, RULE_ID, INFO,
                            f"{tf1_class} -> tf.keras.optimizers.{keras_class} with TF1's values")
        else:
            self.ctx.report(original, RULE_ID, WARNING,
                            f"{tf1_class} -> tf.keras.optimizers.{keras_class} with TF1's values; numbers may differ "
                            f"from TF1's in the last digits, more as training goes on ({rounding}). "
                            f"tf.compat.v1.train.{tf1_class} would keep TF1's; the program may train Keras layers' "
                            f"variables ({self.keras_variables}), which TF2 code trains with Keras optimizers")
        return cst.Call(cst.parse_expression(f"{self.ctx.tf}.keras.optimizers.{keras_class}"), args=args)
