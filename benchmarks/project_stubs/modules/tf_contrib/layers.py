"""``tf.contrib.layers``: ``xavier_initializer`` and ``batch_norm`` as TF 1.15's contrib ran them, on ``compat.v1``.

``batch_norm`` follows contrib's NHWC code for rank 2 and 4 (``contrib/layers/python/layers/layers.py``):
variables ``beta``/``gamma``/``moving_mean``/``moving_variance`` under ``scope`` (default ``BatchNorm``), gamma
first on the path through ``tf.layers`` (rank 4 with updates in ``UPDATE_OPS``), the fused kernel, whose
epsilon TF1's wrapper raised to 1.001e-5, and the moving averages moved by ``1 - decay`` towards the batch
statistics: in place when ``updates_collections`` is None, else added to those collections; only when training.
"""
import tensorflow.compat.v1 as v1


def xavier_initializer(uniform=True, seed=None, dtype=v1.float32):
    return v1.glorot_uniform_initializer(seed=seed, dtype=dtype) if uniform else \
        v1.glorot_normal_initializer(seed=seed, dtype=dtype)


def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None, updates_collections=v1.GraphKeys.UPDATE_OPS,
               is_training=True, reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC", zero_debias_moving_mean=False, scope=None, **_):
    if param_initializers or batch_weights is not None or data_format != "NHWC" or zero_debias_moving_mean:
        raise NotImplementedError("this stub runs contrib's batch_norm for NHWC, default initializers only")
    original = v1.convert_to_tensor(inputs)
    rank = original.shape.ndims
    through_layers = rank == 4 and updates_collections is v1.GraphKeys.UPDATE_OPS
    with v1.variable_scope(scope, "BatchNorm", [original], reuse=reuse):
        size = original.shape.as_list()[-1]
        keys = None if through_layers else [v1.GraphKeys.GLOBAL_VARIABLES, v1.GraphKeys.MODEL_VARIABLES]
        params = {}
        for name in (["gamma", "beta"] if through_layers else ["beta", "gamma"]):
            if (name == "beta" and center) or (name == "gamma" and scale):
                start = v1.zeros_initializer() if name == "beta" else v1.ones_initializer()
                params[name] = v1.get_variable(name, [size], original.dtype, start, trainable=trainable,
                                               collections=keys)
        offset = params.get("beta", v1.constant(0.0, original.dtype, [size]))
        factor = params.get("gamma", v1.constant(1.0, original.dtype, [size]))
        moving_mean = v1.get_variable("moving_mean", [size], original.dtype, v1.zeros_initializer(),
                                      trainable=False, collections=keys)
        moving_variance = v1.get_variable("moving_variance", [size], original.dtype, v1.ones_initializer(),
                                          trainable=False, collections=keys)
        x = original if rank == 4 else v1.reshape(original, [-1, 1, 1, size])
        fixed = is_training if isinstance(is_training, bool) else v1.get_static_value(is_training)
        epsilon = epsilon if epsilon > 1.001e-5 else 1.001e-5

        def pick(if_training, otherwise):
            return v1.cond(is_training, if_training, otherwise) if fixed is None else (
                if_training() if fixed else otherwise())

        y, batch_mean, batch_variance = pick(
            lambda: v1.nn.fused_batch_norm(x, factor, offset, epsilon=epsilon),
            lambda: v1.nn.fused_batch_norm(x, factor, offset, moving_mean, moving_variance, epsilon,
                                           is_training=False))

        def moved():
            step = 1.0 - decay
            return (v1.assign_sub(moving_mean, (moving_mean - batch_mean) * step),
                    v1.assign_sub(moving_variance, (moving_variance - batch_variance) * step))

        if fixed is None or fixed:
            if updates_collections is None:
                def with_updates():
                    with v1.control_dependencies(moved()):
                        return v1.identity(y)
                y = pick(with_updates, lambda: y)
            else:
                for op in pick(moved, lambda: (moving_mean, moving_variance)):
                    v1.add_to_collections(updates_collections, op)
        y.set_shape(x.shape)
        y = y if rank == 4 else v1.reshape(y, v1.shape(original))
        return y if activation_fn is None else activation_fn(y)
