"""Objects of TF classes the program model does not know keep the file compat (analysis/api_checks): their methods
may build ops that TF1 ran at each run, where eager code would run them once, where they stand."""
from __future__ import annotations

import pytest

from tf_migrate.analysis.api_tables import is_unmodelled_class
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

# An accumulator's count changes between runs (the first version converted this file, and it crashed).
ACCUMULATOR = '''\
import tensorflow as tf
acc = tf.ConditionalAccumulator(tf.float32, shape=[])
add = acc.apply_grad(tf.constant(2.0), local_step=0)
count = acc.num_accumulated()
with tf.Session() as sess:
    print(sess.run(count))
    sess.run(add)
    print(sess.run(count))
'''

LOOPER = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [])
y = x * 2
coord = tf.train.Coordinator()
with tf.Session() as sess:
    looper = tf.train.LooperThread(coord, 1.0, target=lambda: None)
    print(sess.run(y, {x: 1.0}))
'''


@pytest.mark.parametrize("source, name, line", [
    (ACCUMULATOR, "tf.ConditionalAccumulator", 2), (LOOPER, "tf.train.LooperThread", 6),
    (ACCUMULATOR.replace("tf.ConditionalAccumulator", "tf.compat.v1.ConditionalAccumulator"),
     "tf.ConditionalAccumulator", 2),
], ids=["accumulator", "looper thread", "compat.v1 spelling"])
def test_an_object_of_a_class_the_model_does_not_know_keeps_the_file_compat_with_the_reason_at_its_line(
        source, name, line):
    migrated = migrate_source(source, "unknown.py")
    assert migrated.outcome == "compat"
    assert f"`{name}` builds an object the analysis has no model of" in migrated.compat_reason
    blockers = [f for f in migrated.findings if f.rule == "eager-blocker" and name in f.message]
    assert blockers and blockers[0].line == line


# Plain values and objects the model knows still convert: a tensor array, a proto parsed back, a static shape.
PLAIN_VALUES = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [2])
arr = tf.TensorArray(tf.float32, size=2)
arr = arr.write(0, x)
arr = arr.write(1, x * 2)
stacked = arr.stack()
shape = tf.TensorShape([None, 2])
example = tf.train.Example(features=tf.train.Features(feature={
    "v": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5]))}))
parsed = tf.train.Example.FromString(example.SerializeToString())
with tf.Session() as sess:
    print(sess.run(stacked, {x: [1., 2.]}))
    print(shape.as_list(), parsed.features.feature["v"].float_list.value[0])
'''


def test_plain_value_classes_and_known_objects_still_convert_with_the_legacy_output():
    migrated = migrate_source(PLAIN_VALUES, "plain.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source
    assert_same_output(run_legacy(PLAIN_VALUES), run_migrated(migrated.new_source))


@pytest.mark.parametrize("qualname, unmodelled", [
    ("tf.distributions.Normal", False), ("tf.raw_ops.HistogramSummary", False), ("tf.ConditionalAccumulator", True), ("tf.random.Generator", True),
    ("tf.train.Supervisor", True), ("tf.lookup.StaticHashTable", True),
    ("tf.train.Example.FromString", False), ("tf.TensorArray", False), ("tf.keras.layers.Dense", False),
    ("tf.gfile.Exists", False), ("tf.app.flags.DEFINE_string", False), ("tf.Session", False),
    ("tf.train.AdamOptimizer", False), ("tf.FIFOQueue", False), ("tf.reduce_sum", False),
    ("tf.data.TFRecordDataset", False), ("tf.SparseTensor", False), ("tf.RandomShuffleQueue", False),
    ("np.Normal", False),
])
def test_a_capitalised_tf_name_is_unmodelled_unless_a_table_knows_its_class(qualname, unmodelled):
    assert is_unmodelled_class(qualname) is unmodelled
