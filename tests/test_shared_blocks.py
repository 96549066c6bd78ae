"""Statements that generated functions repeat move into one helper they call (codegen.shared_blocks)."""
import libcst as cst

from tf_migrate.codegen.shared_blocks import share_repeated_blocks
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated


def _shared(source: str, methods: bool = False):
    """The source's functions after the pass, as one module's code (helpers before their first caller)."""
    functions = [s for s in cst.parse_module(source).body if isinstance(s, cst.FunctionDef)]
    changed, helpers = share_repeated_blocks(functions, {f.name.value for f in functions}, methods)
    body = []
    for index, function in enumerate(changed):
        body += helpers.get(index, []) + [function]
    return cst.Module(body=body).code, helpers


def _run(source: str, calls):
    scope = {"scale": 3}
    exec(source, scope)
    return [scope[name](*args) for name, args in calls]


TWO_FUNCTIONS = '''
def train(x, y):
    hidden = abs(x - 1) * scale
    out = hidden + 2 * x
    loss = (out - y) ** 2
    return loss


def evaluate(x):
    hidden = abs(x - 1) * scale
    out = hidden + 2 * x
    return out
'''


def test_a_repeated_forward_is_written_once_and_computes_the_same():
    new, helpers = _shared(TWO_FUNCTIONS)
    assert [h.name.value for h in sum(helpers.values(), [])] == ["compute_out"]
    assert "def compute_out(x):\n    hidden = abs(x - 1) * scale\n    out = hidden + 2 * x\n    return out\n" in new
    assert "    out = compute_out(x)\n    loss = (out - y) ** 2\n" in new
    calls = [("train", (4.0, 1.0)), ("evaluate", (-2.0,))]
    assert _run(new, calls) == _run(TWO_FUNCTIONS, calls)


def test_outputs_one_caller_does_not_read_are_unpacked_to_underscore():
    source = '''
def first(a, b):
    total = a + b
    prod = a * b
    dot = prod * 2 + total
    return total, dot


def second(a, b):
    total = a + b
    prod = a * b
    dot = prod * 2 + total
    return dot, prod
'''
    new, _ = _shared(source)
    assert "    total, _, dot = compute_total_prod_dot(a, b)\n" in new
    assert "    _, prod, dot = compute_total_prod_dot(a, b)\n" in new
    calls = [("first", (1, 2)), ("second", (3, 4))]
    assert _run(new, calls) == _run(source, calls)


def test_parameters_follow_the_callers_parameter_order():
    source = '''
def first(x, y, flag):
    h = (y if flag else x) * 2
    loss = h * x + y
    return loss


def second(x, y, flag):
    h = (y if flag else x) * 2
    loss = h * x + y
    return loss, h
'''
    new, _ = _shared(source)
    assert "def compute_h_loss(x, y, flag):" in new
    assert _run(new, [("second", (1, 2, True))]) == _run(source, [("second", (1, 2, True))])


def test_short_repeats_stay_inline():
    source = '''
def first(a, b):
    total = a + b
    return total


def second(a, b):
    total = a + b
    return total * 2
'''
    new, helpers = _shared(source)
    assert not helpers and new.count("total = a + b") == 2


def test_statements_that_use_a_with_target_stay_in_the_caller():
    source = '''
def first(x, tape):
    with tape as t:
        t.watch(x)
        y = abs(x) * 2 + 1
        z = y * y - 3
    return z


def second(x, tape):
    with tape as t:
        t.watch(x)
        y = abs(x) * 2 + 1
        z = y * y - 3
    return y
'''
    new, helpers = _shared(source)
    assert len(helpers) == 1
    assert new.count("t.watch(x)") == 2  # the tape's own statements are not moved
    assert "        _, z = compute_y_z(x)\n" in new and "        y, _ = compute_y_z(x)\n" in new


def test_a_read_of_a_local_bound_later_leaves_the_caller_as_it_is():
    source = '''
def first(x):
    y = abs(x) * 2 + late
    z = y * y - 3
    late = 1
    return z


def second(x):
    y = abs(x) * 2 + late
    z = y * y - 3
    return z
'''
    new, helpers = _shared(source)
    assert not helpers and new.count("abs(x) * 2 + late") == 2


def test_methods_share_a_method():
    source = '''
def predict(self, inputs):
    out = abs(inputs * self.w + self.b) ** 2
    return out


def train(self, inputs, target):
    out = abs(inputs * self.w + self.b) ** 2
    self.w -= (out - target) * 0.1
'''
    new, _ = _shared(source, methods=True)
    assert "def compute_out(self, inputs):" in new
    assert new.count("out = self.compute_out(inputs)") == 2


TRAIN_AND_EVALUATE = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
w1 = tf.Variable(np.full([3, 4], 0.1, np.float32))
w2 = tf.Variable(np.full([4, 1], -0.2, np.float32))
hidden = tf.nn.tanh(tf.matmul(x, w1))
pred = tf.matmul(hidden, w2)
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
rng = np.random.RandomState(0)
data, target = rng.randn(8, 3), rng.randn(8, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        sess.run(train, {x: data, y: target})
        print(step, np.round(sess.run(loss, {x: data, y: target}), 5))
    print(np.round(sess.run(pred, {x: data[:2]}), 5))
'''


def test_a_migrated_program_computes_its_forward_pass_in_one_place():
    result = migrate_source(TRAIN_AND_EVALUATE, "train_eval.py")
    assert result.outcome == "eager", result.findings
    new = result.new_source
    assert new.count("tf.matmul(x, w1)") == 1, new  # the model once, called by the training step and both evaluations
    assert "\n\n\ndef compute_pred(x):\n" in new  # a plain function: the tf.functions that call it trace it inline
    assert_same_output(run_legacy(TRAIN_AND_EVALUATE), run_migrated(new))


def test_state_changes_and_calls_for_effect_stay_in_their_functions():
    source = '''
def first(x):
    counter.assign_add(1.0)
    step = counter.assign_add(1.0) * 2
    doubled = tf.identity(abs(x) * 2.0)
    optimizer.apply_gradients(zip(grads(doubled), variables))
    return doubled


def second(x):
    counter.assign_add(1.0)
    step = counter.assign_add(1.0) * 2
    doubled = tf.identity(abs(x) * 2.0)
    optimizer.apply_gradients(zip(grads(doubled), variables))
    return doubled + 1
'''
    new, helpers = _shared(source)
    assert [h.name.value for h in sum(helpers.values(), [])] == ["compute_doubled"]  # what computes a value
    moved = cst.Module(body=sum(helpers.values(), [])).code
    assert "assign_add" not in moved and "apply_gradients" not in moved
    assert new.count("    counter.assign_add(1.0)\n") == 2 and new.count("optimizer.apply_gradients") == 2


def test_argument_conversions_stay_with_their_function():
    source = '''
def first(x, y):
    x = tf.cast(x, tf.float32)
    y = tf.cast(y, tf.float32)
    return x + y


def second(x, y):
    x = tf.cast(x, tf.float32)
    y = tf.cast(y, tf.float32)
    return x * y
'''
    new, helpers = _shared(source)
    assert not helpers and new.count("x = tf.cast(x, tf.float32)") == 2
