"""Functions given a session and an object that another function built (``def evaluate(sess, model, xs)`` called
by ``main()`` after ``model = Model(...)``): the object's class is known, so the helper's runs become the
object's generated methods and the session goes (analysis/instance_runs.function_parameter_instances), in one file
and across the modules of a tree. A helper whose object the analysis does not know keeps the file compat, with the
reason (not the output self-check)."""
from __future__ import annotations

from tf_migrate.cli import EXIT_OK
from tf_migrate.engine import migrate_source
from tests.trees import migrate, output
from tests.twins import assert_same_output, run_legacy, run_migrated

MODEL = '''import tensorflow as tf


class Model(object):
    def __init__(self, n_in, lr):
        self.x = tf.placeholder(tf.float32, [None, n_in], name='x')
        self.y = tf.placeholder(tf.float32, [None, 1], name='y')
        w = tf.Variable(tf.ones([n_in, 1]) * 0.25)
        self.pred = tf.matmul(self.x, w)
        self.loss = tf.reduce_mean(tf.square(self.pred - self.y))
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)
'''

TRAIN = '''import numpy as np
import tensorflow as tf
from model import Model


def evaluate(sess, model, xs, ys):
    return sess.run(model.loss, feed_dict={model.x: xs, model.y: ys})


def main():
    model = Model(3, 0.1)
    xs = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)
    ys = xs.sum(axis=1, keepdims=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            _, loss = sess.run([model.train_op, model.loss], {model.x: xs, model.y: ys})
            print(step, loss)
        print('eval', evaluate(sess, model, xs * 2, ys * 2))


if __name__ == '__main__':
    main()
'''


def test_a_helper_main_hands_its_session_and_model_runs_the_models_methods(tmp_path, capsys):
    code, outcomes, reasons = migrate(tmp_path, {"model.py": MODEL, "train.py": TRAIN}, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}, reasons
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "train.py")
    assert ("def evaluate(model, xs, ys):\n    return model.run_loss(x=tf.cast(xs, tf.float32), y=tf.cast(ys, tf.float32))"
            ".numpy()") in migrated
    assert "print('eval', evaluate(model, xs * 2, ys * 2))" in migrated
    assert "Session()" not in migrated and "(sess" not in migrated and "sess," not in migrated


ONE_FILE = MODEL + "\n\n" + TRAIN.replace("from model import Model\n", "").replace(
    "import numpy as np\nimport tensorflow as tf\n", "import numpy as np\n")  # main() under a main guard


def test_in_one_file_a_helper_given_objects_of_one_class_converts():
    source = ONE_FILE.replace("    model = Model(3, 0.1)\n",
                              "    model = Model(3, 0.1)\n    other = Model(3, 0.5)\n").replace(
        "        print('eval', evaluate(sess, model, xs * 2, ys * 2))\n",
        "        print('eval', evaluate(sess, model, xs * 2, ys * 2), evaluate(sess, other, xs, ys))\n")
    result = migrate_source(source, "one_file.py")
    assert result.outcome == "eager", result.compat_reason
    assert "evaluate(other, xs, ys)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_helper_given_an_object_its_caller_did_not_build_keeps_compat_with_the_reason():
    # fit() passes on the model it was given: evaluate's `model` is not known there, so its run is not either.
    source = ONE_FILE.replace("def main():", "def fit(sess, model, xs, ys):\n    sess.run(model.train_op, "
                              "{model.x: xs, model.y: ys})\n    return evaluate(sess, model, xs, ys)\n\n\ndef main():"
                              ).replace("        print('eval', evaluate(sess, model, xs * 2, ys * 2))\n",
                                        "        print('eval', fit(sess, model, xs, ys))\n")
    result = migrate_source(source, "one_file.py")
    assert result.outcome == "compat"
    assert "sess.run reads `model`'s members, and `model` is a parameter of `evaluate`" in result.compat_reason


def test_an_object_bound_twice_in_one_block_is_not_the_helpers_object():
    # Both bindings of `model` stand in one `with` block: "bound once" counts each binding, not each statement of
    # the function's body, so evaluate's `model` is not taken for the Model the first binding made.
    source = ONE_FILE.replace("    model = Model(3, 0.1)\n", "").replace(
        "    with tf.Session() as sess:\n", "    with tf.Session() as sess:\n        model = Model(3, 0.1)\n").replace(
        "        print('eval', evaluate(sess, model, xs * 2, ys * 2))\n",
        "        print('eval', evaluate(sess, model, xs * 2, ys * 2))\n        model = xs\n        print(model.sum())\n")
    result = migrate_source(source, "one_file.py")
    assert result.outcome == "compat"
    assert "`model` is a parameter of `evaluate` whose object the analysis does not know" in result.compat_reason
