"""Placeholders declared in a build-time branch (analysis/branch_placeholders, codegen/branch_lines), and runs of a
class's graph whose plan has a conflict (they keep the file compat, as the module's runs do)."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

MODULE_PROGRAM = """
import numpy as np
import tensorflow as tf

SCALED = FLAG
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
if SCALED:
    scale = tf.placeholder(tf.float32, None, 'scale')
    y = tf.matmul(x, w) * scale
else:
    y = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(y))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(3):
    if SCALED:
        _, l = sess.run([train, loss], {x: np.ones((2, 2)), scale: 1})
    else:
        _, l = sess.run([train, loss], {x: np.ones((2, 2))})
    print(i, l)
print(sess.run(w).ravel())
"""

CLASS_PROGRAM = """
import numpy as np
import tensorflow as tf

CONFIG = {'prioritized': FLAG}


class Agent(object):
    def __init__(self):
        self.s = tf.placeholder(tf.float32, [None, 2], 's')
        self.target = tf.placeholder(tf.float32, [None, 1], 'target')
        self.w = tf.Variable([[0.5], [-1.0]])
        q = tf.matmul(self.s, self.w)
        if CONFIG['prioritized']:
            self.weights = tf.placeholder(tf.float32, [None, 1], name='IS_weights')
            self.errors = tf.reduce_sum(tf.abs(self.target - q), axis=1)
            self.loss = tf.reduce_mean(self.weights * tf.square(self.target - q))
        else:
            self.loss = tf.reduce_mean(tf.square(self.target - q))
        self.train = tf.train.GradientDescentOptimizer(0.05).minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def learn(self, s, target):
        if CONFIG['prioritized']:
            weights = np.linspace(0.5, 1.5, len(s))[:, None]  # float64: TF1 fed it as float32
            _, errors, loss = self.sess.run([self.train, self.errors, self.loss],
                                            {self.s: s, self.target: target, self.weights: weights})
            return loss, errors.sum()
        _, loss = self.sess.run([self.train, self.loss], {self.s: s, self.target: target})
        return loss


agent = Agent()
s = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])
for step in range(4):
    print(step, agent.learn(s, np.array([[1.0], [0.0], [2.0]])))
