"""Eager output that still calls a Keras-2 compat API selects legacy Keras, as compat output does.

Eager output keeps ``tf.compat.v1.nn.rnn_cell.*``, ``tf.compat.v1.layers.*`` where no rule converts them
(they run eagerly under Keras 2). On TF >= 2.16 they are routed to Keras 3, which lacks them
(``AttributeError: `BasicRNNCell` is not available with Keras 3``), unless ``TF_USE_LEGACY_KERAS`` is
set before their first use: the same switch compat output gets (:mod:`._legacy_keras`). A helper module
imported by another file needs it too: those APIs are lazy modules that read the switch at their first
use, so the helper's own switch works even when the importing file imported TensorFlow first.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._legacy_keras import select_legacy_keras

RULE_ID = "legacy-keras-eager"


class LegacyKerasForEager(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("eager output that keeps tf.compat.v1 rnn cells, layers or Keras sets TF_USE_LEGACY_KERAS "
                   "before TensorFlow is imported (Keras 3 lacks them)")
    ORDER = 995  # after every rule that could still rename or convert a Keras-2 API
    TRIGGERS = ("rnn_cell", "layers", "keras")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return select_legacy_keras(module, ctx, compat_spelled_only=True, rule=RULE_ID)
