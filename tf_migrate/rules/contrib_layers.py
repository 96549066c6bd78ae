"""tf.contrib.layers basics -> their core TF1 twins, with contrib's defaults written out.

TF2 has no ``tf.contrib``. Where a contrib layer is a core layer with other
defaults, it becomes that core call (still TF1, so the layer rules and the
session rule finish the job, or compat output runs it):

    fully_connected(x, n)        -> tf.layers.dense(x, n, activation=tf.nn.relu,
                                        kernel_initializer=tf.glorot_uniform_initializer(),
                                        bias_initializer=tf.zeros_initializer())
    conv2d(x, n, k)              -> tf.layers.conv2d(x, n, k, strides=1, padding='SAME', activation=tf.nn.relu, ...)
    flatten(x)                   -> tf.layers.flatten(x)
    dropout(x, keep_prob)        -> tf.layers.dropout(x, rate=1 - keep_prob, training=True)
    xavier_initializer(), variance_scaling_initializer(...) -> TF core initializers drawing the same values
    l2_regularizer(s)            -> lambda weights: s * tf.nn.l2_loss(weights)      (l1: s * sum |w|)

Contrib's defaults (``tensorflow/contrib/layers/python/layers/layers.py`` at
tensorflow/tensorflow@1681cd91): relu activation, Xavier (Glorot uniform)
weights, zero biases, ``padding='SAME'``, dropout ``is_training=True``.
``scope=`` becomes ``name=``. Calls with ``normalizer_fn``, collections or
arguments past these are left alone (the file stays in compat mode), and so
is every contrib layer (not its initializers and regularizers, which name no
variable) of a file with a ``tf.train.Saver`` or a string naming contrib's
default scopes: variables are named ``dense/kernel`` where contrib wrote
``fully_connected/weights``, so legacy checkpoints would not restore and name
filters would match nothing.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import libcst as cst

from tf_migrate.cst.arguments import bind
from tf_migrate.cst.text import code, module_code
from tf_migrate.report import INFO
from tf_migrate.rules import COMPAT, EAGER, Rule, RuleContext
from tf_migrate.rules._compat_contrib import _INITIALIZERS, _initializer
from tf_migrate.traversal import visit

RULE_ID = "contrib-layers"
_LAYERS = "tf.contrib.layers."
# contrib parameters, in order, and the core layer each becomes.
_SIGNATURES = {
    "fully_connected": ["inputs", "num_outputs", "activation_fn", "normalizer_fn", "normalizer_params",
                        "weights_initializer", "weights_regularizer", "biases_initializer", "biases_regularizer",
                        "reuse", "variables_collections", "outputs_collections", "trainable", "scope"],
    "conv2d": ["inputs", "num_outputs", "kernel_size", "stride", "padding", "data_format", "rate", "activation_fn",
               "normalizer_fn", "normalizer_params", "weights_initializer", "weights_regularizer",
               "biases_initializer", "biases_regularizer", "reuse", "variables_collections", "outputs_collections",
               "trainable", "scope"],
    "flatten": ["inputs", "outputs_collections", "scope"],
    "dropout": ["inputs", "keep_prob", "noise_shape", "is_training", "outputs_collections", "scope", "seed"],
}
_ALIASES = {"convolution2d": "conv2d"}
# contrib name -> core name of the arguments that carry over as they are.
_KEPT = {"weights_regularizer": "kernel_regularizer", "biases_regularizer": "bias_regularizer",
         "reuse": "reuse", "trainable": "trainable", "scope": "name", "kernel_size": "kernel_size",
         "stride": "strides", "padding": "padding", "rate": "dilation_rate", "noise_shape": "noise_shape",
         "seed": "seed", "is_training": "training"}
_LEFT_ALONE = {"normalizer_fn", "normalizer_params", "variables_collections", "outputs_collections", "data_format"}


class ContribLayersToCore(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.contrib.layers fully_connected/conv2d/flatten/dropout, xavier and variance-scaling "
                   "initializers, l1/l2 regularizers -> core TF1 with contrib's defaults explicit")
    ORDER = 8  # after savers (4), before the layer rules
    MODES = (EAGER, COMPAT)
    TRIGGERS = ("contrib",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        text = module_code(module)
        # Variable names read back: contrib's layer scopes were not tf.layers' (dense, conv2d). Initializers and
        # regularizers name no variable: they convert either way.
        names_read = "Saver" in text or any(f"{q}{n}" in text for q in "'\"" for n in ("fully_connected", "Conv"))
        return visit(module, _Contrib(ctx, layers=not names_read))


class _Contrib(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, layers: bool) -> None:
        self.ctx, self.tf, self.layers = ctx, ctx.tf, layers

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original) or ""
        if not qualname.startswith(_LAYERS) or any(a.star for a in updated.args):
            return updated
        name = qualname[len(_LAYERS):]
        if qualname in _INITIALIZERS:
            new, note = _initializer(updated, qualname, self.tf)
        elif name in ("l1_regularizer", "l2_regularizer"):
            new, note = self._regularizer(updated, name)
        elif _ALIASES.get(name, name) in _SIGNATURES and self.layers:
            new, note = self._layer(updated, _ALIASES.get(name, name))
        else:
            return updated
        if new is None:
            return updated
        self.ctx.report(original, RULE_ID, INFO, note)
        return new

    def _regularizer(self, call: cst.Call, name: str):
        bound = bind(call, ["scale", "scope"])
        scale = bound.get("scale") if bound else None
        if scale is None or isinstance(scale, (cst.Integer, cst.Float)) and float(scale.value) <= 0:
            return None, None  # contrib's no-op (scale 0) and its errors stay contrib's
        scale_code = code(scale) if isinstance(scale, (cst.Name, cst.Attribute, cst.Integer, cst.Float)) \
            else f"({code(scale)})"
        term = f"{self.tf}.nn.l2_loss(weights)" if name == "l2_regularizer" else \
            f"{self.tf}.reduce_sum({self.tf}.abs(weights))"
        return (cst.parse_expression(f"lambda weights: {scale_code} * {term}"),
                f"tf.contrib.layers.{name} -> its formula, `scale * {term.split('(')[0]}(weights)`")

    def _layer(self, call: cst.Call, name: str):
        bound = bind(call, _SIGNATURES[name])
        if bound is None or set(bound) & _LEFT_ALONE or "inputs" not in bound:
            return None, None
        tf = self.tf
        args: List[str] = [code(bound["inputs"])]
        given: Dict[str, Optional[str]] = {k: code(v) for k, v in bound.items() if k != "inputs"}
        if name == "dropout":
            keep = given.pop("keep_prob", "0.5")
            args.append(f"rate=1 - {keep}" if keep.replace(".", "").isalnum() else f"rate=1 - ({keep})")
            given.setdefault("is_training", "True")
        elif name != "flatten":
            if name == "conv2d":
                if "kernel_size" not in given:
                    return None, None
                given.setdefault("stride", "1")
                given.setdefault("padding", "'SAME'")
            if "num_outputs" not in given:
                return None, None
            args.append(f"activation={given.pop('activation_fn', f'{tf}.nn.relu')}")
            args.append("kernel_initializer=" + given.pop("weights_initializer", f"{tf}.glorot_uniform_initializer()"))
            biases = given.pop("biases_initializer", f"{tf}.zeros_initializer()")
            args.append("use_bias=False" if biases == "None" else f"bias_initializer={biases}")
        if "num_outputs" in given:
            args.insert(1, f"{'units' if name == 'fully_connected' else 'filters'}={given.pop('num_outputs')}")
        args += [f"{_KEPT[k]}={v}" for k, v in given.items()]
        core = {"fully_connected": "dense"}.get(name, name)
        new = cst.parse_expression(f"{tf}.layers.{core}({', '.join(args)})")
        return new, f"tf.contrib.layers.{name} -> tf.layers.{core} with contrib's defaults written out"
