"""case-pairs: tf.case's dict of predicates -> pairs where order cannot matter; compat where it can.

The numeric golden case tests/golden/case_dict_exclusive.py runs both programs.
"""
from tf_migrate.engine import migrate_source

HEADER = "import tensorflow as tf\n"


def test_exclusive_dict_becomes_pairs_in_source_order():
    source = HEADER + "out = tf.case({a < b: f, a > b: g}, default=h, exclusive=True)\n"
    result = migrate_source(source, "case.py", select={"case-pairs"})
    assert result.new_source == HEADER + "out = tf.case([(a < b, f), (a > b, g)], default=h, exclusive=True)\n"


def test_list_of_pairs_is_left_alone():
    source = HEADER + "out = tf.case([(a < b, f)], default=h)\n"
    assert migrate_source(source, "case.py", select={"case-pairs"}).new_source == source


def test_dict_without_exclusive_keeps_the_file_in_compat_mode_with_the_reason():
    source = (HEADER + "x = tf.placeholder(tf.float32, [])\n"
              "out = tf.case({x < 1.0: lambda: x, x > 0.0: lambda: -x}, default=lambda: x)\n"
              "with tf.Session() as sess:\n    print(sess.run(out, {x: 0.5}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert any(f.line == 3 and "order of their op names" in f.message for f in result.findings)
