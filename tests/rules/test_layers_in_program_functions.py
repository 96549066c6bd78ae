"""layers-to-keras: a program written in one function, whose layers read values it computes, builds them in place."""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

# jachiam's rl-intro shape: the action count comes from the environment the function makes.
PROGRAM_FUNCTION = '''import numpy as np
import tensorflow as tf


class Env:
    n = 2


def train(hidden=4):
    env = Env()
    n_acts = env.n
    with tf.variable_scope("main"):
        x = tf.placeholder(tf.float32, [None, 3])
        h = tf.layers.dense(x, units=hidden, activation=tf.tanh)
        q = tf.layers.dense(h, units=n_acts)
    loss = tf.reduce_mean(tf.square(q - 1.0))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    data = np.arange(6, dtype=np.float32).reshape(2, 3) / 6.0
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(3):
            print(i, sess.run([loss, step], {x: data})[0])


train()
'''


def test_layers_configured_by_the_functions_own_values_are_built_where_tf1_made_them(tmp_path):
    result = migrate_source(PROGRAM_FUNCTION, "dqn.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "    n_acts = env.n\n    dense = tf.keras.layers.Dense(units=4, activation=tf.tanh)" in new  # (train())
    assert "dense_2 = tf.keras.layers.Dense(units=n_acts)" in new and "tf.layers" not in new
    verdict = verify_program(PROGRAM_FUNCTION, result.new_source, path=tmp_path / "dqn.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
