"""user-collections: tf.get_collection of the program's own key -> the variables made into it."""

from tf_migrate.cli import EXIT_OK
from tf_migrate.engine import migrate_source
from tf_migrate.rules.user_collections import UserCollections
from tests.trees import migrate, output
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# Morvan's DQN: the eval and the target network's weights in collections of their own, under the same local
# names; replace_target_op copies one network into the other.
DQN = '''
import numpy as np
import tensorflow as tf


class DQN(object):
    def __init__(self):
        self.s = tf.placeholder(tf.float32, [None, 2])
        self.q_target = tf.placeholder(tf.float32, [None, 3])
        with tf.variable_scope('eval_net'):
            c_names, n_l1 = ['eval_net_params', tf.GraphKeys.GLOBAL_VARIABLES], 4
            w1 = tf.get_variable('w1', [2, n_l1], initializer=tf.constant_initializer(0.3), collections=c_names)
            b1 = tf.get_variable('b1', [1, n_l1], initializer=tf.constant_initializer(0.1), collections=c_names)
            l1 = tf.nn.relu(tf.matmul(self.s, w1) + b1)
            w2 = tf.get_variable('w2', [n_l1, 3], initializer=tf.constant_initializer(0.2), collections=c_names)
            self.q_eval = tf.matmul(l1, w2)
        self.loss = tf.reduce_mean(tf.squared_difference(self.q_target, self.q_eval))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)
        with tf.variable_scope('target_net'):
            c_names = ['target_net_params', tf.GraphKeys.GLOBAL_VARIABLES]
            w1 = tf.get_variable('w1', [2, n_l1], initializer=tf.constant_initializer(0.5), collections=c_names)
            b1 = tf.get_variable('b1', [1, n_l1], initializer=tf.constant_initializer(0.0), collections=c_names)
            l1 = tf.nn.relu(tf.matmul(self.s, w1) + b1)
            w2 = tf.get_variable('w2', [n_l1, 3], initializer=tf.constant_initializer(0.7), collections=c_names)
            self.q_next = tf.matmul(l1, w2)
        t_params = tf.get_collection('target_net_params')
        e_params = tf.get_collection('eval_net_params')
        self.replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def learn(self, s):
        print(np.round(self.sess.run(self.q_next, {self.s: s}), 5))
        for _ in range(3):
            _, loss = self.sess.run([self.train, self.loss], {self.s: s, self.q_target: np.ones((2, 3))})
            print(round(float(loss), 6))
        self.sess.run(self.replace)
        print(np.round(self.sess.run(self.q_next, {self.s: s}), 5))


DQN().learn(np.array([[1.0, 2.0], [0.5, -1.0]]))
'''


def _rule_alone(source: str) -> str:
    return apply_alone(UserCollections(), source, "dqn.py", single_instances={"DQN"})


def _compat_reason(source: str, path: str) -> str:
    result = migrate_source(source, path)
    assert result.outcome == "compat"
    return result.compat_reason


def test_each_collection_lists_its_networks_variables_each_under_a_name_of_its_own():
    code = _rule_alone(DQN)
    assert "t_params = [w1, b1, w2]" in code
    assert "e_params = [w1_2, b1_2, w2_2]" in code  # the eval network's weights, named before the target's
    assert "l1 = tf.nn.relu(tf.matmul(self.s, w1_2) + b1_2)" in code


