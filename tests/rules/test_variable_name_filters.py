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


# The tf.layers GAN: generator and discriminator functions whose layers sit in a variable scope, the discriminator
# called again with reuse=True, what each optimizer trains picked by the scope in the variables' TF1 names.
LAYERS_GAN = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(1)
np.random.seed(1)


def generator(z, reuse=False):
    with tf.variable_scope('generator', reuse=reuse):
        h = tf.layers.dense(z, 5, activation=tf.nn.relu)
        return tf.layers.dense(h, 3)


def discriminator(x, reuse=False):
    with tf.variable_scope('discriminator', reuse=reuse):
        h = tf.layers.dense(x, 4, activation=tf.nn.relu, name='hidden')
        return tf.layers.dense(h, 1)


z = tf.placeholder(tf.float32, [None, 2])
real = tf.placeholder(tf.float32, [None, 3])
d_real = discriminator(real)
d_fake = discriminator(generator(z), reuse=True)
d_loss = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real)
g_loss = -tf.reduce_mean(d_fake)
t_vars = tf.trainable_variables()
d_vars = [var for var in t_vars if var.name.startswith('discriminator')]
g_vars = [var for var in t_vars if 'generator/' in var.name]
d_train = tf.train.GradientDescentOptimizer(0.1).minimize(d_loss, var_list=d_vars)
g_train = tf.train.GradientDescentOptimizer(0.1).minimize(g_loss, var_list=g_vars)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        feed = {z: np.random.rand(4, 2), real: np.random.rand(4, 3)}
        sess.run(d_train, feed)
        sess.run(g_train, feed)
        print(step, sess.run([d_loss, g_loss], feed))
'''


def test_selections_among_the_variables_of_tf_layers_become_their_keras_layers_variables(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(LAYERS_GAN, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert ".name" not in code and "tf1_layer_variable" not in code
    # the discriminator's layers were built first (its first call comes first): TF1 named them in that order
    messages = [f.message for f in result.findings if f.rule == "variable-name-filters"]
    assert any("discriminator/hidden/kernel:0, discriminator/hidden/bias:0, discriminator/dense/kernel:0, "
               "discriminator/dense/bias:0:" in m for m in messages), messages
    assert any("generator/dense/kernel:0, generator/dense/bias:0, generator/dense_1/kernel:0, "
               "generator/dense_1/bias:0:" in m for m in messages), messages
    assert "d_vars = [hidden.kernel, hidden.bias, dense_2.kernel, dense_2.bias]" in code
    verdict = verify_program(LAYERS_GAN, code, path=tmp_path / "gan.py", timeout=240)  # (TF1 layers need tf-keras)
    assert verdict.status == "equivalent", verdict.detail


@pytest.mark.parametrize("change", [
    pytest.param(("        h = tf.layers.dense(z, 5, activation=tf.nn.relu)\n",
                  "        h = z\n        for _ in range(2):\n            h = tf.layers.dense(h, 5)\n"),
                 id="layers made in a loop"),
    pytest.param(("d_fake = discriminator(generator(z), reuse=True)",
                  "d_fake = discriminator(generator(z), reuse=True)\nextra = generator(z)"),
                 id="a function called again without reuse"),
    pytest.param(("with tf.variable_scope('generator', reuse=reuse):", "with tf.variable_scope(None, 'g', reuse=reuse):"),
                 id="a scope whose name TF1 made unique"),
])
def test_selections_among_layer_variables_it_cannot_name_stay_compat(change):
    source = LAYERS_GAN.replace(*change)
    assert source != LAYERS_GAN
    result = migrate_source(source, "gan.py")
    assert result.outcome == "compat"
    assert not any(f.rule == "variable-name-filters" for f in result.findings)


def test_a_selection_written_in_place_as_var_list_becomes_the_list_too(tmp_path):
    """`minimize(d_loss, var_list=[v for v in t_vars if ...])`: the selection has no name of its own."""
    from tf_migrate.verify import verify_program
    source = LAYERS_GAN.replace(
        "d_vars = [var for var in t_vars if var.name.startswith('discriminator')]\n", "").replace(
        "minimize(d_loss, var_list=d_vars)", "minimize(d_loss, var_list=[v for v in t_vars if 'discriminator/' in v.name])")
    assert "d_vars" not in source
    result = migrate_source(source, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert ".name" not in result.new_source
    assert "[hidden.kernel, hidden.bias, dense_2.kernel, dense_2.bias]" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "gan.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
    # tf.Variable programs too
    plain = GAN.replace("dvar = [var for var in tvar if 'discriminator' in var.name]\n", "").replace(
        "var_list=dvar", "var_list=[var for var in tvar if 'discriminator' in var.name]")
    assert "dvar" not in plain
    converted = migrate_source(plain, "gan.py")
    assert converted.outcome == "eager", converted.compat_reason
    assert "var_list=[D_W, D_b]" in converted.new_source or "[D_W, D_b]" in converted.new_source
