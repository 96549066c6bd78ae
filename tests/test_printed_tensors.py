"""A graph tensor printed outside any run: TF1 printed its description, the migrated program prints its trace's."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify.output_compare import first_difference
from tests.twins import run_legacy, run_migrated

PROGRAM = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
print(x)
y = tf.one_hot(tf.cast(x, tf.int32), 4)
print("one hot:", y)
w = tf.Variable(tf.ones([3, 1]))
out = tf.matmul(x, w)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {x: np.ones((2, 3))}))
'''


def test_printed_tensors_go_eager_and_print_what_tf1_printed():
    result = migrate_source(PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "print(run_x.get_concrete_function().structured_outputs)" in code
    assert "print(\"one hot:\", run_y.get_concrete_function().structured_outputs)" in code
    legacy, migrated = run_legacy(PROGRAM), run_migrated(code)
    assert "shape=(?, 3), dtype=float32" in legacy and "shape=(None, 3, 4), dtype=float32" in migrated
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None


def test_a_trace_is_also_what_eager_functions_print():
    result = migrate_source(PROGRAM, "case.py", functions="eager")
    assert result.outcome == "eager", result.compat_reason
    assert "@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])\ndef run_x(x)" in result.new_source
    assert first_difference(run_legacy(PROGRAM), run_migrated(result.new_source), rtol=1e-5, atol=1e-6) is None


@pytest.mark.parametrize("change, why", [
    (('print("one hot:", y)', 'print(f"one hot: {y}")'), "printed inside an f-string"),
    (('print("one hot:", y)', 'print("one hot:", y, y.name)'), "read otherwise too"),
    (("x = tf.placeholder(tf.float32, [None, 3])", "x = tf.placeholder(tf.float32, shape_of_x())"),
     "a shape the text does not settle"),
])
def test_other_uses_stay_compat(change, why):
    source = PROGRAM.replace(*change)
    if "shape_of_x" in source:
        source = source.replace("import tensorflow as tf\n", "import tensorflow as tf\n\n\ndef shape_of_x():\n"
                                                             "    return [None, 3]\n\n")
    assert migrate_source(source, "case.py").outcome == "compat", why


def test_the_judge_pairs_a_traced_description_with_tf1s():
    legacy = 'Tensor("Placeholder:0", shape=(?, 3), dtype=float32)\nTensor("X:0", dtype=float32)\n'
    migrated = 'Tensor("Identity:0", shape=(None, 3), dtype=float32)\nTensor("x:0", shape=(2,), dtype=float32)\n'
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None
    other = 'Tensor("Identity:0", shape=(None, 4), dtype=float32)\nTensor("x:0", dtype=float32)\n'
    assert first_difference(legacy, other, rtol=1e-5, atol=1e-6) is not None


def test_the_judge_pairs_an_assignments_reference_tensor_with_its_trace():
    # (TF1's `v.assign_add(1.0)` returns a reference tensor: printed, it says `float32_ref`; TF2 has no such dtype)
    legacy = 'Tensor("AssignAdd:0", shape=(), dtype=float32_ref)\n'
    assert first_difference(legacy, 'Tensor("Identity:0", shape=(), dtype=float32)\n', rtol=1e-5, atol=1e-6) is None
    assert first_difference(legacy, 'Tensor("Identity:0", shape=(), dtype=int32)\n', rtol=1e-5, atol=1e-6) is not None


SHAPES = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 2]))
h = tf.matmul(x, w)
assert h.shape.as_list() == [None, 2]
print(h.shape, h.dtype, x.shape.as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(h, {x: np.ones((1, 3))}))
'''


def test_a_static_shape_that_needs_feeds_comes_from_the_trace():
    result = migrate_source(SHAPES, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "assert run_h.get_concrete_function().structured_outputs.shape.as_list() == [None, 2]" in \
        result.new_source
    legacy, migrated = run_legacy(SHAPES), run_migrated(result.new_source)
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None


SECTIONS = '''import numpy as np
import tensorflow as tf

row_size, col_size = 4, 3
data_size = 5
x1 = tf.placeholder(dtype=tf.float32, shape=[data_size])
h1 = tf.nn.relu(x1 - 0.5)
print('1D output of length {}'.format(h1.shape.as_list()[0]))
sess = tf.Session()
print(sess.run(h1, {x1: np.linspace(0, 1, data_size)}))

data_size = [row_size, col_size]
x2 = tf.placeholder(dtype=tf.float32, shape=data_size)
h2 = tf.reduce_sum(x2, axis=1)
print('2D input {}, output {}'.format(x2.shape.as_list(), h2.shape.as_list()))
print(sess.run(h2, {x2: np.ones(data_size)}))
'''


def test_a_shape_from_a_name_bound_again_later_is_written_as_its_value_there():
    # `data_size` is 5 where `x1` is made and `[row_size, col_size]` where `x2` is: a name bound more than once
    # is read as the literal its binding before the placeholder gives it (the value TF1 read), so the shapes
    # come from traces with the signatures TF1's placeholders had; before, such files stayed compat.
    result = migrate_source(SECTIONS, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "tf.TensorSpec([5], tf.float32)" in code and "tf.TensorSpec([row_size, col_size], tf.float32)" in code
    legacy, migrated = run_legacy(SECTIONS), run_migrated(code)
    assert "1D output of length 5" in legacy and "2D input [4, 3], output [4]" in legacy
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None
