"""tf.layers classes -> the Keras layer classes they were built on: ``tf.layers.Dense(units=1)`` ->
``tf.keras.layers.Dense(units=1)``.

TF1's ``tf.layers.Dense``, ``Conv2D``, ``MaxPooling2D``, ``Dropout``, ``Flatten``... are Keras layers with TF1
variable naming: an object made once, whose first call makes its variables (``glorot_uniform`` kernels, zero
biases: Keras' defaults too), called as ``layer(x)`` (``training=`` for dropout, ``False`` by default in both).
Their constructors take Keras' arguments in Keras' order, so the object becomes the Keras layer, and the program
model sees a Keras layer it knows. Left as it was (TF2 has no ``tf.layers``), the file stayed in compat mode.

Not converted: ``reuse`` or other TF1-only arguments, an ``*_initializer=None`` (TF1's "the scope's default"),
``BatchNormalization`` (its update ops and ``training`` flag are layers-to-keras' and batch-norm rules' to
handle), and a class named but not called (``class L(tf.layers.Dense)``: symbol-renames keeps it under
``tf.compat.v1``). Programs that read variable names keep compat mode (``tf1-variable-names``: TF1 named these
variables ``dense/kernel``).
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "layer-classes"
CLASSES = {"Dense", "Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "MaxPooling1D",
           "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "Dropout",
           "Flatten"}
_TF1_ONLY_KEYWORDS = {"reuse", "_reuse", "_scope"}


class LayerClasses(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.layers.Dense(...) and the other tf.layers classes -> the tf.keras.layers class"
    ORDER = 40  # after tf1-variable-names (5) and frozen-keras-layers (35), before layers-to-keras
    TRIGGERS = ("layers",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Classes(ctx))


class _Classes(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original) or ""
        layer = qualname[len("tf.layers."):] if qualname.startswith("tf.layers.") else ""
        if layer not in CLASSES or not _keras_arguments(updated):
            return updated
        self.ctx.report(original, RULE_ID, INFO, f"tf.layers.{layer} -> tf.keras.layers.{layer}")
        return updated.with_changes(func=cst.parse_expression(f"{self.ctx.tf}.keras.layers.{layer}"))


def _keras_arguments(call: cst.Call) -> bool:
    """Whether Keras reads the call's arguments as TF1 did: no TF1-only keyword, no ``*_initializer=None``."""
    for arg in call.args:
        if arg.star:
            return False
        name = arg.keyword.value if arg.keyword is not None else ""
        if name in _TF1_ONLY_KEYWORDS:
            return False
        if name.endswith("_initializer") and isinstance(arg.value, cst.Name) and arg.value.value == "None":
            return False
    return True
