"""queue-pipelines: a TF1 reader pipeline over text files becomes tf.data, in TF1's element order."""

from tf_migrate.engine import migrate_source
from tf_migrate.rules.queue_pipelines import QueuePipelines
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# hunkim's lab-04-4, with a header line and two files: batches cross from one file (and epoch) into the next.
PROGRAM = '''
import numpy as np
import tensorflow as tf

filename_queue = tf.train.string_input_producer(FILES, shuffle=False, name='filename_queue')
reader = tf.TextLineReader(skip_header_lines=1)
key, value = reader.read(filename_queue)
record_defaults = [[0.], [0.], [0.], [0.]]
xy = tf.decode_csv(value, record_defaults=record_defaults)
train_x_batch, train_y_batch = tf.train.batch([xy[0:-1], xy[-1:]], batch_size=4)
X = tf.placeholder(tf.float32, shape=[None, 3])
Y = tf.placeholder(tf.float32, shape=[None, 1])
W = tf.Variable(tf.fill([3, 1], 0.01))
hypothesis = tf.matmul(X, W)
cost = tf.reduce_mean(tf.square(hypothesis - Y))
train = tf.train.GradientDescentOptimizer(learning_rate=1e-4).minimize(cost)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
coord = tf.train.Coordinator()
threads = tf.train.start_queue_runners(sess=sess, coord=coord)
for step in range(5):
    x_batch, y_batch = sess.run([train_x_batch, train_y_batch])
    print(step, x_batch[:, 0], y_batch.ravel())
    cost_val, _ = sess.run([cost, train], feed_dict={X: x_batch, Y: y_batch})
    print(cost_val)
coord.request_stop()
coord.join(threads)
print(sess.run(hypothesis, feed_dict={X: [[100, 70, 101]]}))
'''


def _files(tmp_path):
    paths = []
    for number in range(2):
        path = tmp_path / f"scores{number}.csv"
        rows = [f"{10 * number + i},{i + 1},{2 * i},{50 + 10 * number + i}" for i in range(5)]
        path.write_text("a,b,c,y\n" + "\n".join(rows) + "\n")
        paths.append(str(path))
    return repr(paths)


def _rule_alone(source: str) -> str:
    return apply_alone(QueuePipelines(), source, "reader.py")


def test_the_pipeline_becomes_a_dataset_and_the_coordinator_goes():
    code = _rule_alone(PROGRAM)
    assert ("filename_queue = tf.data.Dataset.from_tensor_slices(FILES).repeat()\n"
            "value = filename_queue.flat_map(lambda filename: tf.data.TextLineDataset(filename).skip(1))\n") in code
    assert "def batch_elements(value):\n    xy = tf.decode_csv(value, record_defaults=record_defaults)\n" \
           "    return xy[0:-1], xy[-1:]\n" in code
    assert ("batches = value.map(batch_elements).batch(4, drop_remainder=True)\n"
            "train_x_batch, train_y_batch = tf.data.make_one_shot_iterator(batches).get_next()\n") in code
    assert "Coordinator" not in code and "queue_runners" not in code and "coord." not in code


def test_the_program_converts_and_reads_the_batches_tf1_read(tmp_path):
    source = PROGRAM.replace("FILES", _files(tmp_path))
    result = migrate_source(source, "reader.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_epochs_and_a_short_last_batch(tmp_path):
    source = PROGRAM.replace("FILES", _files(tmp_path)).replace(
        "shuffle=False,", "shuffle=False, num_epochs=1,").replace(
        "batch_size=4)", "batch_size=4, allow_smaller_final_batch=True)").replace(
        "sess.run(tf.global_variables_initializer())",
        "sess.run(tf.global_variables_initializer())\nsess.run(tf.local_variables_initializer())").replace(
        "for step in range(5):", "for step in range(3):")
    result = migrate_source(source, "reader.py")
    assert ".repeat(1)" in result.new_source and "drop_remainder" not in result.new_source
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_pipelines_whose_order_tf1_did_not_fix_stay():
    for change in [("shuffle=False", "shuffle=True"), ("tf.train.batch(", "tf.train.shuffle_batch("),
                   ("batch_size=4)", "batch_size=4, num_threads=4)"),
                   ("print(cost_val)", "print(cost_val, sess.run(key))")]:
        source = PROGRAM.replace(*change)
        assert _rule_alone(source) == source, change
        assert migrate_source(source.replace("FILES", "['a.csv']"), "reader.py").outcome == "compat", change
