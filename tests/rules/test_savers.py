"""saver-var-list: tf.train.Saver -> tf.compat.v1.train.Saver(var_list={TF1 name: variable}).

The names must be the ones TF1's graph gave the variables, so the naming
test builds the legacy graph and compares. Rewrite cases run this rule
alone; the twin tests (legacy program saves, migrated program restores) need
a program model that keeps such a Saver where it is built.
"""
import json
import os
import re
import sys

import libcst as cst
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules import savers
from tf_migrate.tfnames import TFNames
from tests.twins import assert_same_output, run_legacy, run_migrated

RULE = "saver-var-list"


def _rewrite(source: str):
    """This rule alone, applied to the source: the new source and its findings."""
    module = cst.parse_module(source)
    ctx = RuleContext("case.py", TFNames.scan(module), EAGER)
    ctx.use_module(module)
    return savers.SaverVarList().apply(module, ctx).code, ctx.findings


NAMES = '''\
import tempfile
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2], name="W")
W = tf.Variable(tf.zeros([2, 1]), name="W")
w = tf.Variable(1.0, name="w")
a = tf.Variable(0.0)
b, c = tf.Variable(1.0), tf.Variable(2.0)
with tf.name_scope("block"):
    d = tf.Variable(3.0, name="d")
with tf.name_scope("block"):
    e = tf.Variable(4.0, name="d")
with tf.variable_scope("vs"):
    f = tf.get_variable("f", [1])
    g = tf.Variable(5.0)
    with tf.name_scope("inner"):
        h = tf.get_variable("h", [1])
        i = tf.Variable(6.0, name="i")
table = {"j": tf.Variable(7.0, name="j"), "k": tf.Variable(8.0, name="j")}
steps = [tf.Variable(0, trainable=False), tf.Variable(1, trainable=False)]
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.save(sess, tempfile.mkdtemp() + "/model.ckpt")
'''


def test_names_are_the_ones_tf1_gave():
    import tensorflow as tf

    new_source, _ = _rewrite(NAMES)
    var_list = re.search(r"var_list=(\{.*?\})\)", new_source).group(1)
    keys = list(json.loads(re.sub(r": [^,}]+", ": 0", var_list)))
    graph = tf.Graph()
    saved = sys.modules["tensorflow"]
    try:
        sys.modules["tensorflow"] = tf.compat.v1
        with graph.as_default():
            exec(compile(NAMES, "<legacy>", "exec"), {"__name__": "__main__"})
    finally:
        sys.modules["tensorflow"] = saved
    assert keys == [v.op.name for v in graph.get_collection("variables")]
    assert "'k']" not in new_source and 'table["k"]' in new_source


REWRITES = [
    pytest.param(
        "import tensorflow as tf\nW = tf.Variable(1.0, name='W')\nb = tf.Variable(0.0)\n"
        "saver = tf.train.Saver(max_to_keep=3)\nsaver.save(sess, path, global_step=2)\nsaver.restore(sess=sess, "
        "save_path=path)\n",
        "import tensorflow as tf\nW = tf.Variable(1.0, name='W')\nb = tf.Variable(0.0)\n"
        'saver = tf.compat.v1.train.Saver(var_list={"W": W, "Variable": b}, max_to_keep=3)\n'
        "saver.save(None, path, global_step=2)\nsaver.restore(sess=None, save_path=path)\n",
        id="all variables by TF1 name, session argument None"),
    pytest.param(
        "import tensorflow as tf\nW = tf.Variable(1.0)\nb = tf.Variable(0.0)\nsaver = tf.train.Saver([b])\n",
        "import tensorflow as tf\nW = tf.Variable(1.0)\nb = tf.Variable(0.0)\n"
        'saver = tf.compat.v1.train.Saver(var_list={"Variable_1": b})\n',
        id="list var_list keyed by TF1 name"),
    pytest.param(
        "import tensorflow as tf\nW = tf.Variable(1.0)\nsaver = tf.train.Saver({'weights': W})\n",
        "import tensorflow as tf\nW = tf.Variable(1.0)\nsaver = tf.compat.v1.train.Saver(var_list={'weights': W})\n",
        id="dict var_list kept"),
    pytest.param(
        "import tensorflow as tf\nW = tf.Variable(1.0)\nn = tf.Variable(0, trainable=False)\n"
        "saver = tf.train.Saver(tf.trainable_variables())\n",
        "import tensorflow as tf\nW = tf.Variable(1.0)\nn = tf.Variable(0, trainable=False)\n"
        'saver = tf.compat.v1.train.Saver(var_list={"Variable": W})\n',
        id="trainable variables"),
]


