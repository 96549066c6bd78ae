"""queue-pipelines: the other sources (slices, TFRecords, fixed-length records, whole files), unbatched reads,
functions that build a pipeline, and what stays compat around them."""

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.test_queue_pipelines import PROGRAM, _compat_because, _rule_alone


SLICES = '''
import numpy as np
import tensorflow as tf
images = np.arange(30, dtype=np.float32).reshape(10, 3)
labels = np.arange(10, dtype=np.int32)
input_queue = tf.train.slice_input_producer([images, labels], shuffle=False)
image = input_queue[0] * 2.0
label = input_queue[1]
image_batch, label_batch = tf.train.batch([image, label], batch_size=4, allow_smaller_final_batch=True)
W = tf.Variable(tf.ones([3, 1]))
out = tf.matmul(image_batch, W)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    for i in range(4):
        o, l = sess.run([out, label_batch])
        print(i, o.ravel(), l)
    coord.request_stop()
    coord.join(threads)
'''


def test_slices_of_arrays_are_sliced_by_a_dataset_in_order():
    code = _rule_alone(SLICES)
    assert ("slices = tf.data.Dataset.from_tensor_slices((images, labels)).repeat()\n\n\n"
            "def batch_elements(*input_queue):\n    image = input_queue[0] * 2.0\n") in code
    assert "batches = slices.map(batch_elements).batch(4)\n" in code
    result = migrate_source(SLICES, "slices.py")
    assert result.outcome == "eager", result.findings
    assert "Coordinator" not in result.new_source
    assert_same_output(run_legacy(SLICES), run_migrated(result.new_source))


def test_slices_tf1_shuffled_without_a_seed_shuffle_and_the_stop_loop_keeps_its_coordinator():
    source = '''
import numpy as np
import tensorflow as tf
x_data = np.arange(24, dtype=np.float32).reshape(12, 2)
y_data = (np.arange(12) % 2).astype(np.float32)
x_one, y_one = tf.train.slice_input_producer([x_data, y_data], num_epochs=2)
x_scaled = x_one / 10.0
xb, yb = tf.train.shuffle_batch([x_scaled, y_one], batch_size=3, capacity=20, min_after_dequeue=5)
total = tf.reduce_sum(xb) + tf.reduce_sum(yb)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
sess.run(tf.local_variables_initializer())
coord = tf.train.Coordinator()
threads = tf.train.start_queue_runners(sess=sess, coord=coord)
seen, steps = 0.0, 0
try:
    while not coord.should_stop():
        seen += sess.run(total)
        steps += 1
except tf.errors.OutOfRangeError:
    print('done after', steps, 'batches; total', round(float(seen), 3))
finally:
    coord.request_stop()
coord.join(threads)
'''
    result = migrate_source(source, "shuffled.py")
    assert result.outcome == "eager", result.findings
    new = result.new_source
    assert "slices = slices.shuffle(slices.cardinality()).repeat(2)\n" in new
    assert "batches = slices.map(batch_elements).shuffle(20).batch(3, drop_remainder=True)\n" in new
    assert "coord = tf.train.Coordinator()\nthreads = []\n" in new  # should_stop() reads it: kept, TF2's too
    # Every element of both epochs is summed, whatever the order: the same total.
    assert_same_output(run_legacy(source), run_migrated(new))


