"""Runs whose feed the eager rewrite cannot give: compat, with the cause at the run (analysis/scope_passes).

Before, each became a run function whose call missed an argument (`run_y() missing required argument 'x'`) or
read a placeholder that is gone (`undefined name 'keep_prob'`, a feed built over placeholders in a helper given the
session, which the module's own runs already refused): only the output self-check caught them, and the reason
named no cause (the fuzz's self-check catches: 117 of 2,000 programs, 12 after these checks).
"""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

HEAD = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
rate = tf.placeholder_with_default(2.0, [])
w = tf.Variable(tf.ones([3, 1]))
y = tf.matmul(x, w) * rate
batch = np.ones((2, 3), np.float32)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(sess.run(y, {x: batch}))
'''


@pytest.mark.parametrize("run, why", [
    pytest.param("print(sess.run(y, {rate: 3.0}))\n",
                 "this run needs the placeholder `x`, which its feed does not name: TF1 fails here",
                 id="a needed placeholder not fed"),
    pytest.param("def evaluate(session):\n"
                 "    return session.run(y, feed_dict={p: v for p, v in zip([x], [batch])})\n\n\nprint(evaluate(sess))\n",
                 "a feed dict built from placeholder objects by code", id="a feed built over placeholders in a helper"),
])
def test_runs_without_an_eager_feed_stay_compat_with_the_cause(run, why):
    result = migrate_source(HEAD + run, "feeds.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason
    assert "self-check" not in result.compat_reason


@pytest.mark.parametrize("run", [
    pytest.param("print(sess.run(y, {x: batch * 2}))\n", id="the placeholder with a default left unfed"),
    pytest.param("feed = {x: batch, rate: 1.0}\nprint(sess.run(y, feed_dict=feed))\n", id="a feed dict bound to a name"),
])
def test_feeds_the_rewrite_gives_convert(run):
    result = migrate_source(HEAD + run, "feeds.py")
    assert result.outcome == "eager", result.compat_reason


@pytest.mark.parametrize("made", [
    "tf.SparseTensor(indices=[[0, 1], [1, 2]], values=tf.reduce_sum(x) * tf.constant([1.0, 2.0]), dense_shape=[2, 3])",
    "tf.SparseTensor(indices=[[0, 1]], values=[1.0], dense_shape=[2, 3])",
])
def test_a_fetched_sparse_tensor_keeps_compat(made):
    # Before: eager, and the migrated program failed: AttributeError: 'SparseTensor' object has no attribute 'numpy'.
    source = (f"import numpy as np\nimport tensorflow as tf\n\nx = tf.placeholder(tf.float32, [None, 3])\nsp = {made}\n"
              "with tf.Session() as sess:\n    v = sess.run(sp, {x: np.ones((1, 3))})\n    print(v.indices, v.values)\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`sp` is a sparse tensor (tf.SparseTensor)" in result.compat_reason


COUNTER = '''\
import tensorflow as tf

total = tf.Variable(0.0)
values = tf.constant([1.0, 2.0, 3.0, 4.0])
step = tf.placeholder(tf.float32)
update = tf.assign(total, total + step)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(4):
    {run}
    print(i, sess.run(values[i]), sess.run(total))
