"""summary-loops: summaries registered in a loop over the trainable variables, tagged by their TF1 names, are
written out one per variable; the migrated program writes the legacy events."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated, summary_events

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
with tf.name_scope("model"):
    weights = {"w": tf.Variable(tf.ones([2, 1]) * 0.5, name="W")}
    b = tf.Variable(tf.zeros([1]), name="b")
scale = tf.Variable(0.3, name="B")
loss = tf.reduce_mean(tf.square((tf.matmul(x, weights["w"]) + b) * scale - y))
tf.summary.scalar("loss", loss)
grads = tf.gradients(loss, tf.trainable_variables())
grads = list(zip(grads, tf.trainable_variables()))
step = tf.train.GradientDescentOptimizer(0.1).apply_gradients(grads)
for var in tf.trainable_variables():
    tf.summary.histogram(var.name, var)
    tf.summary.scalar("{}/mean".format(var.name), tf.reduce_mean(var))
for grad, var in grads:
    tf.summary.histogram(var.name + "/gradient", grad)
merged = tf.summary.merge_all()
xs = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
ys = np.array([[1.0], [0.5]], np.float32)
with tf.Session() as sess:
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        l, _ = sess.run([loss, step], feed_dict={x: xs, y: ys})
        s = sess.run(merged, feed_dict={x: xs, y: ys})  # (TF1 gave a run with the step no order)
        writer.add_summary(s, i)
        print(i, l)
    writer.close()
'''


def test_loops_are_written_out_with_the_tags_tf1_gave(tmp_path):
    result = migrate_source(PROGRAM, "loops.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "for var in" not in code and "for grad, var in" not in code
    # TF1's names: scoped, uniquified, ":" cleaned to "_".
    for key in ("'model/W_0': weights[\"w\"]", "'model/b_0': b", "'B_0': scale", "'model/W_0/gradient': grads[0][0]",
                "'B_0/gradient': grads[2][0]", "'model/W_0/mean': tf.reduce_mean(weights[\"w\"])"):
        assert key in code, key
    legacy_dir, migrated_dir = tmp_path / "legacy", tmp_path / "migrated"
    legacy_dir.mkdir()
    migrated_dir.mkdir()
    before = run_legacy(PROGRAM.replace("LOGDIR", repr(str(legacy_dir))))
    after = run_migrated(code.replace("LOGDIR", repr(str(migrated_dir))))
    assert_same_output(before, after)
    legacy, migrated = summary_events(legacy_dir), summary_events(migrated_dir)
    assert len(legacy) == 3 * 10 and set(legacy) == set(migrated)
    for key, (kind, number) in legacy.items():
        assert migrated[key][0] == kind, key
        if number is not None:
            assert migrated[key][1] == pytest.approx(number, rel=1e-5), key


def test_a_variable_tf1_named_twice_gets_its_unique_name():
    source = PROGRAM.replace('name="B"', 'name="loss"')  # TF1: the variable is "loss", the summary op "loss_1"
    code = migrate_source(source, "loops.py").new_source
    assert "'loss_1': loss" in code and "'loss_0': scale" in code


@pytest.mark.parametrize("change, old", [
    ("print(var.name)\nmerged = tf.summary.merge_all()", "merged = tf.summary.merge_all()"),  # reads the last item
    ("scale = tf.layers.dense(x, 1)", 'scale = tf.Variable(0.3, name="B")'),  # a layer names its variables
    ("for var in tf.global_variables():", "for var in tf.trainable_variables():"),
    ('tf.summary.histogram(grad.name, grad)', 'tf.summary.histogram(var.name + "/gradient", grad)'),
    # a variable made between the gradients and the zip: the pairs list it, the gradients do not
    ('extra = tf.Variable(1.0, name="extra")\ngrads = list(zip(', "grads = list(zip("),
])
def test_loops_it_cannot_write_out_keep_compat(change, old):
    source = PROGRAM.replace(old, change)
    result = migrate_source(source, "loops.py")
    assert result.outcome == "compat"
    assert not any(f.rule == "summary-loops" for f in result.findings)
