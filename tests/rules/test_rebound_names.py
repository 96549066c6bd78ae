"""rebound-names: a name graph code read, bound again before a run: the earlier value gets a name of its own."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# hunkim lab-06-1: the bias variable's name `b` is reused for a result between runs of `hypothesis`.
REUSED_VARIABLE_NAME = '''
import tensorflow as tf

X = tf.placeholder(tf.float32, [None, 2])
W = tf.Variable([[0.5, -1.0], [1.5, 0.25]], name='weight')
b = tf.Variable([0.1, -0.2], name='bias')
hypothesis = tf.nn.softmax(tf.matmul(X, W) + b)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a = sess.run(hypothesis, feed_dict={X: [[1.0, 2.0]]})
    b = sess.run(hypothesis, feed_dict={X: [[3.0, -1.0]]})
    c = sess.run(hypothesis, feed_dict={X: [[0.5, 0.5]]})
    print(a, b, c)
'''

CHAIN = '''
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
a = tf.constant([1.0, 2.0, 3.0])
y = x * a
a *= 2.0
h = y + a
a -= 1.0
with tf.Session() as sess:
    print(sess.run([y, h, a], {x: [1.0, 1.0, 1.0]}))
'''


@pytest.mark.parametrize("source, expected", [
    pytest.param(REUSED_VARIABLE_NAME, ["b_2 = tf.Variable([0.1, -0.2], name='bias')", "tf.matmul(X, W) + b_2"],
                 id="variable name reused for a result"),
    pytest.param(CHAIN, ["a_2 = tf.constant([1.0, 2.0, 3.0])", "a_3 = a_2 * 2.0", "a = a_3 - 1.0"],
                 id="augmented assignments in a chain"),
])
def test_each_value_keeps_the_name_its_readers_see(source, expected):
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    for line in expected:
        assert line in result.new_source, result.new_source
    assert any(f.rule == "rebound-names" for f in result.findings)
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_function_that_reads_the_name_when_called_keeps_compat():
    # `report()` reads whichever `b` is bound when it is called: renaming the first would change it.
    source = REUSED_VARIABLE_NAME.replace("with tf.Session()", "def report():\n    return b\n\n\nwith tf.Session()")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "bound again after graph code reads it" in result.compat_reason
    assert not any(f.rule == "rebound-names" for f in result.findings)
