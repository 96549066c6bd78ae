"""helper-summaries: summaries a layer helper registers are registered at each call, with TF1's tags."""
import glob

import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.helper_summaries import HelperSummaries
from tests.twins import assert_same_output, run_legacy, run_migrated, summary_events
from tests.rules.alone import apply_alone

# easy-tensorflow's fc_layer (variables by get_variable under the layer's variable scope) and MorvanZhou's
# add_layer (a computed scope name, and a histogram of what it returns), both called twice.
PROGRAM = '''
import numpy as np
import tensorflow as tf


def weight_variable(name, shape):
    return tf.get_variable('W_' + name, shape=shape, initializer=tf.constant_initializer(0.1))


def bias_variable(name, shape):
    return tf.get_variable('b_' + name, initializer=tf.constant(0.0, shape=shape))


def fc_layer(x, num_units, name, use_relu=True):
    with tf.variable_scope(name):
        in_dim = x.get_shape()[1]
        W = weight_variable(name, shape=[in_dim, num_units])
        tf.summary.histogram('W', W)
        b = bias_variable(name, [num_units])
        tf.summary.histogram('b', b)
        layer = tf.matmul(x, W) + b
        if use_relu:
            layer = tf.nn.relu(layer)
        return layer


def add_layer(inputs, in_size, out_size, n_layer):
    layer_name = 'layer%s' % n_layer
    with tf.name_scope(layer_name):
        with tf.name_scope('weights'):
            Weights = tf.Variable(tf.fill([in_size, out_size], 0.2), name='W')
            tf.summary.histogram(layer_name + '/weights', Weights)
        outputs = tf.matmul(inputs, Weights)
        tf.summary.histogram(layer_name + '/outputs', outputs)
    return outputs


x = tf.placeholder(tf.float32, [None, 3])
h = add_layer(x, 3, 3, n_layer=1)
fc1 = fc_layer(h, 4, 'Hidden', use_relu=True)
logits = fc_layer(fc1, 2, 'Output', use_relu=False)
with tf.name_scope('loss'):
    loss = tf.reduce_mean(tf.square(logits))
    tf.summary.scalar('loss', loss)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
merged = tf.summary.merge_all()
data = np.linspace(0.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    for i in range(3):
        summary, _, value = sess.run([merged, train, loss], {x: data})
        writer.add_summary(summary, i)
        print(i, value)
    writer.close()
'''


def _rule_alone(source: str) -> str:
    return apply_alone(HelperSummaries(), source, "layers.py")


def test_the_helper_hands_back_what_it_summarized_and_each_call_registers_it_with_tf1s_tag():
    code = _rule_alone(PROGRAM)
    # a variable as read where TF1's summary read it: before the step's update, which the same run ran
    assert "        return layer, {'W': tf.identity(W), 'b': tf.identity(b)}\n" in code
    assert "return outputs, {'Weights': tf.identity(Weights)}" in code
    assert "fc1, fc1_summaries = fc_layer(h, 4, 'Hidden', use_relu=True)\n" \
           "tf.summary.histogram('Hidden/W', fc1_summaries['W'])\ntf.summary.histogram('Hidden/b', fc1_summaries['b'])" \
           in code
    assert "tf.summary.histogram('layer1/weights/layer1/weights', h_summaries['Weights'])\n" \
           "tf.summary.histogram('layer1/layer1/outputs', h)" in code  # what it returns: the call's value
    assert "tf.summary.histogram('W', W)" not in code


def _tags(logdir) -> dict:
    import tensorflow as tf
    found = {}
    for path in glob.glob(f"{logdir}/events*"):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                found.setdefault(value.tag, []).append(event.step)
    return found


