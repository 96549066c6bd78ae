"""nested-summary-helpers: a summary helper called inside a layer helper (TF's mnist_with_summaries) is written in
place of the call, and the migrated program writes the events the legacy one wrote."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.nested_summary_helpers import NestedSummaryHelpers
from tests.rules.alone import apply_alone
from tests.twins import events_both_ways

HELPERS = '''
import numpy as np
import tensorflow as tf
tf.set_random_seed(0)


def variable_summaries(var):
    """Attach summaries to a tensor."""
    with tf.name_scope('summaries'):
        mean = tf.reduce_mean(var)
        tf.summary.scalar('mean', mean)
        with tf.name_scope('stddev'):
            stddev = tf.sqrt(tf.reduce_mean(tf.square(var - mean)))
        tf.summary.scalar('stddev', stddev)
        tf.summary.scalar('max', tf.reduce_max(var))
        tf.summary.histogram('histogram', var)


def nn_layer(input_tensor, input_dim, output_dim, layer_name, act=tf.nn.relu):
    with tf.name_scope(layer_name):
        with tf.name_scope('weights'):
            count = input_dim * output_dim
            weights = tf.Variable(tf.reshape(tf.range(count, dtype=tf.float32), [input_dim, output_dim]) / 50.0 - 0.2)
            variable_summaries(weights)
        with tf.name_scope('biases'):
            biases = tf.Variable(tf.constant(0.1, shape=[output_dim]))
            variable_summaries(biases)
        with tf.name_scope('Wx_plus_b'):
            preactivate = tf.matmul(input_tensor, weights) + biases
            tf.summary.histogram('pre_activations', preactivate)
        activations = act(preactivate, name='activation')
        tf.summary.histogram('activations', activations)
        return activations
'''

PROGRAM = HELPERS + '''

x = tf.placeholder(tf.float32, [None, 4])
y_ = tf.placeholder(tf.float32, [None, 2])
hidden1 = nn_layer(x, 4, 8, 'layer1')
y = nn_layer(hidden1, 8, 2, 'layer2', act=tf.identity)
with tf.name_scope('cross_entropy'):
    cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y))
tf.summary.scalar('cross_entropy', cross_entropy)
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
merged = tf.summary.merge_all()
rng = np.random.RandomState(0)
xs = rng.rand(16, 4).astype(np.float32)
ys = np.eye(2)[rng.randint(0, 2, 16)].astype(np.float32)
sess = tf.InteractiveSession()
train_writer = tf.summary.FileWriter(LOGDIR, sess.graph)
tf.global_variables_initializer().run()
for i in range(3):
    summary = sess.run(merged, feed_dict={x: xs, y_: ys})
    train_writer.add_summary(summary, i)
    sess.run(train_step, feed_dict={x: xs, y_: ys})
    print(i, sess.run(cross_entropy, {x: xs, y_: ys}))
train_writer.close()
'''


GRAPH = HELPERS + """
x = tf.placeholder(tf.float32, [None, 4])
hidden1 = nn_layer(x, 4, 8, 'layer1')
"""


def test_the_helper_is_written_in_place_of_its_calls():
    code = apply_alone(NestedSummaryHelpers(), GRAPH)
    assert "def variable_summaries" not in code and "variable_summaries(" not in code
    assert "            with tf.name_scope('summaries'):\n                weights_mean = tf.reduce_mean(weights)\n" \
           "                tf.summary.scalar('mean', weights_mean)\n" in code
    assert "biases_stddev = tf.sqrt(tf.reduce_mean(tf.square(biases - biases_mean)))" in code
    # a computed value is bound just before its summary, where TF1 computed it
    assert "weights_max = tf.reduce_max(weights)\n                tf.summary.scalar('max', weights_max)" in code
    assert '"""Attach summaries' not in code


def test_mnist_with_summaries_layers_write_the_legacy_events(tmp_path):
    result = migrate_source(PROGRAM, "summaries.py")
    assert result.outcome == "eager", result.compat_reason
    before, after, legacy, migrated = events_both_ways(PROGRAM, result.new_source, tmp_path)
    assert before == after
    assert set(legacy) == set(migrated)
    assert ("layer1/weights/summaries/mean_1", 2) in legacy  # (TF1 named the op Mean first)
    assert len(legacy) == 3 * (2 * (2 * 4 + 2) + 1)
    for key, (kind, number) in legacy.items():
        assert migrated[key][0] == kind
        if number is not None:
            assert migrated[key][1] == pytest.approx(number, rel=1e-4, abs=1e-6), key


def test_a_helper_also_called_at_module_level_stays_for_those_calls():
    code = apply_alone(NestedSummaryHelpers(), GRAPH + "variable_summaries(hidden1)\n")
    assert "def variable_summaries(var):" in code and "variable_summaries(hidden1)" in code
    assert "variable_summaries(weights)" not in code


@pytest.mark.parametrize("change", [
    pytest.param(lambda p: p.replace("variable_summaries(weights)", "variable_summaries(weights * 2.0)"),
                 id="a computed argument"),
    pytest.param(lambda p: p.replace("def variable_summaries(var):", "def variable_summaries(var, tag='v'):"),
                 id="two parameters"),
    pytest.param(lambda p: p.replace("        mean = tf.reduce_mean(var)",
                                     "        mean = tf.reduce_mean(var)\n        if mean is None:\n            pass"),
                 id="a branch in the helper"),
])
def test_calls_it_cannot_write_in_place_are_left(change):
    code = apply_alone(NestedSummaryHelpers(), change(GRAPH))
    assert "variable_summaries(" in code
    assert "weights_mean" not in code
