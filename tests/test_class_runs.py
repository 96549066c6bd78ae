"""Runs of a class's graph across modules (analysis/imported_runs, project_class_runs, codegen/class_run_calls).

``model.py`` builds the graph in ``Model.__init__``; ``train.py`` builds a ``Model`` and runs its members in a
session. The importer asks the provider for each run, the provider generates a method per run and answers with its
call, and the importer calls it: both modules go eager, and the entry prints the legacy numbers.
"""
from __future__ import annotations

import os
import subprocess
import sys

import libcst as cst
import pytest

from tf_migrate.analysis.project_index import scan_module
from tf_migrate.cli import EXIT_OK
from tf_migrate.codegen.class_run_calls import answer_template, filled_answer
from tf_migrate.tfnames import ANSWER_TF, ANSWER_TO_NUMPY
from tests.trees import migrate, output

MODEL = '''import tensorflow as tf


class Model(object):
    kind = "linear"

    def __init__(self, n_in, n_out, lr=0.1):
        self.x = tf.placeholder(tf.float32, [None, n_in], name="x")
        self.y = tf.placeholder(tf.float32, [None, n_out], name="y")
        w = tf.Variable(tf.ones([n_in, n_out]) * 0.1)
        b = tf.Variable(tf.zeros([n_out]))
        self.pred = tf.matmul(self.x, w) + b
        self.loss = tf.reduce_mean(tf.square(self.pred - self.y))
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)

    def describe(self):
        return "a %s model" % self.kind
'''

TRAIN = '''import numpy as np
import tensorflow as tf
from model import Model


def main():
    model = Model(3, 2)
    xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    ys = np.ones((4, 2), dtype=np.float32)
    print(model.describe(), Model.kind)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(4):
            loss, _ = sess.run([model.loss, model.train_op], feed_dict={model.x: xs, model.y: ys})
            print(step, loss)
        print(sess.run(model.pred, {model.x: xs[:2]}))


if __name__ == "__main__":
    main()
'''


def test_the_importer_calls_the_methods_the_provider_generated_and_prints_the_legacy_numbers(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"model.py": MODEL, "train.py": TRAIN}, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    train, model = output(tmp_path, "train.py"), output(tmp_path, "model.py")
    assert "loss, _ = to_numpy(model.run_loss_train_op(x=tf.cast(xs, tf.float32), y=tf.cast(ys, tf.float32)))" in train
    assert "print(model.run_pred(x=tf.cast(xs[:2], tf.float32)).numpy())" in train
    assert "def to_numpy(fetched):" in train and "Session" not in train
    assert "def run_loss_train_op(self, x, y):" in model and "def run_pred(self, x):" in model
    assert "placeholder" not in model


@pytest.mark.parametrize("imports, name", [
    pytest.param("from model import Model as Net", "Net", id="an alias"),
    pytest.param("from model import *", "Model", id="a star import"),
    pytest.param("import model as models", "models.Model", id="the module imported whole"),
])
def test_the_class_named_otherwise_is_asked_too(tmp_path, imports, name):
    train = TRAIN.replace("from model import Model", imports).replace("Model(", f"{name}(").replace(
        "Model.kind", f"{name}.kind")
    _, outcomes, _ = migrate(tmp_path, {"model.py": MODEL, "train.py": train})
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert "model.run_loss_train_op(x=tf.cast(xs, tf.float32), y=tf.cast(ys, tf.float32))" in output(tmp_path, "train.py")


TRAIN_STEPS = '''import numpy as np
import tensorflow as tf
from model import Model


def train_step(sess, model, xs, ys):
    loss, _ = sess.run([model.loss, model.train_op], feed_dict={model.x: xs, model.y: ys})
    return loss


model = Model(3, 2)
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(3):
    print(step, train_step(sess, model, xs, np.ones((4, 2))))
feed = {model.x: xs}
print(sess.run(model.pred, feed_dict=feed))
'''


def test_runs_in_a_function_given_the_object_and_a_feed_dict_bound_to_a_name(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"model.py": MODEL, "train.py": TRAIN_STEPS}, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "train.py")
    assert ("def train_step(model, xs, ys):\n    loss, _ = to_numpy(model.run_loss_train_op(x=tf.cast(xs, tf.float32), "
            "y=tf.cast(ys, tf.float32)))") in migrated
    assert "feed = {'x': xs}\nprint(model.run_pred(**feed).numpy())" in migrated


def test_two_programs_asking_for_runs_get_one_method_each_run(tmp_path):
    evaluate = TRAIN.replace("for step in range(4)", "for step in range(0)")
    _, outcomes, _ = migrate(tmp_path, {"model.py": MODEL, "train.py": TRAIN, "evaluate.py": evaluate})
    assert outcomes == {"model.py": "eager", "train.py": "eager", "evaluate.py": "eager"}
    model = output(tmp_path, "model.py")
    assert model.count("def run_pred(") == 1 and model.count("def run_loss_train_op(") == 1


