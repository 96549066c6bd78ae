"""``with tf.control_dependencies(...)`` blocks: those that only wait for named values unwrap (their names become
data dependencies of the statements they guard); one whose list makes its op in place is kept as a block
(analysis/flatten.py)."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated


COUNTED = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 1]))
step = tf.Variable(0, trainable=False)
BLOCK
X = np.arange(12, dtype=np.float32).reshape(4, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print([sess.run(out, {x: X * (i + 1)}) for i in range(3)], sess.run(step))
'''


@pytest.mark.parametrize("block, outcome", [
    pytest.param("with tf.control_dependencies([tf.assign_add(step, 1)]):\n"
                 "    out = tf.identity(tf.reduce_sum(tf.matmul(x, w)))", "eager", id="an op made in the header"),
    pytest.param("with tf.control_dependencies([tf.assign_add(step, 1)]):\n"
                 "    out = tf.train.GradientDescentOptimizer(0.01).minimize(tf.reduce_sum(tf.matmul(x, w)))",
                 "compat", id="an optimizer step under it"),
])
def test_an_op_made_in_a_control_dependencies_header_still_runs(block, outcome):
    # Unwrapped as a block that only scopes graph building, `with tf.control_dependencies([tf.assign_add(step, 1)])`
    # lost its op: the step never counted (a silent wrong rewrite, found by probing). The block is kept now, in the
    # run function where it stands, or the file stays compat.
    source = COUNTED.replace("BLOCK", block)
    result = migrate_source(source, "counted.py")
    assert result.outcome == outcome, result.compat_reason
    if outcome == "eager":
        assert "with tf.control_dependencies([step.assign_add(1)]):" in result.new_source
        assert_same_output(run_legacy(source), run_migrated(result.new_source))


# TF1's control dependencies act on the ops made in the block: `y = x` makes none, so a run of `y` never ran the
# update (the migrated program ran it at each run: a silent wrong rewrite, found by probing).
ALIASED = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [])
v = tf.Variable(1.0)
inc = tf.assign_add(v, 1.0)
with tf.control_dependencies([inc]):
    y = x
    h = tf.square(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: 3.0}))
    print(sess.run(v))
    print(sess.run(h, {x: 3.0}))
    print(sess.run(v))
'''


def test_a_name_bound_to_another_under_named_dependencies_does_not_wait_for_them():
    result = migrate_source(ALIASED, "aliased.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(ALIASED), run_migrated(result.new_source))


def test_a_name_bound_to_another_under_an_op_made_in_the_header_keeps_compat():
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [])\nstep = tf.Variable(0)\n"
              "with tf.control_dependencies([tf.assign_add(step, 1)]):\n    out = x\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(out, {x: 3.0}))\n    print(sess.run(step))\n")
    result = migrate_source(source, "header.py")
    assert result.outcome == "compat"
    assert "TF1 made no op for `out`" in result.compat_reason
