"""A variable appended to a list that the trainable list names already (the output layer's ``W`` appended to the
``Ws`` a loop filled): TF1 listed it once; the eager list ``[*Ws, W]`` trained it twice (analysis/covered_variables).
"""
from __future__ import annotations

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''import numpy as np
import tensorflow as tf

np.random.seed(0)
Ws = []
M1 = 4
for M2 in [10, 5]:
    W = tf.Variable(np.random.randn(M1, M2).astype(np.float32) * 0.1)
    Ws.append(W)
    M1 = M2
W = tf.Variable(np.random.randn(M1, 1).astype(np.float32) * 0.1)
Ws.append(W)
X = tf.placeholder(tf.float32, shape=(None, 4))
Y = tf.placeholder(tf.float32, shape=(None,))
Z = X
for V in Ws:
    Z = tf.tanh(tf.matmul(Z, V))
Y_hat = tf.reshape(Z, [-1])
cost = tf.reduce_sum(tf.square(Y - Y_hat))
train_op = tf.train.GradientDescentOptimizer(1e-2).minimize(cost)
session = tf.Session()
session.run(tf.global_variables_initializer())
x = np.random.randn(8, 4).astype(np.float32)
y = x.sum(axis=1)
for i in range(20):
    session.run(train_op, feed_dict={X: x, Y: y})
print(session.run(Y_hat, feed_dict={X: x}))
'''


def test_a_variable_appended_after_the_loop_is_trained_and_listed_once():
    result = migrate_source(PROGRAM, "covered.py")
    assert result.outcome == "eager", result.compat_reason
    assert "variables = [*Ws]\n" in result.new_source and "[*Ws, W]" not in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


def test_a_variable_the_list_is_extended_with_is_trained_once():
    source = PROGRAM.replace("Ws.append(W)\nX =", "Ws.extend([W])\nX =")
    result = migrate_source(source, "covered.py")
    assert result.outcome == "eager", result.compat_reason
    assert "variables = [*Ws]\n" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_an_append_after_a_run_keeps_the_file_compat():
    source = PROGRAM.replace("W = tf.Variable(np.random.randn(M1, 1).astype(np.float32) * 0.1)\nWs.append(W)\n",
                             "W = tf.Variable(np.random.randn(M1, 1).astype(np.float32) * 0.1)\n").replace(
        "print(session.run(Y_hat, feed_dict={X: x}))\n", "Ws.append(W)\nprint(session.run(Y_hat, feed_dict={X: x}))\n")
    result = migrate_source(source, "covered.py")
    assert result.outcome == "compat"
    assert "`W` is added to `Ws` after a run" in result.compat_reason
