"""continuation-indents: a backslash continuation left of its statement moves under it, in rewritten files."""
import pytest

from tf_migrate.engine import migrate_source

RULES = {"continuation-indents", "random-seed"}


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\ndef f(a, b):\n    c = a + \\\nb\n    return c\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\ndef f(a, b):\n    c = a + \\\n        b\n    return c\n",
                 id="continuation at column 0 under a statement at 4"),
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\nif True:\n    with x:\n        c = 1 + \\\n    2 + \\\n"
                 "            3\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\nif True:\n    with x:\n        c = 1 + \\\n"
                 "            2 + \\\n            3\n",
                 id="each continuation line of a statement"),
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\nc = 1 + \\\n        2\n", None,
                 id="a continuation right of its statement is left as written"),
    pytest.param("import tensorflow as tf\ndef f(a, b):\n    c = a + \\\nb\n    return c\n", None,
                 id="noop file no rule changed"),
])
def test_rewrite(before, after):
    expected = after or before.replace("tf.set_random_seed", "tf.random.set_seed")
    assert migrate_source(before, "case.py", select=RULES).new_source == expected


def test_a_statement_moved_into_a_generated_function_keeps_its_continuation_under_it():
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
              "loss = tf.reduce_sum(x) + \\\n    tf.reduce_mean(x)\n"
              "with tf.Session() as sess:\n    print(sess.run(loss, {x: [1.0, 2.0]}))\n")
    new = migrate_source(source, "case.py").new_source
    assert "    loss = tf.reduce_sum(x) + \\\n        tf.reduce_mean(x)\n" in new
