"""``tf.contrib.layers``: ``xavier_initializer`` and ``batch_norm`` (as ``compat.v1.layers.batch_normalization``)."""
import tensorflow.compat.v1 as v1


def xavier_initializer(uniform=True, seed=None, dtype=v1.float32):
    return v1.glorot_uniform_initializer(seed=seed, dtype=dtype) if uniform else \
        v1.glorot_normal_initializer(seed=seed, dtype=dtype)


def batch_norm(inputs, decay=0.999, updates_collections=None, epsilon=0.001, scale=False, is_training=True,
               scope=None, **_):
    return v1.layers.batch_normalization(inputs, momentum=decay, epsilon=epsilon, scale=scale,
                                         training=is_training, name=scope)
