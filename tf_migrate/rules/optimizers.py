"""tf.train optimizers -> Keras optimizers with TF1's hyper-parameters.

(``minimize`` / ``compute_gradients`` / ``apply_gradients`` become a tape step in
:mod:`tf_migrate.codegen.optimizer_steps`, inside the functions session-to-functions builds.)

Keras' defaults differ from TF1's (Adam epsilon 1e-7 vs 1e-8, ``beta1`` ->
``beta_1``, Momentum -> SGD with ``momentum``), so every TF1 value is written
out explicitly and the training trajectory is the same. TF1's RMSProp starts
its mean-square accumulator at ones and Keras' at zeros, and Adadelta, Ftrl
and the proximal optimizers have no Keras twin with TF1's update: those stay
``tf.compat.v1.train`` optimizers, which run eagerly, and a finding says so.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

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


def keras_twin(qualname: str) -> Optional[str]:
    return _KERAS_TWINS.get(qualname.rsplit(".", 1)[-1], (None,))[0] if qualname.startswith("tf.train.") else None


class OptimizersToKeras(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.train.*Optimizer -> tf.keras.optimizers.* with TF1 hyper-parameters explicit "
                   "(Adam epsilon 1e-8, Momentum -> SGD(momentum=...)); RMSProp/Adadelta/Ftrl kept as compat.v1")
    ORDER = 20

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _ConstructorRewriter(ctx))


class _ConstructorRewriter(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original)
        if qualname is None or not qualname.startswith("tf.train.") or not qualname.endswith("Optimizer"):
            return updated
        tf1_class = qualname.rsplit(".", 1)[-1]
        twin = _KERAS_TWINS.get(tf1_class)
        if twin is None:
            self.ctx.report(original, RULE_ID, WARNING,
                            f"{tf1_class} has no Keras optimizer with TF1's update rule; kept as "
                            f"tf.compat.v1.train.{tf1_class} (runs eagerly)")
            return updated.with_changes(func=cst.parse_expression(f"{self.ctx.tf}.compat.v1.train.{tf1_class}"))
        keras_class, params = twin
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
            if value is not None and keras_name in _FLOAT32_TENSORS.get(keras_class, ()) and isinstance(
                    value, (cst.Float, cst.Integer, cst.Name, cst.Attribute)):
                tf = self.ctx.tf
                value = cst.parse_expression(f"{tf}.constant({code(value)}, {tf}.float32)")
            if value is not None:
                args.append(keyword(keras_name, value))
        for keras_name, value in _PINNED.get(keras_class, []):
            args.append(keyword(keras_name, cst.parse_expression(value)))
        self.ctx.report(original, RULE_ID, INFO, f"{tf1_class} -> tf.keras.optimizers.{keras_class} with TF1's values")
        return cst.Call(cst.parse_expression(f"{self.ctx.tf}.keras.optimizers.{keras_class}"), args=args)
