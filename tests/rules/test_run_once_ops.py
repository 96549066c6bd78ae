"""run-once-ops: an op bound in a loop and run only by the next statement -> built in that run."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# BinRoot's TensorFlow-Book, ch02 `spikes.py` (its shape): an update built and run at once, in a branch of a
# loop, under an InteractiveSession. Before: compat ("`updater` is not a graph value the analysis knows").
SPIKES = '''
import tensorflow as tf
sess = tf.InteractiveSession()
raw_data = [1., 2., 8., -1., 0., 5.5, 6., 13]
spike = tf.Variable(False)
spike.initializer.run()
for i in range(1, len(raw_data)):
    if raw_data[i] - raw_data[i - 1] > 5:
        # flag it
        updater = tf.assign(spike, tf.constant(True))
        updater.eval()
    else:
        tf.assign(spike, False).eval()
    print("Spike", spike.eval())
sess.close()
'''

SESSION_RUNS = '''
import numpy as np
import tensorflow as tf
v = tf.Variable(1.0)
one = tf.constant(1.0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        double = tf.assign(v, v * 2.0)
        sess.run(double)
        for j in range(2):
            bump = tf.assign_add(v, 1.0)
            done, _ = sess.run([one, bump])  # (a fetch that reads `v` would race the update in TF1)
            print(i, j, done)
    print(sess.run(v))
'''


@pytest.mark.parametrize("source", [SPIKES, SESSION_RUNS])
def test_ops_run_once_where_built_convert(source):
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert any(f.rule == "run-once-ops" for f in result.findings)
    assert "updater" not in result.new_source and "double =" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_the_comment_above_the_binding_stays():
    result = migrate_source(SPIKES, "case.py")
    assert "        # flag it\n        spike.assign(tf.constant(True))" in result.new_source


def test_the_comment_after_the_binding_goes_above_the_run():
    # chiphuyen's logistic regression (quixoteji's copy, probe 33): `accuracy = tf.reduce_sum(...)  # need
    # numpy.count_nonzero(boolarr) :(` then `sess.run(accuracy)` in the test loop; the comment kept the pair apart
    # and the file compat ("`accuracy` is not a graph value the analysis knows here").
    source = SPIKES.replace("        # flag it\n", "").replace(
        "tf.assign(spike, tf.constant(True))", "tf.assign(spike, tf.constant(True))  # flag it")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "        # flag it\n        spike.assign(tf.constant(True))" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("loop", [
    # run again after the loop: TF1 ran the last iteration's op once more
    "for i in range(3):\n    upd = tf.assign_add(v, float(i))\n    sess.run(upd)\nsess.run(upd)\n",
    # not the next statement: something runs between the build and the run
    "for i in range(3):\n    upd = tf.assign_add(v, float(i))\n    sess.run(v)\n    sess.run(upd)\n",
    # run twice by the next statement's loop
    "for i in range(3):\n    upd = tf.assign_add(v, 1.0)\n    for j in range(2): sess.run(upd)\n",
    # a fetch computed before it in the same run
    "for i in range(3):\n    upd = tf.assign_add(v, 1.0)\n    sess.run([v + 1.0, upd])\n",
])
def test_other_uses_keep_the_name(loop):
    source = ("import tensorflow as tf\nv = tf.Variable(1.0)\nsess = tf.Session()\n"
              "sess.run(tf.global_variables_initializer())\n" + loop + "print(sess.run(v))\n")
    result = migrate_source(source, "case.py")
    assert not any(f.rule == "run-once-ops" for f in result.findings)
    assert "upd = " in result.new_source


def test_outside_loops_nothing_changes():
    source = ("import tensorflow as tf\nv = tf.Variable(1.0)\nsess = tf.Session()\n"
              "sess.run(tf.global_variables_initializer())\nupd = tf.assign_add(v, 1.0)\nsess.run(upd)\n"
              "print(sess.run(v))\n")
    result = migrate_source(source, "case.py")
    assert not any(f.rule == "run-once-ops" for f in result.findings)


METHODS = '''
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self):
        self.w = tf.Variable(tf.ones([2, 3]))
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.logits = tf.matmul(self.x, self.w)
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(self.logits ** 2))

    def set_session(self, sess):
        self.sess = sess

    def predict(self, X):
        pred = tf.argmax(self.logits, 1)
        return self.sess.run(pred, {self.x: X})

    def fit(self, X):
        for i in range(2):
            step = self.train
            self.sess.run(step, {self.x: X})


net = Net()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    net.set_session(sess)
    net.fit(np.array([[1.0, -2.0]], np.float32))
    print(net.predict(np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)))
'''


def test_ops_and_members_bound_in_methods_and_run_at_once_are_the_class_runs():
    # Before: compat ("`self.train` is used outside sess.run in `fit`"; `pred` a name the generated method lacks).
    result = migrate_source(METHODS, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "pred =" not in result.new_source and "step =" not in result.new_source
    assert_same_output(run_legacy(METHODS), run_migrated(result.new_source))
