"""variable-list-aliases: tf.all_variables() -> tf.global_variables(), which converts as any variable list."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEAD = "import tensorflow as tf\n"


def test_rewrite():
    result = migrate_source(HEAD + "vs = tf.all_variables()\n", "case.py", select={"variable-list-aliases"})
    assert result.new_source == HEAD + "vs = tf.global_variables()\n"


def test_alias_of_compat_v1():
    source = "import tensorflow.compat.v1 as v1\nvs = v1.all_variables()\n"
    result = migrate_source(source, "case.py", select={"variable-list-aliases"})
    assert result.new_source == "import tensorflow.compat.v1 as v1\nvs = v1.global_variables()\n"


def test_a_program_listing_all_variables_converts_and_prints_the_same():
    # (imilesmile's tensorflow_api_t.py: `for v in tf.all_variables(): print(v.name)`, then kept compat)
    source = HEAD + """import numpy as np

w = tf.Variable(np.ones((2, 1), np.float32), name="w")
step = tf.Variable(0, trainable=False, name="step")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(tf.all_variables()))
    for v in tf.all_variables():
        print(v.name)
"""
    result = migrate_source(source, "listing.py")
    assert result.outcome == "eager", result.findings
    assert "all_variables" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
