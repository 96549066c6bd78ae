"""Gradients TF1 took through a fed tensor (analysis/fed_gradients): a tape that starts at the fed value does not
reach what lies before it, so such runs keep the file compat; the others convert."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tests.twins import assert_same_output, run_legacy, run_migrated

CRITIC = """
import numpy as np
import tensorflow as tf

s = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('actor'):
    a = tf.layers.dense(s, 1, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(0.1))
with tf.variable_scope('critic'):
    q = tf.layers.dense(tf.concat([s, a], 1), 1, kernel_initializer=tf.constant_initializer(0.2))
critic_params = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope='critic')
train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_mean(tf.square(q - 1.0)), var_list=critic_params)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
states = np.arange(6.0).reshape(2, 3) / 6
for step in range(3):
    sess.run(train, {s: states, a: np.array([[0.5], [-0.5]])})
    print(step, sess.run(q, {s: states}).ravel())
"""


def test_a_fed_layer_output_takes_the_layer_input_dtype(tmp_path):
    # DDPG's critic reads the actor's output, which the critic's training run feeds with stored actions (float64).
    result = migrate_source(CRITIC, "critic.py")
    assert result.outcome == "eager", result.compat_reason
    assert "a = tf.cast(a, tf.float32)" in result.new_source
    verified = verify_program(CRITIC, result.new_source, path=tmp_path / "critic.py", timeout=240)  # (tf.layers)
    assert verified.status == "equivalent", verified.detail


@pytest.mark.parametrize("var_list", ["", ", var_list=tf.trainable_variables()",
                                      ", var_list=tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='a')"])
def test_a_gradient_through_a_fed_tensor_to_the_variables_before_it_keeps_compat(var_list):
    # TF1's gradient graph goes through the fed `a` to the actor's kernel (the backward ops read the fed value);
    # the generated function's tape starts at the parameter `a`: the actor would not train. A silent wrong rewrite.
    source = CRITIC.replace(", var_list=critic_params)", var_list + ")")
    result = migrate_source(source, "critic.py")
    assert result.outcome == "compat"
    assert "`a` is fed, and TF1's gradient of this run went through it to `" in result.compat_reason


TAPE = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[0.5], [-0.5]])
h = tf.matmul(x, w)
y = tf.nn.relu(h) * 2.0
grad = tf.gradients(y, SOURCE)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
X = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
print(sess.run(grad, {x: X}))
print(sess.run(grad, {x: X, h: [[1.0], [-1.0]]}))
"""


def test_a_gradient_with_respect_to_the_fed_tensor_itself_converts():
    source = TAPE.replace("SOURCE", "h")
    result = migrate_source(source, "tape.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_gradient_with_respect_to_a_placeholder_before_the_fed_tensor_keeps_compat():
    # TF1: dy/dx through the fed h is relu'(fed h) * 2 * w; a tape that starts at the parameter h gives None.
    result = migrate_source(TAPE.replace("SOURCE", "x"), "tape.py")
    assert result.outcome == "compat"
    assert "`h` is fed, and TF1's gradient of this run went through it to `x`" in result.compat_reason
