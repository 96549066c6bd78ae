"""constant-branches: if-tests that are literal constants -> the branch taken."""
import libcst as cst
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules.constant_branches import ConstantBranches, constant_test
from tf_migrate.tfnames import TFNames


@pytest.mark.parametrize("test, taken", [
    pytest.param("True", True, id="True"),
    pytest.param("0", False, id="zero"),
    pytest.param("not False", True, id="not"),
    pytest.param("1 and None", False, id="and"),
    pytest.param("flag", None, id="a name"),
    pytest.param("USE_ADAM == True", None, id="a comparison of a name"),
    pytest.param("len([]) == 0", None, id="a call"),
])
def test_constant_test(test, taken):
    decided = constant_test(cst.parse_expression(test))
    assert (decided[0] if decided else None) is taken


# KellerJordan's Learning-Tensorflow `assorted/linear_regression.py` (held-out probe 45): the gradient step written
# out by hand in `if True:`, tf.train's optimizer in the dead `else:`; the optimizer of the dead branch was "an object
# the analysis does not know" and the file stayed compat.
SWITCHED = """
import tensorflow as tf

W = tf.Variable([.3])
b = tf.Variable([-.3])
x = tf.placeholder(tf.float32)
y = tf.placeholder(tf.float32)
linear_model = W * x + b
loss = 0.5 * tf.reduce_sum(tf.square(linear_model - y))
init = tf.global_variables_initializer()
if True:  # by hand
    alpha = tf.placeholder(tf.float32)
    loss_delta = tf.gradients(loss, linear_model)[0]
    update_W = tf.assign(W, W - alpha * loss_delta * x)
    update_b = tf.assign(b, b - alpha * loss_delta)
    sess = tf.Session()
    sess.run(init)
    for i in range(4):
        sess.run([update_W, update_b], {x: float(i), y: -float(i), alpha: 0.1})
    print(sess.run([W, b]))
else:
    optimizer = tf.train.GradientDescentOptimizer(0.01)
    train = optimizer.minimize(loss)
if 0:
    print("never")
"""


def test_the_branch_a_constant_takes_is_converted_and_the_dead_one_dropped():
    result = migrate_source(SWITCHED, "switched.py")
    assert result.outcome == "eager", result.compat_reason
    assert "if True" not in result.new_source and "GradientDescentOptimizer" not in result.new_source
    assert "never" not in result.new_source
    assert any(f.rule == "constant-branches" and f.message == "`True` is always True: kept the first branch"
               for f in result.findings)
    assert_same_output(run_legacy(SWITCHED), run_migrated(result.new_source))


def test_a_test_that_reads_a_name_is_left():
    source = SWITCHED.replace("if True:", "if by_hand:").replace("import tensorflow as tf\n",
                                                                  "import tensorflow as tf\nby_hand = True\n")
    module = cst.parse_module(source)
    ctx = RuleContext("named.py", TFNames.scan(module), EAGER)
    ctx.use_module(module)
    rewritten = ConstantBranches().apply(module, ctx).code
    assert "if by_hand:" in rewritten and "else:" in rewritten
    assert "if 0:" not in rewritten


def test_updates_in_a_branch_a_constant_takes_are_lines_of_their_own():
    # In a block the slice takes whole, a run of one update made both (tests/test_partial_updates.py); in the branch
    # `if True:` takes they are lines of their own, and the run makes the one TF1 ran.
    from tests.test_partial_updates import HEADER, RUN
    source = HEADER + "if True:\n    up1 = tf.assign_add(v1, 1.0)\n    up2 = tf.assign_add(v2, 1.0)\n" + \
        RUN.format(fetch="up1")
    result = migrate_source(source, "blocks.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
