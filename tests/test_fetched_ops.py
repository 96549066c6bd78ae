"""Ops built in a fetch (`sess.run(tf.group(tf.assign_add(v, 1.0)))`): the converted run still runs them.

Before: eager code computing the fetch where the run stood wrote `None` in its place, and a generated function
computing it returned None for it without building it: the update never ran (silent wrong rewrites, found by probes
written around the method-local runs of analysis/method_local_runs)."""
from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

PROGRAM = '''
import numpy as np
import tensorflow as tf
v = tf.Variable(1.0)
x = tf.placeholder(tf.float32, [2])
total = tf.reduce_sum(x) * 2.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        sess.run(tf.group(tf.assign_add(v, 1.0)))
        print(sess.run(v))
    for i in range(2):
        _, t = sess.run([tf.group(tf.assign_add(v, 10.0)), total], {x: np.ones(2)})
        print(t, sess.run(v))
    sess.run(tf.group(tf.assign_add(v, 100.0)), {x: np.ones(2)})
    print(sess.run(v))
'''


def test_ops_built_in_a_fetch_run():
    result = migrate_source(PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "    tf.group(v.assign_add(1.0))\n" in code  # where the run stood
    assert "    tf.group(v.assign_add(10.0))\n    return [None, total]\n" in code  # in the run function
    assert_same_output(run_legacy(PROGRAM), run_migrated(code))
