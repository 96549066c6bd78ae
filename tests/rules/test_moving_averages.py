"""moving-averages: ExponentialMovingAverage's shadow variables are made at build time, its updates run per run."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.moving_averages import MovingAveragesShadowsAtBuild
from tf_migrate.verify import EQUIVALENT, verify_program
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# The TF docs' order (the average after the step, under a control dependency on it: TF1 ran them in that
# order), a step count the decay reads, an evaluation through the shadows before any training (caicloud's
# tutorial validates first), and a separate run of the average op.
PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 2]))
b = tf.Variable(tf.zeros([2]))
y = tf.nn.relu(tf.matmul(x, w) + b)
loss = tf.reduce_mean(tf.square(y - 1.0))
step = tf.Variable(0, trainable=False)
train_step = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=step)
ema = tf.train.ExponentialMovingAverage(0.9, step)
with tf.control_dependencies([train_step]):
    train_op = ema.apply(tf.trainable_variables())
averaged = tf.nn.relu(tf.matmul(x, ema.average(w)) + ema.average(b))
data = np.linspace(0.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(averaged, {x: data}))
    for i in range(4):
        sess.run(train_op, {x: data * (i + 1)})
        print(i, sess.run([loss, averaged], {x: data}))
    print(sess.run(ema.average(w)))
'''


def _rule_alone(source: str) -> str:
    return apply_alone(MovingAveragesShadowsAtBuild(), source, "ema.py")


def test_the_shadows_are_made_at_build_time_before_the_block_that_runs_the_update():
    code = _rule_alone(PROGRAM)
    assert ("ema.apply(tf.trainable_variables())\nwith tf.control_dependencies([train_step]):\n"
            "    train_op = ema.apply(tf.trainable_variables())\n") in code


def test_the_program_converts_and_prints_the_legacy_numbers():
    result = migrate_source(PROGRAM, "ema.py")
    assert result.outcome == "eager", result.findings
    assert "tf.compat" not in result.new_source
    assert "ema = tf.train.ExponentialMovingAverage(0.9, step)\nema.apply([w, b])\n" in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


@pytest.mark.parametrize("grouped", ["with tf.control_dependencies([train_step, ema_op]):\n"
                                     "    train_op = tf.no_op(name='train')\n",
                                     "train_op = tf.group(train_step, ema_op)\n"])
def test_the_average_applied_first_in_a_group_converts_in_that_order(grouped):
    """caicloud's order and grouping: TF1 ran the two in no fixed order; the average first is one of its orders."""
    source = PROGRAM.replace(
        "train_step = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=step)\n"
        "ema = tf.train.ExponentialMovingAverage(0.9, step)\nwith tf.control_dependencies([train_step]):\n"
        "    train_op = ema.apply(tf.trainable_variables())\n",
        "ema = tf.train.ExponentialMovingAverage(0.9, step)\nema_op = ema.apply(tf.trainable_variables())\n"
        "train_step = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=step)\n" + grouped)
    result = migrate_source(source, "ema.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert code.index("ema.apply([w, b])\n", code.index("def run_train_op")) < code.index("apply_gradients")
    assert "no_op" not in code and "group" not in code  # it waited for the two, which ran before it


def test_averages_that_would_change_meaning_stay_compat():
    refused = {
        "applied after the training step": (
            "with tf.control_dependencies([train_step]):\n    train_op = ema.apply(tf.trainable_variables())\n",
            "ema_op = ema.apply(tf.trainable_variables())\nwith tf.control_dependencies([train_step, ema_op]):\n"
            "    train_op = tf.no_op(name='train')\n"),
        "a moving average of tensors": (
            "    train_op = ema.apply(tf.trainable_variables())\n",
            "    train_op = ema.apply([tf.reduce_mean(y)])\n"),
        # (floodsung's DDPG: the list a method of the class returned, `net`, is no list the analysis knows)
        "a moving average of `net`, which the analysis does not know to hold variables": (
            "    train_op = ema.apply(tf.trainable_variables())\n",
            "    train_op = ema.apply(net)\n"),
        "reads the names TF1 gave the shadow variables": ("print(sess.run(ema.average(w)))",
                                           "print(sorted(ema.variables_to_restore()))"),
    }
    for why, change in refused.items():
        source = PROGRAM.replace(*change).replace("ema = tf", "net = np.random.rand(2).tolist()\nema = tf")
        result = migrate_source(source, "ema.py")
        assert result.outcome == "compat" and why in result.compat_reason, (why, result.compat_reason)


def test_an_apply_in_a_nested_function_is_left_where_it_runs():
    """pkmital's batch norm: the average of batch statistics is applied in a ``tf.cond`` branch function."""
    source = '''
import tensorflow as tf


def batch_norm(x, phase_train):
    batch_mean, batch_var = tf.nn.moments(x, [0])
    ema = tf.train.ExponentialMovingAverage(decay=0.9)

    def mean_var_with_update():
        ema_apply_op = ema.apply([batch_mean, batch_var])
        with tf.control_dependencies([ema_apply_op]):
            return tf.identity(batch_mean), tf.identity(batch_var)
    return tf.cond(phase_train, mean_var_with_update, lambda: (ema.average(batch_mean), ema.average(batch_var)))
'''
    assert _rule_alone(source) == source


def test_an_average_of_batch_statistics_gets_no_build_time_apply():
    """pkmital's connections.batch_norm: made and applied in one body, under a variable scope, on tensors."""
    source = '''
import tensorflow as tf


def batch_norm(x, scope='bn'):
    with tf.variable_scope(scope):
        batch_mean, batch_var = tf.nn.moments(x, [0])
        ema = tf.train.ExponentialMovingAverage(decay=0.9)
        ema_apply_op = ema.apply([batch_mean, batch_var])
        with tf.control_dependencies([ema_apply_op]):
            return tf.identity(batch_mean), tf.identity(batch_var)
'''
    assert _rule_alone(source) == source
    assert "ema.apply([w])\n        ema_op = ema.apply([w])" in _rule_alone(source.replace(
        "ema.apply([batch_mean, batch_var])", "ema.apply([w])").replace(
        "        batch_mean, batch_var", "        w = tf.Variable(1.0)\n        batch_mean, batch_var").replace(
        "ema_apply_op", "ema_op"))


# floodsung's DDPG actor: the network's variables returned as a list by one build method, handed to another
# that averages them into a target network; the session passed in, the update run by a method __init__ calls.
DDPG_ACTOR = '''
import numpy as np
import tensorflow as tf
tf.set_random_seed(0)


class Actor:
    def __init__(self, sess, state_dim, action_dim):
        self.sess = sess
        self.state_input, self.action_output, self.net = self.create_network(state_dim, action_dim)
        self.target_state_input, self.target_output, self.target_update = self.create_target(state_dim, self.net)
        self.q_gradient_input = tf.placeholder("float", [None, action_dim])
        gradients = tf.gradients(self.action_output, self.net, -self.q_gradient_input)
        self.optimizer = tf.train.AdamOptimizer(0.01).apply_gradients(zip(gradients, self.net))
        self.sess.run(tf.global_variables_initializer())
        self.update_target()

    def create_network(self, state_dim, action_dim):
        state_input = tf.placeholder("float", [None, state_dim])
        W = tf.Variable(tf.random_uniform([state_dim, action_dim], -0.5, 0.5))
        b = tf.Variable(tf.random_uniform([action_dim], -0.5, 0.5))
        return state_input, tf.tanh(tf.matmul(state_input, W) + b), [W, b]

    def create_target(self, state_dim, net):
        state_input = tf.placeholder("float", [None, state_dim])
        ema = tf.train.ExponentialMovingAverage(decay=0.9)
        target_update = ema.apply(net)
        target_net = [ema.average(x) for x in net]
        return state_input, tf.tanh(tf.matmul(state_input, target_net[0]) + target_net[1]), target_update

    def update_target(self):
        self.sess.run(self.target_update)

    def train(self, q_gradient_batch, state_batch):
        self.sess.run(self.optimizer, feed_dict={self.q_gradient_input: q_gradient_batch,
                                                 self.state_input: state_batch})

    def target_actions(self, state_batch):
        return self.sess.run(self.target_output, feed_dict={self.target_state_input: state_batch})


sess = tf.InteractiveSession()
actor = Actor(sess, 3, 2)
states = np.linspace(0.0, 1.0, 12).reshape(4, 3)
for step in range(3):
    actor.train(np.ones((4, 2)) * (step + 1), states)
    actor.update_target()
    print(step, actor.target_actions(states))
'''


def test_a_list_of_variables_a_build_method_returns_is_averaged_as_variables(tmp_path):
    # `self.net = [W, b]` (the method's returned list, bound once inlined) was a structure of graph values to the
    # analysis: "a moving average of tensors (batch statistics)" kept the file compat.
    result = migrate_source(DDPG_ACTOR, "actor.py")
    assert result.outcome == "eager", result.compat_reason
    assert "        self.net = [W, b]\n" in result.new_source
    assert "target_net = [self.ema.average(x) for x in self.net]" in result.new_source
    verdict = verify_program(DDPG_ACTOR, result.new_source, path=tmp_path / "actor.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail  # (random draws: the verifier pairs them, the twins do not)
