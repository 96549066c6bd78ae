"""State a class's __init__ changes outside the object stays where it stood, at build time (analysis/outside_state).

The class conversion moves per-run statements into generated methods; a statement that changes a class attribute
or reads one that __init__ changes must not move: it ran once per instance when TF1 built the graph. Before this,
`Agent.made += [w1]` vanished from the converted class and `Agent.made + [w2]` was read when first traced
(a silent wrong rewrite: `print(len(Agent.made))` printed 0 for 2).
"""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

REGISTRY = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    made = []

    def __init__(self, init):
        self.s = tf.placeholder(tf.float32, [None, 2])
        w1 = tf.Variable(tf.fill([2, 3], init))
        w2 = tf.Variable(tf.fill([2, 3], 0.1))
        self.q = tf.matmul(self.s, w1)
        self.q_next = tf.matmul(self.s, w2)
        t_params = Agent.made + [w2]
        e_params = Agent.made + [w1]
        Agent.made += [w1]
        self.replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def show(self, s):
        self.sess.run(self.replace)
        print(np.round(self.sess.run([self.q, self.q_next], {self.s: s}), 5))


a = Agent(0.5)
a.show(np.array([[1.0, 2.0]]))
b = Agent(0.25)
b.show(np.array([[1.0, 2.0]]))
print(len(Agent.made))
'''


def test_class_state_changed_in_init_stays_at_build_time():
    result = migrate_source(REGISTRY, "agent.py")
    assert result.outcome == "eager", result.findings
    init = result.new_source.split("def __init__", 1)[1].split("\n\n", 1)[0]
    assert "Agent.made += [w1]" in init and "t_params = Agent.made + [w2]" in init
    methods = result.new_source.split("def __init__", 1)[1].split("\n\n", 1)[1].split("\na = Agent(0.5)")[0]
    assert "Agent.made" not in methods  # read and changed once per instance, not in the generated methods
    assert_same_output(run_legacy(REGISTRY), run_migrated(result.new_source))


def test_class_state_changed_from_per_run_tensors_stays_compat():
    source = REGISTRY.replace("        Agent.made += [w1]\n", "        Agent.made += [self.q]\n")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`Agent`, state outside the object that __init__ changes, meets the per-run value" in \
        result.compat_reason
