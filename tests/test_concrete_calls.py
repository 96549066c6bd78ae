"""Compiled run functions are called through their concrete function (``call_compiled``, codegen.compiled)."""
from pathlib import Path

from tf_migrate.engine import migrate_source
from tf_migrate.verify import run_program
from tests.twins import assert_same_output, run_legacy, run_migrated

MODEL = '''
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self):
        self.X = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(np.ones((2, 1), np.float32))
        self.y = tf.matmul(self.X, self.w)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def predict(self, data):
        return self.sess.run(self.y, {self.X: data})


for i in range(3):
    m = Model()
    print(m.predict(np.ones((1, 2)) * i))
'''


def test_methods_are_called_through_their_concrete_function_and_let_go_with_their_object():
    result = migrate_source(MODEL, "model.py")
    assert result.outcome == "eager", result.findings
    assert "call_compiled(self.run_y, X=data)" in result.new_source
    assert "import inspect\nimport weakref\n\nimport numpy as np\n" in result.new_source
    assert_same_output(run_legacy(MODEL), run_migrated(result.new_source))
    check = "\nimport gc\ndel m\ngc.collect()\nprint('traces left', len(compiled_traces))\n"
    run = run_program(result.new_source + check, path=Path("model.py"), mode="migrated")  # its own process
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines()[-1] == "traces left 0"  # a model's trace goes with the model


ONCE = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.reduce_sum(x, axis=1)
with tf.Session() as sess:
    print(sess.run(y, {x: np.ones((2, 2))}))
    if True:
        print(sess.run([y], {x: np.ones((1, 2))}))
    for step in range(2):
        print(sess.run(y, {x: np.ones((3, 2))}))
'''


def test_a_run_that_runs_once_is_a_plain_call():
    """At module level, outside loops and functions, the concrete call saves nothing: a script or notebook cell
    that runs a graph once reads `run_y(x=...).numpy()`; the run in the loop keeps the helper."""
    result = migrate_source(ONCE, "once.py")
    assert result.outcome == "eager", result.findings
    assert "print(run_y(x=np.ones((2, 2))).numpy())" in result.new_source
    assert "print(to_numpy(run_y_2(x=np.ones((1, 2)))))" in result.new_source
    assert "print(call_compiled(run_y, x=np.ones((3, 2))).numpy())" in result.new_source
    assert_same_output(run_legacy(ONCE), run_migrated(result.new_source))


DEFAULTED = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
keep = tf.placeholder_with_default(1.0, [])
y = tf.reduce_sum(x, axis=1) * keep
with tf.Session() as sess:
    for step in range(2):
        print(sess.run(y, {x: np.ones((2, 2))}))
        print(sess.run(y, {x: np.ones((2, 2)), keep: 0.5}))
'''


def test_a_default_fed_or_not_makes_two_concrete_calls():
    """A concrete function has no defaults: the run that leaves `keep` unfed gets a function without it."""
    result = migrate_source(DEFAULTED, "defaulted.py")
    assert result.outcome == "eager", result.findings
    assert "call_compiled(run_y, x=np.ones((2, 2)))" in result.new_source
    assert "call_compiled(run_y_2, x=np.ones((2, 2)), keep=0.5)" in result.new_source
    assert_same_output(run_legacy(DEFAULTED), run_migrated(result.new_source))


FEEDS = '''
import numpy as np
import tensorflow as tf

ids = tf.placeholder(tf.int32, [None])
scale = tf.placeholder(tf.float32, [])
table = tf.Variable(np.arange(6.0, dtype=np.float32).reshape(3, 2))
rows = tf.gather(table, ids) * scale
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(2):
        print(sess.run(rows, {ids: np.array([2, 0], np.int64), scale: 2}))
        print(sess.run(rows, {ids: [1], scale: np.float64(0.5)}))
'''


def test_feeds_are_converted_as_the_signature_converts_them():
    """int64 arrays to int32, Python ints and float64 scalars to float32: what TF1's feeding did."""
    result = migrate_source(FEEDS, "feeds.py")
    assert result.outcome == "eager", result.findings
    assert "call_compiled(run_rows, ids=" in result.new_source
    assert_same_output(run_legacy(FEEDS), run_migrated(result.new_source))


LATE_IMPORT = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x)
from datetime import date
with tf.Session() as sess:
    while True:
        print(sess.run(y, {x: np.ones(3)}), date(2020, 1, 1).year)
        break
'''


def test_the_helpers_imports_go_to_the_first_imports():
    """A standard-library import after code (a notebook's later cell) would come after the helper using it."""
    result = migrate_source(LATE_IMPORT, "late.py")
    assert result.outcome == "eager", result.findings
    assert result.new_source.index("import weakref") < result.new_source.index("def call_compiled")
    assert_same_output(run_legacy(LATE_IMPORT), run_migrated(result.new_source))


FLAGS = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
training = tf.placeholder_with_default(False, [])
w = tf.Variable(np.ones((2, 1), np.float32))
y = tf.cond(training, lambda: tf.matmul(x, w) * 2.0, lambda: tf.matmul(x, w))
loss = tf.reduce_mean(tf.square(y - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        feed = {x: np.ones((4, 2)) * step, training: True}
        _, value = sess.run([train, loss], feed_dict=feed)
        print(step, value)
    print(sess.run(loss, {x: np.ones((1, 2))}))
    print(sess.run(loss, {x: np.ones((1, 2)), training: False}))
    for flag in (True, False):
        print(sess.run(loss, {x: np.ones((1, 2)), training: flag}))
'''


def test_a_flag_fed_one_literal_is_compiled_in_and_keeps_the_concrete_call():
    """`training: True` at every run of the training step: one trace with `training = True` in its body (a
    parameter with a default would make the concrete call bind it, 3x slower); the run fed the loop's `flag`
    keeps a function without a signature, traced per value."""
    result = migrate_source(FLAGS, "flags.py")
    assert result.outcome == "eager", result.findings
    source = result.new_source
    assert "def run_train_loss(x):\n    training = True\n" in source
    assert "call_compiled(run_train_loss, **feed)" in source  # the helper leaves `training` out
    assert "def run_loss_2(x):\n    training = False\n" in source
    assert "print(run_loss_2(x=np.ones((1, 2))).numpy())" in source  # run once: a plain call
    assert "def run_loss_3(x, training):" in source  # fed a variable: no specialization
    assert "\n@tf.function\ndef run_loss_3(" in source
    messages = [f.message for f in result.findings]
    assert any("run_train_loss() is compiled for `training` = True" in m for m in messages), messages
    assert_same_output(run_legacy(FLAGS), run_migrated(source))


WRONG_SHAPE = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    for rows in (np.ones((3, 2)), np.ones((4, 2)), np.ones((2, 3))):
        try:
            print(sess.run(y, {x: rows}))
        except ValueError as error:
            print("refused", type(error).__name__)
'''


def test_calls_after_the_first_run_the_trace_and_refuse_a_feed_of_another_shape():
    """The trace runs without the concrete call's binding, and a feed whose shape the placeholder does not
    admit raises ValueError, as sess.run did, instead of reaching the graph."""
    result = migrate_source(WRONG_SHAPE, "shapes.py")
    assert result.outcome == "eager", result.findings
    assert "call_preflattened" in result.new_source
    legacy = run_legacy(WRONG_SHAPE)
    assert legacy.splitlines()[-1] == "refused ValueError"
    assert_same_output(legacy, run_migrated(result.new_source))
