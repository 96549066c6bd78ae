"""gradient-ys-named: ys computed in a tf.gradients call are named in the statement before it (eager output)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

PROGRAM = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(np.array([[0.5], [-1.0]], np.float32))


def critic(inputs):
    return tf.tanh(tf.matmul(inputs, w))


{line}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(np.round(sess.run(g, {{x: np.array([[1.0, 2.0], [0.5, -1.0]])}}), 5))
'''

NAMED = [
    ("g = tf.gradients(critic(x), x)[0]", "critic_x = critic(x)", "g = tape.gradient(critic_x, [x])[0]", "a call"),
    ("g = tf.gradients(tf.reduce_sum(critic(x)) * 2.0, [x, w])[1]", "ys = tf.reduce_sum(critic(x)) * 2.0",
     "g = tape.gradient(ys, [x, w])[1]", "arithmetic"),
]


@pytest.mark.parametrize("line, named, gradient", [c[:3] for c in NAMED], ids=[c[3] for c in NAMED])
def test_named_before_the_gradient_which_runs_after_the_tape(line, named, gradient):
    source = PROGRAM.format(line=line)
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.findings
    assert f"        {named}\n    {gradient}\n" in result.new_source, result.new_source
    assert "persistent" not in result.new_source
    assert any(f.rule == "gradient-ys-named" for f in result.findings)
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


KEPT = [
    ("g = tf.stack([tf.gradients(critic(x)[:, 0] * i, x)[0] for i in range(2)])", "in a comprehension"),
    ("g = tf.gradients(y, x)[0]", "ys already a name"),
    ("g = tf.gradients(tf.gradients(tf.reduce_sum(critic(x)), x)[0], x)[0]", "ys that take a derivative"),
]


@pytest.mark.parametrize("line", [c[0] for c in KEPT], ids=[c[1] for c in KEPT])
def test_kept(line):
    source = PROGRAM.format(line="y = critic(x)\n" + line)
    result = migrate_source(source, "case.py", select=["gradient-ys-named"])
    assert result.new_source == source
