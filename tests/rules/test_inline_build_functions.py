"""inline-build-functions: a function that builds a graph around its own placeholders, called once, runs in place."""
import re


from tf_migrate.engine import migrate_source
from tf_migrate.rules.inline_build_functions import InlineBuildFunctions
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# The builder returns a dict of its tensors; the caller reads them as ae['x'], ae['cost'].
DICT_BUILDER = '''
import numpy as np
import tensorflow as tf


def model(n_in, n_out=2):
    """Build the model."""
    x = tf.placeholder(tf.float32, [None, n_in], name="x")
    w = tf.Variable(tf.fill([n_in, n_out], 0.1))
    y = tf.tanh(tf.matmul(x, w))
    cost = tf.reduce_sum(tf.square(y - 0.5))
    return {"x": x, "y": y, "cost": cost}


def train():
    x = np.linspace(0, 1, 6).reshape(2, 3)
    net = model(3)
    step = tf.train.GradientDescentOptimizer(0.1).minimize(net["cost"])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(3):
            _, cost = sess.run([step, net["cost"]], feed_dict={net["x"]: x})
            print(i, cost)
        print(np.round(sess.run(net["y"], {net["x"]: x}), 5))


if __name__ == "__main__":
    train()
'''


def _converts_with_the_legacy_output(source: str) -> None:
    result = migrate_source(source, "model.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def _rule_alone(source: str) -> str:
    return apply_alone(InlineBuildFunctions(), source, "model.py")


def test_the_builder_runs_where_it_is_called_and_its_dict_is_taken_apart():
    code = _rule_alone(DICT_BUILDER)
    assert "def model" not in code and "Build the model" not in code
    assert "x_2 = tf.placeholder(tf.float32, [None, 3], name=\"x\")" in code  # train's own `x` keeps its name
    assert "n_out" not in code  # a literal argument is used in place
    assert "net" not in code
    assert "minimize(cost_2)" in code and "feed_dict={x_2: x}" in code  # train binds `cost` too


def test_the_program_converts_and_prints_the_legacy_numbers():
    result = migrate_source(DICT_BUILDER, "model.py")
    assert result.outcome == "eager", result.findings
    assert "placeholder" not in result.new_source and "Session" not in result.new_source
    assert_same_output(run_legacy(DICT_BUILDER), run_migrated(result.new_source))


TUPLE_AT_MODULE_LEVEL = '''
import numpy as np
import tensorflow as tf


def build():
    a = tf.placeholder(tf.float32, [None])
    total = tf.reduce_sum(a * 2.0)
    return a, total


inputs, total = build()
with tf.Session() as sess:
    print(sess.run(total, {inputs: np.arange(4.0)}))
'''


def test_a_tuple_returned_at_module_level_binds_the_callers_names():
    code = _rule_alone(TUPLE_AT_MODULE_LEVEL)
    assert "def build" not in code and "inputs = tf.placeholder(tf.float32, [None])" in code
    _converts_with_the_legacy_output(TUPLE_AT_MODULE_LEVEL)


def test_a_builder_called_twice_or_read_otherwise_stays():
    twice = TUPLE_AT_MODULE_LEVEL.replace("inputs, total = build()", "inputs, total = build()\nagain = build()")
    assert _rule_alone(twice) == twice
    passed = DICT_BUILDER.replace("net = model(3)", "net = model(3)\n    print(sorted(net))")
    code = _rule_alone(passed)  # `net` is read other than as net['key']: the body moves, the dict stays
    assert "def model" not in code and 'net = {"x": x_2, "y": y, "cost": cost_2}' in code


def test_a_helper_without_placeholders_is_not_this_rules():
    helper = TUPLE_AT_MODULE_LEVEL.replace("a = tf.placeholder(tf.float32, [None])", "a = tf.ones([4])")
    assert _rule_alone(helper) == helper


# solaris33's CNN with a Saver: the model function makes the variables, the module saves every variable. The
# saver rule names them by TF1's names ("Variable", "Variable_1"), which it knows where it sees them made.
SAVED_MODEL = '''
import os

import numpy as np
import tensorflow as tf


def build_classifier(x):
    W = tf.Variable(tf.fill([3, 2], 0.1))
    b = tf.Variable(tf.constant(0.2, shape=[2]))
    logits = tf.matmul(x, W) + b
    return tf.nn.softmax(logits), logits


x = tf.placeholder(tf.float32, shape=[None, 3])
y = tf.placeholder(tf.float32, shape=[None, 2])
y_pred, logits = build_classifier(x)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
saver = tf.train.Saver()
ckpt = tf.train.get_checkpoint_state(SAVER_DIR)
data = np.linspace(0.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
labels = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if ckpt and ckpt.model_checkpoint_path:
        saver.restore(sess, ckpt.model_checkpoint_path)
        print("restored", loss.eval(feed_dict={x: data, y: labels}))
        sess.close()
    for step in range(3):
        sess.run(train_step, feed_dict={x: data, y: labels})
        print(step, sess.run(loss, feed_dict={x: data, y: labels}))
    saver.save(sess, os.path.join(SAVER_DIR, "model"), global_step=3)
'''


def test_a_model_function_whose_variables_a_saver_names_runs_in_place(tmp_path):
    legacy = SAVED_MODEL.replace("SAVER_DIR", repr(str(tmp_path / "legacy")))
    result = migrate_source(SAVED_MODEL.replace("SAVER_DIR", repr(str(tmp_path / "migrated"))), "saved.py")
    assert result.outcome == "eager", result.findings
    assert "def build_classifier" not in result.new_source
    assert re.search(r'var_list=\{"Variable": W\w*, "Variable_1": b\w*\}', result.new_source)
    assert "sess.close()" not in result.new_source  # the nested sess.close() went with the session
    assert_same_output(run_legacy(legacy), run_migrated(result.new_source))
    # Without a Saver of every variable, a variable-making helper is helper-modules' (a tf.Module), not this rule's.
    named = SAVED_MODEL.replace("tf.train.Saver()", "tf.train.Saver(tf.trainable_variables())")
    assert "def build_classifier" in _rule_alone(named)


def test_a_returned_local_bound_twice_under_the_callers_own_name_reaches_the_caller():
    # The local `h` is renamed (the caller binds `h`): the returned value goes to the caller's `h`, not to itself.
    source = '''
import numpy as np
import tensorflow as tf


def net(n):
    x = tf.placeholder(tf.float32, [None, n])
    h = x * 2.0
    h = h + 1.0
    return x, h


def main():
    x, h = net(3)
    with tf.Session() as sess:
        print(sess.run(h, {x: np.ones([2, 3])}))


main()
'''
    code = _rule_alone(source)
    assert "    h_2 = x * 2.0\n    h_2 = h_2 + 1.0\n    h = h_2\n" in code
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


# TF's fully_connected_reader.py layout: a reader function called by an input function called in the training
# function, under `with tf.Graph().as_default():`.
READER_FUNCTIONS = '''
import tensorflow as tf


def read_and_decode(filename_queue):
    reader = tf.TFRecordReader()
    _, serialized = reader.read(filename_queue)
    features = tf.parse_single_example(serialized, features={'x': tf.FixedLenFeature([2], tf.float32)})
    return features['x']


def inputs(batch_size):
    filename_queue = tf.train.string_input_producer(['data.tfrecords'])
    x = read_and_decode(filename_queue)
    xs = tf.train.batch([x, x * 2.0], batch_size=batch_size)
    return xs


def run_training():
    with tf.Graph().as_default():
        xs = inputs(batch_size=4)
        total = tf.reduce_sum(xs[0]) + tf.reduce_sum(xs[1])
        with tf.Session() as sess:
            print(sess.run(total))


run_training()
'''


def test_functions_building_a_queue_pipeline_run_in_place_level_by_level():
    code = _rule_alone(READER_FUNCTIONS)
    assert "def read_and_decode" not in code and "def inputs" not in code
    assert ("    with tf.Graph().as_default():\n"
            "        filename_queue = tf.train.string_input_producer(['data.tfrecords'])\n"
            "        reader = tf.TFRecordReader()\n") in code


# A graph built at module level, run by a function it is handed to (the session's half of the program).
HANDED_TO_A_RUNNER = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.fill([2, 1], 0.5))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def train(loss, train_op, steps):
    data = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(steps):
            _, value = sess.run([train_op, loss], feed_dict={x: data})
            print(step, value)


