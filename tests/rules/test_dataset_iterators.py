"""dataset-iterators: one-shot and initializable tf.data iterators -> iter(dataset).

The rewrite is kept only where the program model defers each ``get_next()``
into the run that needs it and keeps ``iter(dataset)`` where it was built.
Rewrite cases assume a model that does (``model_accepts``); the twin tests
need the program model to do it for real.
"""
import libcst as cst
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules import dataset_iterators
from tf_migrate.tfnames import TFNames
from tests.twins import assert_same_output, run_legacy, run_migrated

RULE = "dataset-iterators"


@pytest.fixture
def model_accepts(monkeypatch):
    monkeypatch.setattr(dataset_iterators, "_model_problem", lambda module, ctx, iterators: None)


def _rewrite(source: str) -> str:
    """This rule alone, applied to the source."""
    module = cst.parse_module(source)
    ctx = RuleContext("case.py", TFNames.scan(module), EAGER)
    ctx.use_module(module)
    return dataset_iterators.DatasetIterators().apply(module, ctx).code


REWRITES = [
    pytest.param(
        "import tensorflow as tf\nit = ds.make_one_shot_iterator()\nx = it.get_next()\n",
        "import tensorflow as tf\nit = iter(ds)\nx = it.get_next()\n", id="one-shot method"),
    pytest.param(
        "import tensorflow as tf\nit = tf.data.make_one_shot_iterator(ds)\nx = it.get_next()\n",
        "import tensorflow as tf\nit = iter(ds)\nx = it.get_next()\n", id="one-shot function"),
    pytest.param(
        "import tensorflow as tf\n# batches\nx, y = ds.batch(2).make_one_shot_iterator().get_next()\n",
        "import tensorflow as tf\n# batches\niterator = iter(ds.batch(2))\nx, y = iterator.get_next()\n",
        id="inline iterator bound to a name first"),
    pytest.param(
        "import tensorflow as tf\nit = ds.make_initializable_iterator()\nx = it.get_next()\n"
        "with tf.Session() as sess:\n    for epoch in range(2):\n        sess.run(it.initializer)\n",
        "import tensorflow as tf\nit = iter(ds)\nx = it.get_next()\n"
        "with tf.Session() as sess:\n    for epoch in range(2):\n        it = iter(ds)\n",
        id="initializer run is a fresh pass"),
    pytest.param(
        "import tensorflow as tf\nit = tf.data.Dataset.range(4).make_initializable_iterator()\n"
        "sess.run(it.initializer)\n",
        "import tensorflow as tf\ndataset = tf.data.Dataset.range(4)\nit = iter(dataset)\nit = iter(dataset)\n",
        id="initializable over an expression binds the dataset"),
]


@pytest.mark.parametrize("before, after", REWRITES)
def test_rewrite(model_accepts, before, after):
    assert _rewrite(before) == after


KEPT = [
    pytest.param(
        "import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
        "it = tf.data.Dataset.from_tensor_slices(x).make_initializable_iterator()\nitem = it.get_next()\n"
        "with tf.Session() as sess:\n    sess.run(it.initializer, feed_dict={x: np.arange(3.0)})\n"
        "    print(sess.run(item))\n",
        "the initializer runs with a feed", id="initializer with a feed"),
    pytest.param(
        "import tensorflow as tf\n\n\ndef input_fn():\n    return tf.data.Dataset.range(4).make_one_shot_iterator()"
        ".get_next()\n\n\nbatch = input_fn()\nwith tf.Session() as sess:\n    print(sess.run(batch * 2))\n",
        "get_next() outside the blocks that build and run the graph", id="get_next in a helper function"),
    pytest.param(
        "import tensorflow as tf\nx = tf.data.Dataset.range(3).make_initializable_iterator().get_next()\n"
        "with tf.Session() as sess:\n    print(sess.run(x))\n",
        "nothing can re-initialize it", id="initializable built inline"),
]


@pytest.mark.parametrize("source, why", KEPT)
def test_unconvertible_iterators_keep_the_file_in_compat_mode(source, why):
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("tf.data iterator not converted: ") and why in result.compat_reason
    assert any(f.rule == RULE and why in f.message for f in result.findings), result.findings


ONE_SHOT_TRAINING = '''\
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
features = rng.randn(24, 2).astype(np.float32)
targets = features @ np.array([[1.5], [-0.5]], np.float32) + 0.25
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(8).repeat(2)
next_x, next_y = dataset.make_one_shot_iterator().get_next()
w = tf.Variable(tf.zeros([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(next_x, w) - next_y))
train_op = tf.train.GradientDescentOptimizer(0.3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    step = 0
    while True:
        try:
            _, value = sess.run([train_op, loss])
        except tf.errors.OutOfRangeError:
            break
        print(step, value)
        step += 1
    print(sess.run(w))
'''

