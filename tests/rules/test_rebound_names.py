"""rebound-names: a name graph code read, bound again before a run: the earlier value gets a name of its own."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# hunkim lab-06-1: the bias variable's name `b` is reused for a result between runs of `hypothesis`.
REUSED_VARIABLE_NAME = '''
import tensorflow as tf

X = tf.placeholder(tf.float32, [None, 2])
W = tf.Variable([[0.5, -1.0], [1.5, 0.25]], name='weight')
b = tf.Variable([0.1, -0.2], name='bias')
hypothesis = tf.nn.softmax(tf.matmul(X, W) + b)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a = sess.run(hypothesis, feed_dict={X: [[1.0, 2.0]]})
    b = sess.run(hypothesis, feed_dict={X: [[3.0, -1.0]]})
    c = sess.run(hypothesis, feed_dict={X: [[0.5, 0.5]]})
    print(a, b, c)
'''

CHAIN = '''
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
a = tf.constant([1.0, 2.0, 3.0])
y = x * a
a *= 2.0
h = y + a
a -= 1.0
with tf.Session() as sess:
    print(sess.run([y, h, a], {x: [1.0, 1.0, 1.0]}))
'''


@pytest.mark.parametrize("source, expected", [
    pytest.param(REUSED_VARIABLE_NAME, ["b_2 = tf.Variable([0.1, -0.2], name='bias')", "tf.matmul(X, W) + b_2"],
                 id="variable name reused for a result"),
    pytest.param(CHAIN, ["a_2 = tf.constant([1.0, 2.0, 3.0])", "a_3 = a_2 * 2.0", "a = a_3 - 1.0"],
                 id="augmented assignments in a chain"),
])
def test_each_value_keeps_the_name_its_readers_see(source, expected):
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    for line in expected:
        assert line in result.new_source, result.new_source
    assert any(f.rule == "rebound-names" for f in result.findings)
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_function_that_reads_the_name_when_called_keeps_compat():
    # `report()` reads whichever `b` is bound when it is called: renaming the first would change it.
    source = REUSED_VARIABLE_NAME.replace("with tf.Session()", "def report():\n    return b\n\n\nwith tf.Session()")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "bound again after graph code reads it" in result.compat_reason
    assert not any(f.rule == "rebound-names" for f in result.findings)


# A DQN's _build_net names the eval and the target network's weights `w1` both: the target network's runs
# read its own `w1`, the eval network's runs the first one, although __init__ ends holding the target's.
TWO_NETWORKS_ONE_NAME = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self):
        self.s = tf.placeholder(tf.float32, [None, 2])
        with tf.variable_scope('eval_net'):
            w1 = tf.get_variable('w1', [2, 3], initializer=tf.constant_initializer(0.5))
            self.q_eval = tf.matmul(self.s, w1)
        with tf.variable_scope('target_net'):
            w1 = tf.get_variable('w1', [2, 3], initializer=tf.constant_initializer(2.0))
            self.q_next = tf.matmul(self.s, w1)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def show(self):
        x = np.ones((1, 2))
        print(self.sess.run(self.q_next, {self.s: x}), self.sess.run(self.q_eval, {self.s: x}))


Agent().show()
'''


def test_in_a_class_each_network_keeps_its_own_weights():
    result = migrate_source(TWO_NETWORKS_ONE_NAME, "agent.py")
    assert result.outcome == "eager", result.findings
    assert "self.w1_2 = w1_2" in result.new_source and "self.w1 = w1" in result.new_source
    assert_same_output(run_legacy(TWO_NETWORKS_ONE_NAME), run_migrated(result.new_source))


def test_a_collection_reads_the_renamed_variable_too():
    source = TWO_NETWORKS_ONE_NAME.replace(
        "        self.sess = tf.Session()\n",
        "        e_params = tf.trainable_variables(scope='eval_net')\n"
        "        self.double = [tf.assign(e, e * 2.0) for e in e_params]\n        self.sess = tf.Session()\n").replace(
        "        x = np.ones((1, 2))\n", "        x = np.ones((1, 2))\n        self.sess.run(self.double)\n")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "eager", result.findings
    assert "e_params = [w1_2]" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_collection_that_also_held_the_variable_a_name_named_first_keeps_compat():
    """TF1's collection holds the first `w`, which no name reaches once `w` is bound again."""
    source = """
import tensorflow as tf
with tf.variable_scope('eval_net'):
    w = tf.get_variable('w', [2], initializer=tf.constant_initializer(0.5))
with tf.variable_scope('target_net'):
    w = tf.get_variable('w', [2], initializer=tf.constant_initializer(2.0))
double = [tf.assign(e, e * 2.0) for e in tf.trainable_variables(scope='eval_net')]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(double))
"""
    result = migrate_source(source, "nets.py")
    assert result.outcome == "compat"
    assert "`w` is bound to another variable after the one it named first" in result.compat_reason


