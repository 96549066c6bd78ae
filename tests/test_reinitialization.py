"""A second initializer run resets variables in TF1; eager variables keep their values.

It is dropped only where it changes nothing: no op ran since the variable was initialized (only
tensors were read), and its initial value comes out the same again (no random op, or op-seeded
ones in a new session). Otherwise the file stays compat, with the reason at the run.
"""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEAD = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
"""


def _eager_and_same(source: str) -> None:
    result = migrate_source(source, "init.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_initializing_each_variable_once_is_no_second_initialization():
    _eager_and_same(HEAD + """w1 = tf.Variable(tf.fill([2, 3], 0.5))
w2 = tf.Variable(tf.fill([3, 1], 2.0))
y = tf.matmul(tf.matmul(x, w1), w2)
sess = tf.Session()
sess.run(w1.initializer)
sess.run(w2.initializer)
print(sess.run(y, {x: np.ones((1, 2))}))
""")


@pytest.mark.parametrize("initial", ["tf.zeros([2, 3]) + 0.5", "tf.random_normal([2, 3], stddev=1, seed=1)"])
def test_an_initialization_in_a_new_session_that_gives_the_same_values_is_dropped(initial):
    # Constants come out the same; an op-seeded random op restarts its numbers in each new session (TF2 draws
    # other numbers than TF1 for the same seed, so there both programs print one value twice, each its own).
    source = HEAD + f"""w = tf.Variable({initial})
y = tf.reduce_sum(tf.matmul(x, w))
sess = tf.Session()
sess.run(w.initializer)
print(np.round(sess.run(y, {{x: np.ones((1, 2))}}), 5))
sess.close()
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(np.round(sess.run(y, {{x: np.ones((1, 2))}}), 5))
"""
    if "random" not in initial:
        _eager_and_same(source)
        return
    result = migrate_source(source, "init.py")
    assert result.outcome == "eager", result.findings
    for printed in (run_legacy(source), run_migrated(result.new_source)):
        first, second = printed.split()
        assert first == second


RESET = HEAD + """w = tf.Variable({initial})
y = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(y)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
{between}
sess.run(tf.global_variables_initializer())
print(sess.run(y, {{x: np.ones((1, 2))}}))
"""


@pytest.mark.parametrize("between, initial", [
    ("sess.run(train, {x: np.ones((1, 2))})", "tf.random_normal([2, 3])"),  # trained: TF1 resets it, drawn again
    ("print(sess.run(y, {x: np.ones((1, 2))}))", "tf.random_normal([2, 3])"),  # TF1 draws new values
    ("print(sess.run(y, {x: np.ones((1, 2))}))", "tf.random_normal([2, 3], seed=1)"),  # same session: new draw
    # An update built in the run itself converted, and the migrated program printed the updated values where
    # TF1 printed the initial ones again (a silent wrong rewrite); a restored checkpoint or a loaded value
    # changes the variables too.
    ("sess.run(tf.assign(w, tf.ones([2, 3])))", "tf.random_normal([2, 3], seed=1)"),
    ("saver = tf.train.Saver([w])\nsaver.restore(sess, saver.save(sess, '/tmp/reinit.ckpt'))",
     "tf.random_normal([2, 3], seed=1)"),
])
def test_an_initialization_that_resets_values_stays_compat(between, initial):
    result = migrate_source(RESET.format(initial=initial, between=between), "init.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("variables are initialized again")


@pytest.mark.parametrize("between", [
    "sess.run(train, {x: np.ones((1, 2))})",
    "sess.run(tf.assign(w, tf.ones([2, 3])))",
    "saver = tf.train.Saver([w])\nsaver.restore(sess, saver.save(sess, '/tmp/reinit.ckpt'))",
])
def test_a_reset_to_a_constant_initial_value_is_assigned_again(between):
    # `tf.zeros([2, 3]) + 0.5` is a constant: the constant-reinitialization rule writes the second run as its
    # assignment (it took `tf.zeros` for a value it did not know before, and the file stayed compat).
    source = RESET.format(initial="tf.zeros([2, 3]) + 0.5", between=between)
    result = migrate_source(source, "init.py")
    assert "w.assign(tf.zeros([2, 3]) + 0.5)" in result.new_source
    _eager_and_same(source)


def test_two_sessions_in_use_at_once_hold_two_values_and_stay_compat():
    # chiphuyen's 02_variables: each session initializes W and updates its own copy.
    source = """import tensorflow as tf

W = tf.Variable(10)
sess1 = tf.Session()
sess2 = tf.Session()
sess1.run(W.initializer)
sess2.run(W.initializer)
print(sess1.run(W.assign_add(10)))
print(sess2.run(W.assign_sub(2)))
"""
    result = migrate_source(source, "init.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("variables are initialized again")


def test_initializers_grouped_into_one_op_are_an_initialization():
    # `init = tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())`, run once: the
    # eager variables are initialized where they are made (it kept the file compat: a graph-only call).
    source = HEAD + ("w = tf.Variable([[1.0], [2.0]])\n"
                     "y = tf.matmul(x, w)\n"
                     "step = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y))\n"
                     "init = tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())\n"
                     "with tf.Session() as sess:\n"
                     "    sess.run(init)\n"
                     "    for _ in range(2):\n"
                     "        print(sess.run([step, y], {x: [[1.0, 1.0]]})[1])\n")
    _eager_and_same(source)


# A tutorial's second section builds its own model in the same graph (its `x`, `w`, `y`, `train` bound again) and
# initializes all variables again: TF1 reset the first section's `w` too, but nothing reads it afterwards.
SECOND_SECTION = HEAD + """w = tf.Variable(tf.fill([2, 1], 0.5))
y = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        print(sess.run([train, y], {x: np.ones((1, 2))})[1])

