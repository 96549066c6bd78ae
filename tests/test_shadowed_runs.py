"""Runs in functions and methods planned with the module's graph that read the function's own names
(analysis/shadowed_runs)."""
import pytest

from tests.twins import assert_same_output, run_compat, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# The shape of dennybritz/reinforcement-learning's estimator tests (a tf.test.TestCase whose methods build an
# object and run it through `self.test_session()`), with a module-level object of the same class. Before: the
# method's run became a module-level run function of the module's `model`: eager, and its output crashed
# (`'Model' object has no attribute 'x'`); where the class kept the fetched member, it would have printed the
# module object's value.
METHOD_LOCAL = '''
import tensorflow as tf


class Model:
    def __init__(self, scale):
        self.w = tf.Variable(scale)
        self.y = self.w * 2.0


model = Model(2.0)
sess = tf.Session()
sess.run(tf.global_variables_initializer())


class Check:
    def run(self):
        model = Model(4.0)
        sess.run(tf.global_variables_initializer())
        print(sess.run(model.y))


Check().run()
print(sess.run(model.y))
'''


def test_a_methods_run_of_its_own_object_stays_compat_with_the_reason_at_the_run():
    result = migrate_source(METHOD_LOCAL, "check.py")
    assert result.outcome == "compat"
    assert "the run reads `model`, a name `run` binds itself" in result.compat_reason
    blocker = next(f for f in result.findings if f.rule == "eager-blocker" and "binds itself" in f.message)
    assert blocker.line == 20
    assert_same_output(run_legacy(METHOD_LOCAL), run_compat(result.new_source))


@pytest.mark.parametrize("binding", [
    "        for model in [Model(4.0)]:\n            pass\n",  # a loop target
    "        model, other = Model(4.0), 1\n",  # an unpacking
])
def test_every_way_a_method_binds_the_name_counts(binding):
    source = METHOD_LOCAL.replace("        model = Model(4.0)\n", binding)
    result = migrate_source(source, "check.py")
    assert result.outcome == "compat"
    assert "a name `run` binds itself" in result.compat_reason


def test_a_name_the_function_declares_global_is_the_modules():
    # (`model.w`: a variable, which the eager class keeps)
    source = METHOD_LOCAL.replace("        model = Model(4.0)\n", "        global model\n").replace(
        "        print(sess.run(model.y))", "        print(sess.run(model.w))")
    result = migrate_source(source, "check.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_method_reading_what_the_modules_converted_object_drops_stays_compat_at_the_read():
    # Before: the class's methods were not looked at; the run read `model.y`, which the eager class has not.
    source = METHOD_LOCAL.replace("        model = Model(4.0)\n", "")
    result = migrate_source(source, "check.py")
    assert result.outcome == "compat"
    assert "`model.y` is read outside the class, and the converted `Model` has no `y`" in result.compat_reason
    lines = {f.line for f in result.findings if f.rule == "eager-blocker" and "outside the class" in f.message}
    assert lines == {19}  # (the module-level run of `model.y` is a run of the class's graph: converted)


def test_a_module_level_functions_local_object_stays_compat():
    source = METHOD_LOCAL.replace("class Check:\n    def run(self):\n", "def check():\n").replace(
        "        model = Model(4.0)\n        sess.run(tf.global_variables_initializer())\n"
        "        print(sess.run(model.y))\n",
        "    model = Model(4.0)\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(model.y))\n"
    ).replace("Check().run()", "check()")
    result = migrate_source(source, "check.py")
    assert result.outcome == "compat"
    assert "the run reads `model`, a name `check` binds itself" in result.compat_reason


# MorvanZhou's compute_accuracy: ops built on a run's numpy result, in the function, and run whole. The run
# function is given the eager local: still converted.
EAGER_LOCAL = '''
import numpy as np
import tensorflow as tf

xs = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])
prediction = tf.nn.softmax(tf.matmul(xs, w))
sess = tf.Session()
sess.run(tf.global_variables_initializer())


def compute_accuracy(v_xs, v_ys):
    y_pre = sess.run(prediction, feed_dict={xs: v_xs})
    correct = tf.equal(tf.argmax(y_pre, 1), tf.argmax(v_ys, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return sess.run(accuracy, feed_dict={xs: v_xs})


print(compute_accuracy(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32), np.array([[1, 0], [1, 0]])))
'''


def test_a_whole_local_holding_an_eager_value_is_still_run_by_the_function():
    result = migrate_source(EAGER_LOCAL, "accuracy.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(EAGER_LOCAL), run_migrated(result.new_source))


# A method of the graph's own class reads `self`: the class analysis plans it (not this check).
OWN_CLASS = '''
import tensorflow as tf


class Model:
    def __init__(self, scale):
        self.w = tf.Variable(scale)
        self.y = self.w * 2.0

    def predict(self, sess):
        return sess.run(self.y)


model = Model(2.0)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(model.predict(sess))
'''


def test_a_run_of_self_in_the_graphs_class_still_converts():
    result = migrate_source(OWN_CLASS, "own.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(OWN_CLASS), run_migrated(result.new_source))


def test_a_method_that_mutates_its_object_does_not_bind_self():
    # lazyprogrammer's a3c worker: `self.update(...)` in the method (a call Python does not bind a name with).
    source = OWN_CLASS.replace("    def predict(self, sess):\n",
                               "    def update(self):\n        self.calls = 1\n\n"
                               "    def predict(self, sess):\n        self.update()\n")
    result = migrate_source(source, "own.py")
    assert "binds itself" not in result.compat_reason
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
