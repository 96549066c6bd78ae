"""Variable collections become the explicit lists TF1 held (analysis/collections): creation order, scope
filters, and the variables eager code keeps elsewhere (optimizer slots, moving-average shadows), for which
a file stays compat with the reason."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tests.twins import assert_same_output, run_compat, run_legacy, run_migrated


def test_variables_filtered_by_their_tf1_names_stay_compat():
    # Eager variables are named by Keras layers and lose their variable scopes: a name filter would
    # silently select nothing (found by benchmarks/migrated_programs' GAN). A filter that reads only the
    # name becomes the explicit list (variable-name-filters); this one reads more.
    source = ("import numpy as np\nimport tensorflow as tf\n"
              "x = tf.placeholder(tf.float32, [None, 2])\n"
              "with tf.variable_scope('generator'):\n"
              "    w = tf.get_variable('w', [2, 1], initializer=tf.ones_initializer())\n"
              "loss = tf.reduce_sum(tf.matmul(x, w))\n"
              "g_vars = [v for v in tf.trainable_variables() if v.name.startswith('generator/') and v.trainable]\n"
              "step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=g_vars)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run([step, loss], {x: np.ones((2, 2))})[1])\n")
    result = migrate_source(source, "gan.py")
    assert result.outcome == "compat"
    # The blocker at its line: the filter that reads the names. (The scope that names the variable blocked too
    # before variable-store named a module-level `w = tf.get_variable('w', ...)` in full, `generator/w`.)
    blockers = {(f.line, f.message.split(":")[0]) for f in result.findings if f.rule == "eager-blocker"}
    assert (7, "variables filtered by their TF1 names (`.name`)") in blockers


TARGET_SYNC = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self, n_features):
        self.s = tf.placeholder(tf.float32, [None, WIDTH])
        with tf.variable_scope('eval'):
            self.q = tf.layers.dense(self.s, 2, kernel_initializer=tf.constant_initializer(0.5))
        with tf.variable_scope('target'):
            self.q_ = tf.layers.dense(self.s, 2, kernel_initializer=tf.constant_initializer(0.1))
        e = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval')
        t = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target')
        self.replace = [tf.assign(a, b) for a, b in zip(t, e)]
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def sync(self):
        self.sess.run(self.replace)

    def target_q(self, s):
        return self.sess.run(self.q_, {self.s: s})


agent = Agent(3)
agent.sync()
print(agent.target_q(np.ones((1, 3), np.float32)))
'''


def test_a_target_sync_before_any_forward_pass_needs_built_layers():
    # Keras layers make their variables on their first call. Where the input width is known where the layer
    # is built (`n_features`, set once), it is built there, and the sync copies every variable, as TF1 did.
    # Where it is not (`None`), a sync traced before any forward pass would copy nothing: compat, with why.
    known = TARGET_SYNC.replace("WIDTH", "n_features")
    result = migrate_source(known, "agent.py")
    assert result.outcome == "eager", result.findings
    assert ".build((None, n_features))" in result.new_source
    assert_same_output(_run_apart(known, "legacy"), _run_apart(result.new_source, "migrated"))
    unknown = migrate_source(TARGET_SYNC.replace("WIDTH", "None"), "agent.py")
    assert unknown.outcome == "compat"
    assert "a Keras layer whose variables exist once it has been called" in unknown.compat_reason


def _run_apart(source: str, mode: str) -> str:
    """Run in a process of its own, as --verify does (tf.layers need Keras 2 there)."""
    from tf_migrate.verify import run_program
    result = run_program(source, path="agent.py", mode=mode)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout



GLOBAL_COUNT = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
b = tf.Variable(tf.zeros([1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b))
step = tf.train.OPTIMIZER.minimize(loss)
print(len(tf.global_variables()), len(tf.trainable_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([step, loss], feed_dict={x: np.ones([1, 2])})[1])
"""


@pytest.mark.parametrize("optimizer", ["AdamOptimizer(0.1)", "MomentumOptimizer(0.1, 0.9)", "RMSPropOptimizer(0.1)"])
def test_global_variables_after_a_step_with_slots_keep_compat(optimizer):
    # TF1 listed 8 variables after an Adam step (w, b, two beta powers, two moments each); the program's
    # names hold 2, and a Keras optimizer's slots are its own.
    result = migrate_source(GLOBAL_COUNT.replace("OPTIMIZER", optimizer), "count.py")
    assert result.outcome == "compat"
    assert "slot variables" in result.compat_reason