EPOCHS_OF_BATCHES = '''\
import tensorflow as tf

dataset = tf.data.Dataset.range(7).map(lambda v: (v, v * v)).batch(3)
iterator = tf.data.make_initializable_iterator(dataset)
pair = iterator.get_next()
total = tf.reduce_sum(pair[1])
with tf.Session() as sess:
    for epoch in range(2):
        sess.run(iterator.initializer)
        while True:
            try:
                print(epoch, sess.run(pair), sess.run(total))
            except tf.errors.OutOfRangeError:
                break
'''


# yongyehuang's Tensorflow-Tutorial (Tutorial_10_1): ``sess.run(iterator.get_next())`` in a loop, the op built in the
# run that fetches it; TF1 drew the next element at each run (also beside other fetches and with a bound get_next).
RUN_BUILT_GET_NEXT = '''\
import numpy as np
import tensorflow as tf

xs = np.arange(8, dtype=np.float32)
dataset = tf.data.Dataset.from_tensor_slices((xs, 2 * xs + 1)).repeat().batch(4)
iterator = dataset.make_one_shot_iterator()
pair = iterator.get_next()
x = tf.placeholder(tf.float32, [None])
y = tf.placeholder(tf.float32, [None])
w = tf.Variable(0.5)
loss = tf.reduce_mean(tf.square(w * x - y))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        bx, by = sess.run(iterator.get_next())
        _, value = sess.run([train, loss], feed_dict={x: bx, y: by})
        print(step, value, sess.run([w * 2, iterator.get_next()]), sess.run(pair))
'''


@pytest.mark.parametrize("source", [ONE_SHOT_TRAINING, EPOCHS_OF_BATCHES, RUN_BUILT_GET_NEXT],
                         ids=["one-shot training", "epochs", "get_next built in the runs"])
def test_twin(source):
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "iterator" in migrated.new_source and "make_" not in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


# Stanford CS20's pattern: one iterator from a structure, pointed at the training or the test data by initializers.
SWITCHED = '''\
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
train = (rng.randn(20, 3).astype(np.float32), rng.randint(0, 2, 20).astype(np.int32))
test = (rng.randn(8, 3).astype(np.float32), rng.randint(0, 2, 8).astype(np.int32))
train_data = tf.data.Dataset.from_tensor_slices(train).batch(6)
test_data = tf.data.Dataset.from_tensor_slices(test).batch(6)
iterator = tf.data.Iterator.from_structure(train_data.output_types, train_data.output_shapes)
img, label = iterator.get_next()
train_init = iterator.make_initializer(train_data)
test_init = iterator.make_initializer(test_data)
w = tf.Variable(tf.zeros([3, 2]))
logits = tf.matmul(img, w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=label, logits=logits))
optimizer = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), label), tf.int32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(3):
        sess.run(train_init)
        total, n = 0.0, 0
        try:
            while True:
                _, l = sess.run([optimizer, loss])
                total += l
                n += 1
        except tf.errors.OutOfRangeError:
            pass
        print(epoch, n, total / n)
    sess.run(test_init)
    right = 0
    try:
        while True:
            right += sess.run(correct)
    except tf.errors.OutOfRangeError:
        pass
    print("right", right)
'''


def test_an_iterator_switched_between_datasets_by_initializers_prints_the_legacy_numbers():
    migrated = migrate_source(SWITCHED, "switched.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    assert "from_structure" not in code and "make_initializer" not in code and "_init" not in code
    assert "iterator = iter(train_data)\nw = tf.Variable" in code  # starts over the first initializer's dataset
    assert "    iterator = iter(train_data)\n    total, n = 0.0, 0\n" in code
    assert "\niterator = iter(test_data)\n" in code
    assert_same_output(run_legacy(SWITCHED), run_migrated(code))


@pytest.mark.parametrize("change, why", [
    (("        sess.run(train_init)\n", "        sess.run([train_init, w])\n"), "used other than run alone"),
    (("train_init = iterator.make_initializer(train_data)\n",
      "train_init = iterator.make_initializer(train_data.take(12))\n"), "over a dataset with no name"),
])
def test_initializers_it_cannot_follow_keep_the_file_in_compat_mode(change, why):
    result = migrate_source(SWITCHED.replace(*change), "switched.py")
    assert result.outcome == "compat"
    assert any(f.rule == RULE and why in f.message for f in result.findings), result.findings
