"""Values graph code read when TF1 built it, changed before a run: TF1 kept the value it built with; the generated
functions and methods read names when they run. Where the analysis cannot give the earlier value a name of its own
(``rules/rebound_names``), the file stays compat with the reason (analysis/slicing, analysis/class_scope)."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source


# A hyperparameter `__init__` built the graph with, changed later: TF1 kept the value it had in `__init__`.
CHANGED_AFTER_INIT = '''
import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self):
        self.scale = 2.0
        self.x = tf.placeholder(tf.float32, [None])
        self.w = tf.Variable(1.0)
        self.loss = tf.reduce_mean(tf.square(self.w * self.x * self.scale - 3.0))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def learn(self, xs):
        {change_in_method}
        return self.sess.run([self.train, self.loss], {{self.x: xs}})[1]


agent = Agent()
{change_outside}
for i in range(3):
    print(agent.learn(np.array([1.0, 2.0], dtype=np.float32)))
'''


@pytest.mark.parametrize("change_in_method, change_outside, where", [
    ("self.scale = 5.0", "", "method `learn`"),
    ("pass", "agent.scale = 5.0", "code outside the class (`.scale = ...`)"),
])
def test_a_value_init_built_with_changed_later_keeps_compat(change_in_method, change_outside, where):
    # Before: eager, training with 5.0 where TF1 trained with 2.0 (the method read `self.scale` when traced).
    source = CHANGED_AFTER_INIT.format(change_in_method=change_in_method, change_outside=change_outside)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert f"`self.scale`, which graph code in __init__ reads, is bound again by {where}" in result.compat_reason


def test_a_value_init_built_with_and_left_alone_converts():
    source = CHANGED_AFTER_INIT.format(change_in_method="self.steps = 1", change_outside="agent.steps = 0")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


LOOP_READ_IN_THE_FETCH = '''
import tensorflow as tf

x = tf.placeholder(tf.float32)
y = x * 2.0
with tf.Session() as sess:
    for i in range(3):
        print(sess.run({fetch}, {{x: 1.0}}))
'''


@pytest.mark.parametrize("fetch", ["y * i + tf.constant(1.0)", "tf.square(tf.constant(1.0) + i)"])
def test_a_fetch_reading_the_loop_name_around_a_run_keeps_compat(fetch):
    # Before: eager, printing 1.0 three times where TF1 printed 1.0, 3.0, 5.0 (the compiled function kept i = 0);
    # the second fetch reads no placeholder, but the run feeds one, so it became a compiled function too.
    result = migrate_source(LOOP_READ_IN_THE_FETCH.format(fetch=fetch), "case.py")
    assert result.outcome == "compat"
    assert "the run's fetch reads `i`, which the loop around the run binds" in result.compat_reason


def test_a_fetch_computed_where_it_stands_reads_the_loop_name_each_time():
    # No graph value in the fetch: it is computed eagerly at each iteration (nfmcclure's `custom_polynomial(num)`).
    source = LOOP_READ_IN_THE_FETCH.format(fetch="tf.square(tf.constant(1.0) + i)").replace(", {x: 1.0}", "")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_an_array_shuffled_in_place_after_graph_code_read_it_keeps_compat():
    # Before: eager, the run read the shuffled array ([3. 2. 1.]) where TF1 built with [1. 2. 3.].
    source = ("import numpy as np\nimport tensorflow as tf\n\nx = tf.placeholder(tf.float32, [3])\n"
              "data = np.array([1., 2., 3.], dtype=np.float32)\ny = x * data\nnp.random.seed(0)\n"
              "np.random.shuffle(data)\nwith tf.Session() as sess:\n    print(sess.run(y, {x: [1., 1., 1.]}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`data` is bound again after graph code reads it" in result.compat_reason


HELPER_THAT_PRINTS = '''
import numpy as np
import tensorflow as tf


def model(x):
    print{message}
    return x * 2.0 + 1.0


x = tf.placeholder(tf.float32, [None, 3])
y = model(x)
loss = tf.reduce_sum(y)
print("built")
with tf.Session() as sess:
    print(sess.run(loss, {{x: np.ones((2, 3))}}))
    print(sess.run(y, {{x: np.ones((1, 3))}}))
'''


def test_graph_code_that_prints_when_built_keeps_compat():
    # Before: eager, printing "building model" after "built", once for each run function (TF1: once, first).
    result = migrate_source(HELPER_THAT_PRINTS.format(message='("building model")'), "case.py")
    assert result.outcome == "compat"
    assert "graph code the run recomputes calls `model`, which prints (`print(...)`)" in result.compat_reason


def test_a_diagnostic_to_another_stream_is_no_output():
    source = HELPER_THAT_PRINTS.format(message='("building model", file=sys.stderr)').replace(
        "import numpy", "import sys\nimport numpy")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_graph_code_that_draws_numpy_random_numbers_keeps_compat():
    # Before: eager; the second run function drew other numbers than the first (TF1 drew once, at build).
    source = ("import numpy as np\nimport tensorflow as tf\n\nx = tf.placeholder(tf.float32, [3])\n"
              "y = x * np.random.randn(3).astype(np.float32)\nwith tf.Session() as sess:\n"
              "    print(sess.run(y, {x: np.ones(3)}))\n    print(sess.run(y * 2.0, {x: np.ones(3)}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "draws numpy random numbers (`np.random.randn(...)`)" in result.compat_reason


def test_a_module_name_init_built_with_bound_again_keeps_compat():
    # Before: eager, printing 10.0 where TF1 printed 2.0 (the generated method read SCALE when traced).
    source = ("import tensorflow as tf\nSCALE = 2.0\n\n\nclass Model:\n    def __init__(self):\n"
              "        self.sess = tf.Session()\n        self.x = tf.placeholder(tf.float32)\n"
              "        self.y = self.x * SCALE\n\n    def predict(self, v):\n"
              "        return self.sess.run(self.y, {self.x: v})\n\n\nm = Model()\nSCALE = 10.0\nprint(m.predict(1.0))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`SCALE`, a module name graph code in __init__ reads, is bound again in the module" in result.compat_reason
    once = migrate_source(source.replace("SCALE = 10.0\n", ""), "case.py")
    assert once.outcome == "eager", once.compat_reason
    assert_same_output(run_legacy(source.replace("SCALE = 10.0\n", "")), run_migrated(once.new_source))


def test_a_name_a_lambda_reads_bound_again_keeps_compat():
    # Before: eager, printing -0.5 where TF1 printed -0.2 (the lambda read `alpha` when the run traced it).
    source = ("import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\nalpha = 0.2\n"
              "act = lambda z: tf.maximum(z, alpha * z)\ny = act(x)\nalpha = 0.5\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: -1.0}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`alpha`, which `act` reads when graph code calls it" in result.compat_reason


def test_graph_code_that_prints_and_that_no_run_needs_keeps_compat():
    # FrankWork's ones_like.py (probe 20): `for t in fetch: print(t.shape)` over per-run values. Before: it went into
    # the graph code no run needs, and the eager program printed no shapes at all.
    source = ("import numpy as np\nimport tensorflow as tf\n\nb = tf.placeholder(tf.int32, [None, 2])\n"
              "fetch = [b, tf.ones_like(b)]\nfor t in fetch:\n    print(t.shape)\n"
              "with tf.Session() as sess:\n    print(sess.run(fetch, {b: np.zeros((3, 2))}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("graph code that prints (`print(...)`) and that no run needs")
