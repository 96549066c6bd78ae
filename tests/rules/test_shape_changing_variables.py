"""shape-changing-variables: tf.Variable(validate_shape=False) -> tf.Variable(shape=tf.TensorShape(None))."""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

# WOW5678's tensorflow_study `tensorflow_test_11.py` (held-out probe 45): a vector grown by one assignment per run.
GROWING = """
import tensorflow as tf

a = tf.Variable(initial_value=[], dtype=tf.float32, validate_shape=False)
b = tf.concat([a, [1, 0, 2.0]], axis=0)
grow = tf.assign(ref=a, value=b, validate_shape=False)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(grow)
        print(sess.run(a))
"""


def test_a_variable_whose_shape_an_assignment_changes_is_made_of_any_shape(tmp_path):
    # It converted with the variable's shape fixed at (0,): "Cannot assign value to variable ... Shape mismatch"
    # in the compiled run function, in a file reported as converted.
    result = migrate_source(GROWING, "growing.py")
    assert result.outcome == "eager", result.compat_reason
    assert "a = tf.Variable(initial_value=[], dtype=tf.float32, shape=tf.TensorShape(None))" in result.new_source
    verified = verify_program(GROWING, result.new_source, path=tmp_path / "growing.py", timeout=240)
    assert verified.status == "equivalent", verified.detail


def test_an_assignment_that_changes_the_shape_of_a_variable_of_fixed_shape_keeps_compat():
    source = GROWING.replace(", validate_shape=False)\nb =", ")\nb =")
    result = migrate_source(source, "fixed.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("`tf.assign(..., validate_shape=False)` gives `a` the value's shape")


def test_a_get_variable_without_shape_validation_keeps_compat():
    source = GROWING.replace("tf.Variable(initial_value=[], dtype=tf.float32, validate_shape=False)",
                             "tf.get_variable('a', initializer=tf.zeros([0]), validate_shape=False)")
    result = migrate_source(source, "store.py")
    assert result.outcome == "compat"
    assert "`tf.get_variable(validate_shape=False)`" in result.compat_reason
