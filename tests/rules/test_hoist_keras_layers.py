"""hoist-keras-layers: a Keras layer made and called in one expression is bound to a name on the line before.

TF1 graph code that builds with `tf.keras.layers.Dense(1)(h)` stayed compat ("`tf.keras.layers.Dense(1)` is computed
at run time": a run function would make a new layer at each run). Bound to a name where TF1 built it, the call is a
layer call the value model knows. Found by writing programs to probe the value model's reach.
"""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

PROGRAM = '''import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
dense = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones")
h = dense(x)
{build}
loss = tf.reduce_mean(tf.square(out - 1.0))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([train, loss], {{x: np.ones((2, 3))}})[1])
'''


@pytest.mark.parametrize("build, hoisted", [
    pytest.param('out = tf.keras.layers.Dense(1, kernel_initializer="ones")(h)',
                 'dense_2 = tf.keras.layers.Dense(1, kernel_initializer="ones")\n', id="one layer"),
    pytest.param('out = tf.keras.layers.Dense(1, kernel_initializer="ones")(\n'
                 '    tf.keras.layers.Dense(2, kernel_initializer="zeros", use_bias=False)(h))',
                 'dense_2 = tf.keras.layers.Dense(1, kernel_initializer="ones")\n'
                 'dense_3 = tf.keras.layers.Dense(2, kernel_initializer="zeros", use_bias=False)\n',
                 id="nested: built in Python's order"),
    pytest.param('out = tf.reduce_sum(tf.keras.layers.BatchNormalization()(h), axis=1)',
                 'batch_normalization = tf.keras.layers.BatchNormalization()\n', id="a layer inside an expression"),
])
def test_a_layer_made_and_called_at_once_is_built_once_and_converts(build, hoisted):
    source = PROGRAM.format(build=build)
    result = migrate_source(source, "keras_inline.py")
    assert result.outcome == "eager", result.compat_reason
    assert hoisted in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_layers_made_in_a_comprehension_are_left_as_they_are():
    source = PROGRAM.format(build='out = tf.add_n([tf.keras.layers.Dense(1)(h) for _ in range(2)])')
    result = migrate_source(source, "keras_inline.py", select=["hoist-keras-layers"])
    assert not result.changed
