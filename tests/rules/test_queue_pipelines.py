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


def _compat_because(source: str, why: str) -> None:
    result = migrate_source(source, "reader.py")
    assert result.outcome == "compat", result.new_source
    assert any(why in f.message for f in result.findings), [f.message for f in result.findings]


def test_orders_tf1_drew_from_a_seed_stay_compat_with_the_reason():
    two_files = PROGRAM.replace("FILES", "['a.csv', 'b.csv']")
    for change in [("shuffle=False,", "seed=3,"), ("import numpy as np", "import numpy as np\ntf.set_random_seed(1)"),
                   ("tf.train.batch([xy[0:-1], xy[-1:]], batch_size=4)",
                    "tf.train.shuffle_batch([xy[0:-1], xy[-1:]], 4, 20, 5, seed=2)")]:
        source = two_files.replace(*change)
        if "shuffle_batch" not in source and "seed=3" not in source:
            source = source.replace("shuffle=False,", "")
        assert _rule_alone(source) == source, change
        _compat_because(source, "from a seed: TF1's order repeats from run to run")


def test_one_file_shuffled_is_read_in_order():
    code = _rule_alone(PROGRAM.replace("FILES", "['a.csv']").replace("shuffle=False, ", ""))
    assert "filename_queue = tf.data.Dataset.from_tensor_slices(['a.csv']).repeat()\n" in code


def test_file_names_tf1_shuffled_without_a_seed_are_shuffled_each_epoch():
    code = _rule_alone(PROGRAM.replace("shuffle=False, ", ""))
    assert ("filename_queue = tf.data.Dataset.from_tensor_slices(FILES)\n"
            "filename_queue = filename_queue.shuffle(filename_queue.cardinality()).repeat()\n") in code


def test_a_read_key_a_padded_batch_and_per_run_values_stay_compat(tmp_path):
    source = PROGRAM.replace("FILES", _files(tmp_path))
    _compat_because(source.replace("print(cost_val)", "print(cost_val, sess.run(key))"),
                    "the reader's key is used")
    _compat_because(source.replace("batch_size=4)", "batch_size=4, dynamic_pad=True)"), "with `dynamic_pad`")
    scaled = source.replace("xy = tf.decode_csv(value, record_defaults=record_defaults)",
                            "scale = tf.placeholder_with_default(1.0, [])\n"
                            "xy = tf.decode_csv(value, record_defaults=record_defaults) * scale")
    _compat_because(scaled, "reads `scale`, which TF1 computed again in each run")
    _compat_because(source.replace("print(cost_val)", "print(cost_val, sess.run(xy))"),
                    "`xy` is read outside it")
    # TF1's op read `record_defaults` where it stood; the dataset's function, traced at the batcher, the later value.
    batcher = "train_x_batch, train_y_batch = tf.train.batch("
    rebound = source.replace(batcher, "record_defaults = [[1.], [1.], [1.], [1.]]\n" + batcher)
    _compat_because(rebound, "`record_defaults`, which the queue's element code or reader reads, is bound here")


def test_several_batching_threads_give_one_of_tf1s_orders(tmp_path):
    source = PROGRAM.replace("FILES", _files(tmp_path)).replace("batch_size=4)", "batch_size=4, num_threads=1)")
    threaded = source.replace("num_threads=1", "num_threads=4")
    assert _rule_alone(threaded) == _rule_alone(source)
    result = migrate_source(source, "reader.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
