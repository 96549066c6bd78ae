"""graph-function-inputs: graph functions reading per-run globals get them as keyword-only parameters."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

DROPOUT = '''\
import numpy as np
import tensorflow as tf

keep_prob = tf.placeholder(tf.float32)
x = tf.placeholder(tf.float32, [None, 3])


def net(inp):
    w = tf.constant(np.ones((3, 2), np.float32))
    return tf.nn.dropout(tf.matmul(inp, w), keep_prob) * keep_prob


out = net(x)
with tf.Session() as sess:
    print(sess.run(out, {x: np.ones((2, 3)), keep_prob: 1.0}))
'''


def test_a_function_reading_a_placeholder_gets_it_from_its_callers():
    result = migrate_source(DROPOUT, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def net(inp, *, keep_prob):" in result.new_source
    assert "net(x, keep_prob=keep_prob)" in result.new_source
    assert_same_output(run_legacy(DROPOUT), run_migrated(result.new_source))


@pytest.mark.parametrize("use", [
    pytest.param("_, result = tf.while_loop(cond, body, [i, acc])", id="a while_loop body made once, outside any run"),
    pytest.param("step = body\n_, result = step(i, acc)", id="bound to another name"),
])
def test_a_function_passed_as_a_value_is_left_alone(use):
    # Its callers (tf.while_loop) do not pass the new parameter: `body() missing 1 required keyword-only
    # argument: 'x'`, a crash after migration. The read stays an escape, which keeps the file compat.
    source = f'''\
import tensorflow as tf

i = tf.constant(0)
acc = tf.constant(1.0)
x = tf.placeholder(tf.float32, [])


def cond(i, acc):
    return i < 5


def body(i, acc):
    return i + 1, acc * x


{use}
with tf.Session() as sess:
    print(sess.run(result, {{x: 2.0}}))
'''
    result = migrate_source(source, "loop.py")
    assert "*, x" not in result.new_source
    assert result.outcome == "compat"
    assert "`x` (placeholder) is used outside sess.run" in result.compat_reason


def test_a_function_handed_to_tf_cond_in_a_run_gets_its_inputs_through_a_lambda():
    # tf.cond calls its branch functions without arguments: handed `f1` itself, `f1(*, x, y)` raised TypeError.
    source = '''\
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
y = tf.placeholder(tf.float32, [None])


def f1():
    return tf.reduce_mean(tf.square(x - y))


def f2():
    return tf.reduce_sum(tf.abs(x - y))


out = tf.cond(tf.reduce_mean(x - y) < 0, f1, f2)
with tf.Session() as sess:
    print(sess.run(out, {x: [1., 2.], y: [3., 1.]}))
    print(sess.run(out, {x: [1., 2.], y: [0., 1.]}))
'''
    result = migrate_source(source, "cond.py")
    assert result.outcome == "eager", result.compat_reason
    assert "tf.cond(tf.reduce_mean(x - y) < 0, lambda *args: f1(*args, x=x, y=y), lambda *args: f2(*args, x=x, y=y))" \
        in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
