"""Runs of a class's graph from outside the class (analysis/instance_runs): each run of the object's own
members becomes a generated method of the class, called on the object; a run the model cannot place in the
class keeps the file compat, with the reason at the run. The converted shape is the golden case
``class_graph_run_through_object``; the fuzz reproducers class-graph-* check two more."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

CLASS = """import numpy as np
import tensorflow as tf


class Net:
    def __init__(self, scale):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable([[scale], [2.0]])
        self.out = tf.matmul(self.x, self.w)
        self.loss = tf.reduce_sum(tf.square(self.out))
        self.step = tf.train.GradientDescentOptimizer(0.01).minimize(self.loss)


"""


def test_a_main_defined_before_the_class_runs_its_graph_through_the_object():
    # main() is reached before the class statement: the class is written once every run is planned.
    source = CLASS.replace("class Net:", """def main():
    net = Net(1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            print(sess.run([net.step, net.loss], {net.x: np.ones((2, 2))})[1])
        print(sess.run(net.w))


class Net:""") + "main()\n"
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert "(net.run_step_loss, x=" in result.new_source and "def run_step_loss(self, x)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_feed_dict_of_the_objects_members_bound_to_a_name_feeds_the_method_by_parameter_name():
    source = CLASS + ("net = Net(0.5)\nwith tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                      "    for step in range(3):\n        batch = {net.x: np.full((2, 2), step, np.float32)}\n"
                      "        print(sess.run([net.step, net.loss], feed_dict=batch)[1])\n")
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert "batch = {'x': np.full(" in result.new_source and "(net.run_step_loss, **batch)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("run, reason", [
    ("sess.run([net.out, other.out], {net.x: np.ones((1, 2)), other.x: np.ones((1, 2))})",
     "two fed values would both be the parameter `x`"),
    ("sess.run(net.out, feed)", "gets its feed dict built otherwise than as dict literals"),
    ("sess.run(net.hidden, {net.x: np.ones((1, 2))})", "fetches a value its class does not build in __init__: `self.hidden`"),
])
def test_runs_the_class_cannot_own_keep_compat_with_the_reason(run, reason):
    source = CLASS + "net = Net(1.0)\nother = Net(2.0)\nz = tf.constant(1.0)\n" + (
        "feed = {}\nfeed[net.x] = np.ones((1, 2))\n" if "feed)" in run else "") + (
        f"with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print({run})\n")
    result = migrate_source(source, "net.py")
    assert result.outcome == "compat"
    assert any(reason in f.message for f in result.findings if f.rule == "eager-blocker"), result.compat_reason


def test_an_update_of_an_objects_variable_runs_where_a_run_fetches_it():
    # TF1 built `inc` and ran it once, at the fetch; eager code must not run it where it was built.
    source = CLASS + ("net = Net(1.0)\ninc = tf.assign_add(net.w, [[1.0], [1.0]])\nnever = net.w.assign(net.w * 0.0)\n"
                      "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                      "    print(sess.run(net.w))\n    sess.run(inc)\n    print(sess.run(net.w))\n")
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


TRAIN = CLASS + """def train(sess, m, steps):
    for step in range(steps):
        print(sess.run([m.step, m.loss], {m.x: np.full((2, 2), step, np.float32)})[1])


net = Net(0.5)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    train(sess, net, 3)
    print(sess.run(net.w))
"""


def test_an_object_every_call_passes_to_a_function_runs_its_graph_there():
    result = migrate_source(TRAIN, "train.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def train(m, steps):" in result.new_source and "(m.run_step_loss, x=" in result.new_source
    assert_same_output(run_legacy(TRAIN), run_migrated(result.new_source))


@pytest.mark.parametrize("change", [
    ("train(sess, net, 3)", "train(sess, net, 3)\n    train(sess, Net(2.0), 1)"),  # an object no name holds
    ("train(sess, net, 3)", "run = train\n    run(sess, net, 3)"),  # the function passed along
])
def test_a_function_whose_calls_do_not_all_pass_a_known_object_keeps_compat(change):
    result = migrate_source(TRAIN.replace(*change), "train.py")
    assert result.outcome == "compat"