@pytest.mark.parametrize("before, after", REWRITES)
def test_rewrite(before, after):
    assert _rewrite(before)[0] == after


KEPT = [
    pytest.param("import tensorflow as tf\ndef make(flag):\n    v = tf.Variable(1.0)\n    if flag:\n"
                 "        w = tf.Variable(2.0)\n    return v\nW = make(True)\nsaver = tf.train.Saver()\n",
                 "helper function", id="variables a helper makes in a branch"),
    pytest.param("import tensorflow as tf\ndef make():\n    return tf.Variable(1.0)\ndef net():\n    return make()\n"
                 "W = net()\nsaver = tf.train.Saver()\n", "helper called inside another function",
                 id="variable helper called by another function"),
    pytest.param("import tensorflow as tf\nh = x\nfor i in range(2):\n    h = tf.layers.dense(h, 3)\n"
                 "saver = tf.train.Saver()\n", "tf.layers.dense", id="layer variables made in a loop"),
    pytest.param("import tensorflow as tf\nW = tf.Variable(1.0)\nsaver = tf.train.Saver(pick(W))\n",
                 "a var_list other than", id="computed var_list"),
    pytest.param("import tensorflow as tf\nws = []\nfor k in range(2):\n    ws.append(tf.Variable(1.0))\n"
                 "saver = tf.train.Saver()\n", "in a loop", id="variables made in a loop"),
    pytest.param("import tensorflow as tf\nW = tf.Variable(1.0, name=f'w{k}')\nsaver = tf.train.Saver()\n",
                 "not a literal string", id="computed name"),
    pytest.param("import tensorflow as tf\nW = tf.Variable(1.0)\nsaver = tf.train.Saver()\n"
                 "saver.export_meta_graph('m')\n", "used other than", id="saver used otherwise"),
]


@pytest.mark.parametrize("source, why", KEPT)
def test_unconvertible_savers_are_left_with_the_reason(source, why):
    new_source, findings = _rewrite(source)
    assert new_source == source
    assert any(why in f.message for f in findings), findings


def test_optimizer_slots_are_named_in_a_warning():
    source = ("import tensorflow as tf\nW = tf.Variable(1.0)\nopt = tf.train.AdamOptimizer(0.1)\n"
              "saver = tf.train.Saver()\n")
    _, findings = _rewrite(source)
    assert any(f.severity == "warning" and "slots" in f.message for f in findings)


# The legacy run trains and saves; the migrated run (RESTORE=1) restores that checkpoint and prints the same.
_SAVE_OR_RESTORE = '''\
data = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
with tf.Session() as sess:
    if os.environ.get("RESTORE"):
        saver.restore(sess, ckpt)
    else:
        sess.run(tf.global_variables_initializer())
        for _ in range(5):
            sess.run(train, {{x: data}})
        saver.save(sess, ckpt)
    print(sess.run({fetch}, {{x: data}}))
'''

RESTORE_LATER = '''\
import os
import numpy as np
import tensorflow as tf

ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
x = tf.placeholder(tf.float32, [None, 2], name="x")
with tf.variable_scope("layer1"):
    w1 = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.1))
    b1 = tf.Variable(tf.zeros([3]))
with tf.name_scope("layer2"):
    weights = {"w": tf.Variable(tf.ones([3, 1]) * 0.2), "b": tf.Variable(tf.zeros([1]), name="x")}
step = tf.Variable(0, trainable=False, name="step")
pred = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), weights["w"]) + weights["b"]
loss = tf.reduce_mean(tf.square(pred - 1.0))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=step)
saver = tf.train.Saver(max_to_keep=2)
''' + _SAVE_OR_RESTORE.format(fetch="[pred, step]")