print(total.eval(sess))
'''


@pytest.mark.parametrize("run", [
    pytest.param("sess.run(update, feed_dict={step: sess.run(values[i])})", id="a run in another run's feed"),
    pytest.param("sess.run(update, {step: values[i].eval(session=sess)})", id="eval(session=sess) in the feed"),
])
def test_a_run_inside_a_feed_and_eval_given_the_session_convert(run, tmp_path):
    # Before: the outer run became `call_compiled(run_update, step=sess.run(values[i]))`, keeping the inner run
    # (the self-check: undefined name 'sess'), and `total.eval(sess)` took the session for a feed dict. A
    # variable's eval takes the session first (yongyehuang's and GhibliField's tutorials, probe 30).
    legacy = COUNTER.format(run=run)
    result = migrate_source(legacy, "counter.py")
    assert result.outcome == "eager", result.compat_reason
    assert "sess" not in result.new_source
    verified = verify_program(legacy, result.new_source, path=tmp_path / "counter.py")
    assert verified.status == EQUIVALENT, verified.detail


def test_a_feed_dict_built_before_a_loop_that_rebinds_the_placeholders_name(tmp_path):
    # GunhoChoi's Kind_Tensorflow_Tutorial 3-2 (held-out probe 44): `feed_dict={x: X, y_: new_y}`, then
    # `for x in range(iteration)`. The name's last binding is the loop's int, so the dict kept `x` as its key, the
    # placeholder's line gone: the output self-check caught an undefined name and the file stayed compat.
    legacy = HEAD.replace("print(sess.run(y, {x: batch}))\n", "") + (
        "feed = {x: batch, rate: 3.0}\nfor x in range(3):\n    print(x, sess.run(y, feed_dict=feed))\n")
    result = migrate_source(legacy, "rebound.py")
    assert result.outcome == "eager", result.compat_reason
    assert "feed = {'x': batch, 'rate': 3.0}" in result.new_source
    # the dict feeds the placeholder it names where it stands: its keys are known, and the run compiled (it was
    # an eager `run_y(**unused_feeds)`, "its feed dict is built at run time": 10x TF1's time in the notebook)
    assert "@tf.function(input_signature=" in result.new_source and "unused_feeds" not in result.new_source
    verified = verify_program(legacy, result.new_source, path=tmp_path / "rebound.py")
    assert verified.status == EQUIVALENT, verified.detail


def test_a_feed_dict_whose_key_name_holds_another_placeholder_at_the_run_stays_compat():
    # The dict feeds the first `x`; the run's graph reads the second: TF1 fails ("must feed a value for
    # placeholder"), and one parameter `x` cannot be both.
    legacy = HEAD.replace("print(sess.run(y, {x: batch}))\n", "") + (
        "feed = {x: batch}\nx = tf.placeholder(tf.float32, [None, 3])\ny = tf.matmul(x, w) * rate\n"
        "print(sess.run(y, feed_dict=feed))\n")
    result = migrate_source(legacy, "other.py")
    assert result.outcome == "compat"
    assert "`x` is fed, and this run also needs the `x` bound before it" in result.compat_reason


TWO_FEEDS = '''\
import numpy as np
import tensorflow as tf

a = tf.placeholder(tf.float32, [3])
b = tf.placeholder(tf.float32, [2, 2])
w = tf.Variable(2.0)
step = tf.group(tf.assign_add(w, 1.0))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
feed_dict = {a: np.arange(3.0)}
print(sess.run(a * w, feed_dict=feed_dict))
feed_dict = {b: np.ones((2, 2))}
step.run(feed_dict, session=sess)
print(sess.run(tf.reduce_sum(b) * w, feed_dict=feed_dict))
'''


def test_a_feed_dict_name_bound_to_dicts_of_other_keys_feeds_each_run_the_one_before_it(tmp_path):
    # nfmcclure's `05_implementing_different_layers.py` (trial): `feed_dict = {x_input_1d: ...}` for four runs,
    # then `feed_dict = {x_input_2d: ...}` for four more; and the genetic algorithm's `step.run(feed_dict,
    # session=sess)`, an op's feed by position. Each name's keys were "built at run time": eager run functions
    # taking `**unused_feeds` (8 + 2 in the trial), where the line before each run says which dict it is.
    result = migrate_source(TWO_FEEDS, "two_feeds.py")
    assert result.outcome == "eager", result.compat_reason
    assert "unused_feeds" not in result.new_source
    assert result.new_source.count("@tf.function(input_signature=") == 3
    assert "feed_dict = {'a': np.arange(3.0)}" in result.new_source and "feed_dict = {'b': np.ones((2, 2))}" in \
        result.new_source
    verified = verify_program(TWO_FEEDS, result.new_source, path=tmp_path / "two_feeds.py")
    assert verified.status == EQUIVALENT, verified.detail


def test_a_feed_dict_rebound_in_the_runs_own_loop_keeps_an_open_feed():
    # Which dict a run in the loop sees changes with the iteration: no one literal reaches it.
    legacy = TWO_FEEDS.replace("feed_dict = {b: np.ones((2, 2))}\nstep.run(feed_dict, session=sess)\n",
                               "for i in range(2):\n    print(sess.run(a * w, feed_dict=feed_dict))\n"
                               "    feed_dict = {b: np.ones((2, 2))}\n")
    result = migrate_source(legacy, "loop_feeds.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def run_fetches(a, **unused_feeds):" in result.new_source  # an open feed, eager (as before)
