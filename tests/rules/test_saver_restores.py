"""saver-var-list and restores: a program that trains after a restore with an optimizer that has slots stays compat
(rules/_saver_restores.py): the eager Saver lists the model's variables, TF1's ``Saver()`` also the optimizer's slots."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

RESTORE_THEN_TRAIN = """
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train = tf.train.{optimizer}(0.1).minimize(loss)
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(train, {{x: np.ones((2, 2))}})
    path = saver.save(sess, "/tmp/restore_then_train.ckpt")
    for i in range(3):
        sess.run(train, {{x: np.ones((2, 2))}})
    saver.restore(sess, path)
    for i in range(3):
        print(sess.run([train, loss], {{x: np.ones((2, 2))}})[1])
"""


def test_restoring_then_training_with_optimizer_slots_keeps_compat():
    # Before: eager, and the training after the restore printed other losses (Adam's moments were not restored),
    # with a warning only. Programs that restore when a checkpoint exists (nlintz's 10_save_restore_net) did so
    # on a resumed run.
    result = migrate_source(RESTORE_THEN_TRAIN.format(optimizer="AdamOptimizer"), "case.py")
    assert result.outcome == "compat"
    assert "restores a checkpoint and then trains with an optimizer that has slots" in result.compat_reason


def test_restoring_then_exiting_is_no_training_after_the_restore():
    # solaris33's shape: with a checkpoint, restore, print the test accuracy and exit; else train and save.
    source = RESTORE_THEN_TRAIN.format(optimizer="AdamOptimizer").replace(
        "    saver.restore(sess, path)\n",
        "    if os.path.exists(path + '.index') and os.environ.get('RESUME'):\n        saver.restore(sess, path)\n"
        "        print(sess.run(loss, {x: np.ones((2, 2))}))\n        sys.exit()\n").replace(
        "import numpy as np", "import os\nimport sys\nimport numpy as np")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    kept_training = source.replace("        sys.exit()\n", "")
    assert migrate_source(kept_training, "case.py").outcome == "compat"


def test_restoring_then_training_without_slots_converts():
    source = RESTORE_THEN_TRAIN.format(optimizer="GradientDescentOptimizer")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
