"""variable-name-filters: trainable variables selected by their TF1 names -> the explicit list of those selected."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

GAN = '''
import numpy as np
import tensorflow as tf

z = tf.placeholder(tf.float32, [None, 2])
x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('generator'):
    G_W = tf.Variable(tf.constant([[0.5, -0.25, 1.0], [0.75, 0.5, -0.5]]))
    G_b = tf.Variable(tf.zeros([3]), name='bias')
with tf.variable_scope('discriminator'):
    D_W = tf.Variable(tf.constant([[0.25], [-0.5], [1.0]]))
    D_b = tf.Variable(tf.zeros([1]))
    steps = tf.Variable(0, trainable=False)
fake = tf.nn.sigmoid(tf.matmul(z, G_W) + G_b)
d_real = tf.matmul(x, D_W) + D_b
d_fake = tf.matmul(fake, D_W) + D_b
d_loss = tf.reduce_mean(tf.nn.softplus(-d_real) + tf.nn.softplus(d_fake))
g_loss = tf.reduce_mean(tf.nn.softplus(-d_fake))
tvar = tf.trainable_variables()
dvar = [var for var in tvar if 'discriminator' in var.name]
gvar = [v for v in tf.trainable_variables() if v.name.startswith('generator/')]
d_step = tf.train.GradientDescentOptimizer(0.1).minimize(d_loss, var_list=dvar)
g_step = tf.train.GradientDescentOptimizer(0.1).minimize(g_loss, var_list=gvar)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        feed = {z: np.full((4, 2), 0.5, np.float32), x: np.ones((4, 3), np.float32)}
        _, dl = sess.run([d_step, d_loss], feed_dict=feed)
        _, gl = sess.run([g_step, g_loss], feed_dict=feed)
        print(i, dl, gl)
    print(sess.run([G_W, D_W]))
'''


def test_selections_by_name_become_the_variables_tf1_selected():
    result = migrate_source(GAN, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "dvar = [D_W, D_b]" in code  # `steps` is not trainable
    assert "gvar = [G_W, G_b]" in code
    assert ".name" not in code
    messages = [f.message for f in result.findings if f.rule == "variable-name-filters"]
    assert any("(generator/Variable, generator/bias)" in m for m in messages), messages
    assert_same_output(run_legacy(GAN), run_migrated(code))


@pytest.mark.parametrize("change", [
    pytest.param(("    D_b = tf.Variable(tf.zeros([1]))\n",
                  "    D_b = make_bias()\n"), id="a variable made by a helper"),
    pytest.param(("dvar = [var for var in tvar if 'discriminator' in var.name]",
                  "dvar = [var for var in tvar if 'discriminator' in var.name and var is not G_W]"),
                 id="a test that reads more than the name"),
    pytest.param(("fake = tf.nn.sigmoid(", "extra = tf.layers.dense(z, 2)\nfake = tf.nn.sigmoid("),
                 id="a layer makes variables the text does not name"),  # (its reason: TF1 named them by the layer)
    pytest.param(("with tf.variable_scope('generator'):", "with tf.variable_scope(prefix):"),
                 id="a scope name computed at run time"),
])
def test_selections_it_cannot_name_stay_compat(change):
    source = GAN.replace(*change).replace("import tensorflow as tf\n",
                                          "import tensorflow as tf\nprefix = 'generator'\n\n\n"
                                          "def make_bias():\n    bias = tf.Variable(tf.zeros([1]))\n"
                                          "    tf.Variable(0.0)\n    return bias\n\n\n")
    assert source != GAN
    result = migrate_source(source, "gan.py")
    assert result.outcome == "compat"
    assert "named by it, and the program reads variable names" in result.compat_reason or (
        "tf.layers" in change[1] and "are named by their layer in TF1" in result.compat_reason)
    assert not any(f.rule == "variable-name-filters" for f in result.findings)
