"""argument-closures: a helper always given the caller's session and graph values reads them where they live."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.argument_closures import ArgumentClosures
from tests.trees import migrate, output
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# yungshenglu's Morvan lessons (8-Classification): the helper takes the session, the prediction and the
# placeholders main() made, and computes the accuracy with two runs; kept compat before ("`xs` (placeholder) is
# used outside sess.run").
PROGRAM = '''import numpy as np
import tensorflow as tf


def compute_accuracy(sess, prediction, xs, ys, v_xs, v_ys):
    y_pre = sess.run(prediction, feed_dict={xs: v_xs})
    correct = tf.equal(tf.argmax(y_pre, 1), tf.argmax(v_ys, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return sess.run(accuracy, feed_dict={xs: v_xs, ys: v_ys})


def main():
    data = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    labels = np.eye(2, dtype=np.float32)[[0, 1, 1, 0]]
    xs = tf.placeholder(tf.float32, [None, 3])
    ys = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.fill([3, 2], 0.1))
    prediction = tf.nn.softmax(tf.matmul(xs, w) + tf.constant([0.0, 0.05]))
    loss = tf.reduce_mean(-tf.reduce_sum(ys * tf.log(prediction), axis=1))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            sess.run(train, feed_dict={xs: data, ys: labels})
            accuracy = compute_accuracy(sess, prediction, xs, ys, data, labels)
            print(step, accuracy, sess.run(loss, {xs: data, ys: labels}))


if __name__ == "__main__":
    main()
'''


def _rule_alone(source: str) -> str:
    return apply_alone(ArgumentClosures(), source, "helper.py")


def test_the_helper_moves_into_the_function_that_binds_what_it_is_given():
    code = _rule_alone(PROGRAM)
    assert "def main():\n    def compute_accuracy(v_xs, v_ys):\n        y_pre = sess.run(prediction" in code
    assert "accuracy = compute_accuracy(data, labels)" in code
    assert code.count("def compute_accuracy") == 1


def test_the_program_converts_and_prints_the_legacy_numbers():
    result = migrate_source(PROGRAM, "helper.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


def test_at_module_level_the_helper_reads_the_module_names_under_their_own_names():
    source = '''import tensorflow as tf


def evaluate(s, y, feed_x, value):
    return s.run(y, {feed_x: value})


x = tf.placeholder(tf.float32, [2])
out = x * 2.0
sess = tf.Session()
print(evaluate(sess, out, x, [1.0, 2.0]))
print(evaluate(sess, out, x, value=[3.0, 4.0]))
'''
    code = _rule_alone(source)
    assert "def evaluate(value):\n    return sess.run(out, {x: value})\n" in code
    assert "print(evaluate([1.0, 2.0]))\nprint(evaluate(value=[3.0, 4.0]))\n" in code
    result = migrate_source(source, "module_level.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("why, change", [
    ("the session bound again in a loop", ("    with tf.Session() as sess:\n        sess.run(tf.global",
                                           "    for _ in range(1):\n      with tf.Session() as sess:\n"
                                           "        sess.run(tf.global")),
    ("called from two functions", ("\n\nif __name__", "\n\ndef other(sess, prediction, xs, ys):\n"
                                                   "    return compute_accuracy(sess, prediction, xs, ys, 1, 2)\n"
                                                   "\n\nif __name__")),
    ("the helper binds its session again", ("    y_pre = sess.run(", "    sess = sess\n    y_pre = sess.run(")),
    ("a function of a library (the module never calls main)", ("    main()\n", "    pass\n")),
    ("moved, a global the helper reads would be main's local", ("correct = tf.equal(", "correct = data + tf.equal(")),
    ("a session the calls do not all pass", ("accuracy = compute_accuracy(sess,",
                                             "accuracy = compute_accuracy(tf.get_default_session(),")),
])
def test_helpers_it_cannot_move_exactly_are_left_alone(why, change):
    source = PROGRAM.replace(*change)
    assert source != PROGRAM, why
    assert _rule_alone(source) == source, why


# Another module of the tree imports the helper and calls it with its own session and graph values: the helper's
# signature must not change under it. The project pass ties the two modules (the importer passes graph values to
# code of another module, so it stays compat), and the helper stays as it was.
IMPORTER = '''import numpy as np
import tensorflow as tf
from lesson import compute_accuracy

xs = tf.placeholder(tf.float32, [None, 3])
ys = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.fill([3, 2], 0.2))
prediction = tf.nn.softmax(tf.matmul(xs, w))
data = np.ones((4, 3), np.float32)
labels = np.eye(2, dtype=np.float32)[[0, 1, 1, 0]]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(compute_accuracy(sess, prediction, xs, ys, data, labels))
'''


def test_a_helper_another_module_imports_keeps_its_parameters(tmp_path):
    _, outcomes, _ = migrate(tmp_path, {"lesson.py": PROGRAM, "other.py": IMPORTER})
    assert outcomes == {"lesson.py": "compat", "other.py": "compat"}
    assert "def compute_accuracy(sess, prediction, xs, ys, v_xs, v_ys):" in output(tmp_path, "lesson.py")
    assert "compute_accuracy(sess, prediction, xs, ys, data, labels)" in output(tmp_path, "lesson.py")
