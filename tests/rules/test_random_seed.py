"""random-seed: tf.set_random_seed -> tf.random.set_seed (the same global seed in eager mode)."""
import pytest

from tf_migrate.engine import migrate_source


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\n", id="set_random_seed"),
    pytest.param("import tensorflow.compat.v1 as tf\ntf.random.set_random_seed(seed=7)\n",
                 "import tensorflow.compat.v1 as tf\ntf.random.set_seed(seed=7)\n", id="random.set_random_seed keyword"),
    pytest.param("import tensorflow as tf\ntf.random.set_seed(1)\n", None, id="noop tf2 name"),
])
def test_rewrite(before, after):
    assert migrate_source(before, "case.py", select={"random-seed"}).new_source == (after or before)
