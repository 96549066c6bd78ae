"""constant-reinitialization: a second ``sess.run(init)`` of constant-initialized variables -> assignments."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

# TensorFlow's "Getting Started" guide (TF 1.x): fix the variables by hand, then initialize again and train.
GETTING_STARTED = """\
import tensorflow as tf
W = tf.Variable([.3], dtype=tf.float32)
b = tf.Variable([-.3], dtype=tf.float32)
x = tf.placeholder(tf.float32)
linear_model = W * x + b
init = tf.global_variables_initializer()
sess = tf.Session()
sess.run(init)
y = tf.placeholder(tf.float32)
loss = tf.reduce_sum(tf.square(linear_model - y))
fixW = tf.assign(W, [-1.])
fixb = tf.assign(b, [1.])
sess.run([fixW, fixb])
print(sess.run(loss, {x: [1, 2, 3, 4], y: [0, -1, -2, -3]}))
optimizer = tf.train.GradientDescentOptimizer(0.01)
train = optimizer.minimize(loss)
sess.run(init)  # reset values to incorrect defaults.
for i in range(100):
    sess.run(train, {x: [1, 2, 3, 4], y: [0, -1, -2, -3]})
print(sess.run([W, b]))
"""


def test_the_getting_started_guide_converts_and_prints_tf1s_numbers(tmp_path):
    result = migrate_source(GETTING_STARTED, "getting_started.py")
    assert result.outcome == "eager", result.compat_reason
    assert "W.assign([.3])\nb.assign([-.3])  # reset values to incorrect defaults.\n" in result.new_source
    verdict = verify_program(GETTING_STARTED, result.new_source, path=tmp_path / "gs.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


@pytest.mark.parametrize("change", [
    pytest.param(("W = tf.Variable([.3], dtype=tf.float32)", "W = tf.Variable(tf.random_normal([1]))"),
                 id="a random initial value: TF1 drew it again"),
    pytest.param(("b = tf.Variable([-.3], dtype=tf.float32)\n",
                  "b = tf.Variable([-.3], dtype=tf.float32)\nh = tf.layers.dense(tf.ones([1, 1]), 1)\n"),
                 id="a layer's variables"),
    pytest.param(("sess.run(init)  # reset", "W = tf.Variable([.5])\nsess.run(init)  # reset"),
                 id="the name holds another variable at the run"),
])
def test_left_as_it_is(change):
    result = migrate_source(GETTING_STARTED.replace(*change), "getting_started.py")
    assert change[0] in GETTING_STARTED
    assert not any(f.rule == "constant-reinitialization" for f in result.findings)
