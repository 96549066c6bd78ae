"""analysis/build_blocks: a block kept at build time for its variables must not compute on per-run tensors."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated


# An autoencoder's layer loop: its variables are made once, its matmuls were graph code each run recomputed.
LAYER_LOOP = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
current_input = x
for n_output in [3, 2]:
    n_input = int(current_input.get_shape()[1])
    W = tf.Variable(tf.fill([n_input, n_output], 0.1))
    current_input = tf.nn.tanh(tf.matmul(current_input, W))
y = current_input
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: np.ones((2, 4))}))
'''


def test_the_layer_loop_is_split_and_its_widths_carried_from_the_static_shapes():
    result = migrate_source(LAYER_LOOP, "layers.py")
    assert result.outcome == "eager", result.findings
    assert "current_input_shape = tf.TensorShape([None, 4])" in result.new_source
    assert "current_input_shape = current_input_shape[:-1].concatenate([n_output])" in result.new_source
    assert_same_output(run_legacy(LAYER_LOOP), run_migrated(result.new_source))


def test_a_loop_computing_what_the_shape_algebra_does_not_know_stays_compat():
    """tf.concat doubles the width: the loop that makes the variables could not carry it."""
    source = LAYER_LOOP.replace("tf.nn.tanh(tf.matmul(current_input, W))",
                                "tf.concat([tf.matmul(current_input, W)] * 2, 1)")
    result = migrate_source(source, "layers.py")
    assert result.outcome == "compat"
    assert "a block that makes variables also computes on the per-run tensor `current_input`" in result.compat_reason
    assert not [f for f in result.findings if f.rule == "self-check"]  # refused by the analysis, not caught later


def test_a_loop_that_reads_only_static_shapes_converts():
    source = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
weights = []
for n_output in [3, 2]:
    weights.append(tf.Variable(tf.fill([int(x.get_shape()[1]), n_output], 0.1)))
y = tf.matmul(x, weights[0])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: np.ones((2, 4))}))
'''
    result = migrate_source(source, "weights.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
