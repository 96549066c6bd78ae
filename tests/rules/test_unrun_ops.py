"""unrun-ops: a statement that builds an update or print op and drops it goes (TF1 never ran the op; TF2 ran it at
each call of the code around it: each converting case below printed other numbers before, or was kept compat)."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.unrun_ops import UnrunOps
from tests.rules.alone import apply_alone
from tests.twins import assert_same_output, run_legacy, run_migrated

COUNTED = '''import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
counter = tf.Variable(0.0)


def double(t):
    # count the calls
    tf.assign_add(counter, 1.0)
    tf.Print(t, [t], "t=")
    return t * 2.0


y = double(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [1.0]}))
    print(sess.run(y, {x: [2.0]}))
    print(sess.run(counter))
'''


def test_the_dropped_ops_go_and_their_comments_stay():
    code = apply_alone(UnrunOps(), COUNTED, "counted.py")
    assert "def double(t):\n    # count the calls\n    return t * 2.0\n" in code


def test_the_program_converts_with_the_legacy_numbers():
    migrated = migrate_source(COUNTED, "counted.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "assign_add" not in migrated.new_source
    assert_same_output(run_legacy(COUNTED), run_migrated(migrated.new_source))


@pytest.mark.parametrize("source", [
    pytest.param("import tensorflow as tf\ntf.enable_eager_execution()\nv = tf.Variable(1.0)\ntf.assign_add(v, 1.0)\n",
                 id="a program that turns eager execution on"),
    pytest.param("import tensorflow as tf\nv = tf.Variable(1.0)\n\n\n@tf.function\ndef step():\n"
                 "    tf.assign_add(v, 1.0)\n", id="a function TF traced itself"),
    pytest.param("import tensorflow as tf\nv = tf.Variable(1.0)\nup = tf.assign_add(v, 1.0)\n",
                 id="an op bound to a name"),
    pytest.param("import tensorflow as tf\nv = tf.Variable(1.0)\nv.assign_add(1.0)\n",
                 id="a method, whose object the text does not type"),
])
def test_ops_that_ran_or_may_run_are_kept(source):
    assert apply_alone(UnrunOps(), source, "kept.py") == source


def test_a_notebook_cells_shown_value_is_kept():
    source = "import tensorflow as tf\nv = tf.Variable(1.0)\ntf.assign_add(v, 1.0)\n"
    assert apply_alone(UnrunOps(), source, "shown.ipynb") == source


def test_a_function_passed_as_a_value_is_left_alone():
    source = ("import tensorflow as tf\nv = tf.Variable(1.0)\n\n\ndef parse(x):\n    tf.assign_add(v, 1.0)\n"
              "    return x\n\n\ndata = tf.data.Dataset.range(3).map(parse)\n")
    assert apply_alone(UnrunOps(), source, "kept.py") == source