@pytest.mark.parametrize("changes, reason", [
    pytest.param([("print(model.describe(), Model.kind)", "print(model.pred)")],
                 "`model.pred` (tensor) is used outside sess.run", id="a per-run member read outside a run"),
    pytest.param([("print(model.describe(), Model.kind)", "summarize(model)")],
                 "`model` is passed to `summarize`", id="the object passed to code of another module"),
    pytest.param([("feed_dict={model.x: xs, model.y: ys}", "feed_dict=dict(feed)"),
                  ("    with tf.Session", "    feed = {model.x: xs, model.y: ys}\n    with tf.Session")],
                 "feed dict built otherwise than as dict literals", id="a feed dict built by a call"),
    pytest.param([("    with tf.Session() as sess:", "    saver = tf.train.Saver()\n    with tf.Session() as sess:"),
                  ("print(sess.run(model.pred, {model.x: xs[:2]}))", "saver.save(sess, 'model.ckpt')"),
                  ("    model = Model(3, 2)\n", "    model = Model(3, 2)\n    other = Model(3, 2)\n")],
                 "tf.train.Saver", id="a Saver of two objects' variables"),
    pytest.param([("sess.run([model.loss, model.train_op]", "sess.run([model.loss, model.train_op, ys.sum()]")],
                 "`model.train_op` is a member of a `Model` that only a run of the object's own members runs",
                 id="a run mixing an object's op with other values"),
])
def test_what_the_importer_cannot_ask_for_keeps_both_compat(tmp_path, changes, reason):
    train = TRAIN
    for old, new in changes:
        assert old in train
        train = train.replace(old, new)
    _, outcomes, reasons = migrate(tmp_path, {"model.py": MODEL, "train.py": train})
    assert outcomes == {"model.py": "compat", "train.py": "compat"}
    assert reason in reasons["train.py"]
    assert "kept in compat mode with" in reasons["model.py"]


def test_a_provider_that_stays_compat_refuses_the_runs_and_keeps_the_importer_compat(tmp_path):
    model = MODEL.replace('        return "a %s model" % self.kind',
                          '        self.extra = tf.layers.dense(self.x, 2)\n        return "a %s model" % self.kind')
    _, outcomes, reasons = migrate(tmp_path, {"model.py": model, "train.py": TRAIN})
    assert outcomes == {"model.py": "compat", "train.py": "compat"}
    assert "graph built in method `describe`" in reasons["model.py"]
    assert "`Model` of " in reasons["train.py"] and "stays compat" in reasons["train.py"]


def test_a_run_the_class_cannot_plan_keeps_both_compat(tmp_path):
    train = TRAIN.replace("sess.run(model.pred, {model.x: xs[:2]})", "sess.run(model.hidden, {model.x: xs[:2]})")
    _, outcomes, reasons = migrate(tmp_path, {"model.py": MODEL, "train.py": train})
    assert outcomes == {"model.py": "compat", "train.py": "compat"}
    assert "self.hidden" in reasons["model.py"]


def test_the_index_lists_each_class_s_methods_and_class_attributes(tmp_path):
    info = scan_module("model", tmp_path / "model.py", MODEL)
    assert info.class_members == {"Model": ("__init__", "describe", "kind")}


def test_an_answer_is_written_with_the_importer_s_object_values_and_helpers():
    call = cst.parse_expression("to_numpy_2(__object__.run_pred(x=tensorflow.cast(__feed_0__, tensorflow.float32)))")
    template = answer_template(call, "to_numpy_2", "call_compiled", "tensorflow")
    assert template == f"{ANSWER_TO_NUMPY}(__object__.run_pred(x={ANSWER_TF}.cast(__feed_0__, {ANSWER_TF}.float32)))"
    filled, used = filled_answer(template, "net", None, [cst.parse_expression("batch[0]")], "to_numpy",
                                 "call_compiled", "tf")  # the importer's own name of TF
    assert cst.Module([]).code_for_node(filled) == "to_numpy(net.run_pred(x=tf.cast(batch[0], tf.float32)))"
    assert used == {ANSWER_TO_NUMPY}


SAVING = '''import os
import sys

import numpy as np
import tensorflow as tf
from model import Model

model = Model(3, 2)
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
saver = tf.train.Saver()
ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
with tf.Session() as sess:
    if os.environ.get("RESTORE"):
        saver.restore(sess, ckpt)
        print(sess.run(model.pred, {model.x: xs[:2]}))
        sys.exit(0)
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        sess.run(model.train_op, feed_dict={model.x: xs, model.y: np.ones((4, 2))})
    saver.save(sess, ckpt)
    print(sess.run(model.pred, {model.x: xs[:2]}))
'''


def test_the_importer_s_saver_keeps_the_class_s_variables_under_their_tf1_names(tmp_path):
    """The legacy program trains and saves; the migrated one restores that checkpoint and predicts the same."""
    _, outcomes, _ = migrate(tmp_path, {"model.py": MODEL, "train.py": SAVING})
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert 'Saver(var_list={"Variable": model.w, "Variable_1": model.b})' in output(tmp_path, "train.py")
    assert "        self.w = w\n" in output(tmp_path, "model.py")
    env = dict(os.environ, CKPT_DIR=str(tmp_path))
    legacy = subprocess.run([sys.executable, "-c", _LEGACY_RUN], cwd=tmp_path / "src", env=env, capture_output=True,
                            text=True, timeout=300)
    assert legacy.returncode == 0, legacy.stderr[-2000:]
    restored = subprocess.run([sys.executable, "train.py"], cwd=tmp_path / "out", env=dict(env, RESTORE="1"),
                              capture_output=True, text=True, timeout=300)
    assert restored.returncode == 0, restored.stderr[-2000:]
    assert restored.stdout.strip() and restored.stdout.strip() == legacy.stdout.strip()


_LEGACY_RUN = ("import runpy, sys\nimport tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
               "sys.modules['tensorflow'] = tf\nrunpy.run_path('train.py', run_name='__main__')\n")


def test_the_model_module_migrated_alone_stays_compat_with_the_reason():
    # alone, nothing says how its graph is run: the eager class would lack the placeholders and per-run members
    # train.py reads (it converted before, into a class that kept only its variables)
    from tf_migrate.engine import migrate_source
    result = migrate_source(MODEL, "model.py")
    assert result.outcome == "compat"
    assert "nothing in this file runs the graph `Model` builds" in result.compat_reason
