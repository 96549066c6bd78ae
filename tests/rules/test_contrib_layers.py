"""contrib-layers: tf.contrib.layers basics -> core TF1 layers with contrib's defaults written out."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

HEAD = "import tensorflow as tf\n"
GLOROT, ZEROS = "kernel_initializer=tf.glorot_uniform_initializer()", "bias_initializer=tf.zeros_initializer()"


@pytest.mark.parametrize("before, after", [
    pytest.param("h = tf.contrib.layers.fully_connected(x, 8)\n",
                 f"h = tf.layers.dense(x, units=8, activation=tf.nn.relu, {GLOROT}, {ZEROS})\n",
                 id="fully_connected defaults"),
    pytest.param("h = tf.contrib.layers.fully_connected(x, 8, activation_fn=None, biases_initializer=None, "
                 "scope='out', reuse=True)\n",
                 f"h = tf.layers.dense(x, units=8, activation=None, {GLOROT}, use_bias=False, name='out', "
                 "reuse=True)\n", id="fully_connected linear without bias"),
    pytest.param("c = tf.contrib.layers.conv2d(x, 16, [5, 5], 2)\n",
                 f"c = tf.layers.conv2d(x, filters=16, activation=tf.nn.relu, {GLOROT}, {ZEROS}, "
                 "kernel_size=[5, 5], strides=2, padding='SAME')\n", id="conv2d defaults"),
    pytest.param("f = tf.contrib.layers.flatten(x)\n", "f = tf.layers.flatten(x)\n", id="flatten"),
    pytest.param("d = tf.contrib.layers.dropout(x, keep_prob)\n",
                 "d = tf.layers.dropout(x, rate=1 - (keep_prob), training=True)\n", id="dropout trains by default"),
    pytest.param("d = tf.contrib.layers.dropout(x, 0.8, is_training=training)\n",
                 "d = tf.layers.dropout(x, rate=1 - 0.8, training=training)\n", id="dropout is_training"),
    pytest.param("r = tf.contrib.layers.l2_regularizer(0.01)\n",
                 "r = lambda weights: 0.01 * tf.nn.l2_loss(weights)\n", id="l2_regularizer formula"),
    pytest.param("r = tf.contrib.layers.l1_regularizer(scale=s)\n",
                 "r = lambda weights: s * tf.reduce_sum(tf.abs(weights))\n", id="l1_regularizer formula"),
    pytest.param("w = tf.contrib.layers.xavier_initializer()\n", "w = tf.glorot_uniform_initializer()\n",
                 id="xavier_initializer"),
    pytest.param("r = tf.contrib.layers.l2_regularizer(0.0)\n", None, id="noop zero scale is contrib's no-op"),
    pytest.param("h = tf.contrib.layers.fully_connected(x, 8, normalizer_fn=tf.contrib.layers.batch_norm)\n", None,
                 id="noop normalizer_fn"),
    pytest.param("h = tf.contrib.layers.fully_connected(x, 8, variables_collections=['fc'])\n", None,
                 id="noop collections"),
    pytest.param("h = tf.contrib.layers.fully_connected(x, 8)\nsaver = tf.train.Saver()\n", None,
                 id="noop a Saver would look for contrib's variable names"),
    pytest.param("w = tf.get_variable('w', [3, 2], initializer=tf.contrib.layers.xavier_initializer())\n"
                 "saver = tf.train.Saver()\n",
                 "w = tf.get_variable('w', [3, 2], initializer=tf.glorot_uniform_initializer())\n"
                 "saver = tf.train.Saver()\n", id="an initializer names no variable: converted beside a Saver"),
])
def test_rewrite(before, after):
    result = migrate_source(HEAD + before, "case.py", select={"contrib-layers"})
    assert result.new_source == HEAD + (after or before)


PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
h = tf.contrib.layers.fully_connected(x, 4, weights_regularizer=tf.contrib.layers.l2_regularizer(0.1),
                                      weights_initializer=tf.constant_initializer(0.25))
out = tf.contrib.layers.fully_connected(h, 1, activation_fn=None, weights_initializer=tf.constant_initializer(-0.5))
loss = tf.reduce_mean(tf.square(out - 1.0)) + tf.losses.get_regularization_loss()
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        print(step, sess.run([loss, train_op], {x: np.ones((2, 3))})[0])
'''


def test_contrib_program_goes_eager_with_the_numbers_of_its_core_twin(tmp_path):
    """TF 2.21 cannot run contrib: the legacy side is the contrib-free TF1 program this rule writes."""
    core = migrate_source(PROGRAM, "contrib.py", select={"contrib-layers"}).new_source
    assert "contrib" not in core
    result = migrate_source(PROGRAM, "contrib.py")
    assert result.outcome == "eager", result.findings
    assert "+ tf.add_n([*dense.losses])" in result.new_source
    verdict = verify_program(core, result.new_source, path=tmp_path / "contrib.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_name_filter_on_contribs_scope_is_left_alone():
    source = HEAD + "h = tf.contrib.layers.fully_connected(x, 8)\nw = tf.trainable_variables('fully_connected')\n"
    assert migrate_source(source, "case.py", select={"contrib-layers"}).new_source == source
