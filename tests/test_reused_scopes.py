"""analysis/reused_scopes: a function or class that makes variables by name, called under a scope that reuses them.

TF1 handed the second call the first one's variables (a GAN's discriminator on fake data, a test model sharing the
trained one's weights); the eager rewrite gave each call its own, and printed other numbers with no sign of it
(`--verify` called these not comparable: more random draws). They stay compat, with the reason at the call.
"""
import pytest

from tf_migrate.engine import migrate_source

HELPER = '''
def discriminator(x):
    w = tf.get_variable("w", [3, 1])
    return tf.sigmoid(tf.matmul(x, w))
'''
LAYER_HELPER = '''
def discriminator(x):
    return tf.layers.dense(x, 1, activation=tf.sigmoid, name="fc")
'''
ENCODER = '''
class Discriminator:
    def __init__(self, x):
        cell = tf.nn.rnn_cell.GRUCell(2)
        outputs, state = tf.nn.dynamic_rnn(cell, tf.reshape(x, [-1, 3, 1]), dtype=tf.float32)
        self.out = tf.sigmoid(tf.reduce_sum(state, axis=1, keepdims=True))
'''
PROGRAM = '''import numpy as np
import tensorflow as tf
{helper}

real = tf.placeholder(tf.float32, [None, 3])
fake = tf.placeholder(tf.float32, [None, 3])
{calls}
loss = -tf.reduce_mean(tf.log(d_real) + tf.log(1.0 - d_fake))
train = tf.train.GradientDescentOptimizer(0.3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(i, sess.run([loss, train], {{real: np.ones((2, 3)), fake: -np.ones((2, 3))}})[0])
'''
SCOPE_REUSED = '''with tf.variable_scope("D") as scope:
    d_real = discriminator(real)
    scope.reuse_variables()
    d_fake = discriminator(fake)'''
REUSE_TRUE = '''with tf.variable_scope("D"):
    d_real = discriminator(real)
with tf.variable_scope("D", reuse=True):
    d_fake = discriminator(fake)'''
AUTO_REUSE = '''with tf.variable_scope("D", reuse=tf.AUTO_REUSE):
    d_real = discriminator(real)
    d_fake = discriminator(fake)'''
ROOT_REUSED = '''d_real = discriminator(real)
tf.get_variable_scope().reuse_variables()
d_fake = discriminator(fake)'''


def _reasons(result):
    return " | ".join(f.message for f in result.findings)


@pytest.mark.parametrize("helper", [pytest.param(HELPER, id="get_variable"), pytest.param(LAYER_HELPER, id="tf.layers")])
@pytest.mark.parametrize("calls", [pytest.param(SCOPE_REUSED, id="scope.reuse_variables()"),
                                   pytest.param(REUSE_TRUE, id="reuse=True"),
                                   pytest.param(AUTO_REUSE, id="AUTO_REUSE"),
                                   pytest.param(ROOT_REUSED, id="root scope reused")])
def test_a_helper_called_under_a_reusing_scope_stays_compat(helper, calls):
    result = migrate_source(PROGRAM.format(helper=helper, calls=calls), "gan.py")
    assert result.outcome == "compat"
    assert "`discriminator` is called under a variable scope that reuses variables" in _reasons(result)


def test_a_class_built_again_under_a_reusing_scope_stays_compat():
    calls = REUSE_TRUE.replace("discriminator(real)", "Discriminator(real).out").replace(
        "discriminator(fake)", "Discriminator(fake).out")
    result = migrate_source(PROGRAM.format(helper=ENCODER, calls=calls), "gan.py")
    assert result.outcome == "compat"
    assert "`Discriminator` is called under a variable scope that reuses" in _reasons(result)


@pytest.mark.parametrize("helper, calls", [
    pytest.param(HELPER.replace('tf.get_variable("w", [3, 1])', "tf.Variable(tf.ones([3, 1]))"), REUSE_TRUE,
                 id="tf.Variable ignores reuse: each call made its own in TF1 too"),
    pytest.param(HELPER.replace("def discriminator(x):", "def discriminator(x, reuse=False):").replace(
        '    w = tf.get_variable("w", [3, 1])',
        '    with tf.variable_scope("D", reuse=reuse):\n        w = tf.get_variable("w", [3, 1])'),
        "d_real = discriminator(real)\nd_fake = discriminator(fake, reuse=True)",
        id="reuse by the helper's own parameter: the variable-store rule shares its variables"),
])
def test_what_the_rules_already_get_right_still_converts(helper, calls):
    result = migrate_source(PROGRAM.format(helper=helper, calls=calls), "gan.py")
    assert result.outcome == "eager", result.compat_reason
