"""tf-alias: `import tensorflow as tf1` -> `import tensorflow as tf` where it is a plain rename."""
import pytest

from tf_migrate.engine import migrate_source

RULES = {"tf-alias"}


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf1\nx = tf1.constant(1.0)\ny = tf1.nn.relu(x)\n",
                 "import tensorflow as tf\nx = tf.constant(1.0)\ny = tf.nn.relu(x)\n", id="alias renamed"),
    pytest.param("import tensorflow as tf1\ntf = 3\nx = tf1.constant(1.0)\n", None, id="noop tf bound"),
    pytest.param("import tensorflow as tf1\ndef f(tf1):\n    return tf1.x\n", None, id="noop alias shadowed"),
    pytest.param("import tensorflow as tf1\nmodule = tf1\n", None, id="noop alias used bare"),
    pytest.param("import tensorflow as tf1\nimport tensorflow.compat.v1 as v1\nx = tf1.constant(1.0)\n", None,
                 id="noop two imports"),
    pytest.param("import tensorflow as tf\nx = tf.constant(1.0)\n", None, id="noop already tf"),
])
def test_rewrite(before, after):
    assert migrate_source(before, "case.py", select=RULES).new_source == (after or before)
