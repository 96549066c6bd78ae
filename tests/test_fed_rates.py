"""Learning rates fed at each run: a variable the run functions assign before the step (analysis/fed_rates)."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
lr = tf.placeholder(tf.float32, [], name='lr')
w = tf.Variable([[0.5], [-0.25]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
optimizer = OPTIMIZER
train = optimizer.minimize(loss)
X = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
Y = np.array([[1.0], [0.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(6):
        _, l = sess.run([train, loss], feed_dict={x: X, y: Y, lr: 0.2 / (step + 1)})
        print(step, l, sess.run(loss, {x: X, y: Y}))
    print(sess.run(w).ravel())
"""


@pytest.mark.parametrize("optimizer", ["tf.train.GradientDescentOptimizer(lr)",
                                       "tf.train.AdamOptimizer(learning_rate=lr * 0.5, beta1=0.8)",
                                       "tf.train.MomentumOptimizer(lr, 0.9)"])
def test_a_fed_learning_rate_is_assigned_before_each_step(optimizer):
    source = PROGRAM.replace("OPTIMIZER", optimizer)
    result = migrate_source(source, "fed_rate.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "optimizer_learning_rate = tf.Variable(0.0, trainable=False)" in code
    assert "(learning_rate=lambda: optimizer_learning_rate" in code or "(lambda: optimizer_learning_rate, 0.9)" in code
    step = code[code.index("def run_train_loss("):]
    assert step.index("optimizer_learning_rate.assign(lr") < step.index("optimizer.apply_gradients")
    # The run that only reads the loss needs no learning rate (TF1 did not ask for it either).
    assert "def run_loss(x, y):" in code
    assert_same_output(run_legacy(source), run_migrated(code))


@pytest.mark.parametrize("optimizer, why", [
    ("tf.train.MomentumOptimizer(lr, momentum=fed)", "hyper-parameters depend on per-run tensors"),
    ("tf.train.GradientDescentOptimizer(fed)", "float32"),
])
def test_other_per_run_hyper_parameters_keep_compat(optimizer, why):
    fed = "tf.float64" if why == "float32" else "tf.float32"
    source = PROGRAM.replace("optimizer = OPTIMIZER", f"fed = tf.placeholder({fed}, [])\noptimizer = {optimizer}")
    result = migrate_source(source.replace("lr: 0.2", "fed: 0.9, lr: 0.2"), "fed_rate.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason


CLASS_PROGRAM = """
import numpy as np
import tensorflow as tf


class Model:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.lr = tf.placeholder(tf.float32, [])
        w = tf.Variable([[1.0], [2.0]])
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, w) - 1.0))
        self.train_op = tf.train.AdamOptimizer(self.lr).minimize(self.loss)

    def step(self, sess, X, lr):
        return sess.run([self.train_op, self.loss], {self.x: X, self.lr: lr})[1]


m = Model()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(4):
        print(m.step(sess, [[1., 1.]], 0.1 / (i + 1)))
"""


def test_a_class_keeps_its_fed_learning_rate_on_the_object():
    result = migrate_source(CLASS_PROGRAM, "fed_rate_class.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "self.optimizer_learning_rate = tf.Variable(0.0, trainable=False)" in code
    assert "(lambda: self.optimizer_learning_rate)" in code
    assert "        self.optimizer_learning_rate.assign(lr)\n" in code
    assert_same_output(run_legacy(CLASS_PROGRAM), run_migrated(code))
