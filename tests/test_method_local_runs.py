"""Runs in a method that fetch what the method computes from its own values (analysis/method_local_runs)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# Packt's TensorFlow 1.x Deep Learning Cookbook, Chapter07/rbm.py (its shape): `reconstruct` builds ops on its
# numpy argument and runs them with a feed they do not read. Before: the generated method read `X`, a name it
# does not have (the self-check caught it; compat).
RBM = '''
import numpy as np
import tensorflow as tf


class RBM(object):
    def __init__(self, m, n):
        self._m, self._n = m, n
        self._W = tf.Variable(tf.reshape(tf.range(m * n, dtype=tf.float32), (m, n)) / 10.0)
        self._c = tf.Variable(np.zeros(n).astype(np.float32))
        self._b = tf.Variable(np.zeros(m).astype(np.float32))
        self._X = tf.placeholder('float', [None, m])
        h = tf.nn.sigmoid(tf.matmul(self._X, self._W) + self._c)
        self.cost = tf.reduce_mean(tf.square(self._X - self.one_pass(self._X))) + tf.reduce_mean(h)
        self._train_op = tf.train.GradientDescentOptimizer(0.1).minimize(self.cost)

    def set_session(self, session):
        self.session = session

    def one_pass(self, X):
        h = tf.nn.sigmoid(tf.matmul(X, self._W) + self._c)
        return tf.matmul(h, tf.transpose(self._W)) + self._b

    def reconstruct(self, X):
        x = tf.nn.sigmoid(self.one_pass(X))
        return self.session.run(x, feed_dict={self._X: X})

    def fit(self, X, epochs=2):
        for i in range(epochs):
            _, ob = self.session.run([self._train_op, self.cost], feed_dict={self._X: X})
            print('epoch', i, ob)


data = (np.arange(12, dtype=np.float32).reshape(4, 3) % 5) / 5.0
rbm = RBM(3, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    rbm.set_session(sess)
    print(rbm.reconstruct(data[:2]))
    rbm.fit(data)
    print(rbm.reconstruct(data[:2]))
'''


def test_a_run_of_what_the_method_computes_from_its_argument_runs_where_it_stands():
    result = migrate_source(RBM, "rbm.py")
    assert result.outcome == "eager", result.compat_reason
    assert "        return tf.nn.sigmoid(self.one_pass(X)).numpy()\n" in result.new_source
    assert_same_output(run_legacy(RBM), run_migrated(result.new_source))


@pytest.mark.parametrize("method, reason", [
    # the fetch also reads a per-run value (computed from the placeholder)
    ("    def score(self, X, k):\n        return self.session.run(self.cost * k, feed_dict={self._X: X})\n",
     "reads `self.cost`, a per-run value of the graph"),
    # computed before a run that trains: TF1 computed it at its own run, after the training
    ("    def score(self, X):\n        y = tf.reduce_sum(self._W * X[0, 0])\n"
     "        self.session.run(self._train_op, feed_dict={self._X: X})\n"
     "        return self.session.run(y, feed_dict={self._X: X})\n",
     "the method runs or changes something between computing it and the run"),
    # bound in a branch
    ("    def score(self, X, big):\n        y = X\n        if big:\n            y = X * 2.0\n"
     "        return self.session.run(tf.reduce_sum(y), feed_dict={self._X: X})\n",
     "`y` is not bound once, by a line of its own before the run"),
])
def test_other_runs_of_the_methods_values_stay_compat_with_the_reason(method, reason):
    source = RBM.replace("    def fit(self,", method + "\n    def fit(self,")
    result = migrate_source(source, "rbm.py")
    assert result.outcome == "compat"
    assert reason in result.compat_reason


def test_locals_the_method_computes_before_the_run_are_computed_where_they_stand():
    # Packt's autoencoders: `h = self.encoder(x)`, `r = self.decoder(h)`, then a run of `r`.
    method = ("    def encode(self, X):\n        return tf.nn.sigmoid(tf.matmul(X, self._W) + self._c)\n\n"
              "    def decode(self, H):\n        return tf.matmul(H, tf.transpose(self._W)) + self._b\n\n"
              "    def round_trip(self, X):\n        h = self.encode(X)\n        r = self.decode(h)\n"
              "        return self.session.run(r, feed_dict={self._X: X})\n")
    source = RBM.replace("    def fit(self,", method + "\n    def fit(self,").replace(
        "    print(rbm.reconstruct(data[:2]))\n    rbm.fit", "    print(rbm.round_trip(data[:2]))\n    rbm.fit")
    result = migrate_source(source, "rbm.py")
    assert result.outcome == "eager", result.compat_reason
    assert "        return self.decode(h).numpy()\n" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


LOADS = '''
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self):
        self.w = tf.Variable(tf.ones([2]))
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.reduce_sum(self.x * self.w)

    def set_session(self, sess):
        self.sess = sess

    def load(self, values):
        self.sess.run(tf.group(self.w.assign(values)))

    def load_shifted(self, values):
        op = tf.group(tf.assign(self.w, values + 1.0), name="load_shifted")
        self.sess.run(op)

    def out(self, xs):
        return self.sess.run(self.y, {self.x: xs})


net = Net()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    net.set_session(sess)
    net.load(np.array([3.0, 4.0], np.float32))
    print(net.out(np.ones((1, 2))))
    net.load_shifted(np.array([3.0, 4.0], np.float32))
    print(net.out(np.ones((1, 2))))
'''


def test_an_op_the_method_builds_from_its_argument_runs_where_it_stands():
    # A probe of this session's code before its fix: the run became `None`, and the variable kept its values.
    result = migrate_source(LOADS, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert "        tf.group(self.w.assign(values))\n" in result.new_source
    assert_same_output(run_legacy(LOADS), run_migrated(result.new_source))


BUMPS = LOADS.replace('''    def out(self, xs):''', '''    def bump(self, step, n):
        for i in range(n):
            self.sess.run(tf.assign_add(self.w, step * i))
            print(self.out(np.ones((1, 2))))

    def bump_doubled(self, step):
        step = step * 2.0
        self.sess.run(self.w.assign_add(step))

    def bump_by_weights(self, step):
        step = tf.reduce_sum(self.w) * step
        self.sess.run(tf.assign_add(self.w, [1.0, 1.0]))
        self.sess.run(self.w.assign_add(tf.fill([2], step)))

    def out(self, xs):''').replace('''    net.load(np.array([3.0, 4.0], np.float32))''', '''    net.bump(np.array([1.0, 0.5], np.float32), 3)
    net.bump_doubled(np.array([1.0, 2.0], np.float32))''')


def test_runs_in_a_loop_of_the_method_over_its_arguments_run_where_they_stand():
    source = BUMPS.replace("    def bump_by_weights", "    def unused_bump_by_weights").replace(
        "self.sess.run(self.w.assign_add(tf.fill([2], step)))", "pass")
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert "            self.w.assign_add(step * i)\n" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_tensor_computed_before_another_run_stays_compat():
    # TF1 computed `step` from the weights at the last run, after the update; eager code would have computed it before
    result = migrate_source(BUMPS, "net.py")
    assert result.outcome == "compat"
    assert "the method runs or changes something between computing it and the run" in result.compat_reason
