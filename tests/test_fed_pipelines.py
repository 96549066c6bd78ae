"""Datasets built from placeholders and re-initialized with feeds (TF's "Importing Data" guide): the pipeline becomes
a function of the fed values, each initializer run a fresh iterator over its own (rules/_fed_pipelines)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

TRAIN_THEN_TEST = '''\
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
X_train = rng.random_sample(size=(12, 2))
y_train = rng.random_sample(size=(12, 1))
X_test = rng.random_sample(size=(6, 2))
y_test = rng.random_sample(size=(6, 1))
X_plhd = tf.placeholder(dtype=tf.float32, shape=[None, 2])
y_plhd = tf.placeholder(dtype=tf.float32, shape=[None, 1])
batch_size = 4
dataset = tf.data.Dataset.from_tensor_slices((X_plhd, y_plhd))
dataset = dataset.batch(batch_size)
iterator = dataset.make_initializable_iterator()
features, labels = iterator.get_next()
w = tf.Variable(tf.zeros([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(features, w) - labels))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(3):
        sess.run(iterator.initializer, feed_dict={X_plhd: X_train, y_plhd: y_train})
        while True:
            try:
                _, value = sess.run([train, loss])
                print(epoch, value)
            except tf.errors.OutOfRangeError:
                break
    sess.run(iterator.initializer, feed_dict={X_plhd: X_test, y_plhd: y_test})
    print('test', sess.run(loss))
'''

# yongyehuang's Tensorflow-Tutorial (Tutorial_10_1_numpy_data_2): dtypes and shapes read from the arrays, a repeated
# pipeline, get_next built in each run; the fed int64 labels stay int64, the float64 ones become float32.
READ_IN_RUNS = '''\
import numpy as np
import tensorflow as tf

X = np.arange(40, dtype=np.float32).reshape(20, 2)
y = np.arange(20, dtype=np.int64)
scale = np.linspace(0.0, 1.0, 20)
X_placeholder = tf.placeholder(dtype=X.dtype, shape=X.shape)
y_placeholder = tf.placeholder(dtype=y.dtype, shape=y.shape)
s_placeholder = tf.placeholder(tf.float32, [20])
dataset = tf.data.Dataset.from_tensor_slices((X_placeholder, y_placeholder, s_placeholder))
dataset = dataset.repeat().batch(8)
iterator = dataset.make_initializable_iterator()
sess = tf.Session()
sess.run(iterator.initializer, feed_dict={X_placeholder: X, y_placeholder: y, s_placeholder: scale})
for count in range(4):
    X_batch, y_batch, s_batch = sess.run(iterator.get_next())
    print(count, X_batch.sum(), y_batch, s_batch.dtype, s_batch)
'''


@pytest.mark.parametrize("source", [TRAIN_THEN_TEST, READ_IN_RUNS], ids=["train then test", "get_next in the runs"])
def test_the_pipeline_becomes_a_function_of_the_fed_values_and_prints_the_legacy_numbers(source):
    migrated = migrate_source(source, "fed.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "tf.placeholder" not in migrated.new_source and ".initializer" not in migrated.new_source
    assert "def make_dataset(" in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


def test_each_initializer_run_makes_an_iterator_over_its_own_values_as_the_placeholders_dtypes():
    code = migrate_source(TRAIN_THEN_TEST, "fed.py").new_source
    assert "def make_dataset(X_plhd, y_plhd):\n    dataset = tf.data.Dataset.from_tensor_slices((X_plhd, y_plhd))\n" \
           "    dataset = dataset.batch(batch_size)\n    return dataset\n" in code
    made = "iterator = iter(make_dataset(tf.constant({}, tf.float32), tf.constant({}, tf.float32)))\n"
    assert made.format("X_train", "y_train") in code  # where TF1 made it: over the first run's values
    assert "    " + made.format("X_train", "y_train") in code and "\n" + made.format("X_test", "y_test") in code


KEPT = [
    pytest.param(("feed_dict={X_plhd: X_train, y_plhd: y_train}",
                  "feed_dict={X_plhd: X_train * epoch, y_plhd: y_train}"),
                 "the first initializer run feeds `epoch`, not bound once before the iterator", id="loop value fed"),
    pytest.param(("feed_dict={X_plhd: X_train, y_plhd: y_train}",
                  "feed_dict={X_plhd: np.ones((4, 2)), y_plhd: y_train}"),
                 "feeds values made by calls", id="value made by a call"),
    pytest.param(("feed_dict={X_plhd: X_test, y_plhd: y_test}", "feed_dict={X_plhd: X_test}"),
                 "does not feed exactly the placeholders", id="a run feeding one placeholder"),
    pytest.param(("iterator = dataset.make", "print(dataset)\niterator = dataset.make"),
                 "`dataset` is used other than to build `dataset`", id="dataset printed"),
    pytest.param(("features, labels = iterator.get_next()", "features, labels = iterator.get_next()\nprint(X_plhd)"),
                 "`X_plhd` is used other than", id="placeholder printed"),
    pytest.param(("batch_size = 4\n", ""), "reads `batch_size`, which the module binds again or after",
                 id="pipeline name bound after the iterator"),
]


@pytest.mark.parametrize("change, why", KEPT)
def test_pipelines_it_cannot_rebuild_keep_the_file_in_compat_mode_with_the_reason(change, why):
    source = TRAIN_THEN_TEST.replace(*change)
    if "batch_size" not in source.split("dataset =")[0]:
        source = source.replace("with tf.Session() as sess:", "batch_size = 4\nwith tf.Session() as sess:")
    result = migrate_source(source, "fed.py")
    assert result.outcome == "compat"
    assert any(f.rule == "dataset-iterators" and why in f.message for f in result.findings), result.findings
