"""contrib-batch-norm: tf.contrib.layers.batch_norm -> a helper in core TF1 ops, so compat output runs on TF2.

The legacy program cannot run here (TF2 has no tf.contrib), so the numbers are checked against batch norm
worked out in numpy from contrib's documented behaviour: normalize with the batch's mean and (biased)
variance while training, with the moving ones otherwise; move the averages by ``(1 - decay)`` towards the
batch mean and the Bessel-corrected batch variance; epsilon at least 1.001e-5 (TF1's fused kernel wrapper).
"""
import re

import numpy as np
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import run_compat

HEAD = "import tensorflow as tf\n"


def compat(source: str):
    return migrate_source(HEAD + source, "case.py", mode="compat")


@pytest.mark.parametrize("call, helper_call", [
    pytest.param("tf.contrib.layers.batch_norm(x, 0.9, True, True, 1e-5, scope='bn')",
                 "contrib_batch_norm(x, decay=0.9, center=True, scale=True, epsilon=1e-5, scope='bn')",
                 id="positional arguments become keywords"),
    pytest.param("tf.contrib.layers.batch_norm(x, fused=None, data_format='NHWC', is_training=train)",
                 "contrib_batch_norm(x, is_training=train)", id="arguments at contrib's defaults dropped"),
    pytest.param("tf.contrib.slim.batch_norm(inputs=x, updates_collections=None)",
                 "contrib_batch_norm(inputs=x, updates_collections=None)", id="slim's is contrib's"),
])
def test_rewrite(call, helper_call):
    result = compat(f"x = tf.placeholder(tf.float32, [None, 3])\ny = {call}\n")
    assert f"y = {helper_call}\n" in result.new_source
    assert "def contrib_batch_norm(" in result.new_source
    assert "contrib." not in result.new_source.replace("tf.contrib.layers.batch_norm (TF2", "")
    assert not [f for f in result.findings if f.severity == "error"]


@pytest.mark.parametrize("call", [
    pytest.param("tf.contrib.layers.batch_norm(x, fused=False)", id="non-fused kernel"),
    pytest.param("tf.contrib.layers.batch_norm(x, data_format='NCHW')", id="channels first"),
    pytest.param("tf.contrib.layers.batch_norm(x, param_initializers={'beta': init})", id="param initializers"),
    pytest.param("tf.contrib.layers.batch_norm(x, renorm=True)", id="renorm"),
    pytest.param("tf.contrib.layers.batch_norm(x, **options)", id="keywords unpacked"),
])
def test_left_alone(call):
    result = compat(f"x = tf.placeholder(tf.float32, [None, 3])\ny = {call}\n")
    assert "contrib_batch_norm" not in result.new_source
    assert any(f.severity == "error" and "batch_norm" in f.message for f in result.findings)


def test_helper_name_is_fresh():
    result = compat("contrib_batch_norm = 1\nx = tf.placeholder(tf.float32, [None, 3])\n"
                    "y = tf.contrib.layers.batch_norm(x)\n")
    helper = re.search(r"def (contrib_batch_norm_\d+)\(", result.new_source).group(1)
    assert f"y = {helper}(x)\n" in result.new_source and "contrib_batch_norm = 1\n" in result.new_source


# The last column's variance is below epsilon, so TF1's floor on epsilon shows in the outputs.
X2 = np.array([[1.0, -2.0, 0.0], [3.0, 0.0, 0.0], [-1.0, 4.0, 0.0], [0.0, 1.0, 0.002]], np.float32)


def _expected(x, gamma, beta, decay, epsilon, steps):
    """Outputs after ``steps`` training runs, then the moving statistics, as contrib's batch norm gave them."""
    axes = tuple(range(x.ndim - 1))
    n = x.size // x.shape[-1]
    mean, variance = x.mean(axes), x.var(axes)
    epsilon = max(epsilon, 1.001e-5)
    out = (x - mean) / np.sqrt(variance + epsilon) * gamma + beta
    moving_mean, moving_variance = np.zeros_like(mean), np.ones_like(variance)
    for _ in range(steps):
        moving_mean -= (moving_mean - mean) * (1 - decay)
        moving_variance -= (moving_variance - variance * n / (n - 1)) * (1 - decay)
    inference = (x - moving_mean) / np.sqrt(moving_variance + epsilon) * gamma + beta
    return out, moving_mean, moving_variance, inference


PROGRAM_IN_PLACE = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
train = tf.placeholder(tf.bool, [])
y = tf.contrib.layers.batch_norm(x, decay=0.9, updates_collections=None, epsilon=1e-6, scale=True,
                                 is_training=train, scope="bn")
print([v.name for v in tf.trainable_variables()], [v.name for v in tf.model_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.array(DATA, np.float32)
    for step in range(3):
        out = sess.run(y, {x: data, train: True})
    print(out.round(5).tolist())
    print([v.round(5).tolist() for v in sess.run(tf.global_variables()[2:])])
    print(sess.run(y, {x: data, train: False}).round(4).tolist())
'''


def test_in_place_updates_rank_2_match_contrib():
    result = compat(PROGRAM_IN_PLACE.replace("DATA", repr(X2.tolist())).replace("import tensorflow as tf\n", "", 1))
    printed = run_compat(result.new_source).splitlines()
    names = "['bn/beta:0', 'bn/gamma:0'] ['bn/beta:0', 'bn/gamma:0', 'bn/moving_mean:0', 'bn/moving_variance:0']"
    assert printed[0] == names  # the fused path: beta first, all four model variables
    out, moving_mean, moving_variance, inference = _expected(X2, 1.0, 0.0, 0.9, 1e-6, steps=3)
    np.testing.assert_allclose(eval(printed[1]), out, atol=1e-4)
    np.testing.assert_allclose(eval(printed[2]), [moving_mean, moving_variance], atol=1e-4)
    np.testing.assert_allclose(eval(printed[3]), inference, atol=1e-3)


PROGRAM_UPDATE_OPS = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2, 2, 3])
y = tf.contrib.layers.batch_norm(x, scale=True, scope="conv_bn")
updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
print([v.name for v in tf.global_variables()], len(updates), tf.model_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) % 5
    out = sess.run(y, {x: data})
    print([v.round(5).tolist() for v in sess.run(tf.global_variables()[2:])])
    sess.run(updates, {x: data})
    print(out.round(5).tolist())
    print([v.round(5).tolist() for v in sess.run(tf.global_variables()[2:])])
'''


def test_update_ops_rank_4_match_contrib_layer_path():
    result = compat(PROGRAM_UPDATE_OPS.replace("import tensorflow as tf\n", "", 1))
    printed = run_compat(result.new_source).splitlines()
    assert printed[0] == ("['conv_bn/gamma:0', 'conv_bn/beta:0', 'conv_bn/moving_mean:0', "
                          "'conv_bn/moving_variance:0'] 2 []")  # tf.layers' order, not model variables
    assert eval(printed[1]) == [[0.0] * 3, [1.0] * 3]  # the updates wait for their collection
    data = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) % 5
    out, moving_mean, moving_variance, _ = _expected(data, 1.0, 0.0, 0.999, 0.001, steps=1)
    np.testing.assert_allclose(eval(printed[2]), out, atol=1e-4)
    np.testing.assert_allclose(eval(printed[3]), [moving_mean, moving_variance], atol=1e-5)