train(loss, train_op, 3)
'''


def test_a_function_handed_the_graph_to_run_runs_in_place():
    code = _rule_alone(HANDED_TO_A_RUNNER)
    assert "def train" not in code and "steps = 3\n" not in code and "for step in range(3):" in code
    _converts_with_the_legacy_output(HANDED_TO_A_RUNNER)


def test_a_runner_called_twice_or_given_no_graph_value_stays():
    twice = HANDED_TO_A_RUNNER.replace("train(loss, train_op, 3)", "train(loss, train_op, 3)\ntrain(loss, train_op, 1)")
    assert _rule_alone(twice) == twice
    own = '''
import tensorflow as tf


def run(n):
    with tf.Session() as sess:
        print(sess.run(tf.constant(n) * 2))


run(3)
'''
    assert _rule_alone(own) == own  # a program of its own: converted where it stands


def test_a_throwaway_name_the_function_never_reads_keeps_its_name():
    # The module binds `_` too; the runner's `_` is only bound (`_, value = sess.run(...)`): no `__2`.
    source = HANDED_TO_A_RUNNER.replace("loss = tf.reduce_mean", "_, spread = tf.nn.moments(x, [0])\nloss = tf.reduce_mean")
    code = _rule_alone(source)
    assert "_, value = sess.run([train_op, loss], feed_dict={x: data})" in code and "__2" not in code
    _converts_with_the_legacy_output(source)


# hunkim's get_copy_var_ops over variables the module makes: a function of collection reads and assign ops, whose
# scopes are its parameters. In place, the scopes are the call's literals, which the collection rule lists.
COPY_FUNCTION = '''
import numpy as np
import tensorflow as tf
with tf.variable_scope("main"):
    w1 = tf.Variable(tf.fill([3, 2], 0.5), name="w")
