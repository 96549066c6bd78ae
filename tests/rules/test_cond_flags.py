"""cond-flags: tf.cond on a bool placeholder (a flag the run functions take as a Python bool) gets a tensor."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEAD = "import tensorflow as tf\n"
FLAG = "training = tf.placeholder(tf.bool, [])\n"


RUN = "with tf.Session() as sess:\n    print(sess.run(y, {training: True}))\n"


@pytest.mark.parametrize("before, wrapped", [
    pytest.param(FLAG + "y = tf.cond(training, lambda: 1.0, lambda: 2.0)\n",
                 "tf.cond(tf.convert_to_tensor(training), lambda: 1.0, lambda: 2.0)", id="the flag"),
    pytest.param("training = tf.placeholder_with_default(False, [], name='f')\n"
                 "def block(x, on):\n    return tf.cond(pred=on, true_fn=lambda: x, false_fn=lambda: -x)\n"
                 "y = block(1.0, training)\n",
                 "tf.cond(pred=tf.convert_to_tensor(on), true_fn=lambda: x, false_fn=lambda: -x)",
                 id="a parameter that may be handed the flag"),
    pytest.param(FLAG + "y = tf.cond(tf.less(1, 2), lambda: 1.0, lambda: 2.0)\n", None, id="noop tensor predicate"),
    pytest.param("training = tf.placeholder(tf.float32, [])\ny = tf.cond(training > 0, lambda: 1.0, lambda: 2.0)\n"
                 "def f(p):\n    return tf.cond(p, lambda: 1.0, lambda: 2.0)\n", None, id="noop without flags"),
])
def test_rewrite(before, wrapped):
    result = migrate_source(HEAD + before + RUN, "case.py", select={"cond-flags", "session-to-functions"})
    assert result.outcome == "eager", result.findings
    assert ("cond(tf.convert_to_tensor" in result.new_source or "cond(pred=tf.convert_to_tensor" in result.new_source) \
        == (wrapped is not None)
    if wrapped is not None:
        assert wrapped in result.new_source


PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
is_training = tf.placeholder(tf.bool, [])


def layer(h, training):
    return tf.cond(training, lambda: h * 0.5, lambda: h)


w = tf.Variable(np.ones((2, 1), np.float32))
y = layer(tf.matmul(x, w), is_training)
z = tf.cond(is_training, lambda: y + 1.0, lambda: y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for flag in (True, False):
        print(sess.run(z, {x: np.ones((1, 2)), is_training: flag}))
    print(sess.run(z, {x: np.ones((1, 2)), is_training: True}))
'''


def test_a_flag_fed_python_bools_runs_its_conds_after_migration():
    """Without the wrap, TF2's tf.cond raises `pred must not be a Python bool` in the migrated runs."""
    result = migrate_source(PROGRAM, "flags.py")
    assert result.outcome == "eager", result.findings
    assert "tf.cond(tf.convert_to_tensor(training)" in result.new_source
    assert "tf.cond(tf.convert_to_tensor(is_training)" in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))