def test_global_variables_after_a_gradient_descent_step_are_the_programs_variables():
    source = GLOBAL_COUNT.replace("OPTIMIZER", "GradientDescentOptimizer(0.1)")
    result = migrate_source(source, "count.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_global_variables_after_a_moving_average_keep_compat():
    source = GLOBAL_COUNT.replace("OPTIMIZER", "GradientDescentOptimizer(0.1)").replace(
        "print(len(", "averages = tf.train.ExponentialMovingAverage(0.9).apply([w])\nprint(len(")
    result = migrate_source(source, "count.py")
    assert result.outcome == "compat"
    assert "shadow variables" in result.compat_reason


SCOPED_SYNC = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
with tf.variable_scope('eval_net'):
    w = tf.get_variable('w', [2, 1], initializer=tf.constant_initializer(0.5))
with tf.variable_scope('target_net'):
    w_ = tf.get_variable('w', [2, 1], initializer=tf.constant_initializer(0.1))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
STEP
e_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval_net')
t_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target_net')
replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
print(len(e_params), len(t_params))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(step, {x: np.ones((2, 2))})
    sess.run(replace)
    print(sess.run(tf.reduce_sum(tf.matmul(x, w_)), {x: np.ones((1, 2))}))
"""


def test_a_scope_filter_that_no_slot_name_matches_lists_the_programs_variables():
    # The step is built in scope 'train': TF1 named the slots 'train/eval_net/w/RMSProp', which the filter
    # 'eval_net' does not match (MorvanZhou's DQN_modified builds its target sync so).
    source = SCOPED_SYNC.replace("STEP", "with tf.variable_scope('train'):\n"
                                         "    step = tf.train.RMSPropOptimizer(0.1).minimize(loss)")
    result = migrate_source(source, "sync.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_scope_filter_that_slot_names_match_keeps_compat():
    # Built at the top, the slots are 'eval_net/w/RMSProp': TF1's filtered list held 3 variables.
    source = SCOPED_SYNC.replace("STEP", "step = tf.train.RMSPropOptimizer(0.1).minimize(loss)")
    result = migrate_source(source, "sync.py")
    assert result.outcome == "compat"
    assert "slot variables" in result.compat_reason


# rasbt's deeplearning-models GANs (held-out probe 44): each network's optimizer trains the global variables of its
# scope, read before any step; the generator's list is read after the discriminator's Adam step, whose slots TF1
# named `discriminator/.../Adam`, which 'generator' does not match. It stayed compat (the step's var_list, a list of
# global variables, was not read, so every variable counted as trained).
GAN_LISTS = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
with tf.variable_scope('generator'):
    g_w = tf.get_variable('w', [2, 2], initializer=tf.constant_initializer(0.3))
fake = tf.matmul(x, g_w)
with tf.variable_scope('discriminator'):
    d_w = tf.get_variable('w', [2, 1], initializer=tf.constant_initializer(0.2))
d_fake = tf.matmul(fake, d_w)
d_real = tf.matmul(x, d_w)
d_cost = tf.reduce_mean(tf.square(d_real - 1.0)) + tf.reduce_mean(tf.square(d_fake))
g_cost = tf.reduce_mean(tf.square(d_fake - 1.0))
d_vars = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='discriminator')
d_train = tf.train.AdamOptimizer(0.1).minimize(d_cost, var_list=d_vars)
g_vars = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='generator')
g_train = tf.train.AdamOptimizer(0.1).minimize(g_cost, var_list=g_vars)
print(len(d_vars), len(g_vars))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([d_train, d_cost], {x: np.ones((2, 2)) * i})[1])
        print(sess.run([g_train, g_cost], {x: np.ones((2, 2)) * i})[1])
"""


def test_a_gans_lists_of_global_variables_by_scope_hold_no_slot_of_the_other_networks_step():
    result = migrate_source(GAN_LISTS, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(GAN_LISTS), run_migrated(result.new_source))
    crossed = GAN_LISTS.replace("scope='generator')", "scope='discriminator')")  # now the slots are listed
    assert migrate_source(crossed, "gan.py").outcome == "compat"


def test_global_variables_after_building_a_class_that_makes_variables_keep_compat():
    # The class's variables are in TF1's list too; the eager list of the module's own variables printed 1 for 2
    # (a silent wrong rewrite, found while making sessions pass between modules).
    source = ("import numpy as np\nimport tensorflow as tf\n\n\nclass Agent:\n"
              "    def __init__(self, sess, n_in):\n        self.sess = sess\n"
              "        self.x = tf.placeholder(tf.float32, [None, n_in])\n"
              "        w = tf.Variable(tf.ones([n_in, 2]) * 0.1)\n        self.out = tf.matmul(self.x, w)\n\n"
              "    def predict(self, x):\n        return self.sess.run(self.out, {self.x: x})\n\n\n"
              "sess = tf.Session()\nagent = Agent(sess, 3)\nv = tf.Variable(3.0)\n"
              "print(len(tf.global_variables()))\nsess.run(tf.global_variables_initializer())\n"
              "print(agent.predict(np.ones((1, 3))))\n")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`Agent` is built or called before this read: TF1's list also holds the variables it" in result.compat_reason
    assert_same_output(run_legacy(source), run_compat(result.new_source))


def test_a_variable_list_read_after_a_function_made_variables_stays_compat():
    """Each call of `experiment` made a variable TF1's list holds; the eager rewrite listed none (it printed 0)."""
    source = ("import tensorflow as tf\n\n\ndef experiment(scale):\n    x = tf.placeholder(tf.float32, [2])\n"
              "    w = tf.Variable(scale)\n    with tf.Session() as sess:\n"
              "        sess.run(tf.global_variables_initializer())\n        return sess.run(x * w, {x: [1.0, 2.0]})\n\n\n"
              "print(experiment(2.0))\nprint(experiment(3.0))\nprint(len(tf.global_variables()))\n")
    result = migrate_source(source, "experiments.py")
    assert result.outcome == "compat"  # (the module builds no graph of its own: the eager output's check keeps it)
    assert "len(tf.global_variables())" in result.new_source


LAYER_SYNC = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
with tf.variable_scope('eval_net'):
    q = tf.layers.dense(x, 3, kernel_initializer=tf.constant_initializer(0.5)EVAL_BIAS)
with tf.variable_scope('target_net'):
    q_ = tf.layers.dense(x, 3, kernel_initializer=tf.constant_initializer(0.1)TARGET_BIAS)
loss = tf.reduce_mean(tf.square(LOSS - 1.0))
step = tf.train.RMSPropOptimizer(0.1).minimize(loss, VAR_LIST)
t_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target_net')
e_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval_net')
replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(step, {x: np.ones((2, 2))})
    sess.run(replace)
    print(sess.run(q_, {x: np.ones((1, 2))}))
"""
_EVAL_TRAINED = {"EVAL_BIAS": "", "TARGET_BIAS": "", "LOSS": "q",
                 "VAR_LIST": "var_list=tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, 'eval_net')"}


def _layer_sync(**changes):
    source = LAYER_SYNC
    for key, value in {**_EVAL_TRAINED, **changes}.items():
        source = source.replace(key, value)
    return source


@pytest.mark.parametrize("target_bias", ["", ", use_bias=False"])
def test_a_target_sync_zips_past_no_slot_and_converts(target_bias, tmp_path):
    # MorvanZhou's Curiosity and RND agents: the eval net's list also held its RMSProp slots (after its kernel and
    # bias), but zip stops at the target net's list, which has no slots and is no longer: the slots are never read.
    source = _layer_sync(TARGET_BIAS=target_bias)
    result = migrate_source(source, "sync.py")
    assert result.outcome == "eager", result.compat_reason
    assert "zip(t_params, e_params)" in result.new_source
    verified = verify_program(source, result.new_source, path=tmp_path / "sync.py", timeout=240)
    assert verified.status == "equivalent", verified.detail


@pytest.mark.parametrize("changes", [
    {"EVAL_BIAS": ", use_bias=False"},  # the target's bias would pair with an eval slot
    {"VAR_LIST": "", "LOSS": "(q + q_)"},  # both lists hold slots: zip pairs slot with slot
    {"replace = [": "print(len(e_params))\nreplace = ["},  # the list's length counts its slots
], ids=["partner-longer", "both-with-slots", "read-otherwise"])
def test_a_zip_that_may_reach_slots_keeps_compat(changes):
    result = migrate_source(_layer_sync(**changes), "sync.py")
    assert result.outcome == "compat"
    assert "slot variables" in result.compat_reason


def test_a_dict_of_variables_is_listed_by_its_values():
    # `*weights` would list the dict's keys: tape.gradient of strings (the gradient list of aymericdamien's
    # tensorboard_advanced, which keeps its variables in dicts).
    source = ("import tensorflow as tf\n"
              "weights = {'a': tf.Variable(1.0), 'b': tf.Variable(3.0)}\n"
              "x = tf.placeholder(tf.float32)\n"
              "loss = tf.square(weights['a'] * x - weights['b'])\n"
              "grads = tf.gradients(loss, tf.trainable_variables())\n"
              "step = tf.train.GradientDescentOptimizer(0.01).apply_gradients(zip(grads, tf.trainable_variables()))\n"
              "with tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    for _ in range(3):\n"
              "        print(sess.run([loss, grads, step], {x: 2.0})[:2])\n")
    result = migrate_source(source, "dict.py")
    assert result.outcome == "eager", result.compat_reason
    assert "[*weights.values()]" in result.new_source and "[*weights]" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_collections_read_through_tensorflows_internal_ops_module():
    # instillai's TensorFlow-Course: `from tensorflow.python.framework import ops` and `ops.get_collection(...)`.
    source = ("import numpy as np\nimport tensorflow as tf\nfrom tensorflow.python.framework import ops\n\n"
              "x = tf.placeholder(tf.float32, [None, 2])\nw = tf.Variable(tf.ones([2, 1]), name='w')\n"
              "b = tf.Variable(tf.zeros([1]), name='b')\nloss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))\n"
              "params = ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES)\n"
              "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=params)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    for _ in range(3):\n        print(sess.run([train, loss], {x: np.ones((2, 2))})[1])\n"
              "    print([v.name for v in params])\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "get_collection" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