with tf.variable_scope("target"):
    w2 = tf.Variable(tf.zeros([3, 2]), name="w")
x = tf.placeholder(tf.float32, [None, 3])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w1) - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[w1])


def get_copy_var_ops(dest_scope_name="target", src_scope_name="main"):
    op_holder = []
    src_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=src_scope_name)
    dest_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=dest_scope_name)
    for src_var, dest_var in zip(src_vars, dest_vars):
        op_holder.append(dest_var.assign(src_var.value()))
    return op_holder


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    copy_ops = get_copy_var_ops(dest_scope_name="target", src_scope_name="main")
    for i in range(2):
        sess.run(train, feed_dict={x: np.ones([4, 3])})
        sess.run(copy_ops)
        print(sess.run(w2))
'''


def test_a_function_of_collection_reads_called_once_runs_in_place():
    # Before: compat ("sess.run fetches a value the analysis does not know: `copy_ops`").
    result = migrate_source(COPY_FUNCTION, "copy.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def get_copy_var_ops" not in result.new_source
    assert "src_vars = [w1]" in result.new_source and "dest_vars = [w2]" in result.new_source
    assert_same_output(run_legacy(COPY_FUNCTION), run_migrated(result.new_source))
    making = COPY_FUNCTION.replace("    op_holder = []\n", "    op_holder = []\n    tf.Variable(1.0)\n")
    assert _rule_alone(making) == making  # (variables made there: named only in a module that saves them all)
