"""saver-slots: a program that trains after a restore keeps its optimizers' slots in the checkpoint, by TF1's names
(TF1's ``Saver()`` listed Adam's moments and beta powers with the model's variables); where their TF1 names are not
known here the file stays compat, with the reason. (``analysis/saver_restores.py`` says whether it trains after.)"""
import subprocess
import sys

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

RESTORE_THEN_TRAIN = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train = tf.train.{optimizer}.minimize(loss)
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(train, {{x: np.ones((2, 2))}})
    path = saver.save(sess, "{path}")
    for i in range(3):
        sess.run(train, {{x: np.ones((2, 2))}})
    saver.restore(sess, path)
    for i in range(3):
        print(sess.run([train, loss], {{x: np.ones((2, 2))}})[1])
"""


@pytest.mark.parametrize("optimizer", ["AdamOptimizer(0.1)", "MomentumOptimizer(0.1, 0.9)",
                                       "RMSPropOptimizer(0.1, centered=True)"])
def test_restoring_then_training_restores_the_slots_too(optimizer, tmp_path):
    # Before: compat ("restores a checkpoint and then trains with an optimizer that has slots"); before that, eager
    # with the slots not restored: the training after the restore printed other losses.
    source = RESTORE_THEN_TRAIN.format(optimizer=optimizer, path=tmp_path / "model.ckpt")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "SaverWithSlots(var_list={" in result.new_source and "optimizers=[optimizer]" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_restoring_then_exiting_is_no_training_after_the_restore(tmp_path):
    # solaris33's shape: with a checkpoint, restore, print the test accuracy and exit; else train and save.
    source = RESTORE_THEN_TRAIN.format(optimizer="AdamOptimizer(0.1)", path=tmp_path / "model.ckpt").replace(
        "    saver.restore(sess, path)\n",
        "    if os.path.exists(path + '.index') and os.environ.get('RESUME'):\n        saver.restore(sess, path)\n"
        "        print(sess.run(loss, {x: np.ones((2, 2))}))\n        sys.exit()\n").replace(
        "import numpy as np", "import os\nimport sys\nimport numpy as np")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "SaverWithSlots" not in result.new_source and "tf.compat.v1.train.Saver(var_list=" in result.new_source
    kept_training = migrate_source(source.replace("        sys.exit()\n", ""), "case.py")
    assert kept_training.outcome == "eager" and "SaverWithSlots(" in kept_training.new_source


def test_restoring_then_training_without_slots_keeps_a_plain_saver(tmp_path):
    source = RESTORE_THEN_TRAIN.format(optimizer="GradientDescentOptimizer(0.1)", path=tmp_path / "model.ckpt")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "SaverWithSlots" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("change, why", [
    pytest.param(("train = tf.train.{optimizer}.minimize(loss)\n",
                  "with tf.name_scope('train'):\n    train = tf.train.{optimizer}.minimize(loss)\n"),
                 "the Saver's block does not make once before it", id="a step in a with block (scopes rename TF1's beta powers)"),
    pytest.param(("train = tf.train.{optimizer}.minimize(loss)\nsaver = tf.train.Saver()\n",
                  "optimizer = tf.train.{optimizer}\nsaver = tf.train.Saver()\ntrain = optimizer.minimize(loss)\n"),
                 "stands in a block, a function or after the Saver", id="a step after the Saver"),
    pytest.param(("tf.train.{optimizer}", "tf.train.AdagradOptimizer(0.1)"),
                 "`tf.keras.optimizers.Adagrad` in the eager code", id="an optimizer that is a Keras one"),
    pytest.param(("train = tf.train.{optimizer}.minimize(loss)\n",
                  "train = tf.train.{optimizer}.minimize(loss)\nother = tf.train.{optimizer}.minimize(loss * 2.0)\n"),
                 "two optimizers share a name", id="two optimizers named Adam (w/Adam, w/Adam_2: whose is whose)"),
])
def test_slots_whose_tf1_names_are_not_known_keep_compat(change, why):
    source = RESTORE_THEN_TRAIN.replace(*change).format(optimizer="AdamOptimizer(0.1)", path="model.ckpt")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "restores a checkpoint and then trains with an optimizer that has slots" in result.compat_reason
    assert why in result.compat_reason


RESUMED_RUN = """
import os
import sys
import numpy as np
import tensorflow as tf

