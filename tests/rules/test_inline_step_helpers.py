"""inline-step-helpers: a module function that builds an optimizer step, called once, runs where the call stands."""

import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.inline_step_helpers import InlineStepHelpers
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

PROGRAM = '''import numpy as np
import tensorflow as tf


def training(loss, rate=0.1):
    optimizer = tf.train.MomentumOptimizer(rate, 0.9)
    step = optimizer.minimize(loss)
    return step


x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
cost = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train_op = training(cost)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(4):
        sess.run(train_op, {x: np.ones((3, 2), np.float32)})
    print(sess.run(cost, {x: np.ones((3, 2), np.float32)}))
'''


def _rule_alone(source: str) -> str:
    return apply_alone(InlineStepHelpers(), source, "case.py")


def test_the_body_replaces_the_call_with_the_arguments_and_the_target():
    code = _rule_alone(PROGRAM)
    assert "def training" not in code
    assert ("cost = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
            "optimizer = tf.train.MomentumOptimizer(0.1, 0.9)\ntrain_op = optimizer.minimize(cost)\n") in code


def test_an_argument_that_is_an_expression_is_bound_once_under_the_parameter_name():
    code = _rule_alone(PROGRAM.replace("training(cost)", "training(cost * 2.0)"))
    assert "loss = cost * 2.0\noptimizer = tf.train.MomentumOptimizer(0.1, 0.9)\n" in code
    assert "train_op = optimizer.minimize(loss)\n" in code


def test_one_optimizer_made_once_and_the_same_numbers():
    result = migrate_source(PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert result.new_source.count("MomentumOptimizer(") == 1 and "training(" not in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


def test_a_local_the_module_uses_elsewhere_gets_a_fresh_name():
    source = PROGRAM.replace("cost = tf.reduce_mean", "optimizer = 'sgd'\ncost = tf.reduce_mean").replace(
        "    print(sess.run(cost", "    print(optimizer, sess.run(cost")
    code = _rule_alone(source)
    assert "optimizer_2 = tf.train.MomentumOptimizer" in code and "optimizer_2.minimize(cost)" in code
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("change, why", [
    (("train_op = training(cost)\n", "train_op = training(cost)\nagain = training\n"), "named other than called"),
    (("train_op = training(cost)\n", "training(cost)\ntrain_op = training(cost)\n"), "a call whose value is dropped"),
    (("    return step\n", "    if loss is None:\n        return None\n    return step\n"), "an early return"),
    (("def training(loss, rate=0.1):", "def training(loss, *rates):"), "*args"),
    (("    step = optimizer.minimize(loss)\n", "    step = optimizer.minimize(loss)\n"
                                             "    tf.Session().run(step)\n"), "it runs the graph"),
    (("train_op = training(cost)\n", "for _ in range(1):\n    train_op = training(cost)\n"), "called in a loop"),
])
def test_helpers_that_are_not_a_straight_inline_stay(change, why):
    source = PROGRAM.replace(*change)
    assert "def training(" in _rule_alone(source), why


# A helper returning a tuple of the loss and its step, into names: each returned local takes its target's name, and a
# run of the loss alone needs the loss's line, not the step (it converted wrongly: the loss's function trained too,
# caught only because the tuple read a name the step's tape left unbound).
TUPLE_PROGRAM = '''import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.0)


def build_model(x):
    pred = x * w
    cost = tf.reduce_mean(tf.square(pred - 2.0))
    opt = tf.train.GradientDescentOptimizer(0.1)
    return pred, cost, opt.minimize(cost)


pred, loss, train_op = build_model(x)
xs = np.array([1., 2.], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run(loss, {x: xs}))
        sess.run(train_op, {x: xs})
    print(sess.run(w))
'''


def test_a_returned_tuple_binds_each_target_on_its_own_line():
    code = _rule_alone(TUPLE_PROGRAM)
    assert ("pred = x * w\nloss = tf.reduce_mean(tf.square(pred - 2.0))\nopt = tf.train.GradientDescentOptimizer(0.1)\n"
            "train_op = opt.minimize(loss)\n") in code
    assert "pred, loss, train_op =" not in code


def test_a_returned_tuple_converts_with_the_legacy_numbers():
    migrated = migrate_source(TUPLE_PROGRAM, "case.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source
    assert_same_output(run_legacy(TUPLE_PROGRAM), run_migrated(migrated.new_source))


def test_values_that_read_an_earlier_target_stay_one_tuple_assignment():
    source = TUPLE_PROGRAM.replace("pred, loss, train_op = build_model(x)", "w2, pred, train_op = build_model(x)")
    source = source.replace("return pred, cost, opt.minimize(cost)", "return cost, pred * w2, opt.minimize(cost)")
    source = source.replace("w = tf.Variable(1.0)", "w = tf.Variable(1.0)\nw2 = tf.constant(3.0)")
    code = _rule_alone(source)
    assert "w2, pred, train_op = cost, pred_2 * w2, opt.minimize(cost)" in code