def _converts_with_the_legacy_tags(program: str, logs) -> None:
    """The program converts, prints the legacy numbers and writes the legacy tags at the legacy steps."""
    legacy = program.replace("LOGDIR", repr(str(logs / "legacy")))
    result = migrate_source(program.replace("LOGDIR", repr(str(logs / "migrated"))), "layers.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(legacy), run_migrated(result.new_source))
    tags = _tags(logs / "legacy")
    assert "Hidden/W" in tags and "layer1/layer1/outputs" in tags
    assert _tags(logs / "migrated") == tags


def test_the_program_converts_and_writes_the_legacy_tags_at_the_legacy_steps(tmp_path):
    _converts_with_the_legacy_tags(PROGRAM, tmp_path)


def test_a_summarized_variable_is_written_as_read_before_the_update_of_its_run(tmp_path):
    """``sess.run([merged, train])``: TF1 read the variable its histogram summarized in no order it fixed beside
    the step's update (its reference variables are read where the summary runs); the eager step reads it before
    the update, as for fetched variables (the helper hands back the value read there; it returned the variable,
    read after its update). The layers' weights start at 0.1 and 0.2."""
    result = migrate_source(PROGRAM.replace("LOGDIR", repr(str(tmp_path))), "layers.py")
    run_migrated(result.new_source)
    events = summary_events(tmp_path)
    for tag, first in [("Hidden/W", 0.1), ("Output/W", 0.1), ("layer1/weights/layer1/weights", 0.2)]:
        kind, (low, high, _, _) = events[(tag, 0)]
        assert kind == "histogram" and low == high == pytest.approx(first), tag
        assert events[(tag, 1)][1][0] != pytest.approx(first)  # (trained by then)


def test_helpers_whose_tags_are_not_known_are_left_alone():
    refused = {
        # TF1 made the second scope `Hidden_1`
        "a scope twice": PROGRAM.replace("'Output', use_relu=False", "'Hidden', use_relu=False"),
        # registered or not, per call
        "a summary in a branch": PROGRAM.replace("        tf.summary.histogram('b', b)\n",
                                                 "        if use_relu:\n            tf.summary.histogram('b', b)\n"),
        "a scope named by a computed argument": PROGRAM.replace("'Hidden', use_relu=True",
                                                                "'Hid' + str(1), use_relu=True"),
        "a helper used other than by a call": PROGRAM.replace("merged = tf.summary", "layers = [fc_layer]\nmerged = "
                                                                                     "tf.summary"),
    }
    for why, source in refused.items():
        code = _rule_alone(source)
        assert "tf.summary.histogram('W', W)" in code, why


def test_a_file_with_a_summary_helper_the_summaries_rule_refuses_is_left_alone():
    """A pure summary helper with a computed name (the summaries rule keeps the file's TF1 summaries)."""
    source = PROGRAM.replace("def weight_variable", "def variable_summaries(var, name):\n"
                             "    tf.summary.histogram('mean/' + name, tf.reduce_mean(var))\n\n\ndef weight_variable")
    assert _rule_alone(source) == source
    assert migrate_source(source.replace("LOGDIR", "'logs'"), "layers.py").outcome == "compat"


def _in_main(program: str, block: str = "def main():") -> str:
    """The program's graph and session code written in ``def main():``, called once (yungshenglu's Morvan lessons),
    or in another block."""
    head, marker, body = program.partition("x = tf.placeholder")
    lines = (marker + body).splitlines()
    return head + f"{block}\n" + "".join(f"    {line}\n" if line else "\n" for line in lines) + (
        "\n\nmain()\n" if block == "def main():" else "")


@pytest.mark.parametrize("block", ["def main():", "if __name__ == '__main__':"])
def test_a_program_written_in_a_function_converts_and_writes_the_legacy_tags(tmp_path, block):
    # (GhibliField's 2-tb-charts.py: the program in the main guard)
    program = _in_main(PROGRAM, block)
    code = _rule_alone(program)
    assert "    fc1, fc1_summaries = fc_layer(h, 4, 'Hidden', use_relu=True)\n" \
           "    tf.summary.histogram('Hidden/W', fc1_summaries['W'])\n" in code
    _converts_with_the_legacy_tags(program, tmp_path)


def test_calls_in_two_functions_are_left_alone():
    program = _in_main(PROGRAM).replace("def main():\n", "def other(x):\n    h2 = add_layer(x, 3, 3, n_layer=2)\n"
                                                      "    return h2\n\n\ndef main():\n")
    assert "tf.summary.histogram(layer_name + '/weights', Weights)" in _rule_alone(program)
    assert "tf.summary.histogram(layer_name + '/weights', Weights)" not in _rule_alone(_in_main(PROGRAM))
