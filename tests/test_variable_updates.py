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
