"""Runs that differentiate derivatives get one tape per derivative order (codegen.nested_tapes)."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

THIRD_ORDER = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
f = tf.reduce_sum(x ** 4)
d1 = tf.gradients(f, x)[0]
s1 = tf.reduce_sum(d1)
d2 = tf.gradients(s1, x)[0]
d3 = tf.gradients(tf.reduce_sum(d2), x)[0]  # ys computed in the call: named before it
with tf.Session() as sess:
    print(sess.run([d1, d2, d3], {x: np.array([1.0, 2.0])}))
'''


def test_each_order_gets_its_tape_inside_the_next():
    result = migrate_source(THIRD_ORDER, "third.py")
    assert result.outcome == "eager", result.findings
    body = result.new_source.split("def run_d1_d2_d3(x):\n")[1]
    assert body.startswith(
        "    with tf.GradientTape() as tape:\n"
        "        tape.watch(x)\n"
        "        with tf.GradientTape() as inner_tape_2:\n"
        "            inner_tape_2.watch(x)\n"
        "            with tf.GradientTape() as inner_tape:\n"
        "                inner_tape.watch(x)\n"
        "                f = tf.reduce_sum(x ** 4)\n"
        "            d1 = inner_tape.gradient(f, [x])[0]\n"
        "            s1 = tf.reduce_sum(d1)\n"
        "        d2 = inner_tape_2.gradient(s1, [x])[0]\n"
        "        reduce_sum_d2 = tf.reduce_sum(d2)\n"
        "    d3 = tape.gradient(reduce_sum_d2, [x])[0]  # ys computed in the call: named before it\n"
        "    return [d1, d2, d3]\n"), body
    assert_same_output(run_legacy(THIRD_ORDER), run_migrated(result.new_source))


INTERLEAVED = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
f = tf.reduce_sum(tf.sin(x) * x)
d1 = tf.gradients(f, x)[0]
d2 = tf.gradients(tf.reduce_sum(d1 ** 2), x)[0]
g = tf.reduce_sum(tf.exp(x))
dg = tf.gradients(g, x)[0]
with tf.Session() as sess:
    print(sess.run([d2, dg], {x: np.array([0.5, 1.5])}))
'''


def test_a_lower_order_after_a_higher_one_keeps_one_recording_tape():
    """Nesting cannot put `dg` (first order) after `d2` (second): one persistent tape records everything."""
    result = migrate_source(INTERLEAVED, "interleaved.py")
    assert result.outcome == "eager", result.findings
    assert "inner_tape" not in result.new_source
    assert "with tf.GradientTape(persistent=True) as tape:" in result.new_source
    assert_same_output(run_legacy(INTERLEAVED), run_migrated(result.new_source))
