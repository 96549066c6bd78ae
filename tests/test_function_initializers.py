"""Initializer runs inside functions (analysis/function_initializers): dropped only where TF1 ran them once, first."""
import pytest

from tf_migrate.engine import migrate_source
from tests.test_session_functions import GRAPH
from tests.twins import assert_same_output, run_legacy, run_migrated

RESET = "def reset(sess):\n    sess.run(tf.global_variables_initializer())\n\n\n"
_TRAIN = ("for i in range(3):\n    print(sess.run([train, loss], {x: [[1., 2.]], y: [[1.]]})[1])\n")


def _indented(text: str) -> str:
    return "".join("    " + line + "\n" for line in text.splitlines())


@pytest.mark.parametrize("program", [
    RESET + "sess = tf.Session()\nreset(sess)\n" + _TRAIN,
    RESET + "def main():\n    sess = tf.Session()\n    reset(sess)\n" + _indented(_TRAIN) + "\n\nmain()\n",
], ids=["module-session", "main-session"])
def test_one_initializer_run_in_a_function_called_first_is_dropped(program):
    source = GRAPH + program
    result = migrate_source(source, "init_fn.py")
    assert result.outcome == "eager", result.compat_reason
    assert "global_variables_initializer" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("program", [
    # called again after training: TF1 reset the trained variables (it became `reset()` doing nothing: 0.0 for 0.25)
    RESET + "sess = tf.Session()\nreset(sess)\n" + _TRAIN + "reset(sess)\nprint(sess.run(loss, {x: [[1., 2.]], "
    "y: [[1.]]}))\n",
    RESET + "def main():\n    sess = tf.Session()\n    reset(sess)\n" + _indented(_TRAIN) + "    reset(sess)\n"
    "    print(sess.run(loss, {x: [[1., 2.]], y: [[1.]]}))\n\n\nmain()\n",
    # called once, but after a run
    RESET + "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\n" + _TRAIN + "reset(sess)\n"
    "print(sess.run(loss, {x: [[1., 2.]], y: [[1.]]}))\n",
], ids=["called-twice", "called-twice-from-main", "after-training"])
def test_initializer_runs_tf1_ran_on_trained_variables_keep_compat(program):
    result = migrate_source(GRAPH + program, "init_fn.py")
    assert result.outcome == "compat"
    assert "an initializer run in a function" in result.compat_reason


AGENT = """import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable([[0.1], [0.2]])
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, self.w) - 1.0))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def learn(self):
        return self.sess.run([self.train, self.loss], {self.x: [[1., 2.]]})[1]

    def reset(self):
        self.sess.run(tf.global_variables_initializer())

    def value(self):
        return self.sess.run(self.loss, {self.x: [[1., 2.]]})


a = Agent()
for i in range(3):
    print(a.learn())
a.reset()
print(a.value())
"""


def test_an_initializer_run_in_a_method_keeps_compat():
    # It became a reset() that did nothing: 0.0 printed for TF1's 0.25.
    result = migrate_source(AGENT, "agent.py")
    assert result.outcome == "compat"
    assert "an initializer run in method `reset`" in result.compat_reason


def test_the_same_agent_without_the_reset_converts():
    source = AGENT.replace("a.reset()\n", "").replace(
        "    def reset(self):\n        self.sess.run(tf.global_variables_initializer())\n\n", "")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


# DarkTheCross's CartPole agent (held-out probe 45): `run()` opens the session and initializes, then calls the
# methods that run the graph in it (`decision` through `eval`, `learn` through the train op's `run`).
DRIVER = """
import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.placeholder(tf.float32, [None, 1])
        self.w = tf.Variable(tf.ones([2, 1]) * 0.5)
        self.out = tf.matmul(self.x, self.w)
        self.loss = tf.reduce_mean(tf.square(self.out - self.y))
        self.train_step = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)

    def decision(self, state):
        return self.out.eval(feed_dict={self.x: [state]})

    def learn(self, xs, ys):
        self.train_step.run(feed_dict={self.x: xs, self.y: ys})

    def run(self):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(3):
                print(self.decision([1.0, 2.0]))
                self.learn([[1.0, 2.0], [0.5, 1.0]], [[1.0], [0.0]])


if __name__ == "__main__":
    agent = Agent()
    agent.run()
"""


def test_methods_called_only_after_the_one_initializer_run_leave_it_the_first():
    result = migrate_source(DRIVER, "driver.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(DRIVER), run_migrated(result.new_source))


def test_a_method_that_runs_the_graph_before_the_initializer_run_keeps_compat():
    source = DRIVER.replace("    agent.run()\n", "    agent.decision([1.0, 2.0])\n    agent.run()\n")
    result = migrate_source(source, "driver.py")
    assert result.outcome == "compat"
    assert "an initializer run in method `run`" in result.compat_reason
