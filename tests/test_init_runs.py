"""Runs inside a class's ``__init__`` of values it already has (analysis/class_scope, rules/_class_graphs).

stevenpjg's DDPG (ddpg-aigym): the actor builds its network and a target copy under a graph of its own, opens an
``InteractiveSession``, initializes, and copies the network into the target with one run of assign ops. Compat
before ("sess.run inside __init__ is not converted yet"); the copy now runs where it stood, one assign a line.
"""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

ACTOR = """\
import numpy as np
import tensorflow as tf
tf.set_random_seed(0)
TAU = 0.5


class ActorNet:
    def __init__(self, num_states, num_actions):
        self.g = tf.Graph()
        with self.g.as_default():
            self.sess = tf.InteractiveSession()
            self.W_a, self.B_a, self.state_in, self.model = self.create_actor_net(num_states, num_actions)
            self.t_W_a, self.t_B_a, self.t_state_in, self.t_model = self.create_actor_net(num_states, num_actions)
            self.q_gradient_input = tf.placeholder("float", [None, num_actions])
            self.parameters = [self.W_a, self.B_a]
            self.gradients = tf.gradients(self.model, self.parameters, -self.q_gradient_input)
            self.optimizer = tf.train.AdamOptimizer(0.01).apply_gradients(zip(self.gradients, self.parameters))
            self.sess.run(tf.initialize_all_variables())
            # copy target parameters
            self.sess.run([
                self.t_W_a.assign(self.W_a),
                self.t_B_a.assign(self.B_a)])
            self.first_bias = self.sess.run(self.t_B_a)
            self.update_target_op = [
                self.t_W_a.assign(TAU * self.W_a + (1 - TAU) * self.t_W_a),
                self.t_B_a.assign(TAU * self.B_a + (1 - TAU) * self.t_B_a)]

    def create_actor_net(self, num_states, num_actions):
        \"\"\"Network that takes states and returns actions\"\"\"
        state_in = tf.placeholder("float", [None, num_states])
        W = tf.Variable(tf.random_uniform([num_states, num_actions], -0.5, 0.5))
        B = tf.Variable(tf.random_uniform([num_actions], -0.5, 0.5))
        return W, B, state_in, tf.tanh(tf.matmul(state_in, W) + B)

    def evaluate_target_actor(self, state):
        return self.sess.run(self.t_model, feed_dict={self.t_state_in: state})

    def train_actor(self, state, q_gradient):
        self.sess.run(self.optimizer, feed_dict={self.state_in: state, self.q_gradient_input: q_gradient})

    def update_target_actor(self):
        self.sess.run(self.update_target_op)


actor = ActorNet(3, 2)
states = np.linspace(0.0, 1.0, 12).reshape(4, 3)
print(actor.first_bias)
print(actor.evaluate_target_actor(states))
for step in range(3):
    actor.train_actor(states, np.ones((4, 2)))
    actor.update_target_actor()
print(actor.evaluate_target_actor(states))
"""


def test_a_run_of_assigns_in_init_copies_the_target_network_where_it_stood(tmp_path):
    result = migrate_source(ACTOR, "actor_net.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert ("        # copy target parameters\n        self.t_W_a.assign(self.W_a)\n"
            "        self.t_B_a.assign(self.B_a)\n        self.first_bias = self.t_B_a.numpy()\n") in new
    assert "Network that takes states" not in new  # (the inlined build method's docstring is not a statement)
    verdict = verify_program(ACTOR, new, path=tmp_path / "actor_net.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_a_run_in_init_that_feeds_stays_compat():
    source = ACTOR.replace("self.first_bias = self.sess.run(self.t_B_a)",
                           "self.first_bias = self.sess.run(self.t_model, {self.t_state_in: np.ones((1, 3))})")
    result = migrate_source(source, "actor_net.py")
    assert result.outcome == "compat" and "sess.run inside __init__ of per-run values or with feeds" in \
        result.compat_reason, result.compat_reason


def test_an_else_that_only_initialized_goes():
    # golbin's Saver tutorial: restore when a checkpoint exists, else initialize. The else was left as `None`, then
    # `pass`; eager variables start initialized, so the else goes.
    source = ("import tensorflow as tf\nw = tf.Variable(1.0)\nsaver = tf.train.Saver()\nsess = tf.Session()\n"
              "ckpt = tf.train.get_checkpoint_state('./no_such_model')\n"
              "if ckpt and tf.train.checkpoint_exists(ckpt.model_checkpoint_path):\n"
              "    saver.restore(sess, ckpt.model_checkpoint_path)\n"
              "else:\n    sess.run(tf.global_variables_initializer())\nprint(sess.run(w))\n")
    result = migrate_source(source, "saver.py")
    assert result.outcome == "eager", result.compat_reason
    assert "    saver.restore(None, ckpt.model_checkpoint_path)\nprint(" in result.new_source


def test_a_run_in_init_of_an_op_built_before_it_stays_compat():
    # The op is a per-run value of the class (its generated methods run it): run in place it would be dropped.
    source = ACTOR.replace("            self.sess.run([\n                self.t_W_a.assign(self.W_a),\n"
                           "                self.t_B_a.assign(self.B_a)])\n",
                           "            self.copy = [self.t_W_a.assign(self.W_a), self.t_B_a.assign(self.B_a)]\n"
                           "            self.sess.run(self.copy)\n")
    assert "self.sess.run(self.copy)" in source
    result = migrate_source(source, "actor_net.py")
    assert result.outcome == "compat" and "sess.run inside __init__ of per-run values" in result.compat_reason

