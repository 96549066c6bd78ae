"""Batch normalization's moving statistics move in the runs they moved in under TF1 (analysis/batch_norm_updates)."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

BN = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
is_train = tf.placeholder(tf.bool)
h = tf.layers.dense(x, 4)
h = tf.layers.batch_normalization(h, training=is_train)
out = tf.layers.dense(tf.nn.relu(h), 1)
loss = tf.reduce_mean(tf.square(out - y))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        bx, by = np.random.rand(8, 3) * 3, np.random.rand(8, 1)
        sess.run(train, {x: bx, y: by, is_train: True})
        print(step, sess.run(loss, {x: bx, y: by, is_train: False}))
    print(sess.run(loss, {x: np.ones((2, 3)), y: np.ones((2, 1)), is_train: False}))
'''
_LOSS_IN_TRAINING = ("is_train: False}))\n    print(", "is_train: True}))\n    print(")


def test_runs_that_train_through_the_update_ops_or_infer_convert_and_print_what_tf1_printed(tmp_path):
    result = migrate_source(BN, "bn.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(BN, result.new_source, path=tmp_path / "bn.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


@pytest.mark.parametrize("change", [
    pytest.param(_LOSS_IN_TRAINING, id="a run computing the loss in training mode"),
    pytest.param(("update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)\nwith tf.control_dependencies(update_ops):\n"
                  "    train =", "train ="), id="a training op without the update ops"),
])
def test_runs_that_move_the_statistics_otherwise_than_tf1_keep_compat(change):
    source = BN.replace(*change)
    assert source != BN
    result = migrate_source(source, "bn.py")
    assert result.outcome == "compat"
    assert "batch normalization in training mode" in result.compat_reason or "moving statistics" in \
        result.compat_reason, result.compat_reason


GAN_BN = '''
import numpy as np
import tensorflow as tf


def generator(z, training, reuse=False):
    with tf.variable_scope('generator', reuse=reuse):
        return tf.layers.dense(tf.layers.batch_normalization(tf.layers.dense(z, 4), training=training), 3)


def discriminator(x, training, reuse=False):
    with tf.variable_scope('discriminator', reuse=reuse):
        return tf.layers.dense(tf.layers.batch_normalization(tf.layers.dense(x, 4), training=training), 1)


z = tf.placeholder(tf.float32, [None, 2])
real = tf.placeholder(tf.float32, [None, 3])
is_train = tf.placeholder(tf.bool)
fake = generator(z, is_train)
d_real = discriminator(real, is_train)
d_fake = discriminator(fake, is_train, reuse=True)
d_loss = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real)
g_loss = -tf.reduce_mean(d_fake)
with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    d_train = tf.train.GradientDescentOptimizer(0.1).minimize(d_loss)
    g_train = tf.train.GradientDescentOptimizer(0.1).minimize(g_loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {z: np.ones((4, 2)), real: np.ones((4, 3)), is_train: True}
    sess.run(d_train, feed)
    sess.run(g_train, feed)
    print(sess.run(fake, {z: np.ones((1, 2)), is_train: False}))
'''


def test_a_training_op_whose_run_skips_a_batch_norm_the_update_ops_moved_keeps_compat():
    """TF1's g_train ran every update op, the discriminator's on real data too; eager code computes D(G(z)) only."""
    result = migrate_source(GAN_BN, "gan.py")
    assert result.outcome == "compat"
    assert "also of those it does not compute" in result.compat_reason, result.compat_reason


def test_a_switch_left_at_its_default_false_is_inference():
    """placeholder_with_default(False): the evaluation run that does not feed it computes in inference mode."""
    source = BN.replace("is_train = tf.placeholder(tf.bool)", "is_train = tf.placeholder_with_default(False, [])"
                        ).replace(", is_train: False}))", "}))")
    assert source.count("is_train: False") == 0
    result = migrate_source(source, "bn.py")
    assert result.outcome == "eager", result.compat_reason
