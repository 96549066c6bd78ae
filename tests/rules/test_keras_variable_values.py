"""keras-variable-values: v.value() over a list of Keras layers' variables -> tf.convert_to_tensor(v)."""
import pytest

from tests.rules.alone import apply_alone
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tf_migrate.rules.keras_variable_values import KerasVariableValues

LISTS = '''import tensorflow as tf
src_vars = [*main.dense.trainable_variables, *main.dense_2.trainable_variables]
dest_vars = [*target.dense.trainable_variables, target.w]
'''


def test_a_loop_over_keras_variable_lists_reads_them_as_tensors():
    source = LISTS + '''ops = []
for src_var, dest_var in zip(src_vars, dest_vars):
    ops.append(dest_var.assign(src_var.value()))
    print(dest_var.read_value())
pairs = [d.assign(s.value()) for s, d in zip(src_vars, dest_vars)]
norms = [tf.norm(v.value()) for v in src_vars]
'''
    out = apply_alone(KerasVariableValues(), source)
    assert "ops.append(dest_var.assign(tf.convert_to_tensor(src_var)))" in out
    assert "print(tf.convert_to_tensor(dest_var))" in out
    assert "[d.assign(tf.convert_to_tensor(s)) for s, d in zip(src_vars, dest_vars)]" in out
    assert "[tf.norm(tf.convert_to_tensor(v)) for v in src_vars]" in out


@pytest.mark.parametrize("code", [
    # not a list of Keras layers' variables: tf.Variable's value() works in TF2
    "plain = [w, b]\nfor v in plain:\n    print(v.value())\n",
    # the list is bound twice: the loop may see the other one
    "src_vars = []\nfor v in src_vars:\n    print(v.value())\n",
    # the target is rebound in the loop before its value is read
    "for v in src_vars:\n    v = queue.pop()\n    print(v.value())\n",
    # another name than the loop's target
    "for v in src_vars:\n    print(counter.value())\n",
])
def test_other_value_calls_are_left_alone(code):
    source = LISTS + code
    assert apply_alone(KerasVariableValues(), source) == source


TARGET_COPY = '''import numpy as np
import tensorflow as tf
tf.set_random_seed(2)
x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope("main"):
    h = tf.layers.dense(x, 2)
with tf.variable_scope("target"):
    t = tf.layers.dense(x, 2)
src = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="main")
dst = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="target")
ops = [d.assign(s.value()) for s, d in zip(src, dst)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(ops)
    print(sess.run(t, {x: np.ones([1, 3])}))
'''


def test_a_target_copy_of_layers_runs(tmp_path):
    # Before: eager, and the migrated program failed: TypeError: 'ResourceVariable' object is not callable.
    result = migrate_source(TARGET_COPY, "copy.py")
    assert result.outcome == "eager", result.compat_reason
    assert "d.assign(tf.convert_to_tensor(s))" in result.new_source
    verdict = verify_program(TARGET_COPY, result.new_source, path=tmp_path / "copy.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail  # (tf.layers: TF1's run needs Keras 2, in a subprocess)
