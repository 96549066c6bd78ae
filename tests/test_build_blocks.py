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


def test_a_loop_that_makes_variables_and_computes_on_per_run_tensors_stays_compat():
    result = migrate_source(LAYER_LOOP, "layers.py")
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
