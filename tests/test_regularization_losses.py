"""TF1's regularization losses in eager code: the Keras layers' losses, read at each run.

Eager programs have no collections: ``tf.compat.v1.losses.get_regularization_loss()`` left as it
was returns 0.0 and the term drops out of the loss silently.
"""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope("body"):
    h = tf.layers.dense(x, 4, activation=tf.nn.tanh, kernel_regularizer=tf.keras.regularizers.l2(0.1),
                        kernel_initializer=tf.constant_initializer(0.3), name="hidden")
out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(-0.2),
                      bias_regularizer=tf.keras.regularizers.l1(0.5), bias_initializer=tf.ones_initializer())
reg = tf.losses.get_regularization_loss()
body_terms = tf.losses.get_regularization_losses(scope="body")
terms = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
loss = tf.reduce_mean(tf.square(out - 1.0)) + reg
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        l, r, b, t, _ = sess.run([loss, reg, body_terms, terms, train_op], {x: np.ones((2, 3))})
        print(step, l, r, len(b), sum(t))
'''


def test_regularization_reads_become_the_layers_losses():
    result = migrate_source(PROGRAM, "reg.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "reg = tf.add_n([*hidden.losses, *dense.losses])" in code
    assert "body_terms = [*hidden.losses]" in code
    assert "terms = [*hidden.losses, *dense.losses]" in code


def test_regularized_training_prints_the_legacy_numbers(tmp_path):
    migrated = migrate_source(PROGRAM, "reg.py").new_source
    result = verify_program(PROGRAM, migrated, path=tmp_path / "reg.py", timeout=240)
    assert result.status == "equivalent", result.detail


def test_no_regularizer_is_a_zero_total():
    source = PROGRAM.replace("kernel_regularizer=tf.keras.regularizers.l2(0.1),", "").replace(
        "bias_regularizer=tf.keras.regularizers.l1(0.5), ", "")
    result = migrate_source(source, "reg.py")
    assert result.outcome == "eager", result.findings
    assert "reg = tf.constant(0.0)" in result.new_source


@pytest.mark.parametrize("change, why", [
    pytest.param(("kernel_regularizer=tf.keras.regularizers.l2(0.1)", "activity_regularizer=tf.keras.regularizers.l2(0.1)"),
                 "activity regularizer", id="activity regularizer"),
    pytest.param(("get_regularization_losses(scope=\"body\")", "get_regularization_losses(scope=prefix)"),
                 "computed scope", id="computed scope"),
])
def test_regularization_it_cannot_follow_stays_compat(change, why):
    result = migrate_source(PROGRAM.replace("x = tf.placeholder", "prefix = 'body'\nx = tf.placeholder").replace(*change),
                            "reg.py")
    assert result.outcome == "compat"
    assert any(why in f.message for f in result.findings), result.findings


def test_get_variable_regularizer_read_back_stays_compat():
    """get-variable writes tf.Variable, which has no regularizer: its loss would be lost."""
    source = ("import tensorflow as tf\nw = tf.get_variable('w', [2], regularizer=tf.keras.regularizers.l2(0.1))\n"
              "reg = tf.losses.get_regularization_loss()\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n    print(sess.run(reg))\n")
    result = migrate_source(source, "reg.py")
    assert result.outcome == "compat"
    assert any("regularizer" in f.message for f in result.findings), result.findings
