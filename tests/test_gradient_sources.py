"""The tensors a gradient is taken with respect to, or stops at, are the ones TF1 meant.

* ``tf.gradients(..., stop_gradients=[a])`` stops ``a`` for that call alone (analysis/slicing): a run that also
  computes other derivatives on its one tape stays compat; a run with that gradient alone converts.
* A source bound again after the gradient is taken (``a = a + 1``) is watched where the gradient's binding is made
  (codegen/function_builder)."""
from __future__ import annotations

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [3])
w = tf.Variable([1., 2., 3.])
a = x * w
y = tf.reduce_sum((a * 2) ** 2)
stopped = tf.gradients(y + tf.reduce_sum(a * w), [a, w], stop_gradients=[a])
{other}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run({fetch}, {{x: [1., 1., 2.]}}))
'''


def test_a_stopped_gradient_beside_another_derivative_in_one_run_keeps_compat():
    # The first version stopped `a` on the run's shared tape: `plain` came out [None] where TF1 gave [24, 48, 288].
    source = PROGRAM.format(other="plain = tf.gradients(y, [w])", fetch="[stopped, plain]")
    migrated = migrate_source(source, "stopped.py")
    assert migrated.outcome == "compat"
    assert "a gradient with `stop_gradients` and other derivatives in one run" in migrated.compat_reason


def test_a_stopped_gradient_alone_in_its_run_converts_with_the_legacy_values():
    source = PROGRAM.format(other="plain = tf.gradients(y, [w])", fetch="stopped") + \
        "    print(sess.run(plain, {x: [1., 1., 2.]}))\n"
    migrated = migrate_source(source, "stopped.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "tf.stop_gradient(a)" in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


# The first version watched `a` after its last binding (outside the tape): the gradient came out [None].
REBOUND_SOURCE = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [2])
a = x * 2
y = tf.reduce_sum(a * a)
g = tf.gradients(y, a)
a = a + 1
z = tf.reduce_sum(a)
with tf.Session() as sess:
    print(sess.run([g, z], {x: [1., 2.]}))
'''


def test_a_source_bound_again_after_the_gradient_is_watched_where_the_gradient_reads_it():
    migrated = migrate_source(REBOUND_SOURCE, "rebound.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    assert "a = x * 2\n        tape.watch(a)\n" in code
    assert_same_output(run_legacy(REBOUND_SOURCE), run_migrated(code))
