"""Generated functions read fetched variables before the run's updates (tf_migrate/codegen/fetch_reads.py).

TF1 leaves ``sess.run([update, cost, W])``'s order open; the values computed from ``W`` come before the
update in the generated function, so ``W`` itself must too, or one run mixes both orders. ``--verify``
pins the legacy run to each order in turn: the output must match read-before-update.
"""
from pathlib import Path

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program
from tests.twins import assert_same_output, run_legacy, run_migrated

GOLDEN = Path(__file__).parent / "golden" / "fetch_variable_with_its_update.py"


def _legacy() -> str:
    return GOLDEN.read_text().partition("# output\n")[0]


def test_fetched_variables_are_read_before_the_update():
    out = migrate_source(_legacy(), "case.py")
    assert out.outcome == "eager"
    assert "    W_read = W.read_value()\n    cost = " in out.new_source
    assert "return [update, cost, W_read]" in out.new_source
    assert "gvs_read = [(grad, var.read_value()) for grad, var in gvs]\n    optimizer.apply_gradients" in out.new_source


def test_a_run_without_updates_returns_the_variable_itself():
    source = ("import tensorflow as tf\nW = tf.Variable(5.0)\ny = W * 2.0\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run([y, W]))\n")
    out = migrate_source(source, "case.py")
    assert "read_value" not in out.new_source


def test_verify_finds_the_read_before_update_order(tmp_path):
    legacy = _legacy()
    result = verify_program(legacy, migrate_source(legacy, "case.py").new_source, path=tmp_path / "case.py")
    assert result.status == EQUIVALENT, result.detail
    assert "matches the read-before-update order" in result.detail


def test_a_fetched_structure_built_after_the_update_holds_reads_from_before_it(tmp_path):
    # The summaries rule's merged dict, built where merge_all stood (after the optimizer): its variables and the
    # values computed from them are read before the step, as TF1 read them in that order.
    legacy = ("import tensorflow as tf\n"
              "W = tf.Variable([1.0, 2.0])\n"
              "weights = {'a': tf.Variable(3.0)}\n"
              "x = tf.placeholder(tf.float32)\n"
              "loss = tf.reduce_sum(W * x) + weights['a'] * x\n"
              "step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)\n"
              "state = {'w': W, 'mean': tf.reduce_mean(W), 'a': weights['a'], 'loss': loss}\n"
              "with tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    for _ in range(2):\n"
              "        print(sess.run([step, state], {x: 1.0})[1])\n")
    out = migrate_source(legacy, "case.py")
    assert out.outcome == "eager", out.compat_reason
    code = out.new_source
    assert "state = {'w': W_read, 'mean': tf.reduce_mean(W_read), 'a': weights_a_read, 'loss': loss}" in code
    assert code.index("W_read = W.read_value()") < code.index("optimizer.apply_gradients")
    result = verify_program(legacy, code, path=tmp_path / "case.py")
    assert result.status == EQUIVALENT, result.detail
    assert "matches the read-before-update order" in result.detail


def test_a_fetched_list_of_updates_updates_the_variables_themselves():
    # hunkim's lab-09-5: `step = [tf.assign(W, W - lr * d_w), tf.assign(b, ...)]` fetched with the cost.
    legacy = ("import tensorflow as tf\n"
              "W = tf.Variable(1.0)\nb = tf.Variable(2.0)\n"
              "x = tf.placeholder(tf.float32)\n"
              "cost = tf.square(W * x + b)\n"
              "first = tf.assign(W, W - 0.1)\n"
              "step = [tf.assign(W, W - 0.1 * x), tf.assign(b, b - 0.1)]\n"
              "with tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    for _ in range(2):\n"
              "        print(sess.run([first, step, cost], {x: 1.0})[1:])\n")
    code = migrate_source(legacy, "case.py").new_source
    assert "W_read.assign" not in code and "b_read.assign" not in code


def test_a_structure_that_waits_for_the_update_reads_after_it():
    legacy = ("import tensorflow as tf\n"
              "W = tf.Variable(1.0)\n"
              "x = tf.placeholder(tf.float32)\n"
              "step = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(W * x))\n"
              "with tf.control_dependencies([step]):\n"
              "    after = {'w': tf.identity(W)}\n"
              "with tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run([step, after], {x: 1.0})[1])\n")
    out = migrate_source(legacy, "case.py")
    assert out.outcome == "eager", out.compat_reason
    assert "W_read" not in out.new_source
    assert_same_output(run_legacy(legacy), run_migrated(out.new_source))