"""


@pytest.mark.parametrize("flag", ["True", "False"])
def test_a_placeholder_in_a_flagged_branch_is_fed_as_its_dtype(flag):
    source = MODULE_PROGRAM.replace("FLAG", flag)
    result = migrate_source(source, "branch.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "placeholder" not in code
    assert "scale = tf.cast(scale, tf.float32)" in code  # fed the int 1: TF1 made it float32
    assert_same_output(run_legacy(source), run_migrated(code))


@pytest.mark.parametrize("flag", ["True", "False"])
def test_a_class_whose_branch_declares_a_placeholder_converts(flag):
    source = CLASS_PROGRAM.replace("FLAG", flag)
    result = migrate_source(source, "agent.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "placeholder" not in code
    fed = code[code.index("def run_train_errors_loss("):]
    fed = fed[:fed.index("\n    def ")]
    assert "weights = tf.cast(weights, tf.float32)" in fed and "weights = None" not in fed
    unfed = code[code.index("def run_train_loss("):]
    unfed = unfed[:unfed.index("\n    def ")]
    # The run that does not feed it: TF1 failed where the taken branch needed it; None fails there too.
    assert "weights = None  # this run does not feed it" in unfed
    assert "self.errors" not in code  # a per-run member, local to each function
    assert_same_output(run_legacy(source), run_migrated(code))


def test_an_unfed_branch_placeholder_that_feeds_what_the_run_does_not_need_keeps_compat():
    # The run fetches `errors`; the branch also computes `loss` from the unfed `weights`: TF1 ran, None would fail.
    source = CLASS_PROGRAM.replace("FLAG", "True").replace(
        "_, loss = self.sess.run([self.train, self.loss], {self.s: s, self.target: target})",
        "loss = self.sess.run(self.errors, {self.s: s, self.target: target})")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`self.weights`, a placeholder declared in a branch, is not fed here" in result.compat_reason


def test_a_key_a_branch_binds_otherwise_is_no_branch_placeholder():
    # `else: scale = tf.constant(1.0)`: feeding replaces whichever tensor was built; its dtype is not the text's.
    source = MODULE_PROGRAM.replace("FLAG", "True").replace(
        "else:\n    y = tf.matmul(x, w)", "else:\n    scale = tf.reduce_mean(x)\n    y = tf.matmul(x, w) * scale")
    result = migrate_source(source, "branch.py")
    assert result.outcome == "compat"
    assert "`scale`" in result.compat_reason


def test_a_class_run_feeding_a_tensor_of_unknown_dtype_keeps_compat():
    # Class runs ignored their plan's conflicts: the feed became convert_to_tensor(value), float64 where TF1 fed
    # float32.
    source = CLASS_PROGRAM.replace("FLAG", "False").replace(
        "q = tf.matmul(self.s, self.w)", "self.q = tf.nn.softplus(tf.matmul(self.s, self.w))\n        q = self.q"
    ).replace("return loss\n", "return loss, self.sess.run(self.q, {self.q: s[:, :1]}).sum()\n")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`self.q` is fed, but the analysis cannot tell its dtype" in result.compat_reason


def test_an_unfed_branch_placeholder_used_by_a_line_that_binds_nothing_keeps_compat():
    # TF1 never ran the unbound assert (nothing fetched it); None would fail at the line in the copied branch.
    source = CLASS_PROGRAM.replace("FLAG", "True").replace(
        "            self.errors = tf.reduce_sum(", "            tf.assert_positive(self.weights)\n"
                                                 "            self.errors = tf.reduce_sum(")
    result = migrate_source(source, "agent.py")
    assert result.outcome == "compat"
    assert "`self.weights`, a placeholder declared in a branch, is not fed here" in result.compat_reason


LABELS = """
import numpy as np
import tensorflow as tf

SPARSE = FLAG
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[0.5, -0.5, 0.1], [0.25, 1.0, -0.3]])
logits = tf.matmul(x, w)
if SPARSE:
    y = tf.placeholder(tf.int32, [None])
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
else:
    y = tf.placeholder(tf.float32, [None, 3])
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
OPTIMIZER
train = opt.minimize(loss)
X = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
Y = np.array([0, 2]) if SPARSE else np.eye(3)[[0, 2]]  # int64 or float64: TF1 cast each to its placeholder's dtype
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([train, loss], {x: X, y: Y})[1])
"""


@pytest.mark.parametrize("flag", ["True", "False"])
def test_a_placeholder_the_branches_declare_with_other_dtypes_is_cast_in_each(flag):
    source = LABELS.replace("FLAG", flag).replace("OPTIMIZER", "opt = tf.train.AdamOptimizer(0.1)")
    result = migrate_source(source, "labels.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "        y = tf.cast(y, tf.int32)\n" in code and "        y = tf.cast(y, tf.float32)\n" in code
    assert "tf.placeholder" not in code and "compat.v1.placeholder" not in code
    assert_same_output(run_legacy(source), run_migrated(code))


def test_an_optimizer_made_in_a_branch_keeps_compat():
    # `opt.minimize(loss)` of an optimizer the analysis did not know became a call eager optimizers cannot run.
    # (A branch that only binds it is a choice by a flag, which converts: tests/test_optimizer_choices.py.)
    source = LABELS.replace("FLAG", "True").replace(
        "OPTIMIZER", "if SPARSE:\n    opt = tf.train.AdamOptimizer(0.1)\n    print('adam')\n"
                     "else:\n    opt = tf.train.GradientDescentOptimizer(0.1)")
    result = migrate_source(source, "labels.py")
    assert result.outcome == "compat"
    assert "an optimizer made inside a compound statement (`if`)" in result.compat_reason
