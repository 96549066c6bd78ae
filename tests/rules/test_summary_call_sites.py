"""summary-call-sites: a summary a function registers of its argument or its return value moves after its call."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.summary_call_sites import SummaryCallSites
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

PROGRAM = '''import numpy as np
import tensorflow as tf


def loss(y, t):
    with tf.name_scope('loss'):
        cross_entropy = tf.reduce_mean(tf.square(y - t))
    tf.summary.scalar('cross_entropy', cross_entropy)
    return cross_entropy


def training(loss):
    tf.summary.scalar('loss_again', loss)
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    return optimizer.minimize(loss)


x = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(0.5)
y = x * w
loss = loss(y, x * 2.0)
train = training(loss)
merged = tf.summary.merge_all()
sess = tf.Session()
sess.run(tf.global_variables_initializer())
writer = tf.summary.FileWriter(LOGDIR, sess.graph)
for step in range(3):
    summary, _ = sess.run([merged, train], {x: np.ones((2, 1))})
    writer.add_summary(summary, step)
print(sess.run(w))
'''


def _rule_alone(source: str) -> str:
    return apply_alone(SummaryCallSites(), source, "summaries.py")


def test_summaries_of_a_return_value_and_an_argument_move_after_the_calls(tmp_path):
    code = _rule_alone(PROGRAM)
    assert "loss = loss(y, x * 2.0)\ntf.summary.scalar('cross_entropy', loss)\n" in code
    assert "train = training(loss)\ntf.summary.scalar('loss_again', loss)\n" in code
    source = PROGRAM.replace("LOGDIR", repr(str(tmp_path / "logs")))
    result = migrate_source(source, "summaries.py")
    assert result.outcome == "eager", result.findings
    assert "merged = {'cross_entropy': loss_2, 'loss_again': loss_2}" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source.replace("logs", "logs_2")))


@pytest.mark.parametrize("change, why", [
    (("    tf.summary.scalar('cross_entropy', cross_entropy)\n", "        tf.summary.scalar('cross_entropy', "
      "cross_entropy)\n"), "under the function's own name scope"),
    (("cross_entropy = tf.reduce_mean(tf.square(y - t))", "cross_entropy = tf.reduce_mean(tf.square(y - t), "
      "name='cross_entropy')\n    cross_entropy = tf.identity(cross_entropy)"), "rebound, and its tag taken"),
    (("loss = loss(y, x * 2.0)\n", "loss(y, x)\nloss = loss(y, x * 2.0)\n"), "called twice"),
    (("loss = loss(y, x * 2.0)\n", "loss = loss(y, x * 2.0)\nmore = loss * 1.0\n"), "no change: still once"),
])
def test_summaries_that_depend_on_the_function_stay(change, why):
    code = _rule_alone(PROGRAM.replace(*change))
    stays = "    tf.summary.scalar('cross_entropy'" in code or "        tf.summary.scalar('cross_entropy'" in code
    assert stays == (why != "no change: still once"), why


def test_an_argument_that_is_not_a_plain_name_keeps_the_summary():
    code = _rule_alone(PROGRAM.replace("train = training(loss)", "train = training(loss * 2.0)"))
    assert "    tf.summary.scalar('loss_again', loss)" in code