path = sys.argv[1]
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]], name="w")
b = tf.Variable([0.5], name="b")
unused = tf.Variable([0.0], name="unused")
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
train = tf.train.AdamOptimizer(0.1).minimize(loss)
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if os.path.exists(path + ".index"):
        saver.restore(sess, path)
    for i in range(3):
        print(sess.run([train, loss], {x: [[1.0, 2.0]]})[1])
    saver.save(sess, path)
"""
# A GAN's two Adams on their own variable lists, named apart: `d/w/Adam`, `g/w/Adam`, `beta1_power_1`.
RESUMED_GAN = """
import os
import sys
import tensorflow as tf

path = sys.argv[1]
x = tf.placeholder(tf.float32, [None, 2])
with tf.variable_scope("g"):
    gw = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.3))
with tf.variable_scope("d"):
    dw = tf.get_variable("w", [1, 1], initializer=tf.constant_initializer(0.7))
score = tf.matmul(tf.matmul(x, gw), dw)
d_loss = tf.reduce_mean(tf.square(score - 1.0))
g_loss = tf.reduce_mean(tf.square(score + 1.0))
d_train = tf.train.AdamOptimizer(0.1, beta1=0.5).minimize(d_loss, var_list=[dw])
g_train = tf.train.AdamOptimizer(0.05, name="AdamG").minimize(g_loss, var_list=[gw])
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if os.path.exists(path + ".index"):
        saver.restore(sess, path)
    for i in range(3):
        print(sess.run([d_train, d_loss], {x: [[1.0, 2.0]]})[1])
        print(sess.run([g_train, g_loss], {x: [[1.0, 2.0]]})[1])
    saver.save(sess, path)
"""
_LEGACY = ("import sys, tensorflow as tf; tf.compat.v1.disable_v2_behavior(); sys.modules['tensorflow'] = "
           "tf.compat.v1; source = open(sys.argv[1]).read(); sys.argv = sys.argv[1:]; exec(compile(source, "
           "sys.argv[0], 'exec'), {'__name__': '__main__'})")


def _run(tmp_path, name, text, checkpoint, legacy=False):
    program = tmp_path / name
    program.write_text(text)
    command = [sys.executable, "-c", _LEGACY] if legacy else [sys.executable]
    done = subprocess.run(command + [str(program), str(checkpoint)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("program, keys", [
    pytest.param(RESUMED_RUN, {"w", "b", "unused", "w/Adam", "w/Adam_1", "b/Adam", "b/Adam_1", "beta1_power",
                               "beta2_power"}, id="one Adam"),
    # `Saver(tf.global_variables())` listed the slots too: before, eager with the model's variables only, and the
    # resumed run printed other losses
    pytest.param(RESUMED_RUN.replace("tf.train.Saver()", "tf.train.Saver(tf.global_variables())"),
                 {"w", "b", "unused", "w/Adam", "w/Adam_1", "b/Adam", "b/Adam_1", "beta1_power", "beta2_power"},
                 id="a Saver of tf.global_variables()"),
    pytest.param(RESUMED_GAN, {"g/w", "d/w", "d/w/Adam", "d/w/Adam_1", "g/w/AdamG", "g/w/AdamG_1", "beta1_power",
                               "beta2_power", "beta1_power_1", "beta2_power_1"}, id="a GAN's two Adams"),
])
def test_a_run_resumed_from_the_legacy_checkpoint_trains_on_as_tf1_did(program, keys, tmp_path):
    import tensorflow as tf

    result = migrate_source(program, "resume.py")
    assert result.outcome == "eager", result.compat_reason
    first, second = tmp_path / "legacy" / "model.ckpt", tmp_path / "migrated" / "model.ckpt"
    first.parent.mkdir()
    second.parent.mkdir()
    _run(tmp_path, "legacy.py", program, first, legacy=True)
    _run(tmp_path, "legacy.py", program, second, legacy=True)
    resumed_legacy = _run(tmp_path, "legacy.py", program, first, legacy=True)
    resumed_migrated = _run(tmp_path, "migrated.py", result.new_source, second)
    assert resumed_migrated.split() == resumed_legacy.split()
    # and the checkpoint the migrated program wrote holds TF1's keys
    assert sorted(tf.train.list_variables(str(second))) == sorted(tf.train.list_variables(str(first)))
    assert {name for name, _ in tf.train.list_variables(str(second))} == keys
