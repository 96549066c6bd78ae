"""while-loops: tf.while_loop over a one-element list keeps TF1's result (the element) under TF2."""
from __future__ import annotations

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

COUNT = '''
import numpy as np
import tensorflow as tf

n = tf.placeholder(tf.int32, [])
total = tf.while_loop(lambda i: i < n, lambda i: i * 2 + 1, [tf.constant(0)])
halves = tf.while_loop(cond=lambda v: tf.reduce_sum(v) > 1.0, body=lambda v: v / 2.0,
                       loop_vars=[tf.constant([4.0, 4.0])])
with tf.Session() as sess:
    print(sess.run(total, {n: 20}))
    print(sess.run([total, halves], {n: 3}))
'''


def test_the_loop_returns_the_element_as_tf1_did():
    result = migrate_source(COUNT, "count.py")
    assert result.outcome == "eager", result.compat_reason
    assert "tf.while_loop(cond=lambda i: i < n, body=lambda i: (i * 2 + 1,), loop_vars=[tf.constant(0)])[0]" \
        in result.new_source
    assert_same_output(run_legacy(COUNT), run_migrated(result.new_source))


def test_a_body_that_is_not_a_lambda_keeps_compat():
    source = COUNT.replace("n = tf.placeholder", "def step(i):\n    return i * 2 + 1\n\n\nn = tf.placeholder").replace(
        "lambda i: i * 2 + 1", "step")
    result = migrate_source(source, "count.py")
    assert result.outcome == "compat"
    assert "tf.while_loop over a one-element list whose body is not a lambda" in result.compat_reason


def test_its_own_output_migrated_again_is_left_as_it_is():
    first = migrate_source(COUNT, "count.py")
    again = migrate_source(first.new_source, "count.py")
    assert again.outcome in ("eager", "unchanged"), again.compat_reason
    assert again.new_source == first.new_source
