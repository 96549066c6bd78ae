"""initialized-values: v.initialized_value() -> v.read_value()."""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

PROGRAM = """
import numpy as np
import tensorflow as tf

w1 = tf.Variable([1.0, 2.0])
w2 = tf.Variable(w1.initialized_value() * 2.0)
x = tf.placeholder(tf.float32, [2])
loss = tf.reduce_sum(tf.square(w1 * x - w2))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        print(step, sess.run([train, loss], {x: [1.0, 0.5]})[1])
    print(sess.run(w1), sess.run(w2))
"""


def test_a_variable_initialized_from_another_reads_its_initial_value(tmp_path):
    result = migrate_source(PROGRAM, "init_from.py")
    assert result.outcome == "eager", result.compat_reason
    assert "w2 = tf.Variable(w1.read_value() * 2.0)" in result.new_source
    # (verify_program: TF1's reference variables have the method; the in-process twin's resource ones do not)
    verified = verify_program(PROGRAM, result.new_source, path=tmp_path / "init_from.py", timeout=240)
    assert verified.status == "equivalent", verified.detail


def test_other_methods_and_calls_with_arguments_are_left():
    source = "import tensorflow as tf\na = obj.initialized_value(1)\nb = obj.initial_value\n"
    result = migrate_source(source, "case.py", select={"initialized-values"})
    assert result.new_source == source
