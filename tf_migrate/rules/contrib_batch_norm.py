"""``tf.contrib.layers.batch_norm`` -> a helper written in core TF1 ops, in compat output.

TF2 has no ``tf.contrib``, so compat output that calls contrib's batch norm does
not run. No core layer is the same layer: ``tf.layers.batch_normalization``
makes gamma before beta, never updates in place (contrib's
``updates_collections=None``, the common GAN idiom), and normalizes rank-2
inputs without the fused kernel, whose moving variance carries Bessel's
correction. So the output gets one module-level helper that does what contrib
did, per TensorFlow 1.15's ``contrib/layers/python/layers/layers.py``:

* variables ``scope/beta``, ``scope/gamma``, ``scope/moving_mean``,
  ``scope/moving_variance`` (the default scope ``BatchNorm``), beta only with
  ``center`` and gamma only with ``scale``. On contrib's fused path (rank 2, or
  updates not in ``UPDATE_OPS``) beta is made first and all four join
  ``MODEL_VARIABLES``; on its layer path (rank 4, updates in ``UPDATE_OPS``)
  gamma comes first, as ``tf.layers`` made them;
* the fused kernel on both paths (rank 2 reshaped to ``[-1, 1, 1, C]``), with
  the batch statistics when training and the moving ones when not, and with
  epsilon at least 1.001e-5 (TF1's ``nn.fused_batch_norm`` raised it to
  cuDNN's minimum; TF2's passes it as it is);
* the moving averages updated as ``assign_moving_average`` did, ``v -= (v -
  batch) * (1 - decay)``: in place under a control dependency of the output
  when ``updates_collections`` is None, else added to those collections; only
  when training (a Python bool decides in Python, a tensor in ``tf.cond``).

A call passing what the helper does not do (``param_initializers``,
``renorm``, ``batch_weights``, ``data_format='NCHW'``, ``fused=False``,
variable or output collections, ``zero_debias_moving_mean``) is left as it
was, and compat mode reports it as having no TF2 form. The eager pass never
sees the helper: a file that calls contrib's batch norm stays compat.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import COMPAT, Rule, RuleContext
from tf_migrate.rules._edits import with_module_helper
from tf_migrate.traversal import visit

RULE_ID = "contrib-batch-norm"
_QUALNAMES = ("tf.contrib.layers.batch_norm", "tf.contrib.slim.batch_norm")
# contrib's parameters, in order (TF 1.15).
_PARAMS = ["inputs", "decay", "center", "scale", "epsilon", "activation_fn", "param_initializers",
           "param_regularizers", "updates_collections", "is_training", "reuse", "variables_collections",
           "outputs_collections", "trainable", "batch_weights", "fused", "data_format", "zero_debias_moving_mean",
           "scope", "renorm", "renorm_clipping", "renorm_decay", "adjustment"]
_HELPER_PARAMS = {"inputs", "decay", "center", "scale", "epsilon", "activation_fn", "updates_collections",
                  "is_training", "reuse", "trainable", "scope"}
# Parameters the helper accepts only at the values that keep contrib on the paths it writes out.
_ONLY_AT = {"param_initializers": {"None"}, "param_regularizers": {"None"}, "variables_collections": {"None"},
            "outputs_collections": {"None"}, "batch_weights": {"None"}, "fused": {"None", "True"},
            "data_format": {"'NHWC'", '"NHWC"'}, "zero_debias_moving_mean": {"False"}, "renorm": {"False"},
            "renorm_clipping": {"None"}, "adjustment": {"None"}, "renorm_decay": None}  # None: unused, any value

_HELPER = '''
def {name}(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
{pad}updates_collections={tf}.GraphKeys.UPDATE_OPS, is_training=True, reuse=None, trainable=True,
{pad}scope=None):
    """tf.contrib.layers.batch_norm (TF2 has no tf.contrib) for NHWC inputs of rank 2 or 4, in core TF1 ops.

    Its variables are named, ordered and collected as contrib made them, it normalizes with the fused
    kernel, and it updates the moving averages as contrib did: in place when updates_collections is None,
    else through those collections, and only when training."""
    with {tf}.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse):
        inputs = {tf}.convert_to_tensor(inputs)
        rank = inputs.shape.ndims
        if rank not in (2, 4):
            raise ValueError(f"batch_norm takes inputs of rank 2 or 4, not {{rank}}")
        channels = {tf}.compat.dimension_value(inputs.shape[-1])
        dtype = inputs.dtype.base_dtype
        # contrib's layer path (rank 4, updates in UPDATE_OPS) made gamma first and no model variables.
        layer_path = rank == 4 and updates_collections is {tf}.GraphKeys.UPDATE_OPS
        collections = None if layer_path else [{tf}.GraphKeys.GLOBAL_VARIABLES, {tf}.GraphKeys.MODEL_VARIABLES]
        made = {{}}
        params = [("beta", center, {tf}.zeros_initializer()), ("gamma", scale, {tf}.ones_initializer())]
        for param, wanted, initializer in (params[::-1] if layer_path else params):
            if wanted:
                made[param] = {tf}.get_variable(
                    param, [channels], dtype, initializer, trainable=trainable, collections=collections)
        beta = made["beta"] if center else {tf}.constant(0.0, dtype, [channels])
        gamma = made["gamma"] if scale else {tf}.constant(1.0, dtype, [channels])
        moving_mean = {tf}.get_variable(
            "moving_mean", [channels], dtype, {tf}.zeros_initializer(), trainable=False, collections=collections)
        moving_variance = {tf}.get_variable(
            "moving_variance", [channels], dtype, {tf}.ones_initializer(), trainable=False, collections=collections)
        x = {tf}.reshape(inputs, [-1, 1, 1, channels]) if rank == 2 else inputs
        epsilon = max(epsilon, 1.001e-5)  # TF1's fused_batch_norm raised epsilon to cuDNN's minimum; TF2's does not
        training = {tf}.get_static_value(is_training) if {tf}.is_tensor(is_training) else is_training

        def when_training(then, otherwise):
            if training is None:
                return {tf}.cond(is_training, then, otherwise)
            return then() if training else otherwise()

        outputs, mean, variance = when_training(
            lambda: {tf}.nn.fused_batch_norm(x, gamma, beta, epsilon=epsilon),
            lambda: {tf}.nn.fused_batch_norm(
                x, gamma, beta, mean=moving_mean, variance=moving_variance, epsilon=epsilon, is_training=False))

        def update():
            return ({tf}.assign_sub(moving_mean, (moving_mean - mean) * (1.0 - decay)),
                    {tf}.assign_sub(moving_variance, (moving_variance - variance) * (1.0 - decay)))

        def updated():
            with {tf}.control_dependencies(update()):
                return {tf}.identity(outputs)

        if training is None or training:
            if updates_collections is None:
                outputs = when_training(updated, lambda: outputs)
            else:
                for new in when_training(update, lambda: (moving_mean, moving_variance)):
                    {tf}.add_to_collections(updates_collections, new)
        outputs.set_shape(x.shape)
        if rank == 2:
            outputs = {tf}.reshape(outputs, {tf}.shape(inputs))
        return outputs if activation_fn is None else activation_fn(outputs)
'''


class ContribBatchNorm(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.contrib.layers.batch_norm -> a helper in core TF1 ops with contrib's variables and updates (compat)"
    ORDER = 9  # after contrib-layers (8), before compat-mode reports what contrib is left
    MODES = (COMPAT,)
    TRIGGERS = ("batch_norm",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        rewrite = _Calls(ctx, fresh("contrib_batch_norm", all_names(module)))
        new = visit(module, rewrite)
        if not rewrite.count:
            return module
        helper = _HELPER.format(name=rewrite.helper, tf=ctx.tf, pad=" " * (len(rewrite.helper) + 5))
        return with_module_helper(new, helper)


class _Calls(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, helper: str) -> None:
        self.ctx, self.helper, self.count = ctx, helper, 0

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) not in _QUALNAMES or not code(original.func).startswith(
                f"{self.ctx.tf}.contrib."):  # an imported contrib name keeps its import: left to compat-mode
            return updated
        args = _helper_args(updated.args)
        if args is None:
            return updated
        self.count += 1
        self.ctx.report(original, RULE_ID, INFO, f"{code(original.func)} -> `{self.helper}`, contrib's batch norm "
                        "written out in core TF1 ops (same variables, fused kernel and moving-average updates)")
        return updated.with_changes(func=cst.Name(self.helper), args=args)


def _helper_args(args) -> Optional[List[cst.Arg]]:
    """The call's arguments for the helper (keywords past ``inputs``), or None when it passes what the helper
    does not do."""
    kept: List[cst.Arg] = []
    for position, arg in enumerate(args):
        if arg.star:
            return None
        if arg.keyword is None and position >= len(_PARAMS):
            return None
        param = arg.keyword.value if arg.keyword is not None else _PARAMS[position]
        if param in _ONLY_AT:
            allowed = _ONLY_AT[param]
            if allowed is not None and code(arg.value) not in allowed:
                return None
            continue
        if param not in _HELPER_PARAMS:
            return None
        if arg.keyword is None and param != "inputs":
            arg = arg.with_changes(keyword=cst.Name(param), equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
        kept.append(arg)
    if not any(a.keyword is None or a.keyword.value == "inputs" for a in kept):
        return None
    if kept and len(kept) < len(args):
        kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
    return kept
