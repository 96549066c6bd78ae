"""Keras layers that TF1 graph code built with ``trainable=False`` keep the file in compat mode, with the reason.

    frozen = tf.keras.layers.Dense(3, trainable=False)
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)    # no var_list

In TF1 graph mode a Keras layer made its variables as trainable ones whatever the layer's ``trainable``: they went
into the ``TRAINABLE_VARIABLES`` collection, so ``minimize()`` without a ``var_list`` trained them and
``tf.trainable_variables()`` listed them (``layer.trainable_weights`` alone left them out). Eager Keras honours
the flag, and the eager rewrite lists ``layer.trainable_variables``: the frozen layer would stop training, and
the program print other numbers (a silent difference, measured). The analysis does not model the collection's
view of such layers, so the file keeps TF1 semantics. Layers the ``layers-to-keras`` rule makes of
``tf.layers.*(trainable=False)`` are not such layers (TF1's ``tf.layers`` kept them out of the collection): this
rule runs before it, on the program's own ``tf.keras`` layers.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.arguments import argument
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "frozen-keras-layers"


class FrozenKerasLayers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.keras layers built with trainable=False in TF1 graph code keep the file in compat mode "
                   "(TF1 still trained their variables)")
    ORDER = 35  # before layers-to-keras, whose Keras layers are not the program's own
    TRIGGERS = ("trainable",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if any(ctx.names.call_name(call) in api.SESSIONS for call in all_calls(module)):  # graph code (Keras' own
            visit(module, _Finder(ctx))  # fit() honoured the flag in TF1 too)
        return module


class _Finder(cst.CSTVisitor):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.ctx.names.call_name(node)
        if not api.is_keras_layer_with_variables(qualname):
            return
        trainable = argument(node, "trainable")
        if trainable is None or (isinstance(trainable, cst.Name) and trainable.value == "True"):
            return
        self.ctx.block(node, f"`{qualname}(trainable=...)` in TF1 graph code: TF1 made its variables trainable "
                             "anyway (minimize() without var_list trained them, tf.trainable_variables() listed "
                             "them); eager Keras honours the flag, so the numbers would differ")
