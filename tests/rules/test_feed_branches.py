"""feed-branches: a feed dict each branch of an ``if`` builds, then one run -> the run in each branch."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

STATE_FED_BACK = """\
import numpy as np
import tensorflow as tf
tf.set_random_seed(2)
TIME_STEP, CELL_SIZE = 6, 4
tf_x = tf.placeholder(tf.float32, [None, TIME_STEP, 1])
tf_y = tf.placeholder(tf.float32, [None, TIME_STEP, 1])
cell = tf.nn.rnn_cell.BasicLSTMCell(CELL_SIZE)
init_s = cell.zero_state(1, tf.float32)  # the very first state
rnn_out, final_s = tf.nn.dynamic_rnn(cell, tf_x, initial_state=init_s)
outs = tf.reshape(tf.layers.dense(tf.reshape(rnn_out, [-1, CELL_SIZE]), 1), [-1, TIME_STEP, 1])
loss = tf.reduce_mean(tf.square(outs - tf_y))
train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(5):
    steps = np.linspace(step * np.pi, (step + 1) * np.pi, TIME_STEP)
    x = np.sin(steps)[np.newaxis, :, np.newaxis]
    y = np.cos(steps)[np.newaxis, :, np.newaxis]
    if 'final_s_' not in globals():  # the first state
        feed_dict = {tf_x: x, tf_y: y}
    else:  # the state the last step ended with
        feed_dict = {tf_x: x, tf_y: y, init_s: final_s_}
    # train
    _, l, final_s_ = sess.run([train_op, loss, final_s], feed_dict)
    print(step, l, final_s_.h[0, :3])
"""


def test_an_rnn_fed_its_last_state_converts_and_prints_tf1s_numbers(tmp_path):
    # MorvanZhou's 403_RNN_regression: compat before ("`init_s` (tensor) is used outside sess.run").
    result = migrate_source(STATE_FED_BACK, "rnn.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "feed_dict" not in new
    assert "    # train\n    if 'final_s_' not in globals():  # the first state\n" \
           "        _, l, final_s_ = to_numpy(call_compiled(" in new
    assert "init_s=final_s_))\n" in new
    assert any(f.rule == "feed-branches" for f in result.findings)
    verdict = verify_program(STATE_FED_BACK, new, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


FEEDS = """\
import tensorflow as tf
x = tf.placeholder(tf.float32, [2])
k = tf.placeholder_with_default(1.0, [])
y = x * k
sess = tf.Session()
for step in range(3):
{chain}
{run}
"""
PLAIN_CHAIN = ("    if step == 0:\n        feed = {x: [1.0, 2.0]}\n"
               "    elif step == 1:\n        feed = {x: [3.0, 4.0], k: 2.0}\n"
               "    else:\n        scale = step * 1.5\n        feed = {x: [5.0, 6.0], k: scale}")


def test_an_elif_chain_gets_a_run_in_each_branch(tmp_path):
    source = FEEDS.format(chain=PLAIN_CHAIN, run="    print(sess.run(y, feed_dict=feed))")
    result = migrate_source(source, "feeds.py")
    assert result.outcome == "eager", result.compat_reason
    assert result.new_source.count("print(") == 3 and "feed =" not in result.new_source
    assert "scale = step * 1.5\n        print(call_compiled(run_y_2, x=[5.0, 6.0], k=scale).numpy())" \
        in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


@pytest.mark.parametrize("chain, run", [
    pytest.param(PLAIN_CHAIN, "    print(sess.run(y, feed))\n    print(feed)", id="the name is read again"),
    pytest.param(PLAIN_CHAIN.replace("    else:\n        scale = step * 1.5\n        feed = {x: [5.0, 6.0], k: scale}",
                                     ""), "    print(sess.run(y, feed))", id="no else: the name may be bound before"),
    pytest.param(PLAIN_CHAIN, "    print(sess.run(tf.identity(y), feed))", id="fetches that call"),
    pytest.param(PLAIN_CHAIN.replace("feed = {x: [5.0, 6.0], k: scale}", "feed = dict({x: [5.0, 6.0]})"),
                 "    print(sess.run(y, feed))", id="a branch that binds no dict literal"),
    pytest.param(PLAIN_CHAIN, "    total = 0\n    print(sess.run(y, feed))", id="the run is not right after the chain"),
])
def test_left_as_it_is(chain, run):
    result = migrate_source(FEEDS.format(chain=chain, run=run), "feeds.py")
    assert not any(f.rule == "feed-branches" for f in result.findings)
