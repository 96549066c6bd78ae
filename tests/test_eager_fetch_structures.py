"""A run of values eager code computes where they stand, held in a list (``fetch = [a, b]``, ``tf.unstack(a)``, a
list a loop fills), gives a list of numpy values, as TF1's run did.

Before: written ``fetch.numpy()`` (an AttributeError on a list; FrankWork's tf-tutorials examples, probe 20)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

HEAD = "import tensorflow as tf\n\na = tf.reshape(tf.range(6), [2, 3])\nb = a * 2\n"


@pytest.mark.parametrize("held, run", [
    ("fetch = [a, b]", "for v in sess.run(fetch):\n        print(v)"),
    ("parts = tf.unstack(a)", "print(sess.run(parts))"),
    ("buf = []\nfor i in range(2):\n    buf.append(a * i)", "for v in sess.run(buf):\n        print(v)"),
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
