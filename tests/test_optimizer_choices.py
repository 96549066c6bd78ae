"""Optimizers chosen by a flag (analysis/optimizer_choices): one optimizer, whichever branch made it.

An ``if`` whose every branch binds one name to an optimizer (or raises) is that optimizer: its steps become
tape steps, and the optimizers rule gives every branch one family, so one step form fits whichever branch runs.
Before, such files stayed compat ("an optimizer made inside a compound statement"), and before that the step was
left as ``opt.minimize(loss)`` on an eager optimizer: a crash after migration.
"""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''\
import numpy as np
import tensorflow as tf

OPT = "CHOSEN"
x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.ones([2, 1]))
b = tf.Variable(tf.zeros([1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
CHOICE
step = tf.Variable(0, trainable=False)
train = opt.minimize(loss, global_step=step)
xs = np.array([[1., 2.], [3., 4.]], np.float32)
ys = np.array([[1.], [2.]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(20):
        _, l = sess.run([train, loss], {x: xs, y: ys})
    print(l, sess.run([w, b, step]))
'''
CHOICE = '''\
if OPT == "adam":
    opt = tf.train.AdamOptimizer(0.05)
elif OPT == "momentum":
    opt = tf.train.MomentumOptimizer(0.05, momentum=0.9)
elif OPT == "sgd":
    opt = tf.train.GradientDescentOptimizer(0.05)
else:
    raise ValueError(OPT)'''


def _program(chosen: str, choice: str = CHOICE) -> str:
    return PROGRAM.replace("CHOSEN", chosen).replace("CHOICE", choice)


@pytest.mark.parametrize("chosen", ["adam", "momentum", "sgd"])
def test_each_branch_trains_as_tf1_did(chosen):
    source = _program(chosen)
    result = migrate_source(source, "choice.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    # Adam and Momentum stay TF1's (Keras rounds otherwise), so gradient descent does too: one step form.
    assert '    opt = tf.compat.v1.train.GradientDescentOptimizer(0.05)\n' in code
    assert "opt.apply_gradients([(grad, var) for grad, var in zip(gradients, [w, b]) if grad is not None], " \
           "global_step=step)" in code
    assert "opt.minimize" not in code and "Session" not in code
    assert_same_output(run_legacy(source), run_migrated(code), rtol=0, atol=0)


def test_keras_layers_keep_one_family_too(tmp_path):
    # With Keras layers, an optimizer only stepped stays TF1's where Keras rounds otherwise (it is given the
    # layers' tf.Variables): the three branches bind one name once, so the choice is only stepped as well.
    source = _program("momentum").replace(
        "loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))",
        "tf.set_random_seed(1)\nloss = tf.reduce_mean(tf.square(tf.layers.dense(x, 1) + tf.matmul(x, w) + b - y))")
    result = migrate_source(source, "layers.py")
    assert result.outcome == "eager", result.compat_reason
    assert "    opt = tf.compat.v1.train.MomentumOptimizer(0.05, momentum=0.9)\n" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "layers.py", timeout=240)  # (tf.layers)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_one_line_branches_are_a_choice_too():
    choice = ('if OPT == "adam": opt = tf.train.AdamOptimizer(0.05)\n'
              'else: opt = tf.train.GradientDescentOptimizer(0.05)')
    source = _program("sgd", choice)
    result = migrate_source(source, "oneline.py")
    assert result.outcome == "eager", result.compat_reason
    assert "else: opt = tf.compat.v1.train.GradientDescentOptimizer(0.05)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source), rtol=0, atol=0)


def test_keras_twins_where_every_branch_has_one():
    choice = ('if OPT == "adagrad":\n    opt = tf.train.AdagradOptimizer(0.05)\n'
              'else:\n    opt = tf.train.GradientDescentOptimizer(0.05)')
    source = _program("adagrad", choice)
    result = migrate_source(source, "twins.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "    opt = tf.keras.optimizers.Adagrad(" in code and "    opt = tf.keras.optimizers.SGD(" in code
    assert "opt.apply_gradients(zip(gradients, [w, b]))" in code and "step.assign_add(1)" in code
    assert_same_output(run_legacy(source), run_migrated(code))


@pytest.mark.parametrize("choice, why", [
    pytest.param('if OPT == "adam":\n    opt = tf.keras.optimizers.Adam(0.05)\n'
                 'else:\n    opt = tf.train.RMSPropOptimizer(0.05)',
                 "`opt` is a Keras optimizer in some branches and a TF1 one in others", id="families differ"),
    pytest.param('rate = tf.placeholder(tf.float32, [])\nif OPT == "adam":\n    opt = tf.train.AdamOptimizer(rate)\n'
                 'else:\n    opt = tf.train.GradientDescentOptimizer(rate)',
                 "an optimizer chosen by a branch, is given a learning rate the runs feed", id="fed learning rate"),
    pytest.param('opt = tf.train.GradientDescentOptimizer(0.05)\nif OPT == "adam":\n'
                 '    opt = tf.train.AdamOptimizer(0.05)',
                 "an optimizer made inside a compound statement (`if`)", id="no else: the name may keep another"),
    pytest.param('if OPT == "adam":\n    opt = tf.train.AdamOptimizer(0.05)\nelse:\n'
                 '    opt2 = tf.train.GradientDescentOptimizer(0.05)',
                 "an optimizer made inside a compound statement (`if`)", id="branches bind other names"),
])
def test_what_is_no_choice_stays_compat(choice, why):
    result = migrate_source(_program("adam", choice), "kept.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason


def test_a_class_chooses_its_optimizer_in_init():
    source = '''\
import numpy as np
import tensorflow as tf


class Model:
    def __init__(self, kind, lr):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.placeholder(tf.float32, [None, 1])
        self.w = tf.Variable(tf.ones([2, 1]))
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, self.w) - self.y))
        if kind == "adam":
            self.opt = tf.train.AdamOptimizer(lr)
        else:
            self.opt = tf.train.GradientDescentOptimizer(lr)
        self.train = self.opt.minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def step(self, xs, ys):
        return self.sess.run([self.train, self.loss], {self.x: xs, self.y: ys})[1]


for kind in ["adam", "sgd"]:
    m = Model(kind, 0.1)
    for i in range(5):
        print(kind, m.step(np.array([[1., 2.], [3., 4.]], np.float32), np.array([[1.], [2.]], np.float32)))
'''
    result = migrate_source(source, "model.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "            self.opt = tf.compat.v1.train.GradientDescentOptimizer(lr)\n" in code
    assert "self.opt.apply_gradients(" in code and "Session" not in code
    assert_same_output(run_legacy(source), run_migrated(code), rtol=0, atol=0)
