"""A run of values eager code computes where they stand, held in a list (``fetch = [a, b]``, ``tf.unstack(a)``, a
list a loop fills), gives a list of numpy values, as TF1's run did.

Before: written ``fetch.numpy()`` (an AttributeError on a list; FrankWork's tf-tutorials examples, probe 20; an
element of a ``tf.while_loop``'s nested loop variables, probe 23)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

HEAD = "import tensorflow as tf\n\na = tf.reshape(tf.range(6), [2, 3])\nb = a * 2\n"


@pytest.mark.parametrize("held, run", [
    ("fetch = [a, b]", "for v in sess.run(fetch):\n        print(v)"),
    ("parts = tf.unstack(a)", "print(sess.run(parts))"),
    ("buf = []\nfor i in range(2):\n    buf.append(a * i)", "for v in sess.run(buf):\n        print(v)"),
    # loop variables nested in a tuple: `j` is a pair of tensors (kvzhao's tf_while_loop.py, probe 23)
    ("i, j = tf.while_loop(lambda i, _: i < 3, lambda i, jk: (i + 1, (jk[0] + jk[1], jk[0] - jk[1])), (0, (1, 2)))",
     "print(sess.run([i, j]))"),
    # a scan over a tuple gives a tuple (RM1708's scan_example_matrix.py, probe 27: `'tuple' object has no attribute
    # 'numpy'`); over one tensor, one tensor
    ("step = lambda p, x: (p[0] + x[0], p[1] * x[1])",
     "first, second = sess.run(tf.scan(step, (a, b)))\n    print(first, second, sess.run(tf.scan(lambda p, x: p + x, a)))"),
    ("step = lambda p, x: (p[0] + x, p[1] - x)", "print(sess.run(tf.scan(step, a, initializer=(a[0], b[0]))))"),
])
def test_a_run_of_a_list_of_eager_values_gives_a_list(held, run):
    source = HEAD + held + "\nwith tf.Session() as sess:\n    " + run + "\n"
    result = migrate_source(source, "held.py")
    assert result.outcome == "eager", result.compat_reason
    assert "tf.nest.map_structure(lambda value: value.numpy()" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_run_of_one_eager_tensor_reads_it():
    source = HEAD + "with tf.Session() as sess:\n    print(sess.run(b))\n"
    result = migrate_source(source, "one.py")
    assert result.outcome == "eager", result.compat_reason
    assert "print(b.numpy())" in result.new_source


PY_FUNC_LIST = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
pair = tf.py_func(lambda a: (a * 2, a * 3), [x], [tf.float32, tf.float32])
one = tf.py_func(lambda a: a + 1, [x], tf.float32)
with tf.Session() as sess:
    print(sess.run(pair, {x: np.arange(3.0)}))
    print(sess.run(one, {x: np.arange(3.0)}))
'''


def test_a_run_of_a_python_functions_list_of_outputs_gives_a_list():
    # a fetch named by one name is one tensor only where the analysis knows it: `tf.py_func` with a list Tout
    # returns a list (`run_pair(x=...).numpy()` would be an AttributeError)
    result = migrate_source(PY_FUNC_LIST, "pyfunc.py")
    assert result.outcome == "eager", result.compat_reason
    assert "print(to_numpy(run_pair(x=np.arange(3.0))))" in result.new_source
    assert_same_output(run_legacy(PY_FUNC_LIST), run_migrated(result.new_source))