def test_tfrecords_and_fixed_length_records(tmp_path):
    records = tmp_path / "data.tfrecords"
    tfrecords = f'''
import tensorflow as tf
writer = tf.python_io.TFRecordWriter({str(records)!r})
for i in range(12):
    ex = tf.train.Example(features=tf.train.Features(feature={{
        'x': tf.train.Feature(float_list=tf.train.FloatList(value=[float(i), float(i) * 2])),
        'y': tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3]))}}))
    writer.write(ex.SerializeToString())
writer.close()
filename_queue = tf.train.string_input_producer([{str(records)!r}], num_epochs=None)
reader = tf.TFRecordReader()
_, serialized = reader.read(filename_queue)
features = tf.parse_single_example(serialized, features={{
    'x': tf.FixedLenFeature([2], tf.float32), 'y': tf.FixedLenFeature([], tf.int64)}})
xb, yb = tf.train.batch([features['x'], tf.cast(features['y'], tf.int32)], batch_size=5)
s = tf.reduce_sum(xb) + tf.cast(tf.reduce_sum(yb), tf.float32)
sess = tf.Session()
tf.train.start_queue_runners(sess=sess)
for i in range(4):
    print(sess.run([xb, yb, s]))
'''
    binary = tmp_path / "recs.bin"
    fixed = f'''
import numpy as np
import tensorflow as tf
with open({str(binary)!r}, 'wb') as f:
    f.write(b'HD' + np.arange(35, dtype=np.uint8).tobytes())
filename_queue = tf.train.string_input_producer([{str(binary)!r}])
reader = tf.FixedLengthRecordReader(record_bytes=7, header_bytes=2)
key, value = reader.read(filename_queue)
record = tf.decode_raw(value, tf.uint8)
label = tf.reshape(tf.cast(tf.strided_slice(record, [0], [1]), tf.int32), [1])
image = tf.reshape(tf.cast(tf.strided_slice(record, [1], [7]), tf.float32), [6])
images, labels = tf.train.batch([image, label], batch_size=2, capacity=10)
mean = tf.reduce_mean(images)
with tf.Session() as sess:
    tf.train.start_queue_runners(sess=sess)
    for step in range(4):
        m, l = sess.run([mean, labels])
        print(step, m, l.ravel())
'''
    for source, dataset in [(tfrecords, "tf.data.TFRecordDataset(filename))"),
                            (fixed, "tf.data.FixedLengthRecordDataset(filename, 7, 2))")]:
        result = migrate_source(source, "records.py")
        assert result.outcome == "eager", result.findings
        assert dataset in result.new_source and "queue_runners" not in result.new_source
        assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_whole_files_with_their_names(tmp_path):
    names = []
    for i in range(3):
        path = tmp_path / f"f{i}.txt"
        path.write_text("x" * (i + 2))
        names.append(str(path))
    source = f'''
import tensorflow as tf
filename_queue = tf.train.string_input_producer({names!r}, shuffle=False)
reader = tf.WholeFileReader()
key, content = reader.read(filename_queue)
length = tf.strings.length(content)
names, lengths = tf.train.batch([tf.strings.regex_replace(key, '.*/', ''), length], batch_size=2)
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(coord=coord)
    for i in range(3):
        print(sess.run([names, lengths]))
    coord.request_stop()
    coord.join(threads)
'''
    result = migrate_source(source, "files.py")
    assert result.outcome == "eager", result.findings
    assert "filename_queue.map(lambda filename: (filename, tf.io.read_file(filename)))" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_tfs_reader_example_built_by_functions_converts(tmp_path):
    # TF's fully_connected_reader.py layout (inline-build-functions puts the pipeline in the training function).
    records = str(tmp_path / "train.tfrecords")
    source = f'''
import numpy as np
import tensorflow as tf


def write_records():
    writer = tf.python_io.TFRecordWriter({records!r})
    for i in range(20):
        raw = np.full(4, i, np.uint8).tobytes()
        ex = tf.train.Example(features=tf.train.Features(feature={{
            'image_raw': tf.train.Feature(bytes_list=tf.train.BytesList(value=[raw])),
            'label': tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2]))}}))
        writer.write(ex.SerializeToString())
    writer.close()


def read_and_decode(filename_queue):
    reader = tf.TFRecordReader()
    _, serialized_example = reader.read(filename_queue)
    features = tf.parse_single_example(serialized_example, features={{
        'image_raw': tf.FixedLenFeature([], tf.string), 'label': tf.FixedLenFeature([], tf.int64)}})
    image = tf.decode_raw(features['image_raw'], tf.uint8)
    image.set_shape([4])
    image = tf.cast(image, tf.float32) * (1. / 255) - 0.5
    label = tf.cast(features['label'], tf.int32)
    return image, label


def inputs(batch_size, num_epochs):
    filename_queue = tf.train.string_input_producer([{records!r}], num_epochs=num_epochs)
    image, label = read_and_decode(filename_queue)
    images, sparse_labels = tf.train.batch([image, label], batch_size=batch_size, num_threads=1,
                                           capacity=1000 + 3 * batch_size)
    return images, sparse_labels


def run_training():
    with tf.Graph().as_default():
        images, labels = inputs(batch_size=4, num_epochs=2)
        W = tf.Variable(tf.fill([4, 2], 0.1))
        logits = tf.matmul(images, W)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        init_op = tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())
        sess = tf.Session()
        sess.run(init_op)
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            step = 0
            while not coord.should_stop():
                _, loss_value = sess.run([train_op, loss])
                print('Step %d: loss = %.6f' % (step, loss_value))
                step += 1
        except tf.errors.OutOfRangeError:
            print('Done training for %d steps.' % step)
        finally:
            coord.request_stop()
        coord.join(threads)
        sess.close()


write_records()
run_training()
'''
    result = migrate_source(source, "reader.py")
    assert result.outcome == "eager", result.findings
    assert "Session" not in result.new_source and "def inputs" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_an_unbatched_element_read_in_each_run(tmp_path):
    # No batcher: each run dequeued one line; the element code ends where the graph that reads it starts (`W`).
    rows = tmp_path / "rows.csv"
    rows.write_text("".join(f"{i},{i * i},{i % 2}\n" for i in range(6)))
    source = f'''
import tensorflow as tf
filename_queue = tf.train.string_input_producer([{str(rows)!r}])
reader = tf.TextLineReader()
key, value = reader.read(filename_queue)
record_defaults = [[1], [1], [1]]
col1, col2, col3 = tf.decode_csv(value, record_defaults=record_defaults)
features = tf.stack([col1, col2])
W = tf.Variable(tf.ones([2], tf.int32))
score = tf.reduce_sum(features * W)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(coord=coord)
    for i in range(8):
        example, label, s = sess.run([features, col3, score])
        print(example, label, s)
    coord.request_stop()
    coord.join(threads)
'''
    code = _rule_alone(source)
    assert ("def read_element(value):\n"
            "    col1, col2, col3 = tf.decode_csv(value, record_defaults=record_defaults)\n"
            "    features = tf.stack([col1, col2])\n"
            "    return col3, features\n") in code
    assert "elements = value.map(read_element)\ncol3, features = tf.data.make_one_shot_iterator(elements)" in code
    result = migrate_source(source, "rows.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_loop_variable_named_like_the_unused_key_is_not_a_read_of_it():
    # qazvv1's queue_read.py: `_, serialized = reader.read(q)`, then `for _ in range(2):`.
    source = PROGRAM.replace("key, value = reader.read(filename_queue)", "_, value = reader.read(filename_queue)") \
        .replace("for step in range(5):", "for _ in range(5):").replace("print(step, ", "print(") \
        .replace("record_defaults = [[0.], [0.], [0.], [0.]]", "record_defaults = [[0.] for _ in range(4)]")
    assert "for _ in range(4)" in source
    assert "tf.data.Dataset.from_tensor_slices(FILES)" in _rule_alone(source)


UNBATCHED_SLICES = '''
import tensorflow as tf
images = ['img1', 'img2', 'img3']
labels = [1, 2, 3]
IMAGE, LABEL = tf.train.slice_input_producer([images, labels], shuffle=False)
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    for i in range(5):
        print(i, sess.run(FETCH))
    coord.request_stop()
    coord.join(threads)
'''


def test_slices_read_one_by_one_and_a_list_read_whole():
    source = UNBATCHED_SLICES.replace("IMAGE, LABEL", "image, label").replace("FETCH", "[image, label]")
    code = _rule_alone(source)
    assert ("slices = tf.data.Dataset.from_tensor_slices((images, labels)).repeat()\n"
            "elements = slices\n") in code  # the slices as they are: no function mapped
    result = migrate_source(source, "slices.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
    # `f = slice_input_producer(...)` fetched whole printed a list in TF1, where a dataset gives a tuple.
    whole = UNBATCHED_SLICES.replace("IMAGE, LABEL", "f").replace("FETCH", "f")
    _compat_because(whole, "the sliced tensors `f` are read whole")
    indexed = UNBATCHED_SLICES.replace("IMAGE, LABEL", "f").replace("FETCH", "f[1]")
    assert migrate_source(indexed, "slices.py").outcome == "eager"


def test_a_batch_bound_to_one_name_and_read_whole_stays():
    source = SLICES.replace("image_batch, label_batch = tf.train.batch(", "batch = tf.train.batch(") \
        .replace("out = tf.matmul(image_batch, W)", "out = tf.matmul(batch[0], W)")
    indexed = source.replace("sess.run([out, label_batch])", "sess.run([out, batch[1]])")
    assert migrate_source(indexed, "slices.py").outcome == "eager"
    _compat_because(source.replace("sess.run([out, label_batch])", "sess.run([out, batch])"),
                    "the batch `batch` is read whole")


def test_inputs_tf1_computed_in_each_run_stay_and_constant_tensors_convert():
    for made in ["tf.Variable(tf.ones([10, 3]))", "tf.random_normal([10, 3])", "tf.placeholder(tf.float32, [10, 3])"]:
        source = SLICES.replace("images = np.arange(30, dtype=np.float32).reshape(10, 3)", f"images = {made}")
        _compat_because(source, "the queue's input reads `images`, which TF1 computed again in each run")
    constant = SLICES.replace("images = np.arange(30, dtype=np.float32).reshape(10, 3)",
                              "images = tf.cast(np.arange(30).reshape(10, 3), tf.float32)")
    result = migrate_source(constant, "slices.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(constant), run_migrated(result.new_source))


def test_a_batch_of_a_one_tensor_list_is_the_tensor():
    # TF1's batchers handed back the tensor itself for a list of one (pckosek's tensor_saver_05).
    one = SLICES.replace("image_batch, label_batch = tf.train.batch([image, label], batch_size=4, "
                         "allow_smaller_final_batch=True)",
                         "image_batch = tf.train.batch([image], batch_size=4)\nlabel_batch = image_batch[:, 0]")
    assert "image_batch = tf.train.batch([image]" in one
    code = _rule_alone(one)
    assert "    return image\n" in code
    result = migrate_source(one, "one.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(one), run_migrated(result.new_source))
