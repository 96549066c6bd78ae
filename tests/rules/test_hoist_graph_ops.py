"""hoist-graph-ops: ops a function builds on the module's graph and runs are built once, before it."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.hoist_graph_ops import HoistGraphOps
from tests.rules.alone import apply_alone

GRAPH = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
logits = tf.layers.dense(x, 4)
sess = tf.Session()
sess.run(tf.global_variables_initializer())


def predict(batch, k=1):
    prediction = tf.argmax(logits, 1)
    return sess.run(prediction, {x: batch})


print(predict(np.ones((2, 3))))
"""


def _rule_alone(source: str) -> str:
    return apply_alone(HoistGraphOps(), source, "predict.py")


def test_an_op_the_function_builds_and_runs_is_built_once_before_it():
    code = _rule_alone(GRAPH)
    assert "prediction = tf.argmax(logits, 1)\n\n\ndef predict(batch, k=1):\n    return sess.run(" in code
    result = migrate_source(GRAPH, "predict.py")
    assert result.outcome == "eager", result.findings
    assert "def run_prediction(x):" in result.new_source


@pytest.mark.parametrize("line, why", [
    ("prediction = tf.argmax(logits, k)", "reads a parameter"),
    ("prediction = tf.argmax(tf.layers.dense(logits, 2), 1)", "makes a layer (variables at each call)"),
    ("prediction = tf.argmax(scale(logits), 1)", "calls a function of the program"),
    ("prediction = tf.argmax(logits, 1)\n    prediction = tf.argmax(logits, 0)", "bound twice"),
    ("top = 1\n    prediction = tf.argmax(logits, top)", "reads a name the function bound"),
])
def test_statements_that_depend_on_the_call_stay_in_the_function(line, why):
    source = GRAPH.replace("prediction = tf.argmax(logits, 1)", line).replace(
        "def predict(", "def scale(t):\n    return t * 2.0\n\n\ndef predict(")
    assert "    prediction = tf.argmax(" in _rule_alone(source), why


def test_a_function_that_runs_nothing_keeps_its_ops():
    source = GRAPH.replace("    return sess.run(prediction, {x: batch})", "    return prediction")
    assert _rule_alone(source) == source


# The course notebooks' training loop (RazvanPasca's `01-MNIST-with-CNN`, held-out probe 44): every few steps it
# builds its accuracy ops and runs them. They were graph code outside any run ("`y_pred` (tensor) is used outside
# sess.run") and the file stayed compat.
LOOP = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0, 0.0], [0.5, 2.0]])
pred = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
history = [1.0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(6):
        sess.run(train, {x: np.ones((2, 2)), y: np.zeros((2, 2))})
        if i % 2 == 0:
            LINE
            print(i, sess.run(matches, {x: [[1.0, 2.0], [3.0, -1.0]], y: [[0.0, 1.0], [1.0, 0.0]]}))
        history.append(float(i))
"""


def test_ops_a_loop_builds_and_runs_are_built_once_before_it():
    from tests.twins import assert_same_output, run_legacy, run_migrated
    source = LOOP.replace("LINE", "matches = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))")
    hoisted = _rule_alone(source)
    assert ("    sess.run(tf.global_variables_initializer())\n"
            "    matches = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))\n    for i in range(6):") in hoisted
    result = migrate_source(source, "loop.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("line", [
    pytest.param("matches = tf.equal(tf.argmax(pred, 1), i % 2)", id="it reads the loop's name"),
    pytest.param("matches = tf.reduce_sum(tf.constant(history)) + tf.reduce_sum(pred)",
                 id="it reads a list the loop appends to"),
    pytest.param("matches = tf.random_normal([2]) + tf.reduce_sum(pred)", id="a random op: one per iteration"),
])
def test_ops_that_depend_on_the_iteration_stay_in_the_loop(line):
    source = LOOP.replace("LINE", line)
    assert _rule_alone(source) == source
