"""softmax-labels: TF1's softmax_cross_entropy_with_logits sent no gradient to its labels; TF2's does."""
import pytest

import libcst

from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules.softmax_labels import SoftmaxLabels
from tf_migrate.tfnames import TFNames
from tests.twins import assert_same_output, run_legacy, run_migrated

SOFT_TARGETS = '''
import numpy as np
import tensorflow as tf
np.random.seed(0)
x = tf.placeholder(tf.float32, [None, 3])
W = tf.Variable(np.random.randn(3, 4).astype(np.float32))
V = tf.Variable(np.random.randn(3, 4).astype(np.float32))
logits = tf.matmul(x, W)
labels = tf.nn.softmax(tf.matmul(x, V))
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
xs = np.random.randn(5, 3).astype(np.float32)
for i in range(3):
    print(sess.run([train, loss], {x: xs})[1])
print(sess.run(V))
'''


def test_labels_computed_from_variables_get_no_gradient_after_migration():
    """Without the wrap the migrated program trained V as well, and printed other losses and another V."""
    result = migrate_source(SOFT_TARGETS, "soft.py")
    assert result.outcome == "eager", result.compat_reason
    assert "labels=tf.stop_gradient(labels)" in result.new_source
    assert_same_output(run_legacy(SOFT_TARGETS), run_migrated(result.new_source))


@pytest.mark.parametrize("labels", ["y", "tf.one_hot(k, 4)", "tf.stop_gradient(labels)"])
def test_labels_no_gradient_reaches_are_left_as_written(labels):
    source = SOFT_TARGETS.replace("x = tf.placeholder(tf.float32, [None, 3])\n",
                                  "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.placeholder(tf.float32, "
                                  "[None, 4])\nk = tf.placeholder(tf.int32, [None])\n").replace(
        "labels=labels,", f"labels={labels},").replace(
        "{x: xs}", "{x: xs, y: np.eye(4)[[0, 1, 2, 3, 0]], k: [0, 1, 2, 3, 0]}")
    result = migrate_source(source, "soft.py")
    assert result.outcome == "eager", result.compat_reason
    assert f"labels={labels}," in result.new_source and "stop_gradient(tf.stop_gradient" not in result.new_source


def test_a_parameter_of_another_function_does_not_make_a_module_placeholder_unknown():
    """easy-tensorflow: `def randomize(x, y)` beside the module's `y = tf.placeholder(...)`."""
    source = SOFT_TARGETS.replace("x = tf.placeholder(tf.float32, [None, 3])\n",
                                  "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.placeholder(tf.float32, "
                                  "[None, 4])\ndef shuffled(x, y):\n    return x, y\n").replace(
        "labels=labels,", "labels=y,").replace("{x: xs}", "{x: xs, y: np.eye(4)[[0, 1, 2, 3, 0]]}")
    result = migrate_source(source, "soft.py")
    assert result.outcome == "eager", result.compat_reason
    assert "labels=y," in result.new_source


def test_a_parameter_is_not_known_to_be_an_input():
    source = SOFT_TARGETS.replace("loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits("
                                  "labels=labels, logits=logits))",
                                  "def xent(y, z):\n    return tf.nn.softmax_cross_entropy_with_logits(labels=y, "
                                  "logits=z)\nloss = tf.reduce_mean(xent(labels, logits))")
    result = migrate_source(source, "soft.py")
    assert result.outcome == "eager", result.compat_reason
    assert "labels=tf.stop_gradient(y)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("before, wrapped", [
    ("from teacher import soft_targets\nx = tf.placeholder(tf.float32, [None, 4])\nlabels = soft_targets(x)\n", True),
    ("import teacher\nx = tf.placeholder(tf.float32, [None, 4])\nlabels = teacher.soft_targets(x)\n", True),
    ("import numpy as np\nx = tf.placeholder(tf.float32, [None, 4])\nlabels = np.eye(4)[[0, 1]]\n", False),
    ("x = tf.placeholder(tf.float32, [None, 4])\nlabels = tf.constant([[0.0, 1.0, 0.0, 0.0]])\n", False),
])
def test_what_the_labels_are_bound_to(before, wrapped):
    """A function of another module may compute from variables; numpy and constants carry no gradient."""
    source = "import tensorflow as tf\n" + before + \
        "loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x)\n"
    module = libcst.parse_module(source)  # the rule alone (the engine keeps a program importing `teacher` compat)
    ctx = RuleContext("soft.py", TFNames.scan(module), EAGER)
    output = SoftmaxLabels().apply(module, ctx).code
    assert ("labels=tf.stop_gradient(labels)" in output) == wrapped, output


def test_a_second_run_on_the_output_changes_nothing():
    """The output calls TF2's function by the same name: read as TF1's again, a parameter's labels were wrapped (the
    fuzz run's idempotence check found it); a module that names no TF1-only symbol is TF2 code and left alone."""
    source = SOFT_TARGETS.replace("x = tf.placeholder(tf.float32, [None, 3])\n",
                                  "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.placeholder(tf.float32, "
                                  "[None, 4])\n").replace("labels=labels,", "labels=y,").replace(
        "{x: xs}", "{x: xs, y: np.eye(4)[[0, 1, 2, 3, 0]]}")
    first = migrate_source(source, "soft.py")
    assert first.outcome == "eager", first.compat_reason
    assert "labels=y," in first.new_source
    second = migrate_source(first.new_source, "soft.py")
    assert second.new_source == first.new_source


def test_a_method_reads_the_modules_names_not_its_class_bodys():
    """Python: a method does not see its class body's `labels`; the module's is computed from a variable."""
    source = ("import tensorflow as tf\nv = tf.Variable([[0.5, 0.5]])\nlabels = tf.nn.softmax(v)\n"
              "class Model:\n    labels = tf.placeholder(tf.float32, [None, 2])\n"
              "    def loss(self, logits):\n"
              "        return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)\n")
    module = libcst.parse_module(source)
    output = SoftmaxLabels().apply(module, RuleContext("soft.py", TFNames.scan(module), EAGER)).code
    assert "labels=tf.stop_gradient(labels)" in output
