"""numpy-function: tf.py_func -> tf.numpy_function, the same op under its TF2 name."""
import pytest

from tf_migrate.engine import migrate_source

HEAD = "import tensorflow as tf\n"


@pytest.mark.parametrize("before, after", [
    pytest.param("y = tf.py_func(f, [x], tf.float32)\n", "y = tf.numpy_function(f, [x], tf.float32)\n",
                 id="positional"),
    pytest.param("y = tf.py_func(func=f, inp=[x], Tout=[tf.int64], stateful=False, name='p')\n",
                 "y = tf.numpy_function(func=f, inp=[x], Tout=[tf.int64], stateful=False, name='p')\n",
                 id="keywords kept"),
    pytest.param("y = tf.py_function(f, [x], tf.float32)\n", None, id="noop py_function"),
])
def test_rewrite(before, after):
    result = migrate_source(HEAD + before, "case.py", select={"numpy-function"})
    assert result.new_source == HEAD + (after or before)


def test_py_func_no_longer_keeps_a_session_program_in_compat_mode():
    source = (HEAD + "x = tf.placeholder(tf.float32, [2])\ny = tf.py_func(lambda a: a * 2, [x], tf.float32)\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: [1.0, 2.0]}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.findings
    assert "tf.numpy_function(lambda a: a * 2, [x], tf.float32)" in result.new_source
