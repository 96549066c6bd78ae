"""Runs that fetch what they feed (codegen/fed_fetches): TF1 gave a fetched feed back as the array fed, a fed scalar
as a 0-d array (``array(3)``), where the eager function's value is a numpy scalar (``np.int64(3)``). Inside a
printed list the two differ: the first version printed ``[np.int64(6), np.int64(3)]`` where TF1 printed
``[np.int64(6), array(3)]``."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEADER = '''\
import tensorflow as tf
x = tf.placeholder(tf.int64, [])
r = tf.placeholder(tf.float32, [])
k = tf.placeholder(tf.int32, [2])
y = x * 2
z = r * 3.0
'''


@pytest.mark.parametrize("run, call", [
    pytest.param("print(sess.run([y, x], feed_dict={x: step}))", "as_fed_arrays(", id="an item of a list"),
    pytest.param("print(sess.run((z, r, k), {r: 0.5, k: [step, 2]}))", "as_fed_arrays(", id="items of a tuple"),
    pytest.param('print(sess.run({"y": y, "x": x}, {x: step}))', 'as_fed_arrays(', id="an item of a dict"),
    pytest.param("print(repr(sess.run(r, {r: step / 2})))", "np.asarray(", id="the fetch itself"),
    pytest.param("a, b = sess.run([z, r], {r: 1.5})\n        print([a, b])", "as_fed_arrays(", id="unpacked"),
])
@pytest.mark.parametrize("functions", ["compiled", "eager"])
def test_a_fetched_feed_comes_back_as_the_array_fed(run, call, functions):
    source = HEADER + f"with tf.Session() as sess:\n    for step in range(2):\n        {run}\n"
    migrated = migrate_source(source, "fed.py", functions=functions)
    assert migrated.outcome == "eager", migrated.compat_reason
    assert call in migrated.new_source
    assert "import numpy as np" in migrated.new_source  # (the program did not import numpy)
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


def test_a_method_fetching_its_feed_and_the_module_numpy_name():
    source = '''\
import numpy as numeric
import tensorflow as tf


class Net(object):
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [])
        self.w = tf.Variable(2.0)
        self.y = self.x * self.w

    def both(self, sess, value):
        return sess.run([self.y, self.x], feed_dict={self.x: value})


net = Net()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(net.both(sess, 1.5), numeric.float32(1.5))
'''
    migrated = migrate_source(source, "fed.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "numeric.asarray(value)" in migrated.new_source and "import numpy as np" not in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


def test_a_run_fetching_no_feed_is_written_as_before():
    source = HEADER + "with tf.Session() as sess:\n    print(sess.run([y, z], {x: 3, r: 0.5}))\n"
    migrated = migrate_source(source, "fed.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "as_fed_arrays" not in migrated.new_source and "numpy" not in migrated.new_source.split("def ")[0]
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


def test_a_dropped_run_fetching_its_feed_is_a_plain_call():
    source = '''\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
t = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.ones([2, 1]))
y = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(y - t))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        sess.run([train, y, t], {x: np.ones((2, 2)), t: np.zeros((2, 1))})
        print(sess.run(loss, {x: np.ones((2, 2)), t: np.zeros((2, 1))}))
'''
    migrated = migrate_source(source, "fed.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "as_fed_arrays" not in migrated.new_source and "call_compiled(run_train_y_t, " in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))
