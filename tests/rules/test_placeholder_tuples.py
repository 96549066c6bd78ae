"""placeholder-tuples: placeholders made in one tuple assignment are made one per line, and the program feeding
them converts (it stayed compat: neither name was known as a placeholder)."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.placeholder_tuples import PlaceholderTuples
from tests.rules.alone import apply_alone
from tests.twins import assert_same_output, run_legacy, run_migrated

HEAD = "import tensorflow as tf\n"


def test_rewrite_keeps_the_comments_of_the_line():
    source = HEAD + "# inputs\nX, Y = tf.placeholder('float'), tf.placeholder(tf.float32, [None])  # x and y\n"
    assert apply_alone(PlaceholderTuples(), source) == HEAD + (
        "# inputs\nX = tf.placeholder('float')\nY = tf.placeholder(tf.float32, [None])  # x and y\n")


def test_attributes_in_a_method_are_split_too():
    source = HEAD + "class M:\n    def __init__(self):\n" \
                    "        self.x, self.keep = tf.placeholder(tf.float32), tf.placeholder_with_default(1.0, [])\n"
    assert apply_alone(PlaceholderTuples(), source) == HEAD + (
        "class M:\n    def __init__(self):\n"
        "        self.x = tf.placeholder(tf.float32)\n        self.keep = tf.placeholder_with_default(1.0, [])\n")


@pytest.mark.parametrize("line", [
    pytest.param("a, b = tf.placeholder(tf.float32), b", id="an element that is not a TF call"),
    pytest.param("a, b = tf.constant(1.0), tf.constant(2.0)", id="no placeholder"),
    pytest.param("b = tf.constant(1.0)\na, b = tf.placeholder(tf.float32), tf.identity(a)",
                 id="an element reading a name the line binds"),
    pytest.param("a, b = tf.placeholder(tf.float32), tf.placeholder(tf.float32, a.shape)",
                 id="a later element reading an earlier target"),
    pytest.param("a, *b = tf.placeholder(tf.float32), tf.placeholder(tf.float32)", id="a starred target"),
    pytest.param("a, b = pair = tf.placeholder(tf.float32), tf.placeholder(tf.float32)", id="two targets"),
])
def test_tuples_whose_split_could_read_other_values_are_left_alone(line):
    source = HEAD + line + "\n"
    assert apply_alone(PlaceholderTuples(), source) == source


LINEAR_REGRESSION = HEAD + """import numpy as np

X, Y = tf.placeholder('float'), tf.placeholder('float')
w = tf.Variable(0.5)
b = tf.Variable(0.1)
loss = tf.reduce_mean(tf.square(w * X + b - Y))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
xs = np.array([1.0, 2.0, 3.0])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, l = sess.run([train, loss], feed_dict={X: xs, Y: 2 * xs + 1})
        print(step, l)
    print(sess.run([w, b]))
"""


def test_a_program_feeding_tuple_placeholders_converts_and_prints_the_same():
    # (helloJamest's tensorflow_v1 `Linear Regression.py`: compat before, "`X` is fed, but the analysis cannot
    # tell its dtype")
    migrated = migrate_source(LINEAR_REGRESSION, "linear.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source and "placeholder" not in migrated.new_source
    assert_same_output(run_legacy(LINEAR_REGRESSION), run_migrated(migrated.new_source))
