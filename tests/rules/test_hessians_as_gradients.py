"""hessians-as-gradients: tf.hessians as a gradient statement and a Jacobian statement (eager output only)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

PROGRAM = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
w = tf.Variable(np.array([0.5, -1.0], np.float32))
f = tf.reduce_sum(x ** 3) * tf.reduce_sum(w ** 2)
{line}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(np.round(sess.run(h, {{x: np.array([1.0, 2.0, 3.0])}}), 4))
'''

SPLIT = [
    ("h = tf.hessians(f, x)", "df_dx = inner_tape.gradient(f, [x])[0]", "h = [tape.jacobian(df_dx, x)]",
     "one tensor"),
    ("h = tf.hessians(f, [x, w])[1]", "df_dx, df_dw = inner_tape.gradient(f, [x, w])",
     "h = tape.jacobian(df_dw, w)", "a list literal, indexed"),
]


@pytest.mark.parametrize("line, gradients, hessian", [c[:3] for c in SPLIT], ids=[c[3] for c in SPLIT])
def test_split_into_two_derivative_orders(line, gradients, hessian):
    source = PROGRAM.format(line=line)
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.findings
    assert f"        {gradients}\n    {hessian}\n" in result.new_source, result.new_source  # outside both tapes
    assert "with tf.GradientTape() as tape:" in result.new_source and "persistent" not in result.new_source
    assert any(f.rule == "hessians-as-gradients" for f in result.findings)
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


KEPT = [
    ("h = tf.hessians(f, x, gate_gradients=True)", "TF1's other arguments"),
    ("xs = [x]\nh = tf.hessians(f, xs)", "xs is a name, not a list literal"),
    ("h = tf.reduce_sum(tf.hessians(f, x)[0])", "inside an expression"),
]


@pytest.mark.parametrize("line", [c[0] for c in KEPT], ids=[c[1] for c in KEPT])
def test_kept_whole(line):
    source = PROGRAM.format(line=line)
    result = migrate_source(source, "case.py", select=["hessians-as-gradients"])
    assert result.new_source == source
    assert not any(f.rule == "hessians-as-gradients" for f in result.findings)


def test_compat_output_keeps_tf_hessians():
    """The split serves the eager output's tapes: a file kept in compat mode keeps TF1's call."""
    source = PROGRAM.format(line="h = tf.hessians(f, x)") + "q = tf.RandomShuffleQueue(2, 0, tf.float32)\n"
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "tf.hessians(f, x)" in result.new_source
