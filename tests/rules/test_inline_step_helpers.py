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
