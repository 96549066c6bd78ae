"""streaming-metrics: tf.metrics.accuracy / mean -> Keras metrics, updated, read and reset where TF1 did."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
labels = tf.placeholder(tf.int64, [None])
w = tf.Variable([[0.5, -0.5], [0.25, 1.0]])
logits = tf.matmul(x, w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
acc, acc_op = tf.metrics.accuracy(labels, tf.argmax(logits, 1))
mean_loss, mean_loss_op = tf.metrics.mean(loss)
init = tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())
X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.0], [0.0, 0.5]], np.float32)
Y = np.array([1, 0, 0, 1, 1])
with tf.Session() as sess:
    sess.run(init)
    for epoch in range(3):
        sess.run(tf.local_variables_initializer())
        for start in range(0, 5, 2):  # batches of 2, 2 and 1: per-element counts, not per-batch means
            feed = {x: X[start:start + 2], labels: Y[start:start + 2]}
            _, running, _ = sess.run([train, acc_op, mean_loss_op], feed)
            print(epoch, start, running)
        print(epoch, sess.run([acc, mean_loss]))
"""


def test_metrics_update_per_run_and_reset_where_the_local_initializer_ran():
    result = migrate_source(PROGRAM, "metrics.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "acc_metric = tf.keras.metrics.Accuracy()" in code
    assert "mean_loss_metric = tf.keras.metrics.Mean()" in code
    assert "acc_op = acc_metric(labels, tf.argmax(logits, 1))" in code
    assert "acc = acc_metric.result()" in code
    # After the grouped initializer and after the per-epoch one: TF1 set the totals and counts to zero there.
    assert code.count("acc_metric.reset_state()") == 2 and code.count("mean_loss_metric.reset_state()") == 2
    assert "metrics.accuracy" not in code and "local_variables_initializer" not in code
    assert_same_output(run_legacy(PROGRAM), run_migrated(code))


@pytest.mark.parametrize("change, why", [
    ("acc, acc_op = tf.metrics.accuracy(labels, tf.argmax(logits, 1), weights=tf.ones_like(labels))", "weights"),
    ("acc, acc_op = tf.metrics.auc(labels, tf.nn.softmax(logits)[:, 1])", "another metric"),
])
def test_what_the_rule_does_not_convert_keeps_compat(change, why):
    source = PROGRAM.replace("acc, acc_op = tf.metrics.accuracy(labels, tf.argmax(logits, 1))", change)
    result = migrate_source(source, "metrics.py")
    assert result.outcome == "compat", why
    assert "has no eager rewrite in tf-migrate yet" in result.compat_reason


def test_local_variables_read_by_collection_keep_compat():
    # Resetting one metric through its variables: eager code has no collection of them.
    source = PROGRAM.replace(
        "        sess.run(tf.local_variables_initializer())\n",
        "        sess.run(tf.variables_initializer(tf.get_collection(tf.GraphKeys.LOCAL_VARIABLES)))\n")
    result = migrate_source(source, "metrics.py")
    assert result.outcome == "compat"
    assert "metrics" in result.compat_reason


def test_a_local_initializer_run_inside_a_function_keeps_compat():
    source = PROGRAM.replace("        sess.run(tf.local_variables_initializer())\n", "        reset(sess)\n").replace(
        "with tf.Session() as sess:", "def reset(session):\n    session.run(tf.local_variables_initializer())\n\n\n"
                                      "with tf.Session() as sess:")
    result = migrate_source(source, "metrics.py")
    assert result.outcome == "compat"


# MorvanZhou's tutorials keep one half of the pair: `accuracy = tf.metrics.accuracy(labels=..., predictions=...)[1]`.
SUBSCRIPTED = '''
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.int64, [None])
w = tf.Variable([[1.0, -1.0], [0.5, 0.25]])
logits = tf.matmul(x, w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
accuracy = tf.metrics.accuracy(labels=y, predictions=tf.argmax(logits, axis=1))[1]
value = tf.metrics.mean(loss)[0]
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.group(tf.global_variables_initializer(), tf.local_variables_initializer()))
xs = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.0]], np.float32)
for step in range(4):
    _, acc = sess.run([train, accuracy], {x: xs, y: [1, 0, 0, step % 2]})
    print(acc, sess.run(value))
'''


def test_one_half_of_the_pair_kept_by_subscript():
    result = migrate_source(SUBSCRIPTED, "metrics.py")
    assert result.outcome == "eager", result.compat_reason
    assert "accuracy = accuracy_metric(y, tf.argmax(logits, axis=1))" in result.new_source
    assert "value = value_metric.result()" in result.new_source
    assert_same_output(run_legacy(SUBSCRIPTED), run_migrated(result.new_source))