x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.fill([3, 1], 2.0))
y = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        print(sess.run([train, y], {x: np.ones((1, 3))})[1])
"""


def test_a_second_initialization_whose_old_variables_nothing_reads_afterwards_converts():
    _eager_and_same(SECOND_SECTION)


@pytest.mark.parametrize("later", [
    "print(sess.run(first_y, {x: np.ones((1, 2))}))",  # the first model's value, through a name kept
    "saver = tf.train.Saver()\n    saver.save(sess, '/tmp/reinitialized.ckpt')",  # every variable, the reset too
])
def test_a_second_initialization_whose_old_variables_are_read_afterwards_stays_compat(later):
    source = SECOND_SECTION.replace("train = tf.train", "first_y = y\ntrain = tf.train", 1) \
        .replace("x = tf.placeholder(tf.float32, [None, 3])", "x2 = tf.placeholder(tf.float32, [None, 3])") \
        .replace("tf.matmul(x, w))\ntrain", "tf.matmul(x2, w))\ntrain").replace("{x: np.ones((1, 3))}", "{x2: np.ones((1, 3))}")
    source += "    " + later + "\n"
    assert migrate_source(source.replace(later, "pass"), "init.py").outcome == "eager"  # (the read decides)
    result = migrate_source(source, "init.py")
    assert result.outcome == "compat", result.new_source
    assert result.compat_reason.startswith("variables are initialized again"), result.compat_reason


def test_a_function_reading_the_old_variables_keeps_compat():
    # The second model calls a function of the program whose body reads the first model's `scale` as a global:
    # TF1 reset it at the second initialization; the eager `scale` would keep its trained value.
    source = SECOND_SECTION.replace("y = tf.reduce_sum(tf.matmul(x, w))\ntrain",
                                    "scale = tf.Variable(1.5)\ny = tf.reduce_sum(tf.matmul(x, w)) * scale\n\n\n"
                                    "def scaled(v):\n    return v * scale\n\n\ntrain", 1)
    source = source.replace("y = tf.reduce_sum(tf.matmul(x, w))\ntrain", "y = scaled(tf.reduce_sum(tf.matmul(x, w)))"
                            "\ntrain")
    assert source.count("scaled(") == 2
    assert migrate_source(source.replace("    return v * scale", "    return v * 2.0"), "init.py").outcome == "eager"
    result = migrate_source(source, "init.py")
    assert result.outcome == "compat", result.new_source
    assert result.compat_reason.startswith("variables are initialized again"), result.compat_reason


def test_a_function_whose_parameter_has_an_old_variables_name_reads_its_parameter():
    # TF's "Deep MNIST for Experts" (arupa-sadhak's notebook, probe 31): `def conv2d(x, W)` reads its own `W`, not
    # the first model's `W`; the second model's runs call it, and nothing reads the old `W` after the second
    # initialization. The old `W` was taken for read (the function's body reads `W`), and the file stayed compat.
    source = SECOND_SECTION.replace("y = tf.reduce_sum(tf.matmul(x, w))\ntrain",
                                    "\n\ndef product(x, w):\n    return tf.reduce_sum(tf.matmul(x, w))\n\n\n"
                                    "y = product(x, w)\ntrain", 1)
    source = source.replace("y = tf.reduce_sum(tf.matmul(x, w))\ntrain", "y = product(x, w)\ntrain")
    assert source.count("product(x, w)") == 3
    _eager_and_same(source)


# aymericdamien's save_restore_model: a second session initializes, restores the checkpoint the first one saved,
# and trains on. TF1 reset the variables (and Adam's slots) and read them back; eager ones are read back the same.
SECOND_SESSION_RESTORES = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train = tf.train.AdamOptimizer(0.1).minimize(loss)
init = tf.global_variables_initializer()
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(init)
    for i in range(3):
        sess.run(train, {x: np.ones((2, 2))})
    path = saver.save(sess, "PATH")
with tf.Session() as sess:
    sess.run(init)
    saver.restore(sess, path)
    for i in range(3):
        print(sess.run([train, loss], {x: np.ones((2, 2))})[1])
"""


def test_a_second_initialization_restored_at_once_from_a_saver_of_every_variable_converts(tmp_path):
    source = SECOND_SESSION_RESTORES.replace("PATH", str(tmp_path / "model.ckpt"))
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("change", [
    pytest.param(("init = tf.global_variables_initializer()\nsaver = tf.train.Saver()\n",
                  "saver = tf.train.Saver()\nv = tf.Variable(1.0)\ninit = tf.global_variables_initializer()\n"),
                 id="a variable made after the Saver, which it does not hold"),
    pytest.param(("    sess.run(init)\n    saver.restore", "    sess.run(init)\n    print(sess.run(w))\n    saver.restore"),
                 id="a read between the initialization and the restore"),
])
def test_a_second_initialization_not_undone_by_the_restore_stays_compat(change, tmp_path):
    source = SECOND_SESSION_RESTORES.replace("PATH", str(tmp_path / "model.ckpt"))
    source = source[::-1].replace(change[0][::-1], change[1][::-1], 1)[::-1]  # (the second session's)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "variables are initialized again" in result.compat_reason
