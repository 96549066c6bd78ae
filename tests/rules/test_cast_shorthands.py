"""cast-shorthands: tf.to_float(x) and the other tf.to_* casts -> tf.cast(x, dtype)."""
import pytest

from tf_migrate.engine import migrate_source

HEAD = "import tensorflow as tf\n"


@pytest.mark.parametrize("before, after", [
    pytest.param("y = tf.to_float(x)\n", "y = tf.cast(x, tf.float32)\n", id="to_float"),
    pytest.param("y = tf.to_double(x)\n", "y = tf.cast(x, tf.float64)\n", id="to_double"),
    pytest.param("y = tf.to_int32(x, name='n')\n", "y = tf.cast(x, tf.int32, name='n')\n", id="to_int32 with name"),
    pytest.param("y = tf.to_int64(x=v)\n", "y = tf.cast(v, tf.int64)\n", id="to_int64 keyword"),
    pytest.param("y = tf.to_complex64(tf.to_float(x))\n", "y = tf.cast(tf.cast(x, tf.float32), tf.complex64)\n",
                 id="nested"),
    pytest.param("y = tf.to_float(*args)\n", None, id="noop starred"),
    pytest.param("y = tf.cast(x, tf.float32)\n", None, id="noop tf2 cast"),
])
def test_rewrite(before, after):
    result = migrate_source(HEAD + before, "case.py", select={"cast-shorthands"})
    assert result.new_source == HEAD + (after or before)


def test_alias_of_compat_v1():
    source = "import tensorflow.compat.v1 as tfv1\ny = tfv1.to_float(x)\n"
    result = migrate_source(source, "case.py", select={"cast-shorthands"})
    assert "y = tfv1.cast(x, tfv1.float32)\n" in result.new_source
