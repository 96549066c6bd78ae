"""dimension-values: shape[i].value -> shape[i] (a TF2 shape's dimensions are ints)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

SIZES_READ_TO_BUILD = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
dim = x.get_shape()[1].value
shape = x.get_shape()
W = tf.Variable(tf.ones([dim, shape[-1].value // 2]))
y = tf.matmul(x, W) * float(x.shape[1].value)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(dim, sess.run(y, {x: np.ones((2, 4))}))
'''


def test_dimension_values_are_the_dimensions():
    # Before: eager, and the migrated program failed: AttributeError: 'int' object has no attribute 'value'.
    result = migrate_source(SIZES_READ_TO_BUILD, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert ".value" not in result.new_source.split("import tensorflow as tf")[1].replace("for key, value in", "")
    assert "shape[-1] // 2" in result.new_source
    assert any(f.rule == "dimension-values" for f in result.findings)
    assert_same_output(run_legacy(SIZES_READ_TO_BUILD), run_migrated(result.new_source))


@pytest.mark.parametrize("line", [
    "size = spec[1].value\n",  # not known to be a shape
    "shape = [3]\nsize = shape[0].value\n",  # `shape` bound twice in the module: not known either
])
def test_other_values_keep_their_value_attribute(line):
    source = "import tensorflow as tf\nshape = tf.placeholder(tf.float32, [None, 3]).get_shape()\n" + line
    result = migrate_source(source, "case.py", mode="eager")
    assert line.splitlines()[-1] in result.new_source


def test_compat_output_keeps_the_value_attribute():
    result = migrate_source(SIZES_READ_TO_BUILD, "case.py", mode="compat")
    assert "x.get_shape()[1].value" in result.new_source
