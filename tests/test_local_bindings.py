"""codegen.local_bindings: a generated function keeps calling the function whose name TF1 code rebinds."""
import libcst as cst

from tf_migrate.codegen.local_bindings import unshadow
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated


def _unshadow(code: str, params=()) -> str:
    body = list(cst.parse_module(code).body)
    return cst.Module(unshadow(body, set(params), {"loss", "y", "t"})).code


def test_the_binding_and_later_reads_get_a_new_name():
    assert _unshadow("y = f(x)\nloss = loss(y, t)\nreturn loss\n", ["x", "t"]) == \
        "y = f(x)\nloss_2 = loss(y, t)\nreturn loss_2\n"


def test_inside_the_tape_block_too():
    code = "with tf.GradientTape() as tape:\n    loss = loss(x)\ng = tape.gradient(loss, [w])\n"
    assert _unshadow(code, ["x"]) == \
        "with tf.GradientTape() as tape:\n    loss_2 = loss(x)\ng = tape.gradient(loss_2, [w])\n"


def test_names_bound_before_they_are_read_and_loop_names_stay():
    code = "y = f(x)\nz = [g(y[i]) for i in range(3)]\nfor i in range(2):\n    z.append(i)\nreturn y\n"
    assert _unshadow(code, ["x"]) == code


def test_an_in_place_update_starts_from_a_copy_of_the_outer_value():
    assert _unshadow("loss += 1\nreturn loss\n") == "loss_2 = loss\nloss_2 += 1\nreturn loss_2\n"


def test_a_loop_that_reads_what_its_last_iteration_bound_starts_from_a_copy():
    code = "for W in Ws:\n    h = tf.matmul(h, W)\nreturn h\n"
    assert _unshadow(code, ["x"]) == "h_2 = h\nfor W in Ws:\n    h_2 = tf.matmul(h_2, W)\nreturn h_2\n"


def test_a_loop_that_binds_a_name_before_reading_it_reads_nothing_from_outside():
    code = "for W in Ws:\n    h = tf.matmul(x, W)\n    y = h * 2.0\nreturn y\n"
    assert _unshadow(code, ["x"]) == code


PROGRAM = '''import numpy as np
import tensorflow as tf


def loss(y, t):
    return tf.reduce_mean(tf.square(y - t))


x = tf.placeholder(tf.float32, [None, 2])
t = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.ones([2, 1]))
loss = loss(tf.matmul(x, w), t)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.ones((3, 2), np.float32), t: np.zeros((3, 1), np.float32)}
    for _ in range(3):
        sess.run(train, feed)
    print(sess.run(loss, feed))
'''


def test_a_script_that_rebinds_its_loss_function_goes_eager_with_the_same_numbers():
    result = migrate_source(PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "loss_2 = loss(tf.matmul(x, w), t)" in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


def test_names_a_branch_binds_then_reads_stay():
    code = "if kind == 'a':\n    p = tf.constant(0.9)\n    loss = f(p)\nelse:\n    loss = g()\nreturn loss\n"
    assert _unshadow(code) == code


def test_a_list_graph_code_appends_to_is_not_a_rebinding_the_functions_make_their_own():
    """`layers = []` stays in the scope while the loop that appends moves into the run function: the loop
    would append again at every run (every step under --functions eager). Only a plain `name = ...` of
    graph code moves into the run functions as a local of its own; this stays compat."""
    for functions in ("compiled", "eager"):
        result = migrate_source(LAYER_LIST, "case.py", functions=functions)
        assert result.outcome == "compat" and "`layers` is bound again" in result.compat_reason


LAYER_LIST = '''import numpy as np
import tensorflow as tf


def main():
    graph = tf.Graph()
    with graph.as_default():
        layers = []
        for i in range(2):
            layers.append(tf.constant(1.0) * float(i))
        t = tf.add_n(layers)
        w = tf.Variable(1.0)
        loss = t * w * w
        step_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session(graph=graph) as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(step_op)
        print(sess.run(w))


main()
'''