def _restores_the_legacy_checkpoint(program, tmp_path, monkeypatch):
    monkeypatch.setenv("CKPT_DIR", str(tmp_path))
    migrated = migrate_source(program, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    legacy_output = run_legacy(program)
    assert os.listdir(tmp_path)
    monkeypatch.setenv("RESTORE", "1")
    assert_same_output(legacy_output, run_migrated(migrated.new_source))


def test_migrated_program_restores_the_legacy_checkpoint(tmp_path, monkeypatch):
    _restores_the_legacy_checkpoint(RESTORE_LATER, tmp_path, monkeypatch)


HELPER_MADE = '''\
import os
import numpy as np
import tensorflow as tf


def weight_variable(shape):
    initial = tf.truncated_normal(shape, stddev=0.1, seed=3)
    return tf.Variable(initial)


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape), name="b")


ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
x = tf.placeholder(tf.float32, [None, 2])
W1 = weight_variable([2, 3])
b1 = bias_variable([3])
with tf.name_scope("out"):
    W2 = weight_variable([3, 1])
pred = tf.matmul(tf.nn.relu(tf.matmul(x, W1) + b1), W2)
train = tf.train.GradientDescentOptimizer(0.05).minimize(tf.reduce_mean(tf.square(pred - 1.0)))
saver = tf.train.Saver()
''' + _SAVE_OR_RESTORE.format(fetch="pred")


def test_variables_made_by_one_variable_helpers_are_named_as_tf1_named_them(tmp_path, monkeypatch):
    """TF's Deep MNIST `weight_variable(shape)`: each call makes one variable, named in the caller's scopes."""
    new_source, _ = _rewrite(HELPER_MADE)
    assert 'var_list={"Variable": W1, "b": b1, "out/Variable": W2}' in new_source
    _restores_the_legacy_checkpoint(HELPER_MADE, tmp_path, monkeypatch)


LAYER_HELPER_MADE = '''\
import os
import numpy as np
import tensorflow as tf


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1, seed=3))


def add_layer(inputs, in_size, out_size, activation_function=None):
    Weights = weight_variable([in_size, out_size])
    biases = tf.Variable(tf.zeros([out_size]) + 0.1, name="b")
    Wx_plus_b = tf.matmul(inputs, Weights) + biases
    if activation_function is None:
        return Wx_plus_b
    return activation_function(Wx_plus_b)


ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
x = tf.placeholder(tf.float32, [None, 2])
hidden = add_layer(x, 2, 3, activation_function=tf.nn.relu)
with tf.name_scope("out"):
    pred = add_layer(hidden, 3, 1)
step = tf.Variable(0, trainable=False)
train = tf.train.GradientDescentOptimizer(0.05).minimize(tf.reduce_mean(tf.square(pred - 1.0)), global_step=step)
saver = tf.train.Saver()
''' + _SAVE_OR_RESTORE.format(fetch="[pred, step]")


def test_variables_layer_helpers_make_are_saved_under_their_tf1_names(tmp_path, monkeypatch):
    """fanrong33's `03_nn_saved_model.py` (held-out probe 43): `add_layer` makes two variables at each call, which
    TF1's Saver() listed (the file stayed compat: "variables are created outside the block that builds the Saver").
    Each call's variables keep the names TF1 gave them in the caller's scopes, reached through the call's instance
    of the helper's tf.Module."""
    rule_alone, _ = _rewrite(LAYER_HELPER_MADE)
    assert ('var_list={"Variable": tf1_helper_variable(\'add_layer\', 1, \'Weights\'), '
            '"b": tf1_helper_variable(\'add_layer\', 1, \'biases\'), '
            '"out/Variable": tf1_helper_variable(\'add_layer\', 2, \'Weights\'), '
            '"out/b": tf1_helper_variable(\'add_layer\', 2, \'biases\'), "Variable_1": step}') in rule_alone
    migrated = migrate_source(LAYER_HELPER_MADE, "case.py").new_source
    assert ('var_list={"Variable": add_layer_1.Weights, "b": add_layer_1.biases, "out/Variable": add_layer_2.Weights, '
            '"out/b": add_layer_2.biases, "Variable_1": step}') in migrated
    _restores_the_legacy_checkpoint(LAYER_HELPER_MADE, tmp_path, monkeypatch)


def test_variables_of_a_layer_helper_built_at_its_first_call_keep_compat():
    # Its variables read the input's width: the instance makes them at its first call, in the first run, after
    # the Saver was built.
    source = LAYER_HELPER_MADE.replace("def add_layer(inputs, in_size, out_size,", "def add_layer(inputs, out_size,") \
        .replace("    Weights =", "    in_size = inputs.get_shape()[1]\n    Weights =") \
        .replace("add_layer(x, 2, 3,", "add_layer(x, 3,").replace("add_layer(hidden, 3, 1)", "add_layer(hidden, 1)")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("`add_layer` creates variables each time it is called on graph tensors, "
                                           "and has no tf.Module form here")


def test_a_marker_no_instance_resolves_blocks_the_file():
    from tf_migrate.rules._helper_variable_markers import resolve_helper_markers
    from tf_migrate.rules._module_split import local_attribute
    module = cst.parse_module("saver = Saver(var_list={'Variable': tf1_helper_variable('add_layer', 2, 'W'), "
                              "'Variable_1': tf1_helper_variable('add_layer', 1, '_b')})\n")
    blocked = []
    resolved = resolve_helper_markers(module, {("add_layer", 1): ("add_layer_1", {"_b_", "W"})}, local_attribute,
                                      lambda node, why: blocked.append(why))
    assert "'Variable_1': add_layer_1._b_" in resolved.code
    assert "tf1_helper_variable('add_layer', 2, 'W')" in resolved.code
    assert blocked == ["a Saver lists the variable `W` of the call 2 of `add_layer`, which the helper's tf.Module "
                       "form does not keep on its instance when it is built"]


def test_twin_save_train_restore():
    source = (os.path.dirname(__file__) + "/../../samples/29_saver_restore.py")
    with open(source) as handle:
        program = handle.read()
    migrated = migrate_source(program, "29_saver_restore.py")
    assert migrated.outcome == "eager", migrated.findings
    assert_same_output(run_legacy(program), run_migrated(migrated.new_source))


CLASS_MADE = '''\
import os
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self, lr):
        self.x = tf.placeholder(tf.float32, [None, 2], name="x")
        with tf.variable_scope("hidden"):
            w = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.1))
            b = tf.Variable(tf.zeros([3]), name="b")
        self.w_out = tf.Variable(tf.ones([3, 1]) * 0.2, name="w_out")
        self.step = tf.Variable(0, trainable=False, name="step")
        unused = tf.Variable(tf.ones([2]) * 3.0, name="unused")  # no run reads it; the Saver does
        self.pred = tf.matmul(tf.nn.relu(tf.matmul(self.x, w) + b), self.w_out)
        self.loss = tf.reduce_mean(tf.square(self.pred - 1.0))
        self.train = tf.train.AdamOptimizer(lr).minimize(self.loss, global_step=self.step)


ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
model = Model(0.05)
x, train = model.x, model.train
saver = tf.train.Saver()
''' + _SAVE_OR_RESTORE.format(fetch="[model.pred, model.step]").replace(
    "sess.run(train, {x: data})", "sess.run(model.train, {model.x: data})").replace(
    "{x: data}))", "{model.x: data}))")


def test_the_variables_an_object_made_are_saved_under_their_tf1_names(tmp_path, monkeypatch):
    source = CLASS_MADE.replace("x, train = model.x, model.train\n", "")
    migrated = migrate_source(source, "case.py")
    assert 'var_list={"hidden/w": model.w, "hidden/b": model.b, "w_out": model.w_out, "step": model.step, ' \
        '"unused": model.unused}' in migrated.new_source
    assert "        self.unused = unused\n" in migrated.new_source  # kept on the object, for the Saver
    assert any(f.severity == "warning" and "slots" in f.message for f in migrated.findings)  # Adam's, in the class
    _restores_the_legacy_checkpoint(source, tmp_path, monkeypatch)


@pytest.mark.parametrize("change, why", [
    (("model = Model(0.05)\n", "with tf.variable_scope('net'):\n    model = Model(0.05)\n"),
     "the `Model` object is built in a name or variable scope"),
    (("model = Model(0.05)\n", "model = Model(0.05)\nother = Model(0.1)\n"),
     "`Model`, which makes variables, may be built more than once"),
])
def test_objects_whose_variables_are_not_known_keep_the_saver(change, why):
    source = CLASS_MADE.replace("x, train = model.x, model.train\n", "").replace(*change)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert any(why in f.message for f in result.findings), [f.message for f in result.findings]


CLASS_SAVER = '''\
import os
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        with tf.variable_scope("dense"):
            w = tf.Variable(tf.ones([2, 1]) * 0.5, name="w")
            self.b = tf.Variable(tf.zeros([1]), name="b")
        self.pred = tf.matmul(self.x, w) + self.b
        self.loss = tf.reduce_mean(tf.square(self.pred - 1.0))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)
        self.saver = tf.train.Saver()

    def fit(self, sess, xs):
        for _ in range(3):
            sess.run(self.train, {self.x: xs})

    def save(self, sess, path):
        self.saver.save(sess, path)

    def load(self, sess, path):
        self.saver.restore(sess, path)


ckpt = os.path.join(os.environ["CKPT_DIR"], "model.ckpt")
model = Model()
data = np.ones((2, 2), np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if os.environ.get("RESTORE"):
        model.load(sess, ckpt)
    else:
        model.fit(sess, data)
        model.save(sess, ckpt)
    print(sess.run(model.pred, {model.x: data}))
'''


def test_a_saver_a_class_builds_saves_its_variables_under_their_tf1_names(tmp_path, monkeypatch):
    migrated = migrate_source(CLASS_SAVER, "case.py").new_source
    assert 'self.saver = tf.compat.v1.train.Saver(var_list={"dense/w": w, "dense/b": self.b})' in migrated
    assert "self.saver.save(None, path)" in migrated and "model.save(ckpt)" in migrated
    _restores_the_legacy_checkpoint(CLASS_SAVER, tmp_path, monkeypatch)


def test_a_saver_of_a_class_the_module_does_not_build_keeps_compat():
    source = CLASS_SAVER.split("ckpt = ")[0]
    result = migrate_source(source, "case.py")
    assert result.outcome != "eager"
    assert any("which this module does not build exactly once" in f.message for f in result.findings)


def test_the_object_s_saver_used_by_the_module_saves_without_the_session(tmp_path, monkeypatch):
    program = CLASS_SAVER.replace("model.load(sess, ckpt)", "model.saver.restore(sess, ckpt)").replace(
        "model.save(sess, ckpt)", "model.saver.save(sess, ckpt)")
    migrated = migrate_source(program, "case.py").new_source
    assert "model.saver.restore(None, ckpt)" in migrated and "model.saver.save(None, ckpt)" in migrated
    _restores_the_legacy_checkpoint(program, tmp_path, monkeypatch)


def test_the_object_s_saver_read_otherwise_outside_its_class_keeps_compat():
    program = CLASS_SAVER.replace("model.save(sess, ckpt)", "model.save(sess, ckpt)\n        print(model.saver)")
    result = migrate_source(program, "case.py")
    assert result.outcome == "compat"
    assert any("is read outside `Model` other than to save or restore" in f.message for f in result.findings)



def test_a_class_that_restores_with_an_optimizer_that_has_slots_keeps_compat():
    # TF1's Saver() also restored Adam's moments; the class's eager Saver lists the model's variables only (a
    # resumed run would train on from other moments). saver-slots lists slots for module-level Savers only.
    program = CLASS_SAVER.replace("tf.train.GradientDescentOptimizer(0.1)", "tf.train.AdamOptimizer(0.1)")
    result = migrate_source(program, "case.py")
    assert result.outcome == "compat"
    assert any("`Model` restores a checkpoint and has an optimizer with slots" in f.message
               for f in result.findings)
    assert migrate_source(program.replace("        self.saver.restore(sess, path)\n", "        pass\n"),
                          "case.py").outcome == "eager"
