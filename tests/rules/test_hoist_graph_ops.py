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
