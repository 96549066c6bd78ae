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


STEP_LOOP = '''
import numpy as np
import tensorflow as tf


def train(xs):
    with tf.Graph().as_default():
        sess = tf.Session()
        with sess.as_default():
            x = tf.placeholder(tf.float32, [None, 2])
            w = tf.Variable(tf.ones([2, 1]))
            loss = tf.reduce_sum(tf.matmul(x, w))
            global_step = tf.Variable(0, name="global_step", trainable=False)
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
            sess.run(tf.global_variables_initializer())

            def train_step(batch):
                _, l = sess.run([train_op, loss], {x: batch})
                print(l)

            for i in range(3):
                train_step(xs)
                current_step = tf.train.global_step(sess, global_step)
                print("step", current_step)


train([[1.0, 2.0]])
'''


def test_the_global_step_read_through_the_session_is_a_run():
    # tf.train.global_step(sess, step) is int(sess.run(step)): the loop calling train_step is the program's, not
    # graph code (it was dropped, as an op no run fetched, before this was a run)
    result = migrate_source(STEP_LOOP, "train.py")
    assert result.outcome == "eager", result.compat_reason
    assert "current_step = int(global_step.numpy())" in result.new_source
    assert_same_output(run_legacy(STEP_LOOP), run_migrated(result.new_source))


def test_graph_code_calling_a_function_that_runs_the_graph_stays_compat():
    source = STEP_LOOP.replace("tf.train.global_step(sess, global_step)", "tf.add(global_step, 1)")
    result = migrate_source(source, "train.py")
    assert result.outcome == "compat"
    assert "graph code here also calls `train_step`, which runs the graph" in result.compat_reason