def test_in_a_class_a_value_it_cannot_rename_keeps_compat():
    """A lambda reads `w1` when called: the rename is refused, and the class stays compat, not wrong."""
    source = TWO_NETWORKS_ONE_NAME.replace(
        "            self.q_eval = tf.matmul(self.s, w1)\n",
        "            self.q_eval = tf.matmul(self.s, w1)\n            self.weights = lambda: w1\n")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`w1` is bound again in __init__ after graph code read it" in result.compat_reason


# BinRoot's TensorFlow-Book ch03 regularization notebook: the loop rebinds the hyperparameter the graph
# was built with. TF1 kept the value it had when `cost` was built (0.0) in every run.
LOOP_REBINDS_A_BUILD_VALUE = '''
import numpy as np
import tensorflow as tf

xs = np.linspace(-1.0, 1.0, 20).astype(np.float32)
ys = 3.0 * xs + 1.0
X = tf.placeholder(tf.float32)
Y = tf.placeholder(tf.float32)
reg_lambda = 0.
w = tf.Variable([0., 0.])
cost = tf.reduce_mean(tf.square(Y - (w[0] * X + w[1]))) + reg_lambda * tf.reduce_sum(tf.square(w))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for reg_lambda in np.linspace(0, 1, 3):
    for epoch in range(10):
        sess.run(train_op, feed_dict={X: xs, Y: ys})
    print(reg_lambda, sess.run(cost, feed_dict={X: xs, Y: ys}))
'''


def test_a_loop_around_the_run_that_rebinds_a_build_value():
    # Before: the loop's `reg_lambda` (0.0, 0.5, 1.0, a float64) reached the traced function: it crashed on the
    # dtype, and with a float32 value it would have trained with the first loop value.
    result = migrate_source(LOOP_REBINDS_A_BUILD_VALUE, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "reg_lambda_2 = 0." in result.new_source
    assert "reg_lambda_2 * tf.reduce_sum" in result.new_source
    assert "for reg_lambda in np.linspace(0, 1, 3):" in result.new_source
    assert_same_output(run_legacy(LOOP_REBINDS_A_BUILD_VALUE), run_migrated(result.new_source))


def test_a_loop_that_reads_the_old_value_in_what_it_iterates_keeps_compat():
    source = LOOP_REBINDS_A_BUILD_VALUE.replace("np.linspace(0, 1, 3)", "[reg_lambda, 0.5]")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`reg_lambda` is bound again after graph code reads it" in result.compat_reason


# A helper reads a module name when graph code calls it; the name is bound again before the run.
HELPER_READS_A_REBOUND_NAME = '''
import tensorflow as tf

x = tf.placeholder(tf.float32)
scale = 3.0


def model(x):
    return x * scale


def network(x):
    return model(x) + 1.0


y = network(x)
scale = 10.0
with tf.Session() as sess:
    print(sess.run(y, {x: 1.0}))
'''


def test_a_name_a_called_function_reads_bound_again_keeps_compat():
    # Before: eager, printing 11.0 where TF1 printed 4.0 (the function read `scale` when the run traced it).
    result = migrate_source(HELPER_READS_A_REBOUND_NAME, "case.py")
    assert result.outcome == "compat"
    assert "`scale`, which `model` reads when graph code calls it (`network`)" in result.compat_reason


def test_a_name_a_called_function_reads_bound_before_the_call_converts():
    source = HELPER_READS_A_REBOUND_NAME.replace("scale = 10.0\n", "").replace("y = network(x)\n",
                                                                                 "scale = 10.0\ny = network(x)\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("change, reason", [
    pytest.param("params[0] = 5.0\n", "`params` is bound again after graph code reads it", id="item changed"),
    pytest.param("def set_params(value):\n    global params\n    params = value\n\n\nset_params([5.0, 6.0])\n",
                 "`params`, which graph code reads, is bound or changed by `set_params`", id="global in a function"),
    # (the first version converted these two and printed 16.0 where TF1 printed 4.0)
    pytest.param("def set_first():\n    params[0] = 5.0\n\n\nset_first()\n",
                 "`params`, which graph code reads, is bound or changed by `set_first`", id="item changed by a function"),
    pytest.param("def reset():\n    restore()\n\n\ndef restore():\n    params.insert(0, 5.0)\n\n\n"
                 "for _ in range(1):\n    reset()\n",
                 "`params`, which graph code reads, is bound or changed by `restore`", id="changed through a caller"),
])
def test_a_value_graph_code_read_changed_before_the_run_keeps_compat(change, reason):
    # Before: the item assignment was renamed into a NameError that only the self-check caught; the `global`
    # rebinding converted and printed 16.0 where TF1 printed 4.0.
    source = ("import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\nparams = [1.0, 3.0]\n"
              "y = x * params[0] + params[1]\n" + change +
              "with tf.Session() as sess:\n    print(sess.run(y, {x: 1.0}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert reason in result.compat_reason
    assert not any(f.rule == "rebound-names" for f in result.findings)


def test_a_function_changing_a_value_graph_code_reads_called_before_the_build_converts():
    source = ("import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\nparams = [1.0, 3.0]\n\n\n"
              "def set_first():\n    params[0] = 5.0\n\n\nset_first()\ny = x * params[0] + params[1]\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: 1.0}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
