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
