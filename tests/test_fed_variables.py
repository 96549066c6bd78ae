"""A variable fed in a run keeps compat, with the reason at the run (analysis/slicing). TF1 let a run replace any
tensor, a variable's too, but what the feed replaced depended on how each op read the variable: ops reading a
reference variable's own tensor saw the fed value, other reads did not. alexchung16's learning-rate lessons feed
the global step to plot schedules (``feed_dict={global_step_op: step}``); TF1's schedule read the step through a
read of its own and printed the undecayed rate, and the fetched step was the fed one. A function parameter in the
variable's place would replace every read: given the variable's dtype, the converted schedule printed decayed rates
(0.05 where TF1 printed 0.1)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source

SCHEDULE = '''\
import tensorflow as tf

global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.1, global_step, 3, 0.5, staircase=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(0, 8, 2):
        print(step, sess.run([lr, global_step], feed_dict={global_step: step}))
    print(sess.run(global_step))
'''

WEIGHT = '''\
import numpy as np
import tensorflow as tf

w = {made}
b = tf.Variable(0.5)
y = w * 3.0 + b
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {{w: {value}}}))
    print(sess.run([y, b], feed_dict={{b: 2}}))
    print(sess.run(y))
'''


@pytest.mark.parametrize("source, key", [
    pytest.param(SCHEDULE, "global_step", id="the global step fed to a schedule"),
    pytest.param(WEIGHT.format(made="tf.Variable(1.0)", value="5"), "w", id="a weight"),
    pytest.param(WEIGHT.format(made="tf.Variable(np.ones(2))", value="[1, 2]"), "w", id="of a dtype not written"),
])
def test_a_fed_variable_keeps_compat_with_the_reason(source, key):
    migrated = migrate_source(source, "fed.py")
    assert migrated.outcome == "compat"
    assert f"`{key}`, a variable, is fed: TF1 gave the fed value to the ops reading the variable's own tensor" \
        in migrated.compat_reason