def test_the_agent_converts_and_prints_the_legacy_numbers():
    result = migrate_source(DQN, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "get_collection" not in result.new_source and "Session" not in result.new_source
    assert_same_output(run_legacy(DQN), run_migrated(result.new_source))


def test_a_collection_filled_by_add_to_collection_keeps_compat():
    source = DQN.replace("        t_params = tf.get_collection('target_net_params')\n",
                         "        tf.add_to_collection('target_net_params', w1)\n"
                         "        t_params = tf.get_collection('target_net_params')\n")
    assert "`tf.add_to_collection` fills collections the analysis does not list" in _compat_reason(source, "dqn.py")


def test_a_collection_nothing_of_the_block_is_made_into_keeps_compat():
    source = DQN.replace("tf.get_collection('target_net_params')", "tf.get_collection('filled_elsewhere')")
    why = _compat_reason(source, "dqn.py")
    assert "tf.get_collection('filled_elsewhere'): nothing of this block is made into it" in why


def test_collections_the_analysis_cannot_read_keep_compat():
    source = DQN.replace("c_names = ['target_net_params', tf.GraphKeys.GLOBAL_VARIABLES]",
                         "c_names = make_names('target_net_params')")
    source = source.replace("class DQN(object):", "def make_names(key):\n    return [key, 'variables']\n\n\n"
                                                   "class DQN(object):")
    assert "a variable is made into collections the analysis cannot read" in _compat_reason(source, "dqn.py")


def test_global_variables_does_not_list_a_variable_kept_out_of_it():
    source = '''
import tensorflow as tf
w = tf.get_variable('w', [2], collections=['mine'])
v = tf.get_variable('v', [2])
listed = tf.global_variables()
with tf.Session() as sess:
    sess.run(tf.variables_initializer([w, v]))
    print(len(listed), sess.run(v + w))
'''
    assert "not in TF1's variable list" in _compat_reason(source, "mine.py")


def test_a_class_a_program_builds_twice_keeps_compat():
    """Two agents under two variable scopes: TF1's collection holds both agents' variables."""
    source = DQN.replace("DQN().learn(np.array([[1.0, 2.0], [0.5, -1.0]]))",
                         "with tf.variable_scope('a'):\n    one = DQN()\n"
                         "with tf.variable_scope('b'):\n    two = DQN()\n")
    assert "which a program may build twice" in _compat_reason(source, "dqn.py")


# The agent as a driver can share one session between two of them (MorvanZhou's double-DQN comparison).
SHARED_DQN = DQN.replace("    def __init__(self):", "    def __init__(self, sess=None):").replace(
    "        self.sess = tf.Session()\n        self.sess.run(tf.global_variables_initializer())\n",
    "        if sess is None:\n            self.sess = tf.Session()\n"
    "            self.sess.run(tf.global_variables_initializer())\n"
    "        else:\n            self.sess = sess\n").replace("DQN().learn(np.array([[1.0, 2.0], [0.5, -1.0]]))\n", "")
TWO_AGENTS = '''
sess = tf.Session()
with tf.variable_scope('natural'):
    one = DQN(sess=sess)
with tf.variable_scope('double'):
    two = DQN(sess=sess)
sess.run(tf.global_variables_initializer())
s = np.array([[1.0, 2.0], [0.5, -1.0]])
one.learn(s)
two.learn(s)  # its copy ops are over both agents' collections: they write the first agent's target network too
print(np.round(sess.run(one.q_next, {one.s: s}), 5))
'''


def test_two_objects_built_in_one_session_share_the_collections_kept_on_the_class():
    source = SHARED_DQN + TWO_AGENTS.replace("print(np.round(sess.run(one.q_next, {one.s: s}), 5))",
                                             "one.learn(s)")
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "    target_net_params = []  # TF1's collection 'target_net_params'" in result.new_source
    assert "DQN.target_net_params += [w1, b1, w2]\n        t_params = list(DQN.target_net_params)" in \
        result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_two_objects_in_one_session_across_modules_print_the_legacy_numbers(tmp_path, capsys):
    driver = "import numpy as np\nimport tensorflow as tf\nfrom agent import DQN\n" + TWO_AGENTS
    code, outcomes, _ = migrate(tmp_path, {"agent.py": SHARED_DQN, "driver.py": driver}, "--verify-entry", "driver.py")
    assert outcomes == {"agent.py": "eager", "driver.py": "eager"}
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
    assert "one = DQN()\n" in output(tmp_path, "driver.py")


def test_objects_in_sessions_of_their_own_keep_compat():
    """Each agent makes its own session: TF1's second copy op writes the first agent's variables in the second
    session only, which eager code (one value per variable) cannot keep apart."""
    source = SHARED_DQN + "one = DQN()\ntwo = DQN()\n"
    assert "not always in one session" in _compat_reason(source, "dqn.py")


def test_a_class_that_does_not_run_in_the_session_passed_keeps_compat():
    source = SHARED_DQN.replace("            self.sess = sess\n", "            self.sess = tf.Session()\n"
                                "            self.sess.run(tf.global_variables_initializer())\n")
    source += TWO_AGENTS.replace("print(np.round(sess.run(one.q_next, {one.s: s}), 5))", "")
    assert "not always in one session" in _compat_reason(source, "dqn.py")
