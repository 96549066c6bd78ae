"""optional-sessions: a session the class makes only when its caller passes none -> the branch that makes it."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.optional_sessions import OptionalSessions
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

AGENT = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self, n_features, lr=0.1, sess=None):
        self.s = tf.placeholder(tf.float32, [None, n_features])
        self.q_target = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.fill([n_features, 2], 0.3))
        self.q = tf.matmul(self.s, w)
        self.loss = tf.reduce_mean(tf.square(self.q_target - self.q))
        self.train = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)
        if sess is None:
            self.sess = tf.Session()
            self.sess.run(tf.global_variables_initializer())
        else:
            self.sess = sess

    def learn(self, s):
        for _ in range(3):
            _, loss = self.sess.run([self.train, self.loss], {self.s: s, self.q_target: np.ones((2, 2))})
            print(round(float(loss), 6))
        print(np.round(self.sess.run(self.q, {self.s: s}), 5))


sess = tf.Session()
agent = Agent(3, sess=sess)
sess.run(tf.global_variables_initializer())
agent.learn(np.array([[1.0, 2.0, 0.5], [0.5, -1.0, 2.0]]))
'''

MADE = ("        self.sess = tf.Session()\n        self.sess.run(tf.global_variables_initializer())\n"
        "\n    def learn(self, s):")


def _rule_alone(source: str) -> str:
    return apply_alone(OptionalSessions(), source, "agent.py")


def test_the_branch_that_makes_the_session_stays():
    code = _rule_alone(AGENT)
    assert MADE in code
    assert "if sess is None" not in code and "self.sess = sess" not in code


@pytest.mark.parametrize("test, first, second", [
    pytest.param("sess is not None", "self.sess = sess", None, id="the given session first"),
    pytest.param("not sess", None, None, id="not sess"),
])
def test_other_spellings_of_the_test(test, first, second):
    source = AGENT.replace("sess is None", test)
    if first is not None:  # the branches swap with the test
        source = source.replace(
            "            self.sess = tf.Session()\n            self.sess.run(tf.global_variables_initializer())\n"
            "        else:\n            self.sess = sess\n",
            "            self.sess = sess\n        else:\n            self.sess = tf.Session()\n"
            "            self.sess.run(tf.global_variables_initializer())\n")
    assert MADE in _rule_alone(source)


@pytest.mark.parametrize("change", [
    pytest.param(("            self.sess.run(tf.global_variables_initializer())\n",
                  "            self.sess.run(tf.global_variables_initializer())\n            print('made')\n"),
                 id="the branch does more than make the session"),
    pytest.param(("            self.sess = sess\n", "            self.sess = sess\n            self.shared = True\n"),
                 id="the other branch does more"),
    pytest.param(("        if sess is None:", "        if lr is None:"), id="the test is not on the session"),
    pytest.param(("            self.sess = sess\n", "            self.session = sess\n"), id="two attributes"),
])
def test_other_shapes_are_left_as_they_are(change):
    source = AGENT.replace(*change)
    assert _rule_alone(source) == source


def test_the_agent_and_its_caller_convert_and_print_the_legacy_numbers():
    result = migrate_source(AGENT, "agent.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "Session" not in code and "sess =" not in code and "sess=" not in code
    assert "def __init__(self, n_features, lr=0.1):" in code and "agent = Agent(3)\n" in code
    assert_same_output(run_legacy(AGENT), run_migrated(code))
