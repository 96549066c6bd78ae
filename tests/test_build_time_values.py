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


# Functions that change what they do not own (a module list, a dict's item, a `global`), called by graph code or
# given to TF's control flow for a body or branch: TF1 called them once, when it built. Each run function's trace
# called them again: the eager programs printed 3 where TF1 printed 2 (a layer helper appending its output), 4 for
# 2 (a `map_fn` function counting its calls), 2 for 1 (a `while_loop` body recording its trace).
OUTSIDE_CHANGES = '''\
import numpy as np
import tensorflow as tf

{state}


def {helper}


x = tf.placeholder(tf.float32, [None])
{graph}
with tf.Session() as sess:
    print(sess.run(y, {{x: np.ones(2)}}))
    print(sess.run(y * 2.0, {{x: np.ones(2)}}))
print({shown})
'''


@pytest.mark.parametrize("state, helper, graph, shown, why", [
    pytest.param("outs = []", "layer(t):\n    out = tf.nn.relu(t)\n    outs.append(out)\n    return out",
                 "y = layer(x) * 3.0", "len(outs)", "calls `layer`, which changes `outs`, which it does not own",
                 id="a helper appending its output to a module list"),
    pytest.param("outs = []", "layer(t, keep):\n    out = tf.nn.relu(t)\n    keep.append(out)\n    return out",
                 "y = layer(x, outs) * 3.0", "len(outs)", "calls `layer`, which changes `keep`, an object it is given",
                 id="a helper appending its output to a list it is given"),
    pytest.param('calls = {"n": 0}', 'scaled(t):\n    calls["n"] += 1\n    return t * 3.0',
                 "y = tf.map_fn(scaled, x)", "calls",
                 "gives `tf.map_fn` the function `scaled`, which changes `calls`, which it does not own",
                 id="a map_fn function counting its calls"),
    pytest.param("trace = []", "body(i, acc):\n    trace.append(i)\n    return i + 1, acc * 1.5",
                 "_, y = tf.while_loop(lambda i, acc: i < 3, body, [tf.constant(0), x])", "len(trace)",
                 "gives `tf.while_loop` the function `body`, which changes `trace`, which it does not own",
                 id="a while_loop body recording its trace"),
])
def test_graph_code_calling_a_function_that_changes_outside_state_keeps_compat(state, helper, graph, shown, why):
    source = OUTSIDE_CHANGES.format(state=state, helper=helper, graph=graph, shown=shown)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert f"graph code the run recomputes {why}" in result.compat_reason


def test_a_function_changing_only_what_it_owns_converts_with_the_legacy_output():
    source = OUTSIDE_CHANGES.format(state="log = []", graph="y = layer(x) * 3.0", shown="len(log)",
                                    helper="layer(t):\n    parts = []\n    parts.append(tf.nn.relu(t))\n"
                                           "    return tf.add_n(parts)")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_helper_acting_in_python_called_by_graph_code_in_main_keeps_compat():
    # The function summaries of the module reach main()'s scope: before, main() did not know the helper printed,
    # and the eager program printed "built" after the first run's output (TF1: once, before it).
    source = '''\
import numpy as np
import tensorflow as tf


def layer(t):
    print("built")
    return tf.nn.relu(t) * 2.0


def main():
    x = tf.placeholder(tf.float32, [None])
    y = layer(x)
    with tf.Session() as sess:
        print(sess.run(y, {x: np.ones(2)}))
        print(sess.run(y * 2.0, {x: np.ones(2)}))


main()
'''
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "graph code the run recomputes calls `layer`, which prints (`print(...)`)" in result.compat_reason


@pytest.mark.parametrize("effect, why", [
    ("self.trace.append(1)", "changes `self.trace`"),
    ('print("step built")', "prints (`print(...)`)"),
])
def test_a_method_given_to_control_flow_that_acts_in_python_keeps_compat(effect, why):
    # Before: eager; each generated method's trace ran the loop body again (the trace held 2 where TF1's held 1).
    source = f'''\
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self):
        self.trace = []
        self.x = tf.placeholder(tf.float32, [None])
        _, self.y = tf.while_loop(lambda i, a: i < 3, self.step, [tf.constant(0), self.x])
        self.z = self.y * 2.0
        self.sess = tf.Session()

    def step(self, i, a):
        {effect}
        return i + 1, a * 1.5

    def run_y(self, v):
        return self.sess.run(self.y, {{self.x: v}})

    def run_z(self, v):
        return self.sess.run(self.z, {{self.x: v}})


net = Net()
print(net.run_y(np.ones(2)), net.run_z(np.ones(2)), len(net.trace))
'''
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert f"gives `tf.while_loop` the function `self.step`, which {why}" in result.compat_reason
