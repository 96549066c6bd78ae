"""Runs that only update one variable are written where they ran, eager (codegen.variable_updates)."""
import libcst as cst

from tf_migrate.codegen.variable_updates import single_update
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

UPDATES = '''
import tensorflow as tf

W = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
step = tf.Variable(0)
set_W = tf.assign(W, [[0.5, 1.0], [2.0, 4.0]])
shrink = W.assign(W * 0.5)
bump = tf.assign_add(step, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(set_W)
    for i in range(3):
        # each run halves W
        print("step", sess.run(bump), "W =", sess.run(shrink).tolist())
    print("W", sess.run(W).tolist())
'''


def test_one_update_runs_where_the_program_ran_it_and_prints_the_same():
    result = migrate_source(UPDATES, "updates.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "def run_" not in new and "call_compiled" not in new and "to_numpy" not in new
    assert "\nW.assign([[0.5, 1.0], [2.0, 4.0]])\n" in new  # the value is dropped: no .numpy()
    assert 'print("step", step.assign_add(1).numpy(), "W =", W.assign(W * 0.5).numpy().tolist())' in new
    assert_same_output(run_legacy(UPDATES), run_migrated(new))


def test_a_run_that_computes_more_than_the_update_keeps_its_function():
    source = UPDATES.replace("shrink = W.assign(W * 0.5)", "shrink = W.assign(tf.matmul(W, W) * 0.5 + 1.0)")
    source = source.replace("sess.run(shrink).tolist()", "sess.run([shrink, bump])[0].tolist()")
    new = migrate_source(source, "updates.py").new_source
    assert "def run_shrink_bump():" in new
    assert "\nW.assign([[0.5, 1.0], [2.0, 4.0]])\n" in new


def test_a_run_called_from_a_nested_function_keeps_its_function():
    source = UPDATES.replace('    print("W", sess.run(W).tolist())\n',
                             '    def again():\n        return sess.run(bump)\n    print(again())\n')
    new = migrate_source(source, "updates.py").new_source
    assert "def run_bump():" in new
    assert_same_output(run_legacy(source), run_migrated(new))


def _function(text: str) -> cst.FunctionDef:
    return cst.parse_module(text).body[0]


def test_single_update_reads_only_one_update_of_a_variable():
    assert single_update(_function("def f():\n    a = v.assign_sub(x)\n    return a\n")) is not None
    assert single_update(_function("def f(x):\n    a = v.assign_sub(x)\n    return a\n")) is None  # fed
    assert single_update(_function("def f():\n    a = v.assign(x, read_value=False)\n    return a\n")) is None
    assert single_update(_function("def f():\n    a = v.scatter_add(x)\n    return a\n")) is None
    assert single_update(_function("def f():\n    b = x * 2\n    a = v.assign(b)\n    return a\n")) is None
    assert single_update(_function("def f():\n    a = v.assign(x)\n    return x\n")) is None


# rasbt's deeplearning-models `mlp-lowlevel` (held-out probe 44): the weights in dicts, updated by hand from
# `tf.gradients` (`tf.assign(weights['h1'], weights['h1'] - learning_rate * dc_dw_1)`). An item's `.assign` was a call
# the analysis could not see into, and the file stayed compat.
DICT_HELD = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
weights = {'h1': tf.Variable(tf.ones([3, 2])), 'out': tf.Variable(tf.ones([2, 1]))}
biases = {'out': tf.Variable(tf.zeros([1]))}
out = tf.matmul(tf.matmul(x, weights['h1']), weights['out']) + biases['out']
cost = tf.reduce_mean(tf.square(out - 1.0))
dw_h1, = tf.gradients(cost, [weights['h1']])
train_h1 = tf.assign(weights['h1'], weights['h1'] - 0.01 * dw_h1)
db_out, = tf.gradients(cost, [biases['out']])
train_b = biases['out'].assign(biases['out'] - 0.1 * db_out)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(train_h1, {x: np.ones([2, 3]) * i})
        sess.run(train_b, {x: np.ones([2, 3])})
        print(sess.run(cost, {x: np.ones([2, 3])}))
'''


def test_updates_of_variables_held_in_dicts_convert():
    result = migrate_source(DICT_HELD, "dict_held.py")
    assert result.outcome == "eager", result.compat_reason
    assert "weights['h1'].assign(weights['h1'] - 0.01 * dw_h1)" in result.new_source
    assert_same_output(run_legacy(DICT_HELD), run_migrated(result.new_source))
